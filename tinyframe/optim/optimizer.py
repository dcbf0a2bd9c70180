"""``Optimizer``: the base class of every optimizer, with PyTorch's parameter groups and state.

An optimizer holds ``param_groups`` (a list of dicts: the tensors under ``"params"`` and that group's
hyper-parameters) and ``state`` (per-parameter buffers, keyed by the parameter tensor itself).
``step()`` updates each parameter's array in place from its ``.grad``, outside the autograd graph.
"""
from __future__ import annotations

import copy
import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

import numpy as np

from .. import _graph, dtypes
from ..autograd.hooks import RemovableHandle, add_keyed_hook
from ..device import array_module_of, move_array
from ..grad_mode import enable_grad
from ..ops.complex import real_view
from ..tensor import Tensor

__all__ = ["Optimizer", "register_optimizer_step_pre_hook", "register_optimizer_step_post_hook"]

# Hooks run around every optimizer's step (PyTorch's global optimizer hooks).
_GLOBAL_STEP_PRE_HOOKS: list = []
_GLOBAL_STEP_POST_HOOKS: list = []


class Optimizer:
    """Base class of all optimizers, like ``torch.optim.Optimizer``.

    Args:
        params (iterable): the tensors to optimize, ``(name, tensor)`` pairs as given by
            ``named_parameters()``, or dicts defining parameter groups (``{"params": [...], "lr": ...}``).
        defaults (dict): the default hyper-parameters, used by groups that do not set them.

    A subclass gives its defaults and implements ``_step_group(group)``, which updates the parameters
    of one group whose ``.grad`` is not None.
    """

    # PyTorch's error for a sparse gradient (``Embedding(sparse=True)``), formatted with the class name;
    # None in the optimizers that take sparse gradients (SGD, Adagrad, SparseAdam)
    sparse_grads_error: str | None = "{} does not support sparse gradients"

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or "
                            f"dicts, but got {params.type()}")
        if isinstance(params, set):
            raise TypeError(_SET_MESSAGE)
        self.defaults = defaults
        self.state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        self._step_count = 0
        # PyTorch's attribute names and types: wrappers such as timm's Lookahead set them themselves
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._state_dict_pre_hooks: list = []
        self._state_dict_post_hooks: list = []
        self._load_state_dict_pre_hooks: list = []
        self._load_state_dict_post_hooks: list = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:  # an optimizer with its own step (LBFGS) runs the hooks too
            cls.step = _with_step_hooks(cls.__dict__["step"])  # type: ignore[method-assign]  # wrapped once, per class

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Runs ``hook(optimizer, args, kwargs)`` before each step; it may return new
        ``(args, kwargs)`` for the step (``args`` starts with the optimizer, as in PyTorch)."""
        return add_keyed_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """Runs ``hook(optimizer, args, kwargs)`` after each step."""
        return add_keyed_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Runs ``hook(optimizer)`` before ``state_dict()`` builds its result."""
        return _add_hook(self._state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Runs ``hook(optimizer, state_dict)`` on ``state_dict()``'s result; a returned dict replaces it."""
        return _add_hook(self._state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Runs ``hook(optimizer, state_dict)`` before loading; a returned dict is loaded instead."""
        return _add_hook(self._load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Runs ``hook(optimizer)`` after ``load_state_dict()``."""
        return _add_hook(self._load_state_dict_post_hooks, hook, prepend)

    def __repr__(self) -> str:
        # PyTorch's layout: each group opens with a newline after the previous group's last line, so a blank
        # line separates groups
        text = f"{type(self).__name__} ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params")
        return text + ")"

    # ----------------------------------------------------------------- parameter groups
    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Adds a group of parameters with its own hyper-parameters (missing ones take the defaults);
        useful to unfreeze layers while training goes on."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(_SET_MESSAGE)
        else:
            params = list(params)
        names = [param[0] for param in params if isinstance(param, tuple)]
        params = [param[1] if isinstance(param, tuple) else param for param in params]
        param_group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is "
                                f"{type(param).__name__}")
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this "
                          "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                          "information", stacklevel=3)
        seen: set[Tensor] = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                kind = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {kind} to the optimizer")
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # ----------------------------------------------------------------- stepping
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of all optimized tensors: to None (the default), or to zeros in place
        with ``set_to_none=False``. An optimizer skips parameters whose ``.grad`` is None, but
        steps with a zero gradient (weight decay and momentum still move the parameter)."""
        for group in self.param_groups:
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    grad.detach_()
                    grad._data.fill(0)
                    grad._bump_version()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one optimization step on every parameter that has a ``.grad``.

        Args:
            closure (Callable, optional): re-evaluates the model and returns the loss; it runs
                with grad mode enabled before the update.

        Returns the closure's loss, or None.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        self._step_count += 1
        for group in self.param_groups:
            if _graph.SPARSE_KERNELS and self.sparse_grads_error:  # (only once sparse tensors were made)
                _check_dense_grads(group, self.sparse_grads_error.format(type(self).__name__))
            self._follow_params(group)
            self._step_group(group)
        return loss

    def _follow_params(self, group: dict[str, Any]) -> None:
        """Moves a parameter's state to the parameter's device and dtype after ``Module.to`` moved it."""
        states = self.state
        if not states:  # plain SGD keeps none: skip a lookup (a Python ``Tensor.__hash__`` call) per parameter
            return
        for param in group["params"]:
            state = states.get(param)
            if state and not _state_matches(param, state):
                self.state[param] = _cast_state(param, state)

    def _step_group(self, group: dict[str, Any]) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement _step_group(group) or step()")

    # ----------------------------------------------------------------- checkpoints
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state as ``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``.

        Parameters are replaced by their index in group order; the state's tensors are the live
        buffers, as in PyTorch (``copy.deepcopy`` the result to freeze it).
        """
        for pre_hook in self._state_dict_pre_hooks:
            pre_hook(self)
        index_of: dict[int, int] = {}
        param_groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for p in group["params"]:
                index_of.setdefault(id(p), len(index_of))
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            param_groups.append(packed)
        state = {index_of[id(key)] if isinstance(key, Tensor) else key: value
                 for key, value in self.state.items()}
        result = {"state": state, "param_groups": param_groups}
        for post_hook in self._state_dict_post_hooks:
            result = post_hook(self, result) or result
        return result

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Loads a state from :meth:`state_dict`, matching parameters by their position in the groups.

        State tensors are copied onto each parameter's device and, when floating point, its dtype
        (``step`` tensors stay 0-dim cpu tensors, plain ``step`` numbers stay numbers), so the loaded
        state shares nothing with ``state_dict``. Create the lr scheduler before loading: its
        constructor overwrites the groups' ``lr``.
        """
        for pre_hook in self._load_state_dict_pre_hooks:
            state_dict = pre_hook(self, state_dict) or state_dict
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for group, saved in zip(groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        param_of = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                            chain.from_iterable(g["params"] for g in groups)))
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in param_of:
                param = param_of[key]
                state[param] = {name: _cast_state(param, item, name) for name, item in value.items()}
            else:
                state[key] = value
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
            for name, default in self.defaults.items():
                saved.setdefault(name, default)
        self.state = state
        self.param_groups = saved_groups
        for post_hook in self._load_state_dict_post_hooks:
            post_hook(self)


def _add_hook(hooks: list, hook: Callable, prepend: bool) -> RemovableHandle:
    hooks.insert(0 if prepend else len(hooks), hook)
    return RemovableHandle(hooks, hook)


def _with_step_hooks(step: Callable) -> Callable:
    """``step`` running the global and the optimizer's pre-hooks before it and post-hooks after it,
    in PyTorch's order."""

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        optimizer = args[0]
        if "_optimizer_step_pre_hooks" not in optimizer.__dict__:
            # A wrapper that skips Optimizer.__init__ (Lookahead written as in many repos): PyTorch installs
            # the hooks from __init__ (or zero_grad), so such an optimizer's step runs as written.
            return step(*args, **kwargs)
        for hook in chain(_GLOBAL_STEP_PRE_HOOKS, list(optimizer._optimizer_step_pre_hooks.values())):
            result = hook(optimizer, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{hook} must return None or a tuple of (new_args, new_kwargs), but got "
                                       f"{result}.")
                args, kwargs = result
        out = step(*args, **kwargs)
        for hook in chain(list(optimizer._optimizer_step_post_hooks.values()), _GLOBAL_STEP_POST_HOOKS):
            hook(optimizer, args, kwargs)
        return out

    return wrapper


