"""The backward pass: orders the graph once, runs each node's backward, accumulates into leaves.

Gradients are raw arrays, or Tensors when the pass is recorded (``create_graph=True``). Reducing a
gradient to its input's shape and dtype (un-broadcasting) happens here, once, for every op.
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, grad_mode
from .._graph import AccumulateGrad, Node, _ndarray, edge_of
from ..device import array_module_of
from ..ops import complex as complex_ops
from ..ops import shape as shape_ops
from ..ops import tensor_math
from ..ops._composite import composed
from . import anomaly_mode
from .hooks import store_retained

if TYPE_CHECKING:
    from ..tensor import Tensor


def backward(tensors: Sequence[Tensor] | Tensor, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Sequence[Tensor] | None = None) -> None:
    """Accumulates into the leaves' ``.grad`` the gradient of ``tensors`` (PyTorch's
    ``torch.autograd.backward``)."""
    roots, grads = _roots_and_grads(_as_tuple(tensors), grad_tensors, create_graph)
    targets = None
    if inputs is not None:
        targets = [edge_of(t)[0] for t in _as_tuple(inputs)]
        if any(t is None for t in targets):
            raise RuntimeError("One of the inputs passed to backward() does not require grad")
    _run(roots, grads, create_graph if retain_graph is None else retain_graph, create_graph, targets, False)


def grad(outputs: Sequence[Tensor] | Tensor, inputs: Sequence[Tensor] | Tensor, grad_outputs: Any = None,
         retain_graph: bool | None = None, create_graph: bool = False, only_inputs: bool = True,
         allow_unused: bool | None = None, is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """Returns the gradients of ``outputs`` with respect to ``inputs`` without touching ``.grad``
    (``only_inputs`` is deprecated and ignored, as in PyTorch).

    With ``is_grads_batched``, the first dimension of each of ``grad_outputs`` is a batch dimension: the
    result is the batch of vector-Jacobian products, one per row, stacked (a Jacobian when the rows
    are the identity's)."""
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=2)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    roots, grads = _roots_and_grads(outputs, grad_outputs, create_graph)  # (PyTorch checks the outputs first)
    for t in inputs:
        if not isinstance(t, _graph.Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
    if any(not t.requires_grad for t in inputs):
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    edges = [edge_of(t) for t in inputs]
    targets = [node for node, _ in edges]
    captured = _run(roots, grads, create_graph if retain_graph is None else retain_graph, create_graph,
                    targets, capture=True)
    results = []
    for i, (t, (node, output_nr)) in enumerate(zip(inputs, edges)):
        g = captured.get(node)
        if isinstance(g, OutputGrads):  # the input is one output of a node with several
            g = g.slots[output_nr]
        if g is None:
            if not (allow_unused or materialize_grads):
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used "
                                   "in the graph. Set allow_unused=True if this is the desired behavior.")
            results.append(_materialized(t, create_graph) if materialize_grads else None)
        else:
            results.append(g if create_graph else _graph.wrap(g))
    return tuple(results)


def _materialized(t: Tensor, create_graph: bool) -> Tensor:
    """The gradient ``materialize_grads`` gives an unused input: zeros, requiring grad with ``create_graph``."""
    zeros = tensor_math.zeros_like(t)
    zeros._requires_grad = create_graph
    return zeros


def _batched_grad(outputs: Any, inputs: Any, grad_outputs: Any, retain_graph: bool | None, create_graph: bool,
                  allow_unused: bool | None, materialize_grads: bool) -> tuple:
    """``grad`` once per row of the batched ``grad_outputs`` (PyTorch vmaps one backward pass; the rows
    are independent, so their results are the same), the graph kept until the last row."""
    if grad_outputs is None:  # the implicit gradient of a scalar has no batch dimension
        raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a "
                         "Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")
    rows = _as_tuple(grad_outputs)
    if rows[0].dim() == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    batch = rows[0].shape[0]
    keep = create_graph if retain_graph is None else retain_graph
    per_row = [grad(outputs, inputs, tuple(g[b] for g in rows), retain_graph=keep or b < batch - 1,
                    create_graph=create_graph, allow_unused=allow_unused or materialize_grads)
               for b in range(batch)]
    # as in PyTorch, an unused input's materialized gradient is zeros of its own shape, not batched
    return tuple(shape_ops.stack(column) if column[0] is not None
                 else _materialized(t, create_graph) if materialize_grads else None
                 for t, column in zip(_as_tuple(inputs), zip(*per_row)))


