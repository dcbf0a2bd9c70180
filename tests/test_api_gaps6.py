"""Names of PyTorch 2.13's namespace that third-party scripts call and tinyframe lacked: the inverse
hyperbolic functions, torch-level in-place and ``*_copy`` functions, ``asarray``/``frombuffer``, the
floating-point bit helpers, ``renorm``, the nuclear norm, the removed linear-algebra functions, the
top-level loss and RNN-cell functions, ``torch.cpu`` and global switches. Values, node names and messages
recorded from PyTorch 2.13 (scripts kept out of the repository; the literals are their output)."""
from __future__ import annotations

import array
import re
import warnings

import numpy as np
import pytest

import tinyframe as torch


def _grads(f, *values):
    """The gradients of ``f(*inputs).sum()`` (through a ones cotangent) at float64 inputs made of ``values``."""
    inputs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in values]
    y = f(*inputs)
    y.backward(torch.ones_like(y))
    return [x.grad.tolist() for x in inputs]


# --------------------------------------------------------------------------- asinh, acosh, in-place forms
def test_asinh_acosh_values_nodes_and_aliases() -> None:
    np.testing.assert_allclose(torch.asinh(torch.tensor([-1.0, 0.5, 2.0])).tolist(),
                               [-0.8813735842704773, 0.4812118411064148, 1.4436354637145996], rtol=1e-6)
    out = torch.acosh(torch.tensor([0.5, 1.0, 2.0])).tolist()
    assert np.isnan(out[0]) and out[1:] == pytest.approx([0.0, 1.316957950592041])
    assert torch.acosh(torch.tensor([1, 2])).dtype == torch.float32
    assert torch.asinh(torch.tensor([0.5], requires_grad=True)).grad_fn.name() == "AsinhBackward0"
    assert torch.acosh(torch.tensor([2.0], requires_grad=True)).grad_fn.name() == "AcoshBackward0"
    assert torch.arcsinh is torch.asinh or torch.arcsinh(torch.tensor([2.0])).tolist() == torch.asinh(
        torch.tensor([2.0])).tolist()
    assert torch.arccosh(torch.tensor([2.0])).item() == pytest.approx(1.316957950592041)
    assert torch.tensor([2.0]).arcsinh().item() == pytest.approx(1.4436354637145996)
    z = torch.asinh(torch.tensor([1 + 1j])).item()
    assert (z.real, z.imag) == pytest.approx((1.0612751245498657, 0.6662394404411316))
    z = torch.acosh(torch.tensor([1 + 1j])).item()
    assert (z.real, z.imag) == pytest.approx((1.0612751245498657, 0.9045568704605103))
    assert _grads(torch.asinh, [-1.0, 0.5, 2.0])[0] == pytest.approx([0.7071067811865475, 0.8944271909999159,
                                                                       0.4472135954999579])
    assert _grads(torch.acosh, [1.5, 2.0, 3.0])[0] == pytest.approx([0.8944271909999159, 0.5773502691896258,
                                                                      0.35355339059327373])


def test_missing_in_place_methods() -> None:
    assert torch.tensor([1.0, 2.0]).acosh_().tolist() == pytest.approx([0.0, 1.316957950592041])
    assert torch.tensor([1.0]).arcsinh_().item() == pytest.approx(0.8813735842704773)
    assert torch.tensor([0.5]).arctanh_().item() == pytest.approx(0.5493061443340549)
    assert torch.tensor([0.5]).atanh_().item() == pytest.approx(0.5493061443340549)
    assert torch.tensor([-2.0, 0.0, 3.0]).sgn_().tolist() == [-1.0, 0.0, 1.0]
    assert torch.tensor([3 + 4j]).sgn_().item() == pytest.approx(0.6 + 0.8j)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).acosh_()


# --------------------------------------------------------------------------- torch-level in-place functions
def test_torch_level_in_place_functions_are_the_methods() -> None:
    t = torch.tensor([0.0, 1.0])
    assert torch.exp_(t) is t and t.tolist() == pytest.approx([1.0, 2.7182817459106445])
    assert torch.clamp_(torch.tensor([0.0, 5.0]), 1, 2).tolist() == [1.0, 2.0]
    assert torch.fill_(torch.tensor([0.0, 5.0]), 2).tolist() == [2.0, 2.0]
    assert torch.zero_(torch.tensor([3.0, 5.0])).tolist() == [0.0, 0.0]
    assert torch.xlogy_(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])).tolist() == pytest.approx(
        [0.0, 2.1972246170043945])
    assert torch.ldexp_(torch.tensor([1.0, 2.0]), torch.tensor([2, 3])).tolist() == [4.0, 16.0]
    for name in ("abs_", "sigmoid_", "tanh_", "relu_", "sqrt_", "neg_", "acosh_", "arcsinh_", "rsqrt_", "trunc_"):
        assert callable(getattr(torch, name)), name
    with pytest.raises(TypeError, match=re.escape("exp_(): argument 'input' (position 1) must be Tensor, not int")):
        torch.exp_(3)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.exp_(torch.tensor([1]))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        torch.exp_(torch.tensor([0.0], requires_grad=True))


# --------------------------------------------------------------------------- *_copy functions
_X = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


