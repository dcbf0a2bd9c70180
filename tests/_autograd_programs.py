"""Random autograd programs, shared by ``test_autograd_programs.py`` and the script that recorded PyTorch's
traces (``python -m tests._autograd_programs_record`` with PyTorch installed, from the repository root).

``program(seed)`` writes a small Python program (a list of steps, each a few lines of source) over a pool of
autograd steps: leaves, elementwise ops and reductions, views, in-place writes to non-leaves and to their views,
``detach``/``detach_``, ``requires_grad_``, ``retain_grad``, tensor and node hooks, saved-tensor hooks, grad-mode
blocks, ``backward`` and ``autograd.grad`` with their options, a second backward through a freed graph, custom
``autograd.Function``s and higher-order gradients. ``trace(lib, steps)`` runs it with ``torch`` bound to ``lib``
and returns what a user could see: each step's exception (type and message), the hook calls in order with their
arguments, and every tensor's ``grad_fn`` (and the names along ``next_functions``, three deep), ``is_leaf``,
``requires_grad``, ``_version``, ``retains_grad``, values and ``.grad``.
"""
from __future__ import annotations

import random
import warnings
from typing import Any

_SHAPES = [(3,), (2, 3), (2, 2), (1, 3)]
_UNARY = ["exp()", "sin()", "tanh()", "sigmoid()", "relu()", "neg()", "abs()", "pow(2)", "mul(3)", "clone()",
          "clamp(-0.5, 0.5)", "cos()", "log1p()", "square()"]
_BINARY = ["{a} + {b}", "{a} * {b}", "{a} - {b}", "{a} / ({b} * {b} + 1)", "torch.maximum({a}, {b})",
           "torch.where({a} > 0, {a}, {b})", "{a}.mul({b}).add({a})", "torch.atan2({a}, {b})"]
_REDUCE = ["sum()", "mean()", "prod()", "max()", "norm()", "sum(0)", "mean(-1)", "amax(0)", "logsumexp(0)",
           "var()", "sum(0, keepdim=True)", "cumsum(0)", "softmax(-1)"]
_INPLACE = ["add_(1)", "mul_(2)", "clamp_(min=-0.5)", "zero_()", "sub_({b})", "mul_({b})", "copy_({b})",
            "masked_fill_({a}.detach() > 0, 0.5)", "exp_()", "sigmoid_()", "div_(2)", "neg_()"]


class Tracer:
    """What the hooks of a program call: they append to ``log``."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self.log: list = []
        self.functions = _functions(lib, self.log)

    def hook(self, name: str, scale: float | None = None) -> Any:
        def hook(grad: Any) -> Any:
            self.log.append(("hook", name, _value(grad)))
            return None if scale is None else grad * scale
        return hook

    def node_hook(self, name: str) -> Any:
        def hook(grad_inputs: tuple, grad_outputs: tuple) -> None:
            self.log.append(("node_hook", name, [_value(g) for g in grad_inputs], [_value(g) for g in grad_outputs]))
        return hook

    def prehook(self, name: str, scale: float | None = None) -> Any:
        def hook(grad_outputs: tuple) -> Any:
            self.log.append(("prehook", name, [_value(g) for g in grad_outputs]))
            return None if scale is None else tuple(None if g is None else g * scale for g in grad_outputs)
        return hook

    def pack(self, x: Any) -> Any:
        self.log.append(("pack", tuple(x.shape), _dtype(x)))
        return x

    def unpack(self, x: Any) -> Any:
        self.log.append(("unpack", tuple(x.shape)))
        return x

    def record(self, name: str, value: Any) -> None:
        self.log.append(("result", name, _value(value)))


def _functions(lib: Any, log: list) -> dict:
    """Custom ``autograd.Function``s over ``lib``."""
    Function = lib.autograd.Function

    class Cube(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    class DoubleInPlace(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    class WithIndex(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            index = (x > 0).to(x.dtype)
            ctx.mark_non_differentiable(index)
            return x * 2, index

        @staticmethod
        def backward(ctx: Any, g: Any, g_index: Any) -> Any:
            log.append(("WithIndex.backward", _value(g), _value(g_index)))
            return g * 2

    class Unmaterialized(Function):
        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            ctx.set_materialize_grads(False)
            return x * 2, y + 1

        @staticmethod
        def backward(ctx: Any, gx: Any, gy: Any) -> Any:
            log.append(("Unmaterialized.backward", _value(gx), _value(gy)))
            return gx, gy

    class FirstOnly(Function):
        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            ctx.save_for_backward(y)
            return x * y

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            y, = ctx.saved_tensors
            log.append(("FirstOnly.needs_input_grad", tuple(ctx.needs_input_grad)))
            return g * y, None

    return {"Cube": Cube, "DoubleInPlace": DoubleInPlace, "WithIndex": WithIndex,
            "Unmaterialized": Unmaterialized, "FirstOnly": FirstOnly}


def _value(x: Any) -> Any:
    """A plain description of a hook's argument or a result: nested lists of rounded floats."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, (tuple, list)):
        return [_value(v) for v in x]
    if hasattr(x, "shape") and hasattr(x, "tolist"):
        return [_dtype(x), _round(x.detach().tolist())]
    return type(x).__name__


