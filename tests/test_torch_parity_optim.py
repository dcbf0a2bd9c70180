"""Optimizer, lr_scheduler and data-loading differences from PyTorch 2.13 found by running the same
calls in both frameworks, each pinned with values recorded from torch."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


# --------------------------------------------------------------------------- LBFGS
def test_lbfgs_state_keys_in_pytorchs_order_and_step_length_type() -> None:
    tf.manual_seed(0)
    w = tf.randn(3, 2, requires_grad=True)
    x = tf.randn(5, 3)
    opt = tf.optim.LBFGS([w], history_size=3, max_iter=5, line_search_fn="strong_wolfe")

    def closure() -> tf.Tensor:
        opt.zero_grad()
        loss = ((x @ w - 1) ** 2).sum()
        loss.backward()
        return loss
    np.testing.assert_allclose(opt.step(closure).item(), 27.411344528198242, rtol=1e-6)
    state = opt.state_dict()["state"][0]
    # 'al' is created in the middle of the first step, before 'd'; with lr=1 the step length stays the int 1
    assert list(state) == ["func_evals", "n_iter", "al", "d", "t", "old_dirs", "old_stps", "ro", "H_diag",
                           "prev_flat_grad", "prev_loss"]
    assert state["t"] == 1 and type(state["t"]) is int
    assert (state["func_evals"], state["n_iter"]) == (6, 5)
    np.testing.assert_allclose([float(a) for a in state["al"]],
                               [0.0035094204358756542, -0.166329026222229, 0.11885771155357361], rtol=1e-4)
    np.testing.assert_allclose(_host(w), [[0.137156143784523, -0.3634989559650421],
                                          [-1.5509780645370483, -0.773935854434967],
                                          [-2.5258569717407227, -1.3284753561019897]], rtol=1e-4)


# --------------------------------------------------------------------------- lr_scheduler
def test_one_cycle_state_dict_keys_in_pytorchs_order() -> None:
    opt = tf.optim.SGD([tf.zeros(2, requires_grad=True)], lr=0.1, momentum=0.9)
    scheduler = tf.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
    assert list(scheduler.state_dict()) == [
        "total_steps", "_schedule_phases", "_anneal_func_type", "cycle_momentum", "use_beta1", "base_lrs",
        "last_epoch", "_step_count", "_is_initial", "_get_lr_called_within_step", "_last_lr"]


def test_resuming_a_scheduler_without_initial_lr_says_why() -> None:
    opt = tf.optim.SGD([tf.zeros(2, requires_grad=True)], lr=0.1)
    try:
        tf.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)
    except KeyError as error:
        assert error.args[0] == (
            "param 'initial_lr' is not specified in param_groups[0] when resuming scheduler with last_epoch >= 0.\n"
            "This typically happens when:\n1. You're trying to resume training from a checkpoint but haven't "
            "properly loaded the optimizer state\n2. You're using last_epoch >= 0 for a fresh training run (not "
            "recommended)")
    else:
        raise AssertionError("no KeyError")


# --------------------------------------------------------------------------- Adafactor
def _adafactor_run(**options: object) -> tuple:
    tf.manual_seed(0)
    w, b = tf.randn(3, 2, requires_grad=True), tf.randn(2, requires_grad=True)
    x = tf.randn(5, 3)
    opt = tf.optim.Adafactor([w, b], **options)
    for _ in range(3):
        opt.zero_grad()
        ((x @ w + b) ** 2).sum().backward()
        opt.step()
    return w, b, opt


def test_adafactor_trajectory_and_state_match_pytorch() -> None:
    w, b, opt = _adafactor_run()
    np.testing.assert_allclose(_host(w).reshape(-1), [1.5246920585632324, -0.22667354345321655, -2.1388213634490967,
                                                      0.5757926106452942, -1.0532609224319458, -1.352645993232727],
                               rtol=1e-6)
    np.testing.assert_allclose(_host(b), [0.38393712043762207, 0.8185870051383972], rtol=1e-6)
    state = opt.state_dict()["state"]
    assert [list(s) for s in state.values()] == [["step", "row_var", "col_var"], ["step", "variance"]]
    np.testing.assert_allclose(_host(state[0]["row_var"]).reshape(-1),
                               [15.46841812133789, 213.12147521972656, 226.46241760253906], rtol=1e-6)
    assert opt.state_dict()["param_groups"] == [{"lr": 0.01, "beta2_decay": -0.8, "eps": (None, 0.001), "d": 1.0,
                                                 "weight_decay": 0.0, "foreach": None, "maximize": False,
                                                 "params": [0, 1]}]


def test_adafactor_with_every_option() -> None:
    w, b, _ = _adafactor_run(lr=0.05, beta2_decay=-0.5, weight_decay=0.1, maximize=True, d=1.5, eps=(1e-4, 1e-2))
    np.testing.assert_allclose(_host(w).reshape(-1), [1.6011813879013062, -0.6897856593132019, -2.3845906257629395,
                                                      0.5074718594551086, -1.2534648180007935, -1.649163842201233],
                               rtol=1e-6)
    np.testing.assert_allclose(_host(b), [0.5018762946128845, 0.9296599626541138], rtol=1e-6)


# --------------------------------------------------------------------------- Optimizer checkpoints
def test_optimizer_state_dict_hooks_and_load_errors() -> None:
    w, b = tf.zeros(3, requires_grad=True), tf.zeros(2, requires_grad=True)
    opt = tf.optim.SGD([w], lr=0.1)
    calls: list = []
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    opt.register_load_state_dict_pre_hook(lambda o, sd: calls.append("load pre"))
    handle = opt.register_load_state_dict_post_hook(lambda o: calls.append("load post"), prepend=True)
    state = opt.state_dict()
    assert list(state) == ["state", "param_groups", "extra"]
    opt.load_state_dict(state)
    handle.remove()
    opt.load_state_dict(state)
    assert calls == ["pre", "load pre", "load post", "load pre"]
    two_groups = tf.optim.SGD([{"params": [w]}, {"params": [b]}], lr=0.1).state_dict()
    with pytest.raises(ValueError, match="^loaded state dict has a different number of parameter groups$"):
        tf.optim.SGD([w], lr=0.1).load_state_dict(two_groups)
    with pytest.raises(ValueError, match="^loaded state dict contains a parameter group that doesn't match the size "
                                         "of optimizer's group$"):
        tf.optim.SGD([w], lr=0.1).load_state_dict(tf.optim.SGD([w, b], lr=0.1).state_dict())