@pytest.mark.parametrize(("name", "args", "node", "expected"), [
    ("permute_copy", ((1, 0),), "PermuteBackward0_copy", [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    ("t_copy", (), "TBackward0_copy", [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    ("view_copy", ((3, 2),), "ViewBackward0_copy", [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]),
    ("transpose_copy", (0, 1), "TransposeBackward0_copy", [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    ("unsqueeze_copy", (0,), "UnsqueezeBackward0_copy", [_X]),
    ("diagonal_copy", (), "DiagonalBackward0_copy", [0.0, 4.0]),
    ("select_copy", (0, 1), "SelectBackward0_copy", [3.0, 4.0, 5.0]),
    ("slice_copy", (1, 0, 2), "SliceBackward0_copy", [[0.0, 1.0], [3.0, 4.0]]),
    ("narrow_copy", (1, 0, 2), "NarrowCopyBackward0", [[0.0, 1.0], [3.0, 4.0]]),
    ("alias_copy", (), "AliasBackward0_copy", _X),
    ("as_strided_copy", ((2, 2), (1, 2)), "AsStridedBackward0_copy", [[0.0, 2.0], [1.0, 3.0]]),
    ("unfold_copy", (1, 2, 1), "UnfoldBackward0_copy", [[[0.0, 1.0], [1.0, 2.0]], [[3.0, 4.0], [4.0, 5.0]]]),
])
def test_copy_functions_values_nodes_and_own_memory(name, args, node, expected) -> None:
    x = torch.tensor(_X, requires_grad=True)
    out = getattr(torch, name)(x, *args)
    assert (out.tolist(), out.grad_fn.name(), out.is_contiguous()) == (expected, node, True)
    assert out.data_ptr() != x.data_ptr()
    plain = getattr(torch, name)(x.detach(), *args)
    assert plain.grad_fn is None and plain.tolist() == expected


def test_copy_functions_of_several_pieces_out_and_dtypes() -> None:
    x = torch.tensor(_X, requires_grad=True)
    assert [t.grad_fn.name() for t in torch.split_copy(x, 1)] == ["SplitBackward0_copy"] * 2
    assert [t.grad_fn.name() for t in torch.unbind_copy(x)] == ["UnbindBackward0_copy"] * 2
    assert type(torch.split_copy(x, 1)) is tuple
    assert [t.tolist() for t in torch.split_with_sizes_copy(x.detach(), [1, 1])] == [[_X[0]], [_X[1]]]
    assert [t.tolist() for t in torch.unbind_copy(torch.arange(4).reshape(2, 2), 1)] == [[0, 2], [1, 3]]
    assert torch.view_copy(x.detach(), torch.int32).tolist() == [[0, 1065353216, 1073741824],
                                                                 [1077936128, 1082130432, 1084227584]]
    assert torch.squeeze_copy(torch.zeros(1, 2, 1), 0).shape == (2, 1)
    assert torch.slice_copy(x.detach()).tolist() == _X
    out = torch.empty(3, 2)
    assert torch.permute_copy(x.detach(), (1, 0), out=out) is out and out.tolist() == [[0.0, 3.0], [1.0, 4.0],
                                                                                       [2.0, 5.0]]
    real = torch.view_as_real_copy(torch.tensor([1 + 2j], requires_grad=True))
    assert (real.tolist(), real.grad_fn.name()) == ([[1.0, 2.0]], "ViewAsRealBackward0_copy")
    assert torch.view_as_complex_copy(torch.tensor([[1.0, 2.0]])).tolist() == [1 + 2j]
    assert torch.detach_copy(x).requires_grad is False
    assert torch.expand_copy(torch.zeros(1, 2, requires_grad=True), (3, 2)).grad_fn.name() == "ExpandBackward0_copy"
    assert _grads(lambda a: torch.expand_copy(a, (3, 2)), [[1.0, 2.0]]) == [[[3.0, 3.0]]]
    assert _grads(lambda a: torch.permute_copy(a, (1, 0)) * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
                                                                          dtype=torch.float64), _X) == [
        [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]]
    with pytest.raises(RuntimeError, match="number of dimensions in the tensor input does not match the length of "
                                           "the desired ordering of dimensions"):
        torch.permute_copy(x, (1,))


# --------------------------------------------------------------------------- asarray, frombuffer
def test_asarray_shares_memory_where_it_can() -> None:
    t = torch.tensor([1.0, 2.0])
    assert torch.asarray(t) is t
    assert torch.asarray(t, copy=True).data_ptr() != t.data_ptr()
    assert torch.asarray(t, dtype=torch.float64).dtype == torch.float64
    with pytest.raises(ValueError, match="can't alias tensor with dtype 'Float' into dtype 'Double'."):
        torch.asarray(t, dtype=torch.float64, copy=False)
    made = torch.asarray(t, requires_grad=True)
    assert made is t and t.requires_grad and t.is_leaf
    nonleaf = torch.tensor([1.0, 2.0], requires_grad=True) * 2
    assert torch.asarray(nonleaf) is nonleaf
    assert torch.asarray(nonleaf, copy=True).grad_fn.name() == "CloneBackward0"
    detached = torch.asarray(nonleaf, requires_grad=False)
    assert detached is not nonleaf and not detached.requires_grad and detached.grad_fn is None
    a = np.array([1.0, 2.0])
    assert torch.asarray(a).dtype == torch.float64 and np.shares_memory(torch.asarray(a).numpy(), a)
    assert not np.shares_memory(torch.asarray(a, copy=True).numpy(), a)
    assert torch.asarray(a, dtype=torch.float32).dtype == torch.float32
    with pytest.raises(ValueError, match="can't alias tensor with dtype 'Double' into dtype 'Float'."):
        torch.asarray(a, dtype=torch.float32, copy=False)
    strided = np.arange(6.0)[::2]
    assert torch.asarray(strided).stride() == (2,) and np.shares_memory(torch.asarray(strided).numpy(), strided)


def test_asarray_of_python_data_and_buffers() -> None:
    assert (torch.asarray([1, 2]).dtype, torch.asarray([1.0, 2.0]).dtype) == (torch.int64, torch.float32)
    assert torch.asarray(3.5).shape == () and torch.asarray(np.float64(3.5)).dtype == torch.float64
    assert torch.asarray(np.array(3.0)).dtype == torch.float64
    assert torch.asarray([torch.tensor(1.0), torch.tensor(2.0)]).tolist() == [1.0, 2.0]
    assert torch.asarray([1.0, 2.0], requires_grad=True).requires_grad
    assert torch.asarray(array.array("f", [1.0, 2.0])).tolist() == [1.0, 2.0]
    assert torch.asarray(bytearray(b"\x01\x02\x03\x04")).item() == pytest.approx(1.539989614439558e-36)
    assert torch.asarray(bytearray(b"\x01\x02\x03\x04"), dtype=torch.uint8).tolist() == [1, 2, 3, 4]
    assert torch.asarray([1], device="cpu").device == torch.device("cpu")
    with pytest.raises(ValueError, match="can't alias arbitrary sequence into a tensor."):
        torch.asarray([1.0, 2.0], copy=False)
    with pytest.raises(RuntimeError, match="Could not infer dtype of object"):
        torch.asarray(object())
    with pytest.raises(RuntimeError, match="Could not infer dtype of NoneType"):
        torch.asarray(None)
    with pytest.raises(TypeError, match="new\\(\\): invalid data type 'str'"):
        torch.asarray("ab")
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        torch.asarray([1, 2], requires_grad=True)


def test_frombuffer_views_the_buffer() -> None:
    assert torch.frombuffer(bytearray(b"\x01\x00\x00\x00\x02\x00\x00\x00"), dtype=torch.int32).tolist() == [1, 2]
    assert torch.frombuffer(bytearray(range(8)), dtype=torch.uint8, count=3, offset=2).tolist() == [2, 3, 4]
    buffer = bytearray(16)
    torch.frombuffer(buffer, dtype=torch.uint8).fill_(7)
    assert buffer[0] == 7
    assert torch.frombuffer(bytearray(8), dtype=torch.float32, requires_grad=True).requires_grad
    cases = [((bytearray(5),), {"dtype": torch.int32},
              "buffer length (5 bytes) after offset (0 bytes) must be a multiple of element size (4)"),
             ((bytearray(0),), {"dtype": torch.int32}, "both buffer length (0) and count (-1) must not be 0"),
             ((bytearray(4),), {"dtype": torch.uint8, "offset": 4},
              "offset (4 bytes) must be non-negative and no greater than buffer length (4 bytes) minus 1"),
             ((bytearray(4),), {"dtype": torch.uint8, "count": 5}, "requested buffer length (5 * 1 bytes) after "
              "offset (0 bytes) must not be greater than actual buffer length (4 bytes)"),
             ((bytearray(4),), {"dtype": torch.uint8, "count": 0},
              "both buffer length (4) and count (0) must not be 0"),
             ((bytearray(4),), {"dtype": torch.uint8, "offset": -1},
              "offset (-1 bytes) must be non-negative and no greater than buffer length (4 bytes) minus 1"),
             (([1, 2],), {"dtype": torch.float32}, "object does not implement Python buffer protocol.")]
    for args, kwargs, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            torch.frombuffer(*args, **kwargs)
    with pytest.raises(TypeError):
        torch.frombuffer(bytearray(4))


# --------------------------------------------------------------------------- floating-point helpers, rsub
def test_frexp_ldexp_nextafter() -> None:
    mantissa, exponent = torch.frexp(torch.tensor([0.0, 3.0, -10.0, 0.1]))
    assert mantissa.tolist() == pytest.approx([0.0, 0.75, -0.625, 0.8]) and exponent.tolist() == [0, 2, 4, -3]
    assert exponent.dtype == torch.int32 and type(torch.frexp(torch.tensor([3.0]))).__name__ == "frexp"
    assert torch.frexp(torch.tensor([3.0], dtype=torch.float64)).mantissa.dtype == torch.float64
    assert torch.frexp(torch.tensor([3.0], dtype=torch.float16)).mantissa.dtype == torch.float16
    special = torch.frexp(torch.tensor([float("inf"), float("nan")]))
    assert special.mantissa[0].item() == float("inf") and special.exponent.tolist() == [0, 0]
    assert torch.frexp(torch.tensor([3.0], requires_grad=True)).mantissa.grad_fn.name() == "FrexpBackward0"
    assert _grads(lambda a: torch.frexp(a).mantissa * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64),
                  [3.0, 0.1, -10.0]) == [[0.25, 16.0, 0.1875]]
    with pytest.raises(RuntimeError, match=re.escape("torch.frexp() only supports floating-point dtypes")):
        torch.frexp(torch.tensor([3]))
    assert torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([2, 3])).tolist() == [4.0, 16.0]
    assert torch.ldexp(torch.tensor([1, 2]), torch.tensor([2, 3])).dtype == torch.float32
    assert torch.ldexp(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)).dtype == torch.float64
    assert torch.ldexp(torch.tensor([1.0], requires_grad=True), torch.tensor([2])).grad_fn.name() == "LdexpBackward0"
    assert _grads(lambda a: torch.ldexp(a, torch.tensor([2, 0])), [3.0, -10.0]) == [[4.0, 1.0]]
    with pytest.raises(TypeError, match=re.escape("ldexp(): argument 'other' (position 2) must be Tensor, not int")):
        torch.ldexp(torch.tensor([1.0]), 2)
    steps = torch.nextafter(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 1.0])) - torch.tensor([1.0, 2.0])
    assert steps.tolist() == [1.1920928955078125e-07, -1.1920928955078125e-07]
    one = torch.tensor([1.0], dtype=torch.float64)
    assert (torch.nextafter(one, one * 2) - 1).item() == 2.220446049250313e-16
    assert torch.nextafter(torch.tensor([1.0], dtype=torch.float16),
                           torch.tensor([2.0], dtype=torch.float16)).item() == 1.0009765625
    assert torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)).dtype == torch.float64
    assert torch.tensor([1.0]).nextafter_(torch.tensor([0.0])).item() == 0.9999999403953552
    a, b = torch.tensor([1.5, -3.0], requires_grad=True), torch.tensor([0.0, 1.0], requires_grad=True)
    y = torch.nextafter(a, b)
    assert y.grad_fn.name() == "NextafterBackward0"
    y.sum().backward()
    assert (a.grad.tolist(), b.grad.tolist()) == ([1.0, 1.0], [0.0, 0.0])
    with pytest.raises(NotImplementedError, match="\"nextafter_cpu\" not implemented for 'Long'"):
        torch.nextafter(torch.tensor([1]), torch.tensor([2]))
    with pytest.raises(TypeError, match=re.escape("nextafter(): argument 'other' (position 2) must be Tensor, not "
                                                  "float")):
        torch.nextafter(torch.tensor([1.0]), 2.0)


