"""tinyframe.optim.swa_utils: AveragedModel (SWA and EMA), update_bn and SWALR against values
recorded from torch 2.13 for the same model and updates."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe
from tinyframe import nn
from tinyframe.optim import swa_utils


def _model() -> nn.Sequential:
    model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    with tinyframe.no_grad():
        model[0].weight.copy_(tinyframe.tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6]]))
        model[0].bias.fill_(0.05)
    return model


def _averaged_models() -> tuple:
    model = _model()
    swa = swa_utils.AveragedModel(model)
    ema = swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9))
    ema_buffers = swa_utils.AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(0.8), use_buffers=True)
    for k in range(4):
        with tinyframe.no_grad():
            model[0].weight.mul_(1.5).add_(0.1 * k)
            model[0].bias.sub_(0.2)
        model(tinyframe.tensor(np.arange(12, dtype=np.float32).reshape(4, 3) * (k + 1) / 10))
        for averaged in (swa, ema, ema_buffers):
            averaged.update_parameters(model)
    return swa, ema, ema_buffers


def test_averaged_models_match_pytorch():
    swa, ema, ema_buffers = _averaged_models()
    assert swa.n_averaged.item() == 4 and swa.n_averaged.dtype == tinyframe.int64
    np.testing.assert_allclose(swa.module[0].weight.detach().numpy(),
                               [[0.623437, 0.928125, 1.232812], [-0.9, 1.842188, -1.509375]], atol=1e-6)
    np.testing.assert_allclose(swa.module[0].bias.detach().numpy(), [-0.45, -0.45], atol=1e-6)
    np.testing.assert_allclose(ema.module[0].weight.detach().numpy(),
                               [[0.330675, 0.53925, 0.747825], [-0.7122, 1.164975, -1.12935]], atol=1e-6)
    np.testing.assert_allclose(ema.module[1].running_mean.numpy(), [1.756905, -0.442609], atol=2e-6)
    np.testing.assert_allclose(ema_buffers.module[0].weight.detach().numpy(),
                               [[0.49465, 0.7555, 1.01635], [-0.8096, 1.53805, -1.3313]], atol=1e-6)
    np.testing.assert_allclose(ema_buffers.module[1].running_mean.numpy(), [0.497677, -0.198884], atol=2e-6)


def test_update_bn_recomputes_running_statistics_as_pytorch():
    swa, _, _ = _averaged_models()
    data = [tinyframe.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3) * s) for s in (1, 2, 3)]
    swa_utils.update_bn(data, swa)
    bn = swa.module[1]
    np.testing.assert_allclose(bn.running_mean.numpy(), [-0.228409, -0.671591], atol=1e-5)
    np.testing.assert_allclose(bn.running_var.numpy(), [17.940235, 0.744433], rtol=1e-5)
    assert bn.momentum == 0.1 and bn.num_batches_tracked.item() == 3


def test_averaged_model_rejects_two_averaging_functions():
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn should be provided"):
        swa_utils.AveragedModel(_model(), avg_fn=swa_utils.get_swa_avg_fn(),
                                multi_avg_fn=swa_utils.get_swa_multi_avg_fn())
    with pytest.raises(ValueError, match="Invalid decay value 1.5"):
        swa_utils.get_ema_avg_fn(1.5)


@pytest.mark.parametrize("options, expected", [
    (dict(swa_lr=0.05, anneal_epochs=3),
     [[1.0, 0.5], [0.7625, 0.3875], [0.2875, 0.1625], [0.05, 0.05], [0.05, 0.05], [0.05, 0.05], [0.05, 0.05]]),
    (dict(swa_lr=[0.1, 0.2], anneal_epochs=4, anneal_strategy="linear"),
     [[1.0, 0.5], [0.775, 0.425], [0.55, 0.35], [0.325, 0.275], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2]]),
    (dict(swa_lr=0.3, anneal_epochs=0), [[0.3, 0.3]] * 7),
], ids=["cos", "linear-per-group", "no-annealing"])
def test_swalr_matches_pytorch(options, expected):
    optimizer = tinyframe.optim.SGD([{"params": [tinyframe.zeros(1, requires_grad=True)]},
                                     {"params": [tinyframe.zeros(1, requires_grad=True)], "lr": 0.5}], lr=1.0)
    scheduler = swa_utils.SWALR(optimizer, **options)
    lrs = [scheduler.get_last_lr()]
    for _ in range(6):
        optimizer.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr())
    assert lrs == [pytest.approx(row, rel=1e-12) for row in expected]
