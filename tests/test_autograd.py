"""The autograd semantics PyTorch users rely on, each pinned by a test."""
from __future__ import annotations

import gc
import threading
import weakref

import numpy as np
import pytest

import tinyframe as tf
from tinyframe import _graph
from tinyframe.autograd import Function, gradcheck, gradgradcheck
from tinyframe.ops import unary


def leaf(values: object, device: str = "cpu", dtype: tf.dtype = tf.float64) -> tf.Tensor:
    return tf.tensor(values, dtype=dtype, device=device, requires_grad=True)


def test_gradients_accumulate_until_zeroed(device: str) -> None:
    x = leaf([1.0, 2.0], device)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), [6.0, 6.0])
    x.grad.zero_()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), [2.0, 4.0])
    x.grad = None
    (x * 1).sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), [1.0, 1.0])


def test_leaf_grads_do_not_share_memory() -> None:
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + b).sum().backward()
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 1.0])


def test_second_backward_through_freed_graph_raises() -> None:
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_retain_graph_allows_a_second_backward() -> None:
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_saved_arrays_are_freed_after_backward() -> None:
    x = leaf([1.0, 2.0])
    y = x * x
    node = y.grad_fn
    y.sum().backward()
    assert node._saved is _graph.FREED  # nothing kept: no values, and a second pass raises
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


def test_non_scalar_backward_needs_gradient() -> None:
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    (x * 2).backward(tf.tensor([1.0, 10.0], dtype=tf.float64))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 20.0])


def test_backward_gradient_shape_must_match() -> None:
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(tf.ones(3, dtype=tf.float64))


def test_backward_of_tensor_without_grad_raises() -> None:
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        tf.tensor([1.0]).sum().backward()


def test_grad_returns_tuple_and_leaves_dot_grad_alone() -> None:
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = (x * w).sum()
    gx, gw = tf.autograd.grad(y, [x, w])
    np.testing.assert_allclose(gx.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(gw.numpy(), [1.0, 2.0])
    assert x.grad is None and w.grad is None
    assert not gx.requires_grad


def test_grad_of_unused_input_needs_allow_unused() -> None:
    x, unused = leaf([1.0]), leaf([2.0])
    with pytest.raises(RuntimeError, match="allow_unused=True"):
        tf.autograd.grad((x * 2).sum(), [x, unused])
    gx, gu = tf.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)
    assert gu is None and gx.item() == 2.0


def test_grad_takes_only_inputs_in_pytorchs_position_and_warns_when_false() -> None:
    # WGAN-GP code passes only_inputs=True; PyTorch ignores it and warns (FutureWarning) on False.
    x = leaf([1.0, 2.0])
    (g,) = tf.autograd.grad((x * x).sum(), x, None, None, False, True)
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])
    with pytest.warns(FutureWarning, match="only_inputs argument is deprecated"):
        tf.autograd.grad((x * 2).sum(), x, only_inputs=False)


def test_grad_with_respect_to_an_intermediate() -> None:
    x = leaf([1.0, 2.0])
    h = x * 3
    (gh,) = tf.autograd.grad((h * h).sum(), h)
    np.testing.assert_allclose(gh.numpy(), [6.0, 12.0])


def test_autograd_backward_with_several_roots() -> None:
    x = leaf([1.0, 2.0])
    tf.autograd.backward([(x * 2).sum(), (x * x).sum()])
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 6.0])


def test_backward_of_a_leaf_accumulates_into_its_own_grad() -> None:
    # PyTorch: x = torch.tensor(2.0, requires_grad=True); x.backward(); x.backward(torch.tensor(3.0)) -> x.grad 4.0
    x = tf.tensor(2.0, requires_grad=True)
    x.backward()
    x.backward(tf.tensor(3.0))
    assert x.grad.item() == 4.0