def test_isposinf_isneginf_rsub() -> None:
    values = torch.tensor([float("inf"), -float("inf"), 1.0, float("nan")])
    assert torch.isposinf(values).tolist() == [True, False, False, False]
    assert values.isneginf().tolist() == [False, True, False, False]
    assert torch.isposinf(torch.tensor([1, 2])).tolist() == [False, False]
    with pytest.raises(RuntimeError, match="isposinf does not support complex inputs."):
        torch.isposinf(torch.tensor([1j]))
    assert torch.rsub(torch.tensor([1.0, 2.0]), torch.tensor([5.0, 5.0])).tolist() == [4.0, 3.0]
    assert torch.rsub(torch.tensor([1.0, 2.0]), 5, alpha=2).tolist() == [3.0, 1.0]
    assert torch.rsub(torch.tensor([1, 2]), 5).tolist() == [4, 3]
    a = torch.tensor([1.0], requires_grad=True)
    assert torch.rsub(a, torch.ones(1)).grad_fn.name() == "RsubBackward0"
    assert torch.rsub(a, 2).grad_fn.name() == "RsubBackward1"
    assert _grads(lambda x, y: torch.rsub(x, y, alpha=3), [1.0, 2.0], [5.0, 6.0]) == [[-3.0, -3.0], [1.0, 1.0]]
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point"):
        torch.rsub(torch.tensor([1, 2]), 5, alpha=1.5)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        torch.rsub(torch.tensor([True]), torch.tensor([True]))


# --------------------------------------------------------------------------- renorm, nuclear norm
_M = [[1.0, 2.0], [3.0, 4.0], [0.1, 0.1]]
_G = [[1.0, -1.0], [0.5, 2.0], [1.0, 1.0]]


def test_renorm_values_gradient_and_errors() -> None:
    np.testing.assert_allclose(torch.renorm(torch.tensor(_M), 2, 0, 2.0).tolist(),
                               [[0.8944271802902222, 1.7888543605804443], [1.2000000476837158, 1.600000023841858],
                                [0.10000000149011612, 0.10000000149011612]], rtol=1e-6)
    np.testing.assert_allclose(torch.tensor(_M).renorm(1, 1, 3.0).tolist(),
                               [[0.7317073345184326, 0.9836065769195557], [2.195122003555298, 1.9672131538391113],
                                [0.0731707364320755, 0.04918032884597778]], rtol=1e-6)
    assert torch.renorm(torch.tensor([[1.0, 2.0], [3.0, -4.0]]), float("inf"), 0, 2.0).tolist() == [[1.0, 2.0],
                                                                                                     [1.5, -2.0]]
    assert torch.renorm(torch.ones(2, 2), 2, 0, 0.0).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    np.testing.assert_allclose(torch.renorm(torch.arange(8.0).reshape(2, 2, 2), 2, 1, 5.0).tolist(),
                               [[[0.0, 0.771516740322113], [1.0101525783538818, 1.5152288675308228]],
                                [[3.086066961288452, 3.85758376121521], [3.0304577350616455, 3.535533905029297]]],
                               rtol=1e-6)
    changed = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert changed.renorm_(2, 0, 2.0) is changed and changed[1].tolist() == pytest.approx([1.2, 1.6])
    assert torch.renorm(torch.tensor(_M, requires_grad=True), 2, 0, 2.0).grad_fn.name() == "RenormBackward0"
    g = torch.tensor(_G, dtype=torch.float64)
    np.testing.assert_allclose(_grads(lambda a: torch.renorm(a, 2, 0, 2.0) * g, _M)[0],
                               [[1.0733125731999018, -0.5366563065999491],
                                [-0.25599998576000044, 0.19200000831999958], [1.0, 1.0]], rtol=1e-12)
    np.testing.assert_allclose(_grads(lambda a: torch.renorm(a, 1, 1, 3.0) * g, _M)[0],
                               [[0.26769780371729907, -0.9836065331900032], [-0.09815584589602658, 0.49180327868852447],
                                [0.26769780371729907, 8.06234857997324e-09]], rtol=1e-6)
    with pytest.raises(RuntimeError, match="renorm: non-positive-norm not supported"):
        torch.renorm(torch.tensor([[1.0, 2.0]]), -1, 0, 2.0)
    with pytest.raises(RuntimeError, match="renorm: expected maxnorm to be >= 0 but got -2"):
        torch.renorm(torch.tensor([[1.0, 2.0]]), 2, 0, -2.0)
    with pytest.raises(RuntimeError, match="renorm: input needs at least 2 dimensions, got 1 dimensions"):
        torch.renorm(torch.tensor([1.0, 2.0]), 2, 0, 1.0)
    with pytest.raises(RuntimeError, match="linalg.vector_norm: Expected a floating point or complex tensor as "
                                           "input. Got Long"):
        torch.renorm(torch.tensor([[1, 2]]), 2, 0, 2.0)


