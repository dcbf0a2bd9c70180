"""``AdaptiveLogSoftmaxWithLoss``: the adaptive softmax of Grave et al. (2016) for many classes."""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from typing import Any

from ...ops import shape as shape_ops
from ...tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of targets among ``n_classes`` classes split at ``cutoffs``: the ``cutoffs[0]``
    most frequent classes and one entry per tail cluster form the ``head`` (a Linear); cluster ``i``
    is a Linear to ``in_features // div_value ** (i + 1)`` features, then one to its classes.

    ``forward(input, target)`` returns ``(output, loss)``: each target's log-probability and the mean
    negative log-likelihood. ``log_prob(input)`` gives all classes, ``predict(input)`` the best one.
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int], div_value: float = 4.0,
                 head_bias: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, device=device, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, device=device, dtype=dtype),
                                        Linear(hidden, size, bias=False, device=device, dtype=dtype)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for cluster in self.tail:
            for linear in cluster.children():
                linear.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> Any:
        if target_.ndim == 1:
            if input_.shape[0] != target_.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.ndim != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        elif target_.ndim == 0:
            if input_.ndim != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target_.ndim > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        output = input.new_zeros(target.shape[0])
        head_index = target.clone()  # the head column of each row: its class, or its cluster's entry
        used_rows = 0
        for i, (low, high) in enumerate(zip([0] + self.cutoffs, self.cutoffs)):
            rows = ((target >= low) & (target < high)).nonzero().reshape(-1)
            used_rows += rows.numel()
            if i == 0 or rows.numel() == 0:
                continue
            cluster_logprob = F.log_softmax(self.tail[i - 1](input.index_select(0, rows)), dim=1)
            relative = target.index_select(0, rows) - low
            output = output.index_copy(0, rows, cluster_logprob.gather(1, relative.unsqueeze(1)).squeeze(1))
            head_index = head_index.index_fill(0, rows, self.shortlist_size + i - 1)
        if used_rows != target.shape[0]:
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{target.min().item()}, {target.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = output + head_logprob.gather(1, head_index.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _get_full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        """The log-probabilities of all classes, from ``input`` and the head's output on it."""
        head_logprob = F.log_softmax(head_output, dim=1)
        pieces = [head_logprob[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            pieces.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return shape_ops.cat(pieces, dim=1)

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of every class, ``(N, n_classes)``."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The most probable class of each row (``log_prob(input).argmax(dim=1)``, cheaper when the head
        already settles it)."""
        head_output = self.head(input)
        output = head_output.argmax(dim=1)
        outside = output >= self.shortlist_size
        if not bool(outside.any()):
            return output
        if bool(outside.all()):
            return self._get_full_log_prob(input, head_output).argmax(dim=1)
        output[outside] = self._get_full_log_prob(input[outside], head_output[outside]).argmax(dim=1)
        return output
