"""Registry cases for ``tinyframe.fft`` and the complex ops, on real inputs: a complex result is checked
through ``view_as_real`` (or ``abs``), so gradcheck and gradgradcheck differentiate real functions of real
inputs through complex intermediates, in float64, and the forward is compared with ``numpy.fft``."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase


def _pairs(z: np.ndarray) -> np.ndarray:
    """NumPy's counterpart of ``view_as_real``."""
    return np.stack([z.real, z.imag], axis=-1)


def _as_pairs(fn: object) -> object:
    return lambda *xs: tf.view_as_real(fn(*xs))


CASES: list[OpCase] = [
    OpCase("fft", _as_pairs(tf.fft.fft), lambda x: _pairs(np.fft.fft(x)), [(2, 5)]),
    OpCase("fft_n_ortho", _as_pairs(lambda x: tf.fft.fft(x, n=7, norm="ortho")),
           lambda x: _pairs(np.fft.fft(x, n=7, norm="ortho")), [(2, 5)]),
    OpCase("fft_cut_dim0", _as_pairs(lambda x: tf.fft.fft(x, n=3, dim=0, norm="forward")),
           lambda x: _pairs(np.fft.fft(x, n=3, axis=0, norm="forward")), [(5, 2)]),
    OpCase("fft_complex_input", _as_pairs(lambda x, y: tf.fft.fft(tf.complex(x, y))),
           lambda x, y: _pairs(np.fft.fft(x + 1j * y)), [(2, 4), (2, 4)]),
    OpCase("ifft", _as_pairs(lambda x, y: tf.fft.ifft(tf.complex(x, y), norm="ortho")),
           lambda x, y: _pairs(np.fft.ifft(x + 1j * y, norm="ortho")), [(6,), (6,)]),
    OpCase("ifft_real_input", _as_pairs(tf.fft.ifft), lambda x: _pairs(np.fft.ifft(x)), [(6,)]),
    OpCase("rfft", _as_pairs(tf.fft.rfft), lambda x: _pairs(np.fft.rfft(x)), [(3, 6)]),
    OpCase("rfft_odd_n", _as_pairs(lambda x: tf.fft.rfft(x, n=9, norm="forward")),
           lambda x: _pairs(np.fft.rfft(x, n=9, norm="forward")), [(2, 6)]),
    OpCase("rfft_abs", lambda x: tf.fft.rfft(x).abs(), lambda x: np.abs(np.fft.rfft(x)), [(8,)]),
    OpCase("irfft", lambda x, y: tf.fft.irfft(tf.complex(x, y)),
           lambda x, y: np.fft.irfft(x + 1j * y), [(2, 5), (2, 5)]),
    OpCase("irfft_odd_n_ortho", lambda x, y: tf.fft.irfft(tf.complex(x, y), n=9, norm="ortho"),
           lambda x, y: np.fft.irfft(x + 1j * y, n=9, norm="ortho"), [(5,), (5,)]),
    OpCase("irfft_real_input", lambda x: tf.fft.irfft(x, n=4), lambda x: np.fft.irfft(x, n=4), [(5,)]),
    OpCase("hfft", lambda x, y: tf.fft.hfft(tf.complex(x, y), n=7),
           lambda x, y: np.fft.hfft(x + 1j * y, n=7), [(5,), (5,)]),
    OpCase("ihfft", _as_pairs(lambda x: tf.fft.ihfft(x, norm="ortho")),
           lambda x: _pairs(np.fft.ihfft(x, norm="ortho")), [(6,)]),
    OpCase("fft2", _as_pairs(tf.fft.fft2), lambda x: _pairs(np.fft.fft2(x)), [(3, 4)]),
    OpCase("ifft2_s", _as_pairs(lambda x, y: tf.fft.ifft2(tf.complex(x, y), s=(2, 5))),
           lambda x, y: _pairs(np.fft.ifft2(x + 1j * y, s=(2, 5))), [(3, 4), (3, 4)]),
    OpCase("rfft2", _as_pairs(lambda x: tf.fft.rfft2(x, norm="ortho")),
           lambda x: _pairs(np.fft.rfft2(x, norm="ortho")), [(3, 4)]),
    OpCase("irfft2", lambda x, y: tf.fft.irfft2(tf.complex(x, y)),
           lambda x, y: np.fft.irfft2(x + 1j * y), [(3, 4), (3, 4)]),
    OpCase("fftn", _as_pairs(tf.fft.fftn), lambda x: _pairs(np.fft.fftn(x)), [(2, 3, 4)]),
    OpCase("ifftn_dim", _as_pairs(lambda x, y: tf.fft.ifftn(tf.complex(x, y), dim=(0, 2), norm="forward")),
           lambda x, y: _pairs(np.fft.ifftn(x + 1j * y, axes=(0, 2), norm="forward")), [(2, 3, 4), (2, 3, 4)]),
    OpCase("rfftn_s", _as_pairs(lambda x: tf.fft.rfftn(x, s=(4, 3), dim=(2, 0))),
           lambda x: _pairs(np.fft.rfftn(x, s=(4, 3), axes=(2, 0))), [(2, 3, 5)]),
    OpCase("irfftn_s", lambda x, y: tf.fft.irfftn(tf.complex(x, y), s=(4, 5)),
           lambda x, y: np.fft.irfftn(x + 1j * y, s=(4, 5), axes=(1, 2)), [(2, 3, 4), (2, 3, 4)]),
    OpCase("hfft2", lambda x, y: tf.fft.hfft2(tf.complex(x, y)),
           lambda x, y: np.fft.irfft2(np.conj(x + 1j * y), norm="forward"), [(3, 4), (3, 4)]),
    OpCase("hfftn_s_ortho", lambda x, y: tf.fft.hfftn(tf.complex(x, y), s=(2, 5, 6), norm="ortho"),
           lambda x, y: np.fft.irfftn(np.conj(x + 1j * y), s=(2, 5, 6), axes=(0, 1, 2), norm="ortho"),
           [(3, 4, 5), (3, 4, 5)]),
    OpCase("ihfft2", _as_pairs(tf.fft.ihfft2), lambda x: _pairs(np.conj(np.fft.rfft2(x, norm="forward"))), [(3, 4)]),
    OpCase("ihfftn_s_dim", _as_pairs(lambda x: tf.fft.ihfftn(x, s=(5, 2), dim=(2, 0), norm="ortho")),
           lambda x: _pairs(np.conj(np.fft.rfftn(x, s=(5, 2), axes=(2, 0), norm="ortho"))), [(3, 2, 4)]),
    OpCase("fftshift", tf.fft.fftshift, np.fft.fftshift, [(4, 5)]),
    OpCase("ifftshift_dim", lambda x: tf.fft.ifftshift(x, dim=1), lambda x: np.fft.ifftshift(x, axes=1), [(4, 5)]),
    # the complex ops, and arithmetic on complex tensors
    OpCase("complex", _as_pairs(tf.complex), lambda x, y: _pairs(x + 1j * y), [(2, 3), (3,)]),
    OpCase("complex_broadcast", lambda x, y: (tf.complex(x, y) * (1 - 2j)).imag,
           lambda x, y: ((x + 1j * y) * (1 - 2j)).imag, [(2, 3), (3,)], broadcasts=True),
    OpCase("polar", _as_pairs(tf.polar), lambda r, t: _pairs(r * np.exp(1j * t)), [(4,), (4,)], domain=(0.5, 2.0)),
    OpCase("complex_abs", lambda x, y: tf.complex(x, y).abs(), lambda x, y: np.abs(x + 1j * y), [(5,), (5,)]),
    OpCase("complex_angle", lambda x, y: tf.complex(x, y).angle(), lambda x, y: np.angle(x + 1j * y), [(5,), (5,)]),
    OpCase("complex_real_imag", lambda x, y: tf.complex(x, y).real * tf.complex(x, y).imag, lambda x, y: x * y,
           [(5,), (5,)]),
    OpCase("complex_sgn", _as_pairs(lambda x, y: tf.sgn(tf.complex(x, y))),
           lambda x, y: _pairs((x + 1j * y) / np.abs(x + 1j * y)), [(5,), (5,)]),
    OpCase("complex_mul_div", _as_pairs(lambda x, y: tf.complex(x, y) * tf.complex(y, x) / tf.complex(x + 3, y)),
           lambda x, y: _pairs((x + 1j * y) * (y + 1j * x) / (x + 3 + 1j * y)), [(5,), (5,)]),
    OpCase("complex_exp_log", _as_pairs(lambda x, y: tf.exp(tf.complex(x, y)) + tf.log(tf.complex(x, y))),
           lambda x, y: _pairs(np.exp(x + 1j * y) + np.log(x + 1j * y)), [(5,), (5,)]),
    OpCase("complex_matmul", _as_pairs(lambda x, y: tf.complex(x, y) @ tf.complex(y, x).t()),
           lambda x, y: _pairs((x + 1j * y) @ (y + 1j * x).T), [(2, 3), (2, 3)]),
    OpCase("complex_sum_mean", _as_pairs(lambda x, y: tf.complex(x, y).sum(0) * tf.complex(x, y).mean(1).sum()),
           lambda x, y: _pairs((x + 1j * y).sum(0) * (x + 1j * y).mean(1).sum()), [(2, 3), (2, 3)]),
    OpCase("complex_conj", _as_pairs(lambda x, y: tf.complex(x, y).conj() * tf.complex(y, x)),
           lambda x, y: _pairs((x - 1j * y) * (y + 1j * x)), [(5,), (5,)]),
    OpCase("view_as_complex", lambda x: tf.view_as_complex(x).abs(), lambda x: np.abs(x[..., 0] + 1j * x[..., 1]),
           [(3, 2)]),
]


