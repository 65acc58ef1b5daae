"""The watchdog's deadlines (issue 21, bot.core.ack): one timer for every interaction watched on
a loop, firing at the earliest deadline; an interaction not answered by its deadline defers,
one answered does not; a deadline sooner than one before it keeps its own time; a deadline does not
keep an interaction alive."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from bot.core import ack


class Response:
    """Stands in for an AckedResponse: answered or not, and whether (and when) it deferred."""

    def __init__(self, loop: asyncio.AbstractEventLoop, answered: bool = False) -> None:
        self.answered, self.deferred_at, self._loop = answered, None, loop
        self._parent: Any = type("Parent", (), {"extras": {}})()

    def is_done(self) -> bool:
        return self.answered

    async def auto_defer(self) -> None:
        self.deferred_at = self._loop.time()


async def test_each_interaction_not_answered_by_its_deadline_defers_once() -> None:
    loop = asyncio.get_running_loop()
    deadlines = ack._Deadlines()
    start = loop.time()
    late: Any = Response(loop)  # Any: an AckedResponse's stand-in
    answered: Any = Response(loop, answered=True)
    later: Any = Response(loop)
    for response in (late, answered):
        deadlines.add(loop, 0.2, response)
    await asyncio.sleep(0.05)
    deadlines.add(loop, 0.2, later)
    sooner: Any = Response(loop)
    deadlines.add(loop, 0.05, sooner)
    await asyncio.sleep(0.5)
    assert answered.deferred_at is None
    assert late.deferred_at is not None and late.deferred_at - start >= 0.2
    assert later.deferred_at is not None and later.deferred_at - start >= 0.25
    assert sooner.deferred_at is not None and sooner.deferred_at - start < late.deferred_at - start
    assert not deadlines._due and deadlines._timer is None  # nothing left waiting


async def test_a_deadline_does_not_keep_an_interaction_alive() -> None:
    """Issue 21: the deadlines hold each response weakly. An interaction its command has finished
    with is freed at once, not ``ACK_AFTER`` later (under load, seconds' worth of interactions and
    their replies' objects were kept, and the resident set stayed ~7 MB higher); a deadline that
    comes for a response already freed does nothing."""
    loop = asyncio.get_running_loop()
    deadlines = ack._Deadlines()
    waiting: Any = Response(loop)
    deadlines.add(loop, 0.2, waiting)
    answered: Any = Response(loop, answered=True)
    sooner: Any = Response(loop, answered=True)  # a timer of its own (sooner than the one before it)
    deadlines.add(loop, 0.2, answered)
    deadlines.add(loop, 0.05, sooner)
    freed = [weakref.ref(answered), weakref.ref(sooner)]
    del answered, sooner
    gc.collect()
    assert [ref() for ref in freed] == [None, None]
    await asyncio.sleep(0.3)  # both deadlines pass with nothing there
    assert waiting.deferred_at is not None  # the one still held defers as before
    assert not deadlines._due and deadlines._timer is None
