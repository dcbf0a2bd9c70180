"""``torch.func``: function transforms. ``vmap`` maps a function over a batch dimension (by running it
on each slice and stacking the results, which computes what PyTorch's batching rules compute);
``grad``, ``grad_and_value``, ``vjp``, ``jacrev``/``jacfwd`` and ``hessian`` are reverse-mode autograd
applied to a function; ``jvp`` is forward mode (``autograd.forward_ad``); ``functional_call`` runs a module
with other parameters."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import grad_mode
from .autograd import engine, forward_ad
from .autograd import functional as autograd_functional
from .nn.utils.stateless import functional_call
from .ops import shape
from .tensor import Tensor

__all__ = ["vmap", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "functional_call"]


# --------------------------------------------------------------------------- vmap
def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``func`` mapped over dimension ``in_dims`` of its tensor arguments (an int for all, or one entry
    per argument, None for an argument passed whole); the results are stacked along ``out_dims``."""
    @functools.wraps(func)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(in_dims={tuple(dims)}): in_dims is not compatible with the structure of "
                             f"`inputs`: expected {len(args)} entries, got {len(dims)}")
        sizes = [a.shape[d] for a, d in zip(args, dims) if d is not None and isinstance(a, Tensor)]
        if not sizes:
            raise ValueError("vmap: at least one input must be a Tensor mapped over a dimension (in_dims not None)")
        if len(set(sizes)) != 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        results = [func(*(a.select(d, i) if d is not None and isinstance(a, Tensor) else a
                          for a, d in zip(args, dims)), **kwargs) for i in range(sizes[0])]
        if isinstance(results[0], tuple):
            outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(results[0])
            return tuple(shape.stack([r[k] for r in results], outs[k]) for k in range(len(results[0])))
        return shape.stack(results, out_dims)
    return mapped


# --------------------------------------------------------------------------- reverse mode
def _tracked(args: tuple, argnums: tuple) -> tuple:
    """The arguments, those at ``argnums`` made differentiable (kept in the graph when they already are,
    so that transforms nest)."""
    return tuple(a.view_as(a) if i in argnums and a.requires_grad else
                 a.detach().requires_grad_() if i in argnums else a for i, a in enumerate(args))


def grad_and_value(func: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """A function returning ``(gradient of func's scalar output w.r.t. the arguments argnums, output)``
    (``((gradient), (output, aux))`` with ``has_aux``)."""
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(func)
    def transformed(*args: Any, **kwargs: Any) -> Any:
        nested = any(args[i].requires_grad for i in numbers)
        with grad_mode.enable_grad():
            tracked = _tracked(args, numbers)
            result = func(*tracked, **kwargs)
            output, aux = result if has_aux else (result, None)
            if output.numel() != 1:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.ndim} dims. Maybe you wanted to use the vjp or jacrev APIs "
                                   "instead?")
            grads = engine.grad(output, [tracked[i] for i in numbers], create_graph=nested, allow_unused=True)
        grads = tuple(g if g is not None else tracked[i].detach() * 0 for g, i in zip(grads, numbers))
        if not nested:
            output = output.detach()
            aux = aux.detach() if isinstance(aux, Tensor) else aux
        gradient = grads[0] if isinstance(argnums, int) else grads
        return (gradient, (output, aux)) if has_aux else (gradient, output)
    return transformed


def grad(func: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """A function returning the gradient of ``func``'s scalar output w.r.t. the arguments ``argnums``
    (with ``has_aux``: ``(gradient, aux)``)."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def transformed(*args: Any, **kwargs: Any) -> Any:
        gradient, value = both(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient
    return transformed


def vjp(func: Callable, *primals: Tensor, has_aux: bool = False) -> tuple:
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangent)`` gives the tuple of vector-Jacobian products
    with each primal."""
    with grad_mode.enable_grad():
        tracked = _tracked(primals, tuple(range(len(primals))))
        result = func(*tracked)
    output, aux = result if has_aux else (result, None)

    def vjp_fn(cotangent: Any) -> tuple:
        return tuple(engine.grad(output, list(tracked), cotangent, retain_graph=True, allow_unused=True))
    detached = output.detach()
    return (detached, vjp_fn, aux) if has_aux else (detached, vjp_fn)


def jvp(func: Callable, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False) -> tuple:
    """``(func(*primals), J tangents)``: the Jacobian-vector product by forward-mode AD
    (``autograd.forward_ad``); with ``has_aux``, ``func`` returns ``(output, aux)`` and ``aux`` comes
    third. ``primals`` and ``tangents`` are tuples of tensors of the same shapes."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    if not isinstance(tangents, tuple) or len(tangents) != len(primals):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"{len(primals)} primals and {len(tangents) if isinstance(tangents, tuple) else 1} "
                           "tangents")
    with forward_ad.dual_level():
        result = func(*(forward_ad.make_dual(p, t) for p, t in zip(primals, tangents)))
        output, aux = result if has_aux else (result, None)
        unpacked = [forward_ad.unpack_dual(o) for o in (output if isinstance(output, tuple) else (output,))]
    primal_out = tuple(u.primal for u in unpacked)
    tangent_out = tuple(u.tangent if u.tangent is not None else u.primal.new_zeros(u.primal.shape) for u in unpacked)
    if not isinstance(output, tuple):
        primal_out, tangent_out = primal_out[0], tangent_out[0]
    if isinstance(aux, Tensor) and not any(p.requires_grad for p in primals):
        aux = aux.detach()  # computed from the dual tensors, which (unlike PyTorch's) require grad
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def jacrev(func: Callable, argnums: int | tuple = 0, *, has_aux: bool = False,
           chunk_size: int | None = None) -> Callable:
    """A function returning the Jacobian of ``func`` w.r.t. the arguments ``argnums`` (with ``has_aux``,
    ``func`` returns ``(output, aux)`` and the function returns ``(jacobian, aux)``)."""
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(func)
    def transformed(*args: Any) -> Any:
        auxiliary = []

        def of_chosen(*chosen: Tensor) -> Any:
            full = list(args)
            for i, value in zip(numbers, chosen):
                full[i] = value
            result = func(*full)
            if not has_aux:
                return result
            auxiliary.append(result[1])
            return result[0]
        jacobian = autograd_functional.jacobian(of_chosen, tuple(args[i] for i in numbers))
        jacobian = jacobian[0] if isinstance(argnums, int) else jacobian
        if not has_aux:
            return jacobian
        aux = auxiliary[0]  # computed from inputs made differentiable for the Jacobian: not part of the result's graph
        return jacobian, aux.detach() if isinstance(aux, Tensor) else aux
    return transformed


def jacfwd(func: Callable, argnums: int | tuple = 0, has_aux: bool = False, *, randomness: str = "error") -> Callable:
    """A function returning the Jacobian of ``func`` w.r.t. the arguments ``argnums``: the same Jacobian as
    ``jacrev``'s, which computes it (one reverse pass per output element, where forward mode by ``jvp``
    would take two per input element)."""
    return jacrev(func, argnums, has_aux=has_aux)


def hessian(func: Callable, argnums: int = 0) -> Callable:
    """A function returning the Hessian of ``func``'s scalar output w.r.t. argument ``argnums``."""
    @functools.wraps(func)
    def transformed(*args: Any) -> Any:
        def of_chosen(chosen: Tensor) -> Any:
            return func(*args[:argnums], chosen, *args[argnums + 1:])
        return autograd_functional.hessian(of_chosen, args[argnums])
    return transformed
