"""Walks of the backward graph, shared by ``test_graph_parity.py`` and the script that recorded
PyTorch's walks (``python tests/_graph_walk.py`` under a PyTorch install rewrites
``tests/_graph_expected.py``).

A walk lists the nodes reached from an output's ``grad_fn`` through ``next_functions`` breadth
first, one line per node: ``"index Name -> edges"``, where each edge is the index of the next node
(``index:output_nr`` when the edge leaves from another output than the first) or ``None``. A leaf's
``AccumulateGrad`` is named by its leaf: ``AccumulateGrad[weight]``.

Each case is ``name -> fn(lib) -> (output, leaves)`` with ``lib`` ``tinyframe`` or ``torch`` and
``leaves`` a dict naming the leaf tensors (parameters and inputs).
"""
from __future__ import annotations

from typing import Any


def walk(output: Any, leaves: dict) -> list[str]:
    """The breadth-first walk of ``output.grad_fn``'s graph, as lines (see the module docstring)."""
    if output.grad_fn is None:
        return []
    leaf_names = {id(tensor): name for name, tensor in leaves.items()}
    order, index = [output.grad_fn], {id(output.grad_fn): 0}
    lines = []
    for position, node in enumerate(order):  # order grows while it is walked
        edges = []
        for child, output_nr in node.next_functions:
            if child is None:
                edges.append("None")
                continue
            if id(child) not in index:
                index[id(child)] = len(order)
                order.append(child)
            edges.append(f"{index[id(child)]}:{output_nr}" if output_nr else str(index[id(child)]))
        label = node.name()
        if label.endswith("AccumulateGrad"):  # PyTorch names it torch::autograd::AccumulateGrad
            label += f"[{leaf_names.get(id(node.variable), '?')}]"
        lines.append(f"{position} {label} -> {', '.join(edges)}")
    return lines


def _leaf(lib: Any, *shape: int) -> Any:
    return lib.randn(*shape, requires_grad=True)


def _module(module: Any, x: Any, *, train: bool = True) -> tuple:
    """The module's output on ``x``, with its parameters and ``x`` as the named leaves."""
    module.train(train)
    leaves = dict(module.named_parameters())
    leaves["x"] = x
    return module(x), leaves


def _layer(make: Any, *shape: int, train: bool = True, grad: bool = True) -> Any:
    """A case: ``make(nn)`` applied to a ``shape`` input (a leaf requiring grad when ``grad``)."""
    def case(lib: Any) -> tuple:
        x = lib.randn(*shape, requires_grad=grad)
        return _module(make(lib.nn), x, train=train)
    return case


def _loss(make: Any, target: Any, *, probabilities: bool = False, shape: tuple = (4, 3)) -> Any:
    """A case: ``make(nn)(input, target(lib))`` with ``input`` a leaf (its sigmoid for probabilities)."""
    def case(lib: Any) -> tuple:
        x = lib.randn(*shape, requires_grad=True)
        prediction = lib.sigmoid(x) if probabilities else x
        return make(lib.nn)(prediction, target(lib)), {"x": x}
    return case


def _classes(lib: Any) -> Any:
    return lib.tensor([0, 2, 1, 2])


def _mlp(nn: Any) -> Any:
    return nn.Sequential(nn.Flatten(), nn.Linear(12, 8), nn.ReLU(), nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))


def _cnn(nn: Any) -> Any:
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(4), nn.ReLU(),
        nn.Conv2d(4, 8, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Flatten(), nn.Linear(8 * 2 * 2, 16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 3))


def _model_loss(make: Any, *shape: int) -> Any:
    def case(lib: Any) -> tuple:
        model = make(lib.nn)
        out, leaves = _module(model, lib.randn(*shape))
        del leaves["x"]
        return lib.nn.CrossEntropyLoss()(out, _classes(lib)), leaves
    return case


def _tutorial_add_mul_mean(lib: Any) -> tuple:
    x = lib.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return z.mean(), {"x": x}


def _tutorial_matmul_bce(lib: Any) -> tuple:
    x, y = lib.ones(5), lib.zeros(3)
    w, b = _leaf(lib, 5, 3), _leaf(lib, 3)
    z = lib.matmul(x, w) + b
    return lib.nn.functional.binary_cross_entropy_with_logits(z, y), {"w": w, "b": b}


