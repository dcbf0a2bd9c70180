"""Random number generation: one seeded generator per device, PyTorch's ``manual_seed``."""
from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from .device import CPU, as_device, cupy_module, device

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
           "default_generator", "generator_for"]


class Generator:
    """A seeded source of random numbers for one device (``tinyframe.Generator(device='cpu')``)."""

    def __init__(self, device: Any = "cpu") -> None:
        self.device = device if isinstance(device, type(CPU)) else _device(device)
        self._seed = 67280421310721  # PyTorch's default seed
        self._state: Any = None  # a NumPy Generator or a CuPy RandomState, made on first use

    def manual_seed(self, seed: int) -> Generator:
        """Resets the generator to the stream of ``seed``; returns self."""
        self._seed = int(seed)
        self._state = None
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseeds from the operating system's entropy and returns the new seed."""
        self.manual_seed(secrets.randbits(63))  # what NumPy's SeedSequence draws, reduced to 63 bits
        return self._seed

    @property
    def state(self) -> Any:
        """The underlying NumPy or CuPy random state, created from the seed on first use."""
        if self._state is None:
            if self.device.type == "cpu":
                self._state = np.random.Generator(np.random.PCG64(self._seed))
            else:
                cupy = cupy_module()
                with cupy.cuda.Device(self.device.index):
                    self._state = cupy.random.RandomState(self._seed)
        return self._state

    def get_state(self) -> dict:
        if self.device.type != "cpu":
            raise NotImplementedError("get_state is supported for CPU generators only")
        return {"seed": self._seed, "bit_generator": self.state.bit_generator.state}

    def set_state(self, state: dict) -> None:
        self._seed = state["seed"]
        self.state.bit_generator.state = state["bit_generator"]


def _device(spec: Any) -> device:
    return as_device(spec)


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


def get_rng_state() -> dict:
    return default_generator.get_state()


def set_rng_state(state: dict) -> None:
    default_generator.set_state(state)
