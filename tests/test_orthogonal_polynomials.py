"""torch.special's orthogonal polynomials, spherical_bessel_j0 and modified_bessel_i0/i1: values as PyTorch
2.13's (recorded below), its special cases (negative degrees, the interval's ends, the trigonometric form of high degree
and its float32 fallback to an end's value), dtypes, errors, and no autograd history."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf

X = [-1.0, -0.7, 0.0, 0.3, 0.9, 1.0, 1.6]
N = [[-1], [0], [1], [2], [5], [12]]
# PyTorch 2.13: getattr(torch.special, name)(torch.tensor(X, dtype=torch.float64), torch.tensor(N)).tolist()
EXPECTED = {
    "chebyshev_polynomial_t": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-1.0, -0.7, 0.0, 0.3, 0.9, 1.0, 1.6],
         [1.0, -0.020000000000000125, -1.0, -0.8200000000000001, 0.6200000000000001, 1.0, 4.120000000000001],
         [-1.0, 0.6708799999999998, 0.0, 0.9988800000000001, -0.6321599999999997, 1.0, 93.85216000000004],
         [1.0, -0.9928076779519999, 1.0, -0.870430994432001, 0.6441662586879994, 1.0, 142981.10955336923]],
    "chebyshev_polynomial_u": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-2.0, -1.4, 0.0, 0.6, 1.8, 2.0, 3.2], [3.0, 0.9599999999999997, -1.0, -0.64, 2.24, 3.0, 9.240000000000002],
         [-6.0, 1.39776, 0.0, 1.01376, 0.9676800000000012, 6.0, 214.0723200000001],
         [13.0, -1.1101568983040015, 1.0, -0.7156128112640001, -0.9351246602240012, 13.0, 326143.51836316084]],
    "chebyshev_polynomial_v": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-3.0, -2.4, -1.0, -0.4, 0.8, 1.0, 2.2],
         [5.0, 2.36, -1.0, -1.24, 0.4400000000000001, 1.0, 6.040000000000001],
         [-11.0, 2.43616, -1.0, 0.96416, -0.8099199999999999, 1.0, 138.93472000000003],
         [25.0, -1.2777986416640035, 0.9999999999999999, -1.231673421824, 0.8196430274559996, 1.0,
          211667.01285704103]],
    "chebyshev_polynomial_w": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-1.0, -0.3999999999999999, 1.0, 1.6, 2.8, 3.0, 4.2],
         [1.0, -0.44000000000000017, -1.0, -0.03999999999999998, 4.04, 5.0, 12.440000000000001],
         [-1.0, 0.3593599999999995, 1.0, 1.06336, 2.745280000000001, 11.0, 289.20992000000007],
         [1.0, -0.9425151549439991, 1.0000000000000002, -0.1995522007040017, -2.689892347904003, 25.0,
          440620.0238692806]],
    "shifted_chebyshev_polynomial_t": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-3.0, -2.4, -1.0, -0.4, 0.8, 1.0, 2.2],
         [17.0, 10.52, 1.0, -0.6799999999999999, 0.28000000000000014, 1.0, 8.680000000000001],
         [-3363.0, -1009.5398399999998, -1.0, -0.8838399999999998, -0.99712, 1.0, 622.6211200000002],
         [768398401.0, 42789582.397777945, 1.0, 0.22389896396800066, 0.1315856097280015, 1.0, 13414625.652210224]],
    "shifted_chebyshev_polynomial_u": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-6.0, -4.8, -2.0, -0.8, 1.6, 2.0, 4.4],
         [35.0, 22.04, 3.0, -0.35999999999999993, 1.5600000000000003, 3.0, 18.360000000000003],
         [-6930.0, -2120.0716799999996, -6.0, -0.67968, -1.0982399999999997, 6.0, 1321.6262400000003],
         [1583407981.0, 89859757.44478737, 13.0, 0.6492546703359996, 1.4533253570560016, 13.0, 28474995.123960815]],
    "shifted_chebyshev_polynomial_v": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-7.0, -5.8, -3.0, -1.8, 0.6000000000000001, 1.0, 3.4000000000000004],
         [41.0, 26.84, 5.0, 0.4400000000000001, -0.03999999999999981, 1.0, 13.960000000000003],
         [-8119.0, -2582.7932799999994, -11.0, -0.16927999999999985, -0.9718400000000003, 1.0, 1003.8966400000004],
         [1855077841.0, 109472330.38104129, 25.0, 1.7126439362560002, -0.19884932710399836, 1.0, 21629372.636801463]],
    "shifted_chebyshev_polynomial_w": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-5.0, -3.8, -1.0, 0.19999999999999996, 2.6, 3.0, 5.4],
         [29.0, 17.24, 1.0, -1.16, 3.1600000000000006, 5.0, 22.760000000000005],
         [-5741.0, -1657.3500799999995, -1.0, -1.1900799999999998, -1.2246399999999982, 11.0, 1639.3558400000006],
         [1311738121.0, 70247184.50853343, 1.0, -0.41413459558399984, 3.1055000412160014, 25.0, 35320617.61112019]],
    "hermite_polynomial_h": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-2.0, -1.4, 0.0, 0.6, 1.8, 2.0, 3.2],
         [2.0, -0.04000000000000025, -2.0, -1.6400000000000001, 1.2400000000000002, 2.0, 8.240000000000002],
         [8.0, -34.49824, 0.0, 31.757759999999998, 10.255679999999998, -8.0, -127.81568000000001],
         [280768.0, -802866.3892869079, 665280.0, 49478.71593365919, -234100.5149156106, 280768.0,
          -27001.460941391106]],
    "hermite_polynomial_he": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-1.0, -0.7, 0.0, 0.3, 0.9, 1.0, 1.6],
         [0.0, -0.51, -1.0, -0.91, -0.18999999999999995, 0.0, 1.5600000000000003],
         [-6.0, -7.23807, 0.0, 4.23243, 6.80049, 6.0, -6.474240000000002],
         [-12440.0, -9233.960840506197, 10395.0, 5192.690601658041, -12773.161300660118, -12440.0,
          15623.908818989059]],
    "laguerre_polynomial_l": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [2.0, 1.7, 1.0, 0.7, 0.09999999999999998, 0.0, -0.6000000000000001],
         [3.5, 2.645, 1.0, 0.445, -0.395, -0.5, -0.92],
         [12.883333333333335, 7.573088083333333, 1.0, -0.09333274999999984, -0.5332332499999997, -0.4666666666666667,
          0.2512853333333334],
         [111.34504439442371, 44.372648156819075, 1.0, -0.4680735234891154, 0.44673963227831065, 0.4962122235082303,
          -0.14462411939554107]],
    "legendre_polynomial_p": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
         [-1.0, -0.7, 0.0, 0.3, 0.9, 1.0, 1.6],
         [1.0, 0.23499999999999982, -0.5, -0.365, 0.7150000000000001, 1.0, 3.3400000000000007],
         [-1.0, 0.3651987499999999, 0.0, 0.34538625, -0.04114125, 1.0, 49.73536000000003],
         [1.0, -0.25664009407164173, 0.2255859375, -0.18100217969140728, 0.040748714272420446, 1.0,
          49375.975936961164]],
}
# torch.special.spherical_bessel_j0 at these float64 points
J0_AT = [-float("inf"), -3.0, -0.3, 0.0, 1e-3, 0.45, 2.0, 40.0]
J0 = [0.0, 0.0470400026866224, 0.9850673555377986, 1.0, 0.9999998333333416, 0.9665900758027338,
      0.45464871341284085, 0.01862782901198372]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_values_match_pytorch_and_have_no_history(name: str) -> None:
    x = tf.tensor(X, dtype=tf.float64, requires_grad=True)
    out = getattr(tf.special, name)(x, tf.tensor(N))
    assert out.dtype == tf.float64 and out.grad_fn is None and not out.requires_grad
    np.testing.assert_allclose(out.tolist(), EXPECTED[name], rtol=1e-9, atol=1e-12)


def test_spherical_bessel_j0_matches_pytorch() -> None:
    out = tf.special.spherical_bessel_j0(tf.tensor(J0_AT, dtype=tf.float64))
    np.testing.assert_allclose(out.tolist(), J0, rtol=1e-14, atol=1e-300)
    assert tf.special.spherical_bessel_j0(tf.tensor([0, 2])).dtype == tf.float32


def test_float32_rounding_of_the_trigonometric_form_to_an_end() -> None:
    # acos(1 - 2**-24) / 2 rounds so that cos(theta / 2) == 1 (W) or sin(theta / 2) == 1 (V): PyTorch
    # returns an end's value there (for shifted W, the value at x = 0).
    near_ends = tf.tensor([1 - 6e-8, -1 + 6e-8])
    assert tf.special.chebyshev_polynomial_v(near_ends, 11)[1].item() == -23.0
    assert tf.special.chebyshev_polynomial_w(near_ends, 12)[0].item() == 25.0
    assert tf.special.shifted_chebyshev_polynomial_w(near_ends, 11)[0].item() == -1.0


def test_dtypes_numbers_and_errors_as_pytorch() -> None:
    cheb = tf.special.chebyshev_polynomial_t
    assert cheb(tf.tensor([1, 2]), 2).tolist() == [1.0, 7.0] and cheb(tf.tensor([1, 2]), 2).dtype == tf.float32
    assert cheb(tf.tensor([1, 2]), tf.tensor([2.0], dtype=tf.float64)).dtype == tf.float64
    assert cheb(0.5, tf.tensor([[1], [2]])).tolist() == [[0.5], [-0.5]]
    assert cheb(tf.tensor([0.5]), 2.9).tolist() == [-0.5]  # the degree is truncated
    out = tf.empty(2)
    assert tf.special.hermite_polynomial_h(tf.tensor([0.5, 1.0]), 3, out=out) is out
    assert out.tolist() == [-5.0, -4.0]
    with pytest.raises(NotImplementedError, match="\"chebyshev_polynomial_t_cpu\" not implemented for 'Half'"):
        cheb(tf.tensor([1.0], dtype=tf.float16), 2)
    with pytest.raises(NotImplementedError, match="not implemented for 'ComplexFloat'"):
        cheb(tf.tensor([1 + 1j]), 2)
    with pytest.raises(NotImplementedError, match="\"spherical_bessel_j0_cpu\" not implemented for 'Half'"):
        tf.special.spherical_bessel_j0(tf.tensor([1.0], dtype=tf.float16))
    with pytest.raises(TypeError, match="received an invalid combination of arguments - got \\(float, int\\)"):
        cheb(0.5, 2)


def test_modified_bessel_functions_are_i0_and_i1_without_history() -> None:
    # PyTorch 2.13 at [-3, 0, 0.5, 9] in float64
    x = tf.tensor([-3.0, 0.0, 0.5, 9.0], dtype=tf.float64, requires_grad=True)
    i0, i1 = tf.special.modified_bessel_i0(x), tf.special.modified_bessel_i1(x)
    np.testing.assert_allclose(i0.tolist(), [4.880792585865024, 1.0, 1.0634833707413236, 1093.5883545113745],
                               rtol=1e-15)
    np.testing.assert_allclose(i1.tolist(), [-3.9533702174026093, 0.0, 0.25789430539089636, 1030.9147225169565],
                               rtol=1e-15)
    assert i0.grad_fn is None and i1.grad_fn is None
    assert tf.special.modified_bessel_i0(tf.tensor([1, 2])).dtype == tf.float32
    with pytest.raises(NotImplementedError, match="\"modified_bessel_i1_cpu\" not implemented for 'BFloat16'"):
        tf.special.modified_bessel_i1(tf.ones(1, dtype=tf.bfloat16))