def _tutorial_polynomial(lib: Any) -> tuple:
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    b = lib.tensor([6.0, 4.0], requires_grad=True)
    return 3 * a ** 3 - b ** 2, {"a": a, "b": b}


def _tutorial_w_x_b(lib: Any) -> tuple:
    w, x, b = _leaf(lib, 3, 4), _leaf(lib, 4), _leaf(lib, 3)
    return (w @ x + b).sum(), {"w": w, "x": x, "b": b}


def _tutorial_norm_loop(lib: Any) -> tuple:
    x = _leaf(lib, 3)
    y = x * 2
    for _ in range(2):
        y = y * 2
    return y.norm(), {"x": x}


def _tutorial_exp_sum(lib: Any) -> tuple:
    x = _leaf(lib, 3)
    return (x.exp() / x.exp().sum()).log().pow(2).sum(), {"x": x}


def _reflected_scalars(lib: Any) -> tuple:
    x = _leaf(lib, 3)
    return lib.stack([2 + x, 2 - x, 2 * x, 2 / x, 2 ** x, x - 2, x / 2, x ** 2, -x]), {"x": x}


def _linear_transposed_input(lib: Any) -> tuple:
    return _module(lib.nn.Linear(4, 3), lib.randn(2, 4, 5, requires_grad=True).transpose(1, 2))


def _residual_block(lib: Any) -> tuple:
    """A ResNet basic block: conv, batch norm, in-place ReLU, conv, batch norm, ``out += identity``."""
    nn = lib.nn
    conv1, bn1, conv2, bn2 = nn.Conv2d(2, 2, 3, padding=1, bias=False), nn.BatchNorm2d(2), \
        nn.Conv2d(2, 2, 3, padding=1, bias=False), nn.BatchNorm2d(2)
    x = lib.randn(1, 2, 4, 4, requires_grad=True)
    out = nn.functional.relu(bn1(conv1(x)), inplace=True)
    out = bn2(conv2(out))
    out += x
    leaves = {"x": x, "conv1": conv1.weight, "bn1.weight": bn1.weight, "bn1.bias": bn1.bias, "conv2": conv2.weight,
              "bn2.weight": bn2.weight, "bn2.bias": bn2.bias}
    return nn.functional.relu(out), leaves


def _rnn(make: Any) -> Any:
    def case(lib: Any) -> tuple:
        module = make(lib.nn)
        out, leaves = _module(module, lib.randn(5, 2, 3))
        del leaves["x"]
        return out[0], leaves
    return case


def _recurrent(make: Any, *shape: int, states: tuple = (), double: bool = False) -> Any:
    """A case: every output of ``make(nn)`` (output, h_n and c_n, each summed and stacked) on a
    ``shape`` input, with initial states of the given shapes as leaves when ``states``."""
    def case(lib: Any) -> tuple:
        module = make(lib.nn)
        dtype = lib.float64 if double else lib.float32
        module.to(dtype)
        x = lib.randn(*shape, dtype=dtype, requires_grad=True)
        initial = [lib.randn(*s, dtype=dtype, requires_grad=True) for s in states]
        leaves = {**dict(module.named_parameters()), "x": x, **dict(zip(("h0", "c0"), initial))}
        hx = None if not initial else initial[0] if len(initial) == 1 else tuple(initial)
        out, hidden = module(x, hx)
        hidden = hidden if isinstance(hidden, tuple) else (hidden,)
        return lib.stack([out.sum(), *(h.sum() for h in hidden)]), leaves
    return case


def _cell(make: Any, states: int) -> Any:
    def case(lib: Any) -> tuple:
        module = make(lib.nn)
        x = lib.randn(2, 3, requires_grad=True)
        initial = [lib.randn(2, 4, requires_grad=True) for _ in range(states)]
        leaves = {**dict(module.named_parameters()), "x": x, **dict(zip(("h0", "c0"), initial))}
        out = module(x, tuple(initial) if states == 2 else initial[0])
        return lib.stack([t.sum() for t in (out if states == 2 else (out,))]), leaves
    return case


