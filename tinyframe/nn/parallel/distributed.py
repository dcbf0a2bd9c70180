"""``DistributedDataParallel``: one model replica per rank, gradients averaged during backward."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ... import grad_mode
from ...device import array_module_of
from ...distributed.process_group import _group, _ProcessGroup
from ...distributed.reduce_op import ReduceOp
from ...tensor import Tensor
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["DistributedDataParallel"]

_UNFINISHED = ("Expected to have finished reduction in the prior iteration before starting a new one. This error "
               "indicates that your module has parameters that were not used in producing loss. You can enable "
               "unused parameter detection by passing the keyword argument `find_unused_parameters=True` to "
               "`tinyframe.nn.parallel.DistributedDataParallel`, and by making sure all `forward` function outputs "
               "participate in calculating loss. Parameters that did not receive a gradient on rank {rank}: {names}")


class _Bucket:
    """Parameters whose gradients are all-reduced together, as one flat array."""

    def __init__(self, params: list) -> None:
        self.params = params
        self.sizes = [p._data.size for p in params]
        first = params[0]._data
        self.flat = array_module_of(first).empty(sum(self.sizes), first.dtype)
        self.ready: set = set()
        self.request: Any = None


def _buckets(params: list, cap_bytes: int) -> list:
    """Parameters in reverse order (the order backward makes their gradients), cut into buckets of at
    most ``cap_bytes`` (a single larger parameter gets a bucket of its own), one dtype and device each."""
    buckets: list = []
    current: list = []
    size = 0
    for param in reversed(params):
        array = param._data
        if current and (size + array.nbytes > cap_bytes or array.dtype != current[0]._data.dtype
                        or type(array) is not type(current[0]._data)):
            buckets.append(_Bucket(current))
            current, size = [], 0
        current.append(param)
        size += array.nbytes
    if current:
        buckets.append(_Bucket(current))
    return buckets


class _Reducer:
    """Launches each bucket's non-blocking all-reduce once every gradient in it has been accumulated
    (buckets in their fixed order, as MPI needs the same sequence of collectives on every rank), and
    writes the averages back into ``.grad`` when the last bucket is launched."""

    def __init__(self, pg: _ProcessGroup, named_params: list, cap_bytes: int, find_unused: bool) -> None:
        self.pg, self.find_unused = pg, find_unused
        self.names = {id(p): name for name, p in named_params}
        self.buckets = _buckets([p for _, p in named_params], cap_bytes)
        self.bucket_of = {id(p): bucket for bucket in self.buckets for p in bucket.params}
        self.expecting_backward = False
        self.next_bucket = 0
        self.used: set = set()
        for _, param in named_params:
            param.register_post_accumulate_grad_hook(self._grad_ready)

    def prepare_for_backward(self) -> None:
        """Called by every forward that will be followed by a synchronised backward."""
        if self.expecting_backward and any(b.ready for b in self.buckets):
            missing = [self.names[id(p)] for b in self.buckets for p in b.params if id(p) not in b.ready]
            raise RuntimeError(_UNFINISHED.format(rank=self.pg.rank, names=", ".join(missing)))
        for bucket in self.buckets:
            bucket.ready.clear()
        self.next_bucket, self.used, self.expecting_backward = 0, set(), True

    def mark_unused(self, outputs: Any) -> None:
        """Marks ready the parameters that ``outputs`` do not depend on (they will get no gradient)."""
        reached = _leaves_reached(outputs)
        for bucket in self.buckets:
            for param in bucket.params:
                if id(param) not in reached:
                    self._mark(param)
        self._launch_ready()

    def _grad_ready(self, param: Parameter) -> None:
        if not self.expecting_backward:
            return
        if id(param) in self.bucket_of[id(param)].ready:
            raise RuntimeError(f"DistributedDataParallel: parameter '{self.names[id(param)]}' got a gradient "
                               "twice in one iteration; call forward again before another backward")
        self.used.add(id(param))
        self._mark(param)
        self._launch_ready()
        self.pg.backend.progress([b.request for b in self.buckets[:self.next_bucket]])

    def _mark(self, param: Parameter) -> None:
        self.bucket_of[id(param)].ready.add(id(param))

    def _launch_ready(self) -> None:
        while self.next_bucket < len(self.buckets):
            bucket = self.buckets[self.next_bucket]
            if len(bucket.ready) < len(bucket.params):
                return
            self._launch(bucket)
            self.next_bucket += 1
        self._finish()

    def _launch(self, bucket: _Bucket) -> None:
        offset = 0
        for param, size in zip(bucket.params, bucket.sizes):
            part = bucket.flat[offset:offset + size]
            if param._grad is None or id(param) not in self.used:
                part[...] = 0
            else:
                part[...] = param._grad._data.reshape(-1)
            offset += size
        bucket.request = self.pg.backend.all_reduce(bucket.flat, ReduceOp.SUM)

    def _finish(self) -> None:
        self.expecting_backward = False
        self.pg.backend.wait([b.request for b in self.buckets])
        used_anywhere = self._used_anywhere()
        for bucket in self.buckets:
            bucket.request = None
            bucket.flat /= self.pg.size
            offset = 0
            for param, size in zip(bucket.params, bucket.sizes):
                if used_anywhere is None or used_anywhere[id(param)]:
                    _set_grad(param, bucket.flat[offset:offset + size])
                offset += size

    def _used_anywhere(self) -> dict | None:
        """With ``find_unused_parameters``: whether each parameter got a gradient on some rank (a
        parameter unused on every rank keeps its ``.grad`` untouched, as in PyTorch)."""
        if not self.find_unused:
            return None
        ids = [id(p) for b in self.buckets for p in b.params]
        flags = self.pg.backend.all_gather_object([i in self.used for i in ids])
        return {i: any(rank_flags[k] for rank_flags in flags) for k, i in enumerate(ids)}


def _set_grad(param: Parameter, flat: Any) -> None:
    value = flat.reshape(param._data.shape)
    if param._grad is None:
        param._grad = Tensor._make(value.copy())
    else:
        param._grad._data[...] = value


def _leaves_reached(outputs: Any) -> set:
    """The ids of the leaf tensors whose AccumulateGrad nodes the graphs of ``outputs`` reach."""
    stack = [t.grad_fn for t in _tensors(outputs) if t.grad_fn is not None]
    seen: set = set()
    leaves: set = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "_variable", None)
        if variable is not None and variable() is not None:
            leaves.add(id(variable()))
        stack.extend(child for child, _ in node.next_functions)
    return leaves


def _tensors(value: Any) -> Iterator[Tensor]:
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item)


class DistributedDataParallel(Module):
    """Data parallelism across the ranks of the default process group (``mpiexec -n N``).

    Every rank holds a replica of ``module`` and runs it on its share of each global batch. At
    construction the ranks check that they hold parameters of the same names, shapes and dtypes, and
    rank 0's parameters and buffers are broadcast to the others. During ``backward()`` the gradients
    are averaged across ranks, ``grad = (1/N) sum_r grad_r``: the parameters are grouped, in reverse
    order, into buckets of about ``bucket_cap_mb`` megabytes, and each bucket's non-blocking
    all-reduce starts as soon as all its gradients are accumulated, overlapping the rest of backward.
    With the same optimizer on every rank the replicas stay equal, and N ranks with batches of B
    train as one process with batches of N*B.

    ``no_sync()`` skips the averaging (to accumulate gradients locally over several backward passes);
    ``find_unused_parameters=True`` lets forward leave some parameters out of the loss. With
    ``broadcast_buffers`` rank 0's buffers (e.g. BatchNorm's running statistics) are copied to all
    ranks at every forward in training. ``device_ids``, ``output_device``, ``dim``,
    ``check_reduction``, ``gradient_as_bucket_view`` and ``static_graph`` are accepted for PyTorch
    compatibility and unused: the module is expected on its rank's device already.
    """

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None, dim: int = 0,
                 broadcast_buffers: bool = True, process_group: Any = None, bucket_cap_mb: float | None = None,
                 find_unused_parameters: bool = False, check_reduction: bool = False,
                 gradient_as_bucket_view: bool = False, static_graph: bool = False) -> None:
        super().__init__()
        self.module = module
        pg = _group(process_group)
        self._pg = pg
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.require_backward_grad_sync = True
        _check_same_model(pg, module)
        with grad_mode.no_grad():
            for _, tensor in _state_tensors(module):
                _broadcast_from_rank0(pg, tensor)
        named = [(name, p) for name, p in module.named_parameters() if p.requires_grad]
        cap = 25 if bucket_cap_mb is None else bucket_cap_mb
        self._reducer = _Reducer(pg, named, int(cap * 1024 * 1024), find_unused_parameters) if named else None

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        reducer = self._reducer if grad_mode.is_grad_enabled() and self.require_backward_grad_sync else None
        if reducer is not None:
            reducer.prepare_for_backward()
        if self.broadcast_buffers and self.training and self._pg.size > 1:
            for buffer in self.module.buffers():
                _broadcast_from_rank0(self._pg, buffer)
        output = self.module(*inputs, **kwargs)
        if reducer is not None and self.find_unused_parameters:
            reducer.mark_unused(output)
        return output

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Inside, forward and backward accumulate gradients locally; the first backward after the block
        averages the accumulated gradients."""
        previous, self.require_backward_grad_sync = self.require_backward_grad_sync, False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous


