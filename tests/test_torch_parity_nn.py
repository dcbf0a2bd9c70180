"""Differences from PyTorch 2.13 found by running the same nn / nn.init / nn.functional calls in both
frameworks, each pinned with values recorded from torch (same manual_seed, same random streams)."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


# --------------------------------------------------------------------------- lazy convolutions
def test_lazy_conv_draws_its_initial_weights_at_the_first_call_only() -> None:
    # PyTorch builds a LazyConv with 0 channels, so construction draws nothing
    tf.manual_seed(0)
    conv = nn.LazyConv1d(3, 2)
    conv(tf.ones(1, 4, 6))
    np.testing.assert_allclose(_host(conv.weight).reshape(-1)[:4],
                               [-0.0026469905860722065, 0.18966144323349, -0.2909903824329376, -0.26019373536109924],
                               rtol=1e-6)
    np.testing.assert_allclose(_host(conv.bias), [-0.05698692053556442, 0.037410933524370193, 0.3201341927051544],
                               rtol=1e-6)
    np.testing.assert_allclose(_host(tf.rand(2)), [0.036164820194244385, 0.1852310299873352], rtol=1e-6)
    tf.manual_seed(0)
    transposed = nn.LazyConvTranspose2d(3, 2, bias=False)
    transposed(tf.ones(1, 4, 3, 3))
    assert type(transposed) is nn.ConvTranspose2d and transposed.out_channels == 3
    np.testing.assert_allclose(_host(transposed.weight).reshape(-1)[:4],
                               [-0.0021612588316202164, 0.15485791862010956, -0.2375926673412323,
                                -0.21244730055332184], rtol=1e-6)
    np.testing.assert_allclose(_host(tf.rand(2)), [0.2782524824142456, 0.48195880651474], rtol=1e-6)


# --------------------------------------------------------------------------- nn.init
def test_calculate_gain_types_and_errors() -> None:
    assert nn.init.calculate_gain("linear") == 1 and type(nn.init.calculate_gain("conv2d")) is int
    assert type(nn.init.calculate_gain("sigmoid")) is int
    assert nn.init.calculate_gain("leaky_relu", 0.3) == pytest.approx(1.3545709229571927)
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        nn.init.calculate_gain("leaky_relu", True)
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        nn.init.calculate_gain("foo")


def test_fan_in_and_fan_out_under_pytorchs_private_name() -> None:
    assert nn.init._calculate_fan_in_and_fan_out(tf.empty(4, 3, 2, 5)) == (30, 40)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init._calculate_fan_in_and_fan_out(tf.empty(4))


def test_init_errors_as_pytorch() -> None:
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        nn.init.orthogonal_(tf.empty(7))
    with pytest.raises(ValueError, match=r"Mode x not supported, please use one of \['fan_in', 'fan_out'\]"):
        nn.init.kaiming_uniform_(tf.empty(3, 3), mode="x")
    empty = tf.empty(0, 3)
    assert nn.init.orthogonal_(empty) is empty


# --------------------------------------------------------------------------- Embedding max_norm
_EMB_AFTER = [[-0.659238338470459, -0.6747674345970154, 0.33180370926856995],
              [1.5870167016983032, 1.1976789236068726, -3.1101901531219482],
              [-0.17582648992538452, 0.9544387459754944, 0.24110515415668488],
              [-0.3154248893260956, -0.3467935025691986, 0.36695587635040283],
              [0.6011094450950623, 0.6863277554512024, 0.409416139125824],
              [-1.687353491783142, 1.8636531829833984, 2.5180184841156006]]


def test_embedding_max_norm_renormalises_the_rows_looked_up_in_place(device: str) -> None:
    tf.manual_seed(0)
    weight = (tf.randn(6, 3) * 2).to(device)
    out = F.embedding(tf.tensor([[0, 2], [2, 4]], device=device), weight, max_norm=1.0)
    np.testing.assert_allclose(_host(weight), _EMB_AFTER, rtol=1e-5)  # rows 1, 3, 5 untouched
    np.testing.assert_allclose(_host(out), np.array(_EMB_AFTER)[[[0, 2], [2, 4]]], rtol=1e-5)
    tf.manual_seed(0)
    weight = (tf.randn(6, 3) * 2).to(device)
    F.embedding(tf.tensor([1, 3, 1], device=device), weight, max_norm=0.5, norm_type=1.0)
    np.testing.assert_allclose(_host(weight)[[1, 3]], [[0.13460960984230042, 0.10158625990152359, -0.2638040781021118],
                                                       [-0.15324170887470245, -0.16848139464855194,
                                                        0.17827680706977844]], rtol=1e-5)


def test_embedding_modules_take_max_norm() -> None:
    tf.manual_seed(0)
    bag = nn.EmbeddingBag(5, 2, max_norm=1.0, mode="sum")
    assert repr(bag) == "EmbeddingBag(5, 2, max_norm=1.0, mode='sum')"
    np.testing.assert_allclose(_host(bag(tf.tensor([[1, 2], [1, 4]]))),
                               [[-1.5803989171981812, -0.5378046035766602],
                                [-1.6868692636489868, -0.15090027451515198]], rtol=1e-5)
    np.testing.assert_allclose(_host(bag.weight)[[0, 3]], [[1.5409960746765137, -0.293428897857666],
                                                           [0.40334683656692505, 0.8380263447761536]], rtol=1e-6)
    assert repr(nn.Embedding(5, 2, max_norm=1.0)) == "Embedding(5, 2, max_norm=1.0)"


# --------------------------------------------------------------------------- channel dropout ranks
def test_dropout2d_takes_a_3d_input_as_n_c_l_with_a_warning() -> None:
    tf.manual_seed(0)
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        out = F.dropout2d(tf.ones(2, 3, 4), 0.5)
    np.testing.assert_array_equal(_host(out)[:, :, 0], [[0, 0, 2], [0, 0, 0]])  # one draw per (n, c)
    assert tf.rand(1).item() == pytest.approx(0.022325754165649414)


def test_dropout3d_warns_on_other_ranks_and_drops_them_as_unbatched() -> None:
    tf.manual_seed(0)
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout3d"):
        out = F.dropout3d(tf.ones(3, 4), 0.5)
    np.testing.assert_array_equal(_host(out)[:, 0], [0, 0, 2])
    with pytest.raises(RuntimeError, match="inputs with 1 spatial dimension, a channel dimension"):
        F.dropout1d(tf.ones(1, 2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.dropout2d(tf.ones(2, 3, 4, 4), 0.5)


# --------------------------------------------------------------------------- losses
def test_cross_entropy_mean_with_every_target_ignored_gives_zero_gradients() -> None:
    logits = tf.randn(4, 5, requires_grad=True)
    loss = F.cross_entropy(logits, tf.full((4,), -100))
    assert np.isnan(loss.item())
    loss.backward()
    np.testing.assert_array_equal(_host(logits.grad), np.zeros((4, 5)))


# --------------------------------------------------------------------------- linear and pad messages
@pytest.mark.parametrize("x_shape, w_shape, bias, message", [
    ((4, 5), (3, 4), False, r"mat1 and mat2 shapes cannot be multiplied \(4x5 and 4x3\)"),
    ((2, 4, 5), (3, 4), True, r"mat1 and mat2 shapes cannot be multiplied \(8x5 and 4x3\)"),
    ((5,), (3, 4), False, r"mat1 and mat2 shapes cannot be multiplied \(1x5 and 4x3\)"),
    ((4, 5), (2, 3, 5), False, "t\\(\\) expects a tensor with <= 2 dimensions, but self is 3D"),
    ((4,), (4,), True, "mat2 must be a matrix, got 1-D tensor"),
])
def test_linear_shape_errors_as_pytorch(x_shape: tuple, w_shape: tuple, bias: bool, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        F.linear(tf.randn(*x_shape), tf.randn(*w_shape), tf.randn(3) if bias else None)


def test_linear_with_a_vector_weight_or_a_broadcasting_bias() -> None:
    assert F.linear(tf.ones(4), tf.ones(4)).shape == ()
    assert F.linear(tf.ones(4, 5), tf.ones(5)).shape == (4,)
    np.testing.assert_array_equal(_host(F.linear(tf.ones(2, 5), tf.ones(3, 5), tf.tensor([1.0]))), np.full((2, 3), 6))
    assert F.linear(tf.ones(2, 2, 5), tf.ones(3, 5), tf.ones(2, 3)).shape == (2, 2, 3)


def test_pad_length_errors_come_before_the_mode() -> None:
    x = tf.randn(2, 3, 4)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1,))
    with pytest.raises(RuntimeError, match="Padding length should be less than or equal to two times the input "
                                           "dimension but got padding length 8 and input of dimension 3"):
        F.pad(x, (1,) * 8, mode="reflect")


# --------------------------------------------------------------------------- Module registration and state
class _Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.seq = nn.Sequential(nn.ReLU(), nn.Linear(4, 2))


def test_state_dict_carries_pytorchs_version_metadata() -> None:
    metadata = _Net().state_dict()._metadata
    assert list(metadata.items()) == [("", {"version": 1}), ("fc", {"version": 1}), ("bn", {"version": 2}),
                                      ("seq", {"version": 1}), ("seq.0", {"version": 1}), ("seq.1", {"version": 1})]


def test_batch_norm_loads_a_state_saved_before_num_batches_tracked() -> None:
    bn = nn.BatchNorm1d(2)
    bn.num_batches_tracked.fill_(7)
    old = {"weight": tf.ones(2), "bias": tf.zeros(2), "running_mean": tf.zeros(2), "running_var": tf.ones(2)}
    assert repr(bn.load_state_dict(old)) == "<All keys matched successfully>"
    assert bn.num_batches_tracked.item() == 7 and "num_batches_tracked" not in old
    current = bn.state_dict()
    del current["num_batches_tracked"]  # the metadata says version 2: the key is missing
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "num_batches_tracked"'):
        bn.load_state_dict(current)


@pytest.mark.parametrize("register, error, message", [
    (lambda m: m.register_buffer("forward", tf.ones(1)), KeyError, "attribute 'forward' already exists"),
    (lambda m: m.register_parameter("training", None), KeyError, "attribute 'training' already exists"),
    (lambda m: m.register_buffer("a.b", None), KeyError, 'buffer name can\'t contain "."'),
    (lambda m: m.register_parameter("", None), KeyError, 'parameter name can\'t be empty string ""'),
    (lambda m: m.add_module("a.b", nn.ReLU()), KeyError, 'module name can\'t contain ".", got: a.b'),
    (lambda m: m.add_module(3, None), TypeError, "module name should be a string. Got int"),
    (lambda m: m.add_module("x", "y"), TypeError, "str is not a Module subclass"),
    (lambda m: (m.add_module("x", nn.ReLU()), m.register_buffer("x", None)), KeyError, "attribute 'x' already"),
    (lambda m: m.register_parameter("p", tf.ones(1)), TypeError,
     "cannot assign 'tinyframe.FloatTensor' object to parameter 'p'"),
    (lambda m: nn.Linear(2, 2).to(tf.int64), TypeError,
     "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=tinyframe.int64"),
])
def test_module_registration_errors_as_pytorch(register: Any, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        register(nn.Module())
    assert message in str(info.value.args[0])


def test_sequential_and_module_list_arithmetic() -> None:
    relu, tanh = nn.ReLU(), nn.Tanh()
    both = nn.Sequential(relu) + nn.Sequential(tanh)
    assert type(both) is nn.Sequential and list(both) == [relu, tanh]
    assert list(2 * nn.Sequential(relu, tanh)) == [relu, tanh, relu, tanh]
    repeated = nn.Sequential(relu)
    repeated *= 3
    assert list(repeated) == [relu] * 3 and list(repeated._modules) == ["0", "1", "2"]
    with pytest.raises(ValueError, match="add operator supports only objects of Sequential class"):
        nn.Sequential() + nn.ModuleList()
    with pytest.raises(ValueError, match="Non-positive multiplication factor 0"):
        nn.Sequential() * 0
    with pytest.raises(IndexError, match="Index out of range: 5"):
        nn.Sequential(relu).insert(5, tanh)
    listed = nn.ModuleList([relu]) + [tanh]
    assert type(listed) is nn.ModuleList and list(listed) == [relu, tanh]
    listed += nn.Sequential(relu)
    assert len(listed) == 3 and nn.Sequential(relu, tanh).pop(1) is tanh


def test_module_dict_update_clear_pop() -> None:
    modules = nn.ModuleDict()
    modules.update({"b": nn.ReLU(), "a": nn.Tanh()})
    modules.update([("c", nn.Sigmoid())])
    assert list(modules) == ["b", "a", "c"]
    assert type(modules.pop("a")) is nn.Tanh and list(modules) == ["b", "c"]
    with pytest.raises(ValueError, match="ModuleDict update sequence element #0 has length 1; 2 is required"):
        modules.update([("a",)])
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable of key/value pairs"):
        modules.update(3)
    modules.clear()
    assert len(modules) == 0


# --------------------------------------------------------------------------- dropout masks in memory order
def test_dropout_of_a_transposed_input_draws_in_its_memory_order() -> None:
    # PyTorch's mask is empty_like(input) (the input's strides), filled in memory order
    tf.manual_seed(0)
    assert F.dropout(tf.ones(3, 4).t(), 0.5).tolist() == [[0, 0, 0], [0, 0, 2], [2, 2, 2], [0, 2, 2]]
    tf.manual_seed(0)
    low, high = -0.7791939377784729, 1.6655988693237305
    np.testing.assert_allclose(_host(F.alpha_dropout(tf.ones(3, 4).t(), 0.5, True)),
                               [[low, low, low], [low, low, high], [high, high, high], [low, high, high]], rtol=1e-6)


def test_batch_first_encoder_layer_in_training_matches_pytorch() -> None:
    # its first dropout acts on the attention output, a transposed view
    tf.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 8, 0.5, batch_first=True)
    out = layer(tf.randn(2, 3, 4))
    np.testing.assert_allclose(_host(out).reshape(-1)[:12], [
        -1.2491357326507568, -0.05687794089317322, -0.23680944740772247, 1.5428231954574585, -0.25267407298088074,
        1.6800692081451416, -0.9313830733299255, -0.4960119426250458, -1.3544756174087524, -0.327038049697876,
        1.408491611480713, 0.2730221748352051], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_host(tf.rand(2)), [0.5228014588356018, 0.04914045333862305], rtol=1e-6)


@pytest.mark.parametrize("cell, args, message", [
    (nn.LSTMCell(3, 2), (tf.ones(4, 5),), "input has inconsistent input_size: got 5 expected 3"),
    (nn.LSTMCell(3, 2), (tf.ones(4, 3), (tf.ones(4, 3), tf.ones(4, 2))),
     "hidden0 has inconsistent hidden_size: got 3, expected 2"),
    (nn.LSTMCell(3, 2), (tf.ones(4, 3), (tf.ones(5, 2), tf.ones(5, 2))),
     "Input batch size 4 doesn't match hidden0 batch size 5"),
    (nn.LSTMCell(3, 2), (tf.ones(3), (tf.ones(1, 2), tf.ones(1, 2))),
     "hidden0 has inconsistent hidden_size: got 1, expected 2"),
    (nn.LSTMCell(3, 2), (tf.ones(4, 3), (tf.ones(4, 2), tf.ones(4, 3))),
     "hidden1 has inconsistent hidden_size: got 3, expected 2"),
    (nn.GRUCell(3, 2), (tf.ones(4, 3), tf.ones(3, 2)), "Input batch size 4 doesn't match hidden0 batch size 3"),
])
def test_rnn_cell_size_errors_as_pytorch(cell: nn.Module, args: tuple, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        cell(*args)


# --------------------------------------------------------------------------- parametrizations
def test_spectral_norm_registration_runs_the_consistency_forward_as_pytorch() -> None:
    # PyTorch's ParametrizationList calls the parametrization once when registering (not unsafe):
    # one more power iteration after the 15 of the constructor
    tf.manual_seed(0)
    module = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 4))
    np.testing.assert_allclose(_host(module.parametrizations.weight[0]._u),
                               [0.6924716830253601, -0.5086683034896851, 0.5103813409805298, -0.03536275029182434],
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(_host(module.parametrizations.weight[0]._v),
                               [0.2728465795516968, 0.7667837142944336, -0.5810313820838928], rtol=1e-5)


def test_orthogonal_parametrization_matches_pytorch() -> None:
    tf.manual_seed(0)
    module = nn.utils.parametrizations.orthogonal(nn.Linear(3, 4))  # tall: Householder, base completed by randn
    np.testing.assert_allclose(_host(module.weight), [
        [-0.009569644927978516, 0.5133988857269287, -0.843529999256134],
        [-0.9406751394271851, -0.15650328993797302, -0.13482290506362915],
        [-0.025325149297714233, 0.7613310813903809, 0.3635724186897278],
        [0.3382270038127899, -0.3637348413467407, -0.3716117739677429]], atol=1e-6)
    np.testing.assert_allclose(_host(module.parametrizations.weight[0].base[:, 3]),
                               [0.15743976831436157, -0.26918384432792664, -0.5362356901168823, -0.7843495011329651],
                               atol=1e-6)
    np.testing.assert_allclose(tf.rand(1).item(), 0.41940832138061523, rtol=1e-6)
    module(tf.ones(1, 3)).sum().backward()
    np.testing.assert_allclose(_host(module.parametrizations.weight.original.grad), [
        [0.0, 0.0, 0.0], [2.7836694717407227, 0.0, 0.0], [-0.6980986595153809, -3.4817681312561035, 0.0],
        [-2.8646583557128906, -2.8646583557128906, -2.8646583557128906]], atol=1e-5)
    tf.manual_seed(0)
    cayley = nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map="cayley")
    np.testing.assert_allclose(_host(cayley.weight)[0],
                               [-0.010168910026550293, 0.5581021904945374, -0.8297100067138672], atol=1e-6)
    with pytest.raises(ValueError, match='orthogonal_map has to be one of "matrix_exp", "cayley", "householder"'):
        nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map="qr")


def test_parametrize_cached_computes_each_tensor_once() -> None:
    calls = []

    class Counted(nn.Module):
        def forward(self, x: tf.Tensor) -> tf.Tensor:
            calls.append(1)
            return x * 2

    module = nn.utils.parametrize.register_parametrization(nn.Linear(2, 2), "weight", Counted())
    calls.clear()
    with nn.utils.parametrize.cached():
        first = module.weight
        assert module.weight is first
    assert len(calls) == 1
    assert module.weight is not first and len(calls) == 2


# --------------------------------------------------------------------------- pooling
def test_max_pool3d_returns_pytorchs_indices_and_routes_the_gradient_there() -> None:
    tf.manual_seed(0)
    x = tf.randn(1, 1, 3, 4, 4, requires_grad=True)
    out, indices = F.max_pool3d(x, 2, stride=1, padding=1, return_indices=True)
    assert out.shape == (1, 1, 4, 5, 5) and indices.dtype == tf.int64
    assert indices.reshape(-1)[:12].tolist() == [0, 0, 2, 2, 3, 4, 4, 5, 2, 3, 4, 4]
    (out * tf.arange(out.numel()).reshape(out.shape)).sum().backward()
    assert x.grad.reshape(-1)[:16].tolist() == [52, 0, 13, 13, 164, 88, 0, 0, 15, 0, 13, 77, 20, 76, 132, 73]
    np.testing.assert_allclose(nn.MaxPool3d(2, 1, 1)(x).detach().abs().sum().item(), out.detach().abs().sum().item())
    unpooled = F.max_unpool3d(out.detach(), indices, 2, 1, 1, output_size=(3, 4, 4))
    np.testing.assert_allclose(unpooled.abs().sum().item(), 25.70514488220215, rtol=1e-6)


def test_max_unpool_writes_a_shared_maximum_once() -> None:
    out, indices = F.max_pool1d(tf.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2, 1, return_indices=True)
    assert indices.tolist() == [[[1, 1, 2]]]
    assert F.max_unpool1d(out, indices, 2, 1).tolist() == [[[0.0, 3.0, 2.0, 0.0]]]
    with pytest.raises(ValueError, match=r"invalid output_size \"\(5,\)\" \(dim 0 must be between 3 and 5\)"):
        F.max_unpool1d(out, indices, 2, 1, output_size=(5,))
    with pytest.raises(ValueError, match="output_size should be a sequence containing 1 or 3 elements"):
        F.max_unpool1d(out, indices, 2, 1, output_size=(1, 4))


# --------------------------------------------------------------------------- AdaptiveLogSoftmaxWithLoss
def test_adaptive_log_softmax_matches_pytorch() -> None:
    tf.manual_seed(0)
    module = nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10, 15], div_value=2.0)
    assert [name for name, _ in module.named_parameters()] == [
        "head.weight", "tail.0.0.weight", "tail.0.1.weight", "tail.1.0.weight", "tail.1.1.weight",
        "tail.2.0.weight", "tail.2.1.weight"]
    np.testing.assert_allclose(_host(module.tail[2][1].weight).reshape(-1)[:3],
                               [0.6809052228927612, -0.006482481956481934, -0.4970463514328003], rtol=1e-6)
    x = tf.randn(6, 8, requires_grad=True)
    out = module(x, tf.tensor([0, 5, 19, 3, 12, 11]))
    out.loss.backward()
    np.testing.assert_allclose(_host(out.output), [-2.0816285610198975, -4.0567708015441895, -3.8130948543548584,
                                                   -1.520836591720581, -4.094356060028076, -4.78654670715332],
                               rtol=1e-5)
    np.testing.assert_allclose(out.loss.item(), 3.3922054767608643, rtol=1e-6)
    np.testing.assert_allclose(_host(x.grad)[0, :4], [-0.008032497949898243, -0.026331791654229164,
                                                      0.043033309280872345, 0.02824433147907257], rtol=1e-4)
    np.testing.assert_allclose(_host(module.log_prob(x))[1, :6], [
        -1.9891393184661865, -2.329784870147705, -1.6343846321105957, -1.6627899408340454, -4.056182861328125,
        -4.0567708015441895], rtol=1e-5)
    assert module.predict(x).tolist() == [1, 2, 1, 3, 2, 2]
    assert module.predict(x.detach() * 10).tolist() == [1, 2, 1, 13, 2, 2]
    with pytest.raises(RuntimeError, match=r"Target values should be in \[0, 19\]"):
        module(x, tf.tensor([0, 5, 20, 3, 12, 11]))
    with pytest.raises(ValueError, match="cutoffs should be a sequence of unique, positive integers"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 4])


def test_fractional_max_pool_draws_and_pools_as_pytorch() -> None:
    tf.manual_seed(0)
    x = tf.randn(1, 2, 7, 6, requires_grad=True)
    out, indices = F.fractional_max_pool2d(x, 2, output_size=3, return_indices=True)
    assert indices.reshape(-1).tolist() == [6, 8, 4, 13, 14, 23, 30, 38, 41, 7, 3, 10, 25, 20, 28, 37, 32, 41]
    assert out.grad_fn.name() == "FractionalMaxPool2DBackward0"
    np.testing.assert_allclose(tf.rand(1).item(), 0.023700952529907227, rtol=1e-6)  # one (N, C, 2) draw
    out.sum().backward()
    assert x.grad.reshape(-1).nonzero().reshape(-1).tolist() == [4, 6, 8, 13, 14, 23, 30, 38, 41, 45, 49, 52, 62,
                                                                 67, 70, 74, 79, 83]
    tf.manual_seed(0)
    out, indices = nn.FractionalMaxPool3d((2, 3, 2), output_ratio=0.5, return_indices=True)(tf.randn(2, 5, 6, 7))
    assert out.shape == (2, 2, 3, 3) and indices.reshape(-1)[:10].tolist() == [14, 59, 62, 14, 59, 69, 29, 67, 69,
                                                                                134]
    np.testing.assert_allclose(tf.rand(1).item(), 0.398568332195282, rtol=1e-6)
    with pytest.raises(RuntimeError, match="fractional_max_pool2d\\(\\): pool height 3 too large relative to input "
                                           "height 4"):
        F.fractional_max_pool2d(tf.randn(1, 1, 4, 4), 3, output_size=3)
    with pytest.raises(ValueError, match="FractionalMaxPool2d requires specifying either an output size"):
        nn.FractionalMaxPool2d(2)
    with pytest.raises(ValueError, match="output_ratio must be between 0 and 1 \\(got 1.5\\)"):
        nn.FractionalMaxPool2d(2, output_ratio=1.5)


def test_consume_prefix_and_type_before_parametrizations() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    wrapper = nn.Module()
    wrapper.module = model
    state = wrapper.state_dict()
    nn.modules.utils.consume_prefix_in_state_dict_if_present(state, "module.")
    assert list(state) == ["0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var",
                           "1.num_batches_tracked"]
    assert list(state._metadata.items()) == [("", {"version": 1}), ("0", {"version": 1}), ("1", {"version": 2})]
    assert repr(model.load_state_dict(state)) == "<All keys matched successfully>"
    parametrized = nn.utils.parametrizations.weight_norm(nn.Linear(2, 2))
    assert nn.utils.parametrize.type_before_parametrizations(parametrized) is nn.Linear
    assert type(parametrized).__name__ == "ParametrizedLinear"


def test_interpolate_antialias_matches_pytorch() -> None:
    tf.manual_seed(0)
    x = tf.randn(1, 1, 9, 7, requires_grad=True)
    out = F.interpolate(x, size=(4, 3), mode="bilinear", antialias=True)
    assert out.grad_fn.name() == "UpsampleBilinear2DAaBackward0"
    np.testing.assert_allclose(_host(out).reshape(-1), [
        -0.7327086329460144, -0.21778464317321777, 0.5106083750724792, 0.11954700946807861, -0.021250788122415543,
        0.11009026318788528, 0.5075913667678833, 0.3582550585269928, -0.07632720470428467, 0.12767939269542694,
        0.08365581929683685, 0.27133849263191223], rtol=1e-5, atol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(_host(x.grad)[0, 0, 0], [0.13265307247638702, 0.18103240430355072,
                                                        0.16698679327964783, 0.15294121205806732,
                                                        0.16698682308197021, 0.18103241920471191,
                                                        0.13265302777290344], rtol=1e-5)
    cubic = F.interpolate(x.detach(), scale_factor=(0.5, 1.5), mode="bicubic", antialias=True)
    np.testing.assert_allclose(_host(cubic)[0, 0, 0], [
        -1.3882416486740112, -0.8712965846061707, -0.44144800305366516, -0.9147886633872986, -0.6946853995323181,
        -0.11275353282690048, 0.544661819934845, 0.6124820113182068, 0.4732014536857605, 0.4959375858306885],
        rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Anti-alias option is restricted to bilinear, bicubic, and lanczos modes"):
        F.interpolate(x, size=3, mode="nearest", antialias=True)


def test_prelu_and_rrelu_nodes_and_double_backward() -> None:
    tf.manual_seed(0)
    x = tf.randn(3, 4, requires_grad=True)
    assert nn.PReLU(4)(x).grad_fn.name() == "PreluKernelBackward0"
    assert F.rrelu(x).grad_fn.name() == "RreluWithNoiseBackward0"
    tf.manual_seed(1)
    out = F.rrelu(x, training=True)
    assert out.grad_fn.name() == "RreluWithNoiseBackward0"
    (grad,) = tf.autograd.grad((out * out).sum(), x, create_graph=True)
    np.testing.assert_allclose(_host(grad).reshape(-1)[:6], [3.0819921493530273, -0.011130722239613533,
                                                            -0.12858833372592926, 1.1368625164031982,
                                                            -0.06552109122276306, -0.07331496477127075], rtol=1e-5)
    np.testing.assert_allclose(_host(tf.rand(2)), [0.46354562044143677, 0.4549863338470459], rtol=1e-6)
    (second,) = tf.autograd.grad(grad.sum(), x)  # recomputing the node drew no other slopes
    np.testing.assert_allclose(_host(second).reshape(-1)[:6], [2.0, 0.037933286279439926, 0.059018246829509735, 2.0,
                                                              0.06041469797492027, 0.052420422434806824], rtol=1e-5)


@pytest.mark.parametrize("name, call, node, total, grad_total, second_total", [
    ("softshrink", lambda x: F.softshrink(x, 0.3), "SoftshrinkBackward0", 0.12751, 17.0, None),
    ("hardshrink", lambda x: F.hardshrink(x, 0.3), "HardshrinkBackward0", 0.42751, 17.0, None),
    ("threshold", lambda x: F.threshold(x, 0.1, 2.0), "ThresholdBackward0", 35.57323, 11.0, None),
    ("celu", lambda x: F.celu(x, 0.7), "CeluBackward0", 5.19801, 17.67291, 10.54391),
    ("selu", F.selu, "EluBackward0", 0.83724, 24.42778, 28.9955),
    ("soft_margin_loss", lambda x: F.soft_margin_loss(x, -tf.ones(2, 3, 4), reduction="sum"),
     "SoftMarginLossBackward0", 19.55724, 12.17626, 5.10255),
])
def test_activation_nodes_and_double_backward_as_pytorch(name: str, call: Any, node: str, total: float,
                                                         grad_total: float, second_total: float | None) -> None:
    tf.manual_seed(0)
    x = tf.randn(2, 3, 4, requires_grad=True)
    out = call(x)
    assert out.grad_fn.name() == node
    (grad,) = tf.autograd.grad(out.sum(), x, create_graph=True)
    np.testing.assert_allclose([out.sum().item(), grad.sum().item()], [total, grad_total], rtol=1e-4, atol=1e-5)
    if second_total is not None:  # (piecewise-linear ones have a constant gradient)
        (second,) = tf.autograd.grad((grad * grad).sum(), x)
        np.testing.assert_allclose(second.sum().item(), second_total, rtol=1e-4)
