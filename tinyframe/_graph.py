"""Nodes of the backward graph (PyTorch's ``grad_fn`` objects) and the base class of every op.

The lowest layer above dtypes, devices and grad mode: it imports nothing else of tinyframe. It is
the one place where arrays become Tensors: ``tensor.py`` registers the ``Tensor`` class here
(``register_tensor_class``, as HIPS autograd's ``Box.register`` does), so the ops, the engine and
the factory functions make and recognise Tensors through ``_graph.Tensor`` and ``wrap`` without
importing the layer above them.

An op is one ``Op`` subclass holding its ``forward`` and ``backward`` side by side. The op instance
made for one call is both the ``ctx`` its two methods see and the graph node that the result's
``grad_fn`` points to, so nothing is captured in closures and what backward needs is declared in
one place: ``ctx.save_for_backward``.
"""
from __future__ import annotations

import contextlib
import functools
import operator
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import grad_mode
from .device import array_module_of
from .dtypes import BFLOAT16_NUMPY, bfloat16, narrow_bfloat16, scalar_type_name, widen_bfloat16
from .memory_format import iterator_layout, laid_out, suggested_order

if TYPE_CHECKING:
    from .tensor import Tensor as TensorType

# The Tensor class: set once by tensor.py through register_tensor_class, before any op runs.
Tensor: Any = None

class _FreedValues(tuple):
    """The type of ``FREED``."""


# What a node's ``_saved`` becomes once a backward pass without ``retain_graph`` used it: empty and false
# as "nothing saved" (None) is, but not the same object, so that reading it raises ``_FREED_MESSAGE``. (One
# attribute where a second, a ``_freed`` flag, cost each node of a pass an attribute store: callgrind, tiny
# graph -0.9K instructions.)
FREED = _FreedValues()

_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")

# Kinds of saved value: an input tensor, the op's own output, or a constant array (a mask, an index)
# through which no gradient flows.
_INPUT, _OUTPUT, _CONSTANT = 0, 1, 2
_NO_EDGE = (None, 0)
# Backward passes under way (the engine counts them). A node's ``saved_tensors`` serve its backward;
# outside a pass a node has none, as PyTorch's built-in nodes have none (torchviz tells those from
# custom Function nodes so), and shows what it saved as ``_saved_self``, ``_saved_other``, ``_saved_result``.
backward_passes = 0
# The nodes the running backward pass needs when it computes gradients for chosen inputs only
# (``autograd.grad``, ``backward(inputs=...)``): those from which a chosen input can be reached, as
# PyTorch's task's exec_info. None in a plain pass. The engine sets it per pass; ``needs_input_grad``
# reads it, so a node skips the gradients of inputs that lead to no chosen one.
needed_nodes: set | None = None
# True while the engine records a built-in op's backward formula (``create_graph``): a number in the formula's
# arithmetic is then a Scalar, as in PyTorch's C++ formulas (``grad * 2`` is MulBackward1, ``x + 1``
# AddBackward1), where Python's ``t * 2`` wraps the number in a tensor (MulBackward0); ``tensor._NATIVE``.
native_formula = False
# The (pack_hook, unpack_hook) pairs of the ``autograd.graph.saved_tensors_hooks`` contexts open now,
# innermost last: a tensor saved for backward is kept as what the innermost pack hook returned.
saved_tensors_hooks: list = []
_new_node = object.__new__
_new_tensor = object.__new__
_ndarray, _numpy_scalar = np.ndarray, np.generic  # module constants: ``np.ndarray`` is a lookup per use


def register_tensor_class(cls: type) -> None:
    """Makes ``cls`` the class that ops return and recognise; called once, by ``tensor.py``."""
    global Tensor
    Tensor = cls


def wrap(data: Any, grad_fn: Any = None, requires_grad: bool | None = None,
         version_counter: list | None = None) -> TensorType:
    """Wraps an array as a Tensor without copying (the hot path of every op)."""
    if isinstance(data, np.generic):  # NumPy gives a scalar for a reduction or ufunc of a 0-d array
        data = np.asarray(data)
    t = _new_tensor(Tensor)
    t._data = data
    t.grad_fn = grad_fn
    t._requires_grad = grad_fn is not None if requires_grad is None else requires_grad
    t._grad = None
    if version_counter is not None:
        t._vc = version_counter
    if grad_mode.STATE.inference:
        t._inference = True
    return t


