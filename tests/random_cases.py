"""Random draws that tests/test_random_parity.py compares with PyTorch's recorded results.

Each case takes the framework module (``torch`` or ``tinyframe``) and returns a list of tensors or
lists; tests/data/make_random_fixtures.py runs them under PyTorch 2.13 (CPU) and records the results.
"""
from __future__ import annotations

import hashlib
import importlib
from typing import Any

import numpy as np

CASES: dict = {}


def record(value: Any) -> Any:
    """A result as JSON: lists stay lists, arrays become {dtype, shape, values | sha256}."""
    if isinstance(value, (list, tuple)):
        return [record(item) for item in value]
    if isinstance(value, (int, float)):
        return value
    array = np.ascontiguousarray(value.detach().numpy() if hasattr(value, "detach") else np.asarray(value))
    entry = {"dtype": str(array.dtype), "shape": list(array.shape)}
    if array.size > 64:
        entry["sha256"] = hashlib.sha256(array.tobytes()).hexdigest()
    else:
        entry["values"] = array.reshape(-1).tolist()
    return entry


def case(function: Any) -> Any:
    CASES[function.__name__] = function
    return function


def data(torch: Any) -> Any:
    return importlib.import_module(torch.__name__ + ".utils.data")


@case
def randn_float32(torch: Any) -> list:
    out = []
    for seed in (0, 1, 42, 2**40 + 7, -1):
        for n in (1, 2, 3, 15, 16, 17, 31, 33, 100, 1001):
            torch.manual_seed(seed)
            out += [torch.randn(n), torch.randn(n)]
    torch.manual_seed(0)
    return out + [torch.randn(784 * 128), torch.randn(2, 3, 5)]


@case
def randn_float64(torch: Any) -> list:
    out = []
    for seed in (0, 3):
        for n in (1, 3, 15, 16, 17, 100, 1001):
            torch.manual_seed(seed)
            out += [torch.randn(n, dtype=torch.float64), torch.randn(2, dtype=torch.float64)]
    return out


@case
def float16(torch: Any) -> list:
    torch.manual_seed(0)
    return [torch.randn(20, dtype=torch.float16), torch.randn(3), torch.randn(16, dtype=torch.float16),
            torch.rand(5, dtype=torch.float16), torch.randn(33, dtype=torch.float16),
            torch.randn(5, dtype=torch.float16), torch.empty(40, dtype=torch.float16).uniform_(-2, 2), torch.rand(2)]


@case
def rand_and_uniform(torch: Any) -> list:
    torch.manual_seed(7)
    return [torch.rand(5), torch.rand(3, dtype=torch.float64), torch.rand(1000), torch.empty(20).uniform_(-0.3, 0.7),
            torch.empty(1000, dtype=torch.float64).uniform_(-2, 3), torch.empty(3, 4).t().uniform_(), torch.randn(3)]


@case
def normal_inplace(torch: Any) -> list:
    torch.manual_seed(0)
    return [torch.empty(20).normal_(2.0, 3.0), torch.empty(5).normal_(1.5, 0.5),
            torch.empty(40, dtype=torch.float64).normal_(-1.0, 2.5), torch.empty(4, 5).t().normal_(),
            torch.empty(1000).normal_(0.5, 2.0), torch.rand(2)]


@case
def normal_function(torch: Any) -> list:
    torch.manual_seed(0)
    mean, std = torch.arange(20.0), torch.ones(20) * 0.5
    return [torch.normal(mean, std), torch.normal(mean, 2.0), torch.normal(1.0, std), torch.normal(2.0, 3.0, size=(5,)),
            torch.normal(torch.zeros(3), torch.ones(3)), torch.rand(2)]


@case
def randint_random(torch: Any) -> list:
    torch.manual_seed(0)
    return [torch.randint(0, 10, (20,)), torch.randint(-5, 5, (7,)), torch.randint(0, 2**33, (5,)),
            torch.randint(3, (4,)), torch.randint(0, 100, (6,), dtype=torch.int32),
            torch.empty((), dtype=torch.int64).random_(), torch.empty(3, dtype=torch.int32).random_(),
            torch.empty(3).random_(), torch.empty(3, dtype=torch.float64).random_(0, 5), torch.rand(2)]