def test_graph_structure_matches_pytorch() -> None:
    a, b = leaf([1.0]), leaf([2.0])
    c = tf.tensor([3.0], dtype=tf.float64)
    y = a * b + c
    assert y.grad_fn.name() == "AddBackward0"
    (mul, mul_index), (nothing, nothing_index) = y.grad_fn.next_functions
    assert mul.name() == "MulBackward0" and mul_index == 0
    assert nothing is None and nothing_index == 0
    acc_a, acc_b = (node for node, _ in mul.next_functions)
    assert acc_a.name() == "torch::autograd::AccumulateGrad" and acc_a.variable is a and acc_b.variable is b
    assert a.is_leaf and not y.is_leaf and y.requires_grad and not c.requires_grad
    assert repr(y.grad_fn).startswith("<AddBackward0 object at 0x")


def test_the_same_accumulate_node_serves_every_use_of_a_leaf() -> None:
    x = leaf([1.0])
    first, second = (x * 2).grad_fn.next_functions[0][0], (x + 1).grad_fn.next_functions[0][0]
    assert first is second


def test_nonleaf_grad_is_none_unless_retained() -> None:
    x = leaf([1.0, 2.0])
    h = x * 2
    kept = x * 3
    kept.retain_grad()
    (h * kept).sum().backward()
    with pytest.warns(UserWarning, match="not a leaf Tensor is being accessed"):
        assert h.grad is None
    np.testing.assert_allclose(kept.grad.numpy(), [2.0, 4.0])
    assert kept.retains_grad and not h.retains_grad


def test_hooks_see_and_replace_gradients() -> None:
    x = leaf([1.0, 2.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.numpy().copy()))
    h = x * 2
    handle = h.register_hook(lambda g: g * 10)
    h.sum().backward()
    np.testing.assert_allclose(seen[0], [20.0, 20.0])
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 20.0])
    handle.remove()


def test_hook_on_tensor_without_grad_raises() -> None:
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        tf.tensor([1.0]).register_hook(lambda g: g)


def test_only_floating_tensors_can_require_grad() -> None:
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        tf.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="floating point"):
        tf.arange(3).requires_grad_()


def test_requires_grad_flag_of_nonleaf_cannot_be_cleared() -> None:
    y = leaf([1.0]) * 2
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad = False


def test_detach_shares_storage_and_leaves_the_graph() -> None:
    x = leaf([1.0, 2.0])
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad and d.grad_fn is None
    d[0] = 100.0
    assert y[0].item() == 100.0
    y.detach_()
    assert y.is_leaf and not y.requires_grad


def test_numpy_of_tensor_requiring_grad_raises() -> None:
    with pytest.raises(RuntimeError, match=r"Use tensor.detach\(\).numpy\(\) instead"):
        leaf([1.0]).numpy()
    assert leaf([1.0]).detach().numpy().tolist() == [1.0]


def test_no_grad_records_nothing_and_works_as_decorator() -> None:
    x = leaf([1.0])
    with tf.no_grad():
        y = x * 2
        with tf.enable_grad():
            z = x * 2
    assert not y.requires_grad and y.grad_fn is None and z.requires_grad

    @tf.no_grad()
    def doubled(t: tf.Tensor) -> tf.Tensor:
        return t * 2

    assert not doubled(x).requires_grad and tf.is_grad_enabled()
    tf.set_grad_enabled(False)
    assert not (x * 2).requires_grad
    tf.set_grad_enabled(True)
    with tf.set_grad_enabled(False):
        assert not tf.is_grad_enabled()
    assert tf.is_grad_enabled()


def test_grad_mode_is_thread_local() -> None:
    seen = []
    with tf.no_grad():
        worker = threading.Thread(target=lambda: seen.append(tf.is_grad_enabled()))
        worker.start()
        worker.join()
    assert seen == [True]


def test_inplace_on_leaf_requiring_grad_raises() -> None:
    x = leaf([1.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.add_(1)
    with tf.no_grad():
        x.add_(1)
    assert x.item() == 2.0


def test_modifying_a_saved_tensor_in_place_raises_at_backward() -> None:
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_inplace_on_nonleaf_is_differentiable() -> None:
    x = leaf([1.0, 2.0])
    y = x * 2
    y.mul_(x)
    y += 1
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])
    assert y._version == 2


