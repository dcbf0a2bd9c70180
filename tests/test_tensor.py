"""Tensor creation, dtypes and PyTorch's promotion rules, attributes and conversions."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf

I64 = tf.tensor([1, 2])
F32 = tf.tensor([1.0, 2.0])
F64 = tf.tensor([1.0, 2.0], dtype=tf.float64)
F16 = tf.tensor([1.0, 2.0], dtype=tf.float16)
I32 = tf.tensor([1, 2], dtype=tf.int32)
BOOL = tf.tensor([True, False])

# (expression, expected dtype), each checked against torch 2.13.
PROMOTIONS = [
    (lambda: I64 + F32, tf.float32), (lambda: I64 * 2.5, tf.float32),
    (lambda: F32 + tf.tensor(1.0, dtype=tf.float64), tf.float32), (lambda: F64 + F32, tf.float64),
    (lambda: I64 / I64, tf.float32), (lambda: BOOL + 1, tf.int64), (lambda: BOOL + BOOL, tf.bool),
    (lambda: I32 + 1, tf.int32), (lambda: I32 + I64, tf.int64), (lambda: F16 + F32, tf.float32),
    (lambda: F16 * 2.0, tf.float16), (lambda: I64 + tf.tensor(1.5), tf.float32), (lambda: F32 * True, tf.float32),
    (lambda: BOOL * 1.5, tf.float32), (lambda: I32 // 2, tf.int32), (lambda: I64 % 3, tf.int64),
    (lambda: F32 // 2, tf.float32), (lambda: I64 ** 2, tf.int64), (lambda: I64 ** 0.5, tf.float32),
    (lambda: I64 - 1.5, tf.float32), (lambda: F32 * 3, tf.float32), (lambda: 2.0 ** F32, tf.float32),
]


@pytest.mark.parametrize("expression,expected", PROMOTIONS)
def test_type_promotion_matches_pytorch(expression: object, expected: tf.dtype) -> None:
    assert expression().dtype == expected


def test_python_scalars_never_upcast_float32() -> None:
    x = tf.tensor([1.0, 2.0])
    for y in (x * 0.1, x + 1e-300, 0.5 / x, x - 3, x ** 2.5):
        assert y.dtype == tf.float32 and y.numpy().dtype == np.float32


def test_where_between_two_numbers_takes_their_dtype_on_the_conditions_device(device: str) -> None:
    # torch.where(c, 0.3, 0.05) -> float32 [0.3, 0.05]; (c, 1, 0) -> int64; (c, True, False) -> bool
    condition = tf.tensor([True, False], device=device)
    for a, b, dtype in ((0.3, 0.05, tf.float32), (1, 0, tf.int64), (True, False, tf.bool), (1, 2.5, tf.float32)):
        out = tf.where(condition, a, b)
        assert out.dtype == dtype and out.device == condition.device and out.tolist() == pytest.approx([a, b])


def test_inferred_dtypes() -> None:
    assert tf.tensor([1, 2.5]).dtype == tf.float32
    assert tf.tensor(3).dtype == tf.int64
    assert tf.tensor(True).dtype == tf.bool
    assert tf.tensor([]).dtype == tf.float32
    assert tf.tensor(np.array([1.0, 2.0])).dtype == tf.float64
    assert tf.from_numpy(np.array([1, 2], dtype=np.int32)).dtype == tf.int32
    assert tf.tensor([1.0], dtype=float).dtype == tf.float64
    assert tf.float is tf.float32 and tf.double is tf.float64 and tf.long is tf.int64 and tf.half is tf.float16


def test_factories(device: str) -> None:
    assert tf.zeros(2, 3, device=device).shape == (2, 3) == tf.zeros((2, 3)).shape == tf.ones([2, 3]).shape
    assert tf.arange(5).dtype == tf.int64 and tf.arange(1, 4, 0.5).dtype == tf.float32
    np.testing.assert_allclose(tf.arange(0.0, 1.0, 0.25, device=device).cpu().numpy(), [0, 0.25, 0.5, 0.75])
    np.testing.assert_allclose(tf.linspace(0, 1, 5).numpy(), [0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_array_equal(tf.eye(2, 3).numpy(), np.eye(2, 3))
    assert tf.full((2,), 3).dtype == tf.int64 and tf.full((2,), 3.0).dtype == tf.float32
    assert tf.full((2,), True).dtype == tf.bool
    x = tf.randn(3, 4, device=device)
    assert tf.zeros_like(x).shape == x.shape and tf.ones_like(x).dtype == tf.float32
    assert tf.full_like(x, 7).cpu().numpy().tolist() == [[7.0] * 4] * 3
    assert tf.rand_like(x).device == x.device and tf.randn_like(x).shape == x.shape
    r = tf.randint(0, 10, (100,))
    assert r.dtype == tf.int64 and 0 <= r.min().item() and r.max().item() < 10
    assert sorted(tf.randperm(6).tolist()) == list(range(6))


def test_manual_seed_is_reproducible() -> None:
    tf.manual_seed(7)
    first = tf.randn(5).numpy().copy(), tf.rand(3).numpy().copy()
    tf.manual_seed(7)
    second = tf.randn(5).numpy(), tf.rand(3).numpy()
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])


def test_attributes_and_conversions() -> None:
    x = tf.tensor([[1, 2], [3, 4]])
    assert x.shape == (2, 3 - 1) and x.size() == tf.Size([2, 2]) and x.size(-1) == 2
    assert x.ndim == 2 == x.dim() and x.numel() == 4 and len(x) == 2
    assert x.T.tolist() == [[1, 3], [2, 4]]
    assert tf.tensor(2.5).item() == 2.5 and x.tolist() == [[1, 2], [3, 4]]
    assert [row.tolist() for row in x] == [[1, 2], [3, 4]]
    assert np.asarray(x).tolist() == [[1, 2], [3, 4]]
    assert x.float().dtype == tf.float32 and x.double().dtype == tf.float64 and F32.long().dtype == tf.int64
    assert x.to(tf.float64).dtype == tf.float64 and x.to("cpu") is x
    assert repr(x.shape) == "tinyframe.Size([2, 2])"
    assert (x == x).dtype == tf.bool and (x > 2).tolist() == [[False, False], [True, True]]


def test_item_of_many_elements_raises() -> None:
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        F32.item()


def test_broadcast_error_names_both_sizes() -> None:
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\) "
                                           r"at non-singleton dimension 0"):
        tf.tensor([1, 2]) + tf.tensor([1, 2, 3])


def test_non_numeric_operand_raises_type_error() -> None:
    # Tensor.__mul__ declines, then str's repetition asks for an index, as with PyTorch.
    with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
        F32 * "a"


def test_legacy_constructor_gives_float32() -> None:
    assert tf.Tensor([1, 2]).dtype == tf.float32


def test_device_objects() -> None:
    assert tf.device("cpu") == "cpu" and str(tf.device("cuda:1")) == "cuda:1"
    assert repr(tf.device("cpu")) == "device(type='cpu')"
    assert F32.device == tf.device("cpu") and not F32.is_cuda
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        tf.device("tpu")


def test_cuda_unavailable_is_false_not_an_error() -> None:
    assert isinstance(tf.cuda.is_available(), bool)
    assert tf.cuda.device_count() >= 0


def test_import_does_not_import_cupy() -> None:
    import subprocess
    import sys
    code = "import sys, tinyframe; x = tinyframe.ones(2) * 2; print('cupy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("op", ["add_", "mul_", "sub_", "div_", "copy_"])
def test_in_place_ops_do_not_broadcast_their_target(op: str) -> None:
    # PyTorch 2.13's message (the "Broadcasting semantics" note's in-place example)
    with pytest.raises(RuntimeError, match=r"^output with shape \[3\] doesn't match the broadcast shape \[2, 3\]$"):
        getattr(tf.zeros(3), op)(tf.ones(2, 3))


def test_broadcasting_errors_are_pytorchs_text() -> None:
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(0\) must match the size of tensor b \(2\) at "
                                           r"non-singleton dimension 1$"):
        tf.empty(0) + tf.empty(2, 2)