def test_nuclear_norm() -> None:
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.5, -1.0]])
    assert torch.norm(A, p="nuc").item() == pytest.approx(5.338299751281738)
    assert A.norm(p="nuc").item() == pytest.approx(5.338299751281738)
    assert torch.norm(A, p="nuc", keepdim=True).shape == (1, 1)
    assert torch.norm(torch.ones(2, 2, 3), p="nuc", dim=(1, 2)).tolist() == pytest.approx([2.4494898319244385] * 2)
    assert torch.norm(torch.ones(2, 2), p="nuc", dtype=torch.float64).dtype == torch.float64
    assert torch.norm(A.clone().requires_grad_(), p="nuc").grad_fn.name() == "SumBackward1"
    np.testing.assert_allclose(_grads(lambda a: torch.norm(a, p="nuc"), A.tolist())[0],
                               [[0.9099784346688409, 0.07261254554813051], [0.11085021272675954, 0.9061156458597132],
                                [0.39956411097104083, -0.41675155015579146]], rtol=1e-7)
    assert torch.nuclear_norm(A).item() == pytest.approx(5.338299751281738)
    assert torch.nuclear_norm(A, keepdim=True).shape == (1, 1)
    assert torch.nuclear_norm(torch.ones(2, 2, 3)).tolist() == pytest.approx([2.4494898319244385] * 2)
    assert torch.nuclear_norm(torch.ones(2, 2, 3), (0, 2)).tolist() == pytest.approx([2.4494898319244385] * 2)
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2"):
        torch.norm(torch.ones(2, 2, 2), p="nuc")
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: Expected a floating point or complex tensor as "
                                           "input. Got Long"):
        torch.nuclear_norm(torch.ones(2, 2, dtype=torch.long))
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: Order abc not supported."):
        A.norm(p="abc")


# --------------------------------------------------------------------------- removed and deprecated linear algebra
def test_removed_functions_raise_pytorchs_messages() -> None:
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    removed = "This function was deprecated since version 1.9 and is now removed."
    calls = [(lambda: torch.solve(A, A), "`torch.solve` is deprecated in favor of `torch.linalg.solve`"),
             (lambda: A.solve(A), "X = torch.linalg.solve(A, B)"),
             (lambda: torch.eig(A), "L_complex, V_complex = torch.linalg.eig(A)"),
             (lambda: A.eig(True), "`torch.linalg.eig` returns complex tensors"),
             (lambda: torch.symeig(A), "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
             (lambda: A.symeig(eigenvectors=True), "to using the lower triangular portion"),
             (lambda: torch.lstsq(A, A), "X = torch.linalg.lstsq(A, B).solution"),
             (lambda: A.lstsq(A), "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`"),
             (lambda: torch.matrix_rank(A), "The parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` "
                                            "to 'hermitian'.")]
    for call, detail in calls:
        with pytest.raises(RuntimeError) as caught:
            call()
        assert str(caught.value).startswith(removed) and detail in str(caught.value)


def test_triangular_solve_still_works_with_its_warning() -> None:
    b, A = torch.tensor([[1.0], [2.0]]), torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated in favor of "
                                         "torch.linalg.solve_triangularand will be removed"):
        result = torch.triangular_solve(b, A)
    assert type(result).__name__ == "triangular_solve"
    np.testing.assert_allclose(result.solution.tolist(), [[1 / 6], [2 / 3]], rtol=1e-6)
    assert result.cloned_coefficient.tolist() == [[2.0, 1.0], [1.0, 3.0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(b.triangular_solve(A, upper=False).solution.tolist(), [[0.5], [0.5]], rtol=1e-6)
        U = torch.tensor([[2.0, 1.0], [0.0, 3.0]])
        np.testing.assert_allclose(torch.triangular_solve(b, U, transpose=True).solution.tolist(), [[0.5], [0.5]],
                                   rtol=1e-6)
        np.testing.assert_allclose(torch.triangular_solve(b, U, unitriangular=True).solution.tolist(), [[-1.0], [2.0]],
                                   rtol=1e-6)
        grad_A = torch.tensor([[2.0, 0.0], [1.0, 3.0]], requires_grad=True)
        assert torch.triangular_solve(b, grad_A, upper=False).solution.grad_fn.name() == "TriangularSolveBackward0"
        grads = _grads(lambda x, M: torch.triangular_solve(x, M, upper=False).solution, [[1.0], [2.0]],
                       [[2.0, 0.0], [1.0, 3.0]])
    np.testing.assert_allclose(grads[0], [[1 / 3], [1 / 3]], rtol=1e-12)
    np.testing.assert_allclose(grads[1], [[-1 / 6, 0.0], [-1 / 6, -1 / 6]], rtol=1e-12)


# --------------------------------------------------------------------------- small functions and methods
def test_fill_empty_strided_split_with_sizes() -> None:
    x = torch.tensor([1.0, float("inf")], requires_grad=True)
    filled = torch.fill(x, 3)
    assert (filled.tolist(), filled.grad_fn.name()) == ([3.0, 3.0], "FillBackward0")
    filled.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    assert torch.fill(torch.tensor([1, 2]), 2.7).tolist() == [2, 2]
    assert torch.fill(torch.tensor([0.0, 5.0]), torch.tensor(3.0)).tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor but got tensor with 1 "
                                           "dimensions."):
        torch.fill(torch.tensor([0.0, 5.0]), torch.tensor([3.0]))
    e = torch.empty_strided((2, 3), (1, 2))
    assert (e.shape, e.stride(), e.dtype) == ((2, 3), (1, 2), torch.float32)
    assert torch.empty_strided((2, 3), (1, 2), dtype=torch.float64, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match=re.escape("dimensionality of sizes (2) must match dimensionality of "
                                                     "strides (1)")):
        torch.empty_strided((2, 3), (1,))
    made = torch.zeros(1, dtype=torch.float64).new_empty_strided((2, 3), (1, 2))
    assert (made.dtype, made.stride()) == (torch.float64, (1, 2))
    assert [t.tolist() for t in torch.split_with_sizes(torch.arange(5), [2, 3])] == [[0, 1], [2, 3, 4]]
    assert [t.shape for t in torch.arange(6).reshape(2, 3).split_with_sizes([1, 2], dim=1)] == [(2, 1), (2, 2)]
    assert torch.split_with_sizes(torch.arange(5.0, requires_grad=True), [2, 3])[0].grad_fn.name() == \
        "SplitWithSizesBackward0"
    with pytest.raises(RuntimeError, match=re.escape(
            "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), but got "
            "split_sizes=[2, 2]")):
        torch.split_with_sizes(torch.arange(5), [2, 2])
    with pytest.raises(RuntimeError, match="split expects at least a 1-dimensional tensor"):
        torch.split_with_sizes(torch.tensor(1), [1])


def test_tensor_methods_resize_is_set_to_and_conversions() -> None:
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        resized = torch.arange(6.0, requires_grad=True).resize(2, 3)
    assert (resized.tolist(), resized.grad_fn.name()) == ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "ResizeBackward")
    with pytest.warns(UserWarning, match="non-inplace resize_as is deprecated"):
        assert torch.arange(6.0).resize_as(torch.zeros(3, 2)).shape == (3, 2)
    assert torch.resize_as_(torch.arange(6.0), torch.zeros(3, 2)).shape == (3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match=re.escape(
                "requested resize to 2x2 (4 elements in total), but the given tensor has a size of 6 (6 elements). "
                "autograd's resize can only change the shape of a given tensor, while preserving the number of "
                "elements. ")):
            torch.arange(6.0).resize(2, 2)
    a = torch.zeros(3)
    assert (a.is_set_to(a), a.is_set_to(a.view(3)), a.is_set_to(a[:]), a.is_set_to(torch.zeros(3)),
            a.is_set_to(a.view(1, 3))) == (True, True, True, False, False)
    assert (torch.zeros(1).cfloat().dtype, torch.zeros(1).cdouble().dtype) == (torch.complex64, torch.complex128)
    assert torch.tensor([-1.0, 2.0]).prelu(torch.tensor([0.25])).tolist() == [-0.25, 2.0]
    assert torch.tensor([-1.0, 0.2, 2.0]).hardshrink().tolist() == [-1.0, 0.0, 2.0]
    assert torch.tensor([-1.0, 0.2, 2.0]).hardshrink(1.5).tolist() == [0.0, 0.0, 2.0]
    with pytest.raises(NotImplementedError, match="\"hardshrink_cpu\" not implemented for 'Long'"):
        torch.tensor([1, 2]).hardshrink()
    assert torch.tensor([[1.0, 2.0, 3.0]]).narrow_copy(1, 1, 2).tolist() == [[2.0, 3.0]]
    assert torch.tensor([1.0]).is_inference() is False