def test_create_graph_gives_higher_derivatives() -> None:
    x = leaf(3.0)
    y = x ** 3
    (dy,) = tf.autograd.grad(y, x, create_graph=True)
    (d2y,) = tf.autograd.grad(dy, x, create_graph=True)
    (d3y,) = tf.autograd.grad(d2y, x)
    assert (dy.item(), d2y.item(), d3y.item()) == (27.0, 18.0, 6.0)
    z = leaf(5.0)
    (g,) = tf.autograd.grad(z * z, z, create_graph=True)
    g.backward()
    assert z.grad.item() == 2.0


def test_backward_with_create_graph_builds_a_differentiable_grad() -> None:
    x = leaf([1.0, 2.0])
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    (gg,) = tf.autograd.grad(x.grad.sum(), x)
    np.testing.assert_allclose(gg.numpy(), [6.0, 12.0])


def test_hessian_vector_product_of_a_small_net() -> None:
    rng = np.random.default_rng(0)
    w = leaf(rng.standard_normal((3, 2)))
    x = tf.tensor(rng.standard_normal((4, 3)))
    v = tf.tensor(rng.standard_normal((3, 2)))

    def loss(weights: tf.Tensor) -> tf.Tensor:
        return ((x @ weights).tanh() ** 2).sum()

    (g,) = tf.autograd.grad(loss(w), w, create_graph=True)
    (hv,) = tf.autograd.grad((g * v).sum(), w)
    eps = 1e-6
    w_plus, w_minus = leaf(w.detach().numpy() + eps * v.numpy()), leaf(w.detach().numpy() - eps * v.numpy())
    (g_plus,) = tf.autograd.grad(loss(w_plus), w_plus)
    (g_minus,) = tf.autograd.grad(loss(w_minus), w_minus)
    np.testing.assert_allclose(hv.numpy(), (g_plus.numpy() - g_minus.numpy()) / (2 * eps), rtol=1e-5, atol=1e-7)


def test_control_flow_gradient_equals_d_over_a() -> None:
    a = tf.randn((), requires_grad=True)

    def f(a: tf.Tensor) -> tf.Tensor:
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        return b if b.sum() > 0 else 100 * b

    d = f(a)
    d.backward()
    assert a.grad.item() == pytest.approx((d / a).item(), rel=1e-6)


def test_shared_subexpressions_are_visited_once() -> None:
    x = leaf([2.0])
    h = x * x
    y = h + h * h
    y.backward(tf.ones(1, dtype=tf.float64))
    assert x.grad.item() == pytest.approx(2 * 2.0 + 4 * 2.0 ** 3)


def test_deep_graph_needs_no_recursion() -> None:
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y + 1.0
    y.sum().backward()
    assert x.grad.item() == 1.0


def test_dropped_graph_is_freed_without_a_gc_pass() -> None:
    x = leaf(np.ones(1000))
    y = (x * 2).exp()
    node = weakref.ref(y.grad_fn)
    gc.disable()
    try:
        loss = y.sum()
        del y
        del loss
        assert node() is None
        accumulator = weakref.ref(x._accumulator)
        del x
        assert accumulator() is None  # the leaf's AccumulateGrad goes with it
    finally:
        gc.enable()


def test_mixed_dtype_gradients_take_each_input_dtype() -> None:
    a = tf.tensor([1.0, 2.0], dtype=tf.float32, requires_grad=True)
    b = tf.tensor([3.0, 4.0], dtype=tf.float64, requires_grad=True)
    y = a * b
    assert y.dtype == tf.float64
    y.sum().backward()
    assert a.grad.dtype == tf.float32 and b.grad.dtype == tf.float64


class Exp(Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):  # noqa: ANN001, ANN205
        (result,) = ctx.saved_tensors
        return grad_output * result


