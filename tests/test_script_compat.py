"""The small pieces of PyTorch's API that everyday scripts touch: finfo/iinfo, torch.testing,
torch.backends, torch.accelerator, legacy tensor types, in-place method forms, and the reprs
scripts print. Expected values are PyTorch 2.13's, recorded as literals."""
import subprocess
import sys

import pytest

import tinyframe as torch
from tinyframe import nn


def test_finfo_reports_pytorchs_limits_and_repr():
    assert repr(torch.finfo(torch.float16)) == (
        "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, smallest_normal=6.10352e-05, "
        "tiny=6.10352e-05, dtype=float16)")
    assert repr(torch.finfo()) == (
        "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, smallest_normal=1.17549e-38, "
        "tiny=1.17549e-38, dtype=float32)")
    info = torch.finfo(torch.float64)
    assert (info.bits, info.eps, info.max, info.tiny, info.resolution) == (
        64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308, 1e-15)


def test_iinfo_reports_pytorchs_limits_and_repr():
    assert repr(torch.iinfo(torch.int64)) == "iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)"
    assert repr(torch.iinfo(torch.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"
    assert (torch.iinfo(torch.int32).min, torch.iinfo(torch.int32).max) == (-2147483648, 2147483647)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.finfo(torch.int32), "torch.finfo() requires a floating point input type. Use torch.iinfo"),
    (lambda: torch.iinfo(torch.float32), "torch.iinfo() requires an integer input type. Use torch.finfo"),
    (lambda: torch.iinfo(torch.bool), "torch.bool is not supported by torch.iinfo"),
])
def test_finfo_and_iinfo_reject_the_other_kind_of_dtype(call, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        call()


def test_assert_close_passes_within_pytorchs_default_tolerance():
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
    torch.testing.assert_close({"a": [torch.tensor([1.0])]}, {"a": [torch.tensor([1.0])]})
    torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.0]).double(), check_dtype=False)
    torch.testing.assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)


def test_assert_close_message_is_pytorchs():
    with pytest.raises(AssertionError) as info:
        torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
    assert str(info.value) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 0.09999990463256836 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.04761900380253792 at index (1,) (up to 1.3e-06 allowed)")
    with pytest.raises(AssertionError, match=r"^The values for attribute 'shape' do not match"):
        torch.testing.assert_close(torch.zeros(2), torch.zeros(3))
    with pytest.raises(AssertionError, match="^Tensor-likes are not equal!"):
        torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1, 3]))
    with pytest.raises(AssertionError, match="^custom$"):
        torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.5]), msg="custom")


def test_backend_flags_are_settable_and_report_no_cudnn_or_mps():
    import tinyframe.backends.cudnn as cudnn
    cudnn.benchmark = True
    assert torch.backends.cudnn.benchmark is True
    cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = True
    assert (torch.backends.mps.is_available(), torch.backends.mps.is_built(), cudnn.is_available()) == (
        False, False, False)


def test_accelerator_is_cuda_only_when_cuda_is_available():
    expected = torch.device("cuda") if torch.cuda.is_available() else None
    assert torch.accelerator.current_accelerator() == expected
    assert torch.accelerator.is_available() == torch.cuda.is_available()


def test_top_level_helpers_scripts_call():
    assert torch.equal(torch.ones(2), torch.ones(2)) and not torch.equal(torch.ones(2), torch.ones(3))
    assert torch.is_tensor(torch.zeros(1)) and not torch.is_tensor([1])
    assert torch.numel(torch.zeros(2, 3)) == 6 and torch.is_floating_point(torch.zeros(1))
    assert torch.promote_types(torch.int32, torch.float32) is torch.float32
    assert torch.result_type(torch.tensor([1]), 1.0) is torch.float32
    torch.use_deterministic_algorithms(True)
    assert torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(False)
    model = nn.Linear(2, 2)
    assert torch.compile(model) is model


