"""Short soak runs: memory stays flat over many training steps and double backwards, and graphs are
freed by reference counting alone. ``benchmarks/soak.py`` runs the same workloads for longer."""
from __future__ import annotations

import gc
import os
import weakref

import pytest

import tinyframe
from benchmarks import soak
from tinyframe import nn

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="RSS is read from /proc/self/statm")
RSS_SLACK_MIB = 4.0


@needs_proc
def test_rss_after_10000_mlp_steps_is_within_a_few_mib_of_rss_after_500() -> None:
    (_, after_500), (_, after_10000) = soak.rss_trace(soak.mlp_training_step(), [500, 10_000])
    assert after_10000 - after_500 < RSS_SLACK_MIB


@needs_proc
def test_rss_does_not_grow_over_double_backward_with_create_graph() -> None:
    (_, after_250), (_, after_2000) = soak.rss_trace(soak.double_backward_step(), [250, 2000])
    assert after_2000 - after_250 < RSS_SLACK_MIB


@pytest.mark.parametrize("workload", [soak.mlp_training_step, soak.double_backward_step])
def test_steps_leave_no_tinyframe_object_to_the_cycle_collector(workload: object) -> None:
    assert soak.cyclic_garbage(workload()) == []


def test_a_graph_is_freed_by_reference_counting_alone() -> None:
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    x = tinyframe.randn(3, 4)
    gc.disable()
    try:
        hidden = model[1](model[0](x))
        loss = (model[2](hidden) ** 2).mean()
        nodes = [weakref.ref(loss.grad_fn), weakref.ref(hidden.grad_fn)]
        tensors = [weakref.ref(hidden), weakref.ref(loss)]
        loss.backward()
        del hidden, loss
        assert [ref() for ref in nodes + tensors] == [None] * 4
    finally:
        gc.enable()


def test_a_create_graph_gradient_and_its_graph_are_freed_by_reference_counting_alone() -> None:
    w = tinyframe.randn(3, requires_grad=True)
    gc.disable()
    try:
        out = (tinyframe.sin(w) * w).sum()
        (grad,) = tinyframe.autograd.grad(out, w, create_graph=True)
        (grad * grad).sum().backward(create_graph=True)
        nodes = [weakref.ref(out.grad_fn), weakref.ref(grad.grad_fn), weakref.ref(w.grad.grad_fn)]
        del out, grad
        w.grad = None
        assert [ref() for ref in nodes] == [None] * 3
    finally:
        gc.enable()
