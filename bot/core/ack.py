"""Every interaction acknowledged within Discord's 3 s, whatever the database does (issue 22 item 5).

``watch(interaction)`` (called by the tree before a command and by ``guarded`` before a button or
form) gives the interaction a response that defers by itself when no answer has gone out after
``ACK_AFTER`` seconds. A command's or button's own ``interaction.response.send_message`` /
``edit_message`` after that become the matching followup or original-response edit, so feature
code answers the same way whether or not the watchdog deferred. A command with a ``private``
option defers as private as the reply will be; others defer ephemerally, and a public reply
replaces the private "thinking" message (deleted, then sent).

An interaction Discord no longer knows (10062: answered after its deadline) is marked expired:
logged once, never retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import deque
from typing import Any

import discord
from discord.utils import MISSING

__all__ = ["ACK_AFTER", "AckedResponse", "InteractionExpired", "expired", "is_unknown_interaction", "mark_expired",
           "release", "watch"]

log = logging.getLogger("bot")

ACK_AFTER = 2.4  # Discord allows 3 s for the first answer; the defer itself needs a round trip
UNKNOWN_INTERACTION = 10062
_EXPIRED = "liuren.expired"
_RECEIVED = "liuren.received"
_RESPONSE_SLOT = "_cs_response"  # where discord.py caches an interaction's response (``Interaction.response``)


class InteractionExpired(discord.DiscordException):
    """The interaction can no longer be answered (Discord expired it); already logged."""


def is_unknown_interaction(error: BaseException) -> bool:
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def expired(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.extras.get(_EXPIRED))


def mark_expired(interaction: discord.Interaction[Any], what: str) -> None:
    """Log, once per interaction, that Discord expired it before the bot answered."""
    if expired(interaction):
        return
    interaction.extras[_EXPIRED] = True
    received = interaction.extras.get(_RECEIVED)
    after = f" after {time.monotonic() - received:.1f} s" if isinstance(received, float) else ""
    log.warning("%s was answered too late%s: Discord had expired the interaction (not retried)", what, after)


def _private(interaction: discord.Interaction[Any]) -> bool:
    """How private the deferred answer is: the command's ``private`` option, else private."""
    command = interaction.command
    if interaction.type is discord.InteractionType.application_command and command is not None:
        names = {p.name for p in getattr(command, "parameters", ())}
        if "private" in names:
            return bool(getattr(interaction.namespace, "private", False))
    return True


class AckedResponse:
    """discord.py's response, which the watchdog may have deferred: see the module doc. It wraps
    the real ``InteractionResponse`` (everything not overridden here is the wrapped one's)."""

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        self._inner: discord.InteractionResponse[Any] = discord.InteractionResponse(parent)
        self._parent = parent
        self._auto = False  # the watchdog deferred: answers are followups now
        self._deferring: asyncio.Future[None] | None = None
        self._private = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def is_done(self) -> bool:
        return self._inner.is_done()

    async def auto_defer(self) -> None:
        """Defer if nothing has answered yet (the watchdog's step)."""
        if self.is_done() or self._deferring is not None or expired(self._parent):
            return
        self._deferring = asyncio.get_running_loop().create_future()
        try:
            self._private = _private(self._parent)
            thinking = self._parent.type is discord.InteractionType.application_command
            await self._inner.defer(ephemeral=self._private, thinking=thinking)
            self._auto = True
        except discord.HTTPException as error:
            if is_unknown_interaction(error):
                mark_expired(self._parent, "an interaction")
            else:
                log.warning("could not defer a slow interaction (%s %s)", error.status, error.code)
        finally:
            self._deferring.set_result(None)

    async def _settled(self) -> bool:
        """Wait for a defer in flight; whether answers must go as followups."""
        if self._deferring is not None:
            await asyncio.shield(self._deferring)
        if expired(self._parent):
            raise InteractionExpired("the interaction expired before the bot answered")
        return self._auto

    async def send_message(self, content: Any | None = None, **kwargs: Any) -> Any:
        if not await self._settled():
            return await self._inner.send_message(content, **kwargs)
        private = bool(kwargs.pop("ephemeral", False))
        kwargs.pop("delete_after", None)
        command = self._parent.type is discord.InteractionType.application_command
        if command and private != self._private:
            # The "thinking" message keeps the defer's privacy: replace it with a message of the reply's.
            with contextlib.suppress(discord.HTTPException):
                await self._parent.delete_original_response()
        sent = {k: v for k, v in kwargs.items() if v is not MISSING}
        return await self._parent.followup.send(content if content is not None else MISSING,
                                                ephemeral=private, wait=True, **sent)

    async def edit_message(self, **kwargs: Any) -> Any:
        if not await self._settled():
            return await self._inner.edit_message(**kwargs)
        kwargs.pop("delete_after", None)
        return await self._parent.edit_original_response(**kwargs)

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        if not await self._settled():
            return await self._inner.send_modal(modal)
        raise InteractionExpired("a form cannot follow a deferred answer")

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        if await self._settled():
            return None  # already deferred by the watchdog
        return await self._inner.defer(ephemeral=ephemeral, thinking=thinking)


