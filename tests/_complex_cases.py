"""Cases shared by ``test_complex.py`` and the script that recorded PyTorch's values
(``python -m tests._complex_record`` with PyTorch installed, from the repository root).

Each case: ``name -> (fn(lib, *tensors), input arrays)``, where ``lib`` is ``tinyframe`` (or ``torch`` when
recording). Floating and complex inputs require grad; the recorded gradient is that of the real loss
``sum(0.7 real(out) - 1.3 imag(out))`` for a complex ``out`` (``sum(out)`` for a real one), so it pins the
direction PyTorch's convention gives complex gradients.
"""
from __future__ import annotations

import numpy as np

_RNG = np.random.default_rng(7)


def _real(*shape: int) -> np.ndarray:
    return _RNG.standard_normal(shape)


def _complex(*shape: int) -> np.ndarray:
    return _RNG.standard_normal(shape) + 1j * _RNG.standard_normal(shape)


def _positive(*shape: int) -> np.ndarray:
    return _RNG.uniform(0.5, 2.0, shape)


CASES = {
    # elementwise and reductions on complex tensors
    "abs": (lambda lib, z: z.abs(), [_complex(4)]),
    "angle": (lambda lib, z: lib.angle(z), [_complex(4)]),
    "sgn": (lambda lib, z: lib.sgn(z), [_complex(4)]),
    "mul": (lambda lib, z, w: z * w, [_complex(3), _complex(2, 3)]),
    "mul_real_operand": (lambda lib, z, x: z * x, [_complex(3), _real(3)]),
    "div": (lambda lib, z, w: z / w, [_complex(3), _complex(3)]),
    "add_sub_scalars": (lambda lib, z: (z + 1j) - (2 - 0.5j) * z, [_complex(3)]),
    "mul_complex_scalar": (lambda lib, x: x * (1 + 2j), [_real(3)]),
    "rdiv": (lambda lib, z: 1 / z, [_complex(3)]),
    "pow_number": (lambda lib, z: z ** 3, [_complex(3)]),
    "pow_number_base": (lambda lib, z: 2 ** z, [_complex(3)]),
    "pow_complex_base": (lambda lib, z: (2j) ** z, [_complex(3)]),
    "rsub_add_complex_scalars": (lambda lib, z: lib.add(1j - z, 0.5 - 2j), [_complex(3)]),
    "exp": (lambda lib, z: lib.exp(z), [_complex(4)]),
    "log": (lambda lib, z: lib.log(z), [_complex(4)]),
    "sqrt": (lambda lib, z: z.sqrt(), [_complex(4)]),
    "sin_cos_tanh": (lambda lib, z: z.sin() + z.cos() * z.tanh(), [_complex(4)]),
    "sigmoid": (lambda lib, z: lib.sigmoid(z), [_complex(4)]),
    "reciprocal": (lambda lib, z: z.reciprocal(), [_complex(4)]),
    "neg_conj": (lambda lib, z: -z.conj(), [_complex(4)]),
    "conj_physical": (lambda lib, z: lib.conj_physical(z) * z, [_complex(4)]),
    "matmul": (lambda lib, a, b: a @ b, [_complex(2, 3), _complex(3, 4)]),
    "matmul_vector": (lambda lib, a, b: lib.matmul(a, b), [_complex(3), _complex(3, 2)]),
    "sum_mean": (lambda lib, a: a.sum(0) * a.mean(1).sum(), [_complex(2, 3)]),
    "prod": (lambda lib, a: a.prod(1), [_complex(2, 3)]),
    "real_imag": (lambda lib, z: z.real * z.imag + z.imag, [_complex(4)]),
    "complex": (lambda lib, a, b: lib.complex(a, b) ** 2, [_real(3), _real(2, 3)]),
    "polar": (lambda lib, r, t: lib.polar(r, t), [_positive(4), _real(4)]),
    "polar_negative_abs": (lambda lib, r, t: lib.polar(r, t), [_real(4), _real(4)]),
    "view_as_real": (lambda lib, z: lib.view_as_real(z) ** 2, [_complex(2, 3)]),
    "view_as_complex": (lambda lib, a: lib.view_as_complex(a) ** 2, [_real(3, 2)]),
    "to_complex": (lambda lib, x: x.to(lib.complex128) * 1j, [_real(3)]),
    "int_plus_complex": (lambda lib, z: lib.arange(3, device=z.device) + z, [_complex(3)]),
    "norm": (lambda lib, z: z.norm(), [_complex(2, 3)]),
    "var_std": (lambda lib, z: z.var(0) + z.std(1).sum(), [_complex(3, 4)]),
    "vdot": (lambda lib, z, w: lib.vdot(z, w), [_complex(4), _complex(4)]),
    "conjugate_transpose": (lambda lib, z: z.H @ z.mH.mT, [_complex(3, 2)]),
    # the transforms
    "fft": (lambda lib, x: lib.fft.fft(x), [_real(5)]),
    "fft_complex_n_ortho": (lambda lib, z: lib.fft.fft(z, n=7, norm="ortho"), [_complex(2, 5)]),
    "fft_cut_dim0_forward": (lambda lib, z: lib.fft.fft(z, n=3, dim=0, norm="forward"), [_complex(5, 2)]),
    "ifft": (lambda lib, z: lib.fft.ifft(z), [_complex(6)]),
    "ifft_real_input": (lambda lib, x: lib.fft.ifft(x, norm="ortho"), [_real(6)]),
    "rfft": (lambda lib, x: lib.fft.rfft(x), [_real(6)]),
    "rfft_odd_n_forward": (lambda lib, x: lib.fft.rfft(x, n=9, norm="forward"), [_real(2, 6)]),
    "rfft_abs": (lambda lib, x: lib.fft.rfft(x).abs(), [_real(8)]),
    "irfft": (lambda lib, z: lib.fft.irfft(z), [_complex(5)]),
    "irfft_odd_n_ortho": (lambda lib, z: lib.fft.irfft(z, n=9, norm="ortho"), [_complex(2, 5)]),
    "irfft_real_input": (lambda lib, x: lib.fft.irfft(x, n=4), [_real(5)]),
    "hfft": (lambda lib, z: lib.fft.hfft(z, n=7), [_complex(5)]),
    "ihfft": (lambda lib, x: lib.fft.ihfft(x, norm="forward"), [_real(6)]),
    "fft2": (lambda lib, z: lib.fft.fft2(z), [_complex(3, 4)]),
    "ifft2_s": (lambda lib, z: lib.fft.ifft2(z, s=(2, 5)), [_complex(3, 4)]),
    "rfft2": (lambda lib, x: lib.fft.rfft2(x, norm="ortho"), [_real(3, 4)]),
    "irfft2": (lambda lib, z: lib.fft.irfft2(z), [_complex(3, 4)]),
    "fftn": (lambda lib, x: lib.fft.fftn(x), [_real(2, 3, 4)]),
    "fftn_s": (lambda lib, z: lib.fft.fftn(z, s=(3, -1), norm="forward"), [_complex(2, 3, 4)]),
    "ifftn_dim": (lambda lib, z: lib.fft.ifftn(z, dim=(0, 2)), [_complex(2, 3, 4)]),
    "rfftn_s_dim": (lambda lib, x: lib.fft.rfftn(x, s=(4, 3), dim=(2, 0)), [_real(2, 3, 5)]),
    "irfftn_s": (lambda lib, z: lib.fft.irfftn(z, s=(4, 5)), [_complex(2, 3, 4)]),
    "fftshift": (lambda lib, x: lib.fft.fftshift(x), [_real(4, 5)]),
    "ifftshift_dim": (lambda lib, x: lib.fft.ifftshift(x, dim=1), [_real(4, 5)]),
    "fft_float32": (lambda lib, x: lib.fft.fft(x.float()), [_real(5)]),
    "irfft_complex64": (lambda lib, z: lib.fft.irfft(z.to(lib.complex64)), [_complex(4)]),
}
CASES.update({
    "hfft2": (lambda lib, z: lib.fft.hfft2(z), [_complex(3, 4)]),
    "hfft2_s_ortho": (lambda lib, z: lib.fft.hfft2(z, s=(2, 7), norm="ortho"), [_complex(3, 4)]),
    "hfftn_s_cut_and_pad": (lambda lib, z: lib.fft.hfftn(z, s=(2, 5, 6)), [_complex(3, 4, 5)]),
    "hfftn_dim_forward": (lambda lib, z: lib.fft.hfftn(z, dim=(0, 2), norm="forward"), [_complex(2, 3, 4)]),
    "ihfft2": (lambda lib, x: lib.fft.ihfft2(x), [_real(3, 4)]),
    "ihfftn_s_dim_ortho": (lambda lib, x: lib.fft.ihfftn(x, s=(5, 2), dim=(2, 0), norm="ortho"), [_real(3, 2, 4)]),
    "ihfftn_one_dim": (lambda lib, x: lib.fft.ihfftn(x, dim=[1]), [_real(2, 5)]),
})


