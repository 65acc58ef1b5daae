"""A small pool of worker threads, one per core, for the bot's CPU work off the event loop:
drawing charts, composing posts.

Pillow and zlib let go of the interpreter lock while they paint and compress, so a chart drawn on
one worker does not hold up another's (issue 21: 64 casts in flight queued behind one thread). The
pool is sized to the cores the process may run on: more threads would only take turns. glibc gives
each thread its own malloc arena, and pictures drawn on six threads held ~30 MB more than the same
pictures drawn on one: the arenas are capped at the pool's size (``mallopt(M_ARENA_MAX)``, where
the C library has it), and what the drawings freed is handed back to the system (``malloc_trim``)
once the workers have had nothing to do for ``QUIET_S`` (a picture's buffers are megabytes; glibc
would keep them). Not after every drawing: a trimmed heap is faulted back in page by page by the
next one (~2,000 page faults, a quarter of a new chart's drawing, as measured for issue 21).
A picture's canvas (2 MB) is mapped on its own and given back when freed
(``MMAP_THRESHOLD``): by default glibc raises its threshold to the size of the first such block
freed, and from then on every canvas came from the arena and stayed there.

The bot's process also lets a thread that waits for the interpreter lock wait longer before it
forces the lock's holder to let go (``pace_threads``): see ``SWITCH_INTERVAL_S``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["QUIET_S", "SWITCH_INTERVAL_S", "WORKERS", "off_loop", "pace_threads"]

_P = ParamSpec("_P")
_T = TypeVar("_T")
_M_ARENA_MAX = -8  # glibc's <malloc.h>
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _glibc() -> ctypes.CDLL | None:
    """The process's own C library symbols (dlopen of the program itself), when they are glibc's
    allocator controls. Not ``ctypes.util.find_library``: it runs ``ldconfig`` in a subprocess, ~3 ms
    of every start of the bot."""
    if os.name != "posix":
        return None
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


WORKERS = max(1, min(4, _cores()))
_LIBC = _glibc()  # None for another C library: its own allocator, nothing to cap or trim
# issue 21: blocks from 1 MiB up (a picture's canvas) are mapped and unmapped, not kept in an arena
# (one is still served from a free chunk an arena already holds, when there is one that large).
# Setting it stops glibc's own raising of both thresholds, so the trim threshold is set to what that
# raising gave a drawing process (twice the largest block freed), lest the main heap's top be
# handed back and faulted in again after every few frees. Two threads drawing 200 new charts, medians
# (the last 180), with both thresholds as set here: 506 page faults a drawing instead of 1; resident
# 48.8-48.9 -> 44.7-44.8 MB (the arena 5.3 -> 3.0 MB, the main heap 13.8 -> 11.8-12.1 MB).
MMAP_THRESHOLD = 2**20
if _LIBC is not None:
    _LIBC.mallopt(_M_ARENA_MAX, WORKERS)
    _LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    _LIBC.mallopt(_M_TRIM_THRESHOLD, 4 * MMAP_THRESHOLD)
_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="liuren-worker")
QUIET_S = 1.0
# issue 21: how long a thread waiting for the interpreter lock waits before it makes the holder let
# go. With CPython's 5 ms, under load the database's thread (after each SQLite call) and the drawing
# worker (after each Pillow call) took the lock from the event loop's thread hundreds of times a
# second, each a forced hand-over and back. The loop lets go of the lock by itself at every socket
# read and write and at every wait for events, so a waiting worker still gets it within a fraction
# of a millisecond while the loop is busy. bench/bot_bench.py, interleaved (8 runs of 5 ms, 11 of
# 50 ms; medians): same moment, CPU per interaction 1.35× → 1.24× the peer's and latency
# 1.51× → 1.34×; new minutes with pictures, CPU 1.35× → 1.33×. 20 ms and 200 ms did worse.
SWITCH_INTERVAL_S = 0.05
_pending = [0]  # work handed to the pool and not yet finished there (counted on the event loop)
_quiet: list[asyncio.TimerHandle | None] = [None]  # the trim due once the pool has been idle QUIET_S


def _trim() -> None:
    """Hand what the drawings freed back to the system, on a worker (it walks every arena)."""
    _quiet[0] = None
    if _LIBC is not None and _pending[0] == 0:
        with contextlib.suppress(RuntimeError):  # the pool shut down: the process is ending anyway
            _POOL.submit(_LIBC.malloc_trim, 0)


def _finished(loop: asyncio.AbstractEventLoop) -> None:
    _pending[0] -= 1
    if _pending[0] == 0 and _LIBC is not None:
        _quiet[0] = loop.call_later(QUIET_S, _trim)


def _tell(loop: asyncio.AbstractEventLoop) -> None:
    """From the worker: the loop counts the work finished (a closed loop has nothing left to trim for)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_finished, loop)


async def off_loop(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``work(*args, **kwargs)`` on one of the bot's worker threads and wait for its result.

    The work counts as in flight until it has finished on the worker, even when the caller stops
    waiting (cancelled): a trim never runs beside it."""
    loop = asyncio.get_running_loop()
    if (quiet := _quiet[0]) is not None:
        quiet.cancel()
        _quiet[0] = None
    running = _POOL.submit(functools.partial(work, *args, **kwargs))  # the pool shut down: raises, nothing counted
    _pending[0] += 1
    running.add_done_callback(lambda _: _tell(loop))
    return await asyncio.wrap_future(running, loop=loop)


def pace_threads() -> None:
    """Set the process's thread switch interval to ``SWITCH_INTERVAL_S`` (the bot's process only:
    ``python -m bot``; it is process-wide)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
