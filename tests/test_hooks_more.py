"""Saved-tensor hooks, multi-grad hooks, global module forward hooks and ``always_call`` forward hooks:
calls, order, values and messages as PyTorch 2.13 gives them (recorded)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
from tinyframe.autograd.graph import register_multi_grad_hook, save_on_cpu, saved_tensors_hooks
from tinyframe.nn.modules import module as M
from tinyframe.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook


def test_saved_tensors_hooks_pack_on_save_and_unpack_in_backward() -> None:
    x = tf.tensor([1.0, 2.0], requires_grad=True)
    log: list = []

    def pack(t: tf.Tensor) -> tf.Tensor:
        log.append(("pack", tuple(t.shape)))
        return t * 10  # computed inside the hook: not saved through the hooks again

    def unpack(p: tf.Tensor) -> tf.Tensor:
        log.append("unpack")
        return p / 10
    with saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
        z = x.exp()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0] and log == [("pack", (2,))] * 3 + ["unpack"] * 2
    log.clear()
    z.sum().backward()
    assert x.grad.tolist() == pytest.approx([4.7183, 11.3891], abs=1e-4) and log == ["unpack"]
    with saved_tensors_hooks(lambda t: t, lambda p: 3):
        w = x.sin().sum()
    with pytest.raises(TypeError, match="^Output of saved tensor unpack_hook expected to be a Tensor but got result "
                                        "of type int$"):
        w.backward()


def test_saved_tensors_hooks_see_custom_function_saves_and_save_on_cpu() -> None:
    class Square(tf.autograd.Function):
        @staticmethod
        def forward(ctx, a):  # noqa: ANN001, ANN205
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            a, = ctx.saved_tensors
            return 2 * a * g
    x = tf.tensor([1.0, 2.0], requires_grad=True)
    log: list = []
    with saved_tensors_hooks(lambda t: (log.append("p"), t.clone())[1], lambda p: (log.append("u"), p)[1]):
        s = Square.apply(x)
    s.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0] and log == ["p", "u"]
    x.grad = None
    with save_on_cpu():
        q = (x * 3).pow(2).sum()
    q.backward()
    assert x.grad.tolist() == [18.0, 36.0]


def test_register_multi_grad_hook() -> None:
    a, b, c = tf.ones(2, requires_grad=True), tf.ones(3, requires_grad=True), tf.ones(1, requires_grad=True)
    seen: list = []
    handle = register_multi_grad_hook((a, b, c), lambda gs: seen.append([None if g is None else g.tolist()
                                                                         for g in gs]))
    (a.sum() * 2 + b.sum()).backward()
    (c * 5).sum().backward()
    assert seen == [[[2.0, 2.0], [1.0, 1.0, 1.0], None], [None, None, [5.0]]]
    handle.remove()
    (c * 5).sum().backward()
    assert len(seen) == 2
    first: list = []
    register_multi_grad_hook((a, b), lambda g: first.append(g.tolist()), mode="any")
    (a.sum() * 2 + b.sum() * 3).backward()
    assert first == [[3.0, 3.0, 3.0]]
    with pytest.raises(ValueError, match=r"^Expects mode to be one of \('all', 'any'\) but got x$"):
        register_multi_grad_hook((a,), print, mode="x")


def test_global_forward_hooks_run_before_the_modules_own() -> None:
    order: list = []
    pre = register_module_forward_pre_hook(lambda m, i: order.append(("global pre", type(m).__name__)))
    post = register_module_forward_hook(lambda m, i, o: order.append(("global", type(m).__name__)))
    lin = nn.Linear(1, 1)
    lin.register_forward_pre_hook(lambda m, i: order.append("pre"))
    lin.register_forward_hook(lambda m, i, o: order.append("hook"))
    try:
        lin(tf.ones(1))
    finally:
        pre.remove()
        post.remove()
    lin(tf.ones(1))
    assert order == [("global pre", "Linear"), "pre", ("global", "Linear"), "hook", "pre", "hook"]


def test_always_call_forward_hooks_run_when_forward_raises() -> None:
    class Failing(nn.Module):
        def forward(self, x: tf.Tensor) -> tf.Tensor:
            raise KeyError("k")
    module, got = Failing(), []
    module.register_forward_hook(lambda m, a, o: got.append(o), always_call=True)
    module.register_forward_hook(lambda m, a, k, o: got.append(("kw", k)), always_call=True, with_kwargs=True)
    module.register_forward_hook(lambda m, a, o: got.append("never"))
    module.register_forward_hook(lambda m, a, o: 1 / 0, always_call=True)
    with warnings.catch_warnings(record=True) as caught, pytest.raises(KeyError, match="k"):
        warnings.simplefilter("always")
        module(tf.ones(1))
    assert got == [None, ("kw", {})]
    assert str(caught[0].message) == ("module forward hook with ``always_call=True`` raised an exception that was "
                                      "silenced as another error was raised in forward: division by zero")


def test_node_prehook_and_hook_see_and_replace_gradients() -> None:
    # PyTorch 2.13: Node.register_prehook(fn(grad_outputs)) and Node.register_hook(fn(grad_inputs, grad_outputs)),
    # one grad_input per next_functions entry (None for the number 3)
    p = tf.tensor(2.0, requires_grad=True)
    q = p.exp() * 3
    seen = []
    q.grad_fn.register_prehook(lambda grad_outputs: seen.append(("pre", [g.item() for g in grad_outputs])))
    handle = q.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 2, None))
    q.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        ("post", [None if g is None else g.item() for g in grad_inputs], grad_outputs[0].item())))
    q.backward(retain_graph=True)
    assert seen == [("pre", [1.0]), ("post", [6.0, None], 1.0)]
    assert abs(p.grad.item() - 6 * np.exp(2.0)) < 1e-4
    handle.remove()
    p.grad = None
    q.backward()
    assert abs(p.grad.item() - 3 * np.exp(2.0)) < 1e-4


def test_hook_handles_remove_their_hook_when_a_with_block_ends() -> None:
    lin, x = nn.Linear(2, 1), tf.ones(1, 2, requires_grad=True)
    calls: list = []
    with lin.register_forward_hook(lambda m, a, o: calls.append("module")) as handle:
        lin(x)
    lin(x)
    with x.register_hook(lambda g: calls.append("tensor")):
        lin(x).sum().backward()
    lin(x).sum().backward()
    assert calls == ["module", "tensor"] and handle is not None


def test_global_registration_hooks_see_and_may_replace_parameters_buffers_and_modules() -> None:
    # PyTorch 2.13's order and arguments: parameters (not None) through register_parameter, buffers and
    # submodules (None too) through registration and assignment.
    log = []
    handles = [
        M.register_module_parameter_registration_hook(lambda m, n, p: log.append(("param", n, tuple(p.shape)))),
        M.register_module_buffer_registration_hook(
            lambda m, n, b: log.append(("buffer", n, None if b is None else tuple(b.shape)))),
        M.register_module_module_registration_hook(lambda m, n, c: log.append(("module", n, type(c).__name__)))]
    net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    net.extra = nn.ReLU()
    net.register_buffer("nothing", None)
    net.nothing = tf.ones(1)
    net.add_module("none", None)
    net.register_parameter("absent", None)
    assert log == [("param", "weight", (3, 2)), ("param", "bias", (3,)), ("param", "weight", (3,)),
                   ("param", "bias", (3,)), ("buffer", "running_mean", (3,)), ("buffer", "running_var", (3,)),
                   ("buffer", "num_batches_tracked", ()), ("module", "0", "Linear"), ("module", "1", "BatchNorm1d"),
                   ("module", "extra", "ReLU"), ("buffer", "nothing", None), ("buffer", "nothing", (1,)),
                   ("module", "none", "NoneType")]
    for handle in handles:
        handle.remove()
    replacement = nn.Parameter(tf.zeros(1))
    handle = M.register_module_parameter_registration_hook(lambda m, n, p: replacement if n == "bias" else None)
    assert nn.Linear(1, 1, bias=True).bias is replacement
    handle.remove()
    log.clear()
    nn.Linear(1, 1)
    assert log == [] and nn.Linear(1, 1).bias is not replacement