def _dtype(x: Any) -> str:
    return str(x.dtype).rsplit(".", 1)[-1]


def _round(values: Any) -> Any:
    if isinstance(values, list):
        return [_round(v) for v in values]
    if isinstance(values, float):
        return round(values, 10) if values == values else "nan"
    return values


def _node(fn: Any, depth: int) -> Any:
    if fn is None:
        return None
    name = type(fn).__name__
    if depth == 0:
        return name
    return [name, [_node(next_fn, depth - 1) for next_fn, _ in getattr(fn, "next_functions", ())]]


DESCRIBED = ("grad_fn", "is_leaf", "requires_grad", "version", "retains_grad", "value", "grad")


def describe(t: Any) -> list:
    """What a user sees of tensor ``t``'s autograd state: ``DESCRIBED`` in order (a value or a gradient as
    ``[dtype, values]``, rounded)."""
    out = []
    for read in (lambda: _node(t.grad_fn, 3), lambda: t.is_leaf, lambda: t.requires_grad, lambda: t._version,
                 lambda: t.retains_grad, lambda: _value(t),
                 lambda: _value(t.grad) if t.is_leaf or t.retains_grad else "-"):
        try:
            out.append(read())
        except Exception as error:  # noqa: BLE001 - what a user would see is the trace
            out.append(_error(error))
    return out


def _error(error: BaseException) -> list:
    return ["error", type(error).__name__, str(error).split("\n")[0]]


def trace(lib: Any, steps: list[str]) -> dict:
    """Runs ``steps`` with ``torch`` bound to ``lib``: each step's error (or None), the log of hook calls and
    the description of every tensor the program named, in order of creation."""
    tracer = Tracer(lib)
    scope: dict = {"torch": lib, "T": tracer, **tracer.functions}
    errors = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in steps:
            try:
                exec(step, scope)  # noqa: S102 - the program is ours
                errors.append(None)
            except Exception as error:  # noqa: BLE001
                errors.append(_error(error))
        tensors = {name: describe(value) for name, value in scope.items()
                   if name.startswith("t") and hasattr(value, "grad_fn")}
    return {"errors": errors, "log": tracer.log, "tensors": tensors}


