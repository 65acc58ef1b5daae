"""The watchdog's deadlines (bot.core.ack): one timer for every interaction watched on
a loop, firing at the earliest deadline; an interaction not answered by its deadline defers,
one answered does not; a deadline sooner than one before it keeps its own time; a deadline does not
keep an interaction alive, nor does its response once its command is done (``ack.release``)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from datetime import UTC, datetime
from typing import Any

import discord

from bot.core import ack
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot


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
    """The deadlines hold each response weakly. An interaction its command has finished
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


def _interactions_alive() -> list[discord.Interaction[Any]]:
    return [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]


async def test_a_finished_command_lets_its_interaction_go_without_the_collector(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    """An answered /cast's interaction, with its user, member, options and reader, is
    freed when the command is done (``ack.release``), not left in a cycle with its response for the
    collector's passes to find. With the collector off, none of the casts' interactions is alive
    after their commands finish."""
    await start_bot(clock=lambda: datetime(2026, 11, 29, 5, 0, tzinfo=UTC))
    await standin.slash("cast", {"when": "now"})  # first-use work (fonts, caches) out of the way
    gc.collect()
    gc.disable()
    try:
        for minute in range(4):
            callback = await standin.slash("cast", {"when": f"2026-11-29 14:0{minute}"})
            assert callback.type == 4
        for _ in range(50):  # the commands finish just after their callbacks reach the stand-in
            await asyncio.sleep(0.01)
            if not _interactions_alive():
                break
        assert _interactions_alive() == []
    finally:
        gc.enable()


async def test_release_keeps_the_interaction_of_one_not_answered() -> None:
    """An interaction not answered yet stays reachable from its deadline (the watchdog may still
    defer it); once answered, release lets go of it, and the watchdog's record holds no other
    reference to it (nothing of discord.py's is set or read: its answer state is the bot's own)."""
    interaction = discord.Interaction.__new__(discord.Interaction)
    interaction.extras = {}
    interaction.type = discord.InteractionType.application_command
    ack.watch(interaction)
    acked = interaction.extras["liuren.acked"]
    assert isinstance(acked, ack.Acked) and not acked.is_done() and not ack.answered(interaction)
    ack.release(interaction)
    assert acked.interaction is interaction  # still held: the watchdog may defer it
    acked.done = True  # as ack.send does once the answer is out
    ack.release(interaction)
    assert acked.interaction is None and ack.answered(interaction)
    assert not [r for r in gc.get_referents(acked) if r is interaction]
