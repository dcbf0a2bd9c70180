"""The op definitions, one family a file: each op's forward and backward side by side."""
from .._lazy import lazy_module

# The families that a training step rarely calls load on their first use; together they are ~15% of
# ``import tinyframe`` beyond NumPy's (callgrind). Their top-level functions are exported on first use too
# (``functional.LAZY_FUNCTIONS``).
LAZY_FAMILIES = ("convolution", "decompositions", "fft", "fold", "ldl", "lu", "numerics", "padding",
                 "pooling", "quantization", "sampling", "sparse", "special", "stft")
for _family in LAZY_FAMILIES:
    lazy_module(f"{__name__}.{_family}")