class ScaleBy(Function):
    @staticmethod
    def forward(ctx, x, factor, shift):  # noqa: ANN001, ANN205
        ctx.factor = factor
        ctx.seen_needs = ctx.needs_input_grad
        return x * factor + shift

    @staticmethod
    def backward(ctx, grad_output):  # noqa: ANN001, ANN205
        return grad_output * ctx.factor, None, grad_output


def test_custom_function_forward_backward_and_name() -> None:
    x = leaf([0.0, 1.0])
    y = Exp.apply(x)
    assert y.grad_fn.name() == "ExpBackward"
    # PyTorch's node is a Python object of class torch.autograd.function.ExpBackward
    assert repr(y.grad_fn) == f"<tinyframe.autograd.function.ExpBackward object at {hex(id(y.grad_fn))}>"
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))
    assert tf.autograd.gradcheck(Exp.apply, [leaf([0.3, -0.2])])


def test_custom_function_with_non_tensor_arguments() -> None:
    x, shift = leaf([1.0, 2.0]), tf.tensor([1.0, 1.0], dtype=tf.float64)
    y = ScaleBy.apply(x, 3.0, shift)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])
    assert y.grad_fn.seen_needs == (True, False, False)


def test_custom_function_wrong_number_of_gradients_raises() -> None:
    class Bad(Function):
        @staticmethod
        def forward(ctx, x, y):  # noqa: ANN001, ANN205
            return x * y

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return g

    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        Bad.apply(leaf([1.0]), leaf([2.0])).sum().backward()


def test_custom_function_gradient_of_a_wrong_shape_raises() -> None:
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            return x * 2

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return tf.ones(3)

    with pytest.raises(RuntimeError, match=r"^Function BadBackward returned an invalid gradient at index 0 - got "
                                           r"\[3\] but expected shape compatible with \[2\]$"):
        Bad.apply(leaf([1.0, 2.0])).sum().backward()


def test_custom_function_saved_input_modified_in_place_raises() -> None:
    class Square(Function):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            (x,) = ctx.saved_tensors
            return 2 * x * g

    base = leaf([1.0, 2.0])
    x = base * 1
    y = Square.apply(x)
    x.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_custom_function_is_importable_from_function_module() -> None:
    from tinyframe.autograd.function import Function as FromModule
    assert FromModule is Function


def test_gradcheck_detects_a_wrong_gradient() -> None:
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            return x * x

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return g

    with pytest.raises(tf.autograd.GradcheckError):
        tf.autograd.gradcheck(Wrong.apply, [leaf([1.0, 2.0])])
    assert not tf.autograd.gradcheck(Wrong.apply, [leaf([1.0, 2.0])], raise_exception=False)


def test_gradcheck_warns_on_single_precision_and_needs_an_input_that_requires_grad() -> None:
    # PyTorch 2.13's warning and error
    with pytest.warns(UserWarning, match="Input #1 requires gradient and is not a double precision floating point"):
        tf.autograd.gradcheck(lambda a, b: a * b, [leaf([1.0]), leaf([2.0], dtype=tf.float32)], raise_exception=False)
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
        tf.autograd.gradcheck(lambda a: a * 2, [tf.ones(2, dtype=tf.float64)])


def test_products_and_quotients_by_a_number_do_not_save_the_tensor() -> None:
    # PyTorch saves an operand only for the gradient that needs it: changing ``a`` in place after
    # ``a * 2`` or ``a[0] / 2.5`` leaves their backward valid (voxelmorph normalises grid slices so)
    for f, expected in ((lambda a: a * 2, 2.0), (lambda a: 2 * a, 2.0), (lambda a: a / 4, 0.25)):
        x = leaf([1.0, 2.0])
        a = x * 1
        b = f(a)
        a.add_(1)
        b.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), [expected, expected])
    x = leaf([1.0, 2.0])
    a = x * 1
    b = a * a
    a.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()


