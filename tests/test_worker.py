"""The bot's worker pool and drawing thread (bot/core/worker.py): pictures take turns on their
own thread; what the drawings freed goes back to the system once the threads have been idle
``QUIET_S``, not after every piece of work (a trimmed heap is faulted back in by the next drawing);
and the bot's process runs with a longer thread switch interval."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.core import worker


class _Libc:
    """Stands in for glibc: counts the trims it is asked for."""

    def __init__(self) -> None:
        self.trims = 0
        self.trimmed = threading.Event()

    def malloc_trim(self, pad: int) -> int:
        assert pad == 0
        self.trims += 1
        self.trimmed.set()
        return 1


@pytest.fixture
def libc(monkeypatch: pytest.MonkeyPatch) -> _Libc:
    fake = _Libc()
    monkeypatch.setattr(worker, "_LIBC", fake)
    monkeypatch.setattr(worker, "QUIET_S", 0.2)
    return fake


async def _settle(libc: _Libc) -> None:
    """Wait for a trim handed to the pool to have run (or a short while, when none is due)."""
    await asyncio.to_thread(libc.trimmed.wait, 1.0)


async def test_work_in_a_row_is_trimmed_once_after_the_quiet(libc: _Libc) -> None:
    for n in range(5):
        assert await worker.off_loop(pow, n, 2) == n * n
    assert libc.trims == 0  # not after each piece of work
    await asyncio.sleep(worker.QUIET_S / 2)
    assert libc.trims == 0  # nor before the pool has been quiet QUIET_S
    await _settle(libc)
    assert libc.trims == 1


async def test_work_within_the_quiet_puts_the_trim_off(libc: _Libc) -> None:
    await worker.off_loop(pow, 2, 2)
    for _ in range(4):  # a new piece of work every half quiet: the pool is never quiet that long
        await asyncio.sleep(worker.QUIET_S / 2)
        await worker.off_loop(pow, 3, 2)
    assert libc.trims == 0
    await _settle(libc)
    assert libc.trims == 1


async def test_no_trim_while_work_is_in_flight(libc: _Libc) -> None:
    release = threading.Event()
    slow = asyncio.ensure_future(worker.off_loop(release.wait, 5.0))
    await worker.off_loop(pow, 2, 2)  # done while the slow one is still running: not idle
    await asyncio.sleep(worker.QUIET_S * 2)
    assert libc.trims == 0
    release.set()
    assert await slow is True
    await _settle(libc)
    assert libc.trims == 1


async def test_work_whose_caller_stopped_waiting_counts_until_it_has_finished(libc: _Libc) -> None:
    release = threading.Event()
    waiting = asyncio.ensure_future(worker.off_loop(release.wait, 5.0))
    await asyncio.sleep(0.05)  # on a worker now
    waiting.cancel()
    await asyncio.sleep(worker.QUIET_S * 2)
    assert libc.trims == 0  # the work still runs on the worker
    release.set()
    await _settle(libc)
    assert libc.trims == 1


async def test_a_failed_piece_of_work_is_counted_done(libc: _Libc) -> None:
    with pytest.raises(ZeroDivisionError):
        await worker.off_loop(divmod, 1, 0)
    await _settle(libc)
    assert libc.trims == 1


async def test_pictures_take_turns_on_their_own_thread_beside_the_pool(libc: _Libc) -> None:
    """Pictures run one after another on the drawing thread (they hold the interpreter lock for
    most of their drawing: a second one beside would take it from the event loop), while other
    work still runs on the pool; both count as in flight for the trim."""
    started, release = threading.Event(), threading.Event()
    seen: list[tuple[str, str]] = []

    def picture(name: str) -> str:
        seen.append(("start", name))
        if name == "first":
            started.set()
            release.wait(5.0)
        seen.append(("end", name))
        return threading.current_thread().name

    first = asyncio.ensure_future(worker.on_drawing_thread(picture, "first"))
    second = asyncio.ensure_future(worker.on_drawing_thread(picture, "second"))
    await asyncio.to_thread(started.wait, 5.0)
    # The first picture is still drawing: other work is not held up behind it...
    assert await worker.off_loop(lambda: threading.current_thread().name) != "liuren-drawing_0"
    assert seen == [("start", "first")]  # ...and the second picture waits its turn
    await asyncio.sleep(worker.QUIET_S * 1.5)
    assert libc.trims == 0  # in flight: no trim beside it
    release.set()
    assert {await first, await second} == {"liuren-drawing_0"}
    assert seen == [("start", "first"), ("end", "first"), ("start", "second"), ("end", "second")]
    await _settle(libc)
    assert libc.trims == 1


@pytest.fixture
def switch_interval() -> Iterator[float]:
    """The process's switch interval, restored after the test (it is process-wide)."""
    before = sys.getswitchinterval()
    yield before
    sys.setswitchinterval(before)


def test_the_bot_runs_with_the_longer_switch_interval(monkeypatch: pytest.MonkeyPatch,
                                                      switch_interval: float) -> None:
    """``python -m bot`` runs its event loop with SWITCH_INTERVAL_S, not CPython's 5 ms."""
    import bot.__main__ as entry

    seen: list[float] = []

    def run(main: Coroutine[Any, Any, None]) -> None:
        seen.append(sys.getswitchinterval())
        main.close()  # never connects: the interval the loop would run with is what is checked

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr(entry, "setup_logging", lambda token, level: None)
    monkeypatch.setattr(asyncio, "run", run)
    assert switch_interval != worker.SWITCH_INTERVAL_S
    assert entry.main([]) == 0
    assert seen == [pytest.approx(worker.SWITCH_INTERVAL_S)]


_CANVAS = """
import ctypes
from PIL import Image
from bot.core import worker

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = worker._LIBC
libc.mallinfo2.restype = MallInfo2

def canvas_mapped():
    before = libc.mallinfo2().hblkhd  # glibc's count of the bytes in blocks mapped on their own
    canvas = Image.new("P", (880, 2348))  # a chart's canvas: 2 MB, one byte a pixel
    grown = libc.mallinfo2().hblkhd - before
    del canvas
    return grown

print(canvas_mapped(), canvas_mapped())
"""


@pytest.mark.skipif(worker._LIBC is None or not hasattr(worker._LIBC, "mallinfo2"), reason="glibc ≥ 2.33 only")
def test_a_canvas_is_mapped_on_its_own_even_after_one_was_freed() -> None:
    """glibc raises its threshold to the size of the first mapped block freed, so every
    later canvas came from an arena and stayed there; the pool's threshold keeps every canvas mapped
    (and given back when freed), the first and the ones after it alike. In a process of its own: a
    heap that already has 2 MB free (this one, after other tests) serves a canvas from there."""
    done = subprocess.run([sys.executable, "-c", _CANVAS], cwd=Path(__file__).resolve().parents[1],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first, later = (int(n) for n in done.stdout.split())
    assert first >= 880 * 2348 and later >= 880 * 2348, (first, later)
