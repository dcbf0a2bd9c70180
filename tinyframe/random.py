"""Random number generation: one seeded generator per device, PyTorch's ``manual_seed``.

The CPU generator is PyTorch's: a 32-bit Mersenne Twister (NumPy's ``MT19937`` seeded as
``init_genrand(seed & 0xffffffff)``) whose raw outputs go through PyTorch's CPU transforms
(``aten/src/ATen/core/DistributionsHelper.h``, ``native/cpu/DistributionTemplates.h``), so that
``manual_seed(s)`` followed by the same calls gives PyTorch's numbers bit for bit. Each transform is
vectorised over the raw outputs it consumes. CUDA generators draw from CuPy's ``RandomState``.
"""
from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from . import dtypes
from .device import CPU, as_device, cupy_module, device

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
           "default_generator", "generator_for", "fork_rng"]

_DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val


class Generator:
    """A seeded source of random numbers for one device (``tinyframe.Generator(device='cpu')``)."""

    def __init__(self, device: Any = "cpu") -> None:
        self.device = device if isinstance(device, type(CPU)) else as_device(device)
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        """Resets the generator to the stream of ``seed``; returns self. As in PyTorch, only the low
        32 bits key the CPU stream; ``initial_seed()`` keeps the whole 64-bit value."""
        seed = int(seed)
        if not -2**63 <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._state: Any = None
        self._twister: np.random.MT19937 | None = None
        self._normal: float | None = None  # PyTorch's cached second Box-Muller sample (next_double_normal_sample)
        self._fresh = True  # no draw since seeding (PyTorch's state then reads next=0)
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseeds from the operating system's entropy and returns the new seed."""
        import secrets  # here, not at module level: it costs ~8 ms of ``import tinyframe``

        self.manual_seed(secrets.randbits(63))  # what NumPy's SeedSequence draws, reduced to 63 bits
        return self._seed

    @property
    def twister(self) -> np.random.MT19937:
        """The CPU Mersenne Twister, created from the seed on first use."""
        if self._twister is None:
            self._twister = _seeded_twister(self._seed)
        self._fresh = False
        return self._twister

    @property
    def state(self) -> Any:
        """A NumPy ``Generator`` over the CPU twister (for draws PyTorch's transforms do not cover), or
        the CuPy ``RandomState`` of a CUDA generator."""
        if self.device.type == "cpu":
            return np.random.Generator(self.twister)
        if self._state is None:
            cupy = cupy_module()
            with cupy.cuda.Device(self.device.index):
                self._state = cupy.random.RandomState(self._seed)
        return self._state

    def random(self, count: int) -> np.ndarray:
        """``count`` raw 32-bit outputs (PyTorch's ``generator->random()``), as uint64."""
        return self.twister.random_raw(count)

    def random64(self, count: int) -> np.ndarray:
        """``count`` 64-bit values, each from two outputs, the first the high half (``random64()``)."""
        raw = self.random(2 * count)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    def get_state(self) -> Any:
        """PyTorch's CPU generator state: a uint8 tensor of the 5056 bytes of ``CPUGeneratorImplState``."""
        if self.device.type != "cpu":
            raise NotImplementedError("get_state is supported for CPU generators only")
        twister = self._twister or _seeded_twister(self._seed)
        pos = twister.state["state"]["pos"]
        out = np.zeros((), dtype=_STATE_LAYOUT)
        out["seed"], out["seeded"] = self._seed, 1
        out["left"], out["next"] = (1, 0) if self._fresh else (625 - pos, pos)
        out["state"] = twister.state["state"]["key"]
        if self._normal is not None:
            out["normal_y"], out["normal_is_valid"] = self._normal, 1
        return _make_tensor(np.frombuffer(out.tobytes(), dtype=np.uint8).copy())

    def set_state(self, state: Any) -> None:
        """Restores a state from :meth:`get_state` (a CPU uint8 tensor of 5056 bytes)."""
        data = getattr(state, "_data", None)
        if not isinstance(data, np.ndarray):
            kind = type(state)
            name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
            raise TypeError(f"expected a torch.ByteTensor, but got {name}")
        if data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if data.size != _STATE_LAYOUT.itemsize:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_LAYOUT.itemsize} but found the input "
                               f"RNG state size to be {data.size}")
        fields = np.frombuffer(data.tobytes(), dtype=_STATE_LAYOUT)[0]
        left = int(fields["left"])
        if not fields["seeded"] or not 0 < left <= 624 or int(fields["next"]) > 624:
            raise RuntimeError("Invalid mt19937 state")
        twister = np.random.MT19937()
        twister.state = {"bit_generator": "MT19937",
                         "state": {"key": fields["state"].astype(np.uint32), "pos": 625 - left}}
        self._seed = int(fields["seed"])
        self._twister, self._state = twister, None
        self._fresh = left == 1 and int(fields["next"]) == 0
        self._normal = float(fields["normal_y"]) if fields["normal_is_valid"] else None


