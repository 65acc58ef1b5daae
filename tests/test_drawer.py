"""The drawing process (bot/core/drawing): work handed to it runs in a child process, one after
another, its answers each reaching the caller that asked; its exceptions are raised to the caller;
a child that dies fails what was in flight and the next drawing starts another; ``close`` ends it,
and a bot's process that dies takes its child with it. LIUREN_DRAWING chooses it or the thread."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.core import worker
from bot.core.config import drawing_apart, read_config
from bot.core.drawing import process as drawer
from bot.core.host import make_bot
from engine import cast_classical
from texts.picture.draw import paint

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
async def ended() -> AsyncIterator[None]:
    yield
    await drawer.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


async def test_the_work_runs_in_another_process_and_answers_in_the_order_asked() -> None:
    child = await drawer.drawn(os.getpid)
    assert child != os.getpid() and _alive(child)
    assert await drawer.drawn(os.getpid) == child  # one child serves every drawing
    answers = await asyncio.gather(*(drawer.drawn(pow, n, 2) for n in range(200)))
    assert answers == [n * n for n in range(200)]


async def test_a_picture_drawn_there_is_the_one_drawn_here() -> None:
    chart = cast_classical("甲子", "亥", "午")
    there = await drawer.drawn(paint, chart, theme="light", lang="en")
    here = paint(chart, theme="light", lang="en")
    assert (there.alt, there.filename) == (here.alt, here.filename)
    # Pixels, not bytes: the compressor may pick another of two equal matches (tests/test_picture.py)
    pixels = [Image.open(io.BytesIO(p.png)).convert("RGB").tobytes() for p in (there, here)]
    assert pixels[0] == pixels[1]


async def test_its_exception_is_raised_to_the_caller_and_the_next_work_runs() -> None:
    chart = cast_classical("甲子", "亥", "午")
    with pytest.raises(ValueError, match="unknown theme"):
        await drawer.drawn(paint, chart, theme="sepia")
    with pytest.raises(ZeroDivisionError):
        await drawer.drawn(divmod, 1, 0)
    assert await drawer.drawn(divmod, 7, 2) == (3, 1)


def _here_only() -> int:
    """A function of this test module, which the child's path does not hold."""
    return 1


async def test_work_the_child_cannot_load_is_told_and_the_next_work_runs() -> None:
    with pytest.raises((ModuleNotFoundError, AttributeError)):
        await drawer.drawn(_here_only)
    assert await drawer.drawn(divmod, 9, 4) == (2, 1)


async def test_a_child_that_has_drawn_nothing_is_a_bare_interpreter() -> None:
    """The child's own code loads no event loop machinery (~8 MB): only the work's modules."""
    child = await drawer.drawn(os.getpid)
    maps = Path(f"/proc/{child}/maps").read_text()
    assert "_asyncio" not in maps and "_ssl" not in maps


async def test_a_result_this_process_cannot_load_is_told_to_its_caller_alone() -> None:
    child = await drawer.drawn(os.getpid)
    # The child answers with an instance of a class it made up: the pickle names a module only it has.
    made_up = ("import sys, types; m = sys.modules['liuren_only_there'] = types.ModuleType('liuren_only_there'); "
               "m.Made = type('Made', (), {'__module__': 'liuren_only_there'})")
    assert await drawer.drawn(exec, made_up) is None
    with pytest.raises(ModuleNotFoundError, match="liuren_only_there"):
        await drawer.drawn(eval, "__import__('liuren_only_there').Made()")
    assert await drawer.drawn(divmod, 9, 4) == (2, 1) and await drawer.drawn(os.getpid) == child


async def test_a_caller_that_stops_waiting_leaves_the_others_their_answers() -> None:
    asked = [asyncio.ensure_future(drawer.drawn(pow, n, 3)) for n in range(20)]
    await asyncio.sleep(0)
    for stopped in asked[::3]:
        stopped.cancel()
    for n, each in enumerate(asked):
        if n % 3:
            assert await each == n**3
    assert await drawer.drawn(pow, 5, 3) == 125