Optimizer.step = _with_step_hooks(Optimizer.step)  # type: ignore[method-assign]


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """Runs ``hook(optimizer, args, kwargs)`` before the step of every optimizer."""
    _GLOBAL_STEP_PRE_HOOKS.append(hook)
    return RemovableHandle(_GLOBAL_STEP_PRE_HOOKS, hook)


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """Runs ``hook(optimizer, args, kwargs)`` after the step of every optimizer."""
    _GLOBAL_STEP_POST_HOOKS.append(hook)
    return RemovableHandle(_GLOBAL_STEP_POST_HOOKS, hook)


_SET_MESSAGE = ("optimizer parameters need to be organized in ordered collections, but the ordering of tensors "
                "in sets will change between runs. Please use a list instead.")


def _check_dense_grads(group: dict[str, Any], message: str) -> None:
    for p in group["params"]:
        if p._grad is not None and p._grad.is_sparse:
            raise RuntimeError(message)


def stepped_states(optimizer: Optimizer, group: dict[str, Any], zeros: Sequence[str] = (),
                   **scalars: float) -> Iterator[tuple[Tensor, dict[str, Any]]]:
    """Each parameter of ``group`` that has a gradient, with its state, its step count advanced; a new
    state holds ``step``, the 0-dim ``scalars`` and a zero tensor like the parameter under each name of
    ``zeros``: PyTorch's keys, in its order. The parameter's version is bumped after its update."""
    for p in group["params"]:
        if p._grad is None:
            continue
        state = optimizer.state[p]
        if not state:
            state["step"] = _step_tensor(0.0)
            state.update((name, _step_tensor(value)) for name, value in scalars.items())
            zeros_like = array_module_of(p._data).zeros_like
            state.update((name, Tensor._make(zeros_like(p._data))) for name in zeros)
        state["step"]._data += 1
        yield p, state
        p._bump_version()