def _as_tuple(value: Any) -> tuple:
    if isinstance(value, _graph.Tensor):
        return (value,)
    return tuple(value)


def _roots_and_grads(tensors: tuple, grad_tensors: Any, create_graph: bool) -> tuple:
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif isinstance(grad_tensors, _graph.Tensor):
        grad_tensors = (grad_tensors,)
    else:
        grad_tensors = tuple(grad_tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(grad_tensors)} gradients for {len(tensors)} tensors")
    roots, grads = [], []
    for i, t in enumerate(tensors):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        node, output_nr = edge_of(t)
        g = grad_tensors[i]
        g = _implicit_grad(t, create_graph) if g is None else _given_grad(t, g, i, create_graph)
        roots.append(node)
        grads.append(g if node._output_shapes is None else OutputGrads.one(node, output_nr, g))
    return roots, grads


def _implicit_grad(t: Tensor, create_graph: bool) -> Any:
    """The gradient of a scalar output when none is given: one; cached read-only on the CPU (no
    backward writes to it)."""
    array = t._data
    if array.size != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    dtype = array.dtype
    if dtype.kind == "c":
        raise RuntimeError("grad can be implicitly created only for real scalar outputs")
    if type(array) is np.ndarray:
        key = (array.shape, dtype)
        ones = _ONES.get(key)
        if ones is None:
            ones = _ONES[key] = np.ones(array.shape, dtype)
            ones.flags.writeable = False
    else:
        ones = array_module_of(array).ones_like(array)
    return _graph.wrap(ones) if create_graph else ones


def _given_grad(t: Tensor, g: Any, i: int, create_graph: bool) -> Any:
    if not isinstance(g, _graph.Tensor):
        g = creation.tensor(g, dtype=t.dtype, device=t.device)
    if g.shape != t.shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                           f"output[{i}] has a shape of {t.shape}.")
    if g.device != t.device:
        raise RuntimeError(f"grad_output[{i}] is on {g.device} but output[{i}] is on {t.device}")
    return g if create_graph else g._data


_ONES: dict = {}  # the implicit gradients by shape and dtype


def _order(roots: list) -> tuple[dict, list]:
    """Counts each reachable node's incoming edges, iteratively (graphs of any depth); returns the
    counts and the roots that no other root reaches, which are ready first. Roots start at 0, so a
    root that another root reaches is counted, and walked, once."""
    dependencies = dict.fromkeys(roots, 0)
    unique_roots = list(dependencies)
    stack = unique_roots.copy()
    while stack:
        for child, _ in stack.pop().next_functions:
            if child in dependencies:
                dependencies[child] += 1
            elif child is not None:
                dependencies[child] = 1
                if child.next_functions:  # a leaf has none to follow
                    stack.append(child)
    if len(unique_roots) == 1:  # (no other root reaches it; a comprehension is a call in Python 3.11)
        return dependencies, unique_roots
    return dependencies, [root for root in unique_roots if not dependencies[root]]


def _needed(ready_roots: list, dependencies: dict, targets: list) -> set:
    """The nodes from which a target can be reached: only these run for ``inputs=``/``grad``."""
    order, counts = [], dict(dependencies)
    ready = list(ready_roots)
    while ready:
        node = ready.pop()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                counts[child] -= 1
                if counts[child] == 0:
                    ready.append(child)
    needed = set(targets)
    for node in reversed(order):
        if node not in needed and any(c in needed for c, _ in node.next_functions):
            needed.add(node)
    return needed


# ``_run``'s fast path for plain passes; benchmarks/breakdown.py turns it off to time every node in ``step``.
FAST_PATH = True


# Functions a hook asked to run once the backward pass under way is over (``register_multi_grad_hook``).
end_of_pass_callbacks: list = []