def test_decorated_generators_run_each_step_under_the_switch() -> None:
    # PyTorch's decorators wrap generator functions: each resume runs under the switch, the caller's
    # code between steps outside it
    x = leaf([1.0])

    @tf.no_grad()
    def steps():
        for i in range(2):
            received = yield (x * i).requires_grad, tf.is_grad_enabled()
            assert received is None

    gen = steps()
    assert next(gen) == (False, False) and tf.is_grad_enabled()
    assert list(gen) == [(False, False)]

    @tf.enable_grad()
    def inside():
        yield tf.is_grad_enabled()

    with tf.no_grad():
        assert list(inside()) == [True]


def test_set_grad_enabled_as_decorator_switches_only_around_calls() -> None:
    @tf.set_grad_enabled(False)
    def doubled(t: tf.Tensor) -> tf.Tensor:
        return t * 2

    assert tf.is_grad_enabled()
    assert not doubled(leaf([1.0])).requires_grad
    assert tf.is_grad_enabled()


# ----------------------------------------------------------------- custom Functions with several outputs
class _SinCos(Function):
    """Two outputs; backward records what it received."""

    received: list = []

    @staticmethod
    def forward(ctx, x, scale):
        if scale < 0:
            ctx.set_materialize_grads(False)
            scale = -scale
        s, c = x.sin() * scale, x.cos() * scale
        ctx.save_for_backward(x, s, c)
        return s, c

    @staticmethod
    def backward(ctx, gs, gc):
        _SinCos.received.append((None if gs is None else gs.tolist(), None if gc is None else gc.tolist()))
        x, s, c = ctx.saved_tensors
        grad = 0
        if gs is not None:
            grad = grad + gs * c
        if gc is not None:
            grad = grad - gc * s
        return grad, None


def _sincos_input() -> tf.Tensor:
    return tf.tensor([0.5, 1.0, -0.3], dtype=tf.float64, requires_grad=True)


def test_function_with_several_outputs_shares_one_node_and_numbers_its_outputs():
    s, c = _SinCos.apply(_sincos_input(), 2.0)
    assert type(s.grad_fn).__name__ == "_SinCosBackward" and s.grad_fn is c.grad_fn
    assert (s.output_nr, c.output_nr) == (0, 1) and s.requires_grad and c.requires_grad
    assert s.grad_fn.next_functions[0][0].__class__.__name__ == "AccumulateGrad"


def test_function_backward_gets_one_gradient_per_output_as_pytorch():
    x = _sincos_input()
    s, c = _SinCos.apply(x, 2.0)
    (s * 3 + c).sum().backward()
    assert _SinCos.received[-1] == ([3.0, 3.0, 3.0], [1.0, 1.0, 1.0])
    np.testing.assert_allclose(x.grad.tolist(), [4.3066442941338305, 1.5588718655930456, 6.323059348076315],
                               rtol=1e-14)


