"""Cases shared by ``test_nn_functional_more.py`` and the script that recorded PyTorch's values.

Each case: ``name -> (fn(lib, *tensors), input arrays, differentiable)``, where ``lib`` is
``tinyframe`` (or ``torch`` when recording); integer arguments are built inside ``fn``.
"""
from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(7)


def _x(*shape: int) -> np.ndarray:
    return _rng.standard_normal(shape)


def _F(lib):  # noqa: ANN001, ANN202, N802
    return lib.nn.functional


_MASK = np.array([[True, False, True, True], [True, True, False, False], [False, True, True, True]])
_BAG = [1, 2, 4, 5, 4, 3, 2, 6]

CASES = {
    "mish": (lambda lib, a: _F(lib).mish(a), [_x(3, 4)], True),
    "hardswish": (lambda lib, a: _F(lib).hardswish(a), [_x(3, 4) * 3], True),
    "hardsigmoid": (lambda lib, a: _F(lib).hardsigmoid(a), [_x(3, 4) * 3], True),
    "glu": (lambda lib, a: _F(lib).glu(a, 0), [_x(4, 3)], True),
    "normalize": (lambda lib, a: _F(lib).normalize(a), [_x(3, 4)], True),
    "normalize_p1_dim0": (lambda lib, a: _F(lib).normalize(a, p=1.0, dim=0), [_x(3, 4)], True),
    "cosine_similarity": (lambda lib, a, b: _F(lib).cosine_similarity(a, b), [_x(3, 4), _x(3, 4)], True),
    "cosine_similarity_broadcast": (lambda lib, a, b: _F(lib).cosine_similarity(a, b, dim=-1),
                                    [_x(1, 4), _x(3, 4)], True),
    "pairwise_distance": (lambda lib, a, b: _F(lib).pairwise_distance(a, b), [_x(3, 4), _x(3, 4)], True),
    "pairwise_distance_p1_keepdim": (lambda lib, a, b: _F(lib).pairwise_distance(a, b, p=1.0, keepdim=True),
                                     [_x(3, 4), _x(3, 4)], True),
    "sdpa": (lambda lib, q, k, v: _F(lib).scaled_dot_product_attention(q, k, v),
             [_x(2, 3, 2), _x(2, 4, 2), _x(2, 4, 3)], True),
    "sdpa_causal": (lambda lib, q, k, v: _F(lib).scaled_dot_product_attention(q, k, v, is_causal=True),
                    [_x(2, 3, 2), _x(2, 4, 2), _x(2, 4, 3)], True),
    "sdpa_bool_mask_scale": (lambda lib, q, k, v: _F(lib).scaled_dot_product_attention(
        q, k, v, attn_mask=lib.tensor(_MASK), scale=0.3), [_x(2, 3, 2), _x(2, 4, 2), _x(2, 4, 3)], True),
    "sdpa_float_mask": (lambda lib, q, k, v, m: _F(lib).scaled_dot_product_attention(q, k, v, attn_mask=m),
                        [_x(2, 3, 2), _x(2, 4, 2), _x(2, 4, 3), _x(3, 4)], True),
    "interpolate_nearest_2x": (lambda lib, a: _F(lib).interpolate(a, scale_factor=2), [_x(1, 2, 2, 3)], True),
    "interpolate_nearest_size": (lambda lib, a: _F(lib).interpolate(a, size=(5, 2)), [_x(1, 2, 3, 4)], True),
    "interpolate_nearest_1_5": (lambda lib, a: _F(lib).interpolate(a, scale_factor=1.5), [_x(1, 1, 3, 4)], True),
    "interpolate_nearest_exact": (lambda lib, a: _F(lib).interpolate(a, size=(5, 3), mode="nearest-exact"),
                                  [_x(1, 1, 3, 4)], True),
    "interpolate_nearest_1d": (lambda lib, a: _F(lib).interpolate(a, size=7), [_x(2, 1, 4)], True),
    "interpolate_linear_1d": (lambda lib, a: _F(lib).interpolate(a, size=7, mode="linear"), [_x(2, 1, 4)], True),
    "interpolate_linear_1d_align_corners": (lambda lib, a: _F(lib).interpolate(
        a, scale_factor=0.5, mode="linear", align_corners=True), [_x(1, 2, 7)], True),
    "interpolate_bilinear": (lambda lib, a: _F(lib).interpolate(a, size=(4, 5), mode="bilinear"),
                             [_x(1, 2, 3, 3)], True),
    "interpolate_bilinear_align_corners": (lambda lib, a: _F(lib).interpolate(
        a, size=(4, 5), mode="bilinear", align_corners=True), [_x(1, 2, 3, 3)], True),
    "interpolate_bilinear_scale_factor": (lambda lib, a: _F(lib).interpolate(
        a, scale_factor=(1.7, 0.6), mode="bilinear"), [_x(1, 1, 3, 5)], True),
    "interpolate_bilinear_recompute_scale": (lambda lib, a: _F(lib).interpolate(
        a, scale_factor=(1.7, 0.6), mode="bilinear", recompute_scale_factor=True), [_x(1, 1, 3, 5)], True),
    "interpolate_area": (lambda lib, a: _F(lib).interpolate(a, size=(2, 3), mode="area"), [_x(1, 2, 4, 5)], True),
    "pixel_shuffle": (lambda lib, a: _F(lib).pixel_shuffle(a, 2), [_x(1, 8, 2, 3)], True),
    "pixel_unshuffle": (lambda lib, a: _F(lib).pixel_unshuffle(a, 2), [_x(2, 4, 6)], True),
    "unfold": (lambda lib, a: _F(lib).unfold(a, (2, 3), dilation=(2, 1), padding=1, stride=(2, 1)),
               [_x(2, 2, 4, 5)], True),
    "unfold_unbatched": (lambda lib, a: _F(lib).unfold(a, 2), [_x(2, 3, 3)], True),
    "fold": (lambda lib, a: _F(lib).fold(a, (4, 5), (2, 3), dilation=(2, 1), padding=1, stride=(2, 1)),
             [_x(2, 12, 10)], True),
    "adaptive_max_pool2d": (lambda lib, a: _F(lib).adaptive_max_pool2d(a, (3, 2), return_indices=True),
                            [_x(2, 2, 4, 5)], True),
    "adaptive_max_pool2d_unbatched_none": (lambda lib, a: _F(lib).adaptive_max_pool2d(a, (None, 2)),
                                           [_x(2, 3, 5)], True),
    "adaptive_max_pool1d": (lambda lib, a: _F(lib).adaptive_max_pool1d(a, 3, return_indices=True),
                            [_x(2, 2, 7)], True),
    "max_unpool2d": (lambda lib, a: _F(lib).max_unpool2d(
        *_F(lib).max_pool2d(a, 2, return_indices=True), 2, output_size=(5, 5)), [_x(1, 2, 5, 5)], True),
    "max_unpool1d": (lambda lib, a: _F(lib).max_unpool1d(*_F(lib).max_pool1d(a, 2, return_indices=True), 2),
                     [_x(2, 2, 6)], True),
    "embedding_bag_mean": (lambda lib, w: _F(lib).embedding_bag(lib.tensor(_BAG), w, lib.tensor([0, 4])),
                           [_x(7, 3)], True),
    "embedding_bag_sum_last_offset": (lambda lib, w: _F(lib).embedding_bag(
        lib.tensor(_BAG), w, lib.tensor([0, 3, 3, 8]), mode="sum", include_last_offset=True), [_x(7, 3)], True),
    "embedding_bag_max_empty_bag": (lambda lib, w: _F(lib).embedding_bag(
        lib.tensor(_BAG), w, lib.tensor([0, 2, 2]), mode="max"), [_x(7, 3)], True),
    "embedding_bag_2d_padding_idx": (lambda lib, w: _F(lib).embedding_bag(
        lib.tensor([[1, 2, 0], [0, 0, 3]]), w, padding_idx=0), [_x(7, 3)], True),
    "embedding_bag_per_sample_weights": (lambda lib, w, s: _F(lib).embedding_bag(
        lib.tensor([1, 2, 4, 5]), w, lib.tensor([0, 1]), mode="sum", per_sample_weights=s),
        [_x(7, 3), _x(4)], True),
    "instance_norm": (lambda lib, a: _F(lib).instance_norm(a), [_x(2, 3, 5)], True),
    "instance_norm_affine": (lambda lib, a, w, b: _F(lib).instance_norm(a, weight=w, bias=b),
                             [_x(2, 2, 3, 2), _x(2), _x(2)], True),
    "conv3d": (lambda lib, x, w, b: _F(lib).conv3d(x, w, b, stride=(2, 1, 2), padding=(1, 0, 1), dilation=(2, 1, 1)),
               [_x(2, 2, 5, 3, 4), _x(2, 2, 2, 2, 2), _x(2)], True),
    "conv3d_same_groups_unbatched": (lambda lib, x, w: _F(lib).conv3d(x, w, padding="same", groups=2),
                                     [_x(2, 3, 3, 4), _x(4, 1, 3, 2, 3)], True),
}