def test_queries_and_global_switches() -> None:
    assert [torch.is_signed(torch.zeros(1, dtype=d)) for d in (torch.uint8, torch.int8, torch.float32, torch.bool,
                                                              torch.complex64)] == [False, True, True, False, True]
    with pytest.raises(TypeError, match=re.escape("is_signed(): argument 'input' (position 1) must be Tensor, not "
                                                  "int")):
        torch.is_signed(3)
    t = torch.zeros(1)
    assert (torch.is_conj(t), torch.is_neg(t), torch.is_inference(t), torch.get_device(t)) == (False, False, False, -1)
    assert torch.manual_seed(5) is torch.default_generator and torch.default_generator.initial_seed() == 5
    assert torch.set_flush_denormal(False) is False
    assert torch.is_warn_always_enabled() is False
    torch.set_warn_always(True)
    assert torch.is_warn_always_enabled() is True
    torch.set_warn_always(False)
    torch.set_anomaly_enabled(True, False)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
    torch.set_anomaly_enabled(False)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
    before = torch.get_num_interop_threads()
    assert before > 0
    torch.set_num_interop_threads(3)
    assert torch.get_num_interop_threads() == 3
    torch.set_num_interop_threads(before)
    assert "exp_" in dir(torch) and "asarray" in dir(torch)


