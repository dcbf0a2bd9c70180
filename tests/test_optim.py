"""tinyframe.optim: each optimizer against PyTorch's numbers, hand-derived first steps, parameter
groups, zero_grad, state_dict round trips and PyTorch's errors.

The expected values were produced by torch 2.13's optimizers from the same initial weights and the
same gradient rule (``grad = 2 * scale * (p - target)``, computed in float32) and are hard-coded.
"""
from __future__ import annotations

import copy
import re
from collections import OrderedDict

import numpy as np
import pytest

import tinyframe
import tinyframe.optim as optim

W0 = np.array([[0.5, -1.2, 2.0], [0.3, 0.0, -0.7]], dtype=np.float32)
B0 = np.array([0.1, -0.2, 0.3], dtype=np.float32)
TARGET_W = np.array([[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]], dtype=np.float32)
TARGET_B = np.array([0.5, 0.5, 0.5], dtype=np.float32)
SCALE_W = np.array([[1.0, 2.0, 0.5], [3.0, 0.1, 1.0]], dtype=np.float32)
SCALE_B = np.array([1.0, 1.0, 1.0], dtype=np.float32)
STEPS = 8

# (optimizer, hyper-parameters, w and b after STEPS steps in torch 2.13)
EXPECTED = [
    ('Adafactor', dict(),
     [[0.51365727186203, -1.0948477983474731, 1.9098180532455444],
      [0.18078382313251495, -0.0028106593526899815, -0.7591509222984314]],
     [0.11734526604413986, -0.18259619176387787, 0.31720593571662903]),
    ('Adafactor', dict(lr=0.05, weight_decay=0.1),
     [[0.5450432896614075, -0.7031127214431763, 1.5501850843429565],
      [-0.2227986752986908, -0.01367393508553505, -0.895409345626831]],
     [0.18184350430965424, -0.10505182296037674, 0.37073442339897156]),
    ('Adafactor', dict(lr=0.1, beta2_decay=-0.5, eps=(1e-4, 1e-2), d=1.5, maximize=True),
     [[0.3400499224662781, -2.8114562034606934, 3.2400107383728027],
      [1.9323257207870483, 0.028966886922717094, 0.42829298973083496]],
     [-0.07466917484998703, -0.3723188042640686, 0.12096979469060898]),
    ('SGD', dict(lr=0.1),
     [[0.916114, 0.96304846, 1.4304671], [-0.999148, -0.14923698, -0.94966835]],
     [0.43289113, 0.38255948, 0.4664456]),
    ('SGD', dict(lr=0.1, momentum=0.9),
     [[1.2614077, -0.082564875, 0.4467766], [-0.24718459, -0.5115778, -1.1568447]],
     [0.70912623, 0.8659709, 0.6045631]),
    ('SGD', dict(lr=0.05, momentum=0.9, dampening=0.5, weight_decay=0.1),
     [[1.0688919, 2.4523344, 1.1422629], [-1.8001187, -0.16380636, -1.0173818]],
     [0.5730786, 0.65034366, 0.5215684]),
    ('SGD', dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
     [[1.1904038, 1.3850262, 0.89173734], [-0.90589166, -0.30919424, -1.1114668]],
     [0.65440464, 0.7728102, 0.5754677]),
    ('SGD', dict(lr=0.05, momentum=0.5, weight_decay=0.1, maximize=True),
     [[-0.6564326, -16.292027, 2.695658], [21.131466, 0.14350706, 0.037914235]],
     [-0.79210514, -1.7198828, -0.17358665]),
    ('Adam', dict(lr=0.1),
     [[1.156946, -0.41083142, 1.2362636], [-0.4766448, -0.76373625, -1.1405494]],
     [0.67693406, 0.5287637, 0.5358445]),
    ('Adam', dict(lr=0.1, betas=(0.9, 0.5), amsgrad=True),
     [[1.1048249, -0.4064762, 1.257701], [-0.4667388, -0.74229884, -1.1262754]],
     [0.63691837, 0.4833287, 0.55514383]),
    ('Adam', dict(lr=0.1, betas=(0.9, 0.5)),
     [[1.2896181, -0.35991862, 1.0692924], [-0.58364546, -0.9307074, -1.1485255]],
     [0.73705447, 0.77825063, 0.51053935]),
    ('Adam', dict(lr=0.1, weight_decay=0.1, betas=(0.8, 0.99), eps=1e-06),
     [[1.0782676, -0.41952127, 1.2499005], [-0.46067423, -0.6885162, -1.0012895]],
     [0.5997796, 0.4912532, 0.45040682]),
    ('Adam', dict(lr=0.1, betas=(0.3, 0.5), maximize=True),
     [[-0.32567102, -2.009689, 2.8173325], [1.1144831, 0.8173326, 0.13151725]],
     [-0.7283336, -1.0215516, -0.5352213]),
    ('AdamW', dict(lr=0.1),
     [[1.152552, -0.40418673, 1.2242374], [-0.4762451, -0.7611329, -1.1380085]],
     [0.67496884, 0.5276728, 0.53477085]),
    ('AdamW', dict(lr=0.1, weight_decay=0.1, amsgrad=True),
     [[1.1133723, -0.3468351, 1.1212623], [-0.47242045, -0.7381526, -1.1164142]],
     [0.65766555, 0.51787806, 0.52606064]),
    ('RMSprop', dict(lr=0.01),
     [[0.84770477, -0.77747554, 1.60138], [-0.109101325, -0.3986199, -0.97415197]],
     [0.42003396, 0.17779374, 0.4982822]),
    ('RMSprop', dict(lr=0.01, centered=True),
     [[0.8517807, -0.76986563, 1.5948955], [-0.11608589, -0.40510443, -0.97553086]],
     [0.42294025, 0.18327528, 0.49843442]),
    ('RMSprop', dict(lr=0.01, momentum=0.9),
     [[1.3571818, 0.42821923, 0.6362364], [-1.1829144, -1.3637632, -1.110188]],
     [0.7581458, 0.93469834, 0.43639022]),
    ('RMSprop', dict(lr=0.01, alpha=0.3, centered=True, momentum=0.5, weight_decay=0.1),
     [[0.95435685, -0.07192236, 1.2018174], [-0.5708828, -0.59620297, -0.96625984]],
     [0.49173504, 0.40166464, 0.47106248]),
    ('RMSprop', dict(lr=0.01, maximize=True, eps=0.001),
     [[0.0064560175, -1.6554406, 2.4692676], [0.76512283, 0.45829034, -0.18435897]],
     [-0.4027728, -0.68128544, -0.23453043]),
    ('Adagrad', dict(lr=0.1),
     [[0.8455879, -0.780387, 1.6041051], [-0.10628528, -0.3958948, -0.97313315]],
     [0.41832444, 0.17528734, 0.4980994]),
    ('Adagrad', dict(lr=0.1, lr_decay=0.1, weight_decay=0.1),
     [[0.79109037, -0.8564594, 1.6684817], [-0.035265774, -0.314412, -0.92775387]],
     [0.37528664, 0.11506538, 0.47331455]),
    ('Adagrad', dict(lr=0.1, initial_accumulator_value=0.5, eps=1e-05, maximize=True),
     [[0.045139883, -1.6520945, 2.429513], [0.7616445, 0.20960875, -0.26372677]],
     [-0.34897217, -0.65845454, -0.107774235]),
    ('Rprop', dict(),
     [[0.66499084, -1.0350093, 1.8350092], [0.13500917, -0.16499087, -0.86499083]],
     [0.26499087, -0.03500914, 0.46499088]),
    ('Rprop', dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(0.01, 0.2)),
     [[0.9562501, 0.0062499344, 0.9937499], [-0.90625, -1.00625, -0.9796876]],
     [0.47081253, 0.54625, 0.46831253]),
    ('Rprop', dict(maximize=True),
     [[0.33500913, -1.3649908, 2.1649911], [0.46499088, 0.16499087, -0.53500915]],
     [-0.06499086, -0.3649909, 0.13500917]),
    ('ASGD', dict(lr=0.1),
     [[0.9160763, 0.9630236, 1.430382], [-0.9991312, -0.14922816, -0.9496291]],
     [0.43287352, 0.38254425, 0.4664263]),
    ('ASGD', dict(lr=0.1, lambd=0.1, alpha=0.5, t0=3, weight_decay=0.1),
     [[0.8508731, 0.9220119, 1.2606885], [-0.9670578, -0.13727187, -0.8793351]],
     [0.40409008, 0.361397, 0.43255207]),
    ('ASGD', dict(lr=0.05, t0=0, maximize=True),
     [[-0.071802385, -8.4592, 2.4773438], [9.604034, 0.082854114, -0.35689563]],
     [-0.35742477, -1.0004717, 0.07127335]),
    ('Adadelta', dict(),
     [[0.5263407, -1.1733418, 1.9734536], [0.2734064, -0.026542887, -0.7260657]],
     [0.12623774, -0.1735417, 0.3257205]),
    ('Adadelta', dict(lr=0.5, rho=0.5, eps=0.001, weight_decay=0.1),
     [[0.72214895, -0.9557697, 1.761234], [0.05937936, -0.22304387, -0.89449126]],
     [0.31562445, 0.032013986, 0.46319845]),
    ('Adadelta', dict(maximize=True),
     [[0.4728412, -1.2268441, 2.0269551], [0.3269083, 0.026951853, -0.6725712]],
     [0.07273979, -0.22704265, 0.2722357]),
    ('Adamax', dict(lr=0.1),
     [[1.0325495, -0.4665372, 1.3433621], [-0.38831502, -0.65663797, -1.0971857]],
     [0.5780023, 0.40090266, 0.56893015]),
    ('Adamax', dict(lr=0.1, betas=(0.5, 0.9), weight_decay=0.1, eps=0.001),
     [[0.97836715, -0.36757162, 1.1909741], [-0.5403288, -0.6376568, -0.95369333]],
     [0.5013342, 0.44429448, 0.466165]),
    ('Adamax', dict(lr=0.1, maximize=True),
     [[-0.18205975, -1.955932, 2.7216003], [1.0344777, 0.72160023, -0.049726516]],
     [-0.5682616, -0.9020809, -0.3253884]),
    ('NAdam', dict(lr=0.1),
     [[0.95985913, -0.59147704, 1.4377872], [-0.28279072, -0.5622128, -1.0233519]],
     [0.505724, 0.32049727, 0.51228535]),
    ('NAdam', dict(lr=0.1, momentum_decay=0.1, weight_decay=0.1),
     [[0.9374665, -0.59362024, 1.4313031], [-0.28063834, -0.51287484, -0.9737791]],
     [0.48987883, 0.31502506, 0.48523998]),
    ('NAdam', dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True, betas=(0.8, 0.9)),
     [[0.96552247, -0.44492066, 1.2606755], [-0.35895625, -0.6141646, -1.0083525]],
     [0.5131661, 0.37326005, 0.50264496]),
    ('NAdam', dict(lr=0.1, maximize=True),
     [[-0.23221083, -1.8682683, 2.6952362], [0.98452187, 0.695236, 0.065023944]],
     [-0.64625174, -0.91278124, -0.49100962]),
    ('RAdam', dict(lr=0.1),
     [[0.9067318, 1.558862, 1.5432781], [-1.5775542, -0.10748859, -0.94705015]],
     [0.4268924, 0.36640698, 0.4672008]),
    ('RAdam', dict(lr=0.1, betas=(0.9, 0.5), weight_decay=0.1),
     [[0.9941251, 1.7687477, 1.230248], [-1.3074046, -0.15079412, -0.9756698]],
     [0.510904, 0.538587, 0.4924487]),
    ('RAdam', dict(lr=0.1, betas=(0.5, 0.6), weight_decay=0.1, decoupled_weight_decay=True),
     [[0.916147, 1.0775349, 1.302266], [-0.9703825, -0.14599228, -0.9321662]],
     [0.44605908, 0.42203015, 0.46207827]),
    ('RAdam', dict(lr=0.1, betas=(0.9, 0.6), maximize=True),
     [[-0.667014, -15.775888, 2.9697993], [18.207329, 0.16638158, 0.00020834059]],
     [-0.83361125, -1.8338195, -0.16680554]),
]


