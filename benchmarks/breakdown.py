"""``bench.py --profile``: where a step's time goes, tinyframe beside PyTorch.

Three tables per case:
1. the parts of the step (forward with the loss, backward with zero_grad, optimizer), timed plainly
   and interleaved, as medians over the repeats, with tinyframe / PyTorch per part;
2. tinyframe per op type: the self time of each ``Op`` class's ``apply`` (forward; time in nested
   ops is charged to them) and of its node's backward in the engine, plus the engine's own time
   (ordering, un-broadcasting, sending gradients) and leaf accumulation;
3. PyTorch per op: ``torch.profiler``'s self CPU time per aten op.

The op timings wrap ``Op.apply`` and the engine's ``_Pass.step`` (a node's backward or leaf accumulation) here, only
while profiling, with the engine's fast path (which skips ``step``) turned off: the library's hot path carries no
hooks. The wrappers cost about a microsecond per op, so table 2 over-states small ops; table 1 is unhooked.
"""
from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tinyframe import _graph
from tinyframe.autograd import engine

PARTS = ("forward", "backward", "optimizer")
TOP = 12


def timed_parts(step: Any) -> dict[str, float]:
    """Runs ``step`` once (a TrainStep, an EvalPass or a plain callable); seconds per part."""
    if not hasattr(step, "forward"):
        started = time.perf_counter()
        step()
        return {"step": time.perf_counter() - started}
    t0 = time.perf_counter()
    loss = step.forward()
    t1 = time.perf_counter()
    if not hasattr(step, "backward"):
        return {"forward": t1 - t0}
    step.backward(loss)
    t2 = time.perf_counter()
    step.update()
    return {"forward": t1 - t0, "backward": t2 - t1, "optimizer": time.perf_counter() - t2}


def part_seconds(steps: dict[str, Any], iterations: int, repeat: int) -> dict[str, dict[str, float]]:
    """Per implementation and part, the median over ``repeat`` interleaved rounds of seconds per call."""
    for step in steps.values():
        step()
    rounds: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in steps}
    for _ in range(repeat):
        for name, step in steps.items():
            total: dict[str, float] = defaultdict(float)
            for _ in range(iterations):
                for part, seconds in timed_parts(step).items():
                    total[part] += seconds
            for part, seconds in total.items():
                rounds[name][part].append(seconds / iterations)
    return {name: {part: statistics.median(v) for part, v in parts.items()} for name, parts in rounds.items()}


@contextmanager
def op_timers(forward: dict[str, float], backward: dict[str, float]) -> Iterator[None]:
    """While active, adds each Op class's self seconds in ``apply`` to ``forward`` and each node's
    seconds in the engine (backward, or leaf accumulation) to ``backward``, keyed by node name."""
    original_apply = _graph.Op.__dict__["apply"]
    original_step = engine._Pass.step
    run_apply = original_apply.__func__
    nested: list[float] = []  # per active apply, the seconds spent in the applies it made

    def apply(cls: type, *inputs: Any, **options: Any) -> Any:
        nested.append(0.0)
        started = time.perf_counter()
        try:
            return run_apply(cls, *inputs, **options)
        finally:
            elapsed = time.perf_counter() - started
            forward[cls.__name__] += elapsed - nested.pop()
            if nested:
                nested[-1] += elapsed

    def timed(method: Callable) -> Callable:
        def run(self: Any, node: Any, g: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(self, node, g)
            finally:
                backward[type(node).__name__] += time.perf_counter() - started
        return run

    _graph.Op.apply = classmethod(apply)
    engine._Pass.step = timed(original_step)
    engine.FAST_PATH = False  # every node through ``step``, where it is timed
    try:
        yield
    finally:
        _graph.Op.apply = original_apply
        engine._Pass.step = original_step
        engine.FAST_PATH = True


def tinyframe_ops(step: Any, calls: int) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Per call: tinyframe's self forward seconds and backward seconds per node name, and the parts."""
    forward: dict[str, float] = defaultdict(float)
    backward: dict[str, float] = defaultdict(float)
    parts: dict[str, float] = defaultdict(float)
    with op_timers(forward, backward):
        for _ in range(calls):
            for part, seconds in timed_parts(step).items():
                parts[part] += seconds
    per_call = lambda table: {k: v / calls for k, v in table.items()}  # noqa: E731
    return per_call(forward), per_call(backward), per_call(parts)


def torch_ops(step: Any, calls: int) -> list[tuple[str, float]]:
    """PyTorch's self CPU seconds per call for its most expensive aten ops."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            step()
    events = sorted(prof.key_averages(), key=lambda e: e.self_cpu_time_total, reverse=True)
    return [(e.key, e.self_cpu_time_total * 1e-6 / calls) for e in events[:TOP]]


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.3f}"


def profile(case: Any, repeat: int) -> list[str]:
    """The three tables for ``case``, as lines."""
    steps = {name: case.steps[name] for name in ("tinyframe", "torch") if name in case.steps}
    medians = part_seconds(steps, case.iterations, repeat)
    header = f"   {'part':<22}" + "".join(f"{name:>10}" for name in steps)
    lines = [f"== {case.title}: ms per call, medians of {repeat} interleaved repeats (unhooked)",
             header + ("  tinyframe/torch" if len(steps) > 1 else "")]
    parts = list(medians["tinyframe"])
    for part in parts + ["total"]:
        values = {name: (sum(medians[name].values()) if part == "total" else medians[name].get(part, 0.0))
                  for name in steps}
        ratio = f"  {values['tinyframe'] / values['torch']:8.2f} x" if "torch" in values and values["torch"] else ""
        lines.append(f"   {part:<22}" + "".join(f"{_ms(v):>10}" for v in values.values()) + ratio)

    calls = max(repeat * case.iterations, 3)
    forward, backward, hooked = tinyframe_ops(case.steps["tinyframe"], calls)
    names = sorted(set(forward) | set(backward), key=lambda k: -(forward.get(k, 0.0) + backward.get(k, 0.0)))
    lines.append(f"-- tinyframe per op type, ms per call (hooked, {calls} calls): forward self time | node backward")
    for name in names[:TOP]:
        lines.append(f"   {name:<32}{_ms(forward.get(name, 0.0))} |{_ms(backward.get(name, 0.0))}")
    if len(names) > TOP:
        rest = names[TOP:]
        lines.append(f"   {'(' + str(len(rest)) + ' more)':<32}{_ms(sum(forward.get(k, 0.0) for k in rest))} |"
                     f"{_ms(sum(backward.get(k, 0.0) for k in rest))}")
    if "backward" in hooked:
        lines.append(f"   {'forward outside Op.apply':<32}{_ms(hooked['forward'] - sum(forward.values()))}")
        engine_seconds = hooked["backward"] - sum(backward.values())
        lines.append(f"   {'backward outside nodes (engine)':<32}{'':8} |{_ms(engine_seconds)}")
        lines.append(f"   {'optimizer':<32}{_ms(hooked['optimizer'])}")
    if "torch" in steps:
        lines.append(f"-- torch per op, self CPU ms per call (torch.profiler, {calls} calls, top {TOP})")
        lines += [f"   {name:<40}{_ms(seconds)}" for name, seconds in torch_ops(steps["torch"], calls)]
    return lines