def watch(interaction: discord.Interaction[Any], after: float = ACK_AFTER) -> None:
    """Give the interaction a self-deferring response (see the module doc); idempotent."""
    if _RECEIVED in interaction.extras or interaction.type is discord.InteractionType.autocomplete:
        return
    interaction.extras[_RECEIVED] = time.monotonic()
    response = AckedResponse(interaction)
    # discord.py caches the response in this slot; ours is a drop-in subclass.
    setattr(interaction, _RESPONSE_SLOT, response)
    loop = asyncio.get_running_loop()
    deadlines = _DEADLINES.get(loop)
    if deadlines is None:
        deadlines = _DEADLINES[loop] = _Deadlines()
    deadlines.add(loop, after, response)


def release(interaction: discord.Interaction[Any]) -> None:
    """Once its command has finished (the tree's ``app_command_completion``): an answered interaction
    lets go of its response, which holds it (discord.py's response, and ours, keep their interaction;
    the interaction keeps its response). So the interaction, its user and member, its options and
    the reader resolved for it are freed as soon as the command is done, not by the collector: under
    load every /cast left one such cycle (~13,000 objects in 2 s of 64 in flight), which the
    collector's youngest and middle passes had to find (issue 21). One not answered yet keeps its
    response, for the watchdog to defer; an answered one has nothing left to say through it."""
    response = getattr(interaction, _RESPONSE_SLOT, None)
    if isinstance(response, AckedResponse) and response.is_done():
        delattr(interaction, _RESPONSE_SLOT)


class _Deadlines:
    """When each watched interaction of one event loop must have answered, in the order they came
    (issue 21: one timer for all, at the earliest deadline, not a timer or a sleeping task per
    interaction). The deferral's task is made only for one that has not answered by its deadline.
    Each is held weakly: an interaction its command has finished with is not kept ``ACK_AFTER``
    longer (under load, a few seconds' worth of interactions and their replies' objects)."""

    def __init__(self) -> None:
        self._due: deque[tuple[float, weakref.ref[AckedResponse]]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def add(self, loop: asyncio.AbstractEventLoop, after: float, response: AckedResponse) -> None:
        at = loop.time() + after
        if self._due and at < self._due[-1][0]:  # sooner than one before it (another `after`): a timer of its own
            loop.call_at(at, _deadline, weakref.ref(response))
            return
        self._due.append((at, weakref.ref(response)))
        if self._timer is None:
            self._timer = loop.call_at(at, self._fire, loop)

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        while self._due and self._due[0][0] <= now:
            _deadline(self._due.popleft()[1])
        if self._due:
            self._timer = loop.call_at(self._due[0][0], self._fire, loop)


def _deadline(held: weakref.ref[AckedResponse]) -> None:
    response = held()
    if response is None or response.is_done() or expired(response._parent):
        return
    task = asyncio.get_running_loop().create_task(response.auto_defer(), name="liuren-ack")
    _watchdogs.add(task)
    task.add_done_callback(_watchdogs.discard)


_DEADLINES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Deadlines] = weakref.WeakKeyDictionary()
_watchdogs: set[asyncio.Task[None]] = set()