def _run(roots: list, root_grads: list, retain_graph: bool, create_graph: bool,
         targets: list | None, capture: bool) -> dict:
    """Runs every node once, in topological order; returns the gradients captured at ``targets``.

    The steps: order the graph (``_order``); for each ready node, ``_Pass.step`` takes the gradient
    that arrived (``_Pass.arrive``: hooks, ``retain_grad``, capture) and runs the node's backward
    (on arrays, or recorded: ``_call_recorded_backward``) or accumulates into a leaf
    (``_Pass.accumulate``); then each input is sent its gradient, reduced to its shape and dtype
    (``_reduce_to_input``) where they differ.
    """
    dependencies, ready_roots = _order(roots)
    run = _Pass(ready_roots, root_grads, dependencies, retain_graph, create_graph, targets, capture)
    pending: dict = {}  # the gradients summed so far for nodes that more are still to reach
    # The nodes ready to run, each with the sum of the gradients that reached it (None if none did)
    ready = []
    if len(roots) == 1:  # (the usual pass, ``loss.backward()``: callgrind, tiny graph -2.7K instructions)
        ready.append((roots[0], root_grads[0]))
    else:
        for node, g in zip(roots, root_grads):
            pending[node] = pending[node] + g if node in pending else g
        for node in ready_roots:
            ready.append((node, pending.pop(node, None)))
    state = grad_mode.STATE
    previous_mode, state.enabled = state.enabled, create_graph
    previous_needed, _graph.needed_nodes = _graph.needed_nodes, run.needed  # per pass: passes nest (hooks)
    step, accumulate, plain = run.step, run.accumulate, run.plain
    _graph.backward_passes += 1
    queued = len(end_of_pass_callbacks)
    try:
        while ready:
            node, g = ready.pop()
            edges = node.next_functions
            input_grads: tuple
            if g is None:
                input_grads = ()
            elif plain and type(g) is _ndarray and node._direct:
                # The fast path: ``step`` for the common node, without its checks and call.
                input_grads = node.backward(node, g)
                if type(input_grads) is not tuple:
                    input_grads = (input_grads,)
                if node._saved is not None and not retain_graph:
                    node._saved = _graph.FREED
            else:
                input_grads = step(node, g)
            if len(input_grads) != len(edges):  # no gradient arrived, or a backward returned fewer
                input_grads = (*input_grads, *(None,) * (len(edges) - len(input_grads)))
            # Send each input its gradient, reduced to its shape and dtype; an input whose every
            # gradient has arrived is ready. A ready leaf accumulates at once: as in PyTorch, whose
            # ready queue puts AccumulateGrad first, a parameter's ``.grad`` is final as soon as its
            # last gradient arrived (DDP starts all-reducing it then), not after the deeper layers.
            for (child, output_nr), gi in zip(edges, input_grads):
                if child is None:
                    continue
                # A multi-output node's ``_shape`` is None: its gradients always take the slow branch.
                if gi is not None and (gi.__class__ is not _ndarray or gi.shape != child._shape
                                       or (gi.dtype is not child._dtype and gi.dtype != child._dtype)):
                    gi = _to_input(child, output_nr, gi)
                count = dependencies[child] - 1
                dependencies[child] = count
                if child in pending:  # (one lookup where most inputs, reached once, have no sum pending)
                    earlier = pending.pop(child)
                    gi = earlier if gi is None else earlier + gi
                if count:  # more gradients are to reach it
                    if gi is not None:
                        pending[child] = gi
                elif child.__class__ is not AccumulateGrad:
                    ready.append((child, gi))
                elif gi is None:
                    pass
                elif plain and type(gi) is _ndarray and child._pre_hooks is None:
                    accumulate(child, gi)  # the fast path, as above
                else:
                    step(child, gi)
        while len(end_of_pass_callbacks) > queued:  # those this pass's hooks queued, in order
            end_of_pass_callbacks.pop(queued)()
    finally:
        del end_of_pass_callbacks[queued:]
        state.enabled, _graph.needed_nodes = previous_mode, previous_needed
        _graph.backward_passes -= 1
    return run.captured