def _host(t: tinyframe.Tensor) -> np.ndarray:
    return np.asarray(t.detach().cpu())


def _params(device: str) -> tuple:
    return (tinyframe.tensor(W0, requires_grad=True, device=device),
            tinyframe.tensor(B0, requires_grad=True, device=device))


def _set_quadratic_grads(w: tinyframe.Tensor, b: tinyframe.Tensor) -> None:
    """grad of sum(scale * (p - target)**2), computed in float32 exactly as for the torch reference."""
    w.grad = tinyframe.tensor(np.float32(2) * SCALE_W * (_host(w) - TARGET_W), device=w.device)
    b.grad = tinyframe.tensor(np.float32(2) * SCALE_B * (_host(b) - TARGET_B), device=b.device)


def _run(optimizer: optim.Optimizer, w: tinyframe.Tensor, b: tinyframe.Tensor, steps: int) -> None:
    for _ in range(steps):
        _set_quadratic_grads(w, b)
        optimizer.step()


@pytest.mark.parametrize("name, options, expected_w, expected_b", EXPECTED,
                         ids=[f"{name}-{'-'.join(options)}" for name, options, _, _ in EXPECTED])
def test_optimizer_matches_pytorch_over_several_steps(device, name, options, expected_w, expected_b):
    w, b = _params(device)
    optimizer = getattr(optim, name)([w, b], **options)
    _run(optimizer, w, b, STEPS)
    assert w.dtype == tinyframe.float32 and b.dtype == tinyframe.float32
    np.testing.assert_allclose(_host(w), np.array(expected_w, dtype=np.float32), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_host(b), np.array(expected_b, dtype=np.float32), rtol=1e-5, atol=1e-6)