def test_function_unused_output_gets_zeros_or_none_without_materialize_grads():
    x = _sincos_input()
    s, _ = _SinCos.apply(x, 2.0)
    s.sum().backward()
    assert _SinCos.received[-1] == ([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(x.grad.tolist(), [1.7551651237807455, 1.0806046117362795, 1.910672978251212],
                               rtol=1e-14)
    x.grad = None
    _, c = _SinCos.apply(x, -2.0)
    c.sum().backward()
    assert _SinCos.received[-1] == (None, [1.0, 1.0, 1.0])
    np.testing.assert_allclose(x.grad.tolist(), [-0.958851077208406, -1.682941969615793, 0.5910404133226791],
                               rtol=1e-14)


def test_function_outputs_compose_with_create_graph():
    x = _sincos_input()
    s, c = _SinCos.apply(x, 1.0)
    (g,) = tf.autograd.grad((s * c).sum(), x, create_graph=True)
    assert g.requires_grad
    np.testing.assert_allclose(g.tolist(), [0.540302305868, -0.416146836547, 0.82533561491], atol=1e-12)


class _MaxWithIndex(Function):
    received: list = []

    @staticmethod
    def forward(ctx, x):
        value, index = x.max(dim=0)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x, index)
        return value, index, 7

    @staticmethod
    def backward(ctx, grad_value, grad_index, grad_number):
        _MaxWithIndex.received.append((grad_index.tolist(), grad_number))
        x, index = ctx.saved_tensors
        assert index.grad_fn is None
        grad = tf.zeros_like(x)
        grad[index, tf.arange(x.shape[1])] = grad_value
        return grad


def test_function_non_differentiable_and_non_tensor_outputs_as_pytorch():
    m = tf.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
    value, index, number = _MaxWithIndex.apply(m)
    assert number == 7 and index.dtype == tf.int64
    assert not index.requires_grad and index.grad_fn is None and value.grad_fn is not None
    value.sum().backward()
    assert m.grad.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    assert _MaxWithIndex.received[-1] == ([0, 0], None)


class _ExpAndDouble(Function):
    @staticmethod
    def forward(ctx, x):
        a, b = x.exp(), x * 2
        ctx.save_for_backward(b, a)
        return a, b

    @staticmethod
    def backward(ctx, grad_a, grad_b):
        b, a = ctx.saved_tensors
        return grad_a * a + grad_b * 2


def test_function_saved_outputs_are_differentiable_twice():
    x = tf.tensor([0.1, 0.2], dtype=tf.float64, requires_grad=True)
    a, b = _ExpAndDouble.apply(x)
    np.testing.assert_allclose(tf.autograd.grad((a + b).sum(), x)[0].tolist(),
                               [3.1051709180756477, 3.2214027581601696], rtol=1e-14)
    a, b = _ExpAndDouble.apply(x)
    (h,) = tf.autograd.grad((a * a + b).sum(), x, create_graph=True)
    np.testing.assert_allclose(tf.autograd.grad(h.sum(), x)[0].tolist(),
                               [4.88561103264068, 5.967298790565081], rtol=1e-14)


def test_hooks_on_an_output_of_a_multi_output_function_see_that_output_gradient():
    x = _sincos_input()
    s, c = _SinCos.apply(x, 1.0)
    s.register_hook(lambda g: g * 2)
    c.retain_grad()
    _SinCos.received.clear()
    (s + 3 * c).sum().backward()
    assert _SinCos.received == [([2.0, 2.0, 2.0], [3.0, 3.0, 3.0])]
    np.testing.assert_allclose(c.grad.numpy(), [3.0, 3.0, 3.0])


class _OnceSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @tf.autograd.function.once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def test_once_differentiable_backward_runs_and_refuses_double_backward():
    x = tf.tensor([0.1, 0.2], dtype=tf.float64, requires_grad=True)
    assert tf.autograd.grad(_OnceSquare.apply(x).sum(), x)[0].tolist() == [0.2, 0.4]
    y = _OnceSquare.apply(x)
    (g,) = tf.autograd.grad(y, x, grad_outputs=tf.ones_like(y, requires_grad=True),
                                   create_graph=True)
    assert g.requires_grad
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked with "
                                           "@once_differentiable"):
        g.sum().backward()


class _ScaleBoth(Function):
    @staticmethod
    def forward(ctx, x, scale, y):
        return x * scale * y

    @staticmethod
    def backward(ctx, grad):
        return grad, grad, None


def test_function_edges_are_for_tensor_arguments_only_and_numbers_get_no_gradient():
    x, y = tf.ones(2, requires_grad=True), tf.ones(2)
    out = _ScaleBoth.apply(x, 2.0, y)
    assert [(type(n).__name__ if n else None, k) for n, k in out.grad_fn.next_functions] == [
        ("AccumulateGrad", 0), (None, 0)]
    with pytest.raises(RuntimeError, match="returned a gradient different than None at position 2, but the "
                                           "corresponding forward input was not a Variable"):
        out.sum().backward()


class _MulSetupContext(Function):
    """PyTorch's newer style: forward without ctx, then setup_context."""

    @staticmethod
    def forward(x, y):
        return x * y, x + y

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        product, _ = output
        ctx.save_for_backward(x, y, product)

    @staticmethod
    def backward(ctx, grad_product, grad_sum):
        x, y, product = ctx.saved_tensors
        assert product.grad_fn is None or product.output_nr == 0
        return grad_product * y + grad_sum, grad_product * x + grad_sum