def _hermitian_pd(lib, z):  # noqa: ANN001, ANN202
    """A Hermitian positive-definite matrix differentiable in ``z``: ``z z^H + 3 I``."""
    return z @ z.mH + 3 * lib.eye(z.shape[-1], dtype=z.dtype, device=z.device)


# complex linear algebra: gradients in PyTorch's convention (conjugate transposes in every formula)
CASES.update({
    "matmul_complex64": (lambda lib, z, w: z.to(lib.complex64) @ w.to(lib.complex64), [_complex(2, 3), _complex(3, 2)]),
    "linalg_det": (lambda lib, z: lib.linalg.det(z), [_complex(2, 3, 3)]),
    "linalg_det_complex64": (lambda lib, z: lib.linalg.det(z.to(lib.complex64)), [_complex(3, 3)]),
    "linalg_slogdet_sign_and_logabsdet": (lambda lib, z: (lambda r: r.sign * r.logabsdet)(lib.linalg.slogdet(z)),
                                          [_complex(3, 3)]),
    "linalg_inv": (lambda lib, z: lib.linalg.inv(z), [_complex(3, 3)]),
    "linalg_solve": (lambda lib, z, b: lib.linalg.solve(z, b), [_complex(3, 3), _complex(3, 2)]),
    "linalg_solve_vector_left_false": (lambda lib, z, b: lib.linalg.solve(z, b, left=False),
                                       [_complex(3, 3), _complex(2, 3)]),
    "linalg_cholesky": (lambda lib, z: lib.linalg.cholesky(_hermitian_pd(lib, z)), [_complex(3, 3)]),
    "linalg_cholesky_upper": (lambda lib, z: lib.linalg.cholesky(_hermitian_pd(lib, z), upper=True),
                              [_complex(3, 3)]),
    "linalg_qr": (lambda lib, z: (lambda q, r: q.sum() + r.sum())(*lib.linalg.qr(z)), [_complex(4, 3)]),
    "linalg_svd_gauge_invariant": (lambda lib, z: (lambda u, s, vh: (u @ vh) * s.sum())(
        *lib.linalg.svd(z, full_matrices=False)), [_complex(4, 3)]),
    "linalg_svd_wide": (lambda lib, z: (lambda u, s, vh: (u * s.unsqueeze(-2)) @ vh)(
        *lib.linalg.svd(z, full_matrices=False)), [_complex(2, 4)]),
    "linalg_svdvals": (lambda lib, z: lib.linalg.svdvals(z), [_complex(3, 4)]),
    "linalg_matrix_norm_nuc": (lambda lib, z: lib.linalg.matrix_norm(z, "nuc"), [_complex(3, 3)]),
    "linalg_matrix_norm_2": (lambda lib, z: lib.linalg.matrix_norm(z, 2), [_complex(3, 2)]),
    "linalg_matrix_norm_fro": (lambda lib, z: lib.linalg.matrix_norm(z), [_complex(2, 3)]),
    "linalg_vector_norm_3": (lambda lib, z: lib.linalg.vector_norm(z, 3), [_complex(5)]),
    "linalg_eigh": (lambda lib, z: (lambda w, v: w.sum() + v.abs().sum())(*lib.linalg.eigh(_hermitian_pd(lib, z))),
                    [_complex(3, 3)]),
})
CASES.update({
    "linalg_eigvals": (lambda lib, z: lib.linalg.eigvals(z), [_complex(3, 3)]),
    "linalg_eigvals_real_input": (lambda lib, x: lib.linalg.eigvals(x), [_real(2, 3, 3)]),
    "linalg_eig_phase_invariant": (lambda lib, z: (lambda w, v: w * (v.abs() ** 2).sum(-2))(*lib.linalg.eig(z)),
                                   [_complex(3, 3)]),
    "linalg_eig_real_input_float32": (lambda lib, x: (lambda w, v: w + v.abs().sum(-2))(
        *lib.linalg.eig(x.float())), [_real(3, 3)]),
})
# appended last, so the inputs drawn for the cases above stay as recorded
CASES.update({
    "linalg_vecdot_conjugates_x": (lambda lib, z, w: lib.linalg.vecdot(z, w, dim=0), [_complex(3, 2), _complex(3, 2)]),
    "inner_does_not_conjugate": (lambda lib, z, w: lib.inner(z, w), [_complex(2, 3), _complex(3)]),
    "dot_does_not_conjugate": (lambda lib, z, w: lib.dot(z, w), [_complex(4), _complex(4)]),
    "silu_complex_without_grad": (lambda lib, z: lib.nn.functional.silu(z.detach()) * z, [_complex(4)]),
})