@case
def randperm(torch: Any) -> list:
    out = []
    for seed in (0, 5):
        torch.manual_seed(seed)
        out += [torch.randperm(0), torch.randperm(1), torch.randperm(2), torch.randperm(10), torch.randperm(1000),
                torch.randperm(5, dtype=torch.int32), torch.rand(2)]
    return out


@case
def modules(torch: Any) -> list:
    torch.manual_seed(42)
    linear, big = torch.nn.Linear(4, 3), torch.nn.Linear(784, 128)
    torch.manual_seed(1)
    conv = torch.nn.Conv2d(3, 8, 3)
    return [linear.weight, linear.bias, big.weight, big.bias, conv.weight, conv.bias]


@case
def init(torch: Any) -> list:
    init = torch.nn.init
    torch.manual_seed(0)
    w = torch.empty(5, 7)
    out = [init.xavier_uniform_(w).clone(), init.xavier_normal_(w).clone(), init.kaiming_uniform_(w).clone(),
           init.kaiming_normal_(w).clone(), init.normal_(w, 0.1, 0.02).clone(), init.uniform_(w, -1, 2).clone()]
    for a, b, mean, std in ((-2, 2, 0, 1), (-0.5, 0.5, 0, 1), (0.5, 3.0, 0, 1), (-1, 1, 0, 0.02), (-0.1, 0.1, 0, 1)):
        out.append(init.trunc_normal_(torch.empty(200), mean, std, a, b))
    init.orthogonal_(torch.empty(6, 4))
    out.append(torch.rand(3))
    out.append(init.sparse_(torch.empty(6, 3), 0.5))
    return out + [torch.rand(3)]


@case
def bernoulli_dropout(torch: Any) -> list:
    torch.manual_seed(0)
    p = torch.rand(10)
    functional = torch.nn.functional
    return [torch.bernoulli(p), torch.bernoulli(p.double()), torch.empty(20).bernoulli_(0.3),
            torch.bernoulli(torch.full((4, 3), 0.5)), functional.dropout(torch.ones(4, 10), 0.3),
            torch.nn.Dropout(0.5)(torch.ones(20)), functional.dropout2d(torch.ones(2, 3, 2, 2), 0.5),
            functional.alpha_dropout(torch.ones(10), 0.5, True), functional.rrelu(torch.randn(30), training=True),
            torch.rand(2)]


@case
def multinomial_exponential(torch: Any) -> list:
    torch.manual_seed(0)
    p = torch.tensor([0.1, 0.2, 0.3, 0.4])
    return [torch.multinomial(p, 2), torch.multinomial(p, 1), torch.multinomial(p, 10, replacement=True),
            torch.multinomial(torch.tensor([[1.0, 2, 3], [3, 0, 1]]), 5, replacement=True),
            torch.multinomial(torch.rand(3, 6), 3), torch.multinomial(torch.rand(5, dtype=torch.float64), 5),
            torch.empty(10).exponential_(), torch.empty(5, dtype=torch.float64).exponential_(2.0), torch.rand(2)]


@case
def generators(torch: Any) -> list:
    g = torch.Generator()
    g.manual_seed(123)
    torch.manual_seed(0)
    out = [torch.randn(5, generator=g), torch.rand(20, generator=g), torch.randn(3),
           torch.randint(0, 100, (5,), generator=g), torch.randperm(7, generator=g),
           torch.empty(17).normal_(generator=g), torch.empty(4).uniform_(generator=g), torch.randn(3)]
    default = torch.Generator()
    return out + [torch.rand(3, generator=default), [g.initial_seed(), default.initial_seed()]]


@case
def interleaved(torch: Any) -> list:
    torch.manual_seed(0)
    return [torch.randn(3), torch.rand(2), torch.randn(1), torch.randn(1, dtype=torch.float64), torch.randn(5),
            torch.randint(0, 7, (3,)), torch.randn(17), torch.randn(2), torch.rand(1, dtype=torch.float64)]


@case
def loading(torch: Any) -> list:
    module = data(torch)
    torch.manual_seed(0)
    dataset = module.TensorDataset(torch.arange(10))
    out = []
    for _ in range(2):
        out.append([batch[0] for batch in module.DataLoader(dataset, batch_size=3, shuffle=True)])
    out.append([batch[0] for batch in module.DataLoader(dataset, batch_size=4)])
    out.append(list(module.random_split(range(10), [7, 3])[0].indices))
    generator = torch.Generator().manual_seed(9)
    out += [list(module.RandomSampler(range(6), generator=generator)), list(module.RandomSampler(range(6)))]
    out += [list(module.RandomSampler(range(5), replacement=True, num_samples=40)),
            list(module.RandomSampler(range(4), num_samples=10)), list(module.SubsetRandomSampler([5, 6, 7, 8])),
            list(module.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5)),
            list(module.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 4, replacement=False))]
    return out + [torch.rand(3)]