def test_function_with_setup_context_takes_no_ctx_in_forward():
    x = tf.tensor([1.0, 2.0], requires_grad=True)
    y = tf.tensor([3.0, -1.0], requires_grad=True)
    product, total = _MulSetupContext.apply(x, y)
    (product.sum() + 2 * total.sum()).backward()
    assert x.grad.tolist() == [5.0, 1.0] and y.grad.tolist() == [3.0, 4.0]


def test_grad_with_respect_to_one_output_of_a_multi_output_function():
    x = _sincos_input()
    s, c = _SinCos.apply(x, 1.0)
    grad_s, grad_c = tf.autograd.grad((3 * s + c * c).sum(), [s, c])
    assert grad_s.tolist() == [3.0, 3.0, 3.0]
    np.testing.assert_allclose(grad_c.tolist(), (2 * c).tolist(), rtol=1e-15)


def test_op_call_computes_on_arrays_and_records_on_tensors() -> None:
    array = np.array([0.0, 1.0])
    on_array = unary.Exp.call(array)
    assert type(on_array) is np.ndarray
    np.testing.assert_allclose(on_array, np.exp(array))
    on_tensor = unary.Exp.call(leaf([0.0, 1.0]))
    assert isinstance(on_tensor, tf.Tensor) and on_tensor.grad_fn.name() == "ExpBackward0"


def test_outputs_of_one_node_hook_and_retain_their_own_gradient() -> None:
    # unbind / chunk / std_mean record one node with several outputs (output_nr 0, 1, ...), as PyTorch;
    # a hook or retain_grad on one output sees that output's gradient only.
    x = tf.arange(12.0).reshape(3, 4).requires_grad_()
    a, b, c = x.unbind()
    assert a.grad_fn is b.grad_fn and (a.output_nr, b.output_nr, c.output_nr) == (0, 1, 2)
    seen = []
    a.register_hook(lambda g: seen.append(g.clone()) or g * 10)
    b.retain_grad()
    (a * 2 + b * 3).sum().backward()
    np.testing.assert_allclose(seen[0].numpy(), np.full(4, 2.0))
    np.testing.assert_allclose(b.grad.numpy(), np.full(4, 3.0))
    np.testing.assert_allclose(x.grad.numpy(), [[20.0] * 4, [3.0] * 4, [0.0] * 4])
    low, high = x.chunk(2, 1)
    high.retain_grad()
    (high * high).sum().backward()
    np.testing.assert_allclose(high.grad.numpy(), 2 * x.detach().numpy()[:, 2:])


class _DoubleInPlace(tf.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        x.mul_(2)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001, ANN205
        x, = ctx.saved_tensors
        return g * x


def test_mark_dirty_returns_the_input_with_the_new_history_as_pytorch() -> None:
    leaf = tf.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^a leaf Variable that requires grad has been used in an in-place "
                                           r"operation\.$"):
        _DoubleInPlace.apply(leaf)
    plain = tf.ones(2)
    out = _DoubleInPlace.apply(plain)
    assert out is plain and not out.requires_grad and plain._version == 2  # mul_ and mark_dirty, as PyTorch
    x = tf.ones(2, requires_grad=True)
    y = x.clone()
    out = _DoubleInPlace.apply(y)
    assert out is y and type(y.grad_fn).__name__ == "_DoubleInPlaceBackward" and y.tolist() == [2.0, 2.0]
    out.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]  # recorded from PyTorch 2.13
    y = x.clone()
    out = _DoubleInPlace.apply(y)
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.sum().backward()


