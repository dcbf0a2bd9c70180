"""bfloat16 tensors against PyTorch 2.13's CPU results, recorded as literals (torch is not imported).

Elementwise results are compared bit for bit: PyTorch's CPU kernels compute bfloat16 in float32 and round
once to nearest-even, as tinyframe does. Values are given as bfloat16 bit patterns (int16) where there are
many of them (``x.view(torch.int16).tolist()`` in PyTorch).
"""
from __future__ import annotations

import io

import numpy as np
import pytest

import tinyframe as torch
from tinyframe import _safetensors

bf16 = torch.bfloat16

# PyTorch: x = torch.linspace(-6, 6, 48).to(bf16), y = torch.linspace(0.25, 9, 48).flip(0).to(bf16), and the
# bits of each op's bfloat16 result
BITS = {
    'x': [-16192, -16200, -16208, -16217, -16225, -16233, -16241, -16249, -16259, -16275, -16291, -16308, -16324,
        -16340, -16357, -16373, -16395, -16428, -16460, -16493, -16539, -16605, -16700, -16893, 15875, 16068, 16163,
        16229, 16275, 16308, 16340, 16373, 16395, 16411, 16428, 16444, 16460, 16477, 16493, 16509, 16519, 16527,
        16535, 16543, 16551, 16560, 16568, 16576],
    'y': [16656, 16653, 16650, 16647, 16644, 16641, 16636, 16630, 16624, 16618, 16612, 16606, 16601, 16595, 16589,
        16583, 16577, 16571, 16565, 16559, 16553, 16547, 16541, 16535, 16529, 16523, 16517, 16510, 16498, 16486,
        16475, 16463, 16451, 16439, 16427, 16415, 16403, 16391, 16374, 16351, 16327, 16303, 16279, 16255, 16207,
        16159, 16095, 16000],
    'add': [16448, 16452, 16456, 16462, 16466, 16470, 16474, 16478, 16483, 16487, 16491, 16496, 16502, 16506, 16511,
        16514, 16516, 16518, 16520, 16522, 16524, 16527, 16529, 16531, 16533, 16535, 16537, 16540, 16542, 16544,
        16546, 16549, 16551, 16553, 16556, 16558, 16560, 16562, 16564, 16566, 16569, 16571, 16573, 16575, 16577,
        16580, 16582, 16584],
    'sub': [-16016, -16023, -16030, -16038, -16044, -16052, -16058, -16066, -16073, -16080, -16087, -16094, -16100,
        -16108, -16115, -16122, -16130, -16144, -16158, -16172, -16186, -16201, -16215, -16229, -16243, -16258,
        -16287, -16315, -16344, -16372, -16414, -16471, -16544, -16672, 15488, 16104, 16228, 16300, 16356, 16398,
        16426, 16454, 16482, 16510, 16525, 16540, 16554, 16568],
    'mul': [-15784, -15797, -15810, -15824, -15836, -15848, -15859, -15870, -15891, -15911, -15931, -15951, -15969,
        -15986, -16008, -16040, -16071, -16101, -16129, -16183, -16233, -16304, -16400, -16613, 16148, 16341, 16425,
        16483, 16523, 16546, 16565, 16582, 16596, 16606, 16614, 16618, 16618, 16617, 16612, 16604, 16594, 16580,
        16562, 16542, 16519, 16475, 16416, 16320],
    'div': [-16597, -16601, -16605, -16610, -16614, -16618, -16623, -16628, -16633, -16638, -16648, -16661, -16674,
        -16687, -16702, -16717, -16734, -16751, -16769, -16809, -16851, -16896, -16992, -17186, 15591, 15796, 15901,
        15975, 16028, 16072, 16120, 16151, 16182, 16217, 16257, 16279, 16306, 16338, 16375, 16401, 16430, 16465,
        16512, 16544, 16591, 16654, 16723, 16832],
    'exp': [15138, 15185, 15238, 15281, 15332, 15378, 15420, 15473, 15517, 15562, 15618, 15657, 15705, 15755, 15798,
        15849, 15895, 15939, 15995, 16034, 16081, 16135, 16175, 16225, 16273, 16316, 16370, 16413, 16458, 16515,
        16552, 16601, 16652, 16692, 16747, 16791, 16834, 16893, 16930, 16976, 17032, 17070, 17120, 17168, 17209,
        17269, 17309, 17354],
    'tanh': [-16512, -16512, -16512, -16512, -16512, -16512, -16512, -16512, -16512, -16512, -16513, -16513, -16513,
        -16514, -16516, -16519, -16523, -16530, -16541, -16559, -16585, -16624, -16709, -16894, 15874, 16059, 16144,
        16183, 16209, 16227, 16238, 16245, 16249, 16252, 16254, 16255, 16255, 16255, 16256, 16256, 16256, 16256,
        16256, 16256, 16256, 16256, 16256, 16256],
    'sigmoid': [15138, 15184, 15237, 15280, 15330, 15377, 15418, 15470, 15514, 15557, 15611, 15650, 15694, 15746,
        15783, 15826, 15876, 15908, 15946, 15991, 16021, 16049, 16080, 16112, 16136, 16152, 16167, 16182, 16194,
        16206, 16215, 16223, 16230, 16235, 16240, 16243, 16246, 16248, 16250, 16251, 16252, 16253, 16254, 16254,
        16255, 16255, 16255, 16255],
    'log': [16397, 16395, 16394, 16392, 16391, 16390, 16388, 16387, 16385, 16383, 16379, 16376, 16373, 16369, 16366,
        16362, 16358, 16354, 16350, 16345, 16341, 16336, 16332, 16327, 16321, 16316, 16310, 16304, 16298, 16292,
        16285, 16278, 16271, 16262, 16252, 16233, 16213, 16191, 16167, 16142, 16098, 16032, 15913, -17536, -16806,
        -16652, -16555, -16463],
    'sqrt': [16448, 16446, 16444, 16442, 16440, 16438, 16436, 16433, 16431, 16429, 16427, 16425, 16423, 16420,
        16418, 16416, 16413, 16411, 16408, 16406, 16403, 16400, 16398, 16395, 16392, 16389, 16386, 16383, 16377,
        16371, 16365, 16358, 16351, 16344, 16337, 16330, 16322, 16314, 16305, 16297, 16288, 16278, 16267, 16255,
        16230, 16202, 16169, 16128],
    'sin': [16015, 16130, 16181, 16224, 16248, 16256, 16248, 16225, 16186, 16136, 16029, 15676, -16816, -16671,
        -16599, -16557, -16527, -16513, -16515, -16534, -16568, -16616, -16705, -16893, 15875, 16063, 16152, 16200,
        16234, 16253, 16255, 16241, 16211, 16169, 16097, 15952, -17092, -16739, -16632, -16582, -16543, -16520,
        -16512, -16520, -16544, -16587, -16638, -16753],
    'relu': [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15875, 16068, 16163, 16229,
        16275, 16308, 16340, 16373, 16395, 16411, 16428, 16444, 16460, 16477, 16493, 16509, 16519, 16527, 16535,
        16543, 16551, 16560, 16568, 16576],
    'pow': [16856, 16849, 16843, 16836, 16830, 16823, 16817, 16811, 16804, 16798, 16792, 16786, 16781, 16775, 16770,
        16760, 16749, 16738, 16727, 16717, 16706, 16696, 16686, 16676, 16666, 16657, 16648, 16637, 16619, 16602,
        16587, 16570, 16554, 16539, 16524, 16507, 16479, 16452, 16427, 16403, 16376, 16333, 16292, 16255, 16186,
        16123, 16019, 15872],
    'add_scalar': [-16195, -16203, -16211, -16220, -16228, -16236, -16244, -16252, -16265, -16281, -16297, -16314,
        -16330, -16346, -16363, -16379, -16408, -16441, -16473, -16506, -16565, -16631, -16751, -17180, 15978,
        16119, 16189, 16255, 16288, 16321, 16353, 16385, 16401, 16417, 16434, 16450, 16466, 16483, 16499, 16514,
        16522, 16530, 16538, 16546, 16554, 16563, 16571, 16579],
    'mul_scalar': [-16192, -16200, -16208, -16217, -16225, -16233, -16241, -16249, -16259, -16275, -16291, -16308,
        -16324, -16340, -16357, -16373, -16395, -16428, -16460, -16493, -16539, -16605, -16700, -16893, 15875,
        16068, 16163, 16229, 16275, 16308, 16340, 16373, 16395, 16411, 16428, 16444, 16460, 16477, 16493, 16509,
        16519, 16527, 16535, 16543, 16551, 16560, 16568, 16576],
    'rsub': [16608, 16600, 16592, 16583, 16575, 16567, 16559, 16551, 16542, 16534, 16526, 16518, 16508, 16492,
        16475, 16459, 16442, 16426, 16410, 16394, 16370, 16338, 16305, 16272, 16223, 16158, 16058, 15832, -16872,
        -16688, -16600, -16534, -16490, -16458, -16424, -16392, -16372, -16355, -16339, -16323, -16306, -16290,
        -16274, -16258, -16249, -16240, -16232, -16224],
}
ELEMENTWISE = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y, "div": lambda x, y: x / y,
    "exp": lambda x, y: x.exp(), "tanh": lambda x, y: x.tanh(), "sigmoid": lambda x, y: x.sigmoid(),
    "log": lambda x, y: y.log(), "sqrt": lambda x, y: y.sqrt(), "sin": lambda x, y: x.sin(),
    "relu": lambda x, y: x.relu(), "pow": lambda x, y: y ** 1.5,
    "add_scalar": lambda x, y: x + 0.1, "mul_scalar": lambda x, y: x * 1.001, "rsub": lambda x, y: 1 - x,
}


