"""benchmarks/bench.py and breakdown.py: interleaved rounds, per-repeat ratios, and op timers that
leave the library as they found it. No timings are asserted."""
from __future__ import annotations

from collections import defaultdict

import numpy as np

import tinyframe as tf
from benchmarks import bench, breakdown, cases, instructions
from tinyframe import _graph
from tinyframe.autograd import engine


def test_interleaved_rounds_rotate_which_implementation_goes_first() -> None:
    calls: list[str] = []
    steps = {name: (lambda name=name: calls.append(name)) for name in ("a", "b", "c")}
    seconds = bench.interleaved_seconds(steps, iterations=2, repeat=3)
    assert {name: len(rounds) for name, rounds in seconds.items()} == {"a": 3, "b": 3, "c": 3}
    warm_up, rounds = calls[:3], calls[3:]
    assert warm_up == ["a", "b", "c"]
    firsts = [rounds[i * 6] for i in range(3)]
    assert firsts == ["a", "b", "c"]


def test_report_gives_the_median_of_per_repeat_ratios_not_the_ratio_of_medians() -> None:
    seconds = {"tinyframe": [1.0, 2.0, 9.0], "torch": [1.0, 1.0, 3.0]}  # ratios 1, 2, 3; medians 2 / 1
    ratio_line = [line for line in bench.report("case", seconds) if "tinyframe / torch" in line][0]
    assert "2.00 x" in ratio_line and "1.00 - 3.00" in ratio_line


def test_op_timers_charge_self_time_per_op_class_and_restore_the_hooks() -> None:
    apply, step = _graph.Op.__dict__["apply"], engine._Pass.step
    a = tf.tensor([0.5, 1.0], requires_grad=True)
    forward: dict = defaultdict(float)
    backward: dict = defaultdict(float)
    with breakdown.op_timers(forward, backward):
        ((a * a).exp()).sum().backward()
    assert {"MulBackward0", "ExpBackward0", "SumBackward0"} <= set(forward)
    assert {"MulBackward0", "ExpBackward0", "SumBackward0", "AccumulateGrad"} <= set(backward)
    assert _graph.Op.__dict__["apply"] is apply
    assert engine._Pass.step is step
    assert engine.FAST_PATH
    np.testing.assert_allclose(a.grad.numpy(), 2 * a.detach().numpy() * np.exp(a.detach().numpy() ** 2), rtol=1e-6)


def test_timed_parts_split_a_training_step_into_forward_backward_and_optimizer() -> None:
    model = tf.nn.Linear(3, 2)
    x = np.ones((4, 3), np.float32)
    step = cases.TrainStep(tf, model, x, cases.mean_square)
    before = model.weight.detach().numpy().copy()
    assert set(breakdown.timed_parts(step)) == {"forward", "backward", "optimizer"}
    assert not np.array_equal(model.weight.detach().numpy(), before)
    assert set(breakdown.timed_parts(cases.EvalPass(tf, model, x))) == {"forward"}


def test_the_import_case_imports_each_library_in_a_fresh_process(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # not the checkout: the case's PYTHONPATH must find tinyframe
    case = cases.import_time("cpu", 1)
    assert {"tinyframe", "numpy", "python"} <= set(case.steps)
    for step in case.steps.values():
        step()  # raises CalledProcessError if the import fails


def test_instruction_counts_child_runs_each_case_step_without_valgrind() -> None:
    for case in ("tiny", "mlp-small"):
        steps = instructions.BUILDERS[case]("cpu", 1).steps
        assert {"tinyframe", "numpy"} <= set(steps)
        instructions.run_step(case, "tinyframe", 2)
        instructions.run_step(case, "numpy", 2)


def test_instruction_counts_of_imports_are_whole_processes_beside_numpys(monkeypatch, capsys) -> None:
    counted: list = []

    def callgrind(arguments: list) -> float:  # (valgrind itself is not needed for what is tested here)
        counted.append(arguments[1])
        return 1e8 * len(counted)

    monkeypatch.setattr(instructions, "_callgrind", callgrind)
    instructions._report_imports()
    assert counted == ["import numpy", "import tinyframe", "import tinyframe.nn, tinyframe.optim"]
    lines = capsys.readouterr().out.splitlines()
    assert "100.0M beyond numpy's" in lines[1] and "200.0M beyond numpy's" in lines[2]
    assert "PYTHONDONTWRITEBYTECODE" not in instructions._child_environment()