@case
def rng_state(torch: Any) -> list:
    torch.manual_seed(0)
    fresh = torch.get_rng_state()
    torch.randn(3)  # leaves a cached Box-Muller sample
    state = torch.get_rng_state()
    before = torch.randn(5)
    torch.set_rng_state(state)
    g = torch.Generator()
    g.set_state(state)
    return [fresh, state, before, torch.randn(5), torch.randn(5, generator=g), g.get_state()]


@case
def other_distributions(torch: Any) -> list:
    torch.manual_seed(0)
    return [torch.empty(7).cauchy_(), torch.empty(5, dtype=torch.float64).cauchy_(1.0, 2.0),
            torch.empty(5).log_normal_(), torch.empty(3, dtype=torch.float64).log_normal_(0.5, 0.25),
            torch.empty(20).geometric_(0.3), torch.empty(4, dtype=torch.int64).geometric_(0.6), torch.randn(3)]


@case
def like_non_contiguous(torch: Any) -> list:
    """``rand_like``/``randn_like`` keep a transposed or permuted input's strides and fill memory order (a
    non-contiguous normal fill: one pair at a time even past 16 values); sliced or expanded inputs give
    contiguous results."""
    torch.manual_seed(0)
    transposed, permuted = torch.zeros(3, 4).t(), torch.zeros(2, 3, 4).permute(2, 0, 1)
    sliced, expanded = torch.zeros(4, 6)[:, ::2], torch.zeros(3, 1).expand(3, 4)
    out = []
    for like in (torch.rand_like, torch.randn_like):
        for source in (transposed, permuted, sliced, expanded):
            result = like(source)
            out += [result, list(result.stride())]
    return out + [torch.randn_like(torch.zeros(5, 4, dtype=torch.float64).t()), torch.randn(3)]


@case
def rejection_samplers(torch: Any) -> list:
    # PyTorch's serial CPU samplers (sample_gamma, sample_poisson, sample_binomial), each element drawing as
    # many uniforms and normals as its rejection loop takes, then the stream position after them
    torch.manual_seed(3)
    out = []
    for dtype in (torch.float32, torch.float64):
        alpha = torch.rand(300, dtype=dtype) * 6
        alpha[::7] *= 0.05
        out += [torch._standard_gamma(alpha), torch.poisson(torch.rand(300, dtype=dtype) * 40),
                torch.binomial(torch.randint(0, 200, (300,)).to(dtype), torch.rand(300, dtype=dtype)),
                torch.distributions.Dirichlet(torch.rand(50, 4, dtype=dtype) * 3 + 0.01).sample(),
                torch.distributions.Beta(torch.tensor([0.5, 2.0], dtype=dtype), 1.5).sample((3,)),
                torch.randn(5, dtype=dtype)]
    return out


@case
def complex_fills(torch: Any) -> list:
    # uniform_ / normal_ on a complex tensor fill view_as_real of it in memory order, real and imaginary parts
    # in turn (normal_ with std / sqrt(2)), so later draws continue the same stream
    torch.manual_seed(5)
    a = torch.empty(3, 4, dtype=torch.complex64).t().uniform_(-2, 3)
    b = torch.empty(4, 6, dtype=torch.complex128)[:, ::2].normal_(1.0, 0.5)
    c = torch.empty(40, dtype=torch.complex64).normal_()
    return [torch.view_as_real(a), torch.view_as_real(b), torch.view_as_real(c), torch.randn(3)]


@case
def normal_serial_scaled(torch: Any) -> list:
    # the serial normal_ path (non-contiguous, or under 16 elements) scales each sample with one fma
    torch.manual_seed(3)
    out = []
    for std, mean in [(0.1, 0.3), (2.7, -1.1), (1 / 3, 1 / 7)]:
        out += [torch.empty(7, 9, dtype=torch.float64)[:, ::2].normal_(mean, std),
                torch.empty(7, 9)[:, ::2].normal_(mean, std), torch.empty(9, dtype=torch.float64).normal_(mean, std)]
    return out + [torch.randn(2)]