class Node:
    """A function of the backward graph.

    ``next_functions`` holds one ``(node, 0)`` pair per input: the input's ``grad_fn``, the
    ``AccumulateGrad`` of a leaf that requires grad, or ``None``.
    """

    next_functions: tuple = ()
    _shape: tuple | None = ()  # the shape and dtype of the node's output: what a gradient arriving here must have
    _dtype: Any = None
    _saved: tuple | list | None = None  # save_for_backward's values; once recorded, ``_describe_saved``'s entries
    _pre_hooks: list | None = None
    _post_hooks: list | None = None  # Node.register_hook's: hook(grad_inputs, grad_outputs) after the node ran
    _output_hooks: dict | None = None  # a node of several outputs: output_nr -> the hooks on that output's gradient
    retained: Any = None  # weakref to the output tensor when it called retain_grad()
    _metadata: dict | None = None
    # For a node with several outputs (a custom Function returning a tuple): their shapes and dtypes;
    # the engine then hands it one gradient slot per output (``OutputGrads``) instead of one array.
    _output_shapes: tuple | None = None
    _output_dtypes: tuple | None = None
    # An op whose backward works on arrays only gives ``compose(ctx) -> (inputs, output)``: its
    # output recomputed from recordable ops; a recorded backward pass differentiates that instead.
    compose: Any = None
    # What the engine runs on a node other than a leaf's AccumulateGrad (an Op, a custom Function's
    # node): its ``backward(node, grad)``, with ``xp`` and ``recording`` set around it; None for a node
    # differentiated through ``compose`` alone (``Composite``).
    backward: Any = None
    # PyTorch's node for the op's backward kernel, where it has one of its own (``SigmoidBackwardBackward0``): a
    # recorded backward pass records the backward as that one node (``autograd.engine``); None: as the ops it runs.
    backward_node: str | None = None
    # Whether the engine may call ``backward`` straight away in a plain pass: the node has a backward
    # of its own and no pre-hooks or ``retain_grad`` (one test in place of three per node).
    _direct = False
    if TYPE_CHECKING:
        xp: Any
        recording: bool

        @property
        def needs_input_grad(self) -> tuple: ...

    def name(self) -> str:
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        """A dict for the user's own data about this node, kept as long as the node (PyTorch's
        ``Node.metadata``)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"

    def _add_prehook(self, hook: Any) -> None:
        """Runs ``hook(grad)`` on the gradient arriving at this node, before it runs (a tensor's hook)."""
        if self._pre_hooks is None:
            self._pre_hooks = []
            self._direct = False
        if hook not in self._pre_hooks:
            self._pre_hooks.append(hook)

    def register_prehook(self, hook: Any) -> RemovableHandle:
        """Runs ``hook(grad_outputs)`` before this node runs: ``grad_outputs`` is the tuple of the
        gradients arriving at the node's outputs; a returned tuple replaces them (PyTorch's
        ``Node.register_prehook``)."""
        def on_gradient(grad: Any) -> Any:
            several = isinstance(grad, tuple)  # (the engine passes a node of several outputs a tuple)
            result = hook(grad if several else (grad,))
            return None if result is None else tuple(result) if several else result[0]
        self._add_prehook(on_gradient)
        return RemovableHandle(self._pre_hooks, on_gradient)  # type: ignore[arg-type]

    def register_hook(self, hook: Any) -> RemovableHandle:
        """Runs ``hook(grad_inputs, grad_outputs)`` after this node ran: ``grad_inputs`` holds the
        gradients it computed for its inputs (one per ``next_functions`` entry, None where there is
        none); a returned tuple replaces them (PyTorch's ``Node.register_hook``)."""
        if self._post_hooks is None:
            self._post_hooks = []
            self._direct = False
        self._post_hooks.append(hook)
        return RemovableHandle(self._post_hooks, hook)


class RemovableHandle:
    """Returned by the ``register_*hook`` functions; ``remove()`` unregisters the hook, as leaving a
    ``with handle:`` block does."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


class AccumulateGrad(Node):
    """The sink node of a leaf tensor: adds the arriving gradient to ``variable.grad``.

    The leaf keeps its node (so every op reuses it) and the node refers to the leaf weakly: a
    strong reference both ways would be a cycle that delays freeing the leaf until a GC pass.
    """

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"  # PyTorch's name: the C++ class, namespace included

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"  # PyTorch's repr: the class name alone

    def __init__(self, variable: Any) -> None:
        self._variable = weakref.ref(variable)
        # The leaf's shape and dtype now; a leaf whose storage is replaced (``.data =``,
        # ``Module.to``) drops its node, so the next graph gets a fresh one.
        self._shape, self._dtype = variable._data.shape, variable._data.dtype

    @property
    def variable(self) -> Any:
        return self._variable()


def accumulator_of(tensor: Any) -> AccumulateGrad | None:
    """The leaf's AccumulateGrad node, made on first use; none for a view made without grad of a tensor
    that requires grad (it requires grad, but PyTorch's ops record no edge to it)."""
    node = tensor._accumulator
    if node is None:
        if tensor._creation is NO_GRAD_VIEW:
            return None
        node = tensor._accumulator = AccumulateGrad(tensor)
    return node


def edge_of(tensor: Any) -> tuple:
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if tensor.requires_grad:
        return (accumulator_of(tensor), 0)
    return _NO_EDGE


def edges_of(inputs: Sequence[Any]) -> tuple:
    """``next_functions`` for a node with these inputs: a ``(node, 0)`` edge per input; numbers get
    ``(None, 0)``."""
    edges: list[tuple[Any, int]] = []
    for value in inputs:
        if not isinstance(value, Tensor):
            edges.append(_NO_EDGE)
        elif value.grad_fn is not None:
            edges.append((value.grad_fn, value._output_nr))
        elif value._requires_grad:
            edges.append((value._accumulator or accumulator_of(value), 0))
        else:
            edges.append(_NO_EDGE)
    return tuple(edges)


class Op(Node):
    """Base of every differentiable op.

    Subclasses define ``forward(ctx, *inputs, **options) -> array`` on raw NumPy/CuPy arrays and
    ``backward(ctx, grad) -> gradient or tuple of gradients, one per positional input``. In
    backward, ``ctx.xp`` is the array module, or a NumPy-like namespace over Tensors when the
    backward pass itself is recorded (``create_graph=True``), so one formula serves both and
    higher-order derivatives follow. The engine reduces each gradient to its input's shape and dtype.

    Positional arguments of ``apply`` are the op's inputs (Tensors, or numbers that get a
    ``(None, 0)`` edge as in PyTorch); keyword arguments are options and are not graph inputs.
    """

    _direct = True
    is_view = False  # True for ops whose output shares the first input's storage (reshape, transpose, ...)
    # False for ops that move values without computing (dtype and device copies): they see bfloat16 arrays as
    # they are; the others compute on float32 copies (``dtypes.widen_bfloat16``), as does their backward
    widens_bfloat16 = True
    # True for ops that give a bfloat16 input's dtype whatever their float32 parameters (PyTorch's CPU
    # normalisations in mixed precision: a bfloat16 input with float32 weights gives bfloat16)
    keeps_input_dtype = False
    _widened = False  # set on a node whose forward ran on float32 copies of bfloat16 inputs
    xp: Any = np  # the array module of the op's inputs; set per op for CuPy
    recording = False  # True while the engine runs backward with create_graph=True
    forward: Callable[..., Any]  # forward(ctx, *arrays, **options) -> array, a staticmethod of each op
    # PyTorch's names for what a node saved, its ``_saved_<name>`` attributes (read on demand, as
    # torchviz's ``show_saved`` and ``show_attrs`` do): the saved inputs in order, then options kept
    # on the ctx (``ctx.alpha``); a saved output is ``_saved_result``.
    saved_inputs: tuple = ("self", "other")
    saved_options: tuple = ()
    # True for ops that save one entry per operand, in order (Mul, Div): ``_saved_self`` is then the
    # first entry, None where the op kept none, or a number saved as PyTorch's 0-d tensor
    saves_operands = False
    # For an op of two operands that saves both (Mul, Div), per saved operand the input whose gradient needs
    # it (None: both need it): PyTorch saves an operand only where that gradient is computed, so ``h * mask``
    # with a mask (or a number) that needs no gradient keeps no ``h``, and an in-place change of ``h``
    # afterwards is no error.
    kept_for: tuple | None = None
    # True for the sparse ops (``ops.sparse``), whose inputs mix sparse and dense arrays by design
    mixes_layouts = False
    # True for ops whose result PyTorch lays out row-major whatever their input's layout (reductions,
    # softmax, cumulative ops, cat, ...): NumPy keeps a transposed input's order, and ``view`` of such a
    # result would then fail where PyTorch's succeeds. Elementwise ops keep the layout in both.
    row_major = False
    # True for elementwise ops of several tensors (add, mul, where, ...): PyTorch lays their result out as
    # its TensorIterator orders the operands' dimensions (``memory_format.iteration_order``: the first
    # operand's layout wins), where NumPy's order 'K' falls back to row-major when layouts differ.
    elementwise = False
    # True for ops whose result PyTorch lays out in its first input's suggested memory format: channels
    # last where that input is (4-d or 5-d), else row-major (padding, interpolation, group_norm).
    suggests_format = False
    # Whether one of the three above is set (``__init_subclass__``): one class attribute read per op on the hot path
    _lays_out = False

    if TYPE_CHECKING:
        # The op instance is also the ``ctx`` of its forward and backward: a free-form namespace for
        # what forward keeps for backward (``ctx.axes = ...``), as PyTorch's ``ctx`` is (typed ``Any``).
        def __getattr__(self, name: str) -> Any: ...
        def __setattr__(self, name: str, value: Any) -> None: ...

    def __init_subclass__(cls, node_name: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__name__ = cls.__qualname__ = node_name or cls.__name__ + "Backward0"
        if any(name in cls.__dict__ for name in ("saved_inputs", "saved_options", "saves_operands")):
            _add_saved_attributes(cls)
        cls._lays_out = cls.row_major or cls.elementwise or cls.suggests_format

    @classmethod
    def apply(cls, *inputs: Any, **options: Any) -> Any:
        """Runs the op on Tensors (or numbers) and records a node when any input requires grad."""
        arrays = []
        edges = []  # the node's ``next_functions`` if it is recorded (``edges_of`` inlined: the hot path of every op)
        requires_grad = False
        array_type = None
        for value in inputs:
            if isinstance(value, Tensor):
                data = value._data
                if array_type is None:
                    array_type = type(data)
                elif type(data) is not array_type and not cls.mixes_layouts:
                    return _mixed_arrays(cls, inputs, options)
                arrays.append(data)
                node = value.grad_fn
                if node is not None:  # (a tensor with a grad_fn requires grad)
                    edges.append((node, value._output_nr))
                    requires_grad = True
                elif value._requires_grad:
                    edges.append((value._accumulator or accumulator_of(value), 0))
                    requires_grad = True
                else:
                    edges.append(_NO_EDGE)
            elif isinstance(value, (int, float, complex)) or value is None:
                arrays.append(value)
                edges.append(_NO_EDGE)
            else:
                raise TypeError(f"{cls.__name__.removesuffix('Backward0')}: unsupported input of type "
                                f"{type(value).__name__}; expected a Tensor or a number")
        if array_type is None:
            raise TypeError(f"{cls.__name__.removesuffix('Backward0')}: expected a Tensor input, got "
                            f"{', '.join(type(v).__name__ for v in inputs)}")
        ctx = _new_node(cls)
        if array_type is not _ndarray:
            ctx.xp = array_module_of(array_type)
        narrow = None
        if BFLOAT16_NUMPY and cls.widens_bfloat16 and not cls.is_view:
            narrow = widen_bfloat16(arrays)
            if narrow is False and cls.keeps_input_dtype and inputs[0].dtype is bfloat16:
                narrow = True
            narrow = narrow and options.get("dtype") is None  # sum(dtype=...) gives that dtype
            if narrow is not None and cls.backward is not None:
                ctx._widened, ctx.backward = True, _widened_backward
        try:
            out = cls.forward(ctx, *arrays, **options) if options else cls.forward(ctx, *arrays)
        except ValueError as exc:  # NumPy's broadcasting and shape errors, re-raised with the op's shapes
            if cls.backward is None:  # a composition's ValueErrors are its own checks' (Composite)
                raise
            raise shape_error(cls.__name__.removesuffix("Backward0"), inputs, exc) from exc
        except SparseInput:  # the forward met a sparse tensor: the op's sparse kernel runs instead
            return _sparse_kernel(cls, inputs, options)
        if type(out) is not array_type and isinstance(out, _numpy_scalar):
            scalar, out = out, np.asarray(out)  # NumPy returns scalars from 0-d computations; tensors hold arrays
            if ctx._saved is not None:  # a saved output must be the result's own array
                ctx._saved = [out if value is scalar else value for value in ctx._saved]
        if narrow:
            out = _narrowed(ctx, out)
        if cls._lays_out and out.ndim > 1:  # (a vector or a scalar has one dense layout)
            out = _laid_out(cls, ctx, arrays, out, array_type)
        result = _new_tensor(Tensor)
        result._data = out
        result._grad = None
        if requires_grad and grad_mode.STATE.enabled:
            result.grad_fn = ctx
            result._requires_grad = True
            ctx._record(tuple(edges), inputs, arrays, result)
        else:
            result.grad_fn = None
            result._requires_grad = False
            if grad_mode.STATE.inference and not cls.is_view:  # (a view is one where its base is)
                result._inference = True
        if cls.is_view:
            mark_view(result, inputs[0], None)
        return result

    @classmethod
    def call(cls, *inputs: Any, **options: Any) -> Any:
        """Runs the op inside another op's backward, on what that backward holds: Tensors (the pass
        is recorded, ``create_graph=True``) go through ``apply`` and are recorded; arrays give an
        array and record nothing. So a backward that calls its adjoint op this way serves
        derivatives of every order without testing the mode."""
        first = None  # the first array, when it is not a NumPy ndarray (a CuPy one)
        numpy = False
        for value in inputs:
            if type(value) is _ndarray:  # (the common case first: one test per input)
                numpy = True
            elif isinstance(value, Tensor):
                return cls.apply(*inputs, **options)
            elif not numpy and first is None and hasattr(value, "shape") and not isinstance(value, _numpy_scalar):
                first = value
        ctx = _new_node(cls)
        if first is not None:
            ctx.xp = array_module_of(first)
        return cls.forward(ctx, *inputs, **options) if options else cls.forward(ctx, *inputs)

    def _record(self, edges: tuple, inputs: tuple, arrays: list, result: Any) -> None:
        self.next_functions = edges
        out = result._data
        self._shape, self._dtype = out.shape, out.dtype
        if self._saved is not None:
            if self.kept_for is not None and (edges[0][0] is None or edges[1][0] is None):
                self._saved = tuple(None if needer is not None and edges[needer][0] is None else value
                                    for value, needer in zip(self._saved, self.kept_for))
            self._saved = _describe_saved(self._saved, inputs, arrays, result)

    @property
    def needs_input_grad(self) -> tuple:
        """One flag per positional input: whether backward must compute its gradient, that is whether
        the input requires grad and, in a pass for chosen inputs, leads to one of them."""
        needed = needed_nodes
        flags = []  # (a loop: two thirds of the instructions of a list comprehension, a function in Python 3.11)
        for node, _ in self.next_functions:
            flags.append(node is not None and (needed is None or node in needed))
        return tuple(flags)

    def save_for_backward(self, *values: Any) -> None:
        """Declares what backward needs: input arrays, the output array, or constant arrays."""
        self._saved = values

    @property
    def saved_tensors(self) -> tuple:
        """The saved values, for the op's backward: arrays, or Tensors while the backward pass is
        being recorded."""
        if not backward_passes:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'saved_tensors'")
        saved = self._saved
        if not saved:
            if saved is FREED:
                raise RuntimeError(_FREED_MESSAGE)
            return ()
        values = []
        recording = self.recording
        for kind, value, counter, version in saved:
            # (a value kept by a pack hook is the hook's: PyTorch checks no version there)
            if counter is not None and counter[0] != version and value.__class__ is not Packed:
                raise RuntimeError(_inplace_message(self, value, kind, counter[0], version))
            if value.__class__ is Packed:  # (a test, not a call: this loop runs for every saved value)
                value = unpacked(value, kind)
            if kind == _INPUT:
                values.append(value if recording else value._data)
            elif kind == _OUTPUT and recording:
                values.append(wrap(value, self, version_counter=counter))
            else:
                values.append(value)
        if self._widened:  # the forward computed on float32 copies of bfloat16 arrays: so does backward
            return tuple([_widened(value) for value in values])
        return tuple(values)

    @property
    def _saved_result(self) -> Any:
        return self._unpack_saved("result", _OUTPUT, 0)

    def _unpack_saved(self, name: str, kind: int, index: int) -> Any:
        """``_saved_<name>``: the ``index``-th saved value of this kind, the input Tensor itself or
        the output as a Tensor whose ``grad_fn`` is this node (as PyTorch unpacks a saved output)."""
        if self._saved is FREED:
            raise RuntimeError(_FREED_MESSAGE)
        entries = [entry for entry in self._saved or () if type(entry) is tuple and entry[0] == kind]
        if index >= len(entries):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{name}'")
        _, value, counter, version = entries[index]
        if counter is not None and counter[0] != version and value.__class__ is not Packed:
            raise RuntimeError(_inplace_message(self, value, kind, counter[0], version))
        value = unpacked(value, kind)
        return value if kind == _INPUT else wrap(value, self, version_counter=counter)

    def _unpack_operand(self, name: str, position: int) -> Any:
        """``_saved_<name>`` of an op that ``saves_operands``: the operand at ``position`` as PyTorch shows it."""
        saved = self._saved
        if saved is FREED:
            raise RuntimeError(_FREED_MESSAGE)
        if saved is None or position >= len(saved):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{name}'")
        kind, value = saved[position][:2]
        if kind == _CONSTANT:  # a number operand (wrapped as PyTorch wraps it), or None: not kept
            return None if value is None else wrap(np.asarray(value, _WRAPPED_NUMBER_DTYPES[type(value)]))
        before = sum(1 for entry in saved[:position] if entry[0] == kind)
        return self._unpack_saved(name, kind, before)

    def __dir__(self) -> list:
        """As PyTorch's: the ``_saved_*`` names listed are those this node has."""
        kinds = [entry[0] for entry in self._saved or () if type(entry) is tuple]
        cls = type(self)
        count = len(kinds) if cls.saves_operands else kinds.count(_INPUT)
        has = {f"_saved_{name}" for name in cls.saved_inputs[:count]}
        has.update(f"_saved_{name}" for name in cls.saved_options if name in vars(self))
        if _OUTPUT in kinds:
            has.add("_saved_result")
        return [name for name in super().__dir__() if not name.startswith("_saved_") or name in has]


def _laid_out(cls: type[Op], ctx: Op, arrays: list, out: Any, array_type: type) -> Any:
    """The op's result ``out`` (of two or more dimensions) laid out as PyTorch lays it out (``Op.row_major``,
    ``Op.elementwise``, ``Op.suggests_format``), and saved so if the forward saved it."""
    xp = ctx.xp
    if cls.row_major:
        laid = out if out.flags.c_contiguous else xp.ascontiguousarray(out)
    elif cls.elementwise:
        # With every operand row-major, NumPy's result is PyTorch's; a sparse kernel's arrays keep theirs.
        if xp.ndarray is not array_type or all(type(array) is not array_type or array.ndim < 2
                                               or array.flags.c_contiguous for array in arrays):
            return out
        laid = iterator_layout(xp, arrays, out)
    else:
        laid = laid_out(xp, out, suggested_order(arrays[0]))
    if laid is not out and ctx._saved is not None:
        ctx._saved = [laid if value is out else value for value in ctx._saved]
    return laid


def _narrowed(ctx: Op, out: Any) -> Any:
    """The float32 result of a forward on widened bfloat16 inputs, rounded to bfloat16; an output the forward
    saved is saved rounded, as backward in PyTorch sees the bfloat16 output (a saturated tanh has slope 0)."""
    narrowed = narrow_bfloat16(out)
    if ctx._saved is not None:
        pairs = list(zip(out, narrowed)) if type(out) is tuple else [(out, narrowed)]
        ctx._saved = [next((n for o, n in pairs if value is o), value) for value in ctx._saved]
    return narrowed


def _widened_backward(ctx: Op, g: Any) -> Any:
    """The backward of a node whose forward computed bfloat16 in float32: on float32 gradients too (its saved
    inputs are widened by ``saved_tensors``); the engine rounds the gradients to each input's dtype."""
    slots = getattr(g, "slots", None)  # a node of several outputs gets the engine's ``OutputGrads``
    if slots is not None:
        g.slots = [_widened(s) for s in slots]
    else:
        g = _widened(g)
    return type(ctx).backward(ctx, g)


def _widened(array: Any) -> Any:
    """A float32 copy of a bfloat16 array; anything else (a Tensor of a recorded pass, None) as it is."""
    return array.astype(np.float32) if isinstance(array, np.ndarray) and array.dtype is BFLOAT16_NUMPY[0] else array


# How a view was made, when in-place ops on it are refused (PyTorch's CreationMeta other than DEFAULT): in
# no_grad mode, or as one of several outputs (split, unbind). A view of such a view inherits it.
NO_GRAD_VIEW, MULTI_OUTPUT_VIEW = "no_grad", "multi_output"


def mark_view(view: Any, base: Any, counter: list | None) -> None:
    """Makes ``view`` a view of ``base``'s storage: it shares the version counter, and its ``_base`` is the
    tensor that is no view (PyTorch's: a view of a view has the first one's base).

    The counter, ``[version]``, also lists (weakly) the views of a base that has a history: a recorded
    in-place op on the base or on any of its views rewrites that history, and then each of these views takes
    its elements from the new one (``inplace.rebase_views``), as PyTorch regenerates a view's ``grad_fn``."""
    if counter is None:
        counter = base._vc
        if counter is None:
            counter = base._vc = [0]
    view._vc = counter
    if base._inference:
        view._inference = True
    root = base._base
    if root is None:
        root = base
    elif base._creation is not None:
        view._creation = base._creation
    view._base = root
    if not grad_mode.STATE.enabled:
        view._creation = NO_GRAD_VIEW
        # PyTorch's view made without grad requires grad where its base does, and is a leaf that no
        # gradient reaches (``accumulator_of``)
        view._requires_grad = base._requires_grad
    elif root.grad_fn is not None:
        counter.append(weakref.ref(view))
        size = len(counter)
        if size >= 64 and not size & (size - 1):  # at each power of two, the dead views dropped (amortised O(1))
            counter[1:] = [ref for ref in counter[1:] if ref() is not None]


# The engine's way of running one node's backward on a gradient, as the pass under way runs every node
# (set by ``autograd.engine``, the layer above): CopySlices runs the node of the in-place op it wraps.
run_backward: Callable[[Node, Any], tuple]


class MultiOutputOp(Op):
    """Base of an op with several outputs (``unbind``, ``split``, a fused LSTM layer): one node, which
    each output's ``grad_fn`` is, the output's position its ``output_nr`` (as in PyTorch).

    ``forward`` returns a tuple of arrays and ``apply`` a tuple of Tensors; of the outputs, only the
    first may be saved for backward as an output. ``backward(ctx, grads)``
    gets the engine's ``OutputGrads``: ``grads.slots`` holds one gradient per output, None for an
    output no gradient reached (``ctx.filled(grads)`` puts zeros there).
    """

    outputs_are_views = False  # True where every output views the first input's storage (unbind, split)
    row_major = False  # (its result is a tuple: ``var_mean``'s outputs keep NumPy's order)

    @classmethod
    def apply(cls, *inputs: Any, **options: Any) -> Any:
        packed = super().apply(*inputs, **options)  # a Tensor holding the tuple, unpacked here
        node = packed.grad_fn
        base = inputs[0] if cls.outputs_are_views else None
        counter = base._version_counter() if base is not None else None
        outputs = []
        for k, array in enumerate(packed._data):
            t = wrap(array, node)  # (a NumPy scalar from a 0-d computation becomes a 0-d array there)
            if k and node is not None:
                t._output_nr = k
            elif packed._vc is not None:  # the first output saved for backward: its version counter
                t._vc = packed._vc
            if base is not None:
                mark_view(t, base, counter)
                if grad_mode.STATE.enabled:  # (in no_grad mode the view is marked NO_GRAD_VIEW)
                    t._creation = MULTI_OUTPUT_VIEW
            outputs.append(t)
        return tuple(outputs)

    def _record(self, edges: tuple, inputs: tuple, arrays: list, result: Any) -> None:
        outs = result._data
        self.next_functions = edges
        self._shape = None  # no single shape: the engine sends each output's gradient through ``OutputGrads``
        self._output_shapes = tuple(out.shape for out in outs)
        self._output_dtypes = tuple(out.dtype for out in outs)
        self._module = self.xp  # the array module (the engine swaps ``xp`` while it records a backward pass)
        if self._saved is not None:  # the first output is saved as an output (so a recorded backward
            result._data = outs[0]     # pass differentiates through it, as Std's does); others as constants
            self._saved = _describe_saved(self._saved, inputs, arrays, result)
            result._data = outs

    def filled(self, grads: Any) -> list:
        """The gradients of all outputs: the arrived ones, zeros (of the output's shape and dtype) for
        the others, Tensors while the backward pass is recorded."""
        shapes, dtypes = self._output_shapes, self._output_dtypes
        assert shapes is not None and dtypes is not None
        filled = []
        for g, shape, dtype in zip(grads.slots, shapes, dtypes):
            if g is None:
                g = self._module.zeros(shape, dtype)
                g = wrap(g) if self.recording else g
            filled.append(g)
        return filled


class NotImplementedOp(Op, node_name="NotImplemented"):
    """An op PyTorch records without a derivative: its node's class is ``NotImplemented`` and its
    ``name()`` ``torch::autograd::NotImplemented``; subclasses keep ``node_name="NotImplemented"``."""

    def name(self) -> str:
        return "torch::autograd::NotImplemented"


# The dtype of a number that PyTorch wraps as a 0-d tensor
_WRAPPED_NUMBER_DTYPES = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def _add_saved_attributes(cls: type[Op]) -> None:
    """The class's ``_saved_<name>`` properties, read on demand."""
    for index, name in enumerate(cls.saved_inputs):
        unpack = (functools.partial(Op._unpack_operand, name=name, position=index) if cls.saves_operands else
                  functools.partial(Op._unpack_saved, name=name, kind=_INPUT, index=index))
        setattr(cls, f"_saved_{name}", property(unpack))
    for name in cls.saved_options:
        setattr(cls, f"_saved_{name}", property(operator.attrgetter(name)))


_add_saved_attributes(Op)


def _new_counter(result: Any) -> list:
    counter = result._vc = [0]
    return counter


class Packed:
    """A saved tensor as a pack hook returned it; ``restore()`` gives the Tensor back through the unpack hook."""

    __slots__ = ("packed", "unpack", "shape")

    def __init__(self, tensor: Any) -> None:
        pack, self.unpack = saved_tensors_hooks[-1]
        self.shape = tensor.shape
        with _hooks_off():  # what a hook computes is not saved through the hooks again
            self.packed = pack(tensor)

    def restore(self) -> Any:
        with _hooks_off():
            tensor = self.unpack(self.packed)
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(tensor).__name__}")
        return tensor


@contextlib.contextmanager
def _hooks_off() -> Iterator[None]:
    hooks = saved_tensors_hooks[:]
    saved_tensors_hooks.clear()
    try:
        yield
    finally:
        saved_tensors_hooks[:] = hooks


def packed_if_hooked(tensor: Any) -> Any:
    """``tensor``, or what the pack hook made of it while a ``saved_tensors_hooks`` context is open."""
    return Packed(tensor) if saved_tensors_hooks else tensor


def unpacked(value: Any, kind: int) -> Any:
    """A saved value as backward reads it: a packed one restored (an output as its array)."""
    if type(value) is not Packed:
        return value
    tensor = value.restore()
    return tensor._data if kind == _OUTPUT else tensor


INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                   "mode in computation tracked by autograd. To work around this, you can make a clone to get a normal "
                   "tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")


def _describe_saved(values: Sequence[Any], inputs: tuple, arrays: list, result: Any) -> list:
    """What backward reads back, each as ``(kind, value, version counter, version when saved)``:
    an input is kept as its Tensor and the op's output as its array, with their version counters
    (to detect in-place changes made after saving); constants as they are."""
    out = result._data
    described: list[tuple[int, Any, Any, Any]] = []
    for value in values:
        if value is out:
            counter = _new_counter(result)
            # (``packed_if_hooked`` written inline here and below: a call per saved value costs ~1K instructions)
            described.append((_OUTPUT, Packed(result) if saved_tensors_hooks else value, counter, 0))
            continue
        position = 0  # (an index loop: half the time of one over zip(inputs, arrays) for two inputs)
        for array in arrays:
            # (a number input is its own "array", or, for a bfloat16 op, that number rounded: not a Tensor)
            if value is array and isinstance(inputs[position], Tensor):
                tensor = inputs[position]
                if tensor._inference:
                    raise RuntimeError(INFERENCE_SAVED)
                counter = tensor._vc
                if counter is None:
                    counter = tensor._vc = [0]
                described.append((_INPUT, Packed(tensor) if saved_tensors_hooks else tensor, counter, counter[0]))
                break
            position += 1
        else:
            described.append((_CONSTANT, value, None, None))
    return described


def _inplace_message(node: Any, value: Any, kind: int, found: int, expected: int, output_nr: int = 0) -> str:
    """PyTorch's error for a saved tensor modified in place after it was saved. It names the tensor's type
    and sizes and the node whose output the tensor is: for a saved output the node that saved it, for a
    saved input the input's ``grad_fn`` now (the in-place op's node; none for a leaf), by the forward
    op's name (``Exp`` for ExpBackward0, ``G`` for a custom Function G)."""
    if kind == _OUTPUT:
        source, array = (node, output_nr), value
    else:
        source, array = (value.grad_fn, value._output_nr), value._data
    described = f"[{type_string(array)} {list(array.shape)}]"
    if source[0] is not None:
        name = source[0].name()
        base = name.rstrip("0123456789")
        described += f", which is output {source[1]} of {base[:-8] if base.endswith('Backward') else name},"
    hint = ("the backtrace further above shows the operation that failed to compute its gradient. The variable "
            "in question was changed in there or anywhere later. Good luck!" if grad_mode.ANOMALY.enabled else
            "enable anomaly detection to find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"{described} is at version {found}; expected version {expected} instead. Hint: {hint}")


# PyTorch's legacy tensor types (``torch.FloatTensor``); tensors of other dtypes print as ``CPUBFloat16Type``.
_LEGACY_TYPES = frozenset(["Float", "Double", "Half", "Byte", "Char", "Short", "Int", "Long", "Bool"])


def type_string(array: Any) -> str:
    """PyTorch's ``Tensor::toString()`` of a tensor with this array: ``torch.FloatTensor``,
    ``torch.cuda.LongTensor``, ``CPUComplexFloatType``."""
    name = scalar_type_name(array.dtype)
    cuda = type(array) is not np.ndarray
    if name in _LEGACY_TYPES:
        return f"torch.{'cuda.' if cuda else ''}{name}Tensor"
    return f"{'CUDA' if cuda else 'CPU'}{name}Type"


def shape_error(op_name: str, inputs: tuple, cause: Exception) -> RuntimeError:
    """A RuntimeError naming the shapes of the op's tensor inputs (PyTorch's exact wording for broadcasting)."""
    shapes = [tuple(v.shape) for v in inputs if hasattr(v, "shape")]
    described = " and ".join(str(s) for s in shapes)
    if len(shapes) >= 2:
        a, b = shapes[0], shapes[1]
        for dim in range(1, min(len(a), len(b)) + 1):
            if a[-dim] != b[-dim] and 1 not in (a[-dim], b[-dim]):
                return RuntimeError(f"The size of tensor a ({a[-dim]}) must match the size of tensor b "
                                    f"({b[-dim]}) at non-singleton dimension {max(len(a), len(b)) - dim}")
    return RuntimeError(f"{op_name}: incompatible shapes {described}: {cause}")


class SparseInput(NotImplementedError):
    """Raised by a sparse tensor's array (``ops.sparse.COO``) when a dense op's forward computes on it: the op
    then runs its sparse kernel from ``SPARSE_KERNELS``, where PyTorch's dispatcher picks the SparseCPU one.
    Dense tensors never reach this: the dispatch costs nothing on their path. Outside an op's forward (a
    method that reads the array itself) it reaches the caller, as PyTorch's NotImplementedError."""

    def __init__(self, name: str) -> None:
        super().__init__(f"sparse COO tensors do not support this operation (it needs the array's '{name}')")


# The sparse kernels of dense ops, by node class name (``MmBackward0``): ``kernel(*inputs, **options)``.
# ``ops.sparse`` fills it when it loads, which it does before any sparse tensor exists.
SPARSE_KERNELS: dict[str, Callable[..., Any]] = {}


def _is_sparse_input(value: Any) -> bool:
    return isinstance(value, Tensor) and getattr(value._data, "layout", None) == "sparse_coo"


def _sparse_kernel(cls: type, inputs: tuple, options: dict) -> Any:
    """The op's sparse kernel run on its inputs; PyTorch's NotImplementedError where there is none."""
    kernel = SPARSE_KERNELS.get(cls.__name__)
    if kernel is None:
        name = cls.__name__.removesuffix("Backward0").removesuffix("Backward1")
        aten = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
        backend = next(f"Sparse{'CPU' if v.device.type == 'cpu' else 'CUDA'}" for v in inputs if _is_sparse_input(v))
        raise NotImplementedError(f"Could not run 'aten::{aten}' with arguments from the '{backend}' backend. This "
                                  "could be because the operator doesn't exist for this backend, or was omitted "
                                  "during the selective/custom build process (if using custom build).")
    return kernel(*inputs, **options)


def _mixed_arrays(cls: type, inputs: tuple, options: dict) -> Any:
    """An op's inputs hold arrays of different types: a sparse tensor among dense ones (its sparse kernel
    runs), or tensors on different devices (PyTorch's RuntimeError)."""
    if any(_is_sparse_input(v) for v in inputs):
        return _sparse_kernel(cls, inputs, options)
    _raise_device_mismatch(inputs)


def _raise_device_mismatch(inputs: tuple) -> None:
    devices = []
    for value in inputs:
        if isinstance(value, Tensor) and str(value.device) not in devices:
            devices.append(str(value.device))
    if "meta" in devices:
        other = next(d for d in devices if d != "meta")
        raise RuntimeError(f"Tensor on device {other} is not on the expected device meta!")
    raise RuntimeError("Expected all tensors to be on the same device, but found at least two "
                       f"devices, {devices[0]} and {devices[1]}! Move them with .to(device) first.")