def test_grad_with_is_grads_batched_gives_one_vector_jacobian_product_per_row(device: str) -> None:
    # values and errors as PyTorch 2.13 gives them
    x, z = leaf([1.0, 2.0, 3.0], device), leaf([0.5, -1.0], device)
    dx, dz = tf.autograd.grad((x ** 2, z * 2), (x, z), (tf.eye(3, device=device)[:2], tf.ones(2, 2, device=device)),
                              is_grads_batched=True)
    assert dx.tolist() == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0]] and dz.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert tf.autograd.grad(x ** 2, (x, z), tf.eye(3, device=device), is_grads_batched=True,
                            allow_unused=True)[1] is None
    materialized = tf.autograd.grad(x ** 2, (x, z), tf.eye(3, device=device), is_grads_batched=True,
                                    materialize_grads=True)[1]
    assert materialized.tolist() == [0.0, 0.0]  # zeros of the input's shape, not batched
    (jac,) = tf.autograd.grad(x ** 3, x, tf.eye(3, device=device), is_grads_batched=True, create_graph=True)
    assert jac.diagonal().tolist() == [3.0, 12.0, 27.0] and jac.requires_grad
    assert tf.autograd.grad(jac.sum(), x)[0].tolist() == [6.0, 12.0, 18.0]
    y = x ** 2
    tf.autograd.grad(y, x, tf.eye(3, device=device), is_grads_batched=True, retain_graph=True)
    tf.autograd.grad(y, x, tf.eye(3, device=device), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        tf.autograd.grad(y, x, tf.eye(3, device=device), is_grads_batched=True)
    with pytest.raises(ValueError, match="Got in_dim=0 for some input"):
        tf.autograd.grad((x ** 2).sum(), x, is_grads_batched=True)
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        tf.autograd.grad((x ** 2).sum(), x, tf.tensor(1.0, device=device), is_grads_batched=True)


def test_gradcheck_perturbs_an_input_of_any_layout():
    # (a transposed input: perturbing a flattened copy of it would leave the numerical Jacobian zero)
    t = tf.randn(3, 4, 5, dtype=tf.float64).transpose(1, 2).requires_grad_()
    for f in (lambda t: t.exp(), lambda t: t.softmax(-1), lambda t: t.amax(0), lambda t: tf.cat([t, t * 2], 2)):
        assert gradcheck(f, (t,)) and gradgradcheck(f, (t,))


def test_gradgradcheck_draws_its_vectors_from_the_default_generator_as_pytorch() -> None:
    # PyTorch 2.13's make_tensor: one uniform_(-1, 1) tensor per differentiable output, so the numbers a
    # script draws afterwards are PyTorch's
    tf.manual_seed(0)
    x = tf.rand(2, 3, dtype=tf.float64, requires_grad=True)
    assert tf.autograd.gradgradcheck(lambda t: (t ** 3, t.sin()), x)
    np.testing.assert_allclose(tf.rand(3).tolist(), [0.20812976360321045, 0.9297990202903748, 0.7231091856956482],
                               rtol=1e-7)


def test_disable_saved_tensors_hooks_refuses_hooks_inside() -> None:
    # PyTorch 2.13: the block's own message, and hooks work again after it
    with tf.autograd.graph.disable_saved_tensors_hooks("saving is off"):
        with pytest.raises(RuntimeError, match="^saving is off$"):
            with tf.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with tf.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass


def test_get_gradient_edge_names_the_node_and_output() -> None:
    a = tf.ones(2, requires_grad=True)
    c = a * 2
    assert tf.autograd.graph.get_gradient_edge(c) == (c.grad_fn, 0, None)
    edge = tf.autograd.graph.get_gradient_edge(a)
    assert (edge.node.name(), edge.output_nr) == ("torch::autograd::AccumulateGrad", 0)
    with pytest.raises(RuntimeError, match="^It is not possible to get the gradient edge for a Tensor that does not "
                                           "require gradients$"):
        tf.autograd.graph.get_gradient_edge(tf.ones(2))


def test_a_custom_gradient_smaller_than_its_input_is_refused() -> None:
    # PyTorch sums a larger gradient down to the input's shape but refuses one that would have to be expanded
    class Summed(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.sum()

    with pytest.raises(RuntimeError, match=r"^Function SummedBackward returned an invalid gradient at index 0 - got "
                                           r"\[\] but expected shape compatible with \[3\]$"):
        Summed.apply(tf.ones(3, requires_grad=True)).sum().backward()