def register_tensor_maker(make: Callable[[np.ndarray], Any]) -> None:
    """Sets how ``get_state`` makes its array a Tensor: ``_graph.wrap``, which ``tensor.py`` registers
    here as it registers its class with ``_graph``, this module lying below the layers that make Tensors."""
    global _make_tensor
    _make_tensor = make


_make_tensor: Callable[[np.ndarray], Any] = np.asarray  # until tensor.py, imported with tinyframe, registers wrap


def _seeded_twister(seed: int) -> np.random.MT19937:
    """PyTorch's ``mt19937(seed)``: ``init_genrand`` of the low 32 bits."""
    twister = np.random.MT19937()
    twister._legacy_seeding(seed & 0xFFFFFFFF)
    return twister


# PyTorch's CPUGeneratorImplState (legacy THGeneratorState, then the float normal cache), byte for byte.
_STATE_LAYOUT = np.dtype({
    "names": ["seed", "left", "seeded", "next", "state", "normal_x", "normal_y", "normal_rho", "normal_is_valid",
              "next_float_normal", "float_normal_valid"],
    "formats": ["<u8", "<i4", "<i4", "<u8", ("<u8", 624), "<f8", "<f8", "<f8", "<i4", "<f4", "u1"],
    "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
    "itemsize": 5056})


default_generator = Generator("cpu")
_cuda_generators: dict = {}


def generator_for(dev: device, generator: Generator | None = None) -> Generator:
    """The generator to draw from on ``dev``: the given one, else the device's default."""
    if generator is not None:
        if generator.device != dev:
            raise RuntimeError(f"Expected a '{dev.type}' device type for generator but found "
                               f"'{generator.device.type}'")
        return generator
    if dev.type == "cpu":
        return default_generator
    if dev not in _cuda_generators:
        _cuda_generators[dev] = Generator(dev).manual_seed(default_generator.initial_seed())
    return _cuda_generators[dev]


def manual_seed(seed: int) -> Generator:
    """Seeds the random number generators of all devices; returns the CPU generator."""
    default_generator.manual_seed(seed)
    for gen in _cuda_generators.values():
        gen.manual_seed(seed)
    return default_generator


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The CPU generator's state as PyTorch's uint8 tensor of 5056 bytes (``CPUGeneratorImplState``)."""
    return default_generator.get_state()


def set_rng_state(state: Any) -> None:
    """Restores the CPU generator's state from :func:`get_rng_state`."""
    default_generator.set_state(state)


@contextlib.contextmanager
def fork_rng(devices: Iterable[Any] | None = None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type: str = "cuda") -> Iterator[None]:
    """Inside, draw freely: on exit the CPU generator is back in the state it had on entry. (PyTorch
    also restores the CUDA generators of ``devices``; tinyframe's cannot save their state, so they are
    left as the block leaves them.)"""
    if not enabled:
        yield
        return
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)


# --------------------------------------------------------------------------- PyTorch's CPU transforms
# Each function draws what PyTorch's CPU kernel draws, in its order, and computes in its precision.