_RECURRENT_CASES = {
    "lstm_batch_first_two_layers": _recurrent(lambda nn: nn.LSTM(3, 4, num_layers=2, batch_first=True), 2, 3, 3),
    "lstm_bidirectional_with_state": _recurrent(lambda nn: nn.LSTM(3, 4, bidirectional=True), 3, 2, 3,
                                                states=((2, 2, 4), (2, 2, 4))),
    "lstm_unbatched_with_state": _recurrent(lambda nn: nn.LSTM(3, 4), 3, 3, states=((1, 4), (1, 4))),
    "lstm_no_bias": _recurrent(lambda nn: nn.LSTM(3, 4, bias=False), 3, 2, 3),
    "lstm_float64": _recurrent(lambda nn: nn.LSTM(3, 4), 3, 2, 3, double=True),
    "lstm_projections": _recurrent(lambda nn: nn.LSTM(3, 4, proj_size=2), 3, 2, 3),
    "gru_bidirectional_two_layers_dropout_batch_first": _recurrent(
        lambda nn: nn.GRU(3, 4, num_layers=2, bidirectional=True, dropout=0.5, batch_first=True), 2, 3, 3),
    "gru_unbatched_with_state": _recurrent(lambda nn: nn.GRU(3, 4), 3, 3, states=((1, 4),)),
    "rnn_tanh_with_state": _recurrent(lambda nn: nn.RNN(3, 4), 3, 2, 3, states=((1, 2, 4),)),
    "rnn_relu_no_bias_bidirectional": _recurrent(lambda nn: nn.RNN(3, 4, nonlinearity="relu", bias=False,
                                                                  bidirectional=True), 3, 2, 3),
    "lstm_cell": _cell(lambda nn: nn.LSTMCell(3, 4), 2),
    "gru_cell": _cell(lambda nn: nn.GRUCell(3, 4), 1),
    "rnn_cell": _cell(lambda nn: nn.RNNCell(3, 4), 1),
}


def _attention(lib: Any) -> tuple:
    module = lib.nn.MultiheadAttention(4, 2)
    x = lib.randn(3, 2, 4)
    leaves = dict(module.named_parameters())
    return module(x, x, x)[0], leaves


def _mha(make: Any, shapes: tuple, *, same: str = "qkv", masks: bool = False, **options: Any) -> Any:
    """A case: ``make(nn)(query, key, value, **options)`` on leaves of the given shapes (``same``:
    which of query, key, value are one tensor), both outputs summed and stacked; ``masks`` adds a
    boolean attention mask and key padding mask."""
    def case(lib: Any) -> tuple:
        module = make(lib.nn)
        leaves = {name: _leaf(lib, *shape) for name, shape in zip("qkv", shapes)}
        q = leaves["q"]
        k = q if same in ("qkv", "qk") else leaves["k"]
        v = k if same in ("qkv", "kv") else leaves["v"]
        if masks:
            batch_dim = 0 if module.batch_first else 1
            length, batch = q.shape[1 - batch_dim] if q.ndim == 3 else q.shape[0], q.shape[batch_dim]
            options["attn_mask"] = lib.tensor([[False, True] + [False] * (length - 2)] * length)
            padding = [[False] * (length - 1) + [True]] + [[False] * length] * (batch - 1)
            options["key_padding_mask"] = lib.tensor(padding)
        out, weights = module(q, k, v, **options)
        total = out.sum() if weights is None else lib.stack([out.sum(), weights.sum()])
        return total, {**dict(module.named_parameters()), **leaves}
    return case


def _mha_functional(separate: bool) -> Any:
    """A case: ``F.multi_head_attention_forward`` called directly on leaves, with separate projection
    weights and static keys and values (``separate``) or packed ones with ``bias_k``/``bias_v``."""
    def case(lib: Any) -> tuple:
        names = ["q", "k", "v", "in_proj_bias", "out_proj_weight", "out_proj_bias"]
        shapes = [(3, 2, 4), (2, 2, 4), (2, 2, 4), (12,), (4, 4), (4,)]
        extra = (["q_proj_weight", "k_proj_weight", "v_proj_weight", "static_k", "static_v"] if separate else
                 ["in_proj_weight", "bias_k", "bias_v"])
        extra_shapes = [(4, 4)] * 3 + [(4, 2, 2)] * 2 if separate else [(12, 4), (1, 1, 4), (1, 1, 4)]
        leaves = {name: _leaf(lib, *shape) for name, shape in zip(names + extra, shapes + extra_shapes)}
        options = {name: leaves[name] for name in extra if not name.startswith(("in_proj", "bias_"))}
        out, weights = lib.nn.functional.multi_head_attention_forward(
            leaves["q"], leaves["k"], leaves["v"], 4, 2, leaves.get("in_proj_weight"), leaves["in_proj_bias"],
            leaves.get("bias_k"), leaves.get("bias_v"), not separate, 0.0, leaves["out_proj_weight"],
            leaves["out_proj_bias"], use_separate_proj_weight=separate, **options)
        return lib.stack([out.sum(), weights.sum()]), leaves
    return case


