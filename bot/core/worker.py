"""The bot's CPU work off the event loop: a small pool of worker threads, one per core (exports,
tallies, places, quotes), and for the pictures (/cast, /case, the daily posts) the drawing process
(bot.core.drawing) when the machine has a core for it, else one drawing thread they take turns on.

A picture holds the interpreter lock for most of its drawing (its layout and painting; only the
compression lets go), so a second drawing thread would add little and take the lock from the event
loop, whose replies then wait behind pictures. glibc's allocator is set for these threads (arenas
capped, large blocks mapped, freed memory handed back once they are idle), and the process's thread
switch interval lengthened (``pace_threads``). Why each, with the figures: docs/performance.md,
"The bot".
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import sys
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from bot.core.drawing import process as drawer

__all__ = ["APART", "DRAWERS", "QUIET_S", "SWITCH_INTERVAL_S", "WORKERS", "draw_apart", "off_loop",
           "on_drawing_side", "on_drawing_thread", "pace_threads"]

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
DRAWERS = 1  # the pictures' own thread, where there is no drawing process: they take turns (see above)
_LIBC = _glibc()  # None for another C library: its own allocator, nothing to cap or trim
if _LIBC is not None:
    _LIBC.mallopt(_M_ARENA_MAX, WORKERS + DRAWERS)  # an arena per thread: six threads held ~30 MB more than one
# Both set by draw_apart below. APART: the pictures drawn in a process of their own, beside the event
# loop rather than taking turns with it for the interpreter lock (docs/performance.md, "The drawing
# process"). MMAP_THRESHOLD: a picture's 2 MB canvas mapped on its own and unmapped when freed (glibc
# would otherwise raise its threshold past it and keep every canvas in an arena; the trim threshold as
# glibc's raising had it). With the drawing process, the blocks this process sees largest are the PNGs
# (~90 KB) arriving from it, each copied on the way to its upload: mapped on their own too, they no
# longer scatter the heap.
APART = False
MMAP_THRESHOLD = 2**20


def draw_apart(chosen: bool | None) -> None:
    """Draw the pictures in the drawing process (True) or on the drawing thread (False), or as the
    machine allows (None: the process on POSIX, which can hand the child its socket, with a second
    core); the allocator's thresholds follow. Set by the machine at import; the bot sets it again at
    start, from LIUREN_DRAWING (bot.core.config)."""
    global APART, MMAP_THRESHOLD
    APART = (os.name == "posix" and _cores() >= 2) if chosen is None else chosen
    MMAP_THRESHOLD = 2**16 if APART else 2**20
    if _LIBC is not None:
        _LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        _LIBC.mallopt(_M_TRIM_THRESHOLD, 4 * MMAP_THRESHOLD)


draw_apart(None)

_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="liuren-worker")
_DRAWING = ThreadPoolExecutor(max_workers=DRAWERS, thread_name_prefix="liuren-drawing")
QUIET_S = 1.0  # trimmed after every drawing, the next one faulted its buffers back in page by page
# A waiting worker no longer forces the event loop to let go of the interpreter lock every 5 ms:
# the loop lets go at its own I/O and waits, often enough for the workers.
SWITCH_INTERVAL_S = 0.05
# Work handed to the pool and not yet finished there, counted on each event loop that handed it:
# work a loop closed before it finished (a test's bot stopped mid-drawing) is never counted
# finished, so a closed loop's count is not read.
_pending: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()
_quiet: list[asyncio.TimerHandle | None] = [None]  # the trim due once the pool has been idle QUIET_S


def _busy() -> bool:
    """Whether work is in flight for an event loop still open."""
    return any(count for loop, count in list(_pending.items()) if not loop.is_closed())


def _trim() -> None:
    """Hand what the drawings freed back to the system, on a worker (it walks every arena)."""
    _quiet[0] = None
    if _LIBC is not None and not _busy():
        with contextlib.suppress(RuntimeError):  # the pool shut down: the process is ending anyway
            _POOL.submit(_LIBC.malloc_trim, 0)


def _finished(loop: asyncio.AbstractEventLoop) -> None:
    _pending[loop] -= 1
    if not _busy() and _LIBC is not None:
        _quiet[0] = loop.call_later(QUIET_S, _trim)


def _tell(loop: asyncio.AbstractEventLoop) -> None:
    """From the worker: the loop counts the work finished (a closed loop has nothing left to trim for)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_finished, loop)


async def off_loop(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``work(*args, **kwargs)`` on one of the bot's worker threads and wait for its result.

    The work counts as in flight until it has finished on the worker, even when the caller stops
    waiting (cancelled): a trim never runs beside it."""
    return await _run(_POOL, functools.partial(work, *args, **kwargs))


async def on_drawing_thread(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """``off_loop`` for a picture: run on the drawing thread, after the pictures handed to it before."""
    return await _run(_DRAWING, functools.partial(work, *args, **kwargs))


async def on_drawing_side(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """A picture's drawing: in the drawing process when ``APART`` (``work`` a module-level function,
    its arguments and result picklable), else on the drawing thread; one after another either way."""
    if not APART:
        return await on_drawing_thread(work, *args, **kwargs)
    # Counted in flight as the pool's work is: its PNG arrives here, on the main heap, and what the
    # arrivals freed goes back to the system once the drawings have been idle QUIET_S.
    loop = _begun()
    try:
        return await drawer.drawn(work, *args, **kwargs)
    finally:
        _finished(loop)


async def _run(pool: ThreadPoolExecutor, work: Callable[[], _T]) -> _T:
    running = pool.submit(work)  # the pool shut down: raises, nothing counted
    loop = _begun()
    running.add_done_callback(lambda _: _tell(loop))
    return await asyncio.wrap_future(running, loop=loop)


def _begun() -> asyncio.AbstractEventLoop:
    """Count one more piece of work in flight on the running loop (no trim beside it)."""
    loop = asyncio.get_running_loop()
    if (quiet := _quiet[0]) is not None:
        quiet.cancel()
        _quiet[0] = None
    _pending[loop] = _pending.get(loop, 0) + 1
    return loop


def pace_threads() -> None:
    """Set the process's thread switch interval to ``SWITCH_INTERVAL_S`` (the bot's process only:
    ``python -m bot``; it is process-wide)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
