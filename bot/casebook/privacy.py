"""What a case reveals, and what text it keeps (docs/privacy.md).

A querent's birth year and sex decide 本命 and 行年 (and so 龍戦, 遊子, 天獄 …). They are applied
only to a reply that nobody but the case's author can see — an ephemeral message to the author,
or the author's DM with the bot. A chart anyone else can see is read without them, exactly as if
no birth year had been given, and the author gets what the birth data decides in an ephemeral
follow-up: so a public chart never tells whether its querent gave a birth year.

Free text (a question, a note) with a NUL character is refused with a message before anything is
stored: PostgreSQL cannot keep it and SQLite could, so both backends refuse it alike. A lone
surrogate is refused the same way.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import ReplyError
from bot.core.user_text import lone_surrogate
from bot.core.words import Lang, text
from bot.store import Case
from engine import Chart
from engine.facts import Facts, facts
from engine.patterns import classify
from texts.words.explain import explain, show

__all__ = ["NUL", "birth_embed", "known_for", "plain_text", "seen_alone"]

NUL = "\x00"


def plain_text(value: str | None, lang: Lang, *, limit: int | None = None, option: str = "text") -> str | None:
    """``value`` when both backends keep it as given; a ReplyError (nothing stored) for a NUL, a
    lone surrogate (half of a pair: no backend stores it), or more than ``limit`` characters (the
    length the ``option`` declares: a raw request need not keep to it)."""
    if value is None:
        return None
    if NUL in value:
        raise ReplyError(text("case.text_nul", lang))
    if lone_surrogate(value):
        raise ReplyError(text("case.text_surrogate", lang))
    if limit is not None and len(value) > limit:
        raise ReplyError(text("error.option_length", lang, option=option, min=1, max=limit, length=f"{len(value):,}"))
    return value


def seen_alone(interaction: discord.Interaction[Any], case: Case, ephemeral: bool) -> bool:
    """Whether the reply is seen by the case's author alone (ephemeral, or the DM with the bot)."""
    if interaction.user.id != case.author_id:
        return False
    return ephemeral or interaction.context.dm_channel


def known_for(chart: Chart, case: Case, alone: bool) -> Facts | None:
    """The facts with the querent's 本命/行年 for a reply only its author sees; None otherwise
    (and without birth data, or where it cannot apply)."""
    if not alone or case.birth_year is None:
        return None
    try:
        return facts(chart, birth_year=case.birth_year, sex=case.sex)
    except ValueError:
        return None


def birth_embed(chart: Chart, case: Case, lang: Lang) -> discord.Embed | None:
    """For the author of a chart shown to others: what their birth year and sex decide in it
    (the patterns the public reading leaves undecided), or None when they decide nothing."""
    known = known_for(chart, case, alone=True)
    if known is None:
        return None
    decided = classify(chart, known)
    open_now = {u.name for u in decided.undecided}
    changed = [u.name for u in classify(chart).undecided if u.name not in open_now]
    if not changed:
        return None
    held = {p.name: p for p in decided.held}
    lines = [text("case.birth_line", lang, natal=show(known.natal, lang) if known.natal else "—",
                  walking=show(known.walking_year, lang) if known.walking_year else "—")]
    for name in changed:
        pattern = held.get(name)
        if pattern is None:
            lines.append(text("case.birth_not", lang, name=show(name, lang)))
        else:
            lines.append(text("case.birth_holds", lang, name=show(name, lang), why=explain(pattern.reasons[0], lang)))
    return discord.Embed(title=text("case.birth_title", lang, id=case.id), description="\n".join(lines)[:4000])