def test_torch_cpu_module() -> None:
    assert (torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device(),
            torch.cpu.synchronize()) == (True, 1, "cpu", None)
    assert torch.cpu.is_initialized() and torch.cpu.Event().query()
    with torch.cpu.stream(torch.cpu.Stream()):
        assert isinstance(torch.cpu.current_stream(), torch.cpu.Stream)
    with pytest.warns(FutureWarning, match=re.escape("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                                                     "`torch.amp.autocast('cpu', args...)` instead.")):
        context = torch.cpu.amp.autocast()
    assert (context.fast_dtype, context.device) == (torch.bfloat16, "cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.cpu.amp.autocast():
            assert torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") == torch.bfloat16
    with pytest.warns(FutureWarning, match="`torch.cpu.amp.GradScaler\\(args...\\)` is deprecated"):
        torch.cpu.amp.GradScaler()
    from tinyframe.cpu.amp import autocast
    assert autocast is torch.cpu.amp.autocast


# --------------------------------------------------------------------------- torch-level nn functions
def test_torch_level_losses_take_reduction_as_an_int() -> None:
    a = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)
    b = torch.tensor([[0.3, 0.7], [0.6, 0.4]], dtype=torch.float64)
    # Left out, reduction is 0 (none) at the top level, as PyTorch 2.13's parser reads its default.
    assert torch.kl_div(a, b).shape == (2, 2) and torch.kl_div(a, b, 2).shape == ()
    with pytest.warns(UserWarning, match="reduction: 'mean' divides the total loss"):  # (functional's only)
        assert torch.kl_div(a, b, 1).item() == pytest.approx(torch.nn.functional.kl_div(a, b).item())
    assert torch.binary_cross_entropy_with_logits(a, b).shape == (2, 2)
    assert torch.margin_ranking_loss(a, b, b).shape == (2, 2) and torch.margin_ranking_loss(a, b, b,
                                                                                            reduction=1).shape == ()
    assert torch.hinge_embedding_loss(a, b).shape == (2, 2)
    assert torch.cosine_embedding_loss(a, b, b[:, 0]).shape == (2,)
    assert torch.triplet_margin_loss(a, b, b).shape == (2,)
    assert torch.poisson_nll_loss(a, b, True, False, 1e-8, 2).shape == ()
    with pytest.raises(TypeError, match=re.escape("kl_div(): argument 'reduction' must be int, not str")):
        torch.kl_div(a, b, reduction="sum")
    log_probs = torch.randn(5, 2, 4, dtype=torch.float64).log_softmax(2)
    targets = torch.tensor([[1, 2], [1, 1]])
    assert torch.ctc_loss(log_probs, targets, [5, 5], [2, 2]).shape == (2,)
    assert torch.ctc_loss(log_probs, targets, torch.tensor([5, 5]), torch.tensor([2, 2]), 0, 1, False).shape == ()


def test_torch_level_rnn_cells_and_in_place_dropouts() -> None:
    gen = np.random.default_rng(0)
    x, h, c = (torch.tensor(gen.standard_normal(s)) for s in ((2, 3), (2, 4), (2, 4)))
    w_ih, w_hh, b_ih, b_hh = (torch.tensor(gen.standard_normal(s)) for s in ((16, 3), (16, 4), (16,), (16,)))
    h1, c1 = torch.lstm_cell(x, (h, c), w_ih, w_hh, b_ih, b_hh)
    cell = torch.nn.LSTMCell(3, 4, dtype=torch.float64)
    with torch.no_grad():
        for p, v in zip(cell.parameters(), (w_ih, w_hh, b_ih, b_hh)):
            p.copy_(v)
    h2, c2 = cell(x, (h, c))
    np.testing.assert_allclose(h1.tolist(), h2.tolist(), rtol=1e-12)
    np.testing.assert_allclose(c1.tolist(), c2.tolist(), rtol=1e-12)
    assert torch.gru_cell(x, h, w_ih[:12], w_hh[:12]).shape == (2, 4)
    assert torch.rnn_relu_cell(x, h, w_ih[:4], w_hh[:4]).min().item() >= 0
    tanh = torch.rnn_tanh_cell(x, h, w_ih[:4], w_hh[:4], b_ih[:4], b_hh[:4])
    np.testing.assert_allclose(tanh.tolist(), np.tanh(x.numpy() @ w_ih[:4].numpy().T + b_ih[:4].numpy()
                                                      + h.numpy() @ w_hh[:4].numpy().T + b_hh[:4].numpy()),
                               rtol=1e-12)
    assert torch.rrelu_(torch.tensor([-1.0, 2.0])).tolist() == pytest.approx([-0.2291666716337204, 2.0])
    assert torch.alpha_dropout_(torch.tensor([-1.0, 2.0]), 0.5, False).tolist() == [-1.0, 2.0]
    assert torch.feature_dropout_(torch.ones(2, 2), 0.5, False).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    weight = torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    assert torch.embedding_renorm_(weight, torch.tensor([0, 1]), 1.0, 2.0) is weight
    np.testing.assert_allclose(weight.tolist(), [[0.6, 0.8], [0.3, 0.4], [6.0, 8.0]], rtol=1e-6)


def test_linalg_vander() -> None:
    x = torch.tensor([1.0, 2.0, 3.0])
    assert torch.linalg.vander(x).tolist() == [[1.0, 1.0, 1.0], [1.0, 2.0, 4.0], [1.0, 3.0, 9.0]]
    assert torch.linalg.vander(x, N=2).tolist() == [[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]
    assert torch.linalg.vander(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).tolist() == [[[1.0, 1.0], [1.0, 2.0]],
                                                                                   [[1.0, 3.0], [1.0, 4.0]]]
    assert torch.linalg.vander(torch.tensor([2, 3])).dtype == torch.int64
    assert torch.linalg.vander(x.clone().requires_grad_()).grad_fn.name() == "CatBackward0"
    assert _grads(torch.linalg.vander, [1.0, 2.0, 3.0]) == [[3.0, 5.0, 7.0]]
    for bad in (lambda: torch.linalg.vander(torch.tensor(2.0)), lambda: torch.linalg.vander(x, N=1)):
        with pytest.raises(RuntimeError, match="N must be greater than 1."):
            bad()
    with pytest.raises(RuntimeError, match="linalg.vander supports floating point, complex, and integer tensors, "
                                           "but got Bool"):
        torch.linalg.vander(torch.tensor([True]))


def test_import_loads_none_of_the_rarely_used_modules() -> None:
    import subprocess
    import sys
    code = ("import sys, tinyframe; print([m for m in ('tinyframe._toplevel_more', 'tinyframe.cpu', 'tinyframe.xpu') "
            "if m in sys.modules and not type(sys.modules[m]).__name__.startswith('_Lazy')])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("name", "bits", "scalar_type"), [("uint16", 16, "UInt16"), ("uint32", 32, "UInt32"),
                                                           ("uint64", 64, "UInt64")])
def test_wide_unsigned_dtypes_as_pytorchs_shell_types(name, bits, scalar_type) -> None:
    dt = getattr(torch, name)
    assert (dt.itemsize, dt.is_signed, dt.is_floating_point) == (bits // 8, False, False)
    t = torch.tensor([1, 2], dtype=dt)
    assert (t.dtype, t.tolist(), t.numpy().dtype) == (dt, [1, 2], np.dtype(name))
    assert torch.from_numpy(np.array([1], dtype=name)).dtype is dt
    assert (t * 2).tolist() == [2, 4] and (t * 2).dtype is dt
    assert t.sum().dtype == torch.int64 and t.sum().item() == 3
    assert t.float().dtype == torch.float32 and torch.tensor([1.0, 2.0]).to(dt).dtype is dt
    assert (torch.zeros(2, dtype=dt).tolist(), torch.ones(2, dtype=dt).tolist()) == ([0, 0], [1, 1])
    assert (t == 1).tolist() == [True, False] and t[0].item() == 1 and torch.cat([t, t]).dtype is dt
    assert torch.tensor([3, 2], dtype=dt).sort().values.tolist() == [2, 3]
    assert (torch.tensor([5], dtype=dt) & torch.tensor([4], dtype=dt)).tolist() == [4]
    assert (torch.iinfo(dt).min, torch.iinfo(dt).max, torch.iinfo(dt).bits) == (0, 2 ** bits - 1, bits)
    assert torch.promote_types(dt, torch.float32) == torch.float32
    for other, other_name in ((torch.int64, "Long"), (torch.uint8, "Byte")):
        with pytest.raises(RuntimeError, match=f"Promotion for uint16, uint32, uint64 types is not supported, "
                                               f"attempted to promote {scalar_type} and {other_name}"):
            torch.promote_types(dt, other)


def test_deprecated_autocast_functions_and_global_switches() -> None:
    calls = [("is_autocast_cpu_enabled", (), False, "torch.is_autocast_cpu_enabled() is deprecated. Please use "
                                                   "torch.is_autocast_enabled('cpu') instead."),
             ("get_autocast_cpu_dtype", (), torch.bfloat16, "torch.get_autocast_cpu_dtype() is deprecated. Please use "
                                                          "torch.get_autocast_dtype('cpu') instead."),
             ("get_autocast_gpu_dtype", (), torch.float16, "torch.get_autocast_gpu_dtype() is deprecated. Please use "
                                                         "torch.get_autocast_dtype('cuda') instead.")]
    for name, args, value, message in calls:
        with pytest.warns(DeprecationWarning, match=re.escape(message)):
            assert getattr(torch, name)(*args) == value
    try:
        with pytest.warns(DeprecationWarning, match=re.escape(
                "torch.set_autocast_cpu_enabled(enabled) is deprecated. Please use torch.set_autocast_enabled('cpu', "
                "enabled) instead.")):
            torch.set_autocast_cpu_enabled(True)
        assert torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") == torch.bfloat16
        with pytest.warns(DeprecationWarning, match=re.escape("torch.set_autocast_cpu_dtype(dtype) is deprecated")):
            torch.set_autocast_cpu_dtype(torch.float16)
        assert torch.get_autocast_dtype("cpu") == torch.float16
        torch.set_autocast_enabled("cpu", False)
        torch.set_autocast_dtype("cpu", torch.bfloat16)
        assert (torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu")) == (False, torch.bfloat16)
        torch.set_autocast_enabled(True)  # (one argument: cuda)
        assert torch.is_autocast_enabled("cuda")
    finally:
        torch.set_autocast_enabled("cuda", False)
    assert (torch.autocast_increment_nesting(), torch.autocast_decrement_nesting()) == (1, 0)
    assert torch.is_autocast_cache_enabled() and torch.clear_autocast_cache() is None


def test_determinism_modes_errors_and_device_modules() -> None:
    assert (torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode()) == (False, 0)
    try:
        torch.set_deterministic_debug_mode("warn")
        assert (torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled(),
                torch.is_deterministic_algorithms_warn_only_enabled()) == (1, True, True)
        torch.set_deterministic_debug_mode(2)
        assert torch.get_deterministic_debug_mode() == 2
    finally:
        torch.set_deterministic_debug_mode(0)
    with pytest.raises(RuntimeError, match="invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                                           "but got x"):
        torch.set_deterministic_debug_mode("x")
    with pytest.raises(RuntimeError, match="invalid value of debug_mode, expected 0, 1, or 2, but got 5"):
        torch.set_deterministic_debug_mode(5)
    assert torch.GradScaler is torch.amp.GradScaler
    assert issubclass(torch.OutOfMemoryError, RuntimeError) and issubclass(torch.AcceleratorError, RuntimeError)
    assert torch.get_device_module("cpu") is torch.cpu and torch.get_device_module() is torch.cpu
    assert torch.get_device_module("cuda") is torch.cuda
    assert torch.compiled_with_cxx11_abi() is True and torch.is_distributed(torch.zeros(1)) is False


def test_svd_and_pca_lowrank_draw_as_pytorch() -> None:
    torch.manual_seed(0)
    A = torch.randn(6, 4, dtype=torch.float64)
    U, S, V = torch.svd_lowrank(A, q=3)
    assert (U.shape, V.shape) == ((6, 3), (4, 3))
    np.testing.assert_allclose(S.tolist(), [3.713643264597236, 3.1069371167557023, 1.1857841346515539], rtol=1e-12)
    np.testing.assert_allclose((U.abs().sum().item(), V.abs().sum().item()), (6.405157412211022, 5.736682100553276),
                               rtol=1e-12)
    torch.manual_seed(1)
    U, S, V = torch.svd_lowrank(A.T, q=2, niter=1)
    assert (U.shape, V.shape) == ((4, 2), (6, 2))
    np.testing.assert_allclose(S.tolist(), [3.7096083463641616, 3.1062397289344164], rtol=1e-12)
    torch.manual_seed(2)
    U, S, V = torch.pca_lowrank(A)
    np.testing.assert_allclose(S.tolist(), [3.1267586253506834, 2.886879774753047, 1.1895518637342248,
                                            0.3443349612726485], rtol=1e-12)
    torch.manual_seed(2)
    np.testing.assert_allclose(torch.pca_lowrank(A, q=2, center=False)[1].tolist(),
                               [3.7136189336293404, 3.104433869369193], rtol=1e-12)
    torch.manual_seed(3)
    np.testing.assert_allclose(torch.svd_lowrank(A, q=2, M=A.mean(0, keepdim=True))[1].tolist(),
                               [3.1267165365058043, 2.88687493042283], rtol=1e-12)
    with pytest.raises(ValueError, match=re.escape("q(=5) must be non-negative integer and not greater than "
                                                   "min(m, n)=4")):
        torch.pca_lowrank(A, q=5)
    with pytest.raises(ValueError, match=re.escape("niter(=-1) must be non-negative integer")):
        torch.pca_lowrank(A, niter=-1)


def test_more_views_scatters_and_factories() -> None:
    a = torch.arange(6.0)
    assert a.as_strided_((2, 2), (1, 2)) is a and a.tolist() == [[0.0, 2.0], [1.0, 3.0]]
    assert torch.as_strided_(torch.arange(6.0), (2,), (3,)).tolist() == [0.0, 3.0]
    assert (torch.arange(6.0, requires_grad=True) * 1).as_strided_((2, 2), (1, 2)).grad_fn.name() == \
        "AsStridedBackward1"
    assert torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,)).tolist() == [1.0, 0.0, 1.0, 0.0]
    assert torch.zeros(4).as_strided_scatter(torch.ones(2), (2,), (2,), 1).tolist() == [0.0, 1.0, 0.0, 1.0]
    assert torch.as_strided_scatter(torch.zeros(2, 3).t(), torch.ones(2), (2,), (2,)).tolist() == [
        [1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    scattered = torch.as_strided_scatter(torch.zeros(4, requires_grad=True), torch.ones(2, requires_grad=True),
                                         (2,), (2,))
    assert scattered.grad_fn.name() == "AsStridedScatterBackward0"
    assert [t.tolist() for t in torch.unsafe_split_with_sizes(torch.arange(5), [2, 3])] == [[0, 1], [2, 3, 4]]
    assert [t.grad_fn.name() for t in torch.arange(5.0, requires_grad=True).unsafe_split_with_sizes([2, 3])] == [
        "UnsafeSplitWithSizesBackward0"] * 2
    assert torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=3).tolist() == [[1], [3], [-1]]
    assert torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=3, fill_value=-5).tolist() == [
        [0, 1], [1, 0], [-5, -5]]
    assert torch.tensor([1, 1, 1]).nonzero_static(size=2).tolist() == [[0], [1]]
    with pytest.raises(RuntimeError, match="nonzero_static: 'size' must be an non-negative integer"):
        torch.tensor([1, 1, 1]).nonzero_static(size=-1)
    e = torch.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1))
    assert (e.shape, e.stride(), e.dtype) == ((2, 3, 5, 7), (105, 1, 21, 3), torch.float32)
    with pytest.raises(RuntimeError, match=re.escape("Number of dimensions in size does not match the length of the "
                                                     "physical_layout; i.e. len(size) = 2 is not equal to "
                                                     "len(physical_layout) = 1")):
        torch.empty_permuted((2, 3), (0,))
    with pytest.raises(RuntimeError, match="Duplicate dim not allowed"):
        torch.empty_permuted((2, 3), (0, 0))
    t = torch.arange(6.0).reshape(2, 3)
    assert torch.frobenius_norm(t, (0, 1)).item() == pytest.approx(7.416198253631592)
    np.testing.assert_allclose(torch.norm_except_dim(t, 2, 0).tolist(), [[2.2360680103302], [7.071067810058594]],
                               rtol=1e-6)
    np.testing.assert_allclose(torch.norm_except_dim(t, 2, 1).tolist(),
                               [[3.0, 4.123105525970459, 5.385164737701416]], rtol=1e-6)
    assert torch.norm_except_dim(t, 2, -1).item() == pytest.approx(7.416198253631592)
    assert torch.init_num_threads() is None


def test_small_tensor_attributes_and_python_maps() -> None:
    t = torch.arange(6.0).reshape(2, 3)
    assert (t.is_xla, t.is_ipu, t.is_mtia, t.is_maia, t.is_vulkan, t.volatile, t.name) == (False,) * 6 + (None,)
    assert t.grad_dtype == torch.float32 and t.const_data_ptr() == t.data_ptr()
    assert (t.dim_order(), t.t().dim_order()) == ((0, 1), (1, 0))
    assert torch.zeros(2, 1, 1, 4).permute(0, 2, 3, 1).dim_order() == (0, 1, 3, 2)

    class Sub(torch.Tensor):
        pass

    sub = t.as_subclass(Sub)
    assert type(sub) is Sub and sub.data_ptr() == t.data_ptr()
    with pytest.raises(TypeError, match="Creating a Tensor subclass from a class that does not inherit from Tensor"):
        t.as_subclass(int)
    other = torch.ones(2, 3)
    assert t.module_load(other) is other
    assert torch.tensor([1.0, 2.0]).map_(torch.tensor([3.0, 4.0]), lambda a, b: a * 10 + b).tolist() == [13.0, 24.0]
    assert torch.tensor([[1.0, 2.0]]).map_(torch.tensor([3.0]), lambda a, b: a * 10 + b).tolist() == [[13.0, 23.0]]
    assert torch.tensor([1.0, 2.0]).map2_(torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0]),
                                          lambda a, b, c: a + b * c).tolist() == [16.0, 26.0]
    with pytest.raises(RuntimeError, match=re.escape("Can't call map_() on Variable that requires grad. Use "
                                                     "var.detach().map_() instead.")):
        torch.tensor([1.0], requires_grad=True).map_(torch.tensor([3.0]), lambda a, b: a)
    assert (torch.sym_int(3.7), torch.sym_int(-3.7), torch.sym_float(3), torch.sym_max(2, 5), torch.sym_min(2, 5),
            torch.sym_not(True), torch.sym_sqrt(4), torch.sym_ite(True, 1, 2), torch.sym_sum([1, 2, 3])) == (
        3, -3, 3.0, 5, 2, False, 2.0, 1, 6)
    assert [type(v) for v in (torch.sym_int(3.7), torch.sym_float(3), torch.sym_sqrt(4), torch.sym_max(2, 5.0))] == [
        int, float, float, float]