class _Pass:
    """The settings of one backward pass, and what it captured at ``targets``."""

    def __init__(self, ready_roots: list, root_grads: list, dependencies: dict, retain_graph: bool,
                 create_graph: bool, targets: list | None, capture: bool) -> None:
        self.retain_graph, self.create_graph, self.capture = retain_graph, create_graph, capture
        self.targets = set(targets) if targets is not None else None
        # Only nodes from which a target can be reached run for ``inputs=`` and ``grad``.
        self.needed = None if targets is None else _needed(ready_roots, dependencies, targets)
        self.check_nan = anomaly_mode.STATE.enabled and anomaly_mode.STATE.check_nan
        # A pass on arrays that captures nothing and checks no NaNs: ``_run`` runs its nodes
        # without hooks directly (see ``FAST_PATH``).
        self.plain = FAST_PATH and not (create_graph or self.check_nan or targets is not None)
        # The gradient arrays that leaves own (see ``claim``): made on the first claim, as most passes
        # only add into existing ``.grad`` arrays.
        self.root_grads = root_grads
        self.given: set[int] | None = None
        self.captured: dict = {}

    def step(self, node: Node, g: Any) -> tuple:
        """Runs ``node`` on the gradient ``g`` that arrived at it; returns its inputs' gradients."""
        if g.__class__ is not _ndarray and isinstance(g, np.generic):  # NumPy returns scalars from 0-d
            g = np.asarray(g)                                         # arithmetic; tensors hold arrays
        if node._pre_hooks or node.retained is not None or self.targets is not None or node._output_hooks:
            g = self.arrive(node, g)
            if g is None:
                return ()
        if node.__class__ is AccumulateGrad:
            self.accumulate(node, g)
            return ()
        # The node's backward: on arrays, or recorded on Tensors when ``create_graph``.
        if self.create_graph:
            input_grads = _call_recorded_backward(node, g)
        elif node.backward is None:
            input_grads = _backward_of_composition_on_arrays(node, g)
        else:
            input_grads = node.backward(node, g)
        if input_grads.__class__ is not tuple:
            input_grads = (input_grads,)
        if node._post_hooks:
            input_grads = _run_post_hooks(node, input_grads, g, self.create_graph)
        if self.check_nan:
            anomaly_mode.check_gradients(node, input_grads)
        if node._saved is not None and not self.retain_graph:
            node._saved = _graph.FREED  # saved values are freed once they are used
        return input_grads

    def arrive(self, node: Node, g: Any) -> Any:
        """Runs the node's hooks on ``g``, keeps it for ``retain_grad`` and ``grad``; returns the
        gradient to run the node on, or None when the node need not run."""
        if node._output_hooks:
            g = _run_output_hooks(node._output_hooks, g, self.create_graph)
        if node._pre_hooks:
            run = _run_hooks if g.__class__ is not OutputGrads else _run_hooks_on_outputs
            g = run(node._pre_hooks, g, self.create_graph)
        if node.retained is not None:
            store_retained(node, g)
        if self.targets is not None and node in self.targets:
            self.captured[node] = g
            if self.capture:
                return None
        if self.needed is not None and node not in self.needed:
            return None
        return g

    def accumulate(self, node: AccumulateGrad, g: Any) -> None:
        """Adds ``g`` to the leaf's ``.grad`` (unless ``grad`` captures it), then runs its
        post-accumulate hooks."""
        leaf = node._variable()
        if self.capture or leaf is None:
            return
        if leaf._hooks:
            g = _run_hooks(leaf._hooks, g, self.create_graph)
        grad = leaf._grad
        if self.create_graph:
            if grad is not None:
                leaf._grad = grad + g
            elif g._requires_grad:
                leaf._grad = g
            else:  # a gradient without history may be shared (add's inputs) or read-only: PyTorch copies it
                leaf._grad = _graph.wrap(g._data.copy())
                leaf._grad._vc = [1]  # (PyTorch's copy_ into a new tensor counts as a version)
        elif grad is None:
            leaf._grad = _graph.wrap(self.claim(g))
        elif grad._requires_grad:
            leaf._grad = _graph.wrap(grad._data + g)
        else:
            data = grad._data
            data += g
            grad._bump_version()
        if leaf._post_accumulate_hooks:
            for hook in tuple(leaf._post_accumulate_hooks):
                hook(leaf)

    def claim(self, g: Any) -> Any:
        """``g``, or a copy of it where a leaf cannot keep it as its ``.grad``: ops like add pass one
        gradient array to several inputs, and views of a gradient share its memory, but a leaf's
        ``.grad`` must own its storage, since it is later changed in place."""
        given = self.given
        if given is None:
            given = self.given = set(map(id, self.root_grads))
            given.update(id(g.base) for g in self.root_grads if getattr(g, "base", None) is not None)
        owner = g if g.base is None else _whole_view_base(g)
        if owner is None or id(owner) in given:
            g = owner = g.copy()
        given.add(id(owner))
        return g


def _call_recorded_backward(node: Node, g: Any) -> tuple:
    """Runs ``node.backward`` on Tensors, with ``ctx.xp`` the Tensor namespace, so it builds a graph."""
    array_xp, node.xp, node.recording = node.xp, tensor_math, True
    try:
        if node.compose is not None:
            result = _backward_of_composition(node, g)
        elif node.backward_node is not None:
            result = _backward_as_one_node(node, node.backward_node, g)
        elif isinstance(node, _graph.Op):  # a built-in formula: numbers in it are Scalars (_graph.native_formula)
            previous, _graph.native_formula = _graph.native_formula, True
            try:
                result = node.backward(node, g)
            finally:
                _graph.native_formula = previous
        else:
            result = node.backward(node, g)
    finally:
        node.xp, node.recording = array_xp, False
    return result if type(result) is tuple else (result,)


