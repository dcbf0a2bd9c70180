"""The package's import structure: layers that import only downward, and no import cycles.

The import graph is read from the source with ``ast``. Its edges are

- every import at module level, in class bodies and inside functions, except those under
  ``if TYPE_CHECKING:`` (annotations only, never run). Imports inside functions count: they run
  at call time, so they are dependencies all the same, and counting them keeps a lazy import from
  hiding an upward dependency or a cycle that the import machinery would otherwise report;
- ``from package import name`` points at the submodule ``package.name`` when there is one, else at
  the package (its ``__init__``);
- importing ``a.b.c`` from outside the package ``a.b`` also points at ``a.b``: its ``__init__``
  runs first. A package's ``__init__`` importing its own submodules is how it exports them, and
  a module's own enclosing packages are already initialising, so those edges are left out.
"""
from __future__ import annotations

import ast
import functools
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tinyframe"

# Bottom up. A module may import its own layer or a lower one; a package may import its own contents.
LAYERS = [
    ["tinyframe.dtypes", "tinyframe._lazy", "tinyframe._autocast", "tinyframe.device", "tinyframe.grad_mode",
     "tinyframe._dims", "tinyframe.random", "tinyframe.cuda", "tinyframe._tensor_str", "tinyframe.threads",
     "tinyframe.return_types", "tinyframe.type_info", "tinyframe.backends", "tinyframe.accelerator",
     "tinyframe.memory_format", "tinyframe._malloc", "tinyframe.version", "tinyframe.multiprocessing", "tinyframe.xpu",
     "tinyframe.profiler", "tinyframe.storage"],
    ["tinyframe._graph"],
    ["tinyframe.ops", "tinyframe.creation", "tinyframe._numpy_interop", "tinyframe.linalg"],
    ["tinyframe.autograd"],
    ["tinyframe.tensor", "tinyframe.functional", "tinyframe.serialization", "tinyframe._dlpack",
     "tinyframe._safetensors", "tinyframe._torch_load", "tinyframe._torch_save", "tinyframe.distributed", "tinyframe",
     "tinyframe._toplevel", "tinyframe._toplevel_more", "tinyframe.cpu", "tinyframe.legacy_tensor_types",
     "tinyframe.testing",
     "tinyframe.amp", "tinyframe.special", "tinyframe.fft", "tinyframe._foreach", "tinyframe._arguments",
     "tinyframe.sparse"],
    ["tinyframe.nn", "tinyframe.distributions"],
    ["tinyframe.optim", "tinyframe.utils", "tinyframe.jit", "tinyframe.func", "tinyframe.hub"],
    ["tinyframe.examples"],
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _ancestors(name: str) -> list:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _run_time_imports(tree: ast.AST) -> list:
    """Import statements that can run: all but those under ``if TYPE_CHECKING:``."""
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _external_modules() -> set:
    """The top-level names of what tinyframe imports from outside itself (the standard library, NumPy)."""
    names = set()
    for path in MODULES.values():
        for node in _run_time_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(a.name.partition(".")[0] for a in node.names)
            elif not node.level and node.module:
                names.add(node.module.partition(".")[0])
    return names - {"tinyframe"}


def _targets(importer: str, node: ast.Import | ast.ImportFrom) -> set:
    """The tinyframe modules an import statement names."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in MODULES}
    if node.level:
        base = importer if _is_package(importer) else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    if source not in MODULES:
        return set()
    named = {f"{source}.{a.name}" for a in node.names}
    submodules = named & MODULES.keys()
    return submodules if len(submodules) == len(named) else submodules | {source}


@functools.cache
def import_graph() -> dict:
    graph: dict = {}
    for name, path in MODULES.items():
        edges = set()
        for node in _run_time_imports(ast.parse(path.read_text(), str(path))):
            for target in _targets(name, node):
                edges.add(target)
                edges.update(a for a in _ancestors(target) if a not in _ancestors(name) and a != name)
        edges.discard(name)
        graph[name] = edges - set(_ancestors(name))
    return graph


def _find_cycle(graph: dict) -> list | None:
    """One cycle as a list of modules, by iterative depth-first search; None when there is none."""
    state: dict = {}
    for start in graph:
        if start in state:
            continue
        path, stack = [], [(start, iter(sorted(graph[start])))]
        state[start] = "open"
        path.append(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                state[node] = "done"
            elif state.get(child) == "open":
                return path[path.index(child):] + [child]
            elif child not in state:
                state[child] = "open"
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))
    return None


def _layer_of(name: str) -> int:
    for rank, layer in enumerate(LAYERS):
        for prefix in layer:
            if name == prefix or (prefix != "tinyframe" and name.startswith(prefix + ".")):
                return rank
    raise AssertionError(f"{name} is in no layer of LAYERS; add it to the layer it belongs to")


def test_import_graph_sees_the_edges_that_made_the_old_cycle():
    graph = import_graph()
    assert "tinyframe._graph" in graph["tinyframe.ops.unary"]
    assert "tinyframe.ops.tensor_math" in graph["tinyframe.autograd.engine"]
    assert "tinyframe.autograd" in graph["tinyframe.tensor"]  # the package __init__ runs first


def test_find_cycle_reports_a_cycle():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_tinyframe_has_no_import_cycle():
    cycle = _find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_modules_import_only_their_own_layer_or_lower_ones():
    upward = [f"{a} -> {b}" for a, edges in import_graph().items() for b in sorted(edges)
              if _layer_of(b) > _layer_of(a) and not b.startswith(a + ".")]
    assert upward == []


_IMPORT_EACH_FIRST = textwrap.dedent("""
    import importlib, importlib.util, multiprocessing, sys, traceback, types

    def preload(names):
        # What tinyframe imports from outside itself is loaded once, before the forks; tinyframe is not.
        for name in names:
            try:
                importlib.import_module(name)
            except ImportError:  # optional: cupy
                pass

    def import_first(name):
        # A bare package object stands for tinyframe, so its __init__ does not run first and import
        # the whole package: the module imports exactly what it needs, in its own order.
        spec = importlib.util.find_spec("tinyframe")
        root = types.ModuleType("tinyframe")
        root.__path__, root.__spec__, root.__file__ = spec.submodule_search_locations, spec, spec.origin
        sys.modules["tinyframe"] = root
        try:
            importlib.import_module(name) if name != "tinyframe" else spec.loader.exec_module(root)
        except BaseException:
            return name + ": " + traceback.format_exc(limit=-3)
        return None

    if __name__ == "__main__":
        external, names = sys.argv[1].split(","), sys.argv[2:]
        preload(external)
        context = multiprocessing.get_context("fork")
        with context.Pool(maxtasksperchild=1) as pool:  # each module in a process of its own
            failures = [f for f in pool.map(import_first, names, chunksize=1) if f]
        print("\\n".join(failures))
        sys.exit(1 if failures else 0)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="forks a process per module")
