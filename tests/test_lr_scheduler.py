"""tinyframe.optim.lr_scheduler: each scheduler's learning rates against PyTorch's, state_dict round
trips, and PyTorch's warnings and errors.

The expected sequences (``get_last_lr()`` after construction, then after each of 15 steps, for an
optimizer with two groups at lr 0.1 and 0.01) were produced by torch 2.13 and are hard-coded.
"""
from __future__ import annotations

import copy
import warnings

import pytest

import tinyframe
import tinyframe.optim as optim
from tinyframe.optim import lr_scheduler

METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85]

SCHEDULERS = {
    "StepLR": lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5),
    "MultiStepLR": lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3),
    "ExponentialLR": lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8),
    "CosineAnnealingLR": lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001),
    "LambdaLR": lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1)),
    "LambdaLR_list": lambda o: lr_scheduler.LambdaLR(o, lr_lambda=[lambda e: 0.9 ** e, lambda e: e + 1]),
    "OneCycleLR_cos": lambda o: lr_scheduler.OneCycleLR(o, max_lr=[1.0, 0.1], total_steps=15),
    "OneCycleLR_linear3": lambda o: lr_scheduler.OneCycleLR(
        o, max_lr=0.5, epochs=3, steps_per_epoch=5, pct_start=0.25, anneal_strategy="linear", three_phase=True,
        div_factor=10.0, final_div_factor=100.0),
    "OneCycleLR_adam": lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.2, total_steps=15, base_momentum=0.8,
                                                         max_momentum=0.9),
    "ReduceLROnPlateau": lambda o: lr_scheduler.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1,
                                                                  min_lr=[0.02, 0.001]),
    "ReduceLROnPlateau_max_abs": lambda o: lr_scheduler.ReduceLROnPlateau(
        o, mode="max", threshold=0.05, threshold_mode="abs", patience=1, factor=0.1),
}

