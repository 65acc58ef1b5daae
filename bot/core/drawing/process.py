"""The pictures' own process: a child Python that runs the drawings handed to it one after another,
on a core of its own.

A picture holds the interpreter lock for most of its drawing. Drawn in the bot's process, it takes
that lock from the event loop, whose replies and uploads then wait behind it. Drawn here, it costs
the loop only the pickling of its chart and of the PNG coming back.

The child is started by the first drawing (or by ``start``), one for each event loop, and lives
until ``close``. If the bot's process dies, the child sees its socket close and ends too. Drawings
in flight when the child dies fail with ``DrawerGone``, and the next drawing starts a new child; a
child that answers nothing for ``STALL_S`` while it has work is killed, so a stuck drawing holds up
the pictures for seconds, not for good.
Work crosses as a pickle over a socket pair: a module-level function and its arguments (frozen
values), and its result or its exception comes back the same way (bot/core/drawing/child.py).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import pickle
import socket
import subprocess
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from .child import HEADER

__all__ = ["DrawerGone", "close", "drawn", "start"]

_P = ParamSpec("_P")
_T = TypeVar("_T")
_ROOT = Path(__file__).resolve().parents[3]  # the tree this bot runs from: the child imports the same
STOP_S = 2.0  # how long ``close`` waits for the child to end on its own before killing it
# A child with work to do that answers nothing for this long is stuck, and killed (a drawing takes
# milliseconds; the first, importing Pillow and the fonts, a fraction of a second).
STALL_S = 10.0


class DrawerGone(RuntimeError):
    """The drawing process ended before it answered."""


@dataclass(eq=False)  # a live process and its connection, not a value
class _Child:
    process: subprocess.Popen[bytes]
    writer: asyncio.StreamWriter
    waiting: collections.deque[asyncio.Future[Any]] = field(default_factory=collections.deque)
    listening: asyncio.Task[None] | None = None
    answered_at: float = 0.0  # the loop's time of its last answer, or of its first work after none

    def stuck(self, now: float) -> bool:
        """Whether it has had work for STALL_S and answered none of it meanwhile."""
        return bool(self.waiting) and now - self.answered_at >= STALL_S


# The child serving each event loop, or its start in progress: a test's bot and the next test's each
# get their own, since a connection belongs to the loop that opened it.
_CHILDREN: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future[_Child]] = \
    weakref.WeakKeyDictionary()


async def start() -> None:
    """Start this loop's drawing process now, if it is not running (the bot, once READY)."""
    await _child()


async def drawn(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """``work(*args, **kwargs)`` run in the drawing process, after the work handed to it before.

    ``work`` must be a module-level function and its arguments and result picklable. Its exception
    is raised here; ``DrawerGone`` when the process ended first."""
    frame = pickle.dumps((work, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
    child = await _child()
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[_T] = loop.create_future()
    if not child.waiting:
        child.answered_at = loop.time()  # idle until now: the wait for an answer starts here
    child.waiting.append(answer)  # answers come back in the order asked
    child.writer.write(HEADER.pack(len(frame)) + frame)
    try:
        with contextlib.suppress(ConnectionError):  # the child is gone: its listener fails the answer
            await child.writer.drain()
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(answer), STALL_S)
            except TimeoutError:
                if child.stuck(loop.time()):
                    child.process.kill()  # its listener then fails every drawing it held, this one too
    except asyncio.CancelledError:
        answer.cancel()  # its answer, when it comes, is dropped
        raise


async def close() -> None:
    """End this loop's drawing process, if one runs; drawings still in flight fail."""
    starting = _CHILDREN.pop(asyncio.get_running_loop(), None)
    if starting is None:
        return
    try:
        child = await starting
    except Exception:  # it never started: nothing to end
        return
    child.writer.close()  # the child reads the end of its input and exits
    await asyncio.to_thread(_end, child.process)
    if child.listening is not None:
        await child.listening


def _end(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(STOP_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def _child() -> _Child:
    loop = asyncio.get_running_loop()
    starting = _CHILDREN.get(loop)
    if starting is None or (starting.done() and starting.exception() is not None):
        starting = _CHILDREN[loop] = asyncio.ensure_future(_spawn())
    return await asyncio.shield(starting)  # one caller cancelled stops no other's start


async def _spawn() -> _Child:
    ours, theirs = socket.socketpair()
    with theirs:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(_ROOT), env.get("PYTHONPATH"))))
        # Its own session: a Ctrl-C at the bot's terminal is the bot's to handle, not the child's.
        process = subprocess.Popen([sys.executable, "-m", "bot.core.drawing.child", str(theirs.fileno())],
                                   pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        reader, writer = await asyncio.open_unix_connection(sock=ours)
    except BaseException:
        process.kill()  # nothing could reach it
        process.wait()
        raise
    child = _Child(process, writer)
    child.listening = asyncio.ensure_future(_listen(child, reader))
    return child


async def _listen(child: _Child, reader: asyncio.StreamReader) -> None:
    """Hand each answer to the drawing that waits for it, until the child's end."""
    ended = False
    try:
        while True:
            (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
            body = await reader.readexactly(size)
            answer = child.waiting.popleft()
            child.answered_at = asyncio.get_running_loop().time()
            try:
                done, value = pickle.loads(body)
            except Exception as unreadable:  # a result this process cannot load: its caller is told
                done, value = False, unreadable
            if not answer.done():  # its caller stopped waiting: the answer is dropped
                answer.set_result(value) if done else answer.set_exception(value)
    except (asyncio.IncompleteReadError, ConnectionError):
        ended = True
    finally:
        loop = asyncio.get_running_loop()
        if (starting := _CHILDREN.get(loop)) is not None and starting.done() and not starting.cancelled() \
                and starting.exception() is None and starting.result() is child:
            del _CHILDREN[loop]  # the next drawing starts a new child
        status = child.process.poll()
        if status is None and ended:  # its socket closed as it exits: its status follows at once (rare: waited here)
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = child.process.wait(0.5)
        gone = DrawerGone(f"the drawing process ended (exit status {status})" if status is not None
                          else "the drawing process stopped answering")
        while child.waiting:
            answer = child.waiting.popleft()
            if not answer.done():
                answer.set_exception(gone)
        child.writer.close()