class _Writer:
    """Writes one program: tensors ``t0, t1, ...`` with the shapes it believes they have."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.shapes: dict[str, tuple] = {}
        self.steps: list[str] = []

    def new(self, shape: tuple) -> str:
        name = f"t{len(self.shapes)}"
        self.shapes[name] = shape
        return name

    def pick(self, ndim: int | None = None) -> str:
        names = [n for n, s in self.shapes.items() if ndim is None or len(s) == ndim] or list(self.shapes)
        return self.rng.choice(names[-6:] if self.rng.random() < 0.7 else names)

    def partner(self, a: str) -> str:
        same = [n for n, s in self.shapes.items() if s == self.shapes[a] and n != a]
        return self.rng.choice(same) if same else self.leaf(self.shapes[a])

    def leaf(self, shape: tuple | None = None) -> str:
        rng = self.rng
        shape = shape or rng.choice(_SHAPES)
        count = 1
        for size in shape:
            count *= size
        flat = [round(rng.uniform(-2, 2), 1) for _ in range(count)]
        values: Any = flat if len(shape) == 1 else [flat[i * shape[1]:(i + 1) * shape[1]] for i in range(shape[0])]
        dtype = rng.choice(["float64", "float64", "float32"])
        requires = rng.random() < 0.8
        name = self.new(shape)
        self.steps.append(f"{name} = torch.tensor({values}, dtype=torch.{dtype}, requires_grad={requires})")
        return name

    def assign(self, expression: str, shape: tuple) -> str:
        name = self.new(shape)
        self.steps.append(f"{name} = {expression}")
        return name

    def unary(self) -> None:
        a = self.pick()
        self.assign(f"{a}.{self.rng.choice(_UNARY)}", self.shapes[a])

    def binary(self) -> None:
        a = self.pick()
        b = self.partner(a)
        self.assign(self.rng.choice(_BINARY).format(a=a, b=b), self.shapes[a])

    def reduce(self) -> None:
        a = self.pick()
        op = self.rng.choice(_REDUCE)
        shape = self.shapes[a]
        if "(0" in op or "(-1" in op:
            if "keepdim" in op:
                shape = (1,) + shape[1:]
            elif op.startswith(("cumsum", "softmax")):
                pass
            else:
                shape = shape[1:] if "(0" in op else shape[:-1]
        else:
            shape = ()
        self.assign(f"{a}.{op}", shape)

    def view(self) -> None:
        a = self.pick()
        shape = self.shapes[a]
        rng = self.rng
        if len(shape) == 2:
            options = [("t()", shape[::-1]), ("transpose(0, 1)", shape[::-1]), ("permute(1, 0)", shape[::-1]),
                       ("diagonal()", (min(shape),)), ("[0]", shape[1:]), ("[:, 1:]", (shape[0], shape[1] - 1)),
                       ("select(1, 0)", shape[:1]), ("unbind(0)[-1]", shape[1:]), ("split(1, 1)[0]", (shape[0], 1)),
                       ("view(-1)", (shape[0] * shape[1],)), ("reshape(-1)", (shape[0] * shape[1],)),
                       ("unsqueeze(0)", (1,) + shape), ("as_strided((2,), (1,))", (2,)),
                       ("squeeze(0)" if shape[0] == 1 else "squeeze()", shape[1:] if shape[0] == 1 else shape),
                       (f"expand(2, {shape[0]}, {shape[1]})", (2,) + shape)]
        elif len(shape) == 1:
            options = [("[1:]", (shape[0] - 1,)), ("unsqueeze(1)", shape + (1,)),
                       (f"expand(2, {shape[0]})", (2,) + shape), ("split(1)[0]", (1,)),
                       ("as_strided((2,), (1,))", (2,)), ("view(1, -1)", (1,) + shape),
                       ("[0]", ()), ("narrow(0, 1, 1)", (1,)), ("unbind(0)[0]", ())]
        elif len(shape) == 0:
            options = [("view(1)", (1,)), ("unsqueeze(0)", (1,)), ("expand(3)", (3,))]
        else:
            options = [("view(-1)", (shape[0] * shape[1] * shape[2],)), ("[0]", shape[1:])]
        op, new_shape = rng.choice(options)
        self.assign(f"{a}{op}" if op.startswith("[") else f"{a}.{op}", new_shape)

    def inplace(self) -> None:
        a = self.pick()
        rng = self.rng
        op = rng.choice(_INPLACE + ["[0] = 1.5", "index_put_"])
        if op == "[0] = 1.5":
            self.steps.append(f"{a}[0] = 1.5" if self.shapes[a] else f"{a}.fill_(1.5)")
        elif op == "index_put_":
            index = "()" if not self.shapes[a] else "(torch.tensor([0]),)"
            self.steps.append(f"{a}.index_put_({index}, torch.tensor(3.0, dtype={a}.dtype))")
        else:
            b = self.partner(a) if "{b}" in op else a
            self.steps.append(f"{a}.{op.format(a=a, b=b)}")

    def state(self) -> None:
        a = self.pick()
        rng = self.rng
        choice = rng.randrange(6)
        if choice == 0:
            self.assign(f"{a}.detach()", self.shapes[a])
        elif choice == 1:
            self.steps.append(f"{a}.detach_()")
        elif choice == 2:
            self.steps.append(f"{a}.requires_grad_({rng.choice(['', 'False'])})")
        elif choice == 3:
            self.steps.append(f"{a}.retain_grad()")
        elif choice == 4:
            self.assign(f"{a}.clone().requires_grad_()", self.shapes[a])
        else:
            self.assign(f"{a}.detach().clone().requires_grad_()", self.shapes[a])

    def hook(self) -> None:
        a = self.pick()
        rng = self.rng
        scale = rng.choice([None, None, 2.0, -1.0])
        choice = rng.randrange(4)
        if choice == 0:
            self.steps.append(f"{a}.register_hook(T.hook({a!r}, {scale}))")
        elif choice == 1:
            self.steps.append(f"{a}.grad_fn.register_hook(T.node_hook({a!r}))")
        elif choice == 2:
            self.steps.append(f"{a}.grad_fn.register_prehook(T.prehook({a!r}, {scale}))")
        else:
            self.steps.append(f"handle = {a}.register_hook(T.hook({a!r}))\nhandle.remove()")

    def block(self) -> None:
        a = self.pick()
        b = self.partner(a)
        rng = self.rng
        head = rng.choice(["torch.no_grad()", "torch.enable_grad()", "torch.set_grad_enabled(False)",
                           "torch.inference_mode()", "torch.autograd.graph.saved_tensors_hooks(T.pack, T.unpack)",
                           "torch.autograd.graph.saved_tensors_hooks(T.pack, T.unpack)"])
        name = self.new(self.shapes[a])
        body = rng.choice([f"{name} = {a} * {b}", f"{name} = {a}.exp() + {b}", f"{name} = {a}.sin()"])
        if head == "torch.enable_grad()":
            self.steps.append(f"with torch.no_grad():\n    with torch.enable_grad():\n        {body}")
        else:
            self.steps.append(f"with {head}:\n    {body}")

    def backward(self) -> None:
        a = self.pick()
        rng = self.rng
        options = ", ".join(rng.choice([[], ["retain_graph=True"], ["create_graph=True"]]))
        if not self.shapes[a] and rng.random() < 0.5:
            self.steps.append(f"{a}.backward({options})")
        elif rng.random() < 0.5:
            self.steps.append(f"{a}.backward(torch.ones_like({a}){', ' if options else ''}{options})")
        else:
            self.steps.append(f"{a}.sum().backward({options})")

    def grad(self) -> None:
        out = self.pick()
        inputs = sorted({self.pick() for _ in range(self.rng.randint(1, 2))})
        rng = self.rng
        options = [f"allow_unused={rng.choice([True, False, None])}", f"retain_graph={rng.choice([True, None])}"]
        if rng.random() < 0.3:
            options.append(f"materialize_grads={rng.choice([True, False])}")
        create = rng.random() < 0.4
        if create:
            options.append("create_graph=True")
        target = f"{out}.sum()" if rng.random() < 0.6 else out
        if target == out:
            options.append(f"grad_outputs=torch.ones_like({out})")
        call = f"torch.autograd.grad({target}, [{', '.join(inputs)}], {', '.join(options)})"
        name = self.new(self.shapes[inputs[0]])
        self.steps.append(f"result = {call}\nT.record({name!r}, result)\n{name} = result[0]")

    def function(self) -> None:
        a = self.pick()
        choice = self.rng.randrange(5)
        shape = self.shapes[a]
        if choice == 0:
            self.assign(f"Cube.apply({a})", shape)
        elif choice == 1:
            self.assign(f"DoubleInPlace.apply({a})", shape)
        elif choice == 2:
            self.assign(f"WithIndex.apply({a})[{self.rng.randrange(2)}]", shape)
        elif choice == 3:
            b = self.partner(a)
            self.assign(f"Unmaterialized.apply({a}, {b})[0]", shape)
        else:
            b = self.partner(a)
            self.assign(f"FirstOnly.apply({a}, {b})", shape)


_STEPS = {"leaf": 2, "unary": 3, "binary": 3, "reduce": 2, "view": 4, "inplace": 4, "state": 2, "hook": 3,
          "block": 2, "backward": 3, "grad": 2, "function": 2}


def program(seed: int, length: int = 12) -> list[str]:
    """The steps of random program number ``seed``."""
    writer = _Writer(seed)
    writer.leaf()
    writer.leaf()
    kinds, weights = list(_STEPS), list(_STEPS.values())
    for _ in range(length):
        getattr(writer, writer.rng.choices(kinds, weights)[0])()
    writer.backward()
    return writer.steps


_LEAVES = ["t0 = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)",
           "t1 = torch.tensor([1.5, 0.25, -0.5], dtype=torch.float32, requires_grad=True)"]

# Written programs, one per behaviour that the random ones found differing from PyTorch's.
CASES: dict[str, list[str]] = {
    "inference tensors have no version": ["with torch.inference_mode():\n    t0 = torch.ones(2)\n    t1 = t0 * 2"],
    "detach_ refuses views": [*_LEAVES, "t2 = t0 * 2", "t3 = t2[1:]", "t3.detach_()", "t4 = torch.ones(3)[1:]",
                              "t4.detach_()", "t5 = t2.view(3, 1)", "t2.detach_()"],
    "grad checks its outputs first": [*_LEAVES, "t2 = t0.detach()", "torch.autograd.grad(t2.sum(), [t2])",
                                      "torch.autograd.grad(t2.sum(), [t0, None])",
                                      "torch.autograd.grad(t0.sum(), [t0, None])"],
    "materialize_grads without allow_unused": [
        *_LEAVES, "t2 = t0 * 2", "torch.autograd.grad(t2.sum(), [t1], allow_unused=False, materialize_grads=True)",
        "T.record('t1', torch.autograd.grad(t2.sum(), [t1], materialize_grads=True))"],
    "materialized grads require grad with create_graph": [
        *_LEAVES, "t2 = t0 * 2",
        "result = torch.autograd.grad(t2.sum(), [t0, t1], materialize_grads=True, create_graph=True)",
        "t3, t4 = result", "t4.sum().backward()"],
    "dirty leaf bumped before refusal": [*_LEAVES, "t2 = t0 + 0", "t3 = DoubleInPlace.apply(t0)",
                                         "t4 = t1 * 1", "t5 = DoubleInPlace.apply(t4)"],
    "create_graph backward owns its grads": [
        *_LEAVES, "(t0 + t1.double()).backward(torch.ones(3, dtype=torch.float64), create_graph=True)",
        "t2 = t0.grad", "t2.mul_(5)", "t0.sum().backward()", "t3 = torch.ones(3, requires_grad=True)",
        "t3.sum().backward(create_graph=True)", "t3.sum().backward()", "t4 = t3.grad"],
    "pre-hook of a node of several outputs": [
        *_LEAVES, "t2, t3 = WithIndex.apply(t0)", "t2.grad_fn.register_prehook(T.prehook('t2', -1.0))",
        "t2.sum().backward(retain_graph=True)", "t4, t5 = Unmaterialized.apply(t0, t1)",
        "t4.grad_fn.register_prehook(T.prehook('t4'))", "t5.sum().backward()"],
}

# Random programs recorded: ones that differed from PyTorch's before the fixes above, and others.
SEEDS = [3, 5, 10, 11, 14, 15, 24, 26, 36, 48, 60, 75, 87, 105, 126, 155, 160, 218, 283, 1, 2, 4, 6, 7, 8]