# ----------------------------------------------------------------- hand-derived first steps
def _quadratic_backward(p: tinyframe.Tensor, target: np.ndarray) -> None:
    """loss = sum((p - target)**2) through autograd: grad = 2 (p - target)."""
    loss = ((p - tinyframe.tensor(target, device=p.device)) ** 2).sum()
    loss.backward()


def test_sgd_momentum_first_two_steps_follow_the_formula(device):
    p0, target = np.array([1.0, -2.0, 0.5]), np.array([0.0, 1.0, 1.0])
    lr, mu, tau = 0.1, 0.9, 0.25
    p = tinyframe.tensor(p0, dtype=tinyframe.float32, requires_grad=True, device=device)
    optimizer = optim.SGD([p], lr=lr, momentum=mu, dampening=tau)
    g1 = 2 * (p0 - target)
    b1 = g1                                     # the first buffer is the gradient, undampened
    p1 = p0 - lr * b1
    g2 = 2 * (p1 - target)
    b2 = mu * b1 + (1 - tau) * g2
    p2 = p1 - lr * b2
    for expected_p, expected_b in ((p1, b1), (p2, b2)):
        optimizer.zero_grad()
        _quadratic_backward(p, target)
        optimizer.step()
        np.testing.assert_allclose(_host(p), expected_p, rtol=1e-6)
        np.testing.assert_allclose(_host(optimizer.state[p]["momentum_buffer"]), expected_b, rtol=1e-6)


def test_adam_first_two_steps_follow_the_formula(device):
    p0, target = np.array([1.0, -2.0, 0.5]), np.array([0.0, 1.0, 1.0])
    lr, beta1, beta2, eps = 0.01, 0.9, 0.999, 1e-8
    p = tinyframe.tensor(p0, dtype=tinyframe.float32, requires_grad=True, device=device)
    optimizer = optim.Adam([p], lr=lr, betas=(beta1, beta2), eps=eps)
    g1 = 2 * (p0 - target)
    m1, v1 = (1 - beta1) * g1, (1 - beta2) * g1 ** 2
    p1 = p0 - lr * (m1 / (1 - beta1)) / (np.sqrt(v1 / (1 - beta2)) + eps)
    g2 = 2 * (p1 - target)
    m2, v2 = beta1 * m1 + (1 - beta1) * g2, beta2 * v1 + (1 - beta2) * g2 ** 2
    p2 = p1 - lr * (m2 / (1 - beta1 ** 2)) / (np.sqrt(v2 / (1 - beta2 ** 2)) + eps)
    for t, (expected_p, expected_m, expected_v) in enumerate(((p1, m1, v1), (p2, m2, v2)), start=1):
        optimizer.zero_grad()
        _quadratic_backward(p, target)
        optimizer.step()
        state = optimizer.state[p]
        assert state["step"].item() == t
        np.testing.assert_allclose(_host(p), expected_p, rtol=1e-6)
        np.testing.assert_allclose(_host(state["exp_avg"]), expected_m, rtol=1e-5)
        np.testing.assert_allclose(_host(state["exp_avg_sq"]), expected_v, rtol=1e-5)


def test_adamw_decays_the_weights_outside_the_moments():
    p = tinyframe.tensor([2.0, -4.0], requires_grad=True)
    optimizer = optim.AdamW([p], lr=0.1, weight_decay=0.5)
    p.grad = tinyframe.tensor([0.0, 0.0])
    optimizer.step()
    # a zero gradient leaves the moments at 0, so only the decay p *= 1 - lr * wd moves p
    np.testing.assert_allclose(_host(p), [2.0 * 0.95, -4.0 * 0.95], rtol=1e-6)
    assert not _host(optimizer.state[p]["exp_avg"]).any()


# ----------------------------------------------------------------- groups, grads and dtypes
ALL_OPTIMIZERS = [
    (optim.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.01)),
    (optim.Adam, dict(lr=0.1, amsgrad=True)),
    (optim.AdamW, dict(lr=0.1)),
    (optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True)),
    (optim.Adagrad, dict(lr=0.1, lr_decay=0.01)),
    (optim.Adadelta, dict(rho=0.5, weight_decay=0.1)),
    (optim.Adamax, dict(lr=0.1)),
    (optim.NAdam, dict(lr=0.1, decoupled_weight_decay=True, weight_decay=0.1)),
    (optim.RAdam, dict(lr=0.1, betas=(0.9, 0.5))),
    (optim.Rprop, dict(lr=0.05)),
    (optim.ASGD, dict(lr=0.1, t0=1, weight_decay=0.1)),
    (optim.Adafactor, dict(lr=0.1, weight_decay=0.1)),
]
OPTIMIZER_IDS = [cls.__name__ for cls, _ in ALL_OPTIMIZERS]


@pytest.mark.parametrize("cls, options", ALL_OPTIMIZERS, ids=OPTIMIZER_IDS)
@pytest.mark.parametrize("dtype", [tinyframe.float32, tinyframe.float64], ids=["float32", "float64"])
def test_parameters_and_state_keep_their_dtype(device, cls, options, dtype):
    w = tinyframe.tensor(W0, dtype=dtype, requires_grad=True, device=device)
    optimizer = cls([w], **options)
    for _ in range(3):
        w.grad = tinyframe.tensor(_host(w) * 0.5 - 1, dtype=dtype, device=device)
        optimizer.step()
    assert w.dtype == dtype
    for key, value in optimizer.state[w].items():
        if key != "step":
            assert value.dtype == dtype, key
            assert value.device == w.device, key


@pytest.mark.parametrize("cls, options", ALL_OPTIMIZERS + [(optim.RAdam, dict(lr=0.1, weight_decay=0.1)),
                                                          (optim.NAdam, dict(lr=0.1, weight_decay=0.1))],
                         ids=OPTIMIZER_IDS + ["RAdam-l2", "NAdam-l2"])
def test_a_0_dim_parameter_steps_as_a_1_element_one(device, cls, options):
    # arithmetic on 0-dim arrays gives NumPy scalars, which the updates must take for arrays of their module
    scalar = tinyframe.tensor(1.5, requires_grad=True, device=device)
    vector = tinyframe.tensor([1.5], requires_grad=True, device=device)
    optimizers = [cls([scalar], **options), cls([vector], **options)]
    for _ in range(3):
        for p, optimizer in zip((scalar, vector), optimizers):
            optimizer.zero_grad()
            (p * p * 2).sum().backward()
            optimizer.step()
    assert scalar.shape == () and scalar.item() == pytest.approx(vector.item(), rel=1e-6)