def from_bits(bits: list) -> torch.Tensor:
    """The bfloat16 tensor of these bit patterns (a bfloat16 is the top half of a float32: exact)."""
    wide = (np.array(bits, np.int16).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return torch.tensor(wide).to(bf16)


def bits_of(t: torch.Tensor) -> list:
    return (np.array(t.float().tolist(), np.float32).reshape(-1).view(np.uint32) >> 16).astype(np.uint16).view(
        np.int16).tolist()


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_results_are_bit_identical_to_pytorchs(name: str) -> None:
    out = ELEMENTWISE[name](from_bits(BITS["x"]), from_bits(BITS["y"]))
    assert out.dtype is bf16 and bits_of(out) == BITS[name]


def test_tensors_are_made_and_converted_with_pytorchs_rounding() -> None:
    # float64 -> bfloat16 rounds once, ties to even (1.00390625 is halfway between 1 and 1.0078125)
    wide = torch.tensor([0.1, 1 / 3, 1e30, 65504.0 * 2, 1.00390625, 1.01171875], dtype=torch.float64)
    assert wide.to(bf16).tolist() == [0.10009765625, 0.333984375, 1.0002555517425873e+30, 131072.0, 1.0, 1.015625]
    assert torch.tensor([1.00390625, 1.01171875, 3.4e38]).bfloat16().tolist() == [1.0, 1.015625, float("inf")]
    x = torch.tensor([1.0, 2.0, 3.14159, -0.1, 1e-3, 300.7], dtype=bf16)
    assert x.tolist() == [1.0, 2.0, 3.140625, -0.10009765625, 0.00099945068359375, 300.0]
    assert x.half().dtype is torch.float16 and x.half().tolist() == x.tolist() and x.float().dtype is torch.float32
    assert x.dtype is bf16 and x.is_floating_point() and x.element_size() == 2
    assert x.type() == "tinyframe.BFloat16Tensor" and torch.ones(2).type("torch.BFloat16Tensor").dtype is bf16
    assert torch.tensor([257, 3], dtype=bf16).tolist() == [256.0, 3.0]
    assert type(x[0].item()) is float and x[2].item() == 3.140625


def test_factories_make_bfloat16_as_pytorch_does() -> None:
    assert torch.zeros(2, dtype=bf16).tolist() == [0.0, 0.0] and torch.ones(2, dtype=bf16).tolist() == [1.0, 1.0]
    assert torch.empty(2, 3, dtype=bf16).dtype is bf16 and torch.full((2,), 1.7, dtype=bf16).tolist() == [1.703125] * 2
    assert torch.arange(0, 1, 0.3, dtype=bf16).tolist() == [0.0, 0.30078125, 0.6015625, 0.8984375]
    assert torch.arange(250, 260, dtype=bf16).tolist() == [250.0, 251.0, 252.0, 253.0, 254.0, 255.0, 256.0, 256.0,
                                                           258.0, 260.0]
    assert torch.linspace(0, 1, 4, dtype=bf16).tolist() == [0.0, 0.333984375, 0.6640625, 1.0]
    torch.manual_seed(0)
    assert torch.randn(3, dtype=bf16).tolist() == [1.5390625, -0.29296875, -2.171875]
    assert torch.rand(3, dtype=bf16).tolist() == [0.455078125, 0.6328125, 0.349609375]


def test_printing_uses_pytorchs_precision() -> None:
    x = torch.tensor([1.0, 2.0, 3.14159, -0.1, 1e-3, 300.7], dtype=bf16)
    assert repr(x) == ("tensor([ 1.0000e+00,  2.0000e+00,  3.1406e+00, -1.0010e-01,  9.9945e-04,\n"
                       "         3.0000e+02], dtype=tinyframe.bfloat16)")
    assert repr(torch.tensor([1.0, 2.0], dtype=bf16)) == "tensor([1., 2.], dtype=tinyframe.bfloat16)"
    assert repr(torch.tensor(3.3, dtype=bf16)) == "tensor(3.2969, dtype=tinyframe.bfloat16)"
    assert repr(torch.tensor([1.5, 2.5], dtype=bf16, requires_grad=True)) == (
        "tensor([1.5000, 2.5000], dtype=tinyframe.bfloat16, requires_grad=True)")


def test_finfo_and_promotion_are_pytorchs() -> None:
    info = torch.finfo(bf16)
    assert (info.eps, info.max, info.min, info.tiny, info.resolution, info.bits) == (
        0.0078125, 3.3895313892515355e+38, -3.3895313892515355e+38, 1.1754943508222875e-38, 0.01, 16)
    x, half, i = torch.ones(2, dtype=bf16), torch.ones(2, dtype=torch.float16), torch.ones(2, dtype=torch.int64)
    assert (x + half).dtype is torch.float32 and (x + torch.ones(2)).dtype is torch.float32
    assert (x + i).dtype is bf16 and (x + 2.5).dtype is bf16 and (x + 2).dtype is bf16
    assert (x + torch.tensor(1.5)).dtype is bf16 and (x + 1j).dtype is torch.complex64
    assert torch.promote_types(bf16, torch.float16) is torch.float32
    assert torch.promote_types(bf16, torch.int32) is bf16 and torch.promote_types(bf16, torch.float64) is torch.float64


def test_scalars_are_rounded_to_bfloat16_first() -> None:
    # PyTorch casts a Python number to the tensor's dtype: 0.1 becomes 0.10009765625, 1.001 becomes 1.0
    x = torch.tensor([-0.10009765625, 1.0, 3.0, 1000.0], dtype=bf16)
    assert (x + 0.1).tolist() == [0.0, 1.1015625, 3.09375, 1000.0] and (x * 1.001).tolist() == x.tolist()
    assert (x + 257).tolist() == [256.0, 256.0, 260.0, 1256.0] and (x > -0.1).tolist() == [False, True, True, True]


def test_reductions_accumulate_in_float32_and_round_once() -> None:
    big = torch.linspace(0, 10, 1000).to(bf16)
    assert big.sum().item() == 4992.0 and big.mean().item() == 5.0 and big.sum().dtype is bf16
    x = torch.tensor([1.0, 2.0, 3.14159, -0.1, 1e-3, 300.7], dtype=bf16)
    assert (x.sum().item(), x.mean().item(), x.prod().item(), x.max().item()) == (306.0, 51.0, -0.1884765625, 300.0)
    assert (x.var().item(), x.std().item()) == (14912.0, 122.0)
    assert x.cumsum(0).tolist() == [1.0, 3.0, 6.125, 6.03125, 6.03125, 306.0]
    assert x.sum(dtype=torch.float32).dtype is torch.float32 and x.sum(dtype=torch.float32).item() == pytest.approx(
        306.0415, abs=1e-4)


def _matrices() -> tuple:
    a = (torch.arange(12.0).reshape(3, 4) / 7).to(bf16)
    b = (torch.arange(20.0).reshape(4, 5) / 3 - 2).to(bf16)
    return a, b


def _linear() -> torch.nn.Linear:
    lin = torch.nn.Linear(4, 3)
    with torch.no_grad():
        lin.weight.copy_(torch.arange(12.0).reshape(3, 4) / 11 - 0.5)
        lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    return lin


def test_matmul_linear_and_conv_compute_in_float32_and_round_the_result() -> None:
    a, b = _matrices()
    assert (a @ b).tolist() == [[1.6171875, 1.8984375, 2.1875, 2.46875, 2.765625],
                                [2.765625, 3.796875, 4.875, 5.90625, 6.96875],
                                [3.90625, 5.71875, 7.53125, 9.3125, 11.1875]]
    lin = _linear().to(bf16)
    assert lin.weight.dtype is bf16 and lin(a).dtype is bf16
    assert lin(a).tolist() == [[-0.146484375, -0.134765625, 0.67578125], [-0.9765625, -0.134765625, 1.5078125],
                               [-1.8125, -0.134765625, 2.34375]]
    conv = torch.nn.Conv2d(1, 2, 2)
    with torch.no_grad():
        conv.weight.copy_(torch.arange(8.0).reshape(2, 1, 2, 2) / 5 - 0.3)
        conv.bias.copy_(torch.tensor([0.05, -0.05]))
    image = (torch.arange(16.0).reshape(1, 1, 4, 4) / 9).to(bf16)
    assert conv.bfloat16()(image).tolist() == [[[[0.25, 0.25, 0.25], [0.25, 0.25, 0.2490234375], [0.25, 0.25, 0.25]],
                                               [[1.0390625, 1.3984375, 1.75], [2.46875, 2.8125, 3.171875],
                                                [3.890625, 4.25, 4.59375]]]]


def test_softmax_layer_norm_and_cross_entropy_on_bfloat16() -> None:
    a, _ = _matrices()
    assert torch.softmax(a, -1).tolist() == [[0.19921875, 0.2294921875, 0.265625, 0.306640625],
                                             [0.19921875, 0.23046875, 0.265625, 0.306640625],
                                             [0.1982421875, 0.23046875, 0.265625, 0.3046875]]
    # PyTorch's last-dimension log_softmax rounds the sum of exponentials and its log to bfloat16
    assert torch.log_softmax(a, -1).tolist() == [[-1.609375, -1.46875, -1.3203125, -1.1796875],
                                                 [-1.609375, -1.46875, -1.328125, -1.1796875],
                                                 [-1.6171875, -1.46875, -1.328125, -1.1875]]
    assert torch.nn.functional.layer_norm(a, (4,)).tolist() == [
        [-1.34375, -0.447265625, 0.447265625, 1.34375], [-1.34375, -0.439453125, 0.439453125, 1.34375],
        [-1.359375, -0.427734375, 0.451171875, 1.328125]]
    loss = torch.nn.functional.cross_entropy(a, torch.tensor([0, 3, 1]))
    # PyTorch 1.4140625: its nll_loss adds the picked log-probabilities in bfloat16; tinyframe adds in
    # float32, one bfloat16 step (0.0078125) away
    assert loss.dtype is bf16 and loss.item() == 1.421875


def test_normalisations_take_float32_parameters_with_a_bfloat16_input() -> None:
    # PyTorch's CPU mixed precision (LayerNorm under autocast): computed in float32, the result rounded
    # to bfloat16; gradients in each input's dtype. PyTorch 2.13's values.
    x = (torch.linspace(-3, 4, 24).reshape(2, 4, 3) ** 2).to(bf16).requires_grad_()
    w = torch.linspace(-1, 2, 4).requires_grad_()
    b = torch.linspace(0, 0.5, 4)
    out = torch.nn.functional.batch_norm(x, torch.zeros(4), torch.ones(4), w, b, training=True)
    assert out.dtype == bf16 and out.grad_fn.name() == "NativeBatchNormBackward0"
    assert out.flatten()[:4].tolist() == [-1.453125, -0.9375, -0.46875, 0.1669921875]
    out.float().pow(2).sum().backward()
    assert x.grad.dtype == bf16 and w.grad.dtype == torch.float32
    np.testing.assert_allclose(w.grad.tolist(), [-11.996543, 0.0, 12.000917, 24.007860], atol=2e-3)
    assert torch.nn.functional.layer_norm(x, (3,), w[:3]).dtype == bf16
    assert torch.nn.functional.group_norm(x, 2, w, b).dtype == bf16
    with pytest.raises(RuntimeError, match=r"mixed dtype \(CPU\): expect parameter to have scalar type of Float"):
        torch.nn.functional.layer_norm(x, (3,), torch.ones(3, dtype=torch.float64))


def test_gradients_of_bfloat16_leaves_are_bfloat16() -> None:
    w = torch.tensor([0.5, -1.25, 2.0, 0.3], dtype=bf16, requires_grad=True)
    z = torch.tensor([1.1, 2.2, -0.7, 0.05], dtype=bf16)
    (w * z).exp().sum().backward()
    assert w.grad.dtype is bf16 and w.grad.tolist() == [1.9140625, 0.140625, -0.1728515625, 0.05078125]
    a, b = _matrices()
    a.requires_grad_()
    (a @ b).tanh().sum().backward()  # a saturated tanh (1.0 in bfloat16) has slope 0, as in PyTorch
    assert a.grad.tolist() == [[-0.52734375, 0.004150390625, 0.53515625, 1.0703125],
                               [-0.0311279296875, -0.00518798828125, 0.020751953125, 0.046630859375],
                               [0.0, 0.0, 0.0, 0.0]]


def test_a_bfloat16_model_trains_as_pytorchs() -> None:
    a, _ = _matrices()
    lin = _linear().bfloat16()
    torch.nn.functional.cross_entropy(lin(a), torch.tensor([0, 2, 1])).backward()
    assert lin.weight.grad.dtype is bf16 and lin.weight.grad.tolist() == [
        [0.0179443359375, -0.0146484375, -0.04736328125, -0.080078125],
        [-0.322265625, -0.349609375, -0.375, -0.400390625], [0.3046875, 0.365234375, 0.421875, 0.48046875]]
    assert lin.bias.grad.tolist() == [-0.2294921875, -0.1796875, 0.408203125]
    torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9).step()
    assert lin.weight.dtype is bf16
    # PyTorch's: its update rounds lr * grad to bfloat16 before adding it; tinyframe's rounds once
    expected = torch.tensor([[-0.5, -0.40625, -0.314453125, -0.2197265625],
                             [-0.1044921875, -0.010498046875, 0.0830078125, 0.1767578125],
                             [0.197265625, 0.28125, 0.365234375, 0.451171875]], dtype=bf16)
    torch.testing.assert_close(lin.weight.detach(), expected, rtol=0, atol=1e-4)
    torch.optim.AdamW(lin.parameters(), lr=0.01).step()
    expected = torch.tensor([[-0.51171875, -0.396484375, -0.3046875, -0.2099609375],
                             [-0.0947265625, -0.00051116943359375, 0.09326171875, 0.1865234375],
                             [0.1875, 0.271484375, 0.35546875, 0.44140625]], dtype=bf16)
    torch.testing.assert_close(lin.weight.detach(), expected, rtol=1.6e-2, atol=1e-4)  # one SGD rounding apart