def _state_tensors(module: Module) -> list:
    return [*module.named_parameters(), *((n, b) for n, b in module.named_buffers() if b is not None)]


def _check_same_model(pg: _ProcessGroup, module: Module) -> None:
    """Raises on every rank when the ranks' parameters and buffers differ in names, shapes or dtypes."""
    mine = [(name, tuple(t.shape), str(t.dtype)) for name, t in _state_tensors(module)]
    models = pg.backend.all_gather_object(mine)
    for rank, theirs in enumerate(models):
        if theirs == models[0]:
            continue
        for (name0, shape0, dtype0), (name, shape, dtype) in zip(models[0], theirs):
            if (name0, shape0, dtype0) != (name, shape, dtype):
                raise RuntimeError(f"DistributedDataParallel: the model differs across ranks: '{name0}' has shape "
                                   f"{list(shape0)} {dtype0} on rank 0 but '{name}' has shape {list(shape)} {dtype} "
                                   f"on rank {rank}; every rank must build the same model")
        raise RuntimeError(f"DistributedDataParallel: the model differs across ranks: rank 0 has "
                           f"{len(models[0])} parameters and buffers, rank {rank} has {len(theirs)}; every rank "
                           "must build the same model")


def _broadcast_from_rank0(pg: _ProcessGroup, tensor: Tensor) -> None:
    array = tensor._data
    buffer = array if array.flags.c_contiguous else array_module_of(array).ascontiguousarray(array)
    pg.backend.wait([pg.backend.broadcast(buffer, 0)])
    if buffer is not array:
        array[...] = buffer
    tensor._bump_version()