def _backward_as_one_node(node: Any, name: str, g: Any) -> Any:
    """The op's backward recorded as one node named ``name`` (its ``backward_node``), as PyTorch records its backward
    kernel: the backward's composition of ops on ``g`` and the saved Tensors (a ``Composite``), whose own
    derivatives come from that composition. Same values as the backward run op by op."""
    def backward(grad: Any, *saved: Any) -> Any:
        return node.backward(_SavedAs(node, saved), grad)
    return composed(name, backward, g, *node.saved_tensors, outputs=len(node.next_functions))


class _SavedAs:
    """``node`` as its backward sees it in a recorded pass, with ``saved_tensors`` the given Tensors."""

    xp, recording = tensor_math, True

    def __init__(self, node: Node, saved: tuple) -> None:
        self._node, self.saved_tensors = node, saved

    def __getattr__(self, name: str) -> Any:
        return getattr(self._node, name)


def run_backward(node: Node, g: Any) -> tuple:
    """``node``'s backward on ``g``, as the pass under way runs a node: on arrays, or recorded when ``g`` is a
    Tensor (``create_graph``). For a node that wraps another (CopySlices); ``_graph.run_backward``."""
    if isinstance(g, _graph.Tensor):
        return _call_recorded_backward(node, g)
    if node.backward is None:
        return _backward_of_composition_on_arrays(node, g)
    grads = node.backward(node, g)
    return grads if type(grads) is tuple else (grads,)


_graph.run_backward = run_backward


def _backward_of_composition(node: Node, g: Any, create_graph: bool = True, retain_graph: bool | None = None) -> tuple:
    """The vector-Jacobian product of the op's composition of recordable ops (see ``Op.compose``)."""
    inputs, out = node.compose(node)
    if isinstance(g, OutputGrads):  # a node of several outputs: those that a gradient reached
        arrived = [(o, gi) for o, gi in zip(out, g.slots) if gi is not None]
        out, g = [o for o, _ in arrived], [gi for _, gi in arrived]
    wanted = [i for i, need in enumerate(node.needs_input_grad) if need]
    grads = grad(out, [inputs[i] for i in wanted], g, retain_graph=retain_graph, create_graph=create_graph,
                 allow_unused=True)
    result: list = [None] * len(inputs)
    for i, gi in zip(wanted, grads):
        result[i] = gi
    return tuple(result)


def _backward_of_composition_on_arrays(node: Node, g: Any) -> tuple:
    """The backward of a node that has only its composition (``Composite``), outside a recorded pass:
    its composition is differentiated (kept: the node may run again with ``retain_graph``); the gradients
    come back as arrays."""
    wrapped = (OutputGrads([None if gi is None else _graph.wrap(gi) for gi in g.slots]) if isinstance(g, OutputGrads)
               else _graph.wrap(g))  # (a node of several outputs: a MultiComposite)
    with grad_mode.enable_grad():
        grads = _backward_of_composition(node, wrapped, create_graph=False, retain_graph=True)
    return tuple(None if gi is None else gi._data for gi in grads)


def _to_input(node: Node, output_nr: int, g: Any) -> Any:
    """The gradient ``g`` sent to output ``output_nr`` of ``node``, in that output's shape and dtype."""
    shape = node._shape
    if shape is None:  # a node of several outputs (``_output_shapes``)
        return OutputGrads.one(node, output_nr, g)
    if type(g) is _ndarray and g.ndim == len(shape) + 1 and g.dtype == node._dtype and g.shape[1:] == shape:
        # Fast path: a bias's gradient, summed over the batch; np.add.reduce skips ndarray.sum's Python
        # wrapper and the axes search (callgrind, a (4, 8) gradient to an (8,) bias: 15.2K -> 12.1K instructions).
        return np.add.reduce(g, axis=0)
    return _reduce_to_input(g, shape, node._dtype)


