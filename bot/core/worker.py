"""A small pool of worker threads, one per core, for the bot's CPU work off the event loop:
drawing charts, composing posts.

Pillow and zlib let go of the interpreter lock while they paint and compress, so a chart drawn on
one worker does not hold up another's (issue 21: 64 casts in flight queued behind one thread). The
pool is sized to the cores the process may run on: more threads would only take turns. glibc gives
each thread its own malloc arena, and pictures drawn on six threads held ~30 MB more than the same
pictures drawn on one: the arenas are capped at the pool's size (``mallopt(M_ARENA_MAX)``, where
the C library has it), and what a drawing freed is handed back to the system (``malloc_trim``) at
most once a second, and when the workers fall idle (a picture's buffers are megabytes; glibc would
keep them).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["WORKERS", "off_loop"]

_P = ParamSpec("_P")
_T = TypeVar("_T")
_M_ARENA_MAX = -8  # glibc's <malloc.h>


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _glibc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


WORKERS = max(1, min(4, _cores()))
_LIBC = _glibc()  # None for another C library: its own allocator, nothing to cap or trim
if _LIBC is not None:
    _LIBC.mallopt(_M_ARENA_MAX, WORKERS)
_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="liuren-worker")
_TRIM_EVERY_S = 1.0
_trimmed = [0.0]
_pending = [0]  # work handed to the pool and not yet done
_COUNTING = threading.Lock()


def _run(work: Callable[[], _T]) -> _T:
    try:
        return work()
    finally:
        with _COUNTING:
            _pending[0] -= 1
            idle = _pending[0] == 0
        now = time.monotonic()
        # Under load at most once a second; and when the last work is done, so an idle bot holds
        # none of what its last drawings freed.
        if _LIBC is not None and (idle or now - _trimmed[0] >= _TRIM_EVERY_S):
            _trimmed[0] = now
            _LIBC.malloc_trim(0)


async def off_loop(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``work(*args, **kwargs)`` on one of the bot's worker threads and wait for its result."""
    with _COUNTING:
        _pending[0] += 1
    try:
        done = asyncio.get_running_loop().run_in_executor(_POOL, _run, functools.partial(work, *args, **kwargs))
    except BaseException:  # not handed over (the pool shut down): it will not count itself done
        with _COUNTING:
            _pending[0] -= 1
        raise
    return await done
