"""``torch._foreach_*``: values, in-place results and errors as PyTorch 2.13 gives them (recorded)."""
from __future__ import annotations

import pytest

import tinyframe as tf


def _lists(tensors: list) -> list:
    return [t.tolist() for t in tensors]


def test_out_of_place_forms_pair_lists_and_broadcast_numbers() -> None:
    a = [tf.tensor([1.0, 2.0]), tf.tensor([[3.0, -4.0]])]
    b = [tf.tensor([0.5, 0.5]), tf.tensor([[1.0, 1.0]])]
    assert _lists(tf._foreach_add(a, b, alpha=2)) == [[2.0, 3.0], [[5.0, -2.0]]]
    assert _lists(tf._foreach_mul(a, 3)) == [[3.0, 6.0], [[9.0, -12.0]]]
    assert _lists(tf._foreach_div(a, [2.0, 4.0])) == [[0.5, 1.0], [[0.75, -1.0]]]
    assert _lists(tf._foreach_norm(a)) == pytest.approx([2.2360680103302, 5.0])
    assert _lists(tf._foreach_maximum(a, b)) == [[1.0, 2.0], [[3.0, 1.0]]]
    assert _lists(tf._foreach_max(a)) == [2.0, 3.0]


def test_in_place_forms_update_and_return_the_list() -> None:
    a = [tf.tensor([1.0, 2.0]), tf.tensor([[3.0, -4.0]])]
    b = [tf.tensor([0.5, 0.5]), tf.tensor([[1.0, 1.0]])]
    c = [t.clone() for t in a]
    assert tf._foreach_lerp_(c, b, 0.25) is c
    assert _lists(c) == [[0.875, 1.625], [[2.5, -2.75]]]
    tf._foreach_addcmul_(c, a, b, value=2.0)
    assert _lists(c) == [[1.875, 3.625], [[8.5, -10.75]]]
    tf._foreach_clamp_min_(c, 0.0)
    tf._foreach_sqrt_(c)
    assert _lists(c)[0] == pytest.approx([1.3693064451217651, 1.9039433002471924])
    assert _lists(tf._foreach_maximum_(c, [tf.full((2,), 5.0), tf.zeros(1, 2)]))[0] == [5.0, 5.0]
    assert tf._foreach_zero_(c) is c and _lists(c) == [[0.0, 0.0], [[0.0, 0.0]]]
    assert tf._foreach_copy_(c, b) is c and _lists(c) == [[0.5, 0.5], [[1.0, 1.0]]]


def test_errors_are_pytorchs() -> None:
    a = [tf.ones(2), tf.ones(1)]
    with pytest.raises(RuntimeError, match="^Tensor lists must have the same number of tensors, got 2 and 1$"):
        tf._foreach_add(a, a[:1])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        tf._foreach_mul_([tf.ones(2, requires_grad=True)], 2.0)


def _graph_inputs() -> tuple:
    a = [tf.tensor([1.0, 2.0], requires_grad=True), tf.tensor([0.5, 3.0, 1.5], requires_grad=True)]
    b = [tf.tensor([0.25, 2.0], requires_grad=True), tf.tensor([1.25, 2.0, 0.75])]
    return a, b


_GRAPH_CASES = {
    "add_list_alpha": lambda a, b: tf._foreach_add(a, b, alpha=2),
    "add_number": lambda a, b: tf._foreach_add(a, 2),
    "add_numbers": lambda a, b: tf._foreach_add(a, [2, 3]),
    "add_tensor": lambda a, b: tf._foreach_add(a, tf.tensor(2.0)),
    "mul_tensor": lambda a, b: tf._foreach_mul(a, tf.tensor(2.0)),
    "div_list": lambda a, b: tf._foreach_div(a, b),
    "pow_number": lambda a, b: tf._foreach_pow(a, 2.0),
    "maximum_number": lambda a, b: tf._foreach_maximum(a, 1.0),
    "clamp_max_list": lambda a, b: tf._foreach_clamp_max(a, b),
    "lerp_list_twice": lambda a, b: tf._foreach_lerp(a, b, b),
    "addcmul_numbers": lambda a, b: tf._foreach_addcmul(a, b, b, [2, 3]),
    "log1p": lambda a, b: tf._foreach_log1p(a),
    "norm": lambda a, b: tf._foreach_norm(a),
}

