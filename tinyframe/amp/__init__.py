"""``torch.amp``: ``autocast`` and ``GradScaler``, so mixed-precision training scripts run unchanged.

Inside ``autocast("cpu")`` the ops of PyTorch's CPU autocast lists cast their inputs as PyTorch's do:
linear, matmul and convolutions to the region's dtype (bfloat16 by default), the losses of its float32 list
to float32 (see ``tinyframe._autocast``); other ops compute in their inputs' dtype. ``autocast("cuda")``
regions are accepted and reported but cast nothing. ``GradScaler`` is PyTorch's algorithm:
the loss is multiplied by the scale, gradients are divided by it before the step, a step whose
gradients hold inf or NaN is skipped and the scale backs off; after ``growth_interval`` clean steps
the scale grows.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _autocast, dtypes
from ..grad_mode import no_grad
from ..tensor import Tensor

__all__ = ["autocast", "GradScaler", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype",
           "custom_fwd", "custom_bwd"]

_DEFAULT_DTYPES = {"cpu": "bfloat16", "cuda": "float16"}


def is_autocast_available(device_type: str) -> bool:
    """Whether ``autocast`` regions can be opened for ``device_type``: True for tinyframe's 'cpu' and 'cuda'."""
    return device_type in _DEFAULT_DTYPES


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """Whether an enabled ``autocast`` region for ``device_type`` is active in this thread."""
    return _autocast.is_enabled(device_type)


def get_autocast_dtype(device_type: str) -> dtypes.dtype:
    """The dtype of the open autocast region of ``device_type``, else its default: bfloat16 for cpu,
    float16 for cuda."""
    return _autocast.region_dtype(device_type) or getattr(dtypes, _DEFAULT_DTYPES.get(device_type, "float16"))


class autocast:
    """Context manager and decorator marking a mixed-precision region: ``with autocast("cuda"):``.

    Accepted with PyTorch's arguments and reported by :func:`is_autocast_enabled`; in a 'cpu' region
    linear, matmul and convolutions compute in ``dtype`` and the losses of PyTorch's float32 list in float32.
    """

    def __init__(self, device_type: str, dtype: Any = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtypes.as_dtype(dtype) if dtype is not None else get_autocast_dtype(device_type)
        self._enabled = enabled
        self._previous: list = []

    def __enter__(self) -> autocast:
        self._previous.append(_autocast.enter(self.device, self._enabled, self.fast_dtype))
        return self

    def __exit__(self, *exc: Any) -> None:
        _autocast.leave(self.device, self._previous.pop())

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)
        return wrapper


def custom_fwd(fwd: Callable | None = None, *, device_type: str, cast_inputs: Any = None) -> Callable:
    """Decorates the ``forward`` of a custom ``autograd.Function``: inside an enabled autocast region
    of ``device_type``, with ``cast_inputs``, its floating tensors (not float64) are cast to that
    dtype and it runs with autocast disabled; without, it runs in the region as it is. The region's
    state is noted on ``ctx`` for :func:`custom_bwd`."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    forward = fwd

    @functools.wraps(forward)
    def decorate_fwd(*args: Any, **kwargs: Any) -> Any:
        ctx, in_region = args[0], is_autocast_enabled(device_type)
        ctx._dtype = get_autocast_dtype(device_type)
        ctx._fwd_used_autocast = in_region and cast_inputs is None
        if cast_inputs is None or not in_region:
            return forward(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return forward(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
    return decorate_fwd


def custom_bwd(bwd: Callable | None = None, *, device_type: str) -> Callable:
    """Decorates the ``backward`` of a custom ``autograd.Function``: it runs in the autocast state
    its :func:`custom_fwd` ``forward`` ran in."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    backward = bwd

    @functools.wraps(backward)
    def decorate_bwd(*args: Any, **kwargs: Any) -> Any:
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return backward(*args, **kwargs)
    return decorate_bwd


def _cast(value: Any, device_type: str, dtype: dtypes.dtype) -> Any:
    """``value`` with its floating tensors on ``device_type`` (not float64) cast to ``dtype``, through
    lists, tuples and dicts (PyTorch's ``torch.amp.autocast_mode._cast``)."""
    if isinstance(value, Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type and value.dtype != dtypes.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, dict):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        cast = [_cast(v, device_type, dtype) for v in value]
        return cast if isinstance(value, list) else tuple(cast)
    return value


class GradScaler:
    """Scales the loss so that small float16 gradients do not underflow, and unscales the gradients
    before the optimizer step (PyTorch's ``torch.amp.GradScaler``)::

        scaler.scale(loss).backward()
        scaler.step(optimizer)   # skipped when a gradient is inf or NaN
        scaler.update()          # scale *= backoff_factor after a skipped step,
                                 # *= growth_factor after growth_interval clean steps
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        self._scale = float(init_scale)
        self._growth_factor, self._backoff_factor = float(growth_factor), float(backoff_factor)
        self._growth_interval = int(growth_interval)
        self._growth_tracker = 0
        self._per_optimizer: dict = {}  # id(optimizer) -> {"unscaled": bool, "found_inf": bool}

    def is_enabled(self) -> bool:
        return self._enabled

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = int(new_interval)

    def scale(self, outputs: Any) -> Any:
        """``outputs`` (a tensor, or a list/tuple of them) multiplied by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return outputs * self._scale
        return type(outputs)(self.scale(o) for o in outputs)

    def unscale_(self, optimizer: Any) -> None:
        """Divides the optimizer's gradients by the scale in place (once per step), noting inf/NaN."""
        if not self._enabled:
            return
        state = self._per_optimizer.setdefault(id(optimizer), {"unscaled": False, "found_inf": False})
        if state["unscaled"]:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        inverse = 1.0 / self._scale
        found_inf = False
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    p.grad.mul_(inverse)
                    found_inf = found_inf or not bool(p.grad.isfinite().all())
        state.update(unscaled=True, found_inf=found_inf)

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscales (unless :meth:`unscale_` did) and runs ``optimizer.step()``, unless a gradient
        was inf or NaN; returns what ``step`` returned, or None when skipped."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        state = self._per_optimizer.setdefault(id(optimizer), {"unscaled": False, "found_inf": False})
        if not state["unscaled"]:
            self.unscale_(optimizer)
        return None if state["found_inf"] else optimizer.step(*args, **kwargs)

    def update(self, new_scale: float | Tensor | None = None) -> None:
        """Adjusts the scale after the step(s) of this iteration: backs off if any optimizer saw an
        inf/NaN gradient, grows after ``growth_interval`` clean iterations; or sets ``new_scale``."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(new_scale)
        elif any(state["found_inf"] for state in self._per_optimizer.values()):
            self._scale *= self._backoff_factor
            self._growth_tracker = 0
        else:
            self._growth_tracker += 1
            if self._growth_tracker == self._growth_interval:
                self._scale *= self._growth_factor
                self._growth_tracker = 0
        self._per_optimizer.clear()

    def state_dict(self) -> dict:
        """The scale and its settings, as PyTorch stores them (empty when disabled)."""
        if not self._enabled:
            return {}
        return {"scale": self._scale, "growth_factor": self._growth_factor, "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval, "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._scale = float(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._growth_tracker = int(state_dict["_growth_tracker"])