def test_native_kernels_by_name() -> None:
    torch.manual_seed(0)
    x = torch.tensor(np.random.default_rng(0).standard_normal((2, 3, 4)))
    w, b = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64), torch.tensor([0.1, 0.0, -0.1], dtype=torch.float64)
    out, mean, rstd = torch.native_layer_norm(x, (4,), None, None, 1e-5)
    assert (out.shape, mean.shape, rstd.shape) == ((2, 3, 4), (2, 3, 1), (2, 3, 1))
    np.testing.assert_allclose(mean.numpy(), x.numpy().mean(-1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(rstd.numpy(), 1 / np.sqrt(x.numpy().var(-1, keepdims=True) + 1e-5), rtol=1e-12)
    assert torch.native_layer_norm(x.clone().requires_grad_(), (4,), None, None, 1e-5)[0].grad_fn.name() == \
        "NativeLayerNormBackward0"
    out, mean, rstd = torch.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)
    assert (mean.shape, rstd.shape) == ((3,), (3,))
    np.testing.assert_allclose(mean.numpy(), x.numpy().mean((0, 2)), rtol=1e-12)
    np.testing.assert_allclose(out.tolist(), torch.nn.functional.batch_norm(x, None, None, w, b, True).tolist())
    out, mean, rstd = torch.native_batch_norm(x, w, b, torch.zeros(3, dtype=torch.float64),
                                              torch.ones(3, dtype=torch.float64), False, 0.1, 1e-5)
    assert (mean.shape, rstd.shape) == ((0,), (0,))
    out, mean, rstd = torch.native_group_norm(x, w, b, 2, 3, 4, 1, 1e-5)
    assert (out.shape, mean.shape, rstd.shape) == ((2, 3, 4), (2, 1), (2, 1))
    np.testing.assert_allclose(mean.numpy()[:, 0], x.numpy().reshape(2, -1).mean(1), rtol=1e-12)
    kept, mask = torch.native_dropout(torch.ones(3), 0.5, False)
    assert (kept.tolist(), mask.tolist()) == ([1.0, 1.0, 1.0], [True, True, True])
    assert [t.dtype for t in torch.native_dropout(torch.ones(3), 0.5, True)] == [torch.float32, torch.bool]
    assert torch.native_channel_shuffle(torch.arange(4.0).reshape(1, 4, 1), 2).flatten().tolist() == [0, 2, 1, 3]
    img = torch.tensor(np.random.default_rng(1).standard_normal((1, 2, 4, 4)))
    weight = torch.tensor(np.random.default_rng(2).standard_normal((3, 2, 3, 3)))
    conv = torch.convolution(img, weight, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    np.testing.assert_allclose(conv.numpy(), torch.nn.functional.conv2d(img, weight, None, 1, 1).numpy())
    assert torch.convolution(img, weight.transpose(0, 1), None, [2, 2], [1, 1], [1, 1], True, [1, 1], 1).shape == (
        1, 3, 8, 8)
    grid = torch.tensor(np.random.default_rng(3).uniform(-1, 1, (1, 3, 3, 2)))
    F = torch.nn.functional
    np.testing.assert_allclose(torch.grid_sampler(img, grid, 1, 1, True).numpy(),
                               F.grid_sample(img, grid, "nearest", "border", True).numpy())
    np.testing.assert_allclose(torch.grid_sampler_2d(img, grid, 0, 0, False).numpy(),
                               F.grid_sample(img, grid, align_corners=False).numpy())
    theta = torch.eye(2, 3, dtype=torch.float64)[None]
    assert torch.affine_grid_generator(theta, [1, 1, 2, 2], False).tolist() == F.affine_grid(
        theta, [1, 1, 2, 2], False).tolist()


def test_convolution_gradients_and_more_functional_names() -> None:
    F = torch.nn.functional
    img = torch.tensor(np.random.default_rng(1).standard_normal((1, 2, 4, 4)))
    weight = torch.tensor(np.random.default_rng(2).standard_normal((3, 2, 3, 3)))
    ones = torch.ones(1, 3, 4, 4, dtype=torch.float64)
    leaf = img.clone().requires_grad_()
    F.conv2d(leaf, weight, padding=1).backward(ones)
    np.testing.assert_allclose(torch.nn.grad.conv2d_input(img.shape, weight, ones, padding=1).numpy(),
                               leaf.grad.numpy(), rtol=1e-12)
    kernel = weight.clone().requires_grad_()
    F.conv2d(img, kernel, padding=1).backward(ones)
    np.testing.assert_allclose(F.grad.conv2d_weight(img, weight.shape, ones, padding=1).numpy(), kernel.grad.numpy(),
                               rtol=1e-12)
    assert torch.nn.grad.conv1d_input((1, 2, 5), torch.ones(3, 2, 2, dtype=torch.float64),
                                      torch.ones(1, 3, 4, dtype=torch.float64)).tolist() == [
        [[3.0, 6.0, 6.0, 6.0, 3.0], [3.0, 6.0, 6.0, 6.0, 3.0]]]
    assert torch.nn.grad.conv1d_weight(torch.ones(1, 2, 5, dtype=torch.float64), (3, 2, 2),
                                       torch.ones(1, 3, 4, dtype=torch.float64)).shape == (3, 2, 2)
    assert F.linear_cross_entropy(torch.ones(2, 3), torch.eye(4, 3), torch.tensor([0, 2])).item() == pytest.approx(
        1.2142832279205322)
    assert F.linear_cross_entropy(torch.ones(2, 3), torch.eye(4, 3), torch.tensor([0, 2]), linear_bias=torch.arange(
        4.0), reduction="none").tolist() == pytest.approx([2.9175758361816406, 0.9175758361816406])
    x, w, b = torch.randn(4, 2, 3), torch.randn(3, 3, 5), torch.randn(5)
    assert F.conv_tbc(x, w, b, 1).tolist() == torch.conv_tbc(x, w, b, 1).tolist()
    z = torch.tensor([[1 + 1j, 2], [3, 4]])
    assert torch.adjoint(z).tolist() == [[1 - 1j, 3], [2, 4]]
    assert torch.conj_physical_(torch.tensor([1 + 1j])).tolist() == [1 - 1j]
    assert torch.tensor([1 + 1j]).conj_physical_().tolist() == [1 - 1j]
    assert isinstance(torch.zeros(1).untyped_storage(), torch.UntypedStorage)
    assert torch.is_vulkan_available() is False


def test_histogramdd() -> None:
    points = torch.tensor([[0.0, 1.0], [1.0, 1.0], [2.0, 0.5], [0.5, 0.5], [2.0, 2.0]])

    def histogram(*args, **kwargs):
        result = torch.histogramdd(*args, **kwargs)
        return type(result).__name__, result.hist.tolist(), [e.tolist() for e in result.bin_edges], result.hist.dtype

    assert histogram(points, bins=[2, 3]) == ("histogramdd", [[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]],
                                              [[0.0, 1.0, 2.0], [0.5, 1.0, 1.5, 2.0]], torch.float32)
    assert histogram(points, bins=2)[1:3] == ([[2.0, 0.0], [2.0, 1.0]], [[0.0, 1.0, 2.0], [0.5, 1.25, 2.0]])
    assert histogram(points, bins=[2, 2], range=[0.0, 1.0, 0.0, 2.0])[1:3] == (
        [[0.0, 1.0], [1.0, 1.0]], [[0.0, 0.5, 1.0], [0.0, 1.0, 2.0]])
    assert histogram(points, bins=[2, 2], weight=torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))[1] == [[5.0, 0.0],
                                                                                                [5.0, 5.0]]
    np.testing.assert_allclose(histogram(points, bins=[2, 2], density=True)[1],
                               [[0.5333333611488342, 0.0], [0.5333333611488342, 0.2666666805744171]], rtol=1e-6)
    assert histogram(points, bins=[torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 1.5, 3.0])])[1:3] == (
        [[2.0, 0.0], [2.0, 1.0]], [[0.0, 1.0, 2.0], [0.0, 1.5, 3.0]])
    assert histogram(points.reshape(5, 1, 2), bins=[2, 2])[1] == [[2.0, 0.0], [2.0, 1.0]]
    assert histogram(points.double(), bins=[2, 2])[3] == torch.float64
    assert type(torch.histogramdd(points, bins=[2, 2]).bin_edges) is tuple  # as PyTorch's
    with pytest.raises(NotImplementedError, match="\"histogramdd\" not implemented for 'Long'"):
        torch.histogramdd(points.long(), bins=[2, 2])
    with pytest.raises(RuntimeError, match="histogramdd: The size of bins must be equal to the innermost dimension "
                                           "of the input."):
        torch.histogramdd(points, bins=[2, 2, 2])


def test_set_and_xpu() -> None:
    a, b = torch.zeros(2), torch.arange(3.0)
    assert a.set_(b) is a and a.tolist() == [0.0, 1.0, 2.0] and a.data_ptr() == b.data_ptr() and a._version == 1
    b[0] = 7
    assert a.tolist() == [7.0, 1.0, 2.0]
    assert torch.zeros(2).set_().shape == (0,)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        torch.zeros(2, requires_grad=True).set_(torch.ones(2))
    with pytest.raises(RuntimeError, match="Could not set tensor of type double to a tensor of type float"):
        torch.zeros(2).set_(torch.ones(2, dtype=torch.float64))
    assert (torch.xpu.is_available(), torch.xpu.device_count(), torch.xpu.manual_seed_all(0)) == (False, 0, None)
