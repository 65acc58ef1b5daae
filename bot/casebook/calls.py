"""Calls on a case (/case call, calls, withdraw, reveal, outcome, mark): a member's sealed call,
hidden from the others until the case's owner reveals the calls or the call's due date passes.

A call is never edited: a member makes one call on a case, and may withdraw it (its text is
deleted, its place kept as "withdrawn"). Once the calls are revealed no new call is taken (it
would be made knowing the others). The owner records the outcome (which reveals the calls) and
marks each call hit, partly or missed. Who may see which call is ``shown``; the case itself is
loaded with the channel rule (bot.casebook.present.load_case). See docs/usage.md, "Calls".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord

from bot.core.errors import ReplyError
from bot.core.user_text import clip, echo, escaped
from bot.core.words import Lang, text
from bot.store import MARKS, Call, Case, Outcome

from .privacy import plain_text

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["CALL_MAX", "OUTCOME_MAX", "calls_embed", "due_of", "make_call", "mark_call", "opened", "record_outcome",
           "reveal", "shown", "withdraw"]

CALL_MAX = 500  # characters of a call
OUTCOME_MAX = 1000  # characters of an outcome
_EMBED_TEXT = 4000


def opened(call: Call, revealed_at: int | None, viewer: int, now: int) -> bool:
    """Whether ``viewer`` may read the call: their own; anyone's once the case's calls are revealed
    (at ``revealed_at``) or the call's due date has passed."""
    if call.author_id is not None and call.author_id == viewer:
        return True
    return revealed_at is not None or (call.due_at is not None and now >= call.due_at)


def shown(call: Call, outcome: Outcome | None, viewer: int, now: int) -> bool:
    """``opened`` with the case's outcome as read."""
    return opened(call, None if outcome is None else outcome.revealed_at, viewer, now)


def due_of(typed: str | None, zone: ZoneInfo, lang: Lang, now: datetime) -> int | None:
    """A due date typed as ``YYYY-MM-DD``: the call opens when that day ends in ``zone`` (epoch
    seconds); a ReplyError for another form or a day already over."""
    if typed is None:
        return None
    try:
        day = date.fromisoformat(typed.strip())
    except ValueError:
        raise ReplyError(text("call.bad_due", lang, value=echo(typed))) from None
    opens = datetime.combine(day + timedelta(days=1), time(), zone)
    if opens <= now:
        raise ReplyError(text("call.due_past", lang, value=echo(typed)))
    return int(opens.timestamp())


def _owner_only(case: Case, viewer: int, lang: Lang) -> None:
    if case.author_id != viewer:
        raise ReplyError(text("case.author_only", lang, id=case.id))


async def make_call(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, typed: str,
                    due_at: int | None, lang: Lang) -> str:
    """Seal the caller's call on ``case``; the reply (its time and fingerprint). The interaction
    delivered again gets the same reply, not a second call."""
    body = (plain_text(typed, lang, limit=CALL_MAX) or "").strip()
    if not body:
        raise ReplyError(text("call.empty", lang))
    now = int(bot.clock().timestamp())
    made = await bot.store.add_call(case.id, interaction.user.id, body, now, due_at, interaction.id)
    if made is None:
        outcome = await bot.store.outcome(case.id)
        if outcome is not None and outcome.revealed_at is not None:
            raise ReplyError(text("call.revealed_already", lang, id=case.id))
        raise ReplyError(text("call.one_only", lang, id=case.id))
    due = "" if made.due_at is None else text("call.due_note", lang, time=f"<t:{made.due_at}:f>")
    return text("call.sealed", lang, id=case.id, time=f"<t:{made.made_at}:f>",
                fingerprint=made.fingerprint or "—", due=due)


def _call_line(number: int, call: Call, visible: bool, lang: Lang) -> str:
    who = f"<@{call.author_id}>" if call.author_id is not None else text("call.someone", lang)
    when = f"<t:{call.made_at}:f>"
    if call.text is None:
        return text("call.line_withdrawn", lang, number=number, author=who, time=when)
    if not visible:
        return text("call.line_hidden", lang, number=number, author=who, time=when)
    mark = "" if call.mark is None else text(f"call.mark.{call.mark}", lang)
    return text("call.line", lang, number=number, author=who, time=when, fingerprint=call.fingerprint or "—",
                mark=mark, body=escaped(call.text))