def test_cpu_autocast_follows_pytorchs_lists() -> None:
    lin = _linear()
    x = torch.arange(8.0).reshape(2, 4) / 3
    image = torch.arange(16.0).reshape(1, 1, 4, 4) / 9
    with torch.autocast(device_type="cpu", dtype=bf16):
        assert torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") is bf16
        out = lin(x)
        assert out.dtype is bf16 and out.tolist() == [[-0.4765625, -0.04833984375, 1.1796875],
                                                      [-2.40625, -0.04931640625, 3.109375]]
        assert (x @ x.T).dtype is bf16 and torch.bmm(x[None], x.T[None]).dtype is bf16
        assert torch.nn.Conv2d(1, 2, 2)(image).dtype is bf16
        # ops off the lists run in their inputs' dtype; the losses of the float32 list in float32
        assert (out + 1).dtype is bf16 and torch.softmax(out, -1).dtype is bf16 and x.exp().dtype is torch.float32
        assert torch.nn.functional.cross_entropy(out, torch.tensor([0, 1])).dtype is torch.float32
        assert torch.nn.functional.mse_loss(out, out.detach()).dtype is torch.float32
        assert (x.double() @ x.double().T).dtype is torch.float64  # float64 is never cast
        with torch.autocast(device_type="cpu", enabled=False):
            assert lin(x).dtype is torch.float32
        lin(x).sum().backward()
    assert not torch.is_autocast_enabled("cpu") and lin(x).dtype is torch.float32
    assert lin.weight.grad.dtype is torch.float32  # the cast is recorded: the gradient is the parameter's dtype
    assert lin.weight.grad.tolist() == [[1.3359375, 2.0, 2.671875, 3.328125]] * 3


