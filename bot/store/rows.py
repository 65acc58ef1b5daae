"""The store's rows read once into typed values, and typed values written as rows: a case, a note,
a server's options and a profile, their sealed fields opened with their member's keys
(bot.store.sealing). Nothing above the store reads a column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .sealing import birth_of, unseal_text
from .values import Case, CaseNote, GuildOptions, NewCase, Profile

__all__ = ["case_of", "case_params", "case_stored", "note_of", "options_of", "options_params", "profile_of"]


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def case_of(r: Sequence[Any]) -> Case:
    """A case as read (``CASE_COLUMNS``): its sealed fields opened with its author's keys, or its plain
    ones (a row written before sealing); a shredded field (its key deleted) is None."""
    case_id = str(r[1])
    question = _opt_str(r[12]) if r[17] is None else unseal_text(r[19], r[17], f"q:{case_id}")
    birth_year, sex = _opt_int(r[13]), _opt_str(r[14])
    if r[18] is not None:
        birth_year, sex, _ = birth_of(r[20], r[18], f"b:{case_id}")
    return Case(
        seq=int(r[0]), id=case_id, guild_id=_opt_int(r[2]), channel_id=_opt_int(r[3]), author_id=int(r[4]),
        private=bool(r[5]), instant=_opt_str(r[6]), zone=_opt_str(r[7]), day=_opt_str(r[8]),
        yuejiang=_opt_str(r[9]), hour=_opt_str(r[10]), school=str(r[11]), question=question,
        birth_year=birth_year, sex=sex, created_at=int(r[15]), matter=_opt_str(r[16]),
    )


def case_stored(case_id: str, seq: int, new: NewCase) -> Case:
    """The case ``new`` as stored under ``case_id`` and ``seq``: what ``case_of`` reads back from its row
    (made from ``new``'s own typed values, not through a row: one for every /cast)."""
    return Case(seq=seq, id=case_id, guild_id=new.guild_id, channel_id=new.channel_id, author_id=new.author_id,
                private=bool(new.private), instant=new.instant, zone=new.zone, day=new.day, yuejiang=new.yuejiang,
                hour=new.hour, school=new.school, question=new.question, birth_year=new.birth_year, sex=new.sex,
                created_at=new.created_at, matter=new.matter)


def case_params(case_id: str, new: NewCase, sealed: tuple[bytes | None, bytes | None] | None = None) -> tuple[Any, ...]:
    """``INSERT_CASE``'s values; with ``sealed`` (the question's and the birth data's), the plain
    question, birth year and sex are not written."""
    if sealed is None:
        return (case_id, new.guild_id, new.channel_id, new.author_id, int(new.private), new.instant, new.zone,
                new.day, new.yuejiang, new.hour, new.school, new.question, new.birth_year, new.sex, new.created_at,
                new.matter, None, None)
    return (case_id, new.guild_id, new.channel_id, new.author_id, int(new.private), new.instant, new.zone, new.day,
            new.yuejiang, new.hour, new.school, None, None, None, new.created_at, new.matter, *sealed)


def note_of(r: Sequence[Any]) -> CaseNote:
    """A note as read (``notes_of``: its sealed text opened with its author's key; "" when shredded)."""
    body = str(r[3])
    if len(r) > 6 and r[6] is not None:
        body = unseal_text(r[7], r[6], f"n:{r[1]}") or ""
    return CaseNote(id=int(r[0]), case_id=str(r[1]), author_id=int(r[2]), body=body, created_at=int(r[4]),
                    edited_at=_opt_int(r[5]))


def options_of(row: Sequence[Any] | None) -> GuildOptions:
    if row is None:
        return GuildOptions()
    return GuildOptions(school=_opt_str(row[1]), language=_opt_str(row[2]),
                        image=None if row[3] is None else bool(row[3]), timezone=_opt_str(row[4]))


def options_params(guild_id: int, options: GuildOptions) -> tuple[Any, ...]:
    image = None if options.image is None else int(options.image)
    return (guild_id, options.school, options.language, image, options.timezone)


def profile_of(row: Sequence[Any]) -> Profile | None:
    """A profile as read (``PROFILE``): sealed, opened with its member's birth key; None when that key
    is gone (the profile was deleted, or is damaged: logged)."""
    if len(row) > 4 and row[4] is not None:
        birth_year, sex, zone = birth_of(row[5], row[4], f"p:{row[0]}")
        return None if birth_year is None or sex is None else Profile(int(row[0]), birth_year, sex, zone)
    return Profile(int(row[0]), int(row[1]), str(row[2]), _opt_str(row[3]))