def _hermitian_pd(z: np.ndarray) -> np.ndarray:
    return z @ np.conj(np.swapaxes(z, -1, -2)) + 3 * np.eye(z.shape[-1])


def _complex_matrix(fn: object) -> object:
    """``fn`` on the complex matrix ``x + iy``, its result seen through ``view_as_real`` when complex."""
    def case(x: tf.Tensor, y: tf.Tensor, *rest: tf.Tensor) -> tf.Tensor:
        out = fn(tf.complex(x, y), *rest)
        return tf.view_as_real(out) if out.is_complex() else out
    return case


# Complex linear algebra: first and second derivatives of real functions through PyTorch's conjugate-transpose
# formulas (the torch values are pinned in tests/_complex_expected.py).
CASES += [
    OpCase("linalg_det_complex", _complex_matrix(tf.linalg.det), lambda x, y: _pairs(np.linalg.det(x + 1j * y)),
           [(2, 3, 3), (2, 3, 3)]),
    OpCase("linalg_inv_complex", _complex_matrix(tf.linalg.inv), lambda x, y: _pairs(np.linalg.inv(x + 1j * y)),
           [(3, 3), (3, 3)]),
    OpCase("linalg_solve_complex_left_false",
           _complex_matrix(lambda z, b: tf.linalg.solve(z, tf.complex(b, b * 0.5), left=False)),
           lambda x, y, b: _pairs(np.linalg.solve((x + 1j * y).T, (b + 0.5j * b).T).T), [(3, 3), (3, 3), (2, 3)]),
    OpCase("linalg_slogdet_complex", _complex_matrix(lambda z: tf.linalg.slogdet(z).logabsdet),
           lambda x, y: np.linalg.slogdet(x + 1j * y)[1], [(3, 3), (3, 3)]),
    OpCase("linalg_cholesky_complex_upper",
           _complex_matrix(lambda z: tf.linalg.cholesky(z @ z.mH + 3 * tf.eye(3, dtype=z.dtype, device=z.device),
                                                        upper=True)),
           lambda x, y: _pairs(np.conj(np.linalg.cholesky(_hermitian_pd(x + 1j * y))).T), [(3, 3), (3, 3)]),
    OpCase("linalg_qr_complex_r_abs", _complex_matrix(lambda z: tf.linalg.qr(z).R.abs()),
           lambda x, y: np.abs(np.linalg.qr(x + 1j * y)[1]), [(4, 3), (4, 3)]),
    OpCase("linalg_svdvals_complex", _complex_matrix(tf.linalg.svdvals),
           lambda x, y: np.linalg.svd(x + 1j * y, compute_uv=False), [(3, 4), (3, 4)]),
    OpCase("linalg_svd_complex_gauge_invariant",
           _complex_matrix(lambda z: (lambda u, s, vh: u @ vh)(*tf.linalg.svd(z, full_matrices=False))),
           lambda x, y: (lambda u, s, vh: _pairs(u @ vh))(*np.linalg.svd(x + 1j * y, full_matrices=False)),
           [(4, 3), (4, 3)]),
]
CASES += [
    OpCase("linalg_eigvals_real_input", lambda x: tf.view_as_real(tf.linalg.eigvals(x)),
           lambda x: _pairs(np.linalg.eigvals(x).astype(complex)), [(3, 3)]),
    OpCase("linalg_eig_complex_phase_invariant",
           _complex_matrix(lambda z: (lambda w, v: w * (v.abs() ** 2).sum(-2))(*tf.linalg.eig(z))),
           lambda x, y: (lambda w, v: _pairs(w * (np.abs(v) ** 2).sum(-2)))(*np.linalg.eig(x + 1j * y)),
           [(3, 3), (3, 3)]),
]



def _stft_reference(x: np.ndarray, n_fft: int, hop: int) -> np.ndarray:
    """Reflect-padded frames times a Hann window, their rfft, frequencies before frames."""
    padded = np.pad(x, [(0, 0), (n_fft // 2, n_fft // 2)], mode="reflect")
    count = 1 + (padded.shape[-1] - n_fft) // hop
    frames = np.stack([padded[:, t * hop:t * hop + n_fft] for t in range(count)], axis=1)
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)
    return _pairs(np.fft.rfft(frames * window, axis=-1).transpose(0, 2, 1))


def _hann(x: tf.Tensor) -> tf.Tensor:
    return tf.hann_window(8, dtype=x.dtype, device=x.device)


CASES += [
    OpCase("stft", _as_pairs(lambda x: tf.stft(x, 8, hop_length=3, window=_hann(x), return_complex=True)),
           lambda x: _stft_reference(x, 8, 3), [(2, 12)]),
    OpCase("istft_of_stft", lambda x: tf.istft(tf.stft(x, 8, hop_length=2, window=_hann(x), return_complex=True), 8,
                                               hop_length=2, window=_hann(x), length=12),
           lambda x: x, [(2, 12)]),
]
