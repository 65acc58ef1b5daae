"""Every interaction acknowledged within Discord's 3 s, whatever the database does, through
discord.py's public API only.

``watch(interaction)`` (called by the tree before a command and by ``guard`` before a button or
form) starts the interaction's clock: when nothing has answered it after ``ACK_AFTER`` seconds, the
watchdog defers it (``InteractionResponse.defer``). Feature code answers through this module —
``send``, ``edit``, ``modal``, ``defer``, ``answered`` — which answers the interaction's response
while it is open and otherwise sends the matching followup (``Interaction.followup``) or edits the
original response, so a command answers the same way whether or not it was deferred. A command
with a ``private`` option defers as private as the reply will be; others defer ephemerally, and a
public reply replaces the private "thinking" message (deleted, then sent).

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
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord.utils import MISSING

__all__ = ["ACK_AFTER", "Acked", "InteractionExpired", "answered", "defer", "edit", "expired",
           "is_unknown_interaction", "mark_expired", "modal", "release", "send", "watch"]

log = logging.getLogger("bot")
T = TypeVar("T")

ACK_AFTER = 2.4  # Discord allows 3 s for the first answer; the defer itself needs a round trip
UNKNOWN_INTERACTION = 10062
_EXPIRED = "liuren.expired"
_ACKED = "liuren.acked"  # the interaction's Acked, in its extras (discord.py leaves that dict to us)


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
    acked = interaction.extras.get(_ACKED)
    after = f" after {time.monotonic() - acked.received:.1f} s" if isinstance(acked, Acked) else ""
    log.warning("%s was answered too late%s: Discord had expired the interaction (not retried)", what, after)


def _private(interaction: discord.Interaction[Any]) -> bool:
    """How private the deferred answer is: the command's ``private`` option, else private."""
    command = interaction.command
    if interaction.type is discord.InteractionType.application_command and command is not None:
        names = {p.name for p in getattr(command, "parameters", ())}
        if "private" in names:
            return bool(getattr(interaction.namespace, "private", False))
    return True


def _response(interaction: discord.Interaction[Any]) -> discord.InteractionResponse[Any]:
    """A response to answer with, made for each answer rather than ``interaction.response``: that one
    is kept on the interaction and keeps it, a cycle only the collector's passes would free; whether
    the interaction was answered is kept by its ``Acked``."""
    return discord.InteractionResponse(interaction)


class Acked:
    """What the watchdog knows of one interaction: whether it was answered or deferred (and by whom),
    and how privately. It holds its interaction until ``release``."""

    __slots__ = ("__weakref__", "auto", "deferring", "done", "interaction", "private", "received", "started")

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction: discord.Interaction[Any] | None = interaction
        self.received = time.monotonic()
        self.started = False  # an answer is on its way (the watchdog keeps out of its way)
        self.done = False  # the interaction's response was given (an answer, a form or a defer)
        self.auto = False  # the watchdog deferred it
        self.private: bool | None = None  # how privately a command was deferred (None: not deferred)
        self.deferring: asyncio.Future[None] | None = None

    def is_done(self) -> bool:
        return self.done or self.started

    async def auto_defer(self) -> None:
        """Defer if nothing has answered yet (the watchdog's step)."""
        interaction = self.interaction
        if interaction is None or self.is_done() or self.deferring is not None or expired(interaction):
            return
        self.deferring = asyncio.get_running_loop().create_future()
        try:
            private = _private(interaction)
            thinking = interaction.type is discord.InteractionType.application_command
            await _response(interaction).defer(ephemeral=private, thinking=thinking)
            self.done = self.auto = True
            self.private = private if thinking else None
        except discord.HTTPException as error:
            if is_unknown_interaction(error):
                mark_expired(interaction, "an interaction")
            else:
                log.warning("could not defer a slow interaction (%s %s)", error.status, error.code)
        finally:
            self.deferring.set_result(None)

    async def settled(self, interaction: discord.Interaction[Any]) -> bool:
        """Wait for a defer in flight; whether the response was given (answers are followups now)."""
        if self.deferring is not None:
            await asyncio.shield(self.deferring)
        if expired(interaction):
            raise InteractionExpired("the interaction expired before the bot answered")
        return self.done


def _acked(interaction: discord.Interaction[Any]) -> Acked:
    found = interaction.extras.get(_ACKED)
    if isinstance(found, Acked):
        if found.interaction is None:
            found.interaction = interaction  # answered again after its release (an error told late)
        return found
    made = interaction.extras[_ACKED] = Acked(interaction)
    return made