# PyTorch 2.13's (node name, next_functions' names, output_nr of each result, result type, gradients of
# sum(out ** 2) for a[0], a[1], b[0]), recorded by running the cases above under torch
_GRAPH_EXPECTED = {'add_list_alpha': ('ForeachAddBackward0List',
                    ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad',
                     'torch::autograd::AccumulateGrad', None],
                    [0, 1], 'tuple', [[3.0, 12.0], [6.0, 14.0, 6.0], [6.0, 24.0]]),
 'add_number': ('ForeachAddBackward1Scalar', ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'],
                [0, 1], 'tuple', [[6.0, 8.0], [5.0, 10.0, 7.0], None]),
 'add_numbers': ('ForeachAddBackward1ScalarList',
                 ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'], [0, 1], 'tuple',
                 [[6.0, 8.0], [7.0, 12.0, 9.0], None]),
 'add_tensor': ('ForeachAddBackward1Scalar', ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'],
                [0, 1], 'tuple', [[6.0, 8.0], [5.0, 10.0, 7.0], None]),
 'mul_tensor': ('ForeachMulBackward0Tensor',
                ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad', None], [0, 1], 'tuple',
                [[8.0, 16.0], [4.0, 24.0, 12.0], None]),
 'div_list': ('ForeachDivBackward0',
              ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad',
               'torch::autograd::AccumulateGrad', None],
              [0, 1], 'tuple', [[32.0, 1.0], [0.64, 1.5, 5.33333], [-128.0, -1.0]]),
 'pow_number': ('ForeachPowBackward0Scalar', ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'],
                [0, 1], 'tuple', [[4.0, 32.0], [0.5, 108.0, 13.5], None]),
 'maximum_number': ('ForeachMaximumBackward0',
                    ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'], [0, 1], 'tuple',
                    [[1.0, 4.0], [0.0, 6.0, 3.0], None]),
 'clamp_max_list': ('ForeachClampMaxBackward1List',
                    ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad',
                     'torch::autograd::AccumulateGrad', None],
                    [0, 1], 'tuple', [[0.0, 4.0], [1.0, 0.0, 0.0], [0.5, 0.0]]),
 'lerp_list_twice': ('ForeachLerpBackward1List',
                     ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad',
                      'torch::autograd::AccumulateGrad', None, 'torch::autograd::AccumulateGrad', None],
                     [0, 1], 'tuple', [[1.21875, -4.0], [-0.71875, -2.0, 0.46875], [-0.8125, 8.0]]),
 'addcmul_numbers': ('ForeachAddcmulBackward0ScalarList',
                     ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad',
                      'torch::autograd::AccumulateGrad', None, 'torch::autograd::AccumulateGrad', None],
                     [0, 1], 'tuple', [[2.25, 20.0], [10.375, 30.0, 6.375], [2.25, 160.0]]),
 'log1p': ('ForeachLog1PBackward0', ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'], [0, 1],
           'tuple', [[0.69315, 0.73241], [0.54062, 0.69315, 0.73303], None]),
 'norm': ('ForeachNormBackward0', ['torch::autograd::AccumulateGrad', 'torch::autograd::AccumulateGrad'], [0, 1],
          'tuple', [[2.0, 4.0], [1.0, 6.0, 3.0], None])}


@pytest.mark.parametrize("name", list(_GRAPH_CASES))
def test_out_of_place_results_share_one_node_of_pytorchs_name(name: str) -> None:
    a, b = _graph_inputs()
    results = _GRAPH_CASES[name](a, b)
    node = results[0].grad_fn
    assert all(r.grad_fn is node for r in results)
    edges = [None if n is None else n.name() for n, _ in node.next_functions]
    loss = sum((r * r).sum() for r in results)
    grads = tf.autograd.grad(loss, [a[0], a[1], b[0]], allow_unused=True)
    got = (node.name(), edges, [r.output_nr for r in results], type(results).__name__,
           [None if g is None else [round(v, 5) for v in g.tolist()] for g in grads])
    assert got == _GRAPH_EXPECTED[name]


def test_a_result_no_gradient_reached_sends_none_and_double_backward_works() -> None:
    # PyTorch 2.13: backward from the second result leaves the first input's grad None
    a, b = _graph_inputs()
    results = tf._foreach_mul(a, 2.0)
    results[1].sum().backward()
    assert a[0].grad is None and a[1].grad.tolist() == [2.0, 2.0, 2.0]
    a, b = _graph_inputs()
    (ga,) = tf.autograd.grad(tf._foreach_pow(a, 3.0)[0].sum(), [a[0]], create_graph=True)
    assert ga.tolist() == [3.0, 12.0] and tf.autograd.grad(ga.sum(), [a[0]])[0].tolist() == [6.0, 12.0]
    assert tf._foreach_maximum([tf.tensor([1.0, 2.0, 3.0])], 2.0)[0].tolist() == [2.0, 2.0, 3.0]
    c = [tf.ones(2)]
    assert tf._foreach_addcmul_(c, c, c, [0.5]) is c and c[0].tolist() == [1.5, 1.5]