def test_legacy_tensor_types_construct_and_check_instances():
    assert torch.FloatTensor(2, 3).shape == (2, 3) and torch.FloatTensor(2).dtype is torch.float32
    assert torch.LongTensor([1, 2]).tolist() == [1, 2] and torch.LongTensor([1, 2]).dtype is torch.int64
    assert isinstance(torch.zeros(2), torch.FloatTensor) and not isinstance(torch.zeros(2).long(), torch.FloatTensor)
    assert torch.Tensor(2, 3).shape == (2, 3) and torch.Tensor([3]).shape == (1,) and torch.Tensor().shape == (0,)
    assert torch.Tensor(torch.Size([2])).shape == (2,)


def test_tensor_type_names_the_legacy_type_and_casts_to_one():
    assert torch.zeros(2, dtype=torch.uint8).type() == "tinyframe.ByteTensor"
    assert torch.zeros(1).half().type() == "tinyframe.HalfTensor"
    assert torch.zeros(2).type("torch.LongTensor").dtype is torch.int64
    assert torch.zeros(2).type(torch.IntTensor).dtype is torch.int32


def test_in_place_method_forms_write_into_self_and_record_the_op():
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 1
    y.clamp_min_(0).sin_()
    assert type(y.grad_fn).__name__ == "SinBackward0"
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([0.5403023, 0.0, -0.9899925])
    z = torch.tensor([1.0, 2.0])
    assert z.eq_(torch.tensor([1.0, 3.0])).tolist() == [1.0, 0.0] and z.dtype is torch.float32


def test_method_forms_of_functions_and_conversions():
    x = torch.arange(6).reshape(2, 3)
    assert x.select(1, -1).tolist() == [2, 5] and x.ravel().shape == (6,)
    assert x.remainder(4).tolist() == [[0, 1, 2], [3, 0, 1]] and x.floor_divide(4).tolist() == [[0, 0, 0], [0, 1, 1]]
    assert x.type_as(torch.zeros(1)).dtype is torch.float32
    assert (x.byte().dtype, x.char().dtype, x.short().dtype) == (torch.uint8, torch.int8, torch.int16)
    assert (x.itemsize, x.nbytes, x.get_device(), x.is_cpu) == (8, 48, -1, True)


def test_module_list_repr_collapses_repeated_children_as_pytorch():
    layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])
    assert repr(layers) == ("ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
                            "  (2): ReLU()\n)")
    assert repr(nn.ModuleList()) == "ModuleList()"


def test_max_and_min_with_dim_print_as_return_types():
    assert repr(torch.arange(6).view(2, 3).min(dim=1)) == (
        "tinyframe.return_types.min(\nvalues=tensor([0, 3]),\nindices=tensor([0, 0]))")
    assert torch.tensor([[1, 5]]).max(dim=1).indices.tolist() == [1]


def test_requires_grad_on_integers_raises_pytorchs_message():
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        torch.tensor([1, 2], requires_grad=True)


def test_division_by_zero_and_log_of_zero_do_not_warn():
    code = ("import tinyframe as t; t.tensor([1., 0.]) / 0; t.tensor([0., -1.]).log(); t.tensor(-1.).sqrt()")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_parameter_list_and_dict_print_their_entries_as_pytorch():
    plist = nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(2, 3).double())])
    assert repr(plist) == ("ParameterList(\n    (0): Parameter containing: [tinyframe.float32 of size 2]\n"
                           "    (1): Parameter containing: [tinyframe.float64 of size 2x3]\n)")
    pdict = nn.ParameterDict({"w": nn.Parameter(torch.zeros(2, 3)), "b": torch.zeros(1)})
    assert repr(pdict) == ("ParameterDict(\n    (b): Parameter containing: [tinyframe.FloatTensor of size 1]\n"
                           "    (w): Parameter containing: [tinyframe.FloatTensor of size 2x3]\n)")
    assert list(nn.ParameterDict({"w": torch.zeros(1), "b": torch.zeros(1)}).keys()) == ["b", "w"]


