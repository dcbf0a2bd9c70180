"""Optimizer, lr_scheduler and data-loading differences from PyTorch 2.13 found by running the same
calls in both frameworks, each pinned with values recorded from torch."""
from __future__ import annotations

import numpy as np

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
