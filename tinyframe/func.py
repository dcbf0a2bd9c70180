"""``torch.func``: function transforms. ``vmap`` maps a function over a batch dimension (by running it
on each slice and stacking the results, which computes what PyTorch's batching rules compute);
``grad``, ``grad_and_value``, ``vjp``, ``jacrev``/``jacfwd`` and ``hessian`` are reverse-mode autograd
applied to a function; ``jvp`` is forward mode (``autograd.forward_ad``); ``functional_call`` runs a module
with other parameters."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from . import grad_mode
from .autograd import engine, forward_ad
from .autograd import functional as autograd_functional
from .nn.utils.stateless import _functional_call
from .ops import shape
from .tensor import Tensor

if TYPE_CHECKING:
    from .nn.modules.module import Module

__all__ = ["vmap", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "functional_call",
           "stack_module_state"]


# --------------------------------------------------------------------------- pytrees
# Arguments and results may be nested dicts, lists and tuples of tensors (functional_call's parameter dicts):
# the transforms act on the leaves and rebuild the same structure.
def _leaves(tree: Any) -> list:
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in _leaves(value)]
    if isinstance(tree, (list, tuple)):
        return [leaf for value in tree for leaf in _leaves(value)]
    return [tree]


def _rebuild(tree: Any, leaves: Iterator) -> Any:
    """``tree``'s structure with its leaves taken in order from ``leaves``."""
    if isinstance(tree, dict):
        return type(tree)((key, _rebuild(value, leaves)) for key, value in tree.items())
    if isinstance(tree, (list, tuple)):
        items = [_rebuild(value, leaves) for value in tree]
        return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)
    return next(leaves)


def _tree_map(func: Callable, tree: Any) -> Any:
    return _rebuild(tree, iter([func(leaf) for leaf in _leaves(tree)]))