def test_parameter_list_and_dict_take_pytorchs_list_and_dict_methods():
    plist = nn.ParameterList([nn.Parameter(torch.ones(2))])
    plist.extend([torch.zeros(3)])
    plist += [nn.Parameter(torch.ones(1))]
    plist[1] = torch.full((2,), 5.0)
    assert [tuple(p.shape) for p in plist] == [(2,), (2,), (1,)] and type(plist[1]) is nn.Parameter
    assert isinstance(plist[1:], nn.ParameterList) and len(plist[1:]) == 2 and plist[-1].tolist() == [1.0]
    pdict = nn.ParameterDict({"w": torch.zeros(1)})
    pdict.update([("b", torch.ones(1)), ("a", torch.ones(2))])
    pdict.update({"z": torch.ones(1), "c": torch.ones(1)})  # a plain dict is taken in key order
    assert list(pdict.keys()) == ["w", "b", "a", "c", "z"] and "a" in pdict and pdict.get("q") is None
    assert pdict.pop("b").tolist() == [1.0] and pdict.setdefault("w").tolist() == [0.0]
    del pdict["a"]
    assert list(pdict) == ["w", "c", "z"] and len(list(pdict.values())) == 3
    pdict.clear()
    assert len(pdict) == 0


def test_in_operator_compares_elements_as_pytorch():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert 2.0 in x and 5 not in x and torch.tensor(2.0) in x and torch.tensor([1.0, 2.0]) in x
    with pytest.raises(RuntimeError, match="Tensor.__contains__ only supports Tensor or scalar"):
        "a" in x  # noqa: B015


def test_typename_broadcast_to_sizes_and_is_nonzero():
    assert torch.typename(torch.zeros(1)) == "tinyframe.FloatTensor" and torch.typename(3) == "int"
    assert torch.zeros(2).broadcast_to(3, 2).shape == (3, 2) and torch.zeros(2).broadcast_to((3, 2)).shape == (3, 2)
    assert torch.tensor([1]).is_nonzero() and torch.is_nonzero(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        torch.zeros(2).is_nonzero()


def test_reshape_that_must_copy_records_clone_then_unsafe_view():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    r = a.unsqueeze(0).expand(3, 2).reshape(-1)
    clone = r.grad_fn.next_functions[0][0]
    assert [type(n).__name__ for n in (r.grad_fn, clone, clone.next_functions[0][0])] == [
        "UnsafeViewBackward0", "CloneBackward0", "ExpandBackward0"]
    r.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]
    assert torch.arange(6.0).reshape(2, 3).t().reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_requires_grad_on_integers_words_the_error_as_pytorch_does_per_entry_point():
    x = torch.zeros(2, dtype=torch.long)
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        x.requires_grad_()
    for make in (lambda: setattr(x, "requires_grad", True),
                 lambda: torch.zeros(2, dtype=torch.long, requires_grad=True),
                 lambda: nn.Parameter(torch.zeros(2, dtype=torch.long))):
        with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require"):
            make()


def test_error_messages_scripts_hit_are_pytorchs():
    with pytest.raises(IndexError, match="^index 3 is out of range$"):
        nn.Sequential(nn.ReLU())[3]
    with pytest.raises(IndexError, match="^index -3 is out of range$"):
        nn.ModuleList([nn.ReLU()])[-3]
    with pytest.raises(RuntimeError, match="^step must be nonzero$"):
        torch.arange(0, 5, 0)
    with pytest.raises(RuntimeError, match="but got tinyframe.FloatTensor instead"):
        nn.Embedding(3, 2)(torch.tensor([1.0]))
    with pytest.raises(TypeError, match="Tensors or dicts, but got tinyframe.FloatTensor$"):
        torch.optim.SGD(torch.zeros(2, requires_grad=True), lr=0.1)


def test_forward_hooks_take_prepend_and_with_kwargs():
    m, order = nn.Linear(1, 1), []
    m.register_forward_pre_hook(lambda mod, args: order.append("a"))
    m.register_forward_pre_hook(lambda mod, args: order.append("b"), prepend=True)

    def drop_kwargs(mod, args, kwargs):
        order.append(sorted(kwargs))
        return args, {}
    m.register_forward_pre_hook(drop_kwargs, with_kwargs=True)
    m.register_forward_hook(lambda mod, args, kwargs, out: out * 0, with_kwargs=True)
    assert m(torch.ones(1, 1)).tolist() == [[0.0]] and order == ["b", "a", []]