def _encoder_layer(lib: Any, batch_first: bool, dropout: float) -> tuple:
    layer = lib.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=dropout, batch_first=batch_first)
    return _module(layer, lib.randn(2, 3, 4, requires_grad=True))


def _sdpa(shape: tuple, **options: Any) -> Any:
    return _leaves_case(lambda lib, a, b, c: lib.nn.functional.scaled_dot_product_attention(a, b, c, **options),
                        shape, shape, shape)


def _leaves_case(make: Any, *shapes: tuple) -> Any:
    """A case: ``make(lib, *leaves)`` on leaves of the given shapes, named ``a``, ``b``, ``c``."""
    def case(lib: Any) -> tuple:
        leaves = {name: _leaf(lib, *shape) for name, shape in zip("abc", shapes)}
        return make(lib, *leaves.values()), leaves
    return case


def _embedding_bag(lib: Any) -> tuple:
    module = lib.nn.EmbeddingBag(5, 3)
    return module(lib.tensor([0, 1, 2, 1]), lib.tensor([0, 2])), dict(module.named_parameters())


def _bilinear(lib: Any) -> tuple:
    module = lib.nn.Bilinear(3, 4, 5)
    x1, x2 = _leaf(lib, 2, 3), _leaf(lib, 2, 4)
    return module(x1, x2), {**dict(module.named_parameters()), "x1": x1, "x2": x2}


_ATTENTION_CASES = {
    "mha_batch_first_without_weights": _mha(lambda nn: nn.MultiheadAttention(4, 2, batch_first=True), ((2, 3, 4),),
                                            need_weights=False),
    "mha_masks": _mha(lambda nn: nn.MultiheadAttention(4, 2), ((3, 2, 4),), masks=True),
    "mha_masks_without_weights": _mha(lambda nn: nn.MultiheadAttention(4, 2), ((3, 2, 4),), masks=True,
                                      need_weights=False),
    "mha_key_is_value_batch_first": _mha(lambda nn: nn.MultiheadAttention(4, 2, batch_first=True),
                                         ((2, 3, 4), (2, 5, 4)), same="kv"),
    "mha_three_inputs_per_head_weights": _mha(lambda nn: nn.MultiheadAttention(4, 2), ((3, 2, 4), (5, 2, 4), (5, 2, 4)),
                                              same="", average_attn_weights=False),
    "mha_unbatched": _mha(lambda nn: nn.MultiheadAttention(4, 2), ((3, 4),)),
    "mha_unbatched_without_weights": _mha(lambda nn: nn.MultiheadAttention(4, 2), ((3, 4),), need_weights=False),
    "mha_kdim_vdim_bias_kv_zero_attn": _mha(
        lambda nn: nn.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True),
        ((3, 2, 4), (2, 2, 3), (2, 2, 5)), same=""),
    "mha_dropout_without_weights": _mha(lambda nn: nn.MultiheadAttention(4, 2, dropout=0.5), ((3, 2, 4),),
                                        need_weights=False),
    "mha_no_bias_masks_dropout": _mha(lambda nn: nn.MultiheadAttention(4, 2, dropout=0.5, bias=False), ((3, 2, 4),),
                                      masks=True),
    "max_pool1d_indices": _leaves_case(lambda lib, a: lib.nn.functional.max_pool1d(a, 3, 2, 1, return_indices=True)[0],
                                       (2, 3, 8)),
    "avg_pool1d_unbatched": _leaves_case(lambda lib, a: lib.nn.functional.avg_pool1d(a, 3, 2, 1), (3, 8)),
    "adaptive_avg_pool1d": _leaves_case(lambda lib, a: lib.nn.functional.adaptive_avg_pool1d(a, 3), (2, 3, 8)),
    "adaptive_avg_pool1d_global": _leaves_case(lambda lib, a: lib.nn.functional.adaptive_avg_pool1d(a, 1), (2, 3, 5)),
    "lp_pool1d": _leaves_case(lambda lib, a: lib.nn.functional.lp_pool1d(a, 2, 2), (2, 3, 8)),
    "mha_functional_separate_static_kv": _mha_functional(True),
    "mha_functional_packed_bias_kv_zero_attn": _mha_functional(False),
    "transformer_encoder_layer": lambda lib: _encoder_layer(lib, False, 0.0),
    "transformer_encoder_layer_dropout_batch_first": lambda lib: _encoder_layer(lib, True, 0.1),
    "sdpa_4d": _sdpa((1, 2, 3, 4)),
    "sdpa_4d_causal": _sdpa((1, 2, 3, 4), is_causal=True),
    "sdpa_3d": _sdpa((2, 3, 4)),
    "sdpa_4d_dropout_scale": _sdpa((1, 2, 3, 4), dropout_p=0.5, scale=-0.3),
}


