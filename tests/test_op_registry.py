"""Every op in the registry: forward vs NumPy, gradients vs finite differences, broadcasting."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import tinyframe as tf
from tinyframe.autograd import gradcheck, gradgradcheck

from .op_cases import OpCase, all_cases

CASES = all_cases()
GRAD_CASES = [c for c in CASES if c.grad]
SECOND_ORDER_CASES = [c for c in GRAD_CASES if c.second_order]
BROADCAST_CASES = [c for c in GRAD_CASES if c.broadcasts]


def _arrays(case: OpCase, shapes: list[tuple], seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    low, high = case.domain
    return [rng.uniform(low, high, size=s) for s in shapes]


def _tensors(arrays: list[np.ndarray], device: str, dtype: tf.dtype, requires_grad: bool) -> list[tf.Tensor]:
    return [tf.tensor(a, dtype=dtype, device=device, requires_grad=requires_grad) for a in arrays]


def _host(value: object) -> np.ndarray:
    return np.asarray(value.detach().cpu().numpy()) if isinstance(value, tf.Tensor) else np.asarray(value)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_forward_matches_numpy(case: OpCase, device: str) -> None:
    arrays = _arrays(case, case.shapes)
    out = case.fn(*_tensors(arrays, device, tf.float64, False))
    np.testing.assert_allclose(_host(out), case.reference(*arrays), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", GRAD_CASES, ids=repr)
def test_float32_stays_float32(case: OpCase, device: str) -> None:
    out = case.fn(*_tensors(_arrays(case, case.shapes), device, tf.float32, True))
    assert out.dtype == (tf.float64 if case.float64_result else tf.float32)
    out.sum().backward()


@pytest.mark.parametrize("case", GRAD_CASES, ids=repr)
def test_gradient_matches_finite_differences(case: OpCase, device: str) -> None:
    inputs = _tensors(_arrays(case, case.shapes), device, tf.float64, True)
    assert gradcheck(case.fn, inputs, atol=case.atol, rtol=case.rtol)


@pytest.mark.parametrize("case", SECOND_ORDER_CASES, ids=repr)
def test_second_derivative_matches_finite_differences(case: OpCase, device: str) -> None:
    inputs = _tensors(_arrays(case, case.shapes), device, tf.float64, True)
    assert gradgradcheck(case.fn, inputs, atol=case.atol, rtol=case.rtol)


def _sum_to(array: np.ndarray, shape: tuple) -> np.ndarray:
    lead = array.ndim - len(shape)
    array = array.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and array.shape[i] != 1)
    return array.sum(axis=axes, keepdims=True).reshape(shape)


@pytest.mark.parametrize("case", BROADCAST_CASES, ids=repr)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_broadcasting_matches_explicit_expansion(case: OpCase, data: st.DataObject) -> None:
    """Broadcast inputs give NumPy's result, and each gradient is the explicitly expanded input's
    gradient summed back to the input's shape."""
    shapes = data.draw(mutually_broadcastable_shapes(num_shapes=len(case.shapes), max_dims=3, max_side=3))
    arrays = _arrays(case, list(shapes.input_shapes), seed=data.draw(st.integers(0, 1000)))
    inputs = _tensors(arrays, "cpu", tf.float64, True)
    out = case.fn(*inputs)
    assert tuple(out.shape) == shapes.result_shape
    np.testing.assert_allclose(out.detach().numpy(), case.reference(*arrays), rtol=1e-6, atol=1e-8)
    out.sum().backward()
    expanded = _tensors([np.broadcast_to(a, shapes.result_shape).copy() for a in arrays], "cpu", tf.float64, True)
    case.fn(*expanded).sum().backward()
    for leaf, wide in zip(inputs, expanded):
        assert leaf.grad.shape == leaf.shape
        np.testing.assert_allclose(leaf.grad.numpy(), _sum_to(wide.grad.numpy(), tuple(leaf.shape)), atol=1e-9)
