"""The store's rows read once into typed values, and typed values written as rows: a case, a note,
a server's options and a profile, their sealed fields opened with their member's keys
(bot.store.sealing). Nothing above the store reads a column."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC
from typing import Any

from .forms import (
    Bad,
    instant_of,
    instant_text,
    place_of,
    school_json,
    school_of,
    stored_language,
    stored_text,
    zone_of,
)
from .sealing import birth_of, unseal_text
from .values import Case, CaseNote, GuildOptions, NewCase, Profile

log = logging.getLogger("bot")

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
        birth_year, sex, _, _ = birth_of(r[20], r[18], f"b:{case_id}")
    place = None if r[21] is None else place_of(unseal_text(r[19], r[21], f"w:{case_id}"))
    return Case(
        seq=int(r[0]), id=case_id, guild_id=_opt_int(r[2]), channel_id=_opt_int(r[3]), author_id=int(r[4]),
        private=bool(r[5]), instant=instant_of(r[6]), zone=zone_of(r[7]), day=_opt_str(r[8]),
        yuejiang=_opt_str(r[9]), hour=_opt_str(r[10]), school=school_of(r[11]), question=question,
        birth_year=birth_year, sex=sex, created_at=int(r[15]), matter=_opt_str(r[16]),
        place=place,
    )


def case_stored(case_id: str, seq: int, new: NewCase) -> Case:
    """The case ``new`` as stored under ``case_id`` and ``seq``: what ``case_of`` reads back from its row
    (made from ``new``'s own typed values, not through a row: one for every /cast)."""
    return Case(seq=seq, id=case_id, guild_id=new.guild_id, channel_id=new.channel_id, author_id=new.author_id,
                private=bool(new.private), instant=None if new.instant is None else new.instant.astimezone(UTC),
                zone=new.zone, day=new.day, yuejiang=new.yuejiang,
                hour=new.hour, school=new.school, question=new.question, birth_year=new.birth_year, sex=new.sex,
                created_at=new.created_at, matter=new.matter, place=new.place)


Sealed = tuple[bytes | None, bytes | None, bytes | None]


def case_params(case_id: str, new: NewCase, sealed: Sealed | None = None) -> tuple[Any, ...]:
    """``INSERT_CASE``'s values; with ``sealed`` (the question's, the birth data's and the place's),
    the plain question, birth year and sex are not written (a place is never written plain)."""
    instant = None if new.instant is None else instant_text(new.instant)
    zone = None if new.zone is None else new.zone.key
    if sealed is None:
        return (case_id, new.guild_id, new.channel_id, new.author_id, int(new.private), instant, zone,
                new.day, new.yuejiang, new.hour, school_json(new.school), new.question, new.birth_year, new.sex,
                new.created_at, new.matter, None, None, None)
    return (case_id, new.guild_id, new.channel_id, new.author_id, int(new.private), instant, zone, new.day,
            new.yuejiang, new.hour, school_json(new.school), None, None, None, new.created_at, new.matter, *sealed)


def note_of(r: Sequence[Any]) -> CaseNote:
    """A note as read (``notes_of``: its sealed text opened with its author's key; "" when shredded)."""
    body = str(r[3])
    if len(r) > 6 and r[6] is not None:
        body = unseal_text(r[7], r[6], f"n:{r[1]}") or ""
    return CaseNote(id=int(r[0]), case_id=str(r[1]), author_id=int(r[2]), body=body, created_at=int(r[4]),
                    edited_at=_opt_int(r[5]))


def options_of(row: Sequence[Any] | None) -> GuildOptions:
    """A server's settings as read (``GUILD_OPTIONS``); stored school options that no longer decode
    are logged, naming the server, and read as the defaults."""
    if row is None:
        return GuildOptions()
    school = None if row[1] is None else school_of(row[1])
    if isinstance(school, Bad):
        log.warning("server %s: %s %r; read as the defaults", row[0], school.why, school.text[:80])
        school = None
    return GuildOptions(school=school, language=stored_language(row[2], f"server {row[0]}"),
                        image=None if row[3] is None else bool(row[3]), timezone=zone_of(row[4]),
                        place=place_of(row[5]))


def options_params(guild_id: int, options: GuildOptions) -> tuple[Any, ...]:
    image = None if options.image is None else int(options.image)
    school = None if options.school is None else school_json(options.school)
    timezone = None if options.timezone is None else stored_text(options.timezone)
    place = None if options.place is None else stored_text(options.place)
    return (guild_id, school, options.language, image, timezone, place)


def profile_of(row: Sequence[Any]) -> Profile | None:
    """A profile as read (``PROFILE``): sealed, opened with its member's birth key; None when that key
    is gone (the profile was deleted, or is damaged: logged)."""
    if len(row) > 4 and row[4] is not None:
        birth_year, sex, zone, place = birth_of(row[5], row[4], f"p:{row[0]}")
        if birth_year is None or sex is None:
            return None
        return Profile(int(row[0]), birth_year, sex, zone_of(zone), place_of(place))
    return Profile(int(row[0]), int(row[1]), str(row[2]), zone_of(row[3]))