# --------------------------------------------------------------------------- vmap
def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``func`` mapped over dimension ``in_dims`` of its tensor arguments (an int for all, or one entry
    per argument, None for an argument passed whole; an argument may be a dict, list or tuple of tensors,
    all mapped over that dimension); the results are stacked along ``out_dims``."""
    @functools.wraps(func)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(in_dims={tuple(dims)}): in_dims is not compatible with the structure of "
                             f"`inputs`: expected {len(args)} entries, got {len(dims)}")
        sizes = [leaf.shape[d] for a, d in zip(args, dims) if d is not None
                 for leaf in _leaves(a) if isinstance(leaf, Tensor)]
        if not sizes:
            raise ValueError("vmap: at least one input must be a Tensor mapped over a dimension (in_dims not None)")
        if len(set(sizes)) != 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")

        def sliced(i: int) -> list:
            return [a if d is None else _tree_map(functools.partial(_select, dim=d, i=i), a)
                    for a, d in zip(args, dims)]
        results = [func(*sliced(i), **kwargs) for i in range(sizes[0])]
        if isinstance(results[0], tuple):
            outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(results[0])
            return tuple(_stacked([r[k] for r in results], outs[k]) for k in range(len(results[0])))
        return _stacked(results, out_dims)
    return mapped


def _select(leaf: Any, dim: int, i: int) -> Any:
    return leaf.select(dim, i) if isinstance(leaf, Tensor) else leaf


def _stacked(results: list, dim: int) -> Any:
    """The results of each slice (tensors, or like structures of tensors) stacked leaf by leaf."""
    columns = zip(*(_leaves(r) for r in results))
    return _rebuild(results[0], iter([shape.stack(list(column), dim) for column in columns]))


# --------------------------------------------------------------------------- reverse mode
def _tracked(args: tuple, argnums: tuple) -> tuple:
    """The arguments, the tensors at ``argnums`` (or in the dicts, lists and tuples there) made differentiable
    (kept in the graph when they already are, so that transforms nest)."""
    def track(a: Any) -> Any:
        return a.view_as(a) if a.requires_grad else a.detach().requires_grad_()
    return tuple(_tree_map(track, a) if i in argnums else a for i, a in enumerate(args))


def grad_and_value(func: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """A function returning ``(gradient of func's scalar output w.r.t. the arguments argnums, output)``
    (``((gradient), (output, aux))`` with ``has_aux``)."""
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(func)
    def transformed(*args: Any, **kwargs: Any) -> Any:
        nested = any(leaf.requires_grad for i in numbers for leaf in _leaves(args[i]))
        with grad_mode.enable_grad():
            tracked = _tracked(args, numbers)
            result = func(*tracked, **kwargs)
            output, aux = result if has_aux else (result, None)
            if output.numel() != 1:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.ndim} dims. Maybe you wanted to use the vjp or jacrev APIs "
                                   "instead?")
            inputs = [leaf for i in numbers for leaf in _leaves(tracked[i])]
            leaf_grads = engine.grad(output, inputs, create_graph=nested, allow_unused=True)
        filled = iter([g if g is not None else t.detach() * 0 for g, t in zip(leaf_grads, inputs)])
        grads = tuple(_rebuild(tracked[i], filled) for i in numbers)
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
        leaves = [leaf for primal in tracked for leaf in _leaves(primal)]
        grads = iter(engine.grad(output, leaves, cotangent, retain_graph=True, allow_unused=True))
        return tuple(_rebuild(primal, grads) for primal in tracked)
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
        duals = iter([forward_ad.make_dual(p, t) for p, t in zip(_leaves(primals), _leaves(tangents))])
        result = func(*_rebuild(primals, duals))
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

        chosen_trees = [args[i] for i in numbers]  # (dicts, lists and tuples of tensors differentiate leaf by leaf)

        def of_chosen(*chosen: Tensor) -> Any:
            full = list(args)
            for i, value in zip(numbers, _rebuild(chosen_trees, iter(chosen))):
                full[i] = value
            result = func(*full)
            if not has_aux:
                return result
            auxiliary.append(result[1])
            return result[0]
        leaves = tuple(_leaves(chosen_trees))
        nested = any(leaf.requires_grad for leaf in leaves)  # (inside another transform: keep the graph)
        leaf_jacobians = autograd_functional.jacobian(of_chosen, leaves, create_graph=nested)
        jacobian = _rebuild(tuple(chosen_trees), iter(leaf_jacobians))
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


def hessian(func: Callable, argnums: int | tuple = 0) -> Callable:
    """A function returning the Hessian of ``func`` w.r.t. the arguments ``argnums``: the Jacobian of its
    Jacobian (``jacfwd(jacrev(func))``), so an output of shape ``S`` gives ``S + input shape * 2``."""
    return jacfwd(jacrev(func, argnums), argnums)


def functional_call(module: Module, parameter_and_buffer_dicts: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` computed with the tensors of ``parameter_and_buffer_dicts`` (a dict, or a
    tuple of dicts, keyed like ``named_parameters``) in place of the module's own; gradients flow to those
    tensors and the module is unchanged afterwards. (``nn.utils.stateless.functional_call`` without its
    deprecation warning.)"""
    return _functional_call(module, parameter_and_buffer_dicts, args, kwargs, strict)


def stack_module_state(models: Sequence[Module]) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """``(params, buffers)`` of several models of the same class, each stacked over a new first dimension
    (for ``vmap`` over ``functional_call``); stacked parameters are new leaves that require grad."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if any(type(m) is not type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(named: list[dict[str, Tensor]]) -> dict[str, Tensor]:
        result = {}
        for name in named[0]:
            tensors = [tensors[name] for tensors in named]
            requires = {t.requires_grad for t in tensors}
            if len(requires) > 1:
                raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
            result[name] = shape.stack(tensors).detach().requires_grad_(requires.pop())
        return result
    return (stacked([dict(m.named_parameters()) for m in models]),
            stacked([dict(m.named_buffers()) for m in models]))