# Ops that PyTorch runs as one kernel and tinyframe composes of others (recorded as one node)
_COMPOSED_CASES = {
    "upsample_nearest": _layer(lambda nn: nn.Upsample(scale_factor=2), 1, 2, 3, 3),
    "upsample_bilinear": _layer(lambda nn: nn.Upsample(scale_factor=2, mode="bilinear"), 1, 2, 3, 3),
    "upsample_bicubic_aligned": _layer(lambda nn: nn.Upsample(size=(4, 5), mode="bicubic", align_corners=True),
                                       1, 2, 3, 3),
    "upsample_linear": _layer(lambda nn: nn.Upsample(scale_factor=2, mode="linear"), 1, 2, 3),
    "upsample_trilinear": _layer(lambda nn: nn.Upsample(scale_factor=2, mode="trilinear"), 1, 1, 2, 2, 2),
    "upsample_nearest_exact_3d": _layer(lambda nn: nn.Upsample(scale_factor=2, mode="nearest-exact"), 1, 1, 2, 2, 2),
    "interpolate_area_3d": _leaves_case(lambda lib, a: lib.nn.functional.interpolate(a, size=1, mode="area"),
                                        (1, 1, 2, 2, 2)),
    "pixel_shuffle": _layer(lambda nn: nn.PixelShuffle(2), 1, 4, 2, 2),
    "pixel_unshuffle": _layer(lambda nn: nn.PixelUnshuffle(2), 1, 1, 4, 4),
    "channel_shuffle": _layer(lambda nn: nn.ChannelShuffle(2), 1, 4, 2, 2),
    "conv3d": _layer(lambda nn: nn.Conv3d(2, 3, 2), 1, 2, 3, 3, 3),
    "conv_transpose3d": _layer(lambda nn: nn.ConvTranspose3d(2, 3, 2, bias=False), 1, 2, 2, 2, 2),
    "avg_pool3d": _layer(lambda nn: nn.AvgPool3d(2), 1, 2, 2, 2, 2),
    "max_pool3d": _layer(lambda nn: nn.MaxPool3d(2), 1, 2, 2, 2, 2),
    "adaptive_avg_pool3d": _layer(lambda nn: nn.AdaptiveAvgPool3d(1), 1, 2, 2, 2, 2),
    "adaptive_max_pool1d": _layer(lambda nn: nn.AdaptiveMaxPool1d(2), 1, 2, 5),
    "adaptive_max_pool2d": _layer(lambda nn: nn.AdaptiveMaxPool2d(2), 1, 2, 3, 3),
    "embedding_bag": _embedding_bag,
    "bilinear": _bilinear,
    "rms_norm": _layer(lambda nn: nn.RMSNorm(3), 2, 3),
    "pairwise_distance": _leaves_case(lambda lib, a, b: lib.nn.functional.pairwise_distance(a, b), (2, 3), (2, 3)),
    "triplet_margin_loss": _leaves_case(lambda lib, a, b, c: lib.nn.functional.triplet_margin_loss(a, b, c),
                                        (2, 3), (2, 3), (2, 3)),
    "multi_margin_loss": _loss(lambda nn: nn.MultiMarginLoss(), _classes),
    "cdist": _leaves_case(lambda lib, a, b: lib.cdist(a, b), (3, 2), (4, 2)),
    "cdist_p1": _leaves_case(lambda lib, a, b: lib.cdist(a, b, p=1), (3, 2), (4, 2)),
    "cdist_large_batched": _leaves_case(lambda lib, a, b: lib.cdist(a, b), (2, 30, 2), (1, 26, 2)),
    "pdist": _leaves_case(lambda lib, a: lib.nn.functional.pdist(a), (3, 2)),
    "block_diag": _leaves_case(lambda lib, a, b: lib.block_diag(a, lib.ones(1, 1), b), (2, 2), (2,)),
    "affine_grid": _leaves_case(lambda lib, a: lib.nn.functional.affine_grid(a, (1, 1, 3, 3), align_corners=False),
                                (1, 2, 3)),
    "cosine_similarity": _leaves_case(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b), (2, 3), (2, 3)),
    "normalize": _leaves_case(lambda lib, a: lib.nn.functional.normalize(a), (2, 3)),
    "kron": _leaves_case(lambda lib, a, b: lib.kron(a, b), (2, 2), (2, 3)),
    "std_mean": _leaves_case(lambda lib, a: (lambda sd, mean: sd * mean)(*lib.std_mean(a, 1)), (2, 3, 4)),
    "var_mean_all": _leaves_case(lambda lib, a: (lambda var, mean: mean - var)(*lib.var_mean(a)), (2, 3)),
    "quantile_dim": _leaves_case(lambda lib, a: lib.quantile(a, 0.3, dim=1), (2, 3, 4)),
    "quantile_q_tensor": _leaves_case(lambda lib, a: lib.quantile(a, lib.tensor([0.2, 0.7])), (2, 3)),
    "nanquantile_last_dim_keepdim": _leaves_case(lambda lib, a: lib.nanquantile(a, lib.tensor([0.5]), dim=-1,
                                                                               keepdim=True), (2, 3)),
    "quantile_lower": _leaves_case(lambda lib, a: lib.quantile(a, 0.4, dim=0, interpolation="lower"), (3, 2)),
    "quantile_midpoint_keepdim": _leaves_case(lambda lib, a: lib.quantile(a, 0.4, keepdim=True,
                                                                          interpolation="midpoint"), (3, 2)),
    "grid_sample": _leaves_case(lambda lib, a, b: lib.nn.functional.grid_sample(a, b.tanh(), align_corners=False),
                                (1, 2, 3, 3), (1, 2, 2, 2)),
}


