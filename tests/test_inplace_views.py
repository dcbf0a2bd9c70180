"""In-place ops on views under autograd, as PyTorch 2.13 records them (its results recorded in
``_inplace_views_expected.py`` on the cases of ``_inplace_views_cases.py``): the base's history becomes
CopySlices, every view of it reads from that (AsStridedBackward0), with PyTorch's versions, ``is_leaf``,
``requires_grad``, values and gradients, and PyTorch's refusals; gradchecks through such writes; and the
layouts that the ``*_like`` factories and ``clone`` keep, and ``Tensor.view(dtype)``."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.autograd import gradcheck, gradgradcheck

from ._inplace_views_cases import CASES, LAYOUT_CASES, VIEW_DTYPE_CASES, layout_strides, observe, view_dtype
from ._inplace_views_expected import EXPECTED, LAYOUTS, VIEW_DTYPE

# PyTorch's wording of the saved-tensor version error names its C++ types; tinyframe's keeps its first sentence.
_VERSION_ERROR = "one of the variables needed for gradient computation has been modified by an inplace operation"


@pytest.mark.parametrize("name", list(CASES))
def test_inplace_op_on_a_view_matches_pytorch(name: str, device: str) -> None:
    got, expected = observe(tf, CASES[name], device), EXPECTED[name]
    if "error" in expected and expected["message"].startswith(_VERSION_ERROR):
        assert got["error"] == expected["error"] and got["message"].startswith(_VERSION_ERROR)
        return
    values, grads = got.pop("value", None), got.pop("grads", None)
    assert got == {key: value for key, value in expected.items() if key not in ("value", "grads")}
    if values is not None:
        np.testing.assert_allclose(values, expected["value"], rtol=1e-12)
        assert len(grads) == len(expected["grads"])
        for g, e in zip(grads, expected["grads"]):
            np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


def _write_through_views(a: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    x = a.sin()
    m = x.view(3, 4)
    m[1].mul_(w[0])
    m.t()[1:].add_(w.t()[1:, :3] * 2)
    m.diagonal().copy_(w[2, :3].exp())
    return (m * x).sum(1)


def _write_into_a_plain_base(a: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    x = tf.zeros(4, 3, dtype=tf.float64, device=a.device)
    x.t().copy_(a)
    x[1:3].mul_(w[0, :3])
    x.unsqueeze(0)[0, 0].clamp_(min=0.1)
    return x


def _write_complex_parts(a: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    z = tf.complex(a, w)
    z.real.mul_(w)
    z.imag[1].add_(a[0])
    return tf.view_as_real(z)


def _write_a_non_contiguous_base(a: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    x = (a * 1).t().clone()  # keeps the transposed layout: a base that is not row-major
    assert not x.is_contiguous()
    x[1].mul_(w[0, 1])
    x.t()[0].add_(w[1])
    return x


@pytest.mark.parametrize("fn", [_write_through_views, _write_into_a_plain_base, _write_complex_parts,
                                _write_a_non_contiguous_base])
def test_gradients_through_writes_into_views_pass_gradcheck(fn: object, device: str) -> None:
    rng = np.random.default_rng(3)
    a = tf.tensor(rng.standard_normal((3, 4)), device=device, requires_grad=True)
    w = tf.tensor(rng.standard_normal((3, 4)), device=device, requires_grad=True)
    assert gradcheck(fn, (a, w))
    assert gradgradcheck(fn, (a, w))


def test_a_second_backward_through_copy_slices_needs_retain_graph() -> None:
    a = tf.arange(1.0, 5.0, dtype=tf.float64, requires_grad=True)
    x = a + 0
    x[1:].add_(a[:3])  # AddBackward0 saves nothing; CopySlices is freed all the same, as PyTorch's
    x.sum().backward(retain_graph=True)
    x.sum().backward()
    assert a.grad.tolist() == [4.0, 4.0, 4.0, 2.0]
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        x.sum().backward()


def test_inputs_and_grad_reach_only_the_chosen_inputs_through_a_view_write() -> None:
    a = tf.arange(1.0, 5.0, dtype=tf.float64, requires_grad=True)
    w = tf.tensor([3.0, 4.0], dtype=tf.float64, requires_grad=True)
    x = a * 2
    x[1:3].mul_(w)
    (gw,) = tf.autograd.grad(x.sum(), [w])
    assert gw.tolist() == [4.0, 6.0] and a.grad is None


@pytest.mark.parametrize("name", list(LAYOUT_CASES))
def test_like_factories_and_clone_keep_the_layout_as_pytorch(name: str) -> None:
    assert layout_strides(tf, LAYOUT_CASES[name]) == LAYOUTS[name]


@pytest.mark.parametrize("name", list(VIEW_DTYPE_CASES))
def test_view_dtype_matches_pytorch(name: str) -> None:
    assert view_dtype(tf, *VIEW_DTYPE_CASES[name]) == VIEW_DTYPE[name]


def test_a_write_through_a_detached_alias_leaves_the_views_of_the_original_on_its_history() -> None:
    a = tf.arange(1.0, 5.0, dtype=tf.float64, requires_grad=True)
    x = a * 2
    v = x.view(2, 2)
    d = x.detach()  # shares x's storage and version counter, not its history
    w = tf.ones(4, dtype=tf.float64, requires_grad=True)
    d.mul_(w)
    assert x._version == 1 and d.grad_fn.name() == "MulBackward0" and x.grad_fn.name() == "MulBackward0"
    v.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0, 2.0] and w.grad is None  # PyTorch 2.13's


def test_views_of_a_long_lived_base_are_listed_weakly_and_dropped_when_dead() -> None:
    x = tf.ones(4, requires_grad=True) * 2
    for _ in range(1000):
        x.view(2, 2)
    assert len(x._vc) <= 64  # the dead views' references are dropped as the list grows
    kept = [x[k] for k in range(4)]
    x.mul_(3)
    assert all(view.grad_fn.name() == "AsStridedBackward0" for view in kept)