async def test_a_child_that_dies_fails_the_work_in_flight_and_the_next_starts_another() -> None:
    first = await drawer.drawn(os.getpid)
    sleeping = asyncio.ensure_future(drawer.drawn(time.sleep, 5.0))
    await asyncio.sleep(0.2)
    os.kill(first, signal.SIGKILL)
    with pytest.raises(drawer.DrawerGone, match="exit status -9"):
        await asyncio.wait_for(sleeping, 5.0)
    second = await drawer.drawn(os.getpid)
    assert second != first and _alive(second)


async def test_a_stuck_child_is_killed_and_the_next_drawing_starts_another(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawer, "STALL_S", 0.3)
    first = await drawer.drawn(os.getpid)
    # Slow work that keeps answering is not stuck, however long its queue takes...
    assert await asyncio.gather(*(drawer.drawn(time.sleep, 0.05) for _ in range(12))) == [None] * 12
    assert await drawer.drawn(os.getpid) == first
    # ...work that answers nothing for STALL_S is: the child is killed, what it held fails.
    began = time.monotonic()
    stuck = [asyncio.ensure_future(drawer.drawn(time.sleep, 30.0)), asyncio.ensure_future(drawer.drawn(os.getpid))]
    for each in stuck:
        with pytest.raises(drawer.DrawerGone):
            await each
    assert time.monotonic() - began < 3.0 and not _alive(first)
    assert await drawer.drawn(os.getpid) not in (first, None)


async def test_close_ends_the_child_and_a_close_without_one_does_nothing() -> None:
    await drawer.close()
    child = await drawer.drawn(os.getpid)
    await drawer.close()
    assert not _alive(child)
    await drawer.close()
    assert await drawer.drawn(os.getpid) != child  # a drawing after close starts a new child


def test_the_child_ends_with_the_bot_process_that_started_it() -> None:
    """No drawing process is left behind by a bot killed outright (no ``close``)."""
    script = textwrap.dedent("""
        import asyncio, os, sys, time
        from bot.core.drawing import process as drawer
        async def main():
            print(await drawer.drawn(os.getpid), flush=True)
            time.sleep(60)
        asyncio.run(main())
    """)
    with subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}) as bot:
        try:
            assert bot.stdout is not None
            child = int(bot.stdout.readline())
            assert _alive(child)
        finally:
            bot.kill()
    deadline = time.monotonic() + 5.0
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(child)


async def test_pictures_go_to_the_process_where_there_is_a_core_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "APART", True)
    assert await worker.on_drawing_side(os.getpid) != os.getpid()
    monkeypatch.setattr(worker, "APART", False)
    assert await worker.on_drawing_side(os.getpid) == os.getpid()


async def test_liuren_drawing_chooses_where_the_pictures_are_drawn(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    assert drawing_apart({}) is None and drawing_apart({"LIUREN_DRAWING": " "}) is None
    assert drawing_apart({"LIUREN_DRAWING": "process"}) is True
    assert drawing_apart({"LIUREN_DRAWING": " thread "}) is False
    with pytest.raises(ValueError, match="LIUREN_DRAWING must be process or thread, not 'threads'"):
        read_config({"LIUREN_DRAWING": "threads"})
    monkeypatch.setattr(worker, "APART", worker.APART)  # restored after the test: it is process-wide
    monkeypatch.setattr(worker, "MMAP_THRESHOLD", worker.MMAP_THRESHOLD)
    make_bot(store_path=tmp_path / "bot.sqlite3", environ={"LIUREN_DRAWING": "thread"})
    assert worker.APART is False and worker.MMAP_THRESHOLD == 2**20
    make_bot(store_path=tmp_path / "bot.sqlite3", environ={"LIUREN_DRAWING": "process"})
    assert worker.APART is True and worker.MMAP_THRESHOLD == 2**16
    worker.draw_apart(None)
    assert worker.APART is (os.name == "posix" and len(os.sched_getaffinity(0)) >= 2)