_MASK53 = np.uint64(2**53 - 1)
_glibc_log = np.frompyfunc(math.log, 1, 1)  # NumPy's SIMD log and log1p differ from glibc's in the last bit
_glibc_log1p = np.frompyfunc(math.log1p, 1, 1)
_glibc_exp, _glibc_tan = np.frompyfunc(math.exp, 1, 1), np.frompyfunc(math.tan, 1, 1)


def _libm(function: Any, x: np.ndarray) -> np.ndarray:
    return function(x).astype(np.float64) if x.size else x


def unit(gen: Generator, count: int, double: bool) -> np.ndarray:
    """``uniform_real_distribution(0, 1)``: 53 bits of ``random64()`` as float64, or 24 bits of
    ``random()`` as float32 (float32 and narrower dtypes)."""
    if double:
        return (gen.random64(count) & _MASK53).astype(np.float64) * 2.0**-53
    return (gen.random(count) & np.uint64(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)


def uniform(gen: Generator, shape: tuple, dtype: Any, low: float = 0.0, high: float = 1.0) -> Any:
    """``uniform_(low, high)`` samples of ``dtype``; a value rounded up to ``high`` becomes ``low``."""
    dtypes.check_kernel("check_uniform_bounds", dtype, "fc")
    dtype = np.dtype(dtype)
    if gen.device.type != "cpu":
        return (gen.state.random_sample(shape) * (high - low) + low).astype(dtype)
    double = dtype == np.float64
    acc = np.float64 if double else np.float32
    start, stop = acc(low), acc(high)
    fma = _fma64 if double else _fma32  # PyTorch's build contracts x * (to - from) + from
    values = fma(unit(gen, math.prod(shape), double), stop - start, start).astype(dtype, copy=False)
    values[values == dtype.type(high)] = dtype.type(low)
    return values.reshape(shape)


def normal(gen: Generator, shape: tuple, dtype: Any, mean: float = 0.0, std: float = 1.0,
           contiguous: bool = True) -> Any:
    """``normal_(mean, std)`` samples of ``dtype``: Box-Muller on blocks of 16 uniforms for contiguous
    tensors of 16 elements or more, else one float64 pair per two elements (the second cached)."""
    dtypes.check_kernel("normal_kernel_cpu", dtype, "fc")
    dtype = np.dtype(dtype)
    if gen.device.type != "cpu":
        return (gen.state.standard_normal(shape) * std + mean).astype(dtype)
    count = math.prod(shape)
    if count >= 16 and contiguous:
        values = _normal_fill(gen, count, dtype == np.float64, mean, std, dtype.itemsize < 4)
    else:
        values = _normal_serial(gen, count, mean, std)
    return values.astype(dtype, copy=False).reshape(shape)


def _normal_fill(gen: Generator, count: int, double: bool, mean: float, std: float, narrow: bool) -> np.ndarray:
    """Uniforms for the whole tensor (float16: for its whole blocks of 16 only), Box-Muller on each
    block, then 16 fresh uniforms for the last 16 values when the size is not a multiple of 16."""
    fill16 = _fill16_double if double else _fill16_float
    whole = count // 16 * 16
    data = np.empty(count, np.float64 if double else np.float32)
    drawn = whole if narrow else count
    data[:drawn] = unit(gen, drawn, double)
    data[:whole] = fill16(data[:whole].reshape(-1, 16), mean, std).reshape(-1)
    if count % 16:  # PyTorch redraws the last 16 values
        data[count - 16:] = fill16(unit(gen, 16, double).reshape(1, 16), mean, std).reshape(-1)
    return data


def _fill16_float(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """PyTorch's AVX2 ``NormalFill16<float>``: Cephes log and sincos in float32 (avx_mathfun.h), then
    ``fmadd(n, std, mean)``."""
    radius = np.sqrt(np.float32(-2.0) * _log256(np.float32(1.0) - blocks[:, :8].reshape(-1)))
    sin, cos = _sincos256(np.float32(2.0 * math.pi) * blocks[:, 8:].reshape(-1))
    out = np.empty_like(blocks)
    out[:, :8] = (radius * cos).reshape(-1, 8)
    out[:, 8:] = (radius * sin).reshape(-1, 8)
    return _fma32(out, std, mean)


def _fill16_double(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    radius = np.sqrt(-2.0 * _libm(_glibc_log, 1.0 - blocks[:, :8]))
    theta = 2.0 * math.pi * blocks[:, 8:]
    return _fma64(np.concatenate([radius * np.cos(theta), radius * np.sin(theta)], axis=1), std, mean)


def _normal_serial(gen: Generator, count: int, mean: float, std: float) -> np.ndarray:
    """``normal_distribution<double>`` per element: a cached sample first, then pairs of
    ``r cos(theta)`` (returned) and ``r sin(theta)`` (cached for the next element), each scaled as
    ``fma(sample, std, mean)`` (PyTorch's compiled ``sample * std + mean`` is contracted to one fma)."""
    head = [] if gen._normal is None or count == 0 else [gen._normal]
    if head:
        gen._normal = None
    pairs = (count - len(head) + 1) // 2
    u = unit(gen, 2 * pairs, True)
    radius = np.sqrt(-2.0 * _libm(_glibc_log1p, -u[1::2]))
    theta = 2.0 * math.pi * u[0::2]
    values = np.concatenate([head, np.stack([radius * np.cos(theta), radius * np.sin(theta)], 1).reshape(-1)])
    if len(values) > count:
        gen._normal = float(values[-1])
    return _fma64(values[:count], std, mean)


def _fma32(x: np.ndarray, std: float, mean: float) -> np.ndarray:
    """float32 ``fma(x, std, mean)``: the float64 product of two floats is exact."""
    if std == 1.0 and mean == 0.0:
        return x
    return (x * np.float64(np.float32(std)) + np.float64(np.float32(mean))).astype(np.float32)


def _fma64(x: np.ndarray, std: float, mean: float) -> np.ndarray:
    """float64 ``fma(x, std, mean)`` from error-free products and sums (Dekker, Knuth)."""
    if std == 1.0 and mean == 0.0:
        return x
    product = x * std
    x_hi, x_lo = _split(x)
    s_hi, s_lo = _split(np.float64(std))
    error = ((x_hi * s_hi - product) + x_hi * s_lo + x_lo * s_hi) + x_lo * s_lo
    total = product + mean
    back = total - product
    rounding = (product - (total - back)) + (mean - back)
    return total + (rounding + error)


def _split(x: Any) -> tuple:
    scaled = 134217729.0 * x
    high = scaled - (scaled - x)
    return high, x - high


def _f32(value: float) -> np.float32:
    return np.float32(value)


_LOG_P = [_f32(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
                            -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)]
_SQRTHF, _LOG_Q1, _LOG_Q2 = _f32(0.707106781186547524), _f32(-2.12194440e-4), _f32(0.693359375)
_DP = [_f32(-0.78515625), _f32(-2.4187564849853515625e-4), _f32(-3.77489497744594108e-8)]
_SINCOF = [_f32(-1.9515295891E-4), _f32(8.3321608736E-3), _f32(-1.6666654611E-1)]
_COSCOF = [_f32(2.443315711809948E-005), _f32(-1.388731625493765E-003), _f32(4.166664568298827E-002)]
_FOPI, _HALF, _ONE = _f32(1.27323954473516), _f32(0.5), _f32(1.0)


class _Fused:
    """float32 fused multiply-adds: the product of two floats is exact in float64, the sum is rounded
    there once and then to float32 (ties too rare to matter). One float64 buffer is reused, since fresh
    arrays of this size cost page faults that dwarf the arithmetic."""

    def __init__(self, size: int) -> None:
        self.wide = np.empty(size, np.float64)

    def fma(self, a: np.ndarray, b: Any, c: Any, out: np.ndarray | None = None) -> np.ndarray:
        """``fma(a, b, c)`` into ``out`` (default: ``a``)."""
        np.multiply(a, b, out=self.wide, dtype=np.float64)
        np.add(self.wide, c, out=self.wide)
        out = a if out is None else out
        np.copyto(out, self.wide, casting="same_kind")
        return out

    def poly(self, coefficients: list, x: np.ndarray) -> np.ndarray:
        """Horner's ``((c0 x + c1) x + c2) ...`` with one fma per step."""
        y = np.full(x.shape, coefficients[0], np.float32)
        for coefficient in coefficients[1:]:
            self.fma(y, x, coefficient)
        return y


def _log256(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's ``log256_ps`` for positive normal floats, operation by operation, with the
    multiply-adds PyTorch's compiler fuses."""
    fused = _Fused(x.size)
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 0x7E).astype(np.float32)
    mantissa = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)
    small = mantissa < _SQRTHF
    exponent -= small
    x = mantissa - _ONE
    np.add(x, mantissa, out=x, where=small)
    z = x * x
    y = fused.poly(_LOG_P, x)
    y *= x
    fused.fma(y, z, exponent * _LOG_Q1)
    fused.fma(z, -_HALF, y, out=y)
    y += x
    return fused.fma(exponent, _LOG_Q2, y, out=y)


def _sincos256(x: np.ndarray) -> tuple:
    """avx_mathfun's ``sincos256_ps`` (Cephes sinf/cosf), operation by operation, with the
    multiply-adds PyTorch's compiler fuses."""
    fused = _Fused(x.size)
    negative = np.signbit(x)
    x = np.abs(x)
    quadrant = (((x * _FOPI).astype(np.int32) + 1) & ~1)
    y = quadrant.astype(np.float32)
    for part in _DP:
        fused.fma(y, part, x, out=x)
    z = x * x
    cosine = fused.poly(_COSCOF, z)
    cosine *= z
    fused.fma(cosine, z, -(z * _HALF))
    cosine += _ONE
    sine = fused.poly(_SINCOF, z)
    sine *= z
    fused.fma(sine, x, x)
    use_sine = (quadrant & 2) == 0
    sin, cos = np.where(use_sine, sine, cosine), np.where(use_sine, cosine, sine)
    sin_negative = negative ^ ((quadrant & 4) != 0)
    cos_negative = (~(quadrant - 2) & 4) != 0
    return np.where(sin_negative, -sin, sin), np.where(cos_negative, -cos, cos)


def require_real(dtype: Any) -> None:
    """PyTorch's error for integer draws (``random_``, ``randint``) of a complex dtype."""
    if np.dtype(dtype).kind == "c":
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")


def randint(gen: Generator, shape: tuple, dtype: Any, low: int, high: int) -> Any:
    """``random_(low, high)``: ``random() % range + low``, ``random64()`` for ranges of 2**32 or more."""
    require_real(dtype)
    if gen.device.type != "cpu":
        return gen.state.randint(low, high, shape, dtype=np.int64).astype(dtype)
    span = high - low
    raw = gen.random64(math.prod(shape)) if span >= 2**32 else gen.random(math.prod(shape))
    return ((raw % np.uint64(span)) + np.uint64(low % 2**64)).view(np.int64).astype(dtype).reshape(shape)


# random_() without bounds: how many bits each dtype draws and the modulus PyTorch reduces them by.
_FULL_RANGE = {"int64": (True, 2**63), "float64": (True, 2**53 + 1), "float32": (False, 2**24 + 1),
               "float16": (False, 2**11 + 1), "int32": (False, 2**31), "int16": (False, 2**15),
               "int8": (False, 2**7), "uint8": (False, 2**8), "bool": (False, 2)}


def random_bits(gen: Generator, shape: tuple, dtype: Any) -> Any:
    """``random_()``: integers in ``[0, 2**mantissa]`` (floats) or ``[0, max]`` (integers) of ``dtype``."""
    dtype = np.dtype(dtype)
    require_real(dtype)
    wide, modulus = _FULL_RANGE[dtype.name]
    if gen.device.type != "cpu":
        return gen.state.randint(0, min(modulus, 2**62), shape, dtype=np.int64).astype(dtype)
    raw = gen.random64(math.prod(shape)) if wide else gen.random(math.prod(shape))
    return (raw % np.uint64(modulus)).astype(dtype).reshape(shape)


def randperm(gen: Generator, n: int) -> Any:
    """PyTorch's CPU ``randperm`` for n below 2**32 / 20: a Fisher-Yates pass swapping position ``i``
    with ``i + random() % (n - i)``. The swaps are resolved without a loop: position ``k`` ends with
    what position ``j_k`` held at step ``k``, which is the value displaced last into ``j_k`` before
    step ``k`` (or ``j_k`` itself); the displaced values are chained by pointer doubling."""
    if gen.device.type != "cpu":
        return gen.state.permutation(n).astype(np.int64)
    if n >= (2**32 - 1) // 20:
        raise NotImplementedError(f"randperm of {n} >= 2**32 / 20 elements (PyTorch's inside-out shuffle) is not "
                                  "implemented")
    index = np.arange(n, dtype=np.int64)
    target = index.copy()
    target[:-1] += (gen.random(max(n - 1, 0)) % (n - index[:-1]).astype(np.uint64)).astype(np.int64)
    order = np.argsort(target, kind="stable")  # by target, then by step
    grouped = target[order]
    same = np.flatnonzero(grouped[1:] == grouped[:-1]) + 1
    previous = np.full(n, -1)  # the step before, with the same target
    previous[order[same]] = order[same - 1]
    last = np.full(n, -1)  # the last step that targets each position
    ends = np.r_[grouped[1:] != grouped[:-1], True] if n else np.zeros(0, bool)
    last[grouped[ends]] = order[ends]
    # value[k] (what step k swaps away) is value[step that last displaced into k], or k
    source = np.where(target == index, previous, last)
    root = np.where(source >= 0, source, index)
    while True:
        further = root[root]
        if np.array_equal(further, root):
            break
        root = further
    return np.where(previous >= 0, root[np.maximum(previous, 0)], target)


def bernoulli(gen: Generator, shape: tuple, dtype: Any, probability: Any) -> Any:
    """``bernoulli_(p)``: 1 where a uniform is below ``p``. A float64 tensor ``p`` and a number ``p``
    compare 53-bit uniforms, other tensors 24-bit float32 ones."""
    per_element = hasattr(probability, "shape")
    dtypes.check_kernel("bernoulli_tensor_cpu_self_" if per_element else "bernoulli_scalar_cpu_", dtype, "buif")
    if per_element and bool(((probability < 0) | (probability > 1)).any()):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    if not per_element and not 0 <= probability <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={probability:g}")
    dtype = np.dtype(dtype)
    if gen.device.type != "cpu":
        return (gen.state.random_sample(shape) < probability).astype(dtype)
    double = not isinstance(probability, np.ndarray) or probability.dtype == np.float64
    p = probability if double else np.asarray(probability, dtype=np.float32)
    return (unit(gen, math.prod(shape), double).reshape(shape) < p).astype(dtype)


def exponential(gen: Generator, shape: tuple, dtype: Any, rate: float = 1.0) -> Any:
    """``exponential_(rate)``: ``-1 / rate * log1p(-u)`` with 53-bit uniforms ``u``."""
    dtype = np.dtype(dtype)
    _require_continuous("Exponential", dtypes.scalar_type_name(dtype), dtype)
    if gen.device.type != "cpu":
        return gen.state.exponential(1.0 / rate, shape).astype(dtype)
    u = unit(gen, math.prod(shape), True)
    return (-1.0 / rate * _libm(_glibc_log1p, -u)).astype(dtype).reshape(shape)


def _require_continuous(distribution: str, type_name: str, dtype: Any) -> None:
    # PyTorch checks these two distributions itself (a RuntimeError naming the type), not by kernel lookup
    if dtypes.kind(np.dtype(dtype)) != "f":
        raise RuntimeError(f"{distribution} distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {type_name}")


def cauchy(gen: Generator, shape: tuple, dtype: Any, median: float = 0.0, sigma: float = 1.0) -> Any:
    """``cauchy_(median, sigma)``: ``median + sigma * tan(pi * (u - 0.5))``, 53-bit uniforms ``u``."""
    _require_continuous("Cauchy", dtypes.cpp_type_name(np.dtype(dtype)), dtype)
    if gen.device.type != "cpu":
        return (median + sigma * gen.state.standard_cauchy(shape)).astype(dtype)
    u = unit(gen, math.prod(shape), True)
    return (median + sigma * _libm(_glibc_tan, math.pi * (u - 0.5))).astype(dtype).reshape(shape)


def log_normal(gen: Generator, shape: tuple, dtype: Any, mean: float = 1.0, std: float = 2.0) -> Any:
    """``log_normal_(mean, std)``: ``exp`` of per-element (cached Box-Muller) normal samples."""
    dtypes.check_kernel("log_normal_cpu", dtype, "f")
    if gen.device.type != "cpu":
        return gen.state.lognormal(mean, std, shape).astype(dtype)
    return _libm(_glibc_exp, _normal_serial(gen, math.prod(shape), mean, std)).astype(dtype).reshape(shape)


def geometric(gen: Generator, shape: tuple, dtype: Any, p: float) -> Any:
    """``geometric_(p)``: ``ceil(log(u) / log1p(-p))``, 53-bit uniforms ``u``."""
    dtypes.check_kernel("geometric_cpu", dtype, "uif")
    if gen.device.type != "cpu":
        return gen.state.geometric(p, shape).astype(dtype)
    u = unit(gen, math.prod(shape), True)
    return np.ceil(_libm(_glibc_log, u) / math.log1p(-p)).astype(dtype).reshape(shape)


# --------------------------------------------------------------------------- serial rejection samplers
class _Serial:
    """PyTorch's draws one at a time for its serial CPU samplers (``uniform_real_distribution<double>``
    and ``normal_distribution<double>`` with its cached second value), read from blocks drawn ahead;
    ``close()`` leaves the generator as if only the draws used had been made."""

    def __init__(self, gen: Generator) -> None:
        self.gen, self.fresh = gen, gen._fresh
        self.saved = gen.twister.state
        self.block: list = []
        self.pos = self.used = 0

    def uniform(self) -> float:
        if self.pos == len(self.block):
            self.block, self.pos = unit(self.gen, 64, True).tolist(), 0
        self.pos += 1
        self.used += 1
        return self.block[self.pos - 1]

    def normal(self) -> float:
        cached = self.gen._normal
        if cached is not None:
            self.gen._normal = None
            return cached
        u1, u2 = self.uniform(), self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self.gen._normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def close(self) -> None:
        twister = self.gen.twister
        twister.state = self.saved
        twister.random_raw(2 * self.used)
        self.gen._fresh = self.fresh and not self.used


def _serially(gen: Generator, values: np.ndarray, sample: Any, out_dtype: Any) -> np.ndarray:
    """``sample(value, draws)`` for each element in order (PyTorch's ``cpu_serial_kernel``)."""
    draws = _Serial(gen)
    try:
        out = [sample(v, draws) for v in values.reshape(-1).tolist()]
    finally:
        draws.close()
    return np.array(out, dtype=out_dtype).reshape(values.shape)


_THIRD_F, _C0331_F = float(np.float32(1.0) / np.float32(3.0)), float(np.float32(0.0331))


def _gamma_one(alpha: float, draws: _Serial, single: bool) -> float:
    """PyTorch's ``sample_gamma`` (Marsaglia and Tsang; alpha < 1 boosted by ``u ** (1 / alpha)``), with
    a float32 ``alpha``'s own arithmetic in float32 where PyTorch's ``scalar_t`` is float."""
    f32 = np.float32
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= math.pow(1.0 - draws.uniform(), float(f32(1.0) / f32(alpha)) if single else 1.0 / alpha)
        alpha = float(f32(alpha) + f32(1.0)) if single else alpha + 1.0
    d = float(f32(alpha) - f32(_THIRD_F)) if single else alpha - _THIRD_F
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _C0331_F * xx * xx or math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma(gen: Generator, alpha: np.ndarray) -> np.ndarray:
    """``torch._standard_gamma``: gamma samples of concentration ``alpha`` and rate 1, at least the
    dtype's smallest normal number."""
    if gen.device.type != "cpu":
        return gen.state.standard_gamma(alpha).astype(alpha.dtype)
    single = alpha.dtype != np.float64
    tiny = np.finfo(alpha.dtype).tiny
    out = _serially(gen, alpha, lambda a, draws: _gamma_one(a, draws, single), np.float64)
    return np.maximum(out.astype(alpha.dtype), tiny)


def _poisson_one(lam: float, draws: _Serial) -> float:
    """PyTorch's ``sample_poisson``: Hoermann's transformed rejection from 10 on, else multiplied
    uniforms until their product falls to ``exp(-lambda)``."""
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha, vr = 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)
        while True:
            u = draws.uniform() - 0.5
            v = draws.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    limit, count, product = math.exp(-lam), 0, 1.0
    while True:
        product *= draws.uniform()
        if product <= limit:
            return count
        count += 1


def poisson(gen: Generator, rates: np.ndarray) -> np.ndarray:
    """``torch.poisson``: Poisson samples of the rates, in their dtype."""
    if bool((rates < 0).any()):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if gen.device.type != "cpu":
        return gen.state.poisson(rates).astype(rates.dtype)
    return _serially(gen, rates.astype(np.float64), _poisson_one, rates.dtype)


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k < len(_STIRLING_TAIL):
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count: Any, prob: Any, draws: _Serial) -> Any:
    logprob, n = float(np.log1p(-prob)), float(count)  # log1p in the dtype's precision, as PyTorch's
    geom_sum, num_geom = 0.0, 0
    while True:
        geom_sum += math.ceil(math.log(draws.uniform()) / logprob)
        if geom_sum > n:
            return num_geom
        num_geom += 1


