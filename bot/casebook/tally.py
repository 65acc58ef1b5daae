"""The record of calls (/case record): calls made, revealed, withdrawn and marked, overall and by the
case's matter, the chart's method and its 課体 (and, for a server, by member).

Counts stay counts while they are small: a hit rate is shown only from ``RATE_MIN`` marked calls
on (below that, "2 hit of 3 marked" says more honestly what is known). The rate counts a partly
as half a hit: (hit + partly / 2) / marked. Hidden calls count as made, never as revealed or
marked; a withdrawn call counts as withdrawn only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.core.errors import ReplyError
from bot.core.user_text import clip
from bot.core.words import Lang, text, word
from bot.core.worker import off_loop
from bot.store import Call, Case
from engine.patterns import classify
from engine.terms import Method, PatternName
from texts.matters.recognise import choose
from texts.words.explain import show

from .calls import opened
from .present import chart_of
from .seen import may_read

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["RATE_MIN", "RECORD_MAX", "Counted", "Groups", "Tally", "record", "record_embed", "tally"]

RATE_MIN = 10  # marked calls before a hit rate is shown (docs/usage.md, "Calls")
RECORD_MAX = 1000  # the newest calls a record counts (each case's chart is cast again)
GROUP_LINES = 12  # lines per field (the most calls first)
K = TypeVar("K")
Counted = tuple[Case, Call, bool]  # a call with its case, and whether it is revealed to the reader


@dataclass(slots=True)
class Tally:
    """The counts of one group of calls."""

    made: int = 0
    revealed: int = 0
    withdrawn: int = 0
    marks: dict[str, int] = field(default_factory=lambda: {"hit": 0, "partly": 0, "missed": 0})

    def add(self, call: Call, revealed: bool) -> None:
        self.made += 1
        if call.text is None:
            self.withdrawn += 1
            return
        if revealed:
            self.revealed += 1
            if call.mark is not None:
                self.marks[call.mark] += 1

    @property
    def marked(self) -> int:
        return sum(self.marks.values())

    def line(self, name: str, lang: Lang) -> str:
        out = text("record.line", lang, name=name, made=self.made, revealed=self.revealed, hit=self.marks["hit"],
                   partly=self.marks["partly"], missed=self.marks["missed"], marked=self.marked)
        if self.withdrawn:
            out += text("record.withdrawn", lang, count=self.withdrawn)
        if self.marked >= RATE_MIN:
            rate = (self.marks["hit"] + self.marks["partly"] / 2) / self.marked
            out += text("record.rate", lang, rate=f"{rate:.0%}")
        return out


def _matter(case: Case) -> str:
    try:
        found = choose(case.question, case.matter)
    except ValueError:
        return "general"
    return found[0].matter.value if found else "general"


def _chart_keys(case: Case) -> tuple[Method | None, tuple[PatternName, ...]]:
    """The chart's method and its 課体, cast again from the case (as the casebook shows it)."""
    try:
        chart = chart_of(case)
    except ValueError:
        return None, ()
    return chart.transmissions.method, tuple(p.name for p in classify(chart).held)


@dataclass(slots=True)
class Groups:
    """Every group's tally: all calls, and by matter, method, 課体 and member."""

    all: Tally = field(default_factory=Tally)
    matter: dict[str, Tally] = field(default_factory=dict)
    method: dict[Method, Tally] = field(default_factory=dict)
    pattern: dict[PatternName, Tally] = field(default_factory=dict)
    member: dict[int, Tally] = field(default_factory=dict)


def tally(counted: Iterable[Counted]) -> Groups:
    """The calls counted into their groups (each case's chart cast once)."""
    groups = Groups()
    charts: dict[str, tuple[Method | None, tuple[PatternName, ...]]] = {}
    for case, call, revealed in counted:
        groups.all.add(call, revealed)
        groups.matter.setdefault(_matter(case), Tally()).add(call, revealed)
        if case.id not in charts:
            charts[case.id] = _chart_keys(case)
        method, patterns = charts[case.id]
        if method is not None:
            groups.method.setdefault(method, Tally()).add(call, revealed)
        for pattern in patterns:
            groups.pattern.setdefault(pattern, Tally()).add(call, revealed)
        if call.author_id is not None:
            groups.member.setdefault(call.author_id, Tally()).add(call, revealed)
    return groups


def _field(embed: discord.Embed, title: str, tallies: Mapping[K, Tally], name: Callable[[K], str],
           lang: Lang) -> None:
    ordered: Sequence[tuple[K, Tally]] = sorted(tallies.items(), key=lambda item: (-item[1].made, str(item[0])))
    if ordered:
        lines = [t.line(name(k), lang) for k, t in ordered[:GROUP_LINES]]
        embed.add_field(name=title, value=clip("\n".join(lines), 1024), inline=False)


def record_embed(groups: Groups, title: str, lang: Lang, *, by_member: bool) -> discord.Embed:
    """The record as an embed: the totals, then a field per grouping."""
    embed = discord.Embed(title=title)
    if not groups.all.made:
        embed.description = text("record.empty", lang)
        return embed
    embed.description = groups.all.line(text("record.all", lang), lang)
    def matter_name(key: str) -> str:
        return (text("record.general", lang) if key == "general" else word(f"term.Matter.{key}", lang))
    _field(embed, text("record.by_matter", lang), groups.matter, matter_name, lang)
    _field(embed, text("record.by_method", lang), groups.method, lambda key: show(key, lang), lang)
    _field(embed, text("record.by_pattern", lang), groups.pattern, lambda key: show(key, lang), lang)
    if by_member:
        _field(embed, text("record.by_member", lang), groups.member, lambda key: f"<@{key}>", lang)
    return embed


async def record(bot: LiurenBot, interaction: discord.Interaction[Any], member: int | None, server: bool,
                 lang: Lang) -> discord.Embed:
    """The record the caller asked for: a member's (``member``; the caller's by default) or, with
    ``server``, every member's in this server; only calls on cases the caller may see here (the
    channel rule: bot.casebook.seen), the newest ``RECORD_MAX``."""
    viewer, guild = interaction.user.id, interaction.guild_id
    if server and guild is None:
        raise ReplyError(text("history.server_only", lang))
    who = None if server else (member or viewer)
    if guild is None and who != viewer:
        raise ReplyError(text("record.own_only_here", lang))
    found = await bot.store.recorded_calls(guild, who, RECORD_MAX)
    now = int(bot.clock().timestamp())
    counted = [
        (case, call, opened(call, revealed, viewer, now))
        for case, call, revealed in found
        if case.author_id == viewer or (case.visible_to(viewer, guild) and may_read(interaction, case.channel_id))
    ]
    groups = await off_loop(tally, counted)
    title = text("record.server_title", lang) if who is None else text("record.title", lang)
    embed = record_embed(groups, title, lang, by_member=who is None)
    if who is not None:  # a title does not render a mention: whose record it is, where one does
        embed.description = f"<@{who}>\n{embed.description}"
    return embed
