"""``repr(tensor)`` in PyTorch's format.

Every expected string was printed by PyTorch 2.13 for the same data (``torch.`` written ``tinyframe.``).
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tinyframe
from tinyframe._tensor_str import set_printoptions

REPRS = [
    # float styles
    ("fixed_point", lambda: tinyframe.tensor([1.5, -2.25, 3.0]),
     'tensor([ 1.5000, -2.2500,  3.0000])'),
    ("precision_rounds", lambda: tinyframe.tensor([0.12345678, 1.23456789, -9.87654321]),
     'tensor([ 0.1235,  1.2346, -9.8765])'),
    ("one_third", lambda: tinyframe.tensor([1 / 3]),
     'tensor([0.3333])'),
    ("int_mode", lambda: tinyframe.tensor([1., 2., 3.]),
     'tensor([1., 2., 3.])'),
    ("int_mode_negative", lambda: tinyframe.tensor([100., -5., 0.]),
     'tensor([100.,  -5.,   0.])'),
    ("int_mode_zeros", lambda: tinyframe.tensor([0., 0.]),
     'tensor([0., 0.])'),
    ("negative_zero", lambda: tinyframe.tensor([-0.0, 1.0]),
     'tensor([-0., 1.])'),
    ("int_mode_1e8_ratio_sci", lambda: tinyframe.tensor([1e8, 1.]),
     'tensor([1.0000e+08, 1.0000e+00])'),
    ("int_mode_1e8_fixed", lambda: tinyframe.tensor([1e8, 2e7]),
     'tensor([100000000.,  20000000.])'),
    ("int_mode_above_1e8_sci", lambda: tinyframe.tensor([1.5e8]),
     'tensor([1.5000e+08])'),
    ("sci_small", lambda: tinyframe.tensor([1e-5, 1.0]),
     'tensor([1.0000e-05, 1.0000e+00])'),
    ("sci_large", lambda: tinyframe.tensor([1e5, 1.0, 2.5]),
     'tensor([1.0000e+05, 1.0000e+00, 2.5000e+00])'),
    ("sci_ratio", lambda: tinyframe.tensor([0.1, 1000.5]),
     'tensor([1.0000e-01, 1.0005e+03])'),
    ("no_sci_ratio_1000", lambda: tinyframe.tensor([0.5, 500.0]),
     'tensor([  0.5000, 500.0000])'),
    ("big_int_float", lambda: tinyframe.tensor([123456789.]),
     'tensor([1.2346e+08])'),
    ("big_mixed", lambda: tinyframe.tensor([123456789., 1.5, -0.001]),
     'tensor([ 1.2346e+08,  1.5000e+00, -1.0000e-03])'),
    ("tiny_and_huge", lambda: tinyframe.tensor([1e-10, 1e10, -3.0]),
     'tensor([ 1.0000e-10,  1.0000e+10, -3.0000e+00])'),
    ("small_1e_4", lambda: tinyframe.tensor([1e-4, 0.5]),
     'tensor([1.0000e-04, 5.0000e-01])'),
    ("nan_inf", lambda: tinyframe.tensor([float('nan'), float('inf'), -float('inf'), 1.5]),
     'tensor([   nan,    inf,   -inf, 1.5000])'),
    ("nan_int_mode", lambda: tinyframe.tensor([float('nan'), 1., -20.]),
     'tensor([ nan,   1., -20.])'),
    ("inf_only", lambda: tinyframe.tensor([float('inf'), -float('inf')]),
     'tensor([inf, -inf])'),
    ("nan_only", lambda: tinyframe.tensor([float('nan')]),
     'tensor([nan])'),
    ("inf_sci", lambda: tinyframe.tensor([float('inf'), 1e-5, 0.]),
     'tensor([       inf, 1.0000e-05, 0.0000e+00])'),
    ("zeros_and_inf", lambda: tinyframe.tensor([0., float('inf')]),
     'tensor([0., inf])'),
    # 0-dim
    ("scalar_float", lambda: tinyframe.tensor(42.),
     'tensor(42.)'),
    ("scalar_fraction", lambda: tinyframe.tensor(3.14159),
     'tensor(3.1416)'),
    ("scalar_int", lambda: tinyframe.tensor(7),
     'tensor(7)'),
    ("scalar_negative_int", lambda: tinyframe.tensor(-7),
     'tensor(-7)'),
    ("scalar_bool", lambda: tinyframe.tensor(True),
     'tensor(True)'),
    ("scalar_small", lambda: tinyframe.tensor(1e-7),
     'tensor(1.0000e-07)'),
    ("scalar_nan", lambda: tinyframe.tensor(float('nan')),
     'tensor(nan)'),
    ("scalar_zero", lambda: tinyframe.tensor(0.),
     'tensor(0.)'),
    ("scalar_float64", lambda: tinyframe.tensor(2.5, dtype=tinyframe.float64),
     'tensor(2.5000, dtype=tinyframe.float64)'),
    # empty
    ("empty", lambda: tinyframe.tensor([]),
     'tensor([])'),
    ("empty_int64", lambda: tinyframe.tensor([], dtype=tinyframe.int64),
     'tensor([], dtype=tinyframe.int64)'),
    ("empty_bool", lambda: tinyframe.tensor([], dtype=tinyframe.bool),
     'tensor([], dtype=tinyframe.bool)'),
    ("empty_2d", lambda: tinyframe.tensor(np.zeros((0, 3), np.float32)),
     'tensor([], size=(0, 3))'),
    ("empty_3d_int", lambda: tinyframe.tensor(np.zeros((2, 0, 3), np.int64)),
     'tensor([], size=(2, 0, 3), dtype=tinyframe.int64)'),
    ("empty_float64_requires_grad", lambda: tinyframe.tensor([], dtype=tinyframe.float64, requires_grad=True),
     'tensor([], dtype=tinyframe.float64, requires_grad=True)'),
    # bool and ints
    ("bool", lambda: tinyframe.tensor([True, False]),
     'tensor([ True, False])'),
    ("bool_all_true", lambda: tinyframe.tensor([True, True]),
     'tensor([True, True])'),
    ("bool_2d", lambda: tinyframe.tensor([[True, False], [False, False]]),
     ('tensor([[ True, False],\n'
      '        [False, False]])')),
    ("ints", lambda: tinyframe.tensor([1, -2, 300]),
     'tensor([  1,  -2, 300])'),
    ("ints_2d", lambda: tinyframe.tensor([[1, 22], [333, -4]]),
     ('tensor([[  1,  22],\n'
      '        [333,  -4]])')),
    ("int32", lambda: tinyframe.tensor([1, 2], dtype=tinyframe.int32),
     'tensor([1, 2], dtype=tinyframe.int32)'),
    ("int16", lambda: tinyframe.tensor([-1, 2], dtype=tinyframe.int16),
     'tensor([-1,  2], dtype=tinyframe.int16)'),
    ("int8", lambda: tinyframe.tensor([-128, 127], dtype=tinyframe.int8),
     'tensor([-128,  127], dtype=tinyframe.int8)'),
    ("uint8", lambda: tinyframe.tensor([0, 255], dtype=tinyframe.uint8),
     'tensor([  0, 255], dtype=tinyframe.uint8)'),
    # other float dtypes
    ("float64", lambda: tinyframe.tensor([1.5, 2.], dtype=tinyframe.float64),
     'tensor([1.5000, 2.0000], dtype=tinyframe.float64)'),
    ("float64_int_mode", lambda: tinyframe.tensor([1., 2.], dtype=tinyframe.float64),
     'tensor([1., 2.], dtype=tinyframe.float64)'),
    ("float64_from_numpy", lambda: tinyframe.tensor(np.array([0.1, 0.2])),
     'tensor([0.1000, 0.2000], dtype=tinyframe.float64)'),
    ("float16", lambda: tinyframe.tensor([0.1, 1000.], dtype=tinyframe.float16),
     'tensor([9.9976e-02, 1.0000e+03], dtype=tinyframe.float16)'),
    ("float16_fixed", lambda: tinyframe.tensor([0.1, 2.5], dtype=tinyframe.float16),
     'tensor([0.1000, 2.5000], dtype=tinyframe.float16)'),
    # wrapping
    ("wrap_floats", lambda: tinyframe.tensor(np.arange(40, dtype=np.float32) / 3),
     ('tensor([ 0.0000,  0.3333,  0.6667,  1.0000,  1.3333,  1.6667,  2.0000,  2.3333,\n'
      '         2.6667,  3.0000,  3.3333,  3.6667,  4.0000,  4.3333,  4.6667,  5.0000,\n'
      '         5.3333,  5.6667,  6.0000,  6.3333,  6.6667,  7.0000,  7.3333,  7.6667,\n'
      '         8.0000,  8.3333,  8.6667,  9.0000,  9.3333,  9.6667, 10.0000, 10.3333,\n'
      '        10.6667, 11.0000, 11.3333, 11.6667, 12.0000, 12.3333, 12.6667, 13.0000])')),
    ("wrap_ints", lambda: tinyframe.tensor(np.arange(100)),
     ('tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n'
      '        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,\n'
      '        36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,\n'
      '        54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,\n'
      '        72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89,\n'
      '        90, 91, 92, 93, 94, 95, 96, 97, 98, 99])')),
    ("wrap_sci", lambda: tinyframe.tensor(np.arange(1, 31, dtype=np.float32) * 1e-5),
     ('tensor([1.0000e-05, 2.0000e-05, 3.0000e-05, 4.0000e-05, 5.0000e-05, 6.0000e-05,\n'
      '        7.0000e-05, 8.0000e-05, 9.0000e-05, 1.0000e-04, 1.1000e-04, 1.2000e-04,\n'
      '        1.3000e-04, 1.4000e-04, 1.5000e-04, 1.6000e-04, 1.7000e-04, 1.8000e-04,\n'
      '        1.9000e-04, 2.0000e-04, 2.1000e-04, 2.2000e-04, 2.3000e-04, 2.4000e-04,\n'
      '        2.5000e-04, 2.6000e-04, 2.7000e-04, 2.8000e-04, 2.9000e-04, 3.0000e-04])')),
    ("wrap_bools", lambda: tinyframe.tensor(np.arange(30) % 3 == 0),
     ('tensor([ True, False, False,  True, False, False,  True, False, False,  True,\n'
      '        False, False,  True, False, False,  True, False, False,  True, False,\n'
      '        False,  True, False, False,  True, False, False,  True, False, False])')),
    ("wrap_2d_rows", lambda: tinyframe.tensor(np.arange(60, dtype=np.float32).reshape(2, 30) / 7),
     ('tensor([[0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n'
      '         1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n'
      '         2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857, 3.4286, 3.5714, 3.7143,\n'
      '         3.8571, 4.0000, 4.1429],\n'
      '        [4.2857, 4.4286, 4.5714, 4.7143, 4.8571, 5.0000, 5.1429, 5.2857, 5.4286,\n'
      '         5.5714, 5.7143, 5.8571, 6.0000, 6.1429, 6.2857, 6.4286, 6.5714, 6.7143,\n'
      '         6.8571, 7.0000, 7.1429, 7.2857, 7.4286, 7.5714, 7.7143, 7.8571, 8.0000,\n'
      '         8.1429, 8.2857, 8.4286]])')),
    # n-d
    ("matrix", lambda: tinyframe.tensor([[1., 2.], [3., 4.]]),
     ('tensor([[1., 2.],\n'
      '        [3., 4.]])')),
    ("matrix_mixed", lambda: tinyframe.tensor([[1.5, -2.], [300.25, 0.]]),
     ('tensor([[  1.5000,  -2.0000],\n'
      '        [300.2500,   0.0000]])')),
    ("column", lambda: tinyframe.tensor([[1.], [2.], [3.]]),
     ('tensor([[1.],\n'
      '        [2.],\n'
      '        [3.]])')),
    ("cube", lambda: tinyframe.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4)),
     ('tensor([[[ 0.,  1.,  2.,  3.],\n'
      '         [ 4.,  5.,  6.,  7.],\n'
      '         [ 8.,  9., 10., 11.]],\n'
      '\n'
      '        [[12., 13., 14., 15.],\n'
      '         [16., 17., 18., 19.],\n'
      '         [20., 21., 22., 23.]]])')),
    ("cube_fraction", lambda: tinyframe.tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3) / 4 - 1),
     ('tensor([[[-1.0000, -0.7500, -0.5000],\n'
      '         [-0.2500,  0.0000,  0.2500]],\n'
      '\n'
      '        [[ 0.5000,  0.7500,  1.0000],\n'
      '         [ 1.2500,  1.5000,  1.7500]]])')),
    ("four_d", lambda: tinyframe.tensor(np.arange(16).reshape(2, 2, 2, 2)),
     ('tensor([[[[ 0,  1],\n'
      '          [ 2,  3]],\n'
      '\n'
      '         [[ 4,  5],\n'
      '          [ 6,  7]]],\n'
      '\n'
      '\n'
      '        [[[ 8,  9],\n'
      '          [10, 11]],\n'
      '\n'
      '         [[12, 13],\n'
      '          [14, 15]]]])')),
    ("transposed_numpy", lambda: tinyframe.tensor(np.arange(6.).reshape(2, 3).T),
     ('tensor([[0., 3.],\n'
      '        [1., 4.],\n'
      '        [2., 5.]], dtype=tinyframe.float64)')),
    ("singleton_dims", lambda: tinyframe.tensor([[[5.]]]),
     'tensor([[[5.]]])'),
    # summarization
    ("summarized_floats", lambda: tinyframe.tensor(np.arange(2000, dtype=np.float32)),
     ('tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n'
      '        1.9990e+03])')),
    ("summarized_fractions", lambda: tinyframe.tensor(np.arange(1001, dtype=np.float32) / 3),
     ('tensor([0.0000e+00, 3.3333e-01, 6.6667e-01,  ..., 3.3267e+02, 3.3300e+02,\n'
      '        3.3333e+02])')),
    ("summarized_ints", lambda: tinyframe.tensor(np.arange(2000)),
     'tensor([   0,    1,    2,  ..., 1997, 1998, 1999])'),
    ("summarized_uses_shown_values",
     lambda: tinyframe.tensor(np.concatenate([np.ones(3), np.full(1000, 1e-9), np.ones(3)]).astype(np.float32)),
     'tensor([1., 1., 1.,  ..., 1., 1., 1.])'),
    ("summarized_matrix", lambda: tinyframe.tensor(np.arange(2500, dtype=np.float32).reshape(50, 50)),
     ('tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n'
      '         4.9000e+01],\n'
      '        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n'
      '         9.9000e+01],\n'
      '        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n'
      '         1.4900e+02],\n'
      '        ...,\n'
      '        [2.3500e+03, 2.3510e+03, 2.3520e+03,  ..., 2.3970e+03, 2.3980e+03,\n'
      '         2.3990e+03],\n'
      '        [2.4000e+03, 2.4010e+03, 2.4020e+03,  ..., 2.4470e+03, 2.4480e+03,\n'
      '         2.4490e+03],\n'
      '        [2.4500e+03, 2.4510e+03, 2.4520e+03,  ..., 2.4970e+03, 2.4980e+03,\n'
      '         2.4990e+03]])')),
    ("summarized_cube", lambda: tinyframe.tensor(np.arange(8000).reshape(20, 20, 20)),
     ('tensor([[[   0,    1,    2,  ...,   17,   18,   19],\n'
      '         [  20,   21,   22,  ...,   37,   38,   39],\n'
      '         [  40,   41,   42,  ...,   57,   58,   59],\n'
      '         ...,\n'
      '         [ 340,  341,  342,  ...,  357,  358,  359],\n'
      '         [ 360,  361,  362,  ...,  377,  378,  379],\n'
      '         [ 380,  381,  382,  ...,  397,  398,  399]],\n'
      '\n'
      '        [[ 400,  401,  402,  ...,  417,  418,  419],\n'
      '         [ 420,  421,  422,  ...,  437,  438,  439],\n'
      '         [ 440,  441,  442,  ...,  457,  458,  459],\n'
      '         ...,\n'
      '         [ 740,  741,  742,  ...,  757,  758,  759],\n'
      '         [ 760,  761,  762,  ...,  777,  778,  779],\n'
      '         [ 780,  781,  782,  ...,  797,  798,  799]],\n'
      '\n'
      '        [[ 800,  801,  802,  ...,  817,  818,  819],\n'
      '         [ 820,  821,  822,  ...,  837,  838,  839],\n'
      '         [ 840,  841,  842,  ...,  857,  858,  859],\n'
      '         ...,\n'
      '         [1140, 1141, 1142,  ..., 1157, 1158, 1159],\n'
      '         [1160, 1161, 1162,  ..., 1177, 1178, 1179],\n'
      '         [1180, 1181, 1182,  ..., 1197, 1198, 1199]],\n'
      '\n'
      '        ...,\n'
      '\n'
      '        [[6800, 6801, 6802,  ..., 6817, 6818, 6819],\n'
      '         [6820, 6821, 6822,  ..., 6837, 6838, 6839],\n'
      '         [6840, 6841, 6842,  ..., 6857, 6858, 6859],\n'
      '         ...,\n'
      '         [7140, 7141, 7142,  ..., 7157, 7158, 7159],\n'
      '         [7160, 7161, 7162,  ..., 7177, 7178, 7179],\n'
      '         [7180, 7181, 7182,  ..., 7197, 7198, 7199]],\n'
      '\n'
      '        [[7200, 7201, 7202,  ..., 7217, 7218, 7219],\n'
      '         [7220, 7221, 7222,  ..., 7237, 7238, 7239],\n'
      '         [7240, 7241, 7242,  ..., 7257, 7258, 7259],\n'
      '         ...,\n'
      '         [7540, 7541, 7542,  ..., 7557, 7558, 7559],\n'
      '         [7560, 7561, 7562,  ..., 7577, 7578, 7579],\n'
      '         [7580, 7581, 7582,  ..., 7597, 7598, 7599]],\n'
      '\n'
      '        [[7600, 7601, 7602,  ..., 7617, 7618, 7619],\n'
      '         [7620, 7621, 7622,  ..., 7637, 7638, 7639],\n'
      '         [7640, 7641, 7642,  ..., 7657, 7658, 7659],\n'
      '         ...,\n'
      '         [7940, 7941, 7942,  ..., 7957, 7958, 7959],\n'
      '         [7960, 7961, 7962,  ..., 7977, 7978, 7979],\n'
      '         [7980, 7981, 7982,  ..., 7997, 7998, 7999]]])')),
    ("summarized_tall", lambda: tinyframe.tensor(np.arange(1001, dtype=np.float32).reshape(1001, 1)),
     ('tensor([[   0.],\n'
      '        [   1.],\n'
      '        [   2.],\n'
      '        ...,\n'
      '        [ 998.],\n'
      '        [ 999.],\n'
      '        [1000.]])')),
    ("summarized_wide", lambda: tinyframe.tensor(np.arange(1200, dtype=np.float32).reshape(2, 600)),
     ('tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 5.9700e+02, 5.9800e+02,\n'
      '         5.9900e+02],\n'
      '        [6.0000e+02, 6.0100e+02, 6.0200e+02,  ..., 1.1970e+03, 1.1980e+03,\n'
      '         1.1990e+03]])')),
    ("summarized_small_first_dim", lambda: tinyframe.tensor(np.arange(2400, dtype=np.float32).reshape(4, 600) * 0.5),
     ('tensor([[0.0000e+00, 5.0000e-01, 1.0000e+00,  ..., 2.9850e+02, 2.9900e+02,\n'
      '         2.9950e+02],\n'
      '        [3.0000e+02, 3.0050e+02, 3.0100e+02,  ..., 5.9850e+02, 5.9900e+02,\n'
      '         5.9950e+02],\n'
      '        [6.0000e+02, 6.0050e+02, 6.0100e+02,  ..., 8.9850e+02, 8.9900e+02,\n'
      '         8.9950e+02],\n'
      '        [9.0000e+02, 9.0050e+02, 9.0100e+02,  ..., 1.1985e+03, 1.1990e+03,\n'
      '         1.1995e+03]])')),
    # autograd suffixes
    ("requires_grad", lambda: tinyframe.tensor([1., 2.], requires_grad=True),
     'tensor([1., 2.], requires_grad=True)'),
    ("requires_grad_float64", lambda: tinyframe.tensor([1., 2.], dtype=tinyframe.float64, requires_grad=True),
     'tensor([1., 2.], dtype=tinyframe.float64, requires_grad=True)'),
    ("requires_grad_scalar", lambda: tinyframe.tensor(1.5, requires_grad=True),
     'tensor(1.5000, requires_grad=True)'),
    ("grad_fn", lambda: tinyframe.tensor([1., 2.], requires_grad=True) * 2,
     'tensor([2., 4.], grad_fn=<MulBackward0>)'),
    ("grad_fn_float64", lambda: tinyframe.tensor([1.5, 2.], dtype=tinyframe.float64, requires_grad=True) * 2,
     'tensor([3., 4.], dtype=tinyframe.float64, grad_fn=<MulBackward0>)'),
    ("grad_fn_scalar", lambda: tinyframe.tensor(1.5, requires_grad=True) * 2,
     'tensor(3., grad_fn=<MulBackward0>)'),
    ("grad_fn_matrix", lambda: tinyframe.tensor([[1., 2.], [3., 4.]], requires_grad=True) * 2,
     ('tensor([[2., 4.],\n'
      '        [6., 8.]], grad_fn=<MulBackward0>)')),
    ("requires_grad_wrapped", lambda: tinyframe.tensor(np.arange(40, dtype=np.float32) / 3, requires_grad=True),
     ('tensor([ 0.0000,  0.3333,  0.6667,  1.0000,  1.3333,  1.6667,  2.0000,  2.3333,\n'
      '         2.6667,  3.0000,  3.3333,  3.6667,  4.0000,  4.3333,  4.6667,  5.0000,\n'
      '         5.3333,  5.6667,  6.0000,  6.3333,  6.6667,  7.0000,  7.3333,  7.6667,\n'
      '         8.0000,  8.3333,  8.6667,  9.0000,  9.3333,  9.6667, 10.0000, 10.3333,\n'
      '        10.6667, 11.0000, 11.3333, 11.6667, 12.0000, 12.3333, 12.6667, 13.0000],\n'
      '       requires_grad=True)')),
    ("suffix_moves_to_new_line", lambda: tinyframe.tensor(np.arange(12, dtype=np.float64) / 3, requires_grad=True),
     ('tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n'
      '        3.0000, 3.3333, 3.6667], dtype=tinyframe.float64, requires_grad=True)')),
    ("suffixes_fill_line", lambda: tinyframe.tensor(np.arange(1.5, 8), requires_grad=True),
     ('tensor([1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000],\n'
      '       dtype=tinyframe.float64, requires_grad=True)')),
    ("suffixes_long_line", lambda: tinyframe.tensor(np.arange(1.5, 10), requires_grad=True),
     ('tensor([1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000, 8.5000, 9.5000],\n'
      '       dtype=tinyframe.float64, requires_grad=True)')),
]

# (name, set_printoptions arguments, tensor, repr)
REPRS_WITH_OPTIONS = [
    ("precision_2", dict(precision=2), lambda: tinyframe.tensor([1.12345, 2.5]),
     'tensor([1.12, 2.50])'),
    ("precision_0", dict(precision=0), lambda: tinyframe.tensor([1.6, 2.4]),
     'tensor([2, 2])'),
    ("precision_8", dict(precision=8), lambda: tinyframe.tensor(np.array([1 / 3])),
     'tensor([0.33333333], dtype=tinyframe.float64)'),
    ("threshold_5", dict(threshold=5), lambda: tinyframe.tensor(np.arange(10)),
     'tensor([0, 1, 2,  ..., 7, 8, 9])'),
    ("threshold_5_matrix", dict(threshold=5), lambda: tinyframe.tensor(np.arange(64, dtype=np.float32).reshape(8, 8)),
     ('tensor([[ 0.,  1.,  2.,  ...,  5.,  6.,  7.],\n'
      '        [ 8.,  9., 10.,  ..., 13., 14., 15.],\n'
      '        [16., 17., 18.,  ..., 21., 22., 23.],\n'
      '        ...,\n'
      '        [40., 41., 42.,  ..., 45., 46., 47.],\n'
      '        [48., 49., 50.,  ..., 53., 54., 55.],\n'
      '        [56., 57., 58.,  ..., 61., 62., 63.]])')),
    ("edgeitems_1", dict(threshold=5, edgeitems=1), lambda: tinyframe.tensor(np.arange(10.)),
     'tensor([0.,  ..., 9.], dtype=tinyframe.float64)'),
    ("edgeitems_0", dict(threshold=5, edgeitems=0), lambda: tinyframe.tensor(np.arange(10)),
     'tensor([...], size=(10,))'),
    ("edgeitems_0_matrix", dict(threshold=5, edgeitems=0),
     lambda: tinyframe.tensor(np.arange(64, dtype=np.float32).reshape(8, 8)),
     'tensor([...], size=(8, 8))'),
    ("edgeitems_0_small", dict(edgeitems=0), lambda: tinyframe.tensor([1., 2.]),
     'tensor([1., 2.], size=(2,))'),
    ("linewidth_40", dict(linewidth=40), lambda: tinyframe.tensor(np.arange(20, dtype=np.float32) / 3),
     ('tensor([0.0000, 0.3333, 0.6667, 1.0000,\n'
      '        1.3333, 1.6667, 2.0000, 2.3333,\n'
      '        2.6667, 3.0000, 3.3333, 3.6667,\n'
      '        4.0000, 4.3333, 4.6667, 5.0000,\n'
      '        5.3333, 5.6667, 6.0000, 6.3333])')),
    ("linewidth_40_suffix", dict(linewidth=40), lambda: tinyframe.tensor([1.5, 2.5, 3.5], requires_grad=True),
     ('tensor([1.5000, 2.5000, 3.5000],\n'
      '       requires_grad=True)')),
    ("linewidth_1", dict(linewidth=1), lambda: tinyframe.tensor([1, 2, 3]),
     ('tensor([1,\n'
      '        2,\n'
      '        3])')),
    ("sci_mode_true", dict(sci_mode=True), lambda: tinyframe.tensor([1.5, 2.]),
     'tensor([1.5000e+00, 2.0000e+00])'),
    ("sci_mode_true_int", dict(sci_mode=True), lambda: tinyframe.tensor([1, 2]),
     'tensor([1, 2])'),
    ("sci_mode_false", dict(sci_mode=False), lambda: tinyframe.tensor([1e-5, 1.]),
     'tensor([0.0000, 1.0000])'),
    ("sci_mode_false_large", dict(sci_mode=False), lambda: tinyframe.tensor([1e10, 1.]),
     'tensor([10000000000.,           1.])'),
    ("profile_short", dict(profile="short"), lambda: tinyframe.tensor(np.arange(2000, dtype=np.float32) / 3),
     'tensor([0.00e+00, 3.33e-01,  ..., 6.66e+02, 6.66e+02])'),
]


@pytest.fixture(autouse=True)
def _default_printoptions() -> Iterator[None]:
    yield
    set_printoptions(profile="default")
    tinyframe.set_default_dtype(tinyframe.float32)


@pytest.mark.parametrize("make, expected", [case[1:] for case in REPRS], ids=[case[0] for case in REPRS])
def test_repr_matches_pytorch(make, expected):
    assert repr(make()) == expected


@pytest.mark.parametrize("options, make, expected", [case[1:] for case in REPRS_WITH_OPTIONS],
                         ids=[case[0] for case in REPRS_WITH_OPTIONS])
def test_repr_under_printoptions_matches_pytorch(options, make, expected):
    set_printoptions(**options)
    assert repr(make()) == expected


def test_str_is_repr():
    t = tinyframe.tensor([[1.5, 2.0], [3.0, 4.0]])
    assert str(t) == repr(t)


def test_summarizes_above_threshold_only():
    assert "..." not in repr(tinyframe.tensor(np.arange(1000)))
    assert "..." in repr(tinyframe.tensor(np.arange(1001)))


def test_dtype_named_against_current_default_dtype():
    tinyframe.set_default_dtype(tinyframe.float64)
    assert repr(tinyframe.tensor([1.5, 2.0])) == 'tensor([1.5000, 2.0000])'
    assert (repr(tinyframe.tensor([1.5, 2.0], dtype=tinyframe.float32))
            == 'tensor([1.5000, 2.0000], dtype=tinyframe.float32)')
    assert repr(tinyframe.tensor([], dtype=tinyframe.float32)) == 'tensor([], dtype=tinyframe.float32)'


def test_set_printoptions_without_sci_mode_returns_to_automatic():
    set_printoptions(sci_mode=True)
    set_printoptions(precision=4)
    assert repr(tinyframe.tensor([1.5, 2.0])) == "tensor([1.5000, 2.0000])"


def test_profile_full_never_summarizes():
    set_printoptions(threshold=5)
    set_printoptions(profile="full")
    assert repr(tinyframe.tensor(np.arange(10))) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"


def test_profile_default_restores_every_option():
    set_printoptions(precision=1, threshold=2, edgeitems=1, linewidth=10, sci_mode=True)
    set_printoptions(profile="default")
    assert repr(tinyframe.tensor([1.5, 2.25, 3.0])) == "tensor([1.5000, 2.2500, 3.0000])"


def test_suffix_wrapping_measures_tinyframe_names():
    # PyTorch's "dtype=torch.uint8" still fits in 30 columns; "dtype=tinyframe.uint8" is 4 characters longer.
    set_printoptions(linewidth=30)
    assert repr(tinyframe.tensor(59, dtype=tinyframe.uint8)) == "tensor(59,\n       dtype=tinyframe.uint8)"


def test_device_suffix_names_non_cpu_devices(device):
    t = tinyframe.tensor([1.0, 2.0], device=device, requires_grad=True)
    shown_device = "" if device == "cpu" else f", device='{t.device}'"
    assert repr(t) == f"tensor([1., 2.]{shown_device}, requires_grad=True)"
    assert repr(t * 2) == f"tensor([2., 4.]{shown_device}, grad_fn=<MulBackward0>)"