def _btrs(count: Any, prob: Any, draws: _Serial) -> Any:
    """Hoermann's BTRS as PyTorch adapts it from TensorFlow (its missing log kept)."""
    stddev = float(np.sqrt(count * prob * (1 - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (1 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor((count + 1) * prob))
    n = float(count)
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = float(type(count)(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1))) + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1)) + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if v <= bound:
            return k


def _binomial_one(count: Any, prob: Any, draws: _Serial) -> Any:
    """PyTorch's ``sample_binomial``, in the arithmetic of the inputs' dtype (``count``, ``prob`` NumPy
    scalars) where PyTorch's ``scalar_t`` is theirs."""
    if count <= 0.0 or prob <= 0.0:
        return 0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        return _btrs(count, prob, draws) if count * prob >= 10.0 else _binomial_inversion(count, prob, draws)
    if prob > 0.5:
        q = type(prob)(1.0) - prob
        return count - (_btrs(count, q, draws) if count * q >= 10.0 else _binomial_inversion(count, q, draws))
    return math.nan


def binomial(gen: Generator, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """``torch.binomial``: successes in ``count`` trials of probability ``prob`` (broadcast), in
    ``count``'s dtype."""
    if gen.device.type != "cpu":
        return gen.state.binomial(count.astype(np.int64), prob).astype(count.dtype)
    count, prob = np.broadcast_arrays(count, prob.astype(count.dtype))
    scalar = count.dtype.type
    pairs = np.stack([count, prob], -1)
    draws = _Serial(gen)
    try:
        out = [_binomial_one(scalar(n), scalar(p), draws) for n, p in pairs.reshape(-1, 2)]
    finally:
        draws.close()
    return np.array(out, dtype=np.float64).astype(count.dtype).reshape(count.shape)
