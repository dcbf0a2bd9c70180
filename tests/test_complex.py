"""Complex dtypes and ``tinyframe.fft``: values, dtypes, ``grad_fn`` names and gradients as PyTorch 2.13's
(recorded in ``_complex_expected.py`` on the inputs of ``_complex_cases.py``) on every device, PyTorch's
promotion rules, printing, views of the parts, and PyTorch's errors for what complex numbers lack."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.device import array_module_of

from ._complex_cases import CASES
from ._complex_expected import EXPECTED
from .conftest import CUDA_REASON

_SINGLE_PRECISION = ("float32", "complex64")


def _close(got: object, expected: object, dtype: str) -> None:
    rtol = 1e-5 if dtype in _SINGLE_PRECISION else 1e-10
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=rtol, atol=rtol * 1e-2)


@pytest.mark.parametrize("name", list(CASES))
def test_values_dtypes_node_names_and_gradients_match_pytorch(name: str, device: str) -> None:
    fn, arrays = CASES[name]
    expected = EXPECTED[name]
    inputs = [tf.tensor(a, device=device, requires_grad=True) for a in arrays]
    out = fn(tf, *inputs)
    assert out.grad_fn.name() == expected["node"]
    assert out.dtype == getattr(tf, expected["dtype"])
    assert out.device.type == device
    _close(out.tolist(), expected["value"], expected["dtype"])
    loss = (0.7 * out.real - 1.3 * out.imag).sum() if out.is_complex() else out.sum()
    for got, grad, source in zip(tf.autograd.grad(loss, inputs), expected["grads"], inputs):
        assert got.dtype == source.dtype
        _close(got.tolist(), grad, expected["dtype"])


def test_rfft_abs_backward_gives_pytorchs_gradient() -> None:
    x = tf.tensor([0.5, -1.0, 2.0, 0.25, 3.0, -0.75], requires_grad=True)
    tf.fft.rfft(x).abs().sum().backward()
    # torch.fft.rfft(x).abs().sum().backward() in PyTorch 2.13
    np.testing.assert_allclose(x.grad.numpy(), [0.252133846282959, 0.16173410415649414, 2.0742745399475098,
                                                0.14195609092712402, 3.6735916137695312, -0.30369001626968384],
                               rtol=1e-5)


@pytest.mark.parametrize(("make", "dtype"), [
    (lambda: tf.tensor([1 + 2j]), tf.complex64),
    (lambda: tf.tensor([1, 2.5, 3j]), tf.complex64),
    (lambda: tf.tensor(1j), tf.complex64),
    (lambda: tf.ones(2) + 1j, tf.complex64),
    (lambda: tf.ones(2, dtype=tf.float64) + 1j, tf.complex128),
    (lambda: tf.ones(2, dtype=tf.int64) + 1j, tf.complex64),
    (lambda: tf.ones(2) + tf.tensor(1j, dtype=tf.complex128), tf.complex64),
    (lambda: tf.ones(2, dtype=tf.complex64) + tf.ones(2, dtype=tf.float64), tf.complex128),
    (lambda: tf.ones(2, dtype=tf.complex64) * 2.5, tf.complex64),
    (lambda: tf.ones(2, dtype=tf.complex64) * tf.ones(2, dtype=tf.int64), tf.complex64),
    (lambda: tf.tensor([1, 2]).to(tf.cfloat), tf.complex64),
    (lambda: tf.fft.fft(tf.tensor([1, 2, 3])), tf.complex64),
    (lambda: tf.fft.rfft(tf.ones(4, dtype=tf.float32)), tf.complex64),
    (lambda: tf.fft.fft(tf.ones(4, dtype=tf.float64)), tf.complex128),
    (lambda: tf.fft.irfft(tf.ones(4, dtype=tf.complex64)), tf.float32),
    (lambda: tf.abs(tf.ones(2, dtype=tf.complex64)), tf.float32),
    (lambda: tf.ones(2, dtype=tf.complex128).imag, tf.float64),
])
def test_promotion_follows_pytorch(make: object, dtype: tf.dtype) -> None:
    assert make().dtype == dtype


def test_python_complex_scalars_follow_the_default_dtype() -> None:
    tf.set_default_dtype(tf.float64)
    try:
        assert tf.tensor([1j]).dtype == tf.complex128
        assert (tf.ones(2, dtype=tf.int32) + 1j).dtype == tf.complex128
        assert repr(tf.tensor([1 + 1j])) == "tensor([1.+1.j])"
    finally:
        tf.set_default_dtype(tf.float32)


def test_dtype_names_and_queries() -> None:
    assert tf.cfloat is tf.complex64 and tf.cdouble is tf.complex128
    assert tf.complex64.is_complex and not tf.complex64.is_floating_point and not tf.float32.is_complex
    assert tf.float32.to_complex() is tf.complex64 and tf.complex128.to_real() is tf.float64
    z = tf.tensor([1 + 1j])
    assert tf.is_complex(z) and z.is_complex() and not z.is_floating_point() and not tf.ones(1).is_complex()
    assert z.type() == "torch.ComplexFloatTensor".replace("torch", "tinyframe")
    assert tf.dtypes.as_dtype(complex) is tf.complex128 and tf.dtypes.as_dtype("cfloat") is tf.complex64
    with pytest.raises(AttributeError, match="complex32"):
        tf.complex32  # noqa: B018
    with pytest.raises(TypeError, match="complex64"):
        tf.ones(2, dtype="complex32")


@pytest.mark.parametrize(("make", "text"), [
    (lambda: tf.tensor([1 + 2j, -3.5 - 4j, 0.25j]), "tensor([ 1.0000+2.0000j, -3.5000-4.0000j,  0.0000+0.2500j])"),
    (lambda: tf.tensor([1 + 2j, -3.5 - 4j, 0.25j], dtype=tf.complex128),
     "tensor([ 1.0000+2.0000j, -3.5000-4.0000j,  0.0000+0.2500j],\n       dtype=tinyframe.complex128)"),
    (lambda: tf.tensor([[1 + 1j, 2], [3, 4 - 1e-5j]]),
     "tensor([[1.+1.0000e+00j, 2.+0.0000e+00j],\n        [3.+0.0000e+00j, 4.-1.0000e-05j]])"),
    (lambda: tf.tensor(1 + 2j), "tensor(1.+2.j)"),
    (lambda: tf.zeros(0, dtype=tf.cfloat), "tensor([], dtype=tinyframe.complex64)"),
    (lambda: tf.tensor([1e10 + 1j, 2]), "tensor([1.0000e+10+1.j, 2.0000e+00+0.j])"),
    (lambda: tf.tensor([float("nan") + 1j, float("inf") - 2j]), "tensor([nan+1.j, inf-2.j])"),
    (lambda: tf.tensor([1 + 1j, 2], requires_grad=True).conj(),
     "tensor([1.-1.j, 2.-0.j], grad_fn=<ConjBackward0>)"),
])
def test_printing_matches_pytorch(make: object, text: str) -> None:
    assert repr(make()) == text


def test_item_and_python_conversions() -> None:
    z = tf.tensor(1 + 2j)
    assert z.item() == 1 + 2j and type(z.item()) is complex
    assert complex(z) == 1 + 2j
    assert tf.tensor([1 + 2j, 3j]).tolist() == [1 + 2j, 3j]
    with pytest.raises(RuntimeError, match="cannot be converted"):
        float(z)


def test_real_and_imag_are_writable_views() -> None:
    z = tf.tensor([1 + 2j, 3 - 4j])
    real, imag = z.real, z.imag
    assert real._base is z and imag._base is z and real.stride() == (2,)
    real[0] = 10.0
    imag.mul_(2)
    assert z.tolist() == [10 + 4j, 3 - 8j]
    z.real = tf.tensor([0.5, 0.25])
    z.imag = tf.tensor([-1.0, 1.0])
    assert z.tolist() == [0.5 - 1j, 0.25 + 1j]
    x = tf.tensor([1.0, -2.0])
    assert x.real is x and x.conj() is x and tf.real(x) is x
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
        x.imag  # noqa: B018


def test_view_as_real_and_view_as_complex_share_storage() -> None:
    z = tf.tensor([1 + 2j, 3 - 4j])
    pairs = tf.view_as_real(z)
    assert pairs.shape == (2, 2) and pairs.tolist() == [[1, 2], [3, -4]]
    pairs[1, 1] = 5.0
    assert z[1].item() == 3 + 5j
    back = tf.view_as_complex(pairs)
    back[0] = 7j
    assert z[0].item() == 7j
    columns = tf.tensor([[1 + 2j, 3 - 4j], [5j, 6]])
    assert tf.view_as_real(columns[:, 0]).tolist() == [[1, 2], [0, 5]]  # strided views too
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        tf.view_as_complex(tf.ones(3))
    with pytest.raises(RuntimeError, match="stride 1"):
        tf.view_as_complex(tf.ones(2, 2).t())
    with pytest.raises(RuntimeError, match="only supported for complex tensors"):
        tf.view_as_real(tf.ones(2))


def test_complex_and_polar_check_their_parts() -> None:
    with pytest.raises(RuntimeError, match="Expected both inputs to be Half, Float or Double tensors but got Long"):
        tf.complex(tf.tensor([1, 2]), tf.tensor([3, 4]))
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got scalar type Double"):
        tf.complex(tf.ones(2), tf.ones(2, dtype=tf.float64))
    inf = float("inf")
    assert tf.complex(tf.tensor([1.0]), tf.tensor([inf])).item() == complex(1.0, inf)


def test_backward_of_a_complex_output_needs_a_gradient() -> None:
    x = tf.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="only for real scalar outputs"):
        (x * 1j).sum().backward()
    z = tf.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    (z * 2).backward(tf.tensor([1j, 1.0 + 0j]))
    assert z.grad.tolist() == [2j, 2 + 0j]


@pytest.mark.parametrize(("op", "error", "message"), [
    (lambda z: z < z, NotImplementedError, "lt"),
    (lambda z: z >= 1, NotImplementedError, "ge"),
    (lambda z: z.max(), NotImplementedError, "max_all"),
    (lambda z: z.min(dim=0), RuntimeError, r"min\(\): does not support complex input"),
    (lambda z: z.amax(), NotImplementedError, "\"max_values_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z.argmax(), RuntimeError, r"argmax\(\): does not support complex input"),
    (lambda z: tf.relu(z), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: tf.nn.functional.hardtanh(z), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: z.clamp(0, 1), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: tf.maximum(z, z), RuntimeError, "maximum not implemented for complex tensors"),
    (lambda z: z.sort(), RuntimeError, "Sort does not support complex dtypes on CPU"),
    (lambda z: z.topk(1), RuntimeError, "topk does not support complex"),
    (lambda z: tf.floor(z), NotImplementedError, "floor is not supported for complex inputs"),
    (lambda z: tf.sign(z), NotImplementedError, "Please use torch.sgn instead"),
    (lambda z: tf.erf(z), NotImplementedError, "erf"),
    (lambda z: tf.deg2rad(z), RuntimeError, "deg2rad"),
    (lambda z: tf.atan2(z, z), NotImplementedError, "atan2"),
    (lambda z: z % 2, NotImplementedError, "remainder"),
    (lambda z: z // 2, NotImplementedError, "div_floor"),
    (lambda z: tf.signbit(z), NotImplementedError, "signbit is not implemented for complex tensors"),
    (lambda z: tf.nn.functional.gelu(z), NotImplementedError, "\"GeluKernelImpl\" not implemented for .ComplexFloat."),
])
def test_ops_without_complex_kernels_raise_pytorchs_errors(op: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        op(tf.tensor([1 + 2j, -0.5j]))


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: tf.fft.fft(tf.ones(3), norm="bad"), RuntimeError, 'Invalid normalization mode: "bad"'),
    (lambda: tf.fft.fft(tf.ones(3), n=0), RuntimeError, r"Invalid number of data points \(0\) specified"),
    (lambda: tf.fft.fft(tf.ones(3), dim=2), IndexError, "Dimension out of range"),
    (lambda: tf.fft.rfft(tf.ones(3, dtype=tf.cfloat)), RuntimeError, "rfft expects a real input tensor, but got "
                                                                     "ComplexFloat"),
    (lambda: tf.fft.ihfft(tf.ones(2, dtype=tf.cfloat)), RuntimeError, "ihfft expects a real input tensor"),
    (lambda: tf.fft.fft2(tf.ones(3)), IndexError, "Dimension out of range"),
    (lambda: tf.fft.fftn(tf.ones(3, 3), s=(2,), dim=(0, 1)), RuntimeError, "dim and shape arguments must have the "
                                                                           "same length"),
    (lambda: tf.fft.irfft(tf.ones(1)), RuntimeError, r"Invalid number of data points \(0\) specified"),
    (lambda: tf.fft.fft(tf.ones(3, dtype=tf.float16)), RuntimeError, "Unsupported dtype Half"),
    (lambda: tf.fft.fftn(tf.ones(3, 3), dim=(0, 0)), RuntimeError, "FFT dims must be unique"),
])
def test_fft_argument_errors_are_pytorchs(call: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_fftfreq_and_rfftfreq_match_pytorch_bit_for_bit() -> None:
    # torch.fft.fftfreq / rfftfreq in PyTorch 2.13
    assert tf.fft.fftfreq(5).tolist() == np.float32([0.0, 0.2, 0.4, -0.4, -0.2]).tolist()
    assert tf.fft.fftfreq(8, d=0.3).tolist() == np.float32(
        [0.0, 0.4166666567325592, 0.8333333134651184, 1.25, -1.6666666269302368, -1.25, -0.8333333134651184,
         -0.4166666567325592]).tolist()
    assert tf.fft.rfftfreq(7, 2.5).tolist() == np.float32(
        [0.0, 0.05714285746216774, 0.11428571492433548, 0.17142857611179352]).tolist()
    assert tf.fft.fftfreq(6, dtype=tf.float64).tolist() == [0.0, 1 / 6, 1 / 3, -0.5, -1 / 3, -1 / 6]
    assert tf.fft.rfftfreq(6, d=0.5).dtype == tf.float32


def test_fft_runs_on_the_array_module_of_the_device(device: str) -> None:
    x = tf.arange(8.0, device=device)
    spectrum = tf.fft.rfft(x)
    assert spectrum.device.type == device and spectrum.dtype == tf.complex64
    np.testing.assert_allclose(tf.fft.irfft(spectrum).cpu().numpy(), np.arange(8.0), atol=1e-5)
    shifted = tf.fft.fftshift(tf.fft.fftfreq(4, device=device))
    assert shifted.device.type == device and shifted.cpu().tolist() == [-0.5, -0.25, 0.0, 0.25]


def test_higher_order_gradients_through_fft_and_abs() -> None:
    x = tf.tensor([0.5, -1.0, 2.0, 0.25], dtype=tf.float64, requires_grad=True)
    assert tf.autograd.gradgradcheck(lambda t: tf.fft.rfft(t).abs(), [x])
    assert tf.autograd.gradcheck(lambda t: tf.view_as_real(tf.fft.ihfft(t, n=5, norm="ortho")), [x])


def test_random_complex_samples_match_pytorchs_stream() -> None:
    # torch.manual_seed(0); torch.randn(4, dtype=torch.cfloat), torch.rand(2, dtype=torch.cdouble) in PyTorch 2.13
    tf.manual_seed(0)
    np.testing.assert_allclose(tf.randn(4, dtype=tf.cfloat).tolist(),
                               [1.0896-0.2075j, -1.5406+0.4019j, -0.7669-0.9890j, 0.2852+0.5926j], atol=1e-4)
    np.testing.assert_allclose(tf.rand(2, dtype=tf.cdouble).tolist(), [0.5813+0.2882j, 0.4529+0.1768j], atol=1e-4)
    samples = tf.randn(20000, dtype=tf.cfloat)
    assert samples.is_contiguous() and abs(samples.real.var().item() - 0.5) < 0.02


def test_in_place_ops_refuse_to_drop_an_imaginary_part() -> None:
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        tf.zeros(2).add_(1j)
    z = tf.zeros(2, dtype=tf.cfloat)
    z.add_(1j)
    z[0] = 5 - 1j
    assert z.tolist() == [5 - 1j, 1j]
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        assert tf.tensor([1 + 2j]).float().tolist() == [1.0]


def test_isreal_and_finfo_of_complex_dtypes() -> None:
    assert tf.isreal(tf.tensor([1j, 2])).tolist() == [False, True]
    assert tf.ones(2).isreal().tolist() == [True, True]
    assert tf.finfo(tf.complex64).eps == tf.finfo(tf.float32).eps


def test_eig_of_a_non_square_matrix_raises_pytorchs_error() -> None:
    with pytest.raises(RuntimeError, match="^linalg.eig: A must be batches of square matrices, but they are 2 by 3 "
                                           "matrices$"):
        tf.linalg.eig(tf.zeros(2, 3))


def test_eig_on_a_cupy_without_a_general_eigensolver_runs_lapack_on_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    if not tf.cuda.is_available():
        pytest.skip(CUDA_REASON)
    a = tf.tensor([[2.0, 1.0], [-1.0, 0.5]], device="cuda")
    cupy_linalg = array_module_of(a._data).linalg
    monkeypatch.delattr(cupy_linalg, "eig")  # CuPy 13 has eigh only
    values, vectors = tf.linalg.eig(a)
    assert values.device.type == "cuda" and vectors.dtype == tf.complex64
    expected_values, expected_vectors = np.linalg.eig(np.array([[2.0, 1.0], [-1.0, 0.5]], dtype=np.float32))
    np.testing.assert_allclose(values.cpu().numpy(), expected_values, rtol=1e-6)
    np.testing.assert_allclose(vectors.cpu().numpy(), expected_vectors, rtol=1e-6)


def test_einsum_gradient_conjugates_the_other_operands() -> None:
    # PyTorch 2.13: an einsum is holomorphic in each operand (FNO's spectral convolution)
    a = tf.tensor([[0.5 - 1j, 2 + 0.5j]])
    w = tf.tensor([[1 + 1j, 2 - 1j]], requires_grad=True)
    tf.einsum("bi,bi->bi", a, w).backward(tf.tensor([[1 - 2j, 0.5 + 1j]]))
    np.testing.assert_allclose(w.grad.numpy(), [[2.5 + 0j, 1.5 + 1.75j]], rtol=1e-6)


# PyTorch 2.13: three steps on (real, imaginary) parts each, as its optimizers view complex parameters
_COMPLEX_STEPS = {
    "Adam": ({}, [0.70116, 1.70062, -0.20839, -0.07444, 0.00222, -0.70159]),
    "AdamW": ({"weight_decay": 0.1}, [0.6746, 1.64437, -0.19731, -0.07339, -0.00361, -0.6751]),
    "RMSprop": ({}, [-0.23897, 0.30969, -0.05163, -0.00977, -0.50973, -0.0]),
    "Adagrad": ({}, [0.77856, 1.77582, -0.29876, 0.0, 0.08292, -0.78046]),
    "Adamax": ({}, [0.71237, 1.70765, -0.24097, -0.05983, 0.01939, -0.7155]),
    "NAdam": ({}, [0.75058, 1.74751, -0.27394, -0.0054, 0.05553, -0.75273]),
    "RAdam": ({}, [-0.19625, 0.086, 0.05415, -0.04777, -0.13016, -0.4623]),
    "Adadelta": ({"lr": 1.0}, [0.99031, 1.9903, -0.49034, 0.09046, 0.29031, -0.99031]),
    "ASGD": ({}, [0.02, 0.43198, -0.128, 0.0008, -0.0904, -0.51198]),
    "Rprop": ({}, [0.636, 1.636, -0.136, 0.0, -0.064, -0.636]),
}


@pytest.mark.parametrize("name", list(_COMPLEX_STEPS))
def test_optimizers_update_complex_parameters_part_by_part(name: str) -> None:
    options, expected = _COMPLEX_STEPS[name]
    p = tf.nn.Parameter(tf.tensor([1 + 2j, -0.5 + 0.1j, 0.3 - 1j]))
    opt = getattr(tf.optim, name)([p], **{"lr": 0.1, **options})
    for _ in range(3):
        loss = (p * tf.tensor([1 + 1j, 2, -1j])).abs().pow(2).sum() + p.real.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    np.testing.assert_allclose(tf.view_as_real(p.detach()).flatten().numpy(), expected, atol=2e-5)


@pytest.mark.parametrize("options, shape, total, value, grad_total", [
    # PyTorch 2.13 on torch.manual_seed(0); randn(2, 40, float64), Hann window of 16, hop 4
    ({}, (2, 9, 11), 463.970983, [3.133257, -2.53576], 2169.675737),
    ({"center": False}, (2, 9, 7), 285.187612, [2.216526, -3.385456], 1217.016791),
    ({"normalized": True}, (2, 9, 11), 115.992746, [0.783314, -0.63394], 135.604734),
    ({"onesided": False}, (2, 16, 11), 822.93483, [3.133257, -2.53576], 3701.43632),
    ({"hop_length": 5}, (2, 9, 9), 377.069141, [1.05778, 5.255963], 1782.246469),
    ({"pad_mode": "constant"}, (2, 9, 11), 443.4045, [3.133257, -2.53576], 1880.909907),
])
def test_stft_matches_pytorch_and_istft_inverts_it(options: dict, shape: tuple, total: float, value: list,
                                                   grad_total: float) -> None:
    tf.manual_seed(0)
    x = tf.randn(2, 40, dtype=tf.float64, requires_grad=True)
    window = tf.hann_window(16, dtype=tf.float64)
    settings = {"window": window, "hop_length": 4, **options}
    s = tf.stft(x, 16, return_complex=True, **settings)
    assert tuple(s.shape) == shape and s.grad_fn.name() == "TransposeBackward1"
    np.testing.assert_allclose([s.abs().sum().item(), *tf.view_as_real(s)[1, 2, 3].tolist()], [total, *value],
                               atol=1e-5)
    (g,) = tf.autograd.grad(s.abs().pow(2).sum(), x)
    np.testing.assert_allclose(g.abs().sum().item(), grad_total, rtol=1e-6)
    if options.get("center", True):
        settings.pop("pad_mode", None)
        y = tf.istft(s, 16, length=40, **settings)
        assert y.grad_fn.name() == "DivBackward0"
        np.testing.assert_allclose(y.detach().numpy(), x.detach().numpy(), atol=1e-10)


def test_stft_forms_warnings_and_errors_are_pytorchs() -> None:
    x = tf.randn(40)
    one = tf.stft(x, 16, window=tf.hann_window(16), return_complex=True)
    assert tuple(one.shape) == (9, 11) and one.grad_fn is None
    assert x.requires_grad_().stft(16, window=tf.hann_window(16), return_complex=True).grad_fn.name() == \
        "SqueezeBackward4"
    with pytest.warns(UserWarning, match="A window was not provided"):
        with pytest.warns(UserWarning, match="stft with return_complex=False is deprecated"):
            assert tuple(tf.stft(x, 8, return_complex=False).shape) == (5, 21, 2)
    with pytest.raises(RuntimeError, match="stft requires the return_complex parameter be given for real inputs"):
        tf.stft(x, 16)
    with pytest.raises(RuntimeError, match=r"n_fft=50, .* : expected 0 < n_fft < 40, but got n_fft=50"):
        tf.stft(x, 50, center=False, return_complex=True)
    with pytest.raises(RuntimeError, match="expected 0 < win_length <= n_fft, but got win_length=20"):
        tf.stft(x, 16, win_length=20, center=False, return_complex=True)
    with pytest.raises(RuntimeError, match=r"expected a 1D window tensor of size equal to win_length=16, but got "
                                           r"window with size \[8\]"):
        tf.stft(x, 16, window=tf.ones(8), center=False, return_complex=True)
    with pytest.raises(RuntimeError, match="window overlap add min"):
        tf.istft(tf.stft(x, 16, hop_length=16, window=tf.ones(16), return_complex=True), 16, hop_length=16,
                 window=tf.hann_window(16))