def test_bfloat16_is_saved_and_loaded_in_every_format(tmp_path) -> None:
    x = torch.tensor([1.5, -2.25, 3.14159, 1e-30], dtype=bf16)
    for name, fmt in (("m.tf", "tinyframe"), ("m.pt", "torch")):
        torch.save({"x": x}, tmp_path / name, format=fmt)
        loaded = torch.load(tmp_path / name)["x"]
        assert loaded.dtype is bf16 and loaded.tolist() == x.tolist()
    raw = (tmp_path / "m.pt").read_bytes()
    assert b"BFloat16Storage" in raw  # the storage type torch.save writes for bfloat16
    restored = _safetensors.load(_safetensors.save({"x": x}))["x"]
    assert restored.dtype is bf16 and restored.tolist() == x.tolist()
    assert b'"dtype":"BF16"' in _safetensors.save({"x": x})


def test_in_place_ops_refuse_a_bfloat16_result_in_an_integer_tensor() -> None:
    with pytest.raises(RuntimeError, match="result type BFloat16 can't be cast to the desired output type Long"):
        torch.zeros(2, dtype=torch.int64).add_(torch.ones(2, dtype=bf16))
    x = torch.zeros(2, dtype=bf16)
    x.add_(torch.ones(2))  # a float32 result is rounded into the bfloat16 tensor
    assert x.dtype is bf16 and x.tolist() == [1.0, 1.0]


def test_numpy_refuses_bfloat16_as_pytorch_does() -> None:
    with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
        torch.ones(2, dtype=bf16).numpy()


def test_bfloat16_stays_off_cuda() -> None:
    if not torch.cuda.is_available():
        pytest.skip("no cuda (pytest --fake-cuda runs this on the stand-in)")
    for make in (lambda: torch.ones(2, dtype=bf16).cuda(), lambda: torch.zeros(2, dtype=bf16, device="cuda"),
                 lambda: torch.ones(2, device="cuda").bfloat16(), lambda: torch.nn.Linear(2, 2).cuda().bfloat16()):
        with pytest.raises(TypeError, match="no bfloat16 tensors on cuda:0: CuPy has no bfloat16 type"):
            make()


def test_complex32_stays_unsupported() -> None:
    with pytest.raises(TypeError, match="complex32"):
        torch.zeros(2, dtype="complex32")


def test_saved_npy_stream_round_trips() -> None:
    buffer = io.BytesIO()
    torch.save(torch.ones(3, dtype=bf16) / 3, buffer)
    buffer.seek(0)
    assert torch.load(buffer).tolist() == [0.333984375] * 3
