"""``tinyframe.autograd.graph.to_dot`` / ``make_dot``: the backward graph as a picture."""
from __future__ import annotations

import re
import shutil

import pytest

import tinyframe
from tinyframe import nn
from tinyframe.autograd.graph import saved_bytes, to_dot


def mlp_graph():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    loss = model(tinyframe.randn(5, 3)).sum()
    return model, loss


def labels(dot: str) -> list[str]:
    return re.findall(r'label="([^"]*)"', dot)


def test_to_dot_names_grad_fns_and_parameters_with_their_shapes():
    model, loss = mlp_graph()
    dot = to_dot(loss, params=dict(model.named_parameters()))
    assert dot.startswith("digraph {") and dot.rstrip().endswith("}")
    found = labels(dot)
    for expected in [r"0.weight\n(4, 3)", r"0.bias\n(4)", r"2.weight\n(2, 4)", r"2.bias\n(2)", "SumBackward0", "()"]:
        assert expected in found
    assert sum(label.startswith("AddmmBackward0") for label in found) == 2
    assert found.count("AccumulateGrad") == 4


def test_to_dot_shows_the_bytes_each_node_keeps_saved():
    model, loss = mlp_graph()
    found = labels(to_dot(loss))
    # addmm keeps its two matrix operands: 5x3 input + 4x3 weight, then 5x4 hidden + 2x4 weight (float32)
    assert r"AddmmBackward0\nsaved 108 B" in found and r"AddmmBackward0\nsaved 112 B" in found
    assert r"ReluBackward0\nsaved 80 B" in found  # relu keeps its 5x4 output
    assert saved_bytes(loss.grad_fn) == 0 and "SumBackward0" in found


def test_to_dot_counts_a_tensor_saved_twice_once():
    x = tinyframe.ones(256, requires_grad=True)
    assert saved_bytes((x * x).grad_fn) == 1024


def test_to_dot_walks_deep_graphs_without_recursion():
    x = tinyframe.ones(1, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0
    assert to_dot(y).count("MulBackward0") == 5000


def test_to_dot_takes_several_outputs_and_unnamed_leaves():
    x = tinyframe.ones(2, 3, requires_grad=True)
    dot = to_dot((x.exp(), x.sin()))
    assert r"(2, 3)" in labels(dot) and dot.count("fillcolor=darkolivegreen1") == 2
    assert dot.count("fillcolor=lightblue") == 1


def test_make_dot_gives_a_graphviz_source():
    graphviz = pytest.importorskip("graphviz")
    from tinyframe.autograd.graph import make_dot
    model, loss = mlp_graph()
    source = make_dot(loss, params=dict(model.named_parameters()))
    assert isinstance(source, graphviz.Source) and "0.weight" in source.source
    if shutil.which("dot"):
        assert "<svg" in source.pipe(format="svg").decode()