CASES = {
    "linear_1d": _layer(lambda nn: nn.Linear(4, 3), 4),
    "linear_1d_no_bias": _layer(lambda nn: nn.Linear(4, 3, bias=False), 4),
    "linear_2d": _layer(lambda nn: nn.Linear(4, 3), 2, 4),
    "linear_2d_input_without_grad": _layer(lambda nn: nn.Linear(4, 3), 2, 4, grad=False),
    "linear_2d_no_bias": _layer(lambda nn: nn.Linear(4, 3, bias=False), 2, 4),
    "linear_3d": _layer(lambda nn: nn.Linear(4, 3), 5, 2, 4),
    "linear_3d_no_bias": _layer(lambda nn: nn.Linear(4, 3, bias=False), 5, 2, 4),
    "linear_4d": _layer(lambda nn: nn.Linear(4, 3), 2, 5, 2, 4),
    "conv1d": _layer(lambda nn: nn.Conv1d(2, 3, 3), 2, 2, 6),
    "conv2d": _layer(lambda nn: nn.Conv2d(2, 3, 3, padding=1), 2, 2, 5, 5),
    "conv2d_no_bias": _layer(lambda nn: nn.Conv2d(2, 3, 3, bias=False), 2, 2, 5, 5),
    "conv_transpose2d": _layer(lambda nn: nn.ConvTranspose2d(2, 3, 3, stride=2), 2, 2, 4, 4),
    "batch_norm1d_train": _layer(lambda nn: nn.BatchNorm1d(3), 4, 3),
    "batch_norm1d_eval": _layer(lambda nn: nn.BatchNorm1d(3), 4, 3, train=False),
    "batch_norm2d_train": _layer(lambda nn: nn.BatchNorm2d(3), 2, 3, 4, 4),
    "batch_norm2d_eval": _layer(lambda nn: nn.BatchNorm2d(3), 2, 3, 4, 4, train=False),
    "layer_norm": _layer(lambda nn: nn.LayerNorm(4), 2, 3, 4),
    "group_norm": _layer(lambda nn: nn.GroupNorm(2, 4), 2, 4, 3),
    "embedding": lambda lib: _module(lib.nn.Embedding(5, 3), lib.tensor([[0, 4], [2, 2]])),
    "dropout_train": _layer(lambda nn: nn.Sequential(nn.Tanh(), nn.Dropout(0.5)), 3, 4),
    "dropout_eval": _layer(lambda nn: nn.Sequential(nn.Tanh(), nn.Dropout(0.5)), 3, 4, train=False),
    "relu": _layer(lambda nn: nn.ReLU(), 3, 4),
    "gelu": _layer(lambda nn: nn.GELU(), 3, 4),
    "sigmoid": _layer(lambda nn: nn.Sigmoid(), 3, 4),
    "tanh": _layer(lambda nn: nn.Tanh(), 3, 4),
    "softmax": _layer(lambda nn: nn.Softmax(dim=1), 3, 4),
    "log_softmax": _layer(lambda nn: nn.LogSoftmax(dim=1), 3, 4),
    "max_pool2d": _layer(lambda nn: nn.MaxPool2d(2), 1, 2, 4, 4),
    "avg_pool2d": _layer(lambda nn: nn.AvgPool2d(2), 1, 2, 4, 4),
    "adaptive_avg_pool2d": _layer(lambda nn: nn.AdaptiveAvgPool2d((1, 1)), 1, 2, 4, 4),
    "flatten": _layer(lambda nn: nn.Flatten(), 2, 3, 2),
    "cross_entropy": _loss(lambda nn: nn.CrossEntropyLoss(), _classes),
    "cross_entropy_sum": _loss(lambda nn: nn.CrossEntropyLoss(reduction="sum"), _classes),
    "cross_entropy_none": _loss(lambda nn: nn.CrossEntropyLoss(reduction="none"), _classes),
    "cross_entropy_label_smoothing": _loss(lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1), _classes),
    "nll_loss": _loss(lambda nn: nn.NLLLoss(), _classes),
    "mse_loss": _loss(lambda nn: nn.MSELoss(), lambda lib: lib.zeros(4, 3)),
    "l1_loss": _loss(lambda nn: nn.L1Loss(), lambda lib: lib.zeros(4, 3)),
    "bce_loss": _loss(lambda nn: nn.BCELoss(), lambda lib: lib.ones(4, 3), probabilities=True),
    "bce_with_logits_loss": _loss(lambda nn: nn.BCEWithLogitsLoss(), lambda lib: lib.ones(4, 3)),
    "mnist_mlp": _model_loss(_mlp, 4, 1, 3, 4),
    "mnist_cnn": _model_loss(_cnn, 4, 1, 8, 8),
    "tutorial_add_mul_mean": _tutorial_add_mul_mean,
    "tutorial_matmul_bce": _tutorial_matmul_bce,
    "tutorial_polynomial": _tutorial_polynomial,
    "tutorial_w_x_b": _tutorial_w_x_b,
    "tutorial_norm_loop": _tutorial_norm_loop,
    "tutorial_exp_sum": _tutorial_exp_sum,
    "reflected_scalars": _reflected_scalars,
    "linear_transposed_input": _linear_transposed_input,
    "residual_block": _residual_block,
    "view_sum_cat": lambda lib: (lambda x: (lib.cat([x.view(6, 2).sum(1), x.mean()[None]]), {"x": x}))(
        _leaf(lib, 3, 4)),
    "softmax_3d_identity": _layer(lambda nn: nn.Sequential(nn.Identity(), nn.Softmax(-1)), 2, 3, 4),
    "lstm": _rnn(lambda nn: nn.LSTM(3, 4)),
    "gru": _rnn(lambda nn: nn.GRU(3, 4)),
    "multihead_attention": _attention,
    **_RECURRENT_CASES,
    **_ATTENTION_CASES,
    **_COMPOSED_CASES,
}


def _record() -> None:
    """Rewrites ``_graph_expected.py`` with PyTorch's walks (run under a PyTorch install)."""
    import pathlib
    import pprint

    import torch
    torch.manual_seed(0)
    walks = {name: walk(*case(torch)) for name, case in CASES.items()}
    text = (f'"""PyTorch {torch.__version__.split("+")[0]}\'s walks of the cases in ``_graph_walk.py`` '
            '(written by ``python tests/_graph_walk.py``)."""\n'
            f"EXPECTED = {pprint.pformat(walks, width=110, sort_dicts=False)}\n")
    pathlib.Path(__file__).with_name("_graph_expected.py").write_text(text)


if __name__ == "__main__":
    _record()
