"""Dropout, one_hot, Flatten / Unflatten and ``tinyframe.nn.utils`` (gradient clipping, parameter vectors)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck


# --------------------------------------------------------------------------- dropout
def test_dropout_zeroes_a_fraction_p_and_scales_the_rest(device: str) -> None:
    x = tf.ones(200_000, device=device)
    out = F.dropout(x, p=0.3)
    values = out.cpu().numpy()
    kept = values != 0
    assert abs(1 - kept.mean() - 0.3) < 0.005  # binomial std is 0.001
    np.testing.assert_allclose(values[kept], 1 / 0.7, rtol=1e-6)
    assert abs(values.mean() - 1.0) < 0.01  # the expectation is unchanged
    assert out.dtype == tf.float32


def test_dropout_mask_is_reproducible_with_manual_seed(device: str) -> None:
    x = tf.randn(50, 20, device=device)
    tf.manual_seed(123)
    first = F.dropout(x, 0.5)
    second = F.dropout(x, 0.5)
    tf.manual_seed(123)
    again = F.dropout(x, 0.5)
    np.testing.assert_array_equal(first.cpu().numpy(), again.cpu().numpy())
    assert (first.cpu().numpy() != second.cpu().numpy()).any()


def test_dropout_gradient_is_the_mask_and_the_node_is_mul_as_in_torch() -> None:
    x = tf.randn(30, 10, dtype=tf.float64, requires_grad=True)
    out = F.dropout(x, 0.4)
    assert out.grad_fn.name() == "MulBackward0"
    out.sum().backward()
    kept = out.detach().numpy() != 0
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, 1 / 0.6, 0.0))


def test_dropout_gradients_match_finite_differences_for_a_fixed_mask() -> None:
    x = tf.randn(4, 5, dtype=tf.float64, requires_grad=True)

    def fixed_mask_dropout(t: tf.Tensor) -> tf.Tensor:
        tf.manual_seed(7)
        return F.dropout(t, 0.5) * t

    assert gradcheck(fixed_mask_dropout, [x])
    assert gradgradcheck(fixed_mask_dropout, [x])


def test_dropout_returns_its_input_when_not_training_or_p_is_zero() -> None:
    x = tf.randn(3, 4, requires_grad=True)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    empty = tf.ones(0, 3)
    assert F.dropout(empty, 0.5) is empty


def test_dropout_with_p_one_gives_zeros_through_a_mul_node() -> None:
    x = tf.randn(3, 4, requires_grad=True)
    out = F.dropout(x, 1.0)
    assert out.grad_fn.name() == "MulBackward0"
    assert out.shape == (3, 4) and not out.detach().numpy().any()
    out.sum().backward()
    assert not x.grad.numpy().any()


def test_inplace_dropout_overwrites_its_input() -> None:
    x = tf.ones(1000)
    assert F.dropout(x, 0.5, inplace=True) is x
    assert set(np.unique(x.numpy())) <= {0.0, 2.0}
    leaf = tf.ones(100, requires_grad=True)
    y = leaf * 1.0
    F.dropout(y, 0.5, inplace=True)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), y.detach().numpy())


@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_dropout_probability_outside_zero_one_raises(p: float) -> None:
    message = f"dropout probability has to be between 0 and 1, but got {p}"
    with pytest.raises(ValueError, match=message):
        F.dropout(tf.ones(3), p)
    with pytest.raises(ValueError, match=message):
        nn.Dropout(p)


def test_dropout_layer_drops_in_training_and_is_the_identity_in_eval() -> None:
    layer = nn.Dropout(0.5)
    assert repr(layer) == "Dropout(p=0.5, inplace=False)"
    assert repr(nn.Dropout(0.2, True)) == "Dropout(p=0.2, inplace=True)"
    x = tf.ones(1000)
    assert (layer(x).numpy() == 0).any()
    layer.eval()
    assert layer(x) is x
    layer.train()
    assert (layer(x).numpy() == 0).any()


def test_dropout_in_a_model_follows_the_models_mode() -> None:
    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.9))
    x = tf.ones(64, 4)
    model.eval()
    np.testing.assert_array_equal(model(x).detach().numpy(), model[0](x).detach().numpy())
    model.train()
    assert (model(x).detach().numpy() == 0).mean() > 0.5


# --------------------------------------------------------------------------- one_hot
def test_one_hot_marks_each_index_with_int64_ones(device: str) -> None:
    out = F.one_hot(tf.tensor([[0, 2], [1, 1]], device=device))
    assert out.dtype == tf.int64 and out.shape == (2, 2, 3)
    np.testing.assert_array_equal(out.cpu().numpy(), np.eye(3, dtype=np.int64)[[[0, 2], [1, 1]]])
    assert F.one_hot(tf.tensor([1, 0]), 4).tolist() == [[0, 1, 0, 0], [1, 0, 0, 0]]
    assert F.one_hot(tf.tensor(2), 3).tolist() == [0, 0, 1]


def test_one_hot_of_an_empty_tensor_needs_num_classes() -> None:
    out = F.one_hot(tf.zeros(0, dtype=tf.int64), 3)
    assert out.shape == (0, 3) and out.dtype == tf.int64
    with pytest.raises(RuntimeError, match="Can not infer total number of classes from empty tensor."):
        F.one_hot(tf.zeros(0, dtype=tf.int64))


@pytest.mark.parametrize("values, num_classes, message", [
    ([0, -1], -1, "Class values must be non-negative."),
    ([0, 3], 3, "Class values must be smaller than num_classes."),
    ([0, 1], -2, "Class values must be smaller than num_classes."),
])
def test_one_hot_rejects_classes_out_of_range(values: list, num_classes: int, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        F.one_hot(tf.tensor(values), num_classes)


@pytest.mark.parametrize("dtype", [tf.float32, tf.int32])
def test_one_hot_requires_int64_indices(dtype: tf.dtype) -> None:
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor of type LongTensor."):
        F.one_hot(tf.tensor([0, 1], dtype=dtype))


# --------------------------------------------------------------------------- Flatten, Unflatten
def test_flatten_merges_dims_from_start_to_end() -> None:
    x = tf.randn(2, 3, 4, 5)
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 2)(x).shape == (24, 5)
    assert nn.Flatten(-2)(x).shape == (2, 3, 20)
    np.testing.assert_array_equal(nn.Flatten()(x).numpy(), x.numpy().reshape(2, 60))
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert repr(nn.Flatten(0, 2)) == "Flatten(start_dim=0, end_dim=2)"


def test_unflatten_splits_one_dim() -> None:
    x = tf.arange(24.0).reshape(2, 12)
    out = nn.Unflatten(1, (3, 4))(x)
    assert out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out.numpy(), np.arange(24.0).reshape(2, 3, 4))
    assert nn.Unflatten(-1, [2, -1])(x).shape == (2, 2, 6)
    assert repr(nn.Unflatten(1, (2, 2))) == "Unflatten(dim=1, unflattened_size=(2, 2))"
    assert repr(nn.Unflatten(1, [2, 2])) == "Unflatten(dim=1, unflattened_size=[2, 2])"


def test_unflatten_requires_a_tuple_of_ints() -> None:
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of ints, but found type int"):
        nn.Unflatten(1, 4)
    with pytest.raises(TypeError, match="unflattened_size must be tuple of ints, but found element of type float "
                                        "at pos 1"):
        nn.Unflatten(1, (2, 2.0))


def test_flatten_and_unflatten_round_trip_with_gradients() -> None:
    x = tf.randn(2, 3, 4, dtype=tf.float64, requires_grad=True)
    model = nn.Sequential(nn.Flatten(), nn.Unflatten(1, (3, 4)))
    assert gradcheck(model, [x])


# --------------------------------------------------------------------------- nn.utils
G1 = (np.sin(np.arange(6) * 0.7).reshape(2, 3) * 3).astype(np.float32)
G2 = (np.cos(np.arange(4) * 1.1) * 2).astype(np.float32)
# torch.nn.utils.clip_grad_norm_ on parameters whose grads are G1, G2 and None (torch 2.13):
# (norm_type, max_norm): (returned total norm, clipped grads flattened)
TORCH_CLIP = {
    (2.0, 1.0): (5.604240417480469, [0.0, 0.3448554277420044, 0.527519941329956, 0.4620835781097412,
                                     0.17932212352752686, -0.1877773553133011, 0.35687255859375, 0.16187600791454315,
                                     -0.21001988649368286, -0.3524044156074524]),
    (1.0, 1.0): (15.595098495483398, [0.0, 0.12392694503068924, 0.1895691156387329, 0.16605395078659058,
                                      0.06444104015827179, -0.06747951358556747, 0.12824541330337524,
                                      0.05817162245512009, -0.07547256350517273, -0.12663975358009338]),
    (math.inf, 1.0): (2.9563491344451904, [0.0, 0.6537294387817383, 0.9999996423721313, 0.8759544491767883,
                                           0.33993420004844666, -0.35596245527267456, 0.6765098571777344,
                                           0.3068622350692749, -0.3981267809867859, -0.6680397987365723]),
    (3.0, 1.0): (4.134675979614258, [0.0, 0.4674254059791565, 0.715013325214386, 0.6263192892074585,
                                     0.24305754899978638, -0.2545180022716522, 0.48371371626853943,
                                     0.21941065788269043, -0.2846660614013672, -0.4776574969291687]),
    (2.0, 100.0): (5.604240417480469, [0.0, 1.9326530694961548, 2.9563491344451904, 2.589627981185913,
                                       1.0049644708633423, -1.0523496866226196, 2.0, 0.9071922302246094,
                                       -1.177002191543579, -1.9749594926834106]),
}


def _parameters_with_grads(device: str = "cpu") -> list:
    params = [nn.Parameter(tf.zeros(2, 3, device=device)), nn.Parameter(tf.zeros(4, device=device)),
              nn.Parameter(tf.zeros(2, device=device))]
    params[0].grad = tf.tensor(G1, device=device)
    params[1].grad = tf.tensor(G2, device=device)
    return params


def _flat_grads(params: list) -> np.ndarray:
    return np.concatenate([p.grad.cpu().numpy().reshape(-1) for p in params if p.grad is not None])


@pytest.mark.parametrize("norm_type, max_norm", list(TORCH_CLIP))
def test_clip_grad_norm_matches_torch(norm_type: float, max_norm: float, device: str) -> None:
    params = _parameters_with_grads(device)
    total = nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
    expected_total, expected_grads = TORCH_CLIP[(norm_type, max_norm)]
    assert total.dtype == tf.float32 and total.shape == ()
    assert math.isclose(total.item(), expected_total, rel_tol=1e-6)
    np.testing.assert_allclose(_flat_grads(params), expected_grads, rtol=1e-6, atol=1e-7)
    assert params[2].grad is None


def test_clip_grad_norm_matches_the_numpy_formula() -> None:
    params = _parameters_with_grads()
    flat = np.concatenate([G1.reshape(-1), G2]).astype(np.float64)
    total = nn.utils.clip_grad_norm_(iter(params), 2.0)
    norm = np.sqrt((flat ** 2).sum())
    assert math.isclose(total.item(), norm, rel_tol=1e-6)
    np.testing.assert_allclose(_flat_grads(params), flat * 2.0 / (norm + 1e-6), rtol=1e-6)


def test_clip_grad_norm_accepts_one_tensor_and_string_inf() -> None:
    p = nn.Parameter(tf.zeros(3))
    p.grad = tf.tensor([3.0, -4.0, 0.0])
    assert nn.utils.clip_grad_norm_(p, 10.0).item() == pytest.approx(5.0)
    assert p.grad.tolist() == [3.0, -4.0, 0.0]
    assert nn.utils.clip_grad_norm_(p, 1.0, norm_type="inf").item() == pytest.approx(4.0)
    np.testing.assert_allclose(p.grad.numpy(), np.array([3.0, -4.0, 0.0]) / (4.0 + 1e-6), rtol=1e-6)


def test_clip_grad_norm_without_gradients_returns_zero() -> None:
    total = nn.utils.clip_grad_norm_([nn.Parameter(tf.zeros(2))], 1.0)
    assert total.item() == 0.0 and total.dtype == tf.float32
    with pytest.warns(UserWarning, match="empty generator"):
        nn.utils.clip_grad_norm_((p for p in []), 1.0)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # inf * 0 = nan, as in PyTorch
def test_clip_grad_norm_raises_on_nonfinite_norm_when_asked() -> None:
    p = nn.Parameter(tf.zeros(2))
    p.grad = tf.tensor([math.inf, 1.0])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from `parameters` is "
                                           "non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
    assert math.isinf(nn.utils.clip_grad_norm_(p, 1.0).item())


def test_clip_grad_norm_does_not_record_a_graph() -> None:
    p = nn.Parameter(tf.zeros(2))
    p.grad = tf.tensor([3.0, 4.0])
    total = nn.utils.clip_grad_norm_(p, 1.0)
    assert total.grad_fn is None and p.grad.grad_fn is None


def test_clip_grad_norm_deprecated_alias_warns() -> None:
    p = nn.Parameter(tf.zeros(2))
    p.grad = tf.tensor([3.0, 4.0])
    with pytest.warns(FutureWarning, match="clip_grad_norm_"):
        assert nn.utils.clip_grad_norm(p, 1.0).item() == pytest.approx(5.0)


def test_get_total_norm_and_clip_grads_with_norm_compose_clip_grad_norm_() -> None:
    params = _parameters_with_grads()
    total = nn.utils.get_total_norm([p.grad for p in params if p.grad is not None])
    nn.utils.clip_grads_with_norm_(params, 1.0, total)
    np.testing.assert_allclose(_flat_grads(params), TORCH_CLIP[(2.0, 1.0)][1], rtol=1e-6, atol=1e-7)


def test_clip_grad_value_clamps_each_gradient(device: str) -> None:
    params = _parameters_with_grads(device)
    assert nn.utils.clip_grad_value_(params, 0.9) is None
    np.testing.assert_allclose(_flat_grads(params), np.clip(np.concatenate([G1.reshape(-1), G2]), -0.9, 0.9))


def test_parameters_to_vector_and_back() -> None:
    model = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(model.parameters())
    assert vec.shape == (8,)
    assert vec.grad_fn.name() == "CatBackward0"
    np.testing.assert_array_equal(vec.detach().numpy(),
                                  np.concatenate([model.weight.detach().numpy().reshape(-1),
                                                  model.bias.detach().numpy()]))
    new = tf.arange(8.0)
    nn.utils.vector_to_parameters(new, model.parameters())
    assert model.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert model.bias.tolist() == [6.0, 7.0]
    assert model.weight.requires_grad and isinstance(model.weight, nn.Parameter)


def test_vector_to_parameters_requires_a_tensor() -> None:
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0, 2.0], nn.Linear(1, 1).parameters())


def test_reassigning_a_child_module_keeps_its_place_as_pytorch() -> None:
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    model[0] = nn.Linear(2, 3, bias=False)
    setattr(model, "1", nn.Tanh())
    assert [type(m).__name__ for m in model] == ["Linear", "Tanh", "Linear"]
    assert list(model.state_dict()) == ["0.weight", "2.weight", "2.bias"]


def test_sequential_and_module_list_renumber_on_insert_and_delete_as_pytorch() -> None:
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    del model[0]
    model.insert(1, nn.Tanh())
    assert [type(m).__name__ for m in model] == ["ReLU", "Tanh", "Linear"]
    assert type(model.pop(0)).__name__ == "ReLU" and list(model._modules) == ["0", "1"]
    layers = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.ReLU()])
    del layers[0:2]
    assert len(layers) == 1 and list(layers._modules) == ["0"]


def test_train_and_eval_go_through_each_childs_train_as_pytorch() -> None:
    class Merging(nn.Module):  # loralib's LoRA layers merge their weights in an overridden train()
        def __init__(self) -> None:
            super().__init__()
            self.calls: list = []
            self.inner = nn.Dropout()

        def train(self, mode: bool = True) -> nn.Module:
            self.calls.append(mode)
            return super().train(mode)
    model = nn.Sequential(Merging(), nn.Linear(1, 1))
    model.eval()
    assert not model[0].inner.training and not model[1].training
    model.train()
    assert model[0].calls == [False, True] and model[0].inner.training
