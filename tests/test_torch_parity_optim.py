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