def real_views(*arrays: Any) -> list:
    """The arrays (numbers and None as they are), complex ones seen as float arrays of (real,
    imaginary) pairs: PyTorch's optimizers update a complex parameter part by part (``view_as_real``)."""
    return [real_view(a) if getattr(a, "dtype", None) is not None and a.dtype.kind == "c" else a for a in arrays]


def _step_tensor(value: Any) -> Tensor:
    """A new step counter: a 0-dim cpu tensor of PyTorch's scalar dtype (float32, or float64 when
    that is the default dtype), read with ``.item()`` at each step."""
    dtype = np.float64 if dtypes.get_default_dtype() == dtypes.float64 else np.float32
    return Tensor._make(np.array(value, dtype=dtype))


def _state_matches(param: Tensor, state: dict) -> bool:
    """Whether every state tensor of ``param`` (but the cpu step counter) is on its device and dtype."""
    for key, value in state.items():
        if key == "step" or not isinstance(value, Tensor):
            continue
        array, target = value._data, param._data
        if type(array) is not type(target) or array.dtype != target.dtype or (
                not isinstance(array, np.ndarray) and array.device != target.device):
            return False
    return True


def _cast_state(param: Tensor, value: Any, key: Any = None) -> Any:
    """A copy of a loaded state value, its tensors moved onto ``param``'s device (and dtype)."""
    if key == "step" and isinstance(value, Tensor):  # a plain number (a custom optimizer's) stays one
        return _step_tensor(float(value))
    if isinstance(value, Tensor):
        array = move_array(value._data, param.device)
        if param.is_floating_point() and array.dtype != param._data.dtype:
            array = array.astype(param._data.dtype)
        elif array is value._data:
            array = array.copy()
        return Tensor._make(array)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(param, v) for v in value)
    return value


def lerp_(start: Any, end: Any, weight: float, scratch: Any) -> None:
    """``start += weight * (end - start)`` on arrays, in place, with ``scratch`` (an array like
    ``start``) holding the difference. Like PyTorch's ``lerp_``, a weight of 0.5 or more is
    applied from the ``end`` side, ``end - (1 - weight) * (end - start)``, exact at weight 1."""
    xp = array_module_of(start)
    xp.subtract(end, start, out=scratch)
    if abs(weight) < 0.5:
        scratch *= weight
        start += scratch
    else:
        scratch *= weight - 1
        xp.add(end, scratch, out=start)
