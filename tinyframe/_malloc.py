"""glibc's malloc told to keep freed array memory for reuse, as a training loop needs.

A training step allocates and frees the same large arrays every step. With glibc's defaults an
array above the mmap threshold (128 KiB at first, raised adaptively up to 32 MiB) gets pages of its
own that go back to the OS when it is freed, and freed memory at the top of the heap beyond the trim
threshold (twice the mmap threshold) is returned too; the next step then faults every page back in.
Measured on the project's 2-core machine (1 BLAS thread): the CNN benchmark step took 2,500-3,200
minor page faults and 4.6-7.6 ms of system time per step of 20-26 ms, the LSTM step 1,600, the
Transformer layer step 3,100 (13 ms of system time); with the thresholds below, 0-24 faults, and
the same peak resident memory.

Both thresholds are set, as glibc's ``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``
environment variables would (setting either one turns glibc's adaptive thresholds off, so setting
only one is worse than neither): arrays under 32 MiB (glibc's own adaptive ceiling) come from the
heap, and up to 256 MiB of freed memory stays mapped for reuse instead of being returned at once.
A process that set either variable itself keeps its own choice; other C libraries are left alone.
"""
from __future__ import annotations

import ctypes
import os
import sys

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt parameters, from glibc's malloc.h
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 256 << 20


def keep_freed_memory() -> bool:
    """Sets glibc's mmap and trim thresholds (see the module docstring); returns whether it did:
    False off glibc or where the process set ``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``."""
    if not sys.platform.startswith("linux") or any(
            name in os.environ for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return False
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "gnu_get_libc_version"):  # musl and others: mallopt differs or does nothing
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