def _reduce_to_input(g: Any, shape: tuple, dtype: Any) -> Any:
    """Sums a broadcast gradient back to the input's shape and casts it to the input's dtype; a complex
    gradient sent to a real input gives its real part, as PyTorch's (the imaginary part is the
    derivative along directions a real input cannot move in)."""
    if isinstance(g, _graph.Tensor):
        if g._data.shape != shape:
            g = tensor_math.sum_to(g, shape)
        if g._data.dtype.kind == "c" and dtype.kind != "c":
            g = complex_ops.real(g)
        return g if g._data.dtype == dtype else tensor_math.astype(g, dtype)
    if g.shape != shape:
        g = sum_to_array(g, shape)
    if g.dtype.kind == "c" and dtype.kind != "c":
        g = g.real
    return g if g.dtype == dtype else g.astype(dtype)


def sum_to_array(g: Any, shape: tuple) -> Any:
    """Sums ``g`` over the dimensions that broadcasting added or stretched to reach ``g.shape``."""
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    if lead:
        g = g.reshape(shape)
    return g


def _run_output_hooks(hooks: dict, g: OutputGrads, create_graph: bool) -> OutputGrads:
    """The hooks of each output of a node with several outputs, each on its output's gradient."""
    slots = list(g.slots)
    for output_nr, output_hooks in hooks.items():
        if slots[output_nr] is not None and output_hooks:
            slots[output_nr] = _run_hooks(output_hooks, slots[output_nr], create_graph)
    return OutputGrads(slots)


def _run_hooks(hooks: list, g: Any, create_graph: bool) -> Any:
    wrapped = g if create_graph else _graph.wrap(g)
    for hook in hooks:
        result = hook(wrapped)
        if result is not None:
            wrapped = result
    return wrapped if create_graph else wrapped._data


def _run_hooks_on_outputs(hooks: list, g: OutputGrads, create_graph: bool) -> OutputGrads:
    """Pre-hooks of a node of several outputs, on the tuple of their gradients (None where none arrived)."""
    grads = tuple(v if create_graph or v is None else _graph.wrap(v) for v in g.slots)
    for hook in hooks:
        result = hook(grads)
        if result is not None:
            grads = result
    return OutputGrads([v if create_graph or v is None else v._data for v in grads])


def _run_post_hooks(node: Node, input_grads: tuple, g: Any, create_graph: bool) -> tuple:
    """``Node.register_hook``'s hooks on ``(grad_inputs, grad_outputs)``, one gradient per edge."""
    def wrap(value: Any) -> Any:
        return value if create_graph or value is None else _graph.wrap(value)
    padded = (*input_grads, *(None,) * (len(node.next_functions) - len(input_grads)))
    grad_inputs, grad_outputs = tuple(wrap(v) for v in padded), (wrap(g),)
    for hook in list(node._post_hooks or ()):
        result = hook(grad_inputs, grad_outputs)
        if result is not None:
            grad_inputs = tuple(result)
    return grad_inputs if create_graph else tuple(None if v is None else v._data for v in grad_inputs)


def _whole_view_base(g: Any) -> Any:
    """The array that ``g`` views when ``g`` covers all of its memory (as ``weight.t()``'s gradient
    transposed back covers the product it views), else None: such a view is owned as its base is."""
    base = g.base
    if type(base) is type(g) and base.base is None and g.nbytes == base.nbytes and _dense(g) and _dense(base):
        return base
    return None


def _dense(array: Any) -> bool:
    return array.flags.c_contiguous or array.flags.f_contiguous


class OutputGrads:
    """The gradients arriving at a node with several outputs: one slot per output, None until a
    gradient for that output arrives. ``+`` merges two, slot by slot, as the engine accumulates."""

    # The engine compares a gradient's shape and dtype with the node's; these match a multi-output
    # node's (None), so it does not try to reduce the slots as one array.
    shape = None
    dtype = None

    def __init__(self, slots: list) -> None:
        self.slots = slots

    @classmethod
    def one(cls, node: Node, output_nr: int, grad: Any) -> OutputGrads:
        """The slots with ``grad`` for output ``output_nr``, reduced to that output's shape and dtype."""
        shapes, dtypes = node._output_shapes, node._output_dtypes
        assert shapes is not None and dtypes is not None  # only a multi-output node gets slots
        shape, dtype = shapes[output_nr], dtypes[output_nr]
        if grad.__class__ is _graph.Tensor or grad.shape != shape or grad.dtype != dtype:
            grad = _reduce_to_input(grad, shape, dtype)
        slots = [None] * len(shapes)
        slots[output_nr] = grad
        return cls(slots)

    def __add__(self, other: OutputGrads) -> OutputGrads:
        return OutputGrads([b if a is None else a if b is None else a + b for a, b in zip(self.slots, other.slots)])
