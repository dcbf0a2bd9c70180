"""What torchviz reads of PyTorch's graphs, on tinyframe's: ``Variable``, ``Tensor._is_view``, nodes
without ``saved_tensors`` outside backward, and what a node saved as ``_saved_self``, ``_saved_other``,
``_saved_result`` and its options (``_saved_alpha``). The expected values are PyTorch 2's."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tinyframe as tf
from tinyframe.autograd import Function, Variable

ROOT = Path(__file__).resolve().parent.parent


def _saved_names(node: object) -> list:
    return [name for name in dir(node) if name.startswith("_saved_")]


def test_variable_is_a_detached_tensor_and_every_tensor_is_one() -> None:
    t = tf.ones(2)
    v = Variable(t, requires_grad=True)
    assert v is not t and type(v) is tf.Tensor and v.requires_grad and v.is_leaf
    t[0] = 5.0  # the data is shared
    assert v[0].item() == 5.0
    y = tf.ones(2, requires_grad=True) * 2
    assert Variable(y).grad_fn is None and not Variable(y).requires_grad
    assert isinstance(t, Variable) and not isinstance(3, Variable)
    assert Variable().shape == (0,) and Variable().dtype == tf.float32
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        Variable([1, 2])


def test_is_view() -> None:
    w = tf.ones(2, requires_grad=True)
    assert not w._is_view() and w[0]._is_view()


def test_nodes_name_what_they_saved_as_pytorch_does() -> None:
    a, b = tf.ones(2, 2, requires_grad=True), tf.ones(2, 2, requires_grad=True)
    # PyTorch also lists sizes and strides it keeps (``_saved_mat1_sym_sizes``, ``_saved_self_sym_sizes``).
    expected = [(a - b, ["_saved_alpha"]), (2 - a, ["_saved_alpha"]), (a + b, ["_saved_alpha"]),
                (a @ b, ["_saved_mat2", "_saved_self"]), (a * b, ["_saved_other", "_saved_self"]),
                (a / (b + 1), ["_saved_other", "_saved_self"]), ((a * 3).exp(), ["_saved_result"]),
                (tf.relu(a), ["_saved_result"]), (tf.log(a), ["_saved_self"]), (a.sum(), [])]
    for y, names in expected:
        assert _saved_names(y.grad_fn) == names, y.grad_fn.name()
    node = tf.addmm(tf.ones(2), a, b, beta=0.5, alpha=2).grad_fn
    assert _saved_names(node) == ["_saved_alpha", "_saved_beta", "_saved_mat1", "_saved_mat2"]
    assert (node._saved_alpha, node._saved_beta) == (2, 0.5)
    assert node._saved_mat1 is a and node._saved_mat2 is b
    assert (a - b).grad_fn._saved_alpha == 1
    product = a * b
    assert product.grad_fn._saved_self is a and product.grad_fn._saved_other is b
    y = (a * 3).exp()
    result = y.grad_fn._saved_result
    assert result is not y and result.grad_fn is y.grad_fn and tf.equal(result, y)
    with pytest.raises(AttributeError, match="'ExpBackward0' object has no attribute '_saved_self'"):
        _ = y.grad_fn._saved_self


def test_saved_values_are_freed_by_backward() -> None:
    a = tf.ones(2, requires_grad=True)
    y = a * a
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        _ = y.grad_fn._saved_self


def test_only_custom_function_nodes_have_saved_tensors_outside_backward() -> None:
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    a = tf.ones(2, requires_grad=True)
    assert not hasattr((a * a).grad_fn, "saved_tensors")
    with pytest.raises(AttributeError, match="'MulBackward0' object has no attribute 'saved_tensors'"):
        _ = (a * a).grad_fn.saved_tensors
    (saved,) = Square.apply(a).grad_fn.saved_tensors
    assert saved is a


def test_tensors_and_nodes_hash_by_identity() -> None:
    a, b = tf.ones(2, requires_grad=True), tf.ones(2, requires_grad=True)
    y, z = a * b, a * b
    assert len({a, b, y.grad_fn, z.grad_fn}) == 4 and y.grad_fn in {y.grad_fn}


# torchviz's make_dot(y, params=dict(model.named_parameters())) of Linear(4, 3), ReLU, Linear(3, 2), summed,
# with PyTorch 2 (node ids numbered in order of appearance).
_PYTORCH_DOT = """\
digraph {
\tgraph [size="12,12"]
\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
\tn0 [label="
 ()" fillcolor=darkolivegreen1]
\tn1 [label=SumBackward0]
\tn2 -> n1
\tn2 [label=AddmmBackward0]
\tn3 -> n2
\tn4 [label="2.bias
 (2)" fillcolor=lightblue]
\tn4 -> n3
\tn3 [label=AccumulateGrad]
\tn5 -> n2
\tn5 [label=ReluBackward0]
\tn6 -> n5
\tn6 [label=AddmmBackward0]
\tn7 -> n6
\tn8 [label="0.bias
 (3)" fillcolor=lightblue]
\tn8 -> n7
\tn7 [label=AccumulateGrad]
\tn9 -> n6
\tn9 [label=TBackward0]
\tn10 -> n9
\tn11 [label="0.weight
 (3, 4)" fillcolor=lightblue]
\tn11 -> n10
\tn10 [label=AccumulateGrad]
\tn12 -> n2
\tn12 [label=TBackward0]
\tn13 -> n12
\tn14 [label="2.weight
 (2, 3)" fillcolor=lightblue]
\tn14 -> n13
\tn13 [label=AccumulateGrad]
\tn1 -> n0
}
"""

_MAKE_DOT = textwrap.dedent("""
    import sys
    import warnings
    import tinyframe
    for name, module in list(sys.modules.items()):  # torchviz's ``import torch`` gets tinyframe
        if name == "tinyframe" or name.startswith("tinyframe."):
            sys.modules["torch" + name[len("tinyframe"):]] = module
    from torchviz import make_dot
    import torch
    warnings.simplefilter("ignore")  # torchviz warns that tinyframe's version is below PyTorch's 1.9
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    y = model(torch.randn(5, 4)).sum()
    params = dict(model.named_parameters())
    print(make_dot(y, params=params).source)
    print(make_dot(y, params=params, show_attrs=True, show_saved=True).source)
""")


def _numbered(source: str) -> str:
    ids: dict = {}
    return re.sub(r"\d{6,}", lambda m: f"n{ids.setdefault(m.group(), len(ids))}", source)


@pytest.mark.skipif(importlib.util.find_spec("torchviz") is None or importlib.util.find_spec("graphviz") is None,
                    reason="torchviz and graphviz are not installed (torchviz requires torch, so no extra "
                           "installs it: pip install --no-deps torchviz graphviz)")
def test_torchviz_make_dot_draws_pytorchs_graph() -> None:
    run = subprocess.run([sys.executable, "-c", _MAKE_DOT], cwd=ROOT, capture_output=True, text=True, check=True)
    plain, detailed = run.stdout.split("digraph {")[1:]
    assert _numbered("digraph {" + plain).rstrip("\n") + "\n" == _PYTORCH_DOT
    # PyTorch saves no mat2 of the first layer (its input needs no gradient) and lists sizes and strides.
    for label in ('"mat1\n (5, 3)" fillcolor=orange', '"mat2\n (3, 2)" fillcolor=orange',
                  '"result\n (5, 3)" fillcolor=orange', "alpha:              1", "mat1 : [saved tensor]",
                  "result: [saved tensor]"):
        assert label in detailed
