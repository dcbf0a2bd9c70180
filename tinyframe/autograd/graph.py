"""The graph's node types, as ``torch.autograd.graph`` names them, and pictures of a graph.

``to_dot(output, params=dict(model.named_parameters()))`` describes the backward graph that
produced ``output`` in Graphviz's DOT language, drawn as torchviz draws PyTorch's: gray boxes are
``grad_fn`` nodes named as PyTorch names them (``MulBackward0``), each with the bytes it keeps saved
for backward; light blue boxes are leaves that require grad, labelled with their parameter name and
shape; green boxes are the outputs. ``make_dot`` wraps the text as a ``graphviz.Source`` (the
optional ``graphviz`` package; rendering to SVG/PNG also needs Graphviz's ``dot`` program).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import _graph
from .._graph import AccumulateGrad, Node

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["Node", "AccumulateGrad", "to_dot", "make_dot", "saved_bytes"]

_NODE_STYLE = ('node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box '
               'style=filled]')


def saved_bytes(node: Node) -> int:
    """The bytes of the arrays ``node`` keeps for its backward (saved inputs and outputs, masks,
    indices), each array counted once."""
    sizes = {}
    for value in _kept_values(node):
        data = value._data if isinstance(value, _graph.Tensor) else value
        if hasattr(data, "nbytes") and hasattr(data, "shape"):
            sizes[id(data)] = int(data.nbytes)
    return sum(sizes.values())


def to_dot(output: Tensor | Sequence[Tensor], params: Mapping[str, Tensor] | None = None) -> str:
    """The backward graph of ``output`` (a tensor or a sequence of them) as DOT text.

    ``params`` names leaves: pass ``dict(model.named_parameters())`` to label each parameter with its
    name. The graph is walked without recursion, so deep graphs work.
    """
    outputs = [output] if isinstance(output, _graph.Tensor) else list(output)
    names = {id(tensor): name for name, tensor in (params or {}).items()}
    lines = ["digraph {", '\tgraph [size="12,12"]', f"\t{_NODE_STYLE}"]
    seen: set[int] = set()
    pending: list[Node] = []
    for tensor in outputs:
        lines.append(_box(tensor, _shape(tensor), "darkolivegreen1"))
        if tensor.grad_fn is not None:
            lines.append(_edge(tensor.grad_fn, tensor))
            pending.append(tensor.grad_fn)
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        lines.append(_box(node, _node_label(node), "lightgray"))
        variable = getattr(node, "variable", None) if isinstance(node, AccumulateGrad) else None
        if variable is not None:
            label = f"{names[id(variable)]}\n{_shape(variable)}" if id(variable) in names else _shape(variable)
            lines.append(_box(variable, label, "lightblue"))
            lines.append(_edge(variable, node))
        for parent, _ in node.next_functions:
            if parent is not None:
                lines.append(_edge(parent, node))
                pending.append(parent)
    lines.append("}")
    return "\n".join(lines) + "\n"


def make_dot(output: Tensor | Sequence[Tensor], params: Mapping[str, Tensor] | None = None) -> Any:
    """``to_dot`` as a ``graphviz.Source``: ``make_dot(loss).render('graph', format='svg')`` writes
    graph.svg; in Jupyter it displays itself. Needs the ``graphviz`` package
    (``pip install 'tinyframe[graphviz]'``) and, to render, Graphviz's ``dot`` program."""
    try:
        import graphviz
    except ImportError as exc:
        raise ImportError("make_dot needs the graphviz package: pip install 'tinyframe[graphviz]' "
                          "(or use to_dot, which returns the DOT text)") from exc
    return graphviz.Source(to_dot(output, params))


def _kept_values(node: Node) -> Any:
    for entry in node._saved or ():
        yield from entry if isinstance(entry, tuple) else (entry,)
    yield from vars(node).values()  # arrays an op keeps as attributes of its ctx


def _node_label(node: Node) -> str:
    saved = saved_bytes(node)
    name = type(node).__name__  # as torchviz labels nodes: AccumulateGrad, not its name() with the C++ namespace
    return f"{name}\nsaved {_format_bytes(saved)}" if saved else name


def _format_bytes(count: float) -> str:
    for unit in ("B", "KiB", "MiB"):
        if count < 1024 or unit == "MiB":
            return f"{count} B" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return ""


def _shape(tensor: Tensor) -> str:
    return "(" + ", ".join(str(n) for n in tensor.shape) + ")"


def _box(item: Any, label: str, color: str) -> str:
    escaped = label.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'\t{id(item)} [label="{escaped}" fillcolor={color}]'


def _edge(source: Any, target: Any) -> str:
    return f"\t{id(source)} -> {id(target)}"
