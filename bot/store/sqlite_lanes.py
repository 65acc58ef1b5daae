"""Threads that own SQLite connections and run the driver's calls, each answered by its deadline.

A ``Lane`` is a few threads, each with a connection of its own; a call queued on it runs on the
first thread free. The SQLite driver has two: the writer (one thread, so one write at a time, as
SQLite allows) and the readers (WAL mode lets them read beside the writer), so a read never waits
behind a write. The event loop's thread only hands calls over and takes their answers: it never
touches the file.

Every call is answered within ``DEADLINE`` of when its caller made it (``CALLED_AT``, else the call
to ``run``), time queued behind other calls included. Past it the caller is told ``not_answering``
(a ``StoreUnavailable``) at once, whatever the thread is doing; and the call itself is given up:
never started if it was still queued, interrupted at SQLite's next progress tick if it was running,
and a write not committed if it reaches its commit late (``Call.late``, checked before COMMIT). A
commit already under way at the deadline (waiting for the disk) cannot be taken back: that write
is stored though its caller was told the database was not answering, as with any timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from .driver import CALLED_AT
from .sqlite_errors import DEADLINE, not_answering, told

__all__ = ["PROGRESS_STEPS", "Call", "Lane"]

T = TypeVar("T")
# SQLite calls the progress handler every this many virtual-machine steps (a case's insert is a few
# hundred): often enough to stop a long read within milliseconds of its deadline, seldom enough that
# a batch of writes does not hand the interpreter lock back and forth for it.
PROGRESS_STEPS = 10_000


class Call:
    """One call's deadline (``time.monotonic()``), whether its caller has stopped waiting, and the
    database it is made to (for messages)."""

    __slots__ = ("deadline", "dropped", "where")

    def __init__(self, deadline: float, where: Path | str) -> None:
        self.deadline = deadline
        self.dropped = False
        self.where = where

    def late(self) -> bool:
        """True once nobody waits for the call's answer: past its deadline, or its caller gone."""
        return self.dropped or time.monotonic() > self.deadline


Work = Callable[[sqlite3.Connection, Call], T]


class Lane:
    """Threads, each owning one of ``connections``, running the calls given to ``run`` in order."""

    __slots__ = ("_all", "_executor", "_idle", "_where")

    def __init__(self, name: str, connections: Sequence[sqlite3.Connection], where: Path | str) -> None:
        self._all = tuple(connections)
        self._where = where
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        for conn in self._all:
            self._idle.put(conn)
        self._executor = ThreadPoolExecutor(max_workers=len(self._all), thread_name_prefix=name)

    async def run(self, work: Work[T]) -> T:
        """``work(connection, call)`` on one of the lane's threads; its result, or a StoreUnavailable
        at the call's deadline (module doc). ``work`` checks ``call.late()`` before it commits."""
        called = CALLED_AT.get()
        call = Call((time.monotonic() if called is None else called) + DEADLINE, self._where)
        waiting = asyncio.get_running_loop().run_in_executor(self._executor, self._perform, call, work)
        try:
            async with asyncio.timeout(call.deadline - time.monotonic()):
                return await waiting
        except TimeoutError:
            call.dropped = True
            raise not_answering(self._where) from None
        except asyncio.CancelledError:  # the caller stopped waiting: nobody will be told it was done
            call.dropped = True
            raise

    async def finish(self, work: Callable[[sqlite3.Connection], object]) -> None:
        """``work`` on every connection in turn once its call under way is done, with no deadline
        (closing), then the threads end."""
        def each() -> None:
            for _ in self._all:
                work(self._idle.get())

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, each)
        finally:
            self._executor.shutdown(wait=True)

    def _perform(self, call: Call, work: Work[T]) -> T:
        conn = self._idle.get()  # never waits: one connection per thread
        try:
            if call.late():  # queued past its deadline: never started
                raise not_answering(self._where)
            conn.set_progress_handler(call.late, PROGRESS_STEPS)  # a true result interrupts the statement
            try:
                with told(self._where):
                    return work(conn, call)
            finally:
                with contextlib.suppress(sqlite3.ProgrammingError):  # the work closed the connection
                    conn.set_progress_handler(None, 0)
        finally:
            self._idle.put(conn)