EXPECTED_LRS = {
    'StepLR': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.05, 0.005], [0.05, 0.005], [0.05, 0.005],
        [0.05, 0.005], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025], [0.0125, 0.00125],
        [0.0125, 0.00125], [0.0125, 0.00125], [0.0125, 0.00125],
    ],
    'MultiStepLR': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.03, 0.003], [0.03, 0.003], [0.03, 0.003], [0.03, 0.003],
        [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027],
        [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027], [0.0008099999999999998, 8.1e-05],
        [0.0008099999999999998, 8.1e-05], [0.0008099999999999998, 8.1e-05], [0.0008099999999999998, 8.1e-05],
    ],
    'ExponentialLR': [
        [0.1, 0.01], [0.08000000000000002, 0.008], [0.06400000000000002, 0.0064], [0.051200000000000016, 0.00512],
        [0.04096000000000002, 0.004096000000000001], [0.03276800000000001, 0.0032768000000000007],
        [0.026214400000000013, 0.002621440000000001], [0.02097152000000001, 0.002097152000000001],
        [0.016777216000000008, 0.001677721600000001], [0.013421772800000007, 0.0013421772800000008],
        [0.010737418240000006, 0.0010737418240000006], [0.008589934592000005, 0.0008589934592000006],
        [0.0068719476736000045, 0.0006871947673600005], [0.005497558138880004, 0.0005497558138880005],
        [0.004398046511104004, 0.0004398046511104004], [0.0035184372088832034, 0.00035184372088832035],
    ],
    'CosineAnnealingLR': [
        [0.1, 0.01], [0.09336825748732973, 0.009397114317029977], [0.07525000000000001, 0.007750000000000002],
        [0.0505, 0.0055000000000000005], [0.025750000000000012, 0.003250000000000001],
        [0.007631742512670284, 0.0016028856829700259], [0.001, 0.001],
        [0.007631742512670284, 0.0016028856829700259], [0.025750000000000002, 0.0032500000000000003],
        [0.05050000000000004, 0.005500000000000003], [0.07525000000000008, 0.007750000000000007],
        [0.0933682574873298, 0.00939711431702998], [0.1000000000000001, 0.010000000000000009],
        [0.09336825748732981, 0.00939711431702998], [0.07525000000000011, 0.007750000000000007],
        [0.050500000000000114, 0.005500000000000008],
    ],
    'LambdaLR': [
        [0.1, 0.01], [0.05, 0.005], [0.03333333333333333, 0.003333333333333333], [0.025, 0.0025],
        [0.020000000000000004, 0.002], [0.016666666666666666, 0.0016666666666666666],
        [0.014285714285714285, 0.0014285714285714286], [0.0125, 0.00125],
        [0.011111111111111112, 0.0011111111111111111], [0.010000000000000002, 0.001],
        [0.009090909090909092, 0.0009090909090909091], [0.008333333333333333, 0.0008333333333333333],
        [0.007692307692307693, 0.0007692307692307693], [0.007142857142857143, 0.0007142857142857143],
        [0.006666666666666667, 0.0006666666666666666], [0.00625, 0.000625],
    ],
    'LambdaLR_list': [
        [0.1, 0.01], [0.09000000000000001, 0.02], [0.08100000000000002, 0.03], [0.0729, 0.04], [0.06561, 0.05],
        [0.05904900000000001, 0.06], [0.05314410000000001, 0.07], [0.04782969000000001, 0.08],
        [0.04304672100000001, 0.09], [0.03874204890000001, 0.1], [0.03486784401000001, 0.11],
        [0.031381059609000006, 0.12], [0.028242953648100012, 0.13], [0.02541865828329001, 0.14],
        [0.02287679245496101, 0.15], [0.02058911320946491, 0.16],
    ],
    'OneCycleLR_cos': [
        [0.040000000000000036, 0.0040000000000000036], [0.2207248951078079, 0.022072489510780793],
        [0.6268100482990309, 0.0626810048299031], [0.9524650565931612, 0.09524650565931612],
        [0.9944154354509117, 0.09944154354509119], [0.9504846320134737, 0.09504846320134738],
        [0.8665264698111694, 0.08665264698111695], [0.750001, 0.0750001], [0.6112620219362893, 0.06112620219362893],
        [0.46263710266697505, 0.046263710266697504], [0.31733221849885124, 0.03173322184988512],
        [0.18825834605023697, 0.0188258346050237], [0.08688426531955129, 0.008688426531955128],
        [0.02221750825254118, 0.002221750825254118], [4e-06, 4e-07], [0.022217508252541235, 0.0022217508252541235],
    ],
    'OneCycleLR_cos_momentum': [
        [0.95, 0.95], [0.9311744900929366, 0.9311744900929366], [0.8888739533021842, 0.8888739533021842],
        [0.854951556604879, 0.854951556604879], [0.8505584586887436, 0.8505584586887436],
        [0.854951556604879, 0.854951556604879], [0.8633474064085087, 0.8633474064085087], [0.875, 0.875],
        [0.8888739533021842, 0.8888739533021842], [0.9037365046793212, 0.9037365046793212],
        [0.9182670512183198, 0.9182670512183198], [0.9311744900929366, 0.9311744900929366],
        [0.9413119387157997, 0.9413119387157997], [0.947778640289307, 0.947778640289307], [0.95, 0.95],
        [0.947778640289307, 0.947778640289307],
    ],
    'OneCycleLR_linear3': [
        [0.05, 0.05], [0.21363636363636362, 0.21363636363636362], [0.37727272727272726, 0.37727272727272726],
        [0.4590909090909091, 0.4590909090909091], [0.29545454545454547, 0.29545454545454547],
        [0.13181818181818178, 0.13181818181818178], [0.04708823529411765, 0.04708823529411765],
        [0.04126470588235294, 0.04126470588235294], [0.03544117647058824, 0.03544117647058824],
        [0.029617647058823533, 0.029617647058823533], [0.023794117647058823, 0.023794117647058823],
        [0.01797058823529412, 0.01797058823529412], [0.012147058823529414, 0.012147058823529414],
        [0.006323529411764707, 0.006323529411764707], [0.0005000000000000004, 0.0005000000000000004],
        [-0.005323529411764706, -0.005323529411764706],
    ],
    'OneCycleLR_linear3_momentum': [
        [0.95, 0.95], [0.9136363636363636, 0.9136363636363636], [0.8772727272727272, 0.8772727272727272],
        [0.859090909090909, 0.859090909090909], [0.8954545454545454, 0.8954545454545454],
        [0.9318181818181818, 0.9318181818181818], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95],
        [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95],
    ],
    'OneCycleLR_adam': [
        [0.008000000000000007, 0.008000000000000007], [0.04414497902156159, 0.04414497902156159],
        [0.1253620096598062, 0.1253620096598062], [0.19049301131863225, 0.19049301131863225],
        [0.19888308709018238, 0.19888308709018238], [0.19009692640269477, 0.19009692640269477],
        [0.1733052939622339, 0.1733052939622339], [0.1500002, 0.1500002],
        [0.12225240438725786, 0.12225240438725786], [0.09252742053339501, 0.09252742053339501],
        [0.06346644369977024, 0.06346644369977024], [0.0376516692100474, 0.0376516692100474],
        [0.017376853063910257, 0.017376853063910257], [0.004443501650508236, 0.004443501650508236], [8e-07, 8e-07],
        [0.004443501650508247, 0.004443501650508247],
    ],
    'OneCycleLR_adam_momentum': [
        [0.9, 0.9], [0.8811744900929367, 0.8811744900929367], [0.8388739533021843, 0.8388739533021843],
        [0.804951556604879, 0.804951556604879], [0.8005584586887436, 0.8005584586887436],
        [0.804951556604879, 0.804951556604879], [0.8133474064085088, 0.8133474064085088],
        [0.8250000000000001, 0.8250000000000001], [0.8388739533021843, 0.8388739533021843],
        [0.8537365046793213, 0.8537365046793213], [0.8682670512183198, 0.8682670512183198],
        [0.8811744900929367, 0.8811744900929367], [0.8913119387157997, 0.8913119387157997],
        [0.8977786402893071, 0.8977786402893071], [0.9, 0.9], [0.8977786402893071, 0.8977786402893071],
    ],
    'ReduceLROnPlateau': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.05, 0.005], [0.05, 0.005],
        [0.05, 0.005], [0.05, 0.005], [0.05, 0.005], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025],
        [0.025, 0.0025], [0.02, 0.00125], [0.02, 0.00125],
    ],
    'ReduceLROnPlateau_max_abs': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.010000000000000002, 0.001], [0.010000000000000002, 0.001],
        [0.0010000000000000002, 0.0001], [0.0010000000000000002, 0.0001], [0.00010000000000000003, 1e-05],
        [0.00010000000000000003, 1e-05], [1.0000000000000004e-05, 1.0000000000000002e-06],
        [1.0000000000000004e-05, 1.0000000000000002e-06], [1.0000000000000004e-06, 1.0000000000000002e-07],
        [1.0000000000000004e-06, 1.0000000000000002e-07], [1.0000000000000005e-07, 1.0000000000000004e-08],
        [1.0000000000000005e-07, 1.0000000000000004e-08], [1.0000000000000005e-08, 1.0000000000000004e-08],
    ],
}


