"""Tensor methods, top-level functions and modules that everyday PyTorch code calls beside the ops:
legacy constructors, in-place views, diagonal fills, storage queries, and the module names scripts
import (values and messages recorded from PyTorch 2.13)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tinyframe as torch


def test_in_place_views_change_the_tensor_and_take_pytorchs_nodes() -> None:
    x = torch.randn(2, 1, 3, requires_grad=True)
    cases = [(lambda y: y[:, 0].t_(), "TBackward1", (3, 2)),
             (lambda y: y.transpose_(0, 2), "TransposeBackward1", (3, 1, 2)),
             (lambda y: y.squeeze_(), "SqueezeBackward3", (2, 3)),
             (lambda y: y.squeeze_(1), "SqueezeBackward4", (2, 3)),
             (lambda y: y.squeeze_((1,)), "SqueezeBackward5", (2, 3)),
             (lambda y: y.unsqueeze_(0), "UnsqueezeBackward1", (1, 2, 1, 3)),
             (lambda y: y.swapaxes_(0, 1), "TransposeBackward1", (1, 2, 3))]
    for change, node, shape in cases:
        y = x * 1
        out = change(y)
        assert (out.grad_fn.name(), tuple(out.shape)) == (node, shape)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        torch.randn(2, 3, requires_grad=True).t_()
    with pytest.raises(RuntimeError, match=r"t_\(\) expects a tensor with <= 2 dimensions, but self is 3D"):
        torch.zeros(2, 3, 4).t_()
    plain = torch.arange(6.0).reshape(2, 3)
    assert plain.t_() is plain and plain.shape == (3, 2) and plain[0].tolist() == [0.0, 3.0]


def test_resize_keeps_the_elements_in_order_and_refuses_grad() -> None:
    a = torch.arange(6.0)
    assert a.resize_(2, 2).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert a.resize_(2, 4)[0].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert torch.arange(6.0).resize_as_(torch.zeros(3)).tolist() == [0.0, 1.0, 2.0]
    for t in (torch.zeros(2, 3, requires_grad=True), torch.zeros(2, 3, requires_grad=True) * 1):
        with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
            t.resize_(6)


def test_new_is_the_legacy_constructor() -> None:
    x = torch.arange(4.0)
    assert x.new(2, 3).shape == (2, 3) and x.new(2, 3).dtype == torch.float32
    assert x.new().shape == (0,) and x.new(torch.Size([2])).shape == (2,)
    made = torch.arange(4).new([1, 2])
    assert made.tolist() == [1, 2] and made.dtype == torch.int64


def test_fill_diagonal_as_pytorch() -> None:
    assert torch.zeros(3, 4).fill_diagonal_(5).tolist() == [[5, 0, 0, 0], [0, 5, 0, 0], [0, 0, 5, 0]]
    wrapped = torch.zeros(7, 3).fill_diagonal_(5, wrap=True)
    assert wrapped[:, 0].tolist() == [5, 0, 0, 0, 5, 0, 0] and wrapped[3].tolist() == [0, 0, 0]
    assert torch.zeros(7, 3).fill_diagonal_(5)[4:].sum().item() == 0
    cube = torch.zeros(2, 2, 2).fill_diagonal_(5)
    assert cube[0, 0, 0].item() == 5 and cube[1, 1, 1].item() == 5 and cube.sum().item() == 10
    with pytest.raises(RuntimeError, match="all dimensions of input must be of equal length"):
        torch.zeros(2, 3, 4).fill_diagonal_(5)
    with pytest.raises(RuntimeError, match="dimensions must larger than 1"):
        torch.zeros(3).fill_diagonal_(5)


def test_masked_scatter_and_put_values_and_errors() -> None:
    x = torch.zeros(2, 3)
    mask = torch.tensor([True, False, True])
    assert x.masked_scatter(mask, torch.arange(1.0, 7.0).reshape(2, 3)).tolist() == [[1, 0, 2], [3, 0, 4]]
    with pytest.raises(RuntimeError, match="masked_scatter_ only supports boolean masks, but got mask with dtype Long"):
        x.masked_scatter(torch.tensor([1, 0, 1]), torch.ones(6))
    with pytest.raises(RuntimeError, match="masked_scatter: expected self and source to have same dtypes but gotFloat "
                                           "and Double"):
        x.masked_scatter(mask, torch.ones(6, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Number of elements of source < number of ones in mask"):
        x.masked_scatter(mask, torch.ones(3))
    assert x.clone().put_(torch.tensor([0, -1]), torch.tensor([1.0, 2.0])).tolist() == [[1, 0, 0], [0, 0, 2]]
    assert torch.put(x, torch.tensor([0, 0]), torch.tensor([1.0, 2.0]), accumulate=True)[0, 0].item() == 3
    with pytest.raises(IndexError, match="out of range: tried to access index 6 on a tensor of 6 elements."):
        x.put(torch.tensor([0, 6]), torch.tensor([1.0, 2.0]))
    with pytest.raises(IndexError, match=r"put_\(\): Expected source and index to have the same number of elements, "
                                         r"but got source.numel\(\) = 3, index.numel\(\) = 2"):
        x.put(torch.tensor([0, 1]), torch.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match=r"put_\(\): Expected a long tensor for index, but got Float"):
        x.put(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    y = torch.randn(3, 3, requires_grad=True) * 1
    source = torch.randn(6, requires_grad=True)
    assert y.masked_scatter(mask, source).grad_fn.name() == "MaskedScatterBackward0"
    assert y.put(torch.tensor([0, 4]), source[:2]).grad_fn.name() == "PutBackward0"


def test_sum_to_size_reduces_to_a_broadcastable_size() -> None:
    x = torch.ones(2, 3)
    assert x.sum_to_size(3).tolist() == [2, 2, 2] and x.sum_to_size((1, 3)).shape == (1, 3)
    assert x.sum_to_size(2, 3) is x
    with pytest.raises(RuntimeError, match=r"size \{\[4, 3\]\} is not expandable to size \{\[2, 3\]\}."):
        x.sum_to_size(4, 3)


def test_untyped_storage_is_shared_by_views_and_empty_tensors_have_row_major_strides() -> None:
    x = torch.arange(6.0)
    storage = x[2:].view(2, 2).t().untyped_storage()
    assert storage.data_ptr() == x.data_ptr() and storage.nbytes() == storage.size() == len(storage) == 24
    assert storage.element_size() == 1 and storage.device == torch.device("cpu")
    assert x.detach().untyped_storage().data_ptr() == x.data_ptr() != x.clone().untyped_storage().data_ptr()
    assert torch.zeros(0).untyped_storage().nbytes() == 0
    # PyTorch 2.13's strides of empty tensors (NumPy's are all zero)
    assert torch.empty(0, 3).stride() == (3, 1) and torch.empty(3, 0).stride() == (1, 1)
    assert torch.empty(2, 0, 4).stride() == (4, 4, 1) and torch.empty(0).stride(0) == 1


def test_storage_queries_and_real_tensor_identities() -> None:
    x = torch.zeros(3, 3)
    assert (x.storage_offset(), x[1:].storage_offset(), x[:, 1].storage_offset()) == (0, 3, 1)
    assert x.as_strided((2,), (1,), 4).storage_offset() == 4  # NumPy's as_strided hides the base one level down
    assert x[1:].data_ptr() == x.data_ptr() + 12
    assert not x.is_complex() and x.is_signed() and not torch.tensor([1], dtype=torch.uint8).is_signed()
    assert x.layout == torch.strided and repr(torch.strided) == "torch.strided"
    assert not (x.is_sparse or x.is_meta or x.is_quantized or x.is_nested)
    assert x.conj() is x and x.resolve_conj() is x and x.resolve_neg() is x and x.real is x and x.positive() is x
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes."):
        _ = x.imag
    y = torch.randn(2, 3, requires_grad=True)
    assert y.mH.shape == (3, 2) and y.H.grad_fn.name() == "TransposeBackward0" and y.adjoint().shape == (3, 2)
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices or batches of matrices. Got 1-D"):
        _ = torch.zeros(3).mH
    np.testing.assert_array_equal(torch.arange(4.0).apply_(lambda v: v * 2).numpy(), [0, 2, 4, 6])


def test_trapezoid_nodes_are_pytorchs_formulas() -> None:
    # PyTorch 2.13 computes in C++ with scalars: (sum - (first + last) * 0.5) * dx, or sum(dx * pairs) / 2.
    y = torch.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, -1.0]], requires_grad=True)
    points = torch.tensor([0.0, 1.0, 3.0])
    cases = [(torch.trapezoid(y), "MulBackward1", [4.5, 0.5]), (torch.trapezoid(y, dx=2.0), "MulBackward1", [9.0, 1.0]),
             (torch.trapezoid(y, points), "DivBackward1", [7.5, 0.5]),
             (torch.cumulative_trapezoid(y), "CumsumBackward0", [[1.5, 4.5], [0.5, 0.5]]),
             (torch.cumulative_trapezoid(y, points), "DivBackward1", [[1.5, 7.5], [0.5, 0.5]])]
    for result, node, expected in cases:
        assert result.grad_fn.name() == node and result.tolist() == expected
    empty = torch.trapezoid(y[:, :0])
    assert empty.tolist() == [0.0, 0.0] and empty.grad_fn is None
    torch.trapezoid(y, points).sum().backward()
    assert y.grad.tolist() == [[0.5, 1.5, 1.0], [0.5, 1.5, 1.0]]


def test_trapezoid_spacing_may_be_a_0d_tensor_that_does_not_require_grad() -> None:
    # PyTorch's parser takes such a tensor for the Number dx (torch.trapezoid(y, dx=xs[1] - xs[0]))
    y = torch.tensor([1.0, 2.0, 4.0])
    assert torch.trapezoid(y, dx=torch.tensor(0.5, dtype=torch.float64)).item() == 2.25
    assert torch.cumulative_trapezoid(y, dx=torch.tensor(2)).tolist() == [3.0, 9.0]
    for dx in (torch.tensor(0.5, requires_grad=True), torch.tensor([0.5, 1.0])):
        for integrate in (torch.trapezoid, torch.cumulative_trapezoid):
            with pytest.raises(TypeError, match=rf"^{integrate.__name__}\(\) received an invalid combination of "
                                                r"arguments - got \(Tensor, dx=Tensor\)"):
                integrate(y, dx=dx)


def test_top_level_functions_and_aliases_give_pytorchs_values() -> None:
    assert torch.trapezoid(torch.tensor([1.0, 2.0, 4.0])).item() == 4.5
    assert torch.trapezoid(torch.tensor([[1.0, 2.0, 4.0]]), dx=2).tolist() == [9.0]
    assert torch.trapz(torch.tensor([1.0, 2, 4]), torch.tensor([0.0, 1, 3])).item() == 7.5
    assert torch.trapezoid(torch.tensor([1, 2, 4])).item() == 4.5
    assert torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0])).tolist() == [1.5, 4.5]
    rows, cols = torch.unravel_index(torch.tensor([[5, 7]]), (2, 4))
    assert rows.tolist() == [[1, 1]] and cols.tolist() == [[1, 3]]
    with pytest.raises(TypeError, match="expected 'indices' to be integer dtype, but got torch.float32|tinyframe"):
        torch.unravel_index(torch.tensor([1.0]), (2, 4))
    with pytest.warns(UserWarning, match="torch.range is deprecated"):
        assert torch.range(0, 1, 0.5).tolist() == [0.0, 0.5, 1.0]
    assert torch.scalar_tensor(3).dtype == torch.float32 and torch.scalar_tensor(2, dtype=torch.int64).item() == 2
    assert not torch.is_same_size(torch.zeros(2), torch.zeros(3)) and not torch.is_complex(torch.zeros(1))
    assert torch.select(torch.arange(6).view(2, 3), 1, -1).tolist() == [2, 5]
    assert torch.greater(torch.tensor([1, 2]), 1).tolist() == [False, True]
    assert torch.tensor([1, 2, 3]).not_equal(2).tolist() == [True, False, True]
    assert torch.row_stack([torch.ones(2), torch.zeros(2)]).shape == (2, 2)
    assert torch.diagflat(torch.tensor([[1.0, 2.0]]), 1).tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    torch.set_default_tensor_type(torch.DoubleTensor)
    try:
        assert torch.zeros(1).dtype == torch.float64
    finally:
        torch.set_default_tensor_type("torch.FloatTensor")
    assert torch.zeros(1).dtype == torch.float32


def test_window_functions_match_pytorchs_float32_values() -> None:
    expected = {  # PyTorch 2.13
        ("hann_window", True): [0.0, 0.3454915, 0.9045085, 0.9045085, 0.3454915],
        ("hann_window", False): [0.0, 0.5, 1.0, 0.5, 0.0],
        ("hamming_window", True): [0.08, 0.3978522, 0.9121478, 0.9121478, 0.3978522],
        ("blackman_window", True): [-2.9802322e-08, 0.2007701, 0.8492299, 0.8492299, 0.2007701],
        ("bartlett_window", True): [0.0, 0.4, 0.8, 0.8, 0.4],
        ("kaiser_window", False): [5.2773437e-05, 0.5188445, 0.5188445, 5.2773437e-05],
    }
    for (name, periodic), values in expected.items():
        made = getattr(torch, name)(len(values), periodic=periodic)
        assert made.dtype == torch.float32
        np.testing.assert_allclose(made.numpy(), values, rtol=1e-3, atol=1e-6)
    assert torch.hann_window(1).tolist() == [1.0] and torch.hann_window(0).shape == (0,)


def test_nn_ops_at_the_top_level_take_pytorchs_top_level_signatures() -> None:
    x = torch.randn(2, 3, 4)
    values, indices = torch.adaptive_max_pool1d(x, 2)
    assert values.shape == indices.shape == (2, 3, 2)
    assert torch.dropout(x, 0.0, True).shape == x.shape
    assert torch.embedding(torch.eye(3), torch.tensor([2])).tolist() == [[0.0, 0.0, 1.0]]
    np.testing.assert_allclose(torch.layer_norm(x, (4,)).numpy(), torch.nn.functional.layer_norm(x, (4,)).numpy())
    assert torch.batch_norm(torch.randn(2, 3), None, None, None, None, True, 0.1, 1e-5, False).shape == (2, 3)
    assert torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False).shape == x.shape
    assert torch.pixel_shuffle(torch.randn(1, 4, 2, 2), 2).shape == (1, 1, 4, 4)
    assert torch.cosine_similarity(torch.ones(2, 3), torch.ones(2, 3)).tolist() == pytest.approx([1.0, 1.0])


def test_modules_that_scripts_import() -> None:
    from tinyframe.autograd import Variable
    from tinyframe.nn.modules.utils import _ntuple, _pair, _reverse_repeat_tuple
    from tinyframe.utils.hooks import RemovableHandle  # noqa: F401

    v = Variable(torch.ones(2), requires_grad=True)
    assert type(v) is torch.Tensor and v.requires_grad and isinstance(torch.ones(1), Variable)
    assert not Variable(torch.ones(2)).requires_grad and Variable(torch.ones(2) * 1).grad_fn is None
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        Variable([1, 2])
    assert (_pair(3), _pair((1, 2)), _ntuple(3)(2), _reverse_repeat_tuple((1, 2), 2)) == \
        ((3, 3), (1, 2), (2, 2, 2), (2, 2, 1, 1))
    assert torch.version.cuda is None
    parallel = torch.nn.DataParallel(torch.nn.Linear(2, 2))
    assert list(parallel.state_dict()) == ["module.weight", "module.bias"] and parallel.device_ids == []
    assert torch.equal(parallel(torch.ones(1, 2)), parallel.module(torch.ones(1, 2)))
    from tinyframe.cuda.amp import GradScaler, autocast
    with pytest.warns(FutureWarning, match=r"`torch.cuda.amp.autocast\(args...\)` is deprecated"):
        region = autocast(enabled=False)
    with region:
        pass
    with pytest.warns(FutureWarning, match=r"`torch.cuda.amp.GradScaler\(args...\)` is deprecated"):
        assert GradScaler(enabled=False).get_scale() == 1.0

    @torch.jit.script
    def double(t: torch.Tensor) -> torch.Tensor:
        return t * 2
    assert double(torch.ones(1)).item() == 2 and not torch.jit.is_scripting()
    with torch.profiler.profile() as prof:
        with torch.autograd.profiler.record_function("step"):
            pass
    assert "step" in prof.key_averages().table()
    torch.multiprocessing.set_sharing_strategy("file_system")
    assert torch.multiprocessing.get_sharing_strategy() == "file_system"


def test_func_transforms_give_pytorchs_results() -> None:
    from tinyframe.func import grad, grad_and_value, hessian, jacrev, vjp, vmap

    x = torch.randn(3, 4)
    np.testing.assert_allclose(vmap(torch.dot)(x, x).numpy(), (x * x).sum(1).numpy(), rtol=1e-6)
    assert vmap(lambda a: a.sum(), in_dims=1)(x).shape == (4,)
    assert vmap(torch.mul, in_dims=(0, None))(x, torch.ones(4)).shape == (3, 4)
    assert vmap(lambda a: a * 2, out_dims=1)(x).shape == (4, 3)
    assert torch.vmap(lambda a: (a, a.sum()))(x)[1].shape == (3,)
    with pytest.raises(ValueError, match=r"vmap: Expected all tensors to have the same size in the mapped dimension, "
                                         r"got sizes \[3, 2\] for the mapped dimension"):
        vmap(torch.dot)(x, torch.randn(2, 4))
    g = grad(lambda a: (a ** 2).sum())(torch.tensor([1.0, 2.0]))
    assert g.tolist() == [2.0, 4.0] and not g.requires_grad
    assert grad(grad(lambda a: a ** 3))(torch.tensor(2.0)).item() == 12.0
    ga, gb = grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
    assert ga.tolist() == [3.0, 4.0] and gb.tolist() == [1.0, 2.0]
    gradient, value = grad_and_value(lambda a: (a ** 2).sum())(torch.tensor([1.0, 2.0]))
    assert value.item() == 5.0 and gradient.tolist() == [2.0, 4.0]
    gradient, aux = grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True)(torch.tensor([1.0, 2.0]))
    assert aux.item() == 1.5 and not aux.requires_grad
    np.testing.assert_allclose(jacrev(torch.sin)(torch.tensor([0.0, 1.0])).numpy(), [[1, 0], [0, 0.5403023]], rtol=1e-6)
    out, vjp_fn = vjp(torch.sin, torch.tensor([0.0, 1.0]))
    np.testing.assert_allclose(vjp_fn(torch.ones(2))[0].numpy(), [1.0, 0.5403023], rtol=1e-6)
    assert hessian(lambda a: (a ** 3).sum())(torch.tensor([1.0, 2.0])).tolist() == [[6.0, 0.0], [0.0, 12.0]]


def test_select_and_slice_scatter_and_attention_backends() -> None:
    x = torch.zeros(2, 3)
    assert torch.select_scatter(x, torch.ones(3), 0, 1).tolist() == [[0, 0, 0], [1, 1, 1]]
    assert torch.slice_scatter(torch.zeros(4), torch.ones(2), start=0, step=2).tolist() == [1, 0, 1, 0]
    with pytest.raises(RuntimeError, match=r"expected src to have a size equal to the slice of self. src size = \[2\], "
                                           r"slice size = \[3\]"):
        torch.select_scatter(x, torch.ones(2), 0, 1)
    y = torch.zeros(2, 3, requires_grad=True) * 1
    assert y.slice_scatter(torch.ones(2, 2, requires_grad=True), 1, 1, 3).grad_fn.name() == "SliceScatterBackward0"
    assert [p.shape for p in x.split_with_sizes([1, 1])] == [(1, 3), (1, 3)]
    from tinyframe.nn.attention import SDPBackend, sdpa_kernel
    from tinyframe.nn.common_types import _size_2_t  # noqa: F401
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
        out = torch.nn.functional.scaled_dot_product_attention(torch.ones(1, 2, 4), torch.ones(1, 2, 4),
                                                              torch.ones(1, 2, 4))
    assert out.shape == (1, 2, 4) and repr(SDPBackend.MATH) == "<SDPBackend.MATH: 0>"


def test_as_strided_views_the_storage() -> None:
    x = torch.arange(6.0, requires_grad=True)
    windows = x.as_strided((3, 2), (1, 1))
    assert windows.tolist() == [[0, 1], [1, 2], [2, 3]] and windows.grad_fn.name() == "AsStridedBackward0"
    windows.sum().backward()
    assert x.grad.tolist() == [1, 2, 2, 1, 0, 0]
    columns = torch.arange(6.0).view(2, 3)[:, 1:]
    assert columns.as_strided((2,), (1,)).tolist() == [1, 2] and columns.as_strided((2,), (1,), 0).tolist() == [0, 1]
    with pytest.raises(RuntimeError, match=r"setStorage: sizes \[3, 3\], strides \[2, 2\], storage offset 0, and "
                                           r"itemsize 4 requiring a storage size of 36 are out of bounds for storage "
                                           r"of size 24"):
        torch.arange(6.0).as_strided((3, 3), (2, 2))
    a = torch.zeros(4)
    a.as_strided((2,), (2,)).add_(1)
    assert a.tolist() == [1, 0, 1, 0]


def test_linalg_additions_give_pytorchs_values() -> None:
    a = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    solved = torch.linalg.solve_ex(a, torch.ones(2))
    assert solved.result.tolist() == pytest.approx([0.4, 0.2]) and solved.info.item() == 0
    assert type(solved).__name__ == "linalg_solve_ex"
    singular = torch.linalg.solve_ex(torch.zeros(2, 2), torch.ones(2))
    assert singular.info.item() == 1
    assert torch.linalg.cond(a).item() == pytest.approx(2.6180, abs=1e-4)
    assert torch.linalg.cond(a, "fro").item() == pytest.approx(3.0)
    assert torch.linalg.cond(a, 1).item() == pytest.approx(3.2)
    np.testing.assert_allclose(torch.matrix_exp(a).numpy(), [[13.1815, 14.8839], [14.8839, 28.0654]], rtol=1e-5)
    assert torch.linalg.matrix_exp(a.requires_grad_()).grad_fn.name() == "LinalgMatrixExpBackward0"
    assert torch.linalg.tensorinv(torch.eye(6).reshape(6, 2, 3), ind=1).shape == (2, 3, 6)
    assert torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3)).shape == (6,)


def test_bfloat16_tensors_are_made_as_nanogpt_makes_them() -> None:
    # as in PyTorch: a floating dtype of 2 bytes, not float32; CuPy has none, so no bfloat16 on a GPU
    assert torch.bfloat16.is_floating_point and torch.bfloat16.itemsize == 2 and torch.bfloat16 != torch.float32
    assert torch.cuda.is_bf16_supported() is False
    # nanoGPT's table of dtypes, and its cpu autocast context
    ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}["bfloat16"]
    x = torch.ones(2)
    for make in (lambda: torch.zeros(2, dtype=ptdtype), lambda: x.to(torch.bfloat16), lambda: x.bfloat16(),
                 lambda: x.type("torch.BFloat16Tensor"), lambda: torch.nn.Linear(2, 2).to(torch.bfloat16).weight):
        assert make().dtype is torch.bfloat16
    with torch.autocast(device_type="cpu", dtype=ptdtype):
        assert torch.nn.Linear(2, 2)(x).dtype is torch.bfloat16


@pytest.mark.parametrize(("call", "message"), [
    # PyTorch 2.13's messages
    (lambda: torch.lerp(torch.ones(2), torch.ones(2, dtype=torch.float64), 0.5),
     "expected dtype float for `end` but got dtype double"),
    (lambda: torch.lerp(torch.ones(2), torch.ones(2), torch.ones(2, dtype=torch.float64)),
     "expected dtype float for `weight` but got dtype double"),
    (lambda: torch.arange(5.0).as_strided((2, 2), (1, -2)),
     "as_strided: Negative strides are not supported at the moment, got strides: [1, -2]"),
    (lambda: torch.einsum("ij->k", torch.ones(2, 3)),
     "einsum(): output subscript k does not appear in the equation for any input operand"),
    (lambda: torch.einsum("ij->ii", torch.ones(2, 3)),
     "einsum(): output subscript i appears more than once in the output"),
    (lambda: torch.ones(2, 3, dtype=torch.int64).expand(3),
     "expand(torch.LongTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the "
     "number of dimensions in the tensor (2)"),
    (lambda: torch.nn.functional.embedding_bag(torch.tensor([1, 2]), torch.ones(5, 2), torch.tensor([1])),
     "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got 1"),
    (lambda: torch.nn.functional.embedding_bag(torch.tensor([1, 2]), torch.ones(5, 2), torch.tensor([0, 3])),
     "offsets[-1] can not be greater than input's length 2 but got offsets[-1] of 3"),
])
def test_argument_checks_give_pytorchs_messages(call, message) -> None:
    with pytest.raises(RuntimeError, match=re.escape(message)):
        call()


def test_a_0_dim_weight_of_another_dtype_keeps_lerps_dtype() -> None:
    start = torch.ones(2, requires_grad=True)
    weight = torch.tensor(0.25, dtype=torch.float64, requires_grad=True)
    out = torch.lerp(start, torch.full((2,), 3.0), weight)
    out.sum().backward()
    assert out.dtype == torch.float32 and out.tolist() == [1.5, 1.5] and weight.grad.item() == 4.0


def test_gradient_gives_pytorchs_values_nodes_and_errors() -> None:
    x = torch.tensor([[1.0, 2.0, 4.0, 8.0], [10.0, 20.0, 40.0, 80.0]], requires_grad=True)
    along_0, along_1 = torch.gradient(x)
    assert along_0.tolist() == [[9, 18, 36, 72]] * 2 and along_1.tolist() == [[1, 1.5, 3, 4], [10, 15, 30, 40]]
    assert along_1.grad_fn.name() == "CatBackward0"  # PyTorch 2.13's: the ends and the centre concatenated
    assert torch.gradient(x, dim=1, edge_order=2)[0].tolist() == [[0.5, 1.5, 3, 5], [5, 15, 30, 50]]
    coordinates = torch.gradient(x, spacing=(torch.tensor([0.0, 1.0, 3.0, 7.0]),), dim=1)[0]
    assert coordinates.tolist() == [[1, 1, 1, 1], [10, 10, 10, 10]]
    assert torch.gradient(torch.tensor([1, 4, 9, 16]))[0].tolist() == [3, 4, 6, 7]
    with pytest.raises(RuntimeError, match=re.escape("torch.gradient expected each dimension size to be at least "
                                                     "edge_order+1")):
        torch.gradient(x, dim=0, edge_order=2)
    with pytest.raises(RuntimeError, match=re.escape("torch.gradient only supports edge_order=1 and edge_order=2.")):
        torch.gradient(x, edge_order=3)
    with pytest.raises(RuntimeError, match=re.escape("a list of length equal to 'self.dim() = 2', since dim argument "
                                                     "was not given, but got a list of length 3")):
        torch.gradient(x, spacing=[1.0, 2.0, 3.0])