@pytest.mark.parametrize("cls, options", ALL_OPTIMIZERS, ids=OPTIMIZER_IDS)
def test_numpy_float64_hyper_parameters_do_not_promote_float32(cls, options):
    w = tinyframe.tensor(W0, requires_grad=True)
    optimizer = cls([w], **{k: np.float64(v) if isinstance(v, float) else v for k, v in options.items()})
    optimizer.param_groups[0]["lr"] = np.float64(0.05)      # as a schedule computed with NumPy would set
    for _ in range(2):
        w.grad = tinyframe.tensor(np.ones_like(W0))
        optimizer.step()
    assert w.dtype == tinyframe.float32
    assert all(v.dtype == tinyframe.float32 for k, v in optimizer.state[w].items() if k != "step")


@pytest.mark.parametrize("cls, options", ALL_OPTIMIZERS, ids=OPTIMIZER_IDS)
def test_parameters_without_grad_are_skipped(cls, options):
    w, b = _params("cpu")
    optimizer = cls([w, b], **options)

    def b_state() -> dict:       # Adagrad creates its state with the optimizer, the others at a step
        return {key: _host(value).copy() for key, value in optimizer.state.get(b, {}).items()}

    state_before = b_state()
    w.grad = tinyframe.tensor(np.ones_like(W0))
    optimizer.step()
    assert not np.array_equal(_host(w), W0)
    np.testing.assert_array_equal(_host(b), B0)
    assert b._version == 0
    after = b_state()
    assert after.keys() == state_before.keys()
    assert all(np.array_equal(after[key], state_before[key]) for key in after)


def test_step_bumps_the_version_so_a_saved_parameter_raises_on_backward():
    w = tinyframe.tensor([1.0, 2.0], requires_grad=True)
    y = (w * w).sum()
    w.grad = tinyframe.tensor([1.0, 1.0])
    optim.SGD([w], lr=0.1).step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_param_groups_have_their_own_learning_rate():
    w, b = _params("cpu")
    optimizer = optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1)
    assert [group["lr"] for group in optimizer.param_groups] == [0.1, 0.01]
    assert optimizer.param_groups[1]["momentum"] == 0    # missing options take the defaults
    _set_quadratic_grads(w, b)
    grad_w, grad_b = _host(w.grad), _host(b.grad)
    optimizer.step()
    np.testing.assert_allclose(_host(w), W0 - np.float32(0.1) * grad_w, rtol=1e-6)
    np.testing.assert_allclose(_host(b), B0 - np.float32(0.01) * grad_b, rtol=1e-6)


def test_changing_lr_in_param_groups_takes_effect_at_the_next_step():
    p = tinyframe.tensor([1.0], requires_grad=True)
    optimizer = optim.SGD([p], lr=0.1)
    p.grad = tinyframe.tensor([1.0])
    optimizer.step()
    optimizer.param_groups[0]["lr"] = 0.5
    optimizer.step()
    np.testing.assert_allclose(_host(p), [1.0 - 0.1 - 0.5], rtol=1e-6)


def test_add_param_group_takes_defaults_and_is_stepped():
    w, b = _params("cpu")
    optimizer = optim.Adam([w], lr=0.1, betas=(0.8, 0.9))
    optimizer.add_param_group({"params": b, "lr": 0.2})
    group = optimizer.param_groups[1]
    assert group["params"] == [b] and group["lr"] == 0.2 and group["betas"] == (0.8, 0.9)
    _set_quadratic_grads(w, b)
    optimizer.step()
    assert optimizer.state[b]["step"].item() == 1
    # the first Adam step moves every element by about lr
    np.testing.assert_allclose(np.abs(_host(b) - B0), 0.2, rtol=1e-5)


def test_named_parameters_are_accepted_and_their_names_kept():
    w, b = _params("cpu")
    optimizer = optim.SGD([("weight", w), ("bias", b)], lr=0.1)
    assert optimizer.param_groups[0]["params"] == [w, b]
    assert optimizer.state_dict()["param_groups"][0]["param_names"] == ["weight", "bias"]


def test_zero_grad_sets_grads_to_none_by_default():
    w, b = _params("cpu")
    optimizer = optim.SGD([w, b], lr=0.1)
    _set_quadratic_grads(w, b)
    optimizer.zero_grad()
    assert w.grad is None and b.grad is None


def test_zero_grad_set_to_none_false_zeroes_in_place():
    w, b = _params("cpu")
    optimizer = optim.SGD([w, b], lr=0.1)
    _set_quadratic_grads(w, b)
    grad = w.grad
    optimizer.zero_grad(set_to_none=False)
    assert w.grad is grad
    assert not _host(w.grad).any() and not _host(b.grad).any()
    assert w.grad.dtype == tinyframe.float32 and not w.grad.requires_grad


def test_zero_grads_still_step_while_none_grads_do_not():
    p = tinyframe.tensor([1.0], requires_grad=True)
    optimizer = optim.SGD([p], lr=0.1, weight_decay=1.0)
    p.grad = tinyframe.tensor([1.0])
    optimizer.zero_grad(set_to_none=False)
    optimizer.step()
    np.testing.assert_allclose(_host(p), [0.9], rtol=1e-6)     # weight decay alone
    optimizer.zero_grad()
    optimizer.step()
    np.testing.assert_allclose(_host(p), [0.9], rtol=1e-6)


def test_step_evaluates_the_closure_with_grad_enabled_and_returns_its_loss():
    p = tinyframe.tensor([3.0], requires_grad=True)
    optimizer = optim.SGD([p], lr=0.25)

    def closure():
        optimizer.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with tinyframe.no_grad():
        loss = optimizer.step(closure)
    assert loss.item() == 9.0
    np.testing.assert_allclose(_host(p), [3.0 - 0.25 * 6.0])
    assert optimizer.step() is None


def test_repr_lists_each_group_options():
    optimizer = optim.SGD([tinyframe.tensor([1.0], requires_grad=True)], lr=0.1)
    text = repr(optimizer)
    assert text.startswith("SGD (\nParameter Group 0\n") and text.endswith(")")
    assert "    lr: 0.1\n" in text and "    momentum: 0\n" in text and "params" not in text
    # PyTorch 2.13's text for two groups: a blank line between them
    optimizer.add_param_group({"params": [tinyframe.tensor([2.0], requires_grad=True)], "lr": 0.5})
    group = ("    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n    lr: {}\n"
             "    maximize: False\n    momentum: 0\n    nesterov: False\n    weight_decay: 0\n")
    assert repr(optimizer) == ("SGD (\nParameter Group 0\n" + group.format(0.1) + "\nParameter Group 1\n"
                               + group.format(0.5) + ")")