def _optimizer(name: str) -> optim.Optimizer:
    groups = [{"params": [tinyframe.zeros(2, requires_grad=True)]},
              {"params": [tinyframe.zeros(1, requires_grad=True)], "lr": 0.01}]
    if name.endswith("adam"):
        return optim.Adam(groups, lr=0.1)
    return optim.SGD(groups, lr=0.1, momentum=0.9)


def _momentum(optimizer: optim.Optimizer) -> list:
    if isinstance(optimizer, optim.Adam):
        return [group["betas"][0] for group in optimizer.param_groups]
    return [group["momentum"] for group in optimizer.param_groups]


def _step(optimizer: optim.Optimizer, scheduler: lr_scheduler.LRScheduler, i: int) -> None:
    optimizer.step()
    if isinstance(scheduler, lr_scheduler.ReduceLROnPlateau):
        scheduler.step(METRICS[i])
    else:
        scheduler.step()


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_matches_pytorch_over_15_steps(name):
    optimizer = _optimizer(name)
    scheduler = SCHEDULERS[name](optimizer)
    lrs, momenta = [scheduler.get_last_lr()], [_momentum(optimizer)]
    for i in range(15):
        _step(optimizer, scheduler, i)
        lrs.append(scheduler.get_last_lr())
        momenta.append(_momentum(optimizer))
        assert [group["lr"] for group in optimizer.param_groups] == lrs[-1]
    assert lrs == [pytest.approx(row, rel=1e-12) for row in EXPECTED_LRS[name]]
    if name + "_momentum" in EXPECTED_LRS:
        assert momenta == [pytest.approx(row, rel=1e-12) for row in EXPECTED_LRS[name + "_momentum"]]


def test_scheduler_sets_initial_lr_and_base_lrs():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    assert [group["initial_lr"] for group in optimizer.param_groups] == [0.1, 0.01]
    assert scheduler.base_lrs == [0.1, 0.01]
    assert scheduler.last_epoch == 0 and scheduler.get_last_lr() == [0.1, 0.01]