def answered(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response was given (answered, deferred, or a form shown)."""
    found = interaction.extras.get(_ACKED)
    return isinstance(found, Acked) and found.done


async def _first(acked: Acked, call: Awaitable[T]) -> T:
    """Give the interaction's response with ``call`` (marked on its way, so the watchdog waits)."""
    acked.started = True
    try:
        result = await call
    except BaseException:
        acked.started = False
        raise
    acked.done = True
    acked.started = False
    return result


async def send(interaction: discord.Interaction[Any], content: Any | None = None, **kwargs: Any) -> Any:
    """A message as the interaction's answer (``InteractionResponse.send_message``'s arguments), or,
    once its response was given, as a followup of the same privacy."""
    acked = _acked(interaction)
    if not await acked.settled(interaction):
        return await _first(acked, _response(interaction).send_message(content, **kwargs))
    private = bool(kwargs.pop("ephemeral", False))
    kwargs.pop("delete_after", None)
    if acked.private is not None and private != acked.private:
        # The "thinking" message keeps the defer's privacy: replace it with a message of the reply's.
        acked.private = None
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    sent = {k: v for k, v in kwargs.items() if v is not MISSING}
    return await interaction.followup.send(content if content is not None else MISSING, ephemeral=private,
                                           wait=True, **sent)


async def edit(interaction: discord.Interaction[Any], **kwargs: Any) -> Any:
    """Edit the message the component is on (``InteractionResponse.edit_message``), or, once the
    response was given, the original response."""
    acked = _acked(interaction)
    if not await acked.settled(interaction):
        return await _first(acked, _response(interaction).edit_message(**kwargs))
    kwargs.pop("delete_after", None)
    return await interaction.edit_original_response(**kwargs)


async def modal(interaction: discord.Interaction[Any], form: discord.ui.Modal, /) -> Any:
    """Show a form; a form cannot follow a deferred answer (InteractionExpired then)."""
    acked = _acked(interaction)
    if not await acked.settled(interaction):
        return await _first(acked, _response(interaction).send_modal(form))
    raise InteractionExpired("a form cannot follow a deferred answer")


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False, thinking: bool = False) -> None:
    """Defer the interaction (a path that waits on the database or uploads); nothing when its response
    was given already (the watchdog deferred it)."""
    acked = _acked(interaction)
    if await acked.settled(interaction):
        return
    await _first(acked, _response(interaction).defer(ephemeral=ephemeral, thinking=thinking))
    command = interaction.type is discord.InteractionType.application_command
    acked.private = ephemeral if command or thinking else None


def watch(interaction: discord.Interaction[Any], after: float = ACK_AFTER) -> None:
    """Start the interaction's clock: deferred by itself after ``after`` seconds if not answered by
    then (see the module doc); idempotent."""
    if interaction.type is discord.InteractionType.autocomplete:
        return
    found = interaction.extras.get(_ACKED)
    if isinstance(found, Acked):
        return
    acked = interaction.extras[_ACKED] = Acked(interaction)
    loop = asyncio.get_running_loop()
    deadlines = _DEADLINES.get(loop)
    if deadlines is None:
        deadlines = _DEADLINES[loop] = _Deadlines()
    deadlines.add(loop, after, acked)


def release(interaction: discord.Interaction[Any]) -> None:
    """Once its command (button, form) has finished: an answered interaction's ``Acked`` lets go of
    the interaction, which keeps its ``Acked`` (in its extras). So the interaction, its user and
    member, its options and the reader resolved for it are freed as soon as the command is done, not
    by the collector: under load every /cast left one such cycle, which the collector's youngest and
    middle passes had to find. One not answered yet keeps its interaction, for the watchdog to defer."""
    found = interaction.extras.get(_ACKED)
    if isinstance(found, Acked) and found.done:
        found.interaction = None


class _Deadlines:
    """When each watched interaction of one event loop must have answered, in the order they came:
    one timer for all, at the earliest deadline, not a timer or a sleeping task per interaction.
    The deferral's task is made only for one that has not answered by its deadline. Each is held
    weakly: an interaction its command has finished with is not kept ``ACK_AFTER`` longer (under
    load, a few seconds' worth of interactions and their replies' objects)."""

    def __init__(self) -> None:
        self._due: deque[tuple[float, weakref.ref[Acked]]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def add(self, loop: asyncio.AbstractEventLoop, after: float, acked: Acked) -> None:
        at = loop.time() + after
        if self._due and at < self._due[-1][0]:  # sooner than one before it (another `after`): a timer of its own
            loop.call_at(at, _deadline, weakref.ref(acked))
            return
        self._due.append((at, weakref.ref(acked)))
        if self._timer is None:
            self._timer = loop.call_at(at, self._fire, loop)

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        while self._due and self._due[0][0] <= now:
            _deadline(self._due.popleft()[1])
        if self._due:
            self._timer = loop.call_at(self._due[0][0], self._fire, loop)


def _deadline(held: weakref.ref[Acked]) -> None:
    acked = held()
    if acked is None or acked.is_done():
        return
    task = asyncio.get_running_loop().create_task(acked.auto_defer(), name="liuren-ack")
    _watchdogs.add(task)
    task.add_done_callback(_watchdogs.discard)


_DEADLINES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Deadlines] = weakref.WeakKeyDictionary()
_watchdogs: set[asyncio.Task[None]] = set()
