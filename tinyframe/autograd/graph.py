"""The graph's node types, as ``torch.autograd.graph`` names them, and pictures of a graph.

``to_dot(output, params=dict(model.named_parameters()))`` describes the backward graph that
produced ``output`` in Graphviz's DOT language, drawn as torchviz draws PyTorch's: gray boxes are
``grad_fn`` nodes named as PyTorch names them (``MulBackward0``), each with the bytes it keeps saved
for backward; light blue boxes are leaves that require grad, labelled with their parameter name and
shape; green boxes are the outputs. ``make_dot`` wraps the text as a ``graphviz.Source`` (the
optional ``graphviz`` package; rendering to SVG/PNG also needs Graphviz's ``dot`` program).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _graph
from .._graph import AccumulateGrad, Node
from .engine import end_of_pass_callbacks
from .hooks import RemovableHandle

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["Node", "AccumulateGrad", "to_dot", "make_dot", "saved_bytes", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "register_multi_grad_hook", "GradientEdge", "get_gradient_edge"]

# The error messages of the open ``disable_saved_tensors_hooks`` blocks, innermost last.
_DISABLED: list[str] = []

class saved_tensors_hooks:  # noqa: N801  PyTorch's name
    """Inside this context each tensor an operation saves for backward is kept as ``pack_hook(tensor)``,
    and given back to backward as ``unpack_hook(packed)`` (offloading or compressing activations)."""

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        if _DISABLED:
            raise RuntimeError(_DISABLED[-1])
        _graph.saved_tensors_hooks.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: object) -> None:
        _graph.saved_tensors_hooks.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801  PyTorch's name
    """Tensors saved for backward inside this context are kept on the cpu and moved back to their
    device when backward needs them. (``pin_memory`` is accepted; tinyframe's host memory is NumPy's.)"""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack(tensor: Tensor) -> tuple:
            return tensor.device, tensor.detach().cpu()

        def unpack(packed: tuple) -> Tensor:
            device, tensor = packed
            return tensor.to(device)
        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:  # noqa: N801  PyTorch's name
    """Inside this context, opening ``saved_tensors_hooks`` (or ``save_on_cpu``) raises a RuntimeError with
    ``error_message``: for features that cannot work with saved tensors hooks."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> disable_saved_tensors_hooks:
        _DISABLED.append(self.error_message)
        return self

    def __exit__(self, *exc: object) -> None:
        _DISABLED.pop()


class GradientEdge(NamedTuple):
    """Where a tensor's gradient enters the graph: the node and which of its outputs the tensor is."""
    node: Node
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The ``GradientEdge`` of ``tensor``: its ``grad_fn`` (its ``AccumulateGrad`` for a leaf) and output number."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    return GradientEdge(*_graph.edge_of(tensor))


class _Handles(RemovableHandle):
    def __init__(self, handles: list) -> None:
        self._handles = handles

    def remove(self) -> None:
        for handle in self._handles:
            handle.remove()


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable, *, mode: str = "all") -> RemovableHandle:
    """With ``mode="all"``: ``fn(grads)`` once per backward pass that reaches any of ``tensors``, after their
    gradients were computed (None for those the pass did not reach). With ``mode="any"``: ``fn(grad)`` with
    the first of their gradients computed in each pass."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    grads: list = [None] * len(tensors)
    pending = [False]

    def finish() -> None:
        pending[0] = False
        if mode == "all":
            fn(tuple(grads))
        grads[:] = [None] * len(tensors)

    def make_hook(i: int) -> Callable:
        def hook(grad: Tensor) -> None:
            if not pending[0]:
                pending[0] = True
                end_of_pass_callbacks.append(finish)
                if mode == "any":
                    fn(grad)
            grads[i] = grad
        return hook
    return _Handles([t.register_hook(make_hook(i)) for i, t in enumerate(tensors)])


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