@pytest.mark.parametrize("make, epoch, expected", [
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001), 4,
     [0.025750000000000012, 0.003250000000000001]),
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001), 9, [0.05049999999999999, 0.0055]),
    (lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3), 8,
     [0.0026999999999999997, 0.00026999999999999995]),
    (lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5), 9, [0.025, 0.0025]),
    (lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8), 3, [0.051200000000000016, 0.005120000000000001]),
], ids=["cosine-4", "cosine-9", "multistep", "step", "exponential"])
def test_step_with_an_epoch_uses_the_closed_form_and_warns(make, epoch, expected):
    optimizer = _optimizer("sgd")
    scheduler = make(optimizer)
    optimizer.step()
    with pytest.warns(UserWarning, match="epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        scheduler.step(epoch)
    assert scheduler.last_epoch == epoch
    assert scheduler.get_last_lr() == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_state_dict_round_trip_resumes_identically(name):
    optimizer = _optimizer(name)
    scheduler = SCHEDULERS[name](optimizer)
    for i in range(6):
        _step(optimizer, scheduler, i)
    saved_optimizer = copy.deepcopy(optimizer.state_dict())
    saved_scheduler = copy.deepcopy(scheduler.state_dict())
    assert "optimizer" not in saved_scheduler
    resumed_optimizer = _optimizer(name)
    resumed = SCHEDULERS[name](resumed_optimizer)       # create the scheduler first, then load both
    resumed_optimizer.load_state_dict(saved_optimizer)
    resumed.load_state_dict(saved_scheduler)
    assert resumed.get_last_lr() == scheduler.get_last_lr()
    for i in range(6, 15):
        _step(optimizer, scheduler, i)
        _step(resumed_optimizer, resumed, i)
        assert resumed.get_last_lr() == scheduler.get_last_lr()
        assert _momentum(resumed_optimizer) == _momentum(optimizer)


def test_state_dict_holds_pytorch_keys():
    scheduler = lr_scheduler.MultiStepLR(_optimizer("sgd"), milestones=[2, 4])
    assert sorted(scheduler.state_dict()) == ["_get_lr_called_within_step", "_is_initial", "_last_lr",
                                              "_step_count", "base_lrs", "gamma", "last_epoch", "milestones"]
    plateau = lr_scheduler.ReduceLROnPlateau(_optimizer("sgd"))
    assert sorted(plateau.state_dict()) == ["_last_lr", "best", "cooldown", "cooldown_counter", "default_min_lr",
                                            "eps", "factor", "last_epoch", "min_lrs", "mode", "mode_worse",
                                            "num_bad_epochs", "patience", "threshold", "threshold_mode"]


def test_lambda_lr_state_dict_saves_callable_objects_but_not_functions():
    class Warmup:
        def __init__(self) -> None:
            self.factor = 2.0

        def __call__(self, epoch: int) -> float:
            return self.factor * (epoch + 1)

    warmup = Warmup()
    scheduler = lr_scheduler.LambdaLR(_optimizer("sgd"), lr_lambda=[warmup, lambda e: 1.0])
    state = scheduler.state_dict()
    assert state["lr_lambdas"] == [{"factor": 2.0}, None]
    state["lr_lambdas"][0]["factor"] = 3.0
    scheduler.load_state_dict(state)
    assert warmup.factor == 3.0


def test_reduce_lr_on_plateau_accepts_a_tensor_metric():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, factor=0.5)
    scheduler.step(tinyframe.tensor(1.0))
    scheduler.step(tinyframe.tensor(2.0))
    assert scheduler.get_last_lr() == [0.05, 0.005]


def test_scheduler_step_before_optimizer_step_warns():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        scheduler.step()
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    optimizer.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scheduler.step()


def test_get_lr_outside_step_warns():
    scheduler = lr_scheduler.StepLR(_optimizer("sgd"), step_size=2)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        scheduler.get_lr()


def test_scheduler_errors_match_pytorch():
    optimizer = _optimizer("sgd")
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        lr_scheduler.StepLR([], step_size=1)
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.StepLR(optimizer, step_size=1, last_epoch=3)
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        lr_scheduler.LambdaLR(optimizer, lr_lambda=[lambda e: 1.0])
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(optimizer, factor=1.0)
    with pytest.raises(ValueError, match="mode maximum is unknown!"):
        lr_scheduler.ReduceLROnPlateau(optimizer, mode="maximum")
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=0.1)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=10, pct_start=1)
    with pytest.raises(ValueError, match="max_lr must have the same length as optimizer.param_groups"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=[0.1], total_steps=10)
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        lr_scheduler.OneCycleLR(optim.Adagrad([tinyframe.zeros(1, requires_grad=True)]), max_lr=0.1, total_steps=5)


def test_one_cycle_lr_raises_past_its_total_steps():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=2)
    optimizer.step()
    scheduler.step()
    scheduler.step()
    with pytest.raises(ValueError, match="Tried to step 3 times. The specified number of total steps is 2"):
        scheduler.step()