_SIGNS = [1.0, -1.0, -1.0, 1.0]
CASES.update({
    "selu": (lambda lib, a: _F(lib).selu(a), [_x(3, 4)], True),
    "celu": (lambda lib, a: _F(lib).celu(a, 0.7), [_x(3, 4)], True),
    "softsign": (lambda lib, a: _F(lib).softsign(a), [_x(3, 4)], True),
    "softmin": (lambda lib, a: _F(lib).softmin(a, 1), [_x(3, 4)], True),
    "threshold": (lambda lib, a: _F(lib).threshold(a, 0.1, 20.0), [_x(3, 4)], True),
    "hardshrink": (lambda lib, a: _F(lib).hardshrink(a, 0.4), [_x(3, 4)], True),
    "softshrink": (lambda lib, a: _F(lib).softshrink(a, 0.4), [_x(3, 4)], True),
    "tanhshrink": (lambda lib, a: _F(lib).tanhshrink(a), [_x(3, 4)], True),
    "prelu_channels": (lambda lib, a, w: _F(lib).prelu(a, w), [_x(2, 3, 4), _x(3)], True),
    "prelu_single": (lambda lib, a, w: _F(lib).prelu(a, w), [_x(2, 3), _x(1)], True),
    "rrelu_eval": (lambda lib, a: _F(lib).rrelu(a), [_x(3, 4)], True),
    "margin_ranking_loss": (lambda lib, a, b: _F(lib).margin_ranking_loss(a, b, lib.tensor(_SIGNS), margin=0.3),
                            [_x(4), _x(4)], True),
    "hinge_embedding_loss": (lambda lib, a: _F(lib).hinge_embedding_loss(a, lib.tensor(_SIGNS), reduction="none"),
                             [_x(4)], True),
    "soft_margin_loss": (lambda lib, a: _F(lib).soft_margin_loss(a, lib.tensor(_SIGNS), reduction="sum"),
                         [_x(4)], True),
    "multilabel_soft_margin_loss": (lambda lib, a, w: _F(lib).multilabel_soft_margin_loss(
        a, lib.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]), weight=w), [_x(2, 3), _x(3)], True),
    "cosine_embedding_loss": (lambda lib, a, b: _F(lib).cosine_embedding_loss(
        a, b, lib.tensor(_SIGNS), margin=0.2, reduction="none"), [_x(4, 3), _x(4, 3)], True),
    "triplet_margin_loss": (lambda lib, a, p, n: _F(lib).triplet_margin_loss(a, p, n, margin=2.0, reduction="none"),
                            [_x(4, 3), _x(4, 3), _x(4, 3)], True),
    "triplet_margin_loss_swap_p1": (lambda lib, a, p, n: _F(lib).triplet_margin_loss(a, p, n, margin=2.0, p=1,
                                                                                      swap=True),
                                    [_x(4, 3), _x(4, 3), _x(4, 3)], True),
    "triplet_margin_with_distance_loss": (lambda lib, a, p, n: _F(lib).triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda x, y: 1.0 - _F(lib).cosine_similarity(x, y), margin=0.5),
        [_x(4, 3), _x(4, 3), _x(4, 3)], True),
    "poisson_nll_loss": (lambda lib, a: _F(lib).poisson_nll_loss(a, lib.tensor([[0.0, 1.0, 3.0], [2.0, 5.0, 0.5]]),
                                                                 full=True), [_x(2, 3)], True),
    "poisson_nll_loss_rates": (lambda lib, a: _F(lib).poisson_nll_loss(
        a, lib.tensor([[0.0, 1.0, 3.0], [2.0, 5.0, 0.5]]), log_input=False, reduction="none"),
        [np.abs(_x(2, 3)) + 0.5], True),
    "gaussian_nll_loss": (lambda lib, a, t, v: _F(lib).gaussian_nll_loss(a, t, v, full=True),
                          [_x(3, 2), _x(3, 2), np.abs(_x(3, 2)) + 0.1], True),
    "gaussian_nll_loss_per_sample_var": (lambda lib, a, t, v: _F(lib).gaussian_nll_loss(a, t, v, reduction="none"),
                                         [_x(3, 2), _x(3, 2), np.abs(_x(3)) + 0.1], True),
    "multi_margin_loss": (lambda lib, a: _F(lib).multi_margin_loss(a, lib.tensor([2, 0, 1])), [_x(3, 4)], True),
    # PyTorch refuses a weight that requires grad: it is a constant here (drawn in its place in the stream)
    "multi_margin_loss_p2_weight": (lambda lib, a: _F(lib).multi_margin_loss(
        a, lib.tensor([2, 0, 1]), p=2, margin=0.5, weight=lib.tensor(_MARGIN_WEIGHT, dtype=a.dtype),
        reduction="none"), [_x(3, 4), (_MARGIN_WEIGHT := _x(4))][:1], True),
    "lp_pool1d": (lambda lib, a: _F(lib).lp_pool1d(a, 2, 3, stride=2), [np.abs(_x(2, 2, 7)) + 0.1], True),
    "lp_pool2d": (lambda lib, a: _F(lib).lp_pool2d(a, 1.5, 2), [np.abs(_x(1, 2, 4, 4)) + 0.1], True),
    "local_response_norm": (lambda lib, a: _F(lib).local_response_norm(a, 3, alpha=0.1), [_x(2, 5, 3, 2)], True),
    "local_response_norm_3d": (lambda lib, a: _F(lib).local_response_norm(a, 2), [_x(2, 4, 3)], True),
    "channel_shuffle": (lambda lib, a: _F(lib).channel_shuffle(a, 2), [_x(1, 6, 2, 1)], True),
    "pdist": (lambda lib, a: _F(lib).pdist(a), [_x(4, 3)], True),
    "pdist_p1": (lambda lib, a: _F(lib).pdist(a, p=1.0), [_x(4, 3)], True),
    "upsample_bilinear": (lambda lib, a: _F(lib).upsample_bilinear(a, scale_factor=2), [_x(1, 1, 2, 3)], True),
})
CASES.update({
    "interpolate_bicubic": (lambda lib, a: _F(lib).interpolate(a, size=(5, 4), mode="bicubic"), [_x(1, 2, 3, 3)], True),
    "interpolate_bicubic_align_corners_scale": (lambda lib, a: _F(lib).interpolate(
        a, scale_factor=1.5, mode="bicubic", align_corners=True), [_x(1, 1, 4, 3)], True),
    "interpolate_trilinear": (lambda lib, a: _F(lib).interpolate(a, size=(3, 2, 4), mode="trilinear"),
                              [_x(1, 1, 2, 3, 2)], True),
    "interpolate_nearest_3d": (lambda lib, a: _F(lib).interpolate(a, scale_factor=(2, 1, 1.5)),
                               [_x(1, 1, 2, 3, 2)], True),
})
CASES.update({
    "max_pool3d": (lambda lib, a: _F(lib).max_pool3d(a, 2), [_x(1, 2, 4, 4, 5)], True),
    "max_pool3d_padding_ceil_dilation": (lambda lib, a: _F(lib).max_pool3d(
        a, (3, 2, 2), stride=(2, 1, 2), padding=(1, 0, 1), dilation=(1, 2, 1), ceil_mode=True),
        [_x(1, 1, 5, 5, 4)], True),
    "avg_pool3d": (lambda lib, a: _F(lib).avg_pool3d(a, 2, stride=1), [_x(2, 1, 3, 3, 4)], True),
    "avg_pool3d_exclude_pad_ceil": (lambda lib, a: _F(lib).avg_pool3d(
        a, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), [_x(1, 2, 4, 5, 4)], True),
    "avg_pool3d_include_pad_ceil_unbatched": (lambda lib, a: _F(lib).avg_pool3d(
        a, (2, 3, 2), stride=2, padding=(1, 1, 0), ceil_mode=True), [_x(2, 4, 5, 5)], True),
    "avg_pool3d_divisor": (lambda lib, a: _F(lib).avg_pool3d(a, 2, divisor_override=3), [_x(1, 1, 4, 4, 4)], True),
    "adaptive_avg_pool3d": (lambda lib, a: _F(lib).adaptive_avg_pool3d(a, (2, 3, None)), [_x(1, 2, 5, 4, 3)], True),
    "adaptive_max_pool3d": (lambda lib, a: _F(lib).adaptive_max_pool3d(a, (2, 3, 2), return_indices=True),
                            [_x(1, 2, 5, 4, 3)], True),
    "max_unpool3d": (lambda lib, a: _F(lib).max_unpool3d(
        a, lib.tensor([[[[[0, 7], [18, 30]]]]]), 2, output_size=(3, 4, 4)), [_x(1, 1, 1, 2, 2)], True),
    "lp_pool3d": (lambda lib, a: _F(lib).lp_pool3d(a, 2, 2), [np.abs(_x(1, 1, 4, 4, 4)) + 0.1], True),
    "conv_transpose3d": (lambda lib, x, w, b: _F(lib).conv_transpose3d(
        x, w, b, stride=(2, 1, 2), padding=(1, 0, 1), output_padding=(1, 0, 1), dilation=(2, 1, 1)),
        [_x(2, 2, 3, 2, 3), _x(2, 3, 2, 2, 2), _x(3)], True),
    "conv_transpose3d_groups_unbatched": (lambda lib, x, w: _F(lib).conv_transpose3d(x, w, groups=2, stride=3),
                                          [_x(4, 2, 2, 2), _x(4, 1, 2, 1, 2)], True),
})
_THETA = [[[0.9, 0.3, 0.1], [-0.2, 1.1, 0.05]], [[1.3, -0.4, -0.2], [0.5, 0.7, 0.3]]]
CASES.update({
    "affine_grid": (lambda lib, t: _F(lib).affine_grid(t, (2, 3, 3, 4), align_corners=False), [np.array(_THETA)], True),
    "affine_grid_align_corners": (lambda lib, t: _F(lib).affine_grid(t, (2, 1, 4, 2), align_corners=True),
                                  [np.array(_THETA)], True),
    "grid_sample_bilinear_zeros": (lambda lib, x, g: _F(lib).grid_sample(x, g, align_corners=False),
                                   [_x(2, 2, 3, 4), np.clip(_x(2, 3, 2, 2) * 0.7, -1.3, 1.3)], True),
    "grid_sample_bilinear_border_align": (lambda lib, x, g: _F(lib).grid_sample(
        x, g, padding_mode="border", align_corners=True), [_x(1, 2, 3, 4), _x(1, 4, 3, 2) * 0.8], True),
    "grid_sample_reflection": (lambda lib, x, g: _F(lib).grid_sample(
        x, g, padding_mode="reflection", align_corners=False), [_x(1, 1, 4, 3), _x(1, 3, 3, 2) * 1.1], True),
    "grid_sample_reflection_align": (lambda lib, x, g: _F(lib).grid_sample(
        x, g, padding_mode="reflection", align_corners=True), [_x(1, 1, 4, 3), _x(1, 3, 3, 2) * 1.1], True),
    "grid_sample_nearest": (lambda lib, x, g: _F(lib).grid_sample(x, g, mode="nearest", align_corners=False),
                            [_x(1, 2, 3, 4), _x(1, 2, 3, 2) * 0.9], False),
    "spatial_transformer": (lambda lib, x, t: _F(lib).grid_sample(
        x, _F(lib).affine_grid(t, (2, 2, 3, 3), align_corners=False), align_corners=False),
        [_x(2, 2, 4, 4), np.array(_THETA)], True),
    "multilabel_margin_loss": (lambda lib, a: _F(lib).multilabel_margin_loss(
        a, lib.tensor([[3, 0, -1, 1], [1, 2, 3, -1]]), reduction="none"), [_x(2, 4)], True),
    "multilabel_margin_loss_1d_mean": (lambda lib, a: _F(lib).multilabel_margin_loss(a, lib.tensor([2, -1, 0])),
                                       [_x(3)], True),
})