def calls_embed(case: Case, calls: Sequence[Call], outcome: Outcome | None, viewer: int, now: int,
                lang: Lang) -> discord.Embed:
    """The case's calls as ``viewer`` may see them (others' hidden until revealed), with its outcome."""
    lines = [_call_line(n, c, shown(c, outcome, viewer, now), lang) for n, c in enumerate(calls, start=1)]
    embed = discord.Embed(title=text("call.title", lang, id=case.id),
                          description=clip("\n".join(lines) or text("call.none", lang), _EMBED_TEXT))
    if outcome is not None and outcome.revealed_at is not None:
        state = text("call.revealed", lang, time=f"<t:{outcome.revealed_at}:f>")
    else:
        state = text("call.hidden", lang)
    embed.add_field(name=text("call.state", lang), value=state, inline=False)
    if outcome is not None and outcome.text is not None and outcome.decided_at is not None:
        embed.add_field(name=text("call.outcome", lang, time=f"<t:{outcome.decided_at}:f>"),
                        value=clip(escaped(outcome.text), 1000), inline=False)
    return embed


async def withdraw(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, lang: Lang) -> str:
    now = int(bot.clock().timestamp())
    if not await bot.store.withdraw_call(case.id, interaction.user.id, now):
        raise ReplyError(text("call.none_of_yours", lang, id=case.id))
    return text("call.withdrawn", lang, id=case.id)


async def reveal(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, lang: Lang) -> str:
    _owner_only(case, interaction.user.id, lang)
    await bot.store.reveal_calls(case.id, int(bot.clock().timestamp()))
    return text("call.revealed_now", lang, id=case.id)


async def record_outcome(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, typed: str,
                         lang: Lang, *, vote: bool = False) -> str:
    """The owner's outcome, kept sealed; the case's calls are revealed with it. With ``vote`` the calls
    are marked by a vote of the members who made none (``mark_call``)."""
    _owner_only(case, interaction.user.id, lang)
    body = (plain_text(typed, lang, limit=OUTCOME_MAX) or "").strip()
    if not body:
        raise ReplyError(text("call.empty", lang))
    await bot.store.set_outcome(case.id, interaction.user.id, body, int(bot.clock().timestamp()), vote=vote)
    return text("call.outcome_vote" if vote else "call.outcome_saved", lang, id=case.id)


async def mark_call(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, number: int, mark: str,
                    lang: Lang) -> str:
    """Call ``number`` (as /case calls numbers them) marked once the outcome is recorded: by the
    owner, or, where the owner chose a vote (``/case outcome vote:True``), by the vote of the members
    who made no call on the case (each member's latest vote counts; bot.store.calls.MARK_BY_VOTES)."""
    if mark not in MARKS:
        raise ReplyError(text("call.bad_mark", lang, value=echo(mark)))
    outcome = await bot.store.outcome(case.id)
    if outcome is None or outcome.text is None:
        if case.author_id != interaction.user.id:
            raise ReplyError(text("case.author_only", lang, id=case.id))
        raise ReplyError(text("call.outcome_first", lang, id=case.id))
    calls = await bot.store.case_calls(case.id)
    voter = interaction.user.id
    if not outcome.vote:
        _owner_only(case, voter, lang)
    elif any(c.author_id == voter for c in calls):
        raise ReplyError(text("call.callers_do_not_vote", lang, id=case.id))
    if not 1 <= number <= len(calls):
        raise ReplyError(text("call.no_such", lang, id=case.id, number=number))
    chosen, now = calls[number - 1], int(bot.clock().timestamp())
    if outcome.vote:
        done = await bot.store.vote_call(chosen.id, case.id, voter, mark, now)
    else:
        done = await bot.store.mark_call(chosen.id, case.id, mark)
    if not done:
        raise ReplyError(text("call.no_such", lang, id=case.id, number=number))
    key = "call.voted" if outcome.vote else "call.marked"
    return text(key, lang, id=case.id, number=number, mark=text(f"call.mark.{mark}", lang))
