"""Arrays in and out: DLPack both ways, NumPy operators, ufuncs and functions on tensors.

The expected result types are PyTorch 2.13's (NumPy 2.4), recorded as literals so the tests run
without PyTorch; the comparisons with live torch tensors are skipped when torch is not importable.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe
from tinyframe.utils import dlpack


def test_from_dlpack_shares_memory_with_a_numpy_array():
    source = np.arange(3.0)
    t = tinyframe.from_dlpack(source)
    t[0] = 5.0
    assert source.tolist() == [5.0, 1.0, 2.0] and t.dtype == tinyframe.float64


def test_from_dlpack_of_a_tensor_shares_memory_on_its_device(device):
    source = tinyframe.tensor([0.0, 1.0, 2.0], device=device)
    t = tinyframe.from_dlpack(source)
    t[0] = 5.0
    assert t.device == source.device and source.tolist() == [5.0, 1.0, 2.0]


def test_numpy_from_dlpack_of_a_tensor_shares_its_memory():
    t = tinyframe.arange(4.0)
    array = np.from_dlpack(t)
    array[1] = 8.0
    assert t.tolist() == [0.0, 8.0, 2.0, 3.0]
    assert t.__dlpack_device__() == (1, 0)


def test_to_dlpack_capsule_round_trips_once():
    t = tinyframe.tensor([1.0, 2.0], dtype=tinyframe.float64)
    capsule = dlpack.to_dlpack(t)
    back = dlpack.from_dlpack(capsule)
    back[0] = 3.0
    assert t.tolist() == [3.0, 2.0] and back.dtype == tinyframe.float64
    with pytest.raises(RuntimeError, match="can be consumed only once"):
        dlpack.from_dlpack(capsule)


def test_from_dlpack_refuses_objects_without_the_protocol():
    with pytest.raises(RuntimeError, match="invalid capsule"):
        tinyframe.from_dlpack(5)


def test_dlpack_export_refuses_a_tensor_that_requires_grad():
    with pytest.raises(BufferError, match=r"Can't export tensors that require gradient, use tensor.detach\(\)"):
        np.from_dlpack(tinyframe.ones(2, requires_grad=True))


def test_dlpack_keeps_strides_and_bool():
    t = tinyframe.from_dlpack(np.ones((2, 3), dtype=np.float32).T)
    assert t.shape == (3, 2) and t.stride() == (1, 3)
    assert tinyframe.from_dlpack(np.array([True, False])).dtype == tinyframe.bool


def test_dlpack_shares_memory_with_torch_both_ways():
    torch = pytest.importorskip("torch")
    source = torch.arange(3.0)
    t = tinyframe.from_dlpack(source)
    t[1] = 7.0
    assert source.tolist() == [0.0, 7.0, 2.0] and t.dtype == tinyframe.float32
    mine = tinyframe.arange(4.0)
    theirs = torch.from_dlpack(mine)
    theirs[0] = 9.0
    assert mine.tolist() == [9.0, 1.0, 2.0, 3.0]
    capsule = torch.utils.dlpack.to_dlpack(torch.ones(2, dtype=torch.float64))
    assert dlpack.from_dlpack(capsule).dtype == tinyframe.float64
    exported = tinyframe.zeros(2)
    torch.utils.dlpack.from_dlpack(dlpack.to_dlpack(exported))[1] = 4.0
    assert exported.tolist() == [0.0, 4.0]


# ----------------------------------------------------------------------------------- operators
@pytest.mark.parametrize("expression", ["t + a", "a + t", "a * t", "a - t", "t / a", "a ** t", "a < t", "t == a"])
def test_operators_with_an_ndarray_give_a_tensor(expression):
    t, a = tinyframe.tensor([1.0, 2.0]), np.array([3.0, 4.0])
    result = eval(expression)
    assert isinstance(result, tinyframe.Tensor)
    np.testing.assert_allclose(result.numpy(), eval(expression, {"t": t.numpy(), "a": a}))


def test_ndarray_operand_promotes_as_a_tensor_and_keeps_the_graph():
    t = tinyframe.tensor([1.0, 2.0], requires_grad=True)
    out = np.array([3.0, 4.0]) * t
    assert out.dtype == tinyframe.float64  # float32 tensor * float64 array, as with two tensors
    assert type(out.grad_fn).__name__ == "MulBackward0"
    out.sum().backward()
    assert t.grad.tolist() == [3.0, 4.0]
    assert (t + np.ones(2, dtype=np.float32)).dtype == tinyframe.float32


def test_augmented_assignment_with_an_ndarray_updates_the_tensor():
    t = tinyframe.ones(2)
    before = t
    t += np.array([1.0, 2.0], dtype=np.float32)
    t *= np.float64(2)
    assert t is before and t.tolist() == [4.0, 6.0] and t.dtype == tinyframe.float32


def test_numpy_scalars_act_as_python_numbers():
    t = tinyframe.tensor([1.0, 2.0])
    assert (np.float64(2) + t).dtype == tinyframe.float32
    assert (t * np.float64(2)).dtype == tinyframe.float32
    assert (np.int64(2) * tinyframe.tensor([1], dtype=tinyframe.int32)).dtype == tinyframe.int32


# --------------------------------------------------------------------- ufuncs and np functions
# (call, PyTorch 2.13's result type) for a float32 tensor t = [1., 2.]
NUMPY_CALLS = [
    ("np.exp(t)", "Tensor"), ("np.add(t, t)", "Tensor"), ("np.maximum(t, t)", "Tensor"),
    ("np.exp(t, dtype=np.float64)", "Tensor"), ("np.add.reduce(t)", "Tensor"), ("np.argmax(t)", "Tensor"),
    ("np.reshape(t, (2, 1))", "Tensor"), ("np.clip(t, 0, 1)", "Tensor"), ("np.concatenate([t, t])", "ndarray"),
    ("np.stack([t, t])", "ndarray"), ("np.sort(t)", "ndarray"), ("np.asarray(t)", "ndarray"),
    ("np.where(t > 1, t, t)", "ndarray"),
]


@pytest.mark.parametrize(("call", "kind"), NUMPY_CALLS)
def test_numpy_functions_return_what_they_return_for_torch_tensors(call, kind):
    result = eval(call, {"np": np, "t": tinyframe.tensor([1.0, 2.0])})
    assert type(result).__name__ == kind
    np.testing.assert_allclose(np.asarray(result), eval(call, {"np": np, "t": np.array([1.0, 2.0], np.float32)}))


def test_ufunc_keeps_float32_and_gives_zero_dim_tensors():
    assert np.exp(tinyframe.tensor([1.0])).dtype == tinyframe.float32
    scalar = np.exp(tinyframe.tensor(0.0))
    assert isinstance(scalar, tinyframe.Tensor) and scalar.shape == () and scalar.item() == 1.0
    fraction, whole = np.modf(tinyframe.tensor([1.5]))
    assert (fraction.tolist(), whole.tolist()) == ([0.5], [1.0])


def test_ufunc_out_writes_into_the_tensor():
    t = tinyframe.tensor([0.0, 1.0])
    assert np.exp(t, out=t) is t
    np.testing.assert_allclose(t.numpy(), np.exp([0.0, 1.0]).astype(np.float32))


def test_np_array_copies_and_np_asarray_shares():
    t = tinyframe.zeros(2)
    np.array(t)[0] = 1.0
    assert t.tolist() == [0.0, 0.0]
    np.asarray(t)[0] = 1.0
    assert t.tolist() == [1.0, 0.0]


def test_np_sum_raises_type_error_as_for_torch_tensors():
    with pytest.raises(TypeError, match="axis"):
        np.sum(tinyframe.tensor([1.0]))


MESSAGE = r"Can't call numpy\(\) on Tensor that requires grad. Use tensor.detach\(\).numpy\(\) instead."


@pytest.mark.parametrize("call", [np.asarray, np.array, np.exp, lambda t: np.concatenate([t])])
def test_numpy_refuses_a_tensor_that_requires_grad(call):
    with pytest.raises(RuntimeError, match=MESSAGE):
        call(tinyframe.ones(2, requires_grad=True))


def test_numpy_of_a_tensor_that_requires_grad_is_given_while_grad_mode_is_off() -> None:
    # PyTorch refuses only while grad mode is on: under no_grad, and in a custom Function's forward
    # (NumpySort in pytorch.org's "Extending torch.func" tutorial calls x.cpu().numpy() there)
    x = tinyframe.tensor([3.0, 1.0], requires_grad=True)
    with tinyframe.no_grad():
        assert x.numpy().tolist() == [3.0, 1.0] and np.asarray(x).tolist() == [3.0, 1.0]

    class NumpyNegate(tinyframe.autograd.Function):
        @staticmethod
        def forward(ctx, t):  # noqa: ANN001, ANN205
            return tinyframe.tensor(-t.numpy())

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return -g

    NumpyNegate.apply(x).sum().backward()
    assert x.grad.tolist() == [-1.0, -1.0]
    with pytest.raises(RuntimeError, match=MESSAGE):
        x.numpy()


def test_from_numpy_of_a_read_only_array_warns_once_and_writes_into_its_memory_as_pytorch() -> None:
    from tinyframe import creation
    creation._WARNED_NOT_WRITABLE.clear()
    array = np.arange(4.0)
    array.flags.writeable = False
    with pytest.warns(UserWarning, match="The given NumPy array is not writable"):
        x = tinyframe.from_numpy(array)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once a program, as PyTorch
        view = tinyframe.from_numpy(array[1:])
    x[0] = 5
    view.add_(1)
    np.testing.assert_array_equal(array, [5.0, 2.0, 3.0, 4.0])  # PyTorch 2.13: tensor([5., 2., 3., 4.])
    assert x.tolist() == [5.0, 2.0, 3.0, 4.0]


def test_writing_into_read_only_memory_names_the_problem() -> None:
    memory = np.frombuffer(b"\0" * 32, dtype=np.float64)  # bytes: the memory itself is read-only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = tinyframe.from_numpy(memory)
    for write in (lambda: x.__setitem__(0, 1.0), lambda: x.add_(1), lambda: x.zero_()):
        with pytest.raises(RuntimeError, match="its memory is a read-only NumPy array"):
            write()
    assert x.tolist() == [0.0] * 4