def _bicubic(padding_mode: str, align_corners: bool) -> tuple:
    """A bicubic ``grid_sample`` case: positions reach past the edges, so the padding is used."""
    return (lambda lib, x, g: _F(lib).grid_sample(x, g, mode="bicubic", padding_mode=padding_mode,
                                                   align_corners=align_corners),
            [_x(1, 2, 3, 4), _x(1, 3, 2, 2) * 1.2], True)


CASES.update({f"grid_sample_bicubic_{padding}{'_align' if align else ''}": _bicubic(padding, align)
              for padding in ("zeros", "border", "reflection") for align in (False, True)})
_THETA_3D = [[[0.9, 0.3, 0.1, 0.05], [-0.2, 1.1, 0.05, -0.1], [0.1, 0.0, 0.8, 0.23]],
             [[1.2, -0.1, 0.2, -0.3], [0.3, 0.9, -0.2, 0.1], [-0.1, 0.2, 1.1, 0.0]]]
CASES.update({
    "affine_grid_3d": (lambda lib, t: _F(lib).affine_grid(t, (2, 1, 2, 3, 2), align_corners=False),
                       [np.array(_THETA_3D)], True),
    "grid_sample_3d_trilinear_zeros": (lambda lib, x, g: _F(lib).grid_sample(x, g, align_corners=False),
                                       [_x(2, 2, 3, 2, 4), np.clip(_x(2, 2, 3, 2, 3) * 0.7, -1.3, 1.3)], True),
    "grid_sample_3d_border_align": (lambda lib, x, g: _F(lib).grid_sample(
        x, g, padding_mode="border", align_corners=True), [_x(1, 1, 3, 3, 2), _x(1, 2, 2, 3, 3) * 0.9], True),
    "grid_sample_3d_reflection": (lambda lib, x, g: _F(lib).grid_sample(
        x, g, padding_mode="reflection", align_corners=False), [_x(1, 1, 2, 3, 3), _x(1, 2, 2, 2, 3) * 1.1], True),
    "grid_sample_3d_nearest": (lambda lib, x, g: _F(lib).grid_sample(x, g, mode="nearest", align_corners=True),
                               [_x(1, 2, 2, 3, 3), _x(1, 2, 2, 2, 3) * 0.9], False),
    "spatial_transformer_3d": (lambda lib, x, t: _F(lib).grid_sample(
        x, _F(lib).affine_grid(t, (2, 1, 2, 2, 3), align_corners=False), align_corners=False),
        [_x(2, 1, 3, 3, 3), np.array(_THETA_3D)], True),
})