# ----------------------------------------------------------------- state_dict
@pytest.mark.parametrize("cls, options", ALL_OPTIMIZERS, ids=OPTIMIZER_IDS)
def test_state_dict_round_trip_resumes_identically(cls, options):
    w, b = _params("cpu")
    optimizer = cls([{"params": [w]}, {"params": [b], "lr": 0.05}], **options)
    _run(optimizer, w, b, 3)
    saved = copy.deepcopy(optimizer.state_dict())
    w2, b2 = (tinyframe.tensor(_host(t), requires_grad=True) for t in (w, b))
    with pytest.raises(ValueError, match="different number of parameter groups"):
        cls([w2, b2], **options).load_state_dict(saved)
    resumed = cls([{"params": [w2]}, {"params": [b2]}], **options)
    resumed.load_state_dict(saved)
    assert [g["lr"] for g in resumed.param_groups] == [g["lr"] for g in optimizer.param_groups]
    assert resumed.param_groups[0]["params"] == [w2]
    _run(optimizer, w, b, 3)
    _run(resumed, w2, b2, 3)
    np.testing.assert_array_equal(_host(w2), _host(w))
    np.testing.assert_array_equal(_host(b2), _host(b))


def test_state_dict_is_in_pytorch_format():
    w, b = _params("cpu")
    optimizer = optim.Adam([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1)
    _set_quadratic_grads(w, b)
    optimizer.step()
    state_dict = optimizer.state_dict()
    assert set(state_dict) == {"state", "param_groups"}
    assert set(state_dict["state"]) == {0, 1}
    assert set(state_dict["state"][0]) == {"step", "exp_avg", "exp_avg_sq"}
    assert all(isinstance(v, tinyframe.Tensor) for v in state_dict["state"][1].values())
    assert [g["params"] for g in state_dict["param_groups"]] == [[0], [1]]
    assert list(state_dict["param_groups"][1].items()) == [
        ("lr", 0.01), ("betas", (0.9, 0.999)), ("eps", 1e-08), ("weight_decay", 0), ("amsgrad", False),
        ("maximize", False), ("foreach", None), ("capturable", False), ("differentiable", False), ("fused", None),
        ("decoupled_weight_decay", False), ("params", [1])]


def test_adagrad_creates_its_state_with_the_optimizer():
    w, b = _params("cpu")
    optimizer = optim.Adagrad([w, b], initial_accumulator_value=0.25)
    state = optimizer.state_dict()["state"]
    assert state[0]["step"].item() == 0
    np.testing.assert_array_equal(_host(state[1]["sum"]), np.full(3, 0.25, dtype=np.float32))


def test_load_state_dict_rejects_a_parameter_count_mismatch():
    w, b = _params("cpu")
    optimizer = optim.SGD([w, b], lr=0.1, momentum=0.9)
    saved = optimizer.state_dict()
    other = optim.SGD([w], lr=0.1, momentum=0.9)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        other.load_state_dict(saved)


def test_load_state_dict_copies_and_casts_the_state_to_each_parameter(device):
    w = tinyframe.tensor(W0, dtype=tinyframe.float64, requires_grad=True)
    optimizer = optim.Adam([w], lr=0.1)
    w.grad = tinyframe.tensor(np.ones_like(W0), dtype=tinyframe.float64)
    optimizer.step()
    w32 = tinyframe.tensor(W0, requires_grad=True, device=device)
    resumed = optim.Adam([w32], lr=0.1)
    resumed.load_state_dict(optimizer.state_dict())
    state = resumed.state[w32]
    assert state["exp_avg"].dtype == tinyframe.float32 and state["exp_avg"].device == w32.device
    assert state["step"].item() == 1 and state["step"].device == tinyframe.device("cpu")
    assert state["step"] is not optimizer.state[w]["step"]
    w.grad = tinyframe.tensor(np.ones_like(W0), dtype=tinyframe.float64)
    optimizer.step()                                  # the original goes on; the copy does not move
    assert state["step"].item() == 1
    np.testing.assert_allclose(_host(state["exp_avg"]), np.full_like(W0, 0.1), rtol=1e-6)


def test_state_dict_survives_tinyframe_save_and_load(tmp_path):
    if not hasattr(tinyframe, "save"):
        pytest.skip("tinyframe.save is not available yet")
    w, b = _params("cpu")
    optimizer = optim.Adam([w, b], lr=0.1)
    _run(optimizer, w, b, 2)
    path = tmp_path / "optimizer.pt"
    tinyframe.save(optimizer.state_dict(), path)
    w2, b2 = (tinyframe.tensor(_host(t), requires_grad=True) for t in (w, b))
    resumed = optim.Adam([w2, b2], lr=0.1)
    resumed.load_state_dict(tinyframe.load(path))
    _run(optimizer, w, b, 2)
    _run(resumed, w2, b2, 2)
    np.testing.assert_array_equal(_host(w2), _host(w))


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("cls, options, message", [
    (optim.SGD, dict(lr=-1), "Invalid learning rate: -1"),
    (optim.SGD, dict(lr=0.1, momentum=-0.5), "Invalid momentum value: -0.5"),
    (optim.SGD, dict(lr=0.1, weight_decay=-1e-3), "Invalid weight_decay value: -0.001"),
    (optim.SGD, dict(lr=0.1, nesterov=True), "Nesterov momentum requires a momentum and zero dampening"),
    (optim.SGD, dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), "Nesterov momentum requires"),
    (optim.Adam, dict(lr=-0.1), "Invalid learning rate: -0.1"),
    (optim.Adam, dict(eps=-1.0), "Invalid epsilon value: -1.0"),
    (optim.Adam, dict(betas=(1.0, 0.999)), "Invalid beta parameter at index 0: 1.0"),
    (optim.Adam, dict(betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
    (optim.AdamW, dict(weight_decay=-1), "Invalid weight_decay value: -1"),
    (optim.RMSprop, dict(alpha=-0.5), "Invalid alpha value: -0.5"),
    (optim.RMSprop, dict(momentum=-1), "Invalid momentum value: -1"),
    (optim.Adagrad, dict(lr_decay=-1), "Invalid lr_decay value: -1"),
    (optim.Adagrad, dict(initial_accumulator_value=-1), "Invalid initial_accumulator_value value: -1"),
    (optim.Adadelta, dict(rho=1.5), "Invalid rho value: 1.5"),
    (optim.Adamax, dict(betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
    (optim.NAdam, dict(momentum_decay=-1), "Invalid momentum_decay value: -1"),
    (optim.RAdam, dict(eps=-1), "Invalid epsilon value: -1"),
    (optim.LBFGS, dict(lr=-1), "Invalid learning rate: -1"),
    (optim.Rprop, dict(etas=(1.5, 1.2)), "Invalid eta values: 1.5, 1.2"),
    (optim.ASGD, dict(weight_decay=-1), "Invalid weight_decay value: -1"),
    (optim.Adafactor, dict(lr=-1), "Learning rate should be >= 0 but is: -1"),
    (optim.Adafactor, dict(beta2_decay=0.1), "beta2_decay should be <= 0 but is: 0.1"),
    (optim.Adafactor, dict(eps=(-1, 1e-3)), "epsilon1 should be >= 0 but is: -1"),
    (optim.Adafactor, dict(eps=(None, -1)), "epsilon2 should be >= 0 but is: -1"),
    (optim.Adafactor, dict(d=0.5), "Clipping threshold d should be >= 1 but is: 0.5"),
    (optim.Adafactor, dict(weight_decay=-1), "weight_decay should be >= 0 but is: -1"),
    (optim.Muon, dict(lr=-1), "Learning rate should be >= 0 but is: -1"),
    (optim.Muon, dict(momentum=-1), "momentum should be >= 0 but is: -1"),
    (optim.Muon, dict(weight_decay=-1), "weight decay should be >= 0 but is: -1"),
    (optim.Muon, dict(adjust_lr_fn="x"), "Adjust learning rate function x is not supported"),
    (optim.SparseAdam, dict(lr=0), "Invalid learning rate: 0"),
    (optim.SparseAdam, dict(eps=0), "Invalid epsilon value: 0"),
    (optim.SparseAdam, dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
    (optim.SparseAdam, dict(betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
])
def test_bad_hyper_parameters_raise_pytorch_errors(cls, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        cls([tinyframe.tensor([1.0], requires_grad=True)], **options)


def test_a_non_leaf_tensor_cannot_be_optimized():
    x = tinyframe.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([x * 2], lr=0.1)


def test_params_in_a_set_are_rejected():
    x = tinyframe.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD({x}, lr=0.1)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": {x}}], lr=0.1)


def test_other_bad_params_raise_pytorch_errors():
    x = tinyframe.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts"):
        optim.SGD(x, lr=0.1)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors"):
        optim.SGD([x, 1.0], lr=0.1)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        optim.SGD([{"params": [x]}, {"params": [x]}], lr=0.1)


def test_state_follows_its_parameters_after_module_to(device: str) -> None:
    """Optimizer state moves with its parameter when the model is moved or cast after a step."""
    model = tinyframe.nn.Linear(3, 2).to(device)
    optimizer = tinyframe.optim.Adam(model.parameters(), lr=0.1)
    x = tinyframe.randn(4, 3, device=device)
    model(x).sum().backward()
    optimizer.step()
    model.double()
    optimizer.zero_grad()
    model(x.double()).sum().backward()
    optimizer.step()
    for param in model.parameters():
        state = optimizer.state[param]
        assert param.dtype == tinyframe.float64
        assert state["exp_avg"].dtype == tinyframe.float64 and state["exp_avg_sq"].device == param.device


# ----------------------------------------------------------------- LBFGS
# (options, loss returned by each of 3 steps, x and y after them, func_evals, n_iter) in torch 2.13, float64,
# on a Rosenbrock function of x plus a quartic in y.
LBFGS_EXPECTED = [
    (dict(), [323.2297, 1.8034509922966093, 0.5032174391022742],
     [0.8465568357495847, 0.7165490216173613, 0.5141280448568545, 0.2678606141426003],
     [1.945375740121778, 1.8657365749159085], 60, 60),
    (dict(lr=0.5, history_size=3, max_iter=7), [323.2297, 16.58353680287245, 3.7316279946063715],
     [0.1646902308568961, 0.010137788493382713, 0.01268934892656296, 0.0011699144861209943],
     [2.094149072103032, 2.467224403575904], 21, 21),
    (dict(line_search_fn='strong_wolfe'), [323.2297, 1.1069464165888572, 0.0001592885414359187],
     [0.9999993997716758, 0.9999987602024548, 0.9999974528175397, 0.9999947885285987],
     [2.001094759723907, 1.9954233956269767], 61, 53),
    (dict(line_search_fn='strong_wolfe', history_size=2, max_iter=10, max_eval=12),
     [323.2297, 3.4784519846042437, 2.1721804261745286],
     [0.8889327932532012, 0.8012816260904853, 0.6459256538396602, 0.40191490193801516],
     [2.461642829361716, 2.399887793061048], 35, 28),
]


def _rosenbrock_problem(device: str = "cpu") -> tuple:
    x = tinyframe.tensor([-1.2, 1.0, -0.5, 0.8], dtype=tinyframe.float64, requires_grad=True, device=device)
    y = tinyframe.tensor([[0.3, -0.4]], dtype=tinyframe.float64, requires_grad=True, device=device)

    def make_closure(optimizer: optim.Optimizer):
        def closure():
            optimizer.zero_grad()
            loss = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum() + ((y - 2) ** 4).sum()
            loss.backward()
            return loss
        return closure
    return x, y, make_closure


@pytest.mark.parametrize("options, losses, expected_x, expected_y, func_evals, n_iter", LBFGS_EXPECTED,
                         ids=["default", "history_size", "strong_wolfe", "strong_wolfe-max_eval"])
def test_lbfgs_matches_pytorch_over_several_steps(device, options, losses, expected_x, expected_y, func_evals,
                                                  n_iter):
    x, y, make_closure = _rosenbrock_problem(device)
    optimizer = optim.LBFGS([x, y], **options)
    closure = make_closure(optimizer)
    np.testing.assert_allclose([optimizer.step(closure).item() for _ in range(3)], losses, rtol=1e-7)
    np.testing.assert_allclose(_host(x), expected_x, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(_host(y)[0], expected_y, rtol=1e-8)
    assert optimizer.state[x]["func_evals"] == func_evals and optimizer.state[x]["n_iter"] == n_iter


def test_lbfgs_state_dict_round_trip_resumes_identically():
    x, y, make_closure = _rosenbrock_problem()
    optimizer = optim.LBFGS([x, y], history_size=4, max_iter=6, line_search_fn="strong_wolfe")
    optimizer.step(make_closure(optimizer))
    saved = copy.deepcopy(optimizer.state_dict())
    assert set(saved["state"][0]) >= {"d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad"}
    x2, y2, make_closure2 = _rosenbrock_problem()
    x2.data, y2.data = x.detach().clone(), y.detach().clone()
    resumed = optim.LBFGS([x2, y2], history_size=4, max_iter=6, line_search_fn="strong_wolfe")
    resumed.load_state_dict(saved)
    optimizer.step(make_closure(optimizer))
    resumed.step(make_closure2(resumed))
    np.testing.assert_array_equal(_host(x2), _host(x))


def test_lbfgs_rejects_parameter_groups_and_unknown_line_searches():
    x, y, make_closure = _rosenbrock_problem()
    with pytest.raises(ValueError, match=re.escape("LBFGS doesn't support per-parameter options (parameter groups)")):
        optim.LBFGS([{"params": [x]}, {"params": [y]}])
    optimizer = optim.LBFGS([x, y], line_search_fn="backtracking")
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        optimizer.step(make_closure(optimizer))


def test_lbfgs_stops_at_once_when_the_gradient_is_below_tolerance_grad():
    x = tinyframe.tensor([1.0, 1.0], requires_grad=True)
    optimizer = optim.LBFGS([x])
    calls = []

    def closure():
        calls.append(1)
        optimizer.zero_grad()
        loss = ((x - 1) ** 2).sum()
        loss.backward()
        return loss
    optimizer.step(closure)
    assert len(calls) == 1 and "d" not in optimizer.state[x]


# ----------------------------------------------------------------- PyTorch's group keys
TORCH_DEFAULT_KEYS = {
    "SGD": ["lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize", "foreach", "differentiable",
            "fused"],
    "Adam": ["lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach", "capturable", "differentiable",
             "fused", "decoupled_weight_decay"],
    "RMSprop": ["lr", "momentum", "alpha", "eps", "centered", "weight_decay", "capturable", "foreach", "maximize",
                "differentiable"],
    "Adagrad": ["lr", "lr_decay", "eps", "weight_decay", "initial_accumulator_value", "foreach", "maximize",
                "differentiable", "fused"],
    "Adadelta": ["lr", "rho", "eps", "weight_decay", "maximize", "capturable", "foreach", "differentiable"],
    "Adamax": ["lr", "betas", "eps", "weight_decay", "foreach", "maximize", "differentiable", "capturable"],
    "NAdam": ["lr", "betas", "eps", "weight_decay", "momentum_decay", "decoupled_weight_decay", "maximize",
              "foreach", "capturable", "differentiable"],
    "RAdam": ["lr", "betas", "eps", "weight_decay", "maximize", "foreach", "capturable", "decoupled_weight_decay",
              "differentiable"],
    "Rprop": ["lr", "etas", "step_sizes", "foreach", "maximize", "differentiable", "capturable"],
    "ASGD": ["lr", "lambd", "alpha", "t0", "weight_decay", "foreach", "maximize", "differentiable", "capturable"],
    "Adafactor": ["lr", "beta2_decay", "eps", "d", "weight_decay", "foreach", "maximize"],
    "SparseAdam": ["lr", "betas", "eps", "maximize"],
    "LBFGS": ["lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change", "history_size", "line_search_fn"],
}


@pytest.mark.parametrize("name", list(TORCH_DEFAULT_KEYS))
def test_param_groups_have_pytorchs_keys_in_its_order(name):
    optimizer = getattr(optim, name)([tinyframe.zeros(2, requires_grad=True)])
    assert list(optimizer.defaults) == TORCH_DEFAULT_KEYS[name]
    assert [key for key in optimizer.param_groups[0] if key != "params"] == TORCH_DEFAULT_KEYS[name]


def test_adafactor_factors_the_last_two_dimensions_of_a_parameter():
    w = tinyframe.zeros(2, 2, 3, requires_grad=True)
    optimizer = optim.Adafactor([w])
    w.grad = tinyframe.ones(2, 2, 3)
    optimizer.step()
    assert {key: tuple(value.shape) for key, value in optimizer.state[w].items()} == {
        "step": (), "row_var": (2, 2, 1), "col_var": (2, 1, 3)}


def test_sparse_adam_refuses_dense_gradients_as_pytorch():
    w = tinyframe.zeros(2, 3, requires_grad=True)
    optimizer = optim.SparseAdam([w])
    optimizer.step()  # no gradient yet: nothing to do
    w.grad = tinyframe.ones(2, 3)
    with pytest.raises(RuntimeError, match="^SparseAdam does not support dense gradients, please consider Adam "
                                           "instead$"):
        optimizer.step()
    assert not optimizer.state and repr(optimizer) == (
        "SparseAdam (\nParameter Group 0\n    betas: (0.9, 0.999)\n    eps: 1e-08\n    lr: 0.001\n"
        "    maximize: False\n)")


def test_rmsprop_takes_capturable_positionally_as_pytorch():
    w = tinyframe.zeros(2, requires_grad=True)
    optimizer = optim.RMSprop([w], 0.01, 0.99, 1e-8, 0, 0, False, False, None, True)
    assert optimizer.defaults["maximize"] is True


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "Rprop",
                                  "ASGD"])
def test_differentiable_steps_are_refused_with_a_reason(name):
    with pytest.raises(NotImplementedError, match="outside the autograd graph"):
        getattr(optim, name)([tinyframe.zeros(2, requires_grad=True)], differentiable=True)


def test_nadam_keeps_the_momentum_product_in_its_state():
    w, b = _params("cpu")
    optimizer = optim.NAdam([w, b], lr=0.1)
    _run(optimizer, w, b, 1)
    state = optimizer.state_dict()["state"][0]
    assert list(state) == ["step", "mu_product", "exp_avg", "exp_avg_sq"]
    assert state["mu_product"].dtype == tinyframe.float32
    assert state["mu_product"].item() == pytest.approx(0.9 * (1 - 0.5 * 0.96 ** 0.004))


# ----------------------------------------------------------------- step hooks
def test_step_hooks_run_in_pytorchs_order_and_can_be_removed():
    from tinyframe.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
    w = tinyframe.zeros(2, requires_grad=True)
    optimizer = optim.SGD([w], lr=0.1)
    log = []
    handles = [register_optimizer_step_pre_hook(lambda opt, args, kwargs: log.append("global pre")),
               optimizer.register_step_pre_hook(lambda opt, args, kwargs: log.append(("pre", args[0] is opt))),
               optimizer.register_step_post_hook(lambda opt, args, kwargs: log.append("post")),
               register_optimizer_step_post_hook(lambda opt, args, kwargs: log.append("global post"))]
    w.grad = tinyframe.ones(2)
    optimizer.step()
    assert log == ["global pre", ("pre", True), "post", "global post"]
    for handle in handles:
        handle.remove()
    optimizer.step()
    assert len(log) == 4


def test_step_hooks_live_in_pytorchs_tables_which_a_wrapper_may_set_itself():
    # a wrapper optimizer that skips Optimizer.__init__ (timm's Lookahead) sets the tables PyTorch names
    class Wrapper(optim.Optimizer):
        def __init__(self, base):
            self.base, self.param_groups, self.defaults, self.state = base, base.param_groups, base.defaults, base.state
            self._optimizer_step_pre_hooks, self._optimizer_step_post_hooks = OrderedDict(), OrderedDict()

        def step(self, closure=None):
            return self.base.step(closure)

    w = tinyframe.zeros(2, requires_grad=True)
    wrapper = Wrapper(optim.SGD([w], lr=0.5))
    log = []
    handle = wrapper.register_step_post_hook(lambda opt, args, kwargs: log.append("post"))
    assert list(wrapper._optimizer_step_post_hooks.values())[0] is not None
    w.grad = tinyframe.ones(2)
    wrapper.step()
    handle.remove()
    wrapper.step()
    assert log == ["post"] and w.tolist() == [-1.0, -1.0] and not wrapper._optimizer_step_post_hooks


def test_a_custom_optimizers_plain_number_step_stays_a_number_when_loaded():
    w = tinyframe.zeros(2, requires_grad=True)
    sgd = optim.SGD([w], lr=0.1)
    sgd.state[w] = {"step": 25, "buffer": tinyframe.ones(2)}
    fresh = optim.SGD([w], lr=0.1)
    fresh.load_state_dict(sgd.state_dict())
    assert fresh.state[w]["step"] == 25 and type(fresh.state[w]["step"]) is int


def test_a_step_pre_hook_may_replace_the_steps_arguments():
    x, y, make_closure = _rosenbrock_problem()
    optimizer = optim.LBFGS([x, y], max_iter=1)
    calls = []

    def counted_closure():
        calls.append(1)
        return make_closure(optimizer)()
    optimizer.register_step_pre_hook(lambda opt, args, kwargs: ((opt, counted_closure), kwargs))
    optimizer.step(make_closure(optimizer))
    assert calls == [1]
    with pytest.raises(RuntimeError, match="must return None or a tuple of"):
        optimizer.register_step_pre_hook(lambda opt, args, kwargs: 3)
        optimizer.step(make_closure(optimizer))


# ----------------------------------------------------------------- Muon (2-D parameters only)
# A wide and a tall weight, six steps of the gradients below; torch 2.13's Muon (its Newton-Schulz
# iteration runs in bfloat16, which tinyframe reproduces by rounding float32 arrays).
MUON_T0 = np.array([[0.5, -1.2], [2.0, 0.3], [0.0, -0.7], [1.5, 0.25]], dtype=np.float32)
MUON_EXPECTED = [
    (dict(lr=0.1),
     [[0.5478872656822205, -0.574054479598999, 1.5793722867965698],
      [0.38753753900527954, 0.19883006811141968, -0.3092119097709656]],
     [[-0.06427713483572006, -1.5737982988357544],
      [2.0495378971099854, -0.051808640360832214],
      [0.005529292393475771, -0.05494173988699913],
      [2.037452459335327, -0.04135671630501747]]),
    (dict(lr=0.05, weight_decay=0.0, nesterov=False),
     [[0.5395995378494263, -0.9115235209465027, 1.8433592319488525],
      [0.3525390625, 0.10322265326976776, -0.5240234732627869]],
     [[0.18484029173851013, -1.3836818933486938],
      [2.0656697750091553, 0.08745363354682922],
      [0.012213819660246372, -0.40417519211769104],
      [1.8121212720870972, 0.07874758541584015]]),
    (dict(lr=0.02, momentum=0.5, adjust_lr_fn='match_rms_adamw'),
     [[0.49950316548347473, -1.145790934562683, 1.9544694423675537],
      [0.3036685287952423, 0.014298921450972557, -0.6671364903450012]],
     [[0.4609152674674988, -1.2006913423538208],
      [1.9856514930725098, 0.2712019085884094],
      [0.0002926239394582808, -0.6623802185058594],
      [1.5143660306930542, 0.2253594845533371]]),
    (dict(lr=0.1, ns_steps=3, ns_coefficients=(2.0, -1.5, 0.5), eps=0.001, adjust_lr_fn='original'),
     [[0.5379994511604309, -0.6268713474273682, 1.5943642854690552],
      [0.4298454821109772, 0.26705390214920044, -0.15880385041236877]],
     [[-0.05037279054522514, -1.5482674837112427],
      [2.049224615097046, -0.03733011707663536],
      [-6.780502735637128e-05, -0.09086866676807404],
      [2.0251951217651367, -0.03218911215662956]]),
]


@pytest.mark.parametrize("options, expected_w, expected_t", MUON_EXPECTED,
                         ids=[str(i) for i in range(len(MUON_EXPECTED))])
def test_muon_matches_pytorch_over_several_steps(device, options, expected_w, expected_t):
    w = tinyframe.tensor(W0, requires_grad=True, device=device)
    t = tinyframe.tensor(MUON_T0, requires_grad=True, device=device)
    optimizer = optim.Muon([w, t], **options)
    scale = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    for _ in range(6):
        w.grad = tinyframe.tensor(np.float32(2) * (_host(w) - np.float32(1)) * scale, device=device)
        t.grad = tinyframe.tensor(np.sin(_host(t) * np.float32(3)), device=device)
        optimizer.step()
    np.testing.assert_allclose(_host(w), expected_w, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(_host(t), expected_t, rtol=1e-6, atol=1e-7)
    assert list(optimizer.state[w]) == ["momentum_buffer"]


def test_muon_has_pytorchs_defaults_and_refuses_what_pytorch_refuses():
    w = tinyframe.zeros(2, 3, requires_grad=True)
    optimizer = optim.Muon([w])
    assert list(optimizer.defaults) == ["lr", "weight_decay", "momentum", "nesterov", "ns_coefficients", "eps",
                                        "ns_steps", "adjust_lr_fn"]
    assert optimizer.defaults["ns_coefficients"] == (3.4445, -4.775, 2.0315)
    with pytest.raises(ValueError, match=re.escape("Muon only supports 2D parameters whereas we found a "
                                                   "parameter with size: tinyframe.Size([3])")):
        optim.Muon([tinyframe.zeros(3, requires_grad=True)])
    w.grad = tinyframe.ones(2, 3)
    with pytest.raises(ValueError, match="^Number of steps must be less than 100 for computational efficiency$"):
        optim.Muon([w], ns_steps=100).step()
    c = tinyframe.zeros(2, 2, dtype=tinyframe.complex64, requires_grad=True)
    c.grad = tinyframe.ones(2, 2, dtype=tinyframe.complex64)
    with pytest.raises(RuntimeError, match="^Muon does not support complex parameters$"):
        optim.Muon([c]).step()


@pytest.mark.parametrize("dtype", [tinyframe.float32, tinyframe.float64], ids=["float32", "float64"])
def test_muon_keeps_the_parameters_dtype_under_numpy_float64_hyper_parameters(dtype):
    w = tinyframe.tensor(W0, dtype=dtype, requires_grad=True)
    optimizer = optim.Muon([w], lr=np.float64(0.1), weight_decay=np.float64(0.1))
    w.grad = tinyframe.ones(2, 3, dtype=dtype)
    optimizer.step()
    assert w.dtype == dtype and optimizer.state[w]["momentum_buffer"].dtype == dtype
    assert not np.array_equal(_host(w), W0)
