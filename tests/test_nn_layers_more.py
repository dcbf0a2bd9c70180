"""The newer layers: reprs, parameters and state_dict names as in PyTorch 2.13, and each calls its
function in ``nn.functional`` (whose values ``test_nn_functional_more.py`` checks)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F

REPRS = [
    (lambda: nn.InstanceNorm1d(3),
     "InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"),
    (lambda: nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
     "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"),
    (nn.Mish, "Mish()"), (nn.Hardswish, "Hardswish()"), (nn.Hardsigmoid, "Hardsigmoid()"),
    (lambda: nn.Hardswish(inplace=True), "Hardswish()"), (lambda: nn.Hardsigmoid(inplace=True), "Hardsigmoid()"),
    (lambda: nn.Mish(inplace=True), "Mish(inplace=True)"), (nn.GLU, "GLU(dim=-1)"),
    (nn.CosineSimilarity, "CosineSimilarity()"), (nn.PairwiseDistance, "PairwiseDistance()"),
    (lambda: nn.PixelShuffle(2), "PixelShuffle(upscale_factor=2)"),
    (lambda: nn.PixelUnshuffle(2), "PixelUnshuffle(downscale_factor=2)"),
    (lambda: nn.Upsample(scale_factor=2), "Upsample(scale_factor=2.0, mode='nearest')"),
    (lambda: nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True), "Upsample(size=(3, 4), mode='bilinear')"),
    (lambda: nn.UpsamplingNearest2d(scale_factor=2), "UpsamplingNearest2d(scale_factor=2.0, mode='nearest')"),
    (lambda: nn.UpsamplingBilinear2d(size=3), "UpsamplingBilinear2d(size=3, mode='bilinear')"),
    (lambda: nn.Fold((4, 5), 2), "Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=1)"),
    (lambda: nn.Unfold(2, padding=1), "Unfold(kernel_size=2, dilation=1, padding=1, stride=1)"),
    (lambda: nn.AdaptiveMaxPool2d((3, None)), "AdaptiveMaxPool2d(output_size=(3, None))"),
    (lambda: nn.AdaptiveMaxPool1d(3, return_indices=True), "AdaptiveMaxPool1d(output_size=3)"),
    (lambda: nn.MaxUnpool2d(2), "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"),
    (lambda: nn.MaxUnpool1d(3, stride=2, padding=1), "MaxUnpool1d(kernel_size=(3,), stride=(2,), padding=(1,))"),
    (lambda: nn.EmbeddingBag(10, 3), "EmbeddingBag(10, 3, mode='mean')"),
    (lambda: nn.EmbeddingBag(10, 3, mode="max", padding_idx=0, include_last_offset=True),
     "EmbeddingBag(10, 3, mode='max', padding_idx=0)"),
    (nn.CTCLoss, "CTCLoss()"),
    (lambda: nn.Conv3d(2, 4, 3, stride=(1, 2, 1)), "Conv3d(2, 4, kernel_size=(3, 3, 3), stride=(1, 2, 1))"),
    (lambda: nn.ZeroPad2d(1), "ZeroPad2d((1, 1, 1, 1))"), (lambda: nn.ZeroPad1d((1, 2)), "ZeroPad1d((1, 2))"),
    (lambda: nn.ConstantPad1d(2, 3.5), "ConstantPad1d(padding=(2, 2), value=3.5)"),
    (lambda: nn.ReflectionPad1d(1), "ReflectionPad1d((1, 1))"),
    (lambda: nn.ReplicationPad2d((1, 1, 2, 0)), "ReplicationPad2d((1, 1, 2, 0))"),
    (lambda: nn.CircularPad2d(1), "CircularPad2d((1, 1, 1, 1))"),
    (lambda: nn.ReflectionPad3d(1), "ReflectionPad3d((1, 1, 1, 1, 1, 1))"),
    (nn.Softsign, "Softsign()"), (lambda: nn.Softmin(1), "Softmin(dim=1)"),
    (lambda: nn.Threshold(0.1, 20, True), "Threshold(threshold=0.1, value=20, inplace=True)"),
    (nn.Hardshrink, "Hardshrink(0.5)"), (lambda: nn.Softshrink(0.3), "Softshrink(0.3)"),
    (nn.Tanhshrink, "Tanhshrink()"),
    (nn.SELU, "SELU()"), (lambda: nn.CELU(0.5, True), "CELU(alpha=0.5, inplace=True)"),
    (nn.PReLU, "PReLU(num_parameters=1)"), (nn.RReLU, "RReLU(lower=0.125, upper=0.3333333333333333)"),
    (nn.Softmax2d, "Softmax2d()"), (lambda: nn.ChannelShuffle(2), "ChannelShuffle(groups=2)"),
    (lambda: nn.LocalResponseNorm(2), "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"),
    (lambda: nn.LPPool1d(2, 3), "LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"),
    (lambda: nn.LPPool2d(1.5, 2, stride=1), "LPPool2d(norm_type=1.5, kernel_size=2, stride=1, ceil_mode=False)"),
    (nn.Dropout1d, "Dropout1d(p=0.5, inplace=False)"), (lambda: nn.Dropout2d(0.3), "Dropout2d(p=0.3, inplace=False)"),
    (nn.AlphaDropout, "AlphaDropout(p=0.5, inplace=False)"),
    (lambda: nn.FeatureAlphaDropout(0.2), "FeatureAlphaDropout(p=0.2, inplace=False)"),
    (nn.MarginRankingLoss, "MarginRankingLoss()"), (nn.HingeEmbeddingLoss, "HingeEmbeddingLoss()"),
    (nn.SoftMarginLoss, "SoftMarginLoss()"), (nn.MultiLabelSoftMarginLoss, "MultiLabelSoftMarginLoss()"),
    (nn.CosineEmbeddingLoss, "CosineEmbeddingLoss()"), (nn.TripletMarginLoss, "TripletMarginLoss()"),
    (nn.TripletMarginWithDistanceLoss, "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)"),
    (nn.PoissonNLLLoss, "PoissonNLLLoss()"), (nn.GaussianNLLLoss, "GaussianNLLLoss()"),
    (nn.MultiMarginLoss, "MultiMarginLoss()"),
    (lambda: nn.MaxPool3d(2), "MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False),
     "AvgPool3d(kernel_size=3, stride=2, padding=1)"),
    (lambda: nn.AdaptiveAvgPool3d((2, None, 3)), "AdaptiveAvgPool3d(output_size=(2, None, 3))"),
    (lambda: nn.AdaptiveMaxPool3d(2), "AdaptiveMaxPool3d(output_size=2)"),
    (lambda: nn.MaxUnpool3d(2), "MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))"),
    (lambda: nn.LPPool3d(2, 2), "LPPool3d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)"),
    (lambda: nn.ConvTranspose3d(2, 3, 2, stride=2), "ConvTranspose3d(2, 3, kernel_size=(2, 2, 2), stride=(2, 2, 2))"),
]


@pytest.mark.parametrize(("make", "expected"), REPRS, ids=[r[1].split("(")[0] + str(i) for i, r in enumerate(REPRS)])
def test_repr_is_pytorchs(make: object, expected: str) -> None:
    assert repr(make()) == expected


def test_instance_norm_running_stats_and_eval_match_pytorch() -> None:
    x = tf.tensor(np.arange(24.0).reshape(2, 3, 4) ** 1.2)
    layer = nn.InstanceNorm1d(3, affine=True, track_running_stats=True, dtype=tf.float64)
    assert list(layer.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    layer(x)
    np.testing.assert_allclose(layer.running_mean.numpy(), [1.224848184002827, 1.9404354271153772, 2.7326474017927636])
    np.testing.assert_allclose(layer.running_var.numpy(), [1.3709033055786315, 1.5134292394399447, 1.6042898367521037])
    assert layer.num_batches_tracked.item() == 0
    layer.eval()
    np.testing.assert_allclose(layer(x)[1].detach().numpy()[0], [15.80049933, 17.49889829, 19.2236521, 20.97324124],
                               rtol=1e-8)


def test_instance_norm_unbatched() -> None:
    out = nn.InstanceNorm2d(2)(tf.tensor(np.arange(12.0).reshape(2, 2, 3) ** 2))
    np.testing.assert_allclose(out.numpy()[1], [[-1.34408658, -0.89796422, -0.38320766],
                                                [0.20018311, 0.85220808, 1.57286727]], rtol=1e-7)


def test_instance_norm_checks_channels_when_affine() -> None:
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features \(3\), but got: 2"):
        nn.InstanceNorm1d(3, affine=True)(tf.randn(2, 2, 5))


def test_conv3d_layer_parameters_and_output_shape() -> None:
    layer = nn.Conv3d(2, 4, (3, 2, 2), stride=(1, 2, 1), padding=1, padding_mode="replicate")
    assert list(layer.state_dict()) == ["weight", "bias"]
    assert layer.weight.shape == (4, 2, 3, 2, 2)
    bound = 1 / np.sqrt(2 * 3 * 2 * 2)
    assert np.abs(layer.bias.detach().numpy()).max() <= bound
    assert layer(tf.randn(1, 2, 4, 5, 6)).shape == (1, 4, 4, 3, 7)


def test_embedding_bag_layer() -> None:
    bag = nn.EmbeddingBag(6, 3, mode="sum", padding_idx=2)
    np.testing.assert_array_equal(bag.weight.detach().numpy()[2], 0)
    out = bag(tf.tensor([1, 2, 4, 5]), tf.tensor([0, 2]))
    weight = bag.weight.detach().numpy()
    np.testing.assert_allclose(out.detach().numpy(), [weight[1], weight[4] + weight[5]], rtol=1e-6)
    frozen = nn.EmbeddingBag.from_pretrained(tf.ones(3, 2))
    assert not frozen.weight.requires_grad


def test_upsampling_layers_call_interpolate() -> None:
    x = tf.randn(1, 2, 3, 3)
    np.testing.assert_array_equal(nn.UpsamplingBilinear2d(scale_factor=2)(x).numpy(),
                                  F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).numpy())
    np.testing.assert_array_equal(nn.Upsample(size=5)(x).numpy(), F.interpolate(x, size=5).numpy())


def test_unpool_layer_inverts_pool_layer() -> None:
    x = tf.randn(1, 1, 4, 4)
    pooled, indices = nn.MaxPool2d(2, return_indices=True)(x)
    restored = nn.MaxUnpool2d(2)(pooled, indices)
    assert restored.shape == (1, 1, 4, 4)
    assert np.count_nonzero(restored.numpy()) == 4


def test_activation_layers_and_distances() -> None:
    x = tf.randn(3, 4)
    np.testing.assert_array_equal(nn.Hardswish()(x).numpy(), F.hardswish(x).numpy())
    np.testing.assert_array_equal(nn.GLU(0)(tf.randn(4, 2)).shape, (2, 2))
    np.testing.assert_allclose(nn.CosineSimilarity(dim=1)(x, x).numpy(), np.ones(3), rtol=1e-6)
    np.testing.assert_allclose(nn.PairwiseDistance()(x, x).numpy(), np.full(3, 2e-6), rtol=1e-3)


def test_mish_inplace_overwrites_its_input() -> None:
    x = tf.tensor([-1.0, 0.5])
    expected = F.mish(x).numpy()
    assert nn.Mish(inplace=True)(x) is x
    np.testing.assert_allclose(x.numpy(), expected)


def test_fold_unfold_layers() -> None:
    x = tf.randn(2, 3, 4, 4)
    blocks = nn.Unfold(2, stride=2)(x)
    assert blocks.shape == (2, 12, 4)
    np.testing.assert_allclose(nn.Fold(4, 2, stride=2)(blocks).numpy(), x.numpy())


def test_pixel_shuffle_layers() -> None:
    x = tf.randn(1, 8, 2, 3)
    assert nn.PixelShuffle(2)(x).shape == (1, 2, 4, 6)
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)).numpy(), x.numpy())


def test_containers_exist_and_register() -> None:
    layers = nn.ModuleDict({"a": nn.Linear(2, 2)})
    params = nn.ParameterList([nn.Parameter(tf.ones(2))])
    named = nn.ParameterDict({"w": nn.Parameter(tf.zeros(3))})
    holder = nn.Module()
    holder.layers, holder.params, holder.named = layers, params, named
    assert list(holder.state_dict()) == ["layers.a.weight", "layers.a.bias", "params.0", "named.w"]


def test_prelu_parameter_starts_at_init() -> None:
    layer = nn.PReLU(3, init=0.1)
    assert list(layer.state_dict()) == ["weight"]
    np.testing.assert_allclose(layer.weight.detach().numpy(), [0.1, 0.1, 0.1], rtol=1e-6)
    out = layer(tf.tensor([[[-1.0], [2.0], [-3.0]]]))
    np.testing.assert_allclose(out.detach().numpy().ravel(), [-0.1, 2.0, -0.3], rtol=1e-6)


def test_channel_dropout_drops_whole_channels() -> None:
    x = tf.ones(4, 8, 3, 3)
    out = nn.Dropout2d(0.5)(x).numpy()
    per_channel = out.reshape(4, 8, -1)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(axis=2) == per_channel.max(axis=2)).all()
    assert nn.Dropout2d(0.5).eval()(x) is x


def test_alpha_dropout_values_are_the_affine_map() -> None:
    x = tf.randn(1000)
    out = F.alpha_dropout(x, 0.2, training=True).numpy()
    alpha = 1.6732632423543772 * 1.0507009873554805
    a = 1.0 / np.sqrt((alpha * alpha * 0.2 + 1) * 0.8)
    kept = np.isclose(out, x.numpy() * a + alpha * a * 0.2, rtol=1e-5)
    dropped = np.isclose(out, -alpha * a + alpha * a * 0.2, rtol=1e-5)
    assert (kept | dropped).all() and dropped.any() and kept.any()
    assert F.alpha_dropout(x, 0.2) is x  # training defaults to False, as in PyTorch


def test_padding_layers_call_pad() -> None:
    x = tf.randn(1, 2, 3, 4)
    np.testing.assert_array_equal(nn.ReflectionPad2d((1, 2, 0, 1))(x).numpy(),
                                  F.pad(x, (1, 2, 0, 1), mode="reflect").numpy())
    np.testing.assert_array_equal(nn.ConstantPad2d(1, -2.0)(x).numpy(), F.pad(x, (1, 1, 1, 1), value=-2.0).numpy())
    assert nn.CircularPad1d(2)(tf.randn(1, 3, 4)).shape == (1, 3, 8)


def test_rrelu_training_slopes_lie_between_bounds() -> None:
    x = -tf.ones(1000)
    slopes = -nn.RReLU(0.1, 0.3)(x).numpy()
    assert (slopes >= 0.1).all() and (slopes <= 0.3).all() and slopes.std() > 0.01


def test_gumbel_softmax_hard_is_one_hot_with_soft_gradient() -> None:
    logits = tf.randn(5, 4, requires_grad=True)
    sample = F.gumbel_softmax(logits, tau=0.5, hard=True)
    np.testing.assert_array_equal(sample.detach().numpy().sum(axis=1), np.ones(5))
    assert set(np.unique(sample.detach().numpy())) == {0.0, 1.0}
    (sample * tf.arange(4.0)).sum().backward()
    assert logits.grad is not None and np.abs(logits.grad.numpy()).sum() > 0


def test_conv_transpose3d_layer_shapes() -> None:
    layer = nn.ConvTranspose3d(2, 3, 2, stride=2)
    assert list(layer.state_dict()) == ["weight", "bias"] and layer.weight.shape == (2, 3, 2, 2, 2)
    assert layer(tf.randn(1, 2, 2, 2, 2)).shape == (1, 3, 4, 4, 4)
    assert layer(tf.randn(1, 2, 2, 2, 2), output_size=(5, 5, 5)).shape == (1, 3, 5, 5, 5)


def test_max_pool3d_returns_the_flat_index_of_each_maximum() -> None:
    out, indices = nn.MaxPool3d(2, return_indices=True)(tf.arange(8.0).reshape(1, 1, 2, 2, 2))
    assert out.tolist() == [[[[[7.0]]]]] and indices.tolist() == [[[[[7]]]]]


# ----------------------------------------------------------------- CrossMapLRN2d and conv_tbc (torch 2.13's values)
# (size, alpha, beta, k), x and the incoming gradient (C, 2) seen as (1, C, 1, 2), PyTorch's output and gradient.
# Both windows differ from the exact ones here (PyTorch's forward keeps channel 0 in every scale, its
# backward sums a window shifted down), so these pin PyTorch's legacy arithmetic, not LocalResponseNorm's.
CROSS_MAP_LRN2D = [
    ((3, 0.5, 0.75, 1.0),
     [[0.36, 1.51], [-1.79, 1.69], [-0.05, -0.8], [-0.8, -1.08], [-0.22, 0.83]],
     [[0.58, 0.64], [-1.69, -1.57], [1.55, 0.97], [2.18, 1.21], [-1.02, 1.29]],
     [[0.258449419, 0.9495932493], [-1.284809854, 1.0191691349], [-0.0341475525, -0.4494560988],
      [-0.7266767494, -0.6961649319], [-0.19989106, 0.5601584096]],
     [[0.4077182472, 0.2788679836], [-0.5454583238, -0.7407014591], [1.0768235468, 0.4069810016],
      [1.9741960812, 0.3786322465], [-0.9952970281, 0.9211101934]]),
    ((4, 0.3, 0.6, 2.0),
     [[0.63, 0.21], [-0.82, 0.0], [-0.15, 0.89], [0.12, 1.58], [-0.77, 0.47], [0.5, -0.86]],
     [[-1.18, 1.01], [0.52, -0.16], [0.39, -0.68], [0.24, -0.61], [0.19, 0.99], [-0.34, 0.85]],
     [[0.4059549183, 0.1384110377], [-0.5281287508, 0.0], [-0.0965788602, 0.5471253854],
      [0.0773960924, 0.9670350512], [-0.4941930464, 0.2879625876], [0.3210039192, -0.5549377506]],
     [[-0.7398237122, 0.6643722981], [0.3068466287, -0.103623068], [0.2460920588, -0.3895256628],
      [0.1567998144, -0.3307427201], [0.1145892597, 0.6288477081], [-0.2143207535, 0.5205009645]]),
]


@pytest.mark.parametrize("options, x, grad, expected, expected_grad", CROSS_MAP_LRN2D, ids=["size3", "size4"])
def test_cross_map_lrn2d_matches_pytorchs_values_and_gradients(options, x, grad, expected, expected_grad):
    channels = len(x)
    layer = tf.nn.CrossMapLRN2d(*options)
    inp = tf.tensor(np.reshape(x, (1, channels, 1, 2)), dtype=tf.float64, requires_grad=True)
    out = layer(inp)
    (got,) = tf.autograd.grad(out, inp, tf.tensor(np.reshape(grad, (1, channels, 1, 2)), dtype=tf.float64))
    np.testing.assert_allclose(out.detach().numpy().reshape(channels, 2), expected, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(got.numpy().reshape(channels, 2), expected_grad, rtol=1e-9, atol=1e-10)
    assert out.grad_fn.name() == "CrossMapLRN2dBackward"
    assert repr(layer) == f"CrossMapLRN2d({options[0]}, alpha={options[1]}, beta={options[2]}, k={options[3]})"
    assert layer(inp.float()).dtype == tf.float32
    with pytest.raises(ValueError, match="^CrossMapLRN2d: Expected input to be 4D, got 3D instead.$"):
        layer(inp[0])


def test_conv_tbc_matches_pytorch_and_raises_its_errors():
    x = tf.tensor([[[-1.03, -0.29, -1.36], [-0.1, 0.08, -0.2]], [[-0.27, 1.34, 1.42], [-1.22, 1.17, -1.72]],
                   [[-0.73, -0.17, 0.11], [-1.05, -0.72, 0.08]], [[-0.69, -0.64, 0.67], [0.93, -0.06, 0.02]]],
                  dtype=tf.float64, requires_grad=True)
    w = tf.tensor([[[-0.02, -0.45], [-0.51, -1.04], [0.65, -0.08]], [[-0.14, 0.2], [0.53, 1.42], [-0.27, -0.4]]],
                  dtype=tf.float64)
    b = tf.tensor([0.5, -0.25], dtype=tf.float64)
    out = tf.conv_tbc(x, w, b, 1)
    np.testing.assert_allclose(out.detach().numpy(), [
        [[0.8577, -0.3238], [0.6104, -0.0764]], [[0.1491, 1.9047], [1.5865, 1.8332]],
        [[0.7274, -2.0671], [-1.4465, -2.0446]], [[0.2493, -1.0683], [0.7728, 1.0577]],
        [[1.2757, 0.6725], [0.525, -0.6077]]], atol=1e-12)
    assert out.grad_fn.name() == "ConvTbcBackward0" and len(out.grad_fn.next_functions) == 3
    for args, message in [((tf.zeros(5, 3), w, b), "Input must have 3 dims: time, batch, in_channel"),
                          ((x, tf.zeros(3, 4), b), "Weight tensor must have 3 dims: kernel_width, in_channels, "
                                                   "out_channels."),
                          ((x, w, tf.zeros(2, 1)), "Bias must be 1-D"),
                          ((x, tf.zeros(2, 2, 2), b), "Input dim 2 (input channels) is not == dim 1 in the weight "
                                                      "tensor"),
                          ((x, w, tf.zeros(3)), "Bias size must equal dim 2 in the weight tensor (output channels)."),
                          ((x, tf.zeros(9, 3, 2), b), "Trying to create tensor with negative dimension -4: "
                                                      "[-4, 2, 2]")]:
        with pytest.raises(RuntimeError, match=f"^{re.escape(message)}$"):
            tf.conv_tbc(*args)
