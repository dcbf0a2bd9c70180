"""Tensor methods, top-level functions and modules that everyday PyTorch code calls beside the ops:
legacy constructors, in-place views, diagonal fills, storage queries, and the module names scripts
import (values and messages recorded from PyTorch 2.13)."""
from __future__ import annotations

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


def test_storage_queries_and_real_tensor_identities() -> None:
    x = torch.zeros(3, 3)
    assert (x.storage_offset(), x[1:].storage_offset(), x[:, 1].storage_offset()) == (0, 3, 1)
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