def test_module_get_parameter_get_buffer_and_rnn_flatten_parameters():
    model = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(2))
    assert model.get_parameter("0.weight") is model[0].weight
    assert model.get_buffer("1.running_mean") is model[1].running_mean
    with pytest.raises(AttributeError, match="Linear has no attribute `nope`"):
        model.get_parameter("0.nope")
    assert nn.LSTM(1, 1).flatten_parameters() is None


def test_flip_takes_dims_keyword_and_clip_is_clamp():
    x = torch.arange(4).view(2, 2)
    assert torch.flip(x, dims=[0, 1]).tolist() == [[3, 2], [1, 0]] and x.flip(dims=(0,)).tolist() == [[2, 3], [0, 1]]
    assert x.flip(0, 1).tolist() == [[3, 2], [1, 0]]
    assert torch.clip(torch.tensor([2.0, -2.0]), -1, 1).tolist() == [1.0, -1.0]


def test_tensor_split_and_hsplit_vsplit_match_pytorch():
    x = torch.arange(7.0, requires_grad=True)
    pieces = torch.tensor_split(x, 3)
    assert [p.tolist() for p in pieces] == [[0.0, 1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert {type(p.grad_fn).__name__ for p in pieces} == {"SliceBackward0"}
    assert [p.tolist() for p in torch.tensor_split(x, [1, 5])] == [[0.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0]]
    assert [p.tolist() for p in torch.tensor_split(x, [5, 2])] == [
        [0.0, 1.0, 2.0, 3.0, 4.0], [], [2.0, 3.0, 4.0, 5.0, 6.0]]
    assert [p.tolist() for p in x.tensor_split(torch.tensor([2]))] == [[0.0, 1.0], [2.0, 3.0, 4.0, 5.0, 6.0]]
    sum(p.sum() * i for i, p in enumerate(pieces)).backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0]
    y = torch.arange(12.0).view(3, 4)
    assert [tuple(p.shape) for p in torch.tensor_split(y, 5, dim=0)] == [(1, 4), (1, 4), (1, 4), (0, 4), (0, 4)]
    assert [tuple(p.shape) for p in torch.hsplit(y, 2)] == [(3, 2), (3, 2)]
    assert [tuple(p.shape) for p in y.vsplit([1])] == [(1, 4), (2, 4)]
    assert [tuple(p.shape) for p in torch.hsplit(torch.arange(6), 3)] == [(2,), (2,), (2,)]
    with pytest.raises(RuntimeError, match="torch.hsplit attempted to split along dimension 1, but the size of the "
                                           "dimension 4 is not divisible by the split_size 3!"):
        torch.hsplit(y, 3)
    with pytest.raises(RuntimeError, match="torch.vsplit requires a tensor with at least 2 dimension"):
        torch.vsplit(torch.arange(3), 1)


def test_autograd_grad_errors_are_worded_as_pytorchs():
    p, q = torch.tensor([1.0], requires_grad=True), torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears to not have been used in "
                                           "the graph. Set allow_unused=True if this is the desired behavior.$"):
        torch.autograd.grad((p * 3).sum(), [p, q])
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require grad$"):
        torch.autograd.grad((p * 3).sum(), [p, torch.tensor([1.0])])


def test_numpy_names_for_dim_and_keepdim_as_pytorchs_native_functions_take_them():
    # torch.cumprod(a, axis=0) (the annotated diffusion model), P.sum(1, keepdims=True) (makemore);
    # torch.nn.functional's Python functions take no such names
    x = torch.arange(6.0).view(2, 3)
    assert x.sum(1, keepdims=True).tolist() == [[3.0], [12.0]]
    assert torch.cumprod(x + 1, axis=0).tolist() == [[1.0, 2.0, 3.0], [4.0, 10.0, 18.0]]
    assert torch.sum(x, axis=1, keepdims=True, dtype=torch.float64).dtype == torch.float64
    assert torch.cat([x, x], axis=1).shape == (2, 6) and x.softmax(axis=0).shape == (2, 3)
    assert x.max(axis=1, keepdims=True).values.tolist() == [[2.0], [5.0]] and x.size(axis=0) == 2
    assert torch.sum(x, axis=0, out=torch.empty(3)).tolist() == [3.0, 5.0, 7.0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'axis'"):
        x.sum(dim=1, axis=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'axis'"):
        nn.functional.softmax(x, axis=1)