def test_every_module_imports_first_in_a_fresh_process():
    names = [n for n in MODULES if n != "tinyframe.examples.mnist.__main__"]  # runs training when imported
    external = ",".join(sorted(_external_modules()))
    done = subprocess.run([sys.executable, "-c", _IMPORT_EACH_FIRST, external, *names], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr


_LAZY_LAYERS_CHECK = """
import gc, sys
import tinyframe
assert gc.isenabled() and gc.get_freeze_count() == 0  # the GC paused during the import is back as it was
lazy = (["tinyframe", "nn"], ["tinyframe", "optim"], ["tinyframe", "distributions"], ["tinyframe", "utils"],
        ["tinyframe", "special"], ["tinyframe", "backends"], ["tinyframe", "testing"], ["numpy", "polynomial"],
        ["ml_dtypes"])  # bfloat16's NumPy type: loaded when a bfloat16 array is first made
loaded = sorted(m for m in sys.modules if m.split(".")[:2] in lazy)
loaded += [m for m in ("tinyframe.autograd.functional", "tinyframe.profiler") if m in sys.modules]
assert not loaded, loaded
from tinyframe import nn, optim  # the lazy layers still resolve, as do nn's top-level functions
assert "tinyframe.distributed.process_group" not in sys.modules  # nn loads it on first use (SyncBatchNorm, DDP)
assert "DistributedDataParallel" in dir(nn.parallel) and nn.parallel.DistributedDataParallel.__name__
assert tinyframe.pixel_shuffle is nn.functional.pixel_shuffle and optim.SGD and tinyframe.distributions.Normal
assert tinyframe.special.erf and tinyframe.backends.cudnn.enabled is not None and tinyframe.testing.assert_close
assert tinyframe.autograd.functional.jacobian and tinyframe.autograd.profiler.profile and tinyframe.from_dlpack
assert type(tinyframe.max(tinyframe.ones(2, 2), 1)) is tinyframe.return_types.max
assert "ml_dtypes" not in sys.modules and tinyframe.ones(1, dtype=tinyframe.bfloat16) and "ml_dtypes" in sys.modules
"""

_LAZY_FAMILIES_CHECK = """
import gc, inspect, sys, types
gc.disable()
import tinyframe
from tinyframe import functional, ops
assert not gc.isenabled()  # the import pauses the cyclic GC and restores the state it found
families = [f"tinyframe.ops.{name}" for name in ops.LAZY_FAMILIES] + ["tinyframe.linalg"]
ran = [name for name in families if type(sys.modules[name]) is types.ModuleType]
assert not ran, ran
for name, family in functional.LAZY_FUNCTIONS.items():  # each name is its family's, and exported from it
    module = sys.modules[f"tinyframe.{family}"]
    assert name in getattr(module, "__all__", [name]) and hasattr(module, name), name
    assert inspect.unwrap(getattr(tinyframe, name)) is inspect.unwrap(getattr(module, name)), name
    assert name in tinyframe.__all__ and name in dir(tinyframe)
exporting = ("convolution", "decompositions", "lu", "quantization", "sampling", "special", "stft")
missing = {name for family in exporting for name in getattr(ops, family).__all__} - set(functional.LAZY_FUNCTIONS)
assert not missing, missing
"""


def test_import_tinyframe_leaves_the_layers_above_the_core_unloaded_until_used():
    done = subprocess.run([sys.executable, "-c", _LAZY_LAYERS_CHECK], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_op_families_load_on_first_use_and_export_their_functions():
    done = subprocess.run([sys.executable, "-c", _LAZY_FAMILIES_CHECK], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
