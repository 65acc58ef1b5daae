"""The casebook's storage: cases (every /cast and /chart), their notes, server options and profiles.

The values are frozen dataclasses; the SQL is shared by both backends (``?`` placeholders, which
PostgreSQL swaps for ``%s``); ``SqliteCasebook`` and ``PostgresCasebook`` are the methods each
store class takes on (bot.store_sqlite.SqliteStore, bot.store_postgres.PostgresStore). A case is
never changed after it is written; it is removed only by an explicit delete (of the case, or of
every row of a user).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.school import School

__all__ = [
    "CASE_ID_ALPHABET",
    "Case",
    "CaseNote",
    "GuildOptions",
    "NewCase",
    "PostgresCasebook",
    "Profile",
    "SqliteCasebook",
    "new_case_id",
    "school_from_json",
    "school_json",
]

T = TypeVar("T")

# Crockford's base32: no I, L, O, U, so an id read aloud or retyped is not misread.
CASE_ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CASE_ID_LENGTH = 6


def new_case_id() -> str:
    """A random 6-character base32 id (30 bits: a clash is retried by the store)."""
    return "".join(secrets.choice(CASE_ID_ALPHABET) for _ in range(CASE_ID_LENGTH))


def normalize_case_id(value: str) -> str | None:
    """A typed id in its stored form (upper case, Crockford's look-alikes mapped), or None."""
    cleaned = value.strip().lstrip("#").upper().replace("O", "0").replace("I", "1").replace("L", "1")
    if len(cleaned) != CASE_ID_LENGTH or any(c not in CASE_ID_ALPHABET for c in cleaned):
        return None
    return cleaned


def school_json(school: School) -> str:
    """The school options as stored with a case (every option, so later defaults cannot change it)."""
    return json.dumps({
        "day_changes_at_23": school.day_changes_at_23,
        "noble_table": school.noble_table,
        "fuyin_repeat_clash": school.fuyin_repeat_clash,
        "shehai_depth_first": school.shehai_depth_first,
        "maoxing_by_day": school.maoxing_by_day,
    }, ensure_ascii=False, sort_keys=True)


def school_from_json(value: str | None) -> School:
    """The stored options back; an option missing from the text takes today's default."""
    if not value:
        return School()
    data = json.loads(value)
    if not isinstance(data, dict):
        raise ValueError(f"stored school options are not an object: {value!r}")
    base = School()
    noble = data.get("noble_table", base.noble_table)
    return School(
        day_changes_at_23=bool(data.get("day_changes_at_23", base.day_changes_at_23)),
        noble_table="甲羊" if noble == "甲羊" else "甲牛",
        fuyin_repeat_clash=bool(data.get("fuyin_repeat_clash", base.fuyin_repeat_clash)),
        shehai_depth_first=bool(data.get("shehai_depth_first", base.shehai_depth_first)),
        maoxing_by_day=bool(data.get("maoxing_by_day", base.maoxing_by_day)),
    )


@dataclass(frozen=True, slots=True)
class NewCase:
    """A cast to record: an instant (ISO UTC) and zone, or the classical day, 月将 and hour."""

    guild_id: int | None
    channel_id: int | None
    author_id: int
    private: bool
    instant: str | None
    zone: str | None
    day: str | None
    yuejiang: str | None
    hour: str | None
    school: str  # school_json(...)
    question: str | None
    birth_year: int | None
    sex: str | None
    created_at: int  # epoch seconds


@dataclass(frozen=True, slots=True)
class Case:
    """A recorded cast with its id (``seq`` orders cases, newest highest)."""

    seq: int
    id: str
    guild_id: int | None
    channel_id: int | None
    author_id: int
    private: bool
    instant: str | None
    zone: str | None
    day: str | None
    yuejiang: str | None
    hour: str | None
    school: str
    question: str | None
    birth_year: int | None
    sex: str | None
    created_at: int

    def visible_to(self, user_id: int, guild_id: int | None) -> bool:
        """The author always; a server's members (asking in that server) when it is not private."""
        if self.author_id == user_id:
            return True
        return not self.private and self.guild_id is not None and self.guild_id == guild_id


@dataclass(frozen=True, slots=True)
class CaseNote:
    """A note on a case (the outcome, 応験); editable by its author."""

    id: int
    case_id: str
    author_id: int
    body: str
    created_at: int
    edited_at: int | None


@dataclass(frozen=True, slots=True)
class GuildOptions:
    """A server's choices; ``None`` means not set (the school's defaults, the reader's locale, on)."""

    school: str | None = None  # school_json(...)
    language: str | None = None  # ja, en, zh-TW or zh-CN
    image: bool | None = None


@dataclass(frozen=True, slots=True)
class Profile:
    """A user's birth data (本命/行年) and, optionally, the zone their casts default to."""

    user_id: int
    birth_year: int
    sex: str  # 男 or 女
    zone: str | None = None


# -- SQL ---------------------------------------------------------------------------------------

CASE_COLUMNS = (
    "seq, id, guild_id, channel_id, author_id, private, instant, zone, day, yuejiang, hour, school, "
    "question, birth_year, sex, created_at"
)
INSERT_CASE = (
    "INSERT INTO cases (id, guild_id, channel_id, author_id, private, instant, zone, day, yuejiang, hour, "
    f"school, question, birth_year, sex, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    f"ON CONFLICT (id) DO NOTHING RETURNING {CASE_COLUMNS}"
)
CASE = f"SELECT {CASE_COLUMNS} FROM cases WHERE id = ?"
BY_AUTHOR = f"SELECT {CASE_COLUMNS} FROM cases WHERE author_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?"
IN_GUILD = (
    f"SELECT {CASE_COLUMNS} FROM cases WHERE guild_id = ? AND (private = 0 OR author_id = ?) "
    "ORDER BY seq DESC LIMIT ? OFFSET ?"
)
DELETE_CASE_NOTES = "DELETE FROM case_notes WHERE case_id = ?"
DELETE_CASE = "DELETE FROM cases WHERE id = ?"
NOTE_COLUMNS = "id, case_id, author_id, body, created_at, edited_at"
ADD_NOTE = f"INSERT INTO case_notes (case_id, author_id, body, created_at) VALUES (?, ?, ?, ?) RETURNING {NOTE_COLUMNS}"
EDIT_NOTE = "UPDATE case_notes SET body = ?, edited_at = ? WHERE id = ? AND case_id = ? AND author_id = ?"
NOTE = f"SELECT {NOTE_COLUMNS} FROM case_notes WHERE id = ?"
GUILD_OPTIONS = "SELECT school, language, image FROM guild_options WHERE guild_id = ?"
SET_GUILD_OPTIONS = (
    "INSERT INTO guild_options (guild_id, school, language, image) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET school = excluded.school, language = excluded.language, "
    "image = excluded.image"
)
PROFILE = "SELECT user_id, birth_year, sex, zone FROM profiles WHERE user_id = ?"
SET_PROFILE = (
    "INSERT INTO profiles (user_id, birth_year, sex, zone) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET birth_year = excluded.birth_year, sex = excluded.sex, zone = excluded.zone"
)
DELETE_PROFILE = "DELETE FROM profiles WHERE user_id = ?"
# Every row of a user: their notes (on any case), the notes others left on their cases, their cases.
DELETE_USER_NOTES = (
    "DELETE FROM case_notes WHERE author_id = ? OR case_id IN (SELECT id FROM cases WHERE author_id = ?)"
)
DELETE_USER_CASES = "DELETE FROM cases WHERE author_id = ?"


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def case_of(r: Sequence[Any]) -> Case:
    return Case(
        seq=int(r[0]), id=str(r[1]), guild_id=_opt_int(r[2]), channel_id=_opt_int(r[3]), author_id=int(r[4]),
        private=bool(r[5]), instant=_opt_str(r[6]), zone=_opt_str(r[7]), day=_opt_str(r[8]),
        yuejiang=_opt_str(r[9]), hour=_opt_str(r[10]), school=str(r[11]), question=_opt_str(r[12]),
        birth_year=_opt_int(r[13]), sex=_opt_str(r[14]), created_at=int(r[15]),
    )


def note_of(r: Sequence[Any]) -> CaseNote:
    return CaseNote(id=int(r[0]), case_id=str(r[1]), author_id=int(r[2]), body=str(r[3]), created_at=int(r[4]),
                    edited_at=_opt_int(r[5]))


def _case_params(case_id: str, new: NewCase) -> tuple[Any, ...]:
    return (case_id, new.guild_id, new.channel_id, new.author_id, int(new.private), new.instant, new.zone, new.day,
            new.yuejiang, new.hour, new.school, new.question, new.birth_year, new.sex, new.created_at)


def _notes_of(case_ids: Sequence[str]) -> str:
    marks = ", ".join("?" for _ in case_ids)
    return f"SELECT {NOTE_COLUMNS} FROM case_notes WHERE case_id IN ({marks}) ORDER BY case_id, id"


def _options_of(row: Sequence[Any] | None) -> GuildOptions:
    if row is None:
        return GuildOptions()
    return GuildOptions(school=_opt_str(row[0]), language=_opt_str(row[1]),
                        image=None if row[2] is None else bool(row[2]))


ID_TRIES = 8


class SqliteCasebook:
    """The casebook methods of bot.store_sqlite.SqliteStore (which provides ``_run``)."""

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    def _mark_if_used(self, conn: sqlite3.Connection) -> None:
        raise NotImplementedError

    async def add_case(self, new: NewCase) -> Case:
        def work(conn: sqlite3.Connection) -> Case:
            for _ in range(ID_TRIES):
                row = conn.execute(INSERT_CASE, _case_params(new_case_id(), new)).fetchone()
                if row is not None:
                    # An emptied or vanished file is then refused, not silently replaced (bot.store_sqlite).
                    self._mark_if_used(conn)
                    return case_of(row)
            raise RuntimeError("no free case id after several tries")

        return await self._run(work)

    async def case(self, case_id: str) -> Case | None:
        def work(conn: sqlite3.Connection) -> Case | None:
            row = conn.execute(CASE, (case_id,)).fetchone()
            return None if row is None else case_of(row)

        return await self._run(work)

    async def cases_by_author(self, author_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        return await self._run(
            lambda conn: tuple(case_of(r) for r in conn.execute(BY_AUTHOR, (author_id, limit, offset)).fetchall())
        )

    async def cases_in_guild(self, guild_id: int, viewer_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        params = (guild_id, viewer_id, limit, offset)
        return await self._run(lambda conn: tuple(case_of(r) for r in conn.execute(IN_GUILD, params).fetchall()))

    async def delete_case(self, case_id: str) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(DELETE_CASE_NOTES, (case_id,))
                gone = conn.execute(DELETE_CASE, (case_id,)).rowcount
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return gone == 1

        return await self._run(work)

    async def add_note(self, case_id: str, author_id: int, body: str, at: int) -> CaseNote:
        return await self._run(lambda conn: note_of(conn.execute(ADD_NOTE, (case_id, author_id, body, at)).fetchone()))

    async def edit_note(self, note_id: int, case_id: str, author_id: int, body: str, at: int) -> bool:
        params = (body, at, note_id, case_id, author_id)
        return bool(await self._run(lambda conn: conn.execute(EDIT_NOTE, params).rowcount == 1))

    async def case_notes(self, case_ids: Sequence[str]) -> tuple[CaseNote, ...]:
        if not case_ids:
            return ()
        ids = tuple(case_ids)
        return await self._run(lambda conn: tuple(note_of(r) for r in conn.execute(_notes_of(ids), ids).fetchall()))

    async def guild_options(self, guild_id: int) -> GuildOptions:
        return await self._run(lambda conn: _options_of(conn.execute(GUILD_OPTIONS, (guild_id,)).fetchone()))

    async def set_guild_options(self, guild_id: int, options: GuildOptions) -> None:
        image = None if options.image is None else int(options.image)
        params = (guild_id, options.school, options.language, image)
        await self._run(lambda conn: conn.execute(SET_GUILD_OPTIONS, params))

    async def profile(self, user_id: int) -> Profile | None:
        def work(conn: sqlite3.Connection) -> Profile | None:
            row = conn.execute(PROFILE, (user_id,)).fetchone()
            return None if row is None else Profile(int(row[0]), int(row[1]), str(row[2]), _opt_str(row[3]))

        return await self._run(work)

    async def set_profile(self, profile: Profile) -> None:
        params = (profile.user_id, profile.birth_year, profile.sex, profile.zone)
        await self._run(lambda conn: conn.execute(SET_PROFILE, params))

    async def delete_profile(self, user_id: int) -> bool:
        return bool(await self._run(lambda conn: conn.execute(DELETE_PROFILE, (user_id,)).rowcount == 1))

    async def delete_user_cases(self, user_id: int) -> int:
        def work(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(DELETE_USER_NOTES, (user_id, user_id))
                gone = int(conn.execute(DELETE_USER_CASES, (user_id,)).rowcount)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return gone

        return await self._run(work)


class PostgresCasebook:
    """The casebook methods of bot.store_postgres.PostgresStore (which provides ``_fetch``/``_count``)."""

    async def _fetch(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def _count(self, statement: str, params: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    async def add_case(self, new: NewCase) -> Case:
        for _ in range(ID_TRIES):
            rows = await self._fetch(INSERT_CASE, _case_params(new_case_id(), new))
            if rows:
                return case_of(rows[0])
        raise RuntimeError("no free case id after several tries")

    async def case(self, case_id: str) -> Case | None:
        rows = await self._fetch(CASE, (case_id,))
        return case_of(rows[0]) if rows else None

    async def cases_by_author(self, author_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        return tuple(case_of(r) for r in await self._fetch(BY_AUTHOR, (author_id, limit, offset)))

    async def cases_in_guild(self, guild_id: int, viewer_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        return tuple(case_of(r) for r in await self._fetch(IN_GUILD, (guild_id, viewer_id, limit, offset)))

    async def delete_case(self, case_id: str) -> bool:
        # One statement, so one transaction: the notes go with the case or not at all.
        rows = await self._fetch(
            "WITH n AS (DELETE FROM case_notes WHERE case_id = ?) DELETE FROM cases WHERE id = ? RETURNING id",
            (case_id, case_id),
        )
        return len(rows) == 1

    async def add_note(self, case_id: str, author_id: int, body: str, at: int) -> CaseNote:
        return note_of((await self._fetch(ADD_NOTE, (case_id, author_id, body, at)))[0])

    async def edit_note(self, note_id: int, case_id: str, author_id: int, body: str, at: int) -> bool:
        return await self._count(EDIT_NOTE, (body, at, note_id, case_id, author_id)) == 1

    async def case_notes(self, case_ids: Sequence[str]) -> tuple[CaseNote, ...]:
        if not case_ids:
            return ()
        return tuple(note_of(r) for r in await self._fetch(_notes_of(case_ids), tuple(case_ids)))

    async def guild_options(self, guild_id: int) -> GuildOptions:
        rows = await self._fetch(GUILD_OPTIONS, (guild_id,))
        return _options_of(rows[0] if rows else None)

    async def set_guild_options(self, guild_id: int, options: GuildOptions) -> None:
        image = None if options.image is None else int(options.image)
        await self._count(SET_GUILD_OPTIONS, (guild_id, options.school, options.language, image))

    async def profile(self, user_id: int) -> Profile | None:
        rows = await self._fetch(PROFILE, (user_id,))
        if not rows:
            return None
        row = rows[0]
        return Profile(int(row[0]), int(row[1]), str(row[2]), _opt_str(row[3]))

    async def set_profile(self, profile: Profile) -> None:
        await self._count(SET_PROFILE, (profile.user_id, profile.birth_year, profile.sex, profile.zone))

    async def delete_profile(self, user_id: int) -> bool:
        return await self._count(DELETE_PROFILE, (user_id,)) == 1

    async def delete_user_cases(self, user_id: int) -> int:
        rows = await self._fetch(
            "WITH n AS (" + DELETE_USER_NOTES + ") DELETE FROM cases WHERE author_id = ? RETURNING id",
            (user_id, user_id, user_id),
        )
        return len(rows)
