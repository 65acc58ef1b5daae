"""Persistent bot state: per-server settings and daily-post schedules, behind one `Store` protocol.

Two backends implement it: `bot.store_sqlite.SqliteStore` (the embedded default, one file) and
`bot.store_postgres.PostgresStore` (for bots run as several processes on several machines).
`open_store(location)` picks one from `LIUREN_DB`: a ``postgresql://`` URL, or a file path.

A schedule's delivery state lives in three columns the scheduler reads through an index:
``due_at`` (epoch seconds, UTC) is when the row next needs attention — its next post, or the
end of a lease while a process is posting it; ``lease_token`` names the process holding it;
``unsure`` says a send for the day may already have reached Discord, so whoever posts next
must look in the channel first. A tick reads only rows with ``due_at <= now``.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Protocol

import platformdirs

from .store_casebook import Case, CaseNote, GuildOptions, NewCase, Profile

__all__ = [
    "APP_NAME",
    "Claimed",
    "Location",
    "QuizAnswer",
    "QuizRow",
    "QuizScore",
    "QuizTopicScore",
    "ScheduleRow",
    "Shards",
    "Store",
    "StoreError",
    "default_location",
    "epoch",
    "from_epoch",
    "open_store",
]

APP_NAME = "liuren"
DB_FILE = "liuren.sqlite3"


class StoreError(RuntimeError):
    """The database cannot be used; the message is one line naming it and what to do."""


def epoch(instant: datetime) -> int:
    """Whole UTC seconds of an aware instant (how due times are stored and compared)."""
    if instant.tzinfo is None:
        raise ValueError("instant must be aware")
    return int(instant.timestamp() // 1)


def from_epoch(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process runs: ``ids`` of ``count``. Posts are made only for their guilds."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int) -> bool:
        """Discord's rule: a guild lives on shard ``(guild_id >> 22) % count``."""
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """One schedule exactly as stored; text fields are unvalidated (see bot.schedule.plan_of)."""

    id: int
    guild_id: int
    channel_id: int
    post_time: str  # "HH:MM" local wall time
    timezone: str  # IANA zone name
    locale: str
    last_posted: str | None  # ISO local date of the last confirmed (or deliberately skipped) post
    since: str | None  # ISO UTC instant the schedule was (re)set; earlier occurrences are not owed
    disabled_reason: str | None
    last_error: str | None
    due_at: int | None = None  # epoch seconds when the row next needs attention; None = never
    due_day: str | None = None  # ISO local date of the post owed at due_at
    unsure: bool = False  # a send for the owed day may have reached Discord
    message_id: int | None = None  # the last confirmed post's (first) message


@dataclass(frozen=True, slots=True)
class Claimed:
    """A row this process now holds a lease on, with whether an earlier send may have gone out."""

    row: ScheduleRow
    token: str
    was_unsure: bool


@dataclass(frozen=True, slots=True)
class QuizRow:
    """One /quiz round as stored; bot.quiz_service rebuilds its questions from level, count, seed
    and school (texts.quiz.make_round is deterministic)."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int  # who started it
    locale: str  # the starter's locale: the quiz's reader language
    level: str
    count: int
    seed: int
    school: str  # JSON of engine.school.School's fields
    seconds: int  # time to answer each question
    question: int  # the question being asked, 1-based
    deadline: int  # epoch seconds when the current question is revealed
    message_id: int | None  # the current question's message (None until it is posted)
    status: str  # running, done, stopped, ended
    started_at: int
    ended_at: int | None


@dataclass(frozen=True, slots=True)
class QuizAnswer:
    """One member's answer to one question of a quiz (the first press counts; there is no second)."""

    quiz_id: int
    question: int
    user_id: int
    choice: int  # 1-based, in the order the choices were shown
    correct: bool
    topic: str  # texts.quiz.Topic: the method (or frame) the chart drills
    seed: str  # the explanation's seed ¶s, comma-separated
    answered_at: int  # epoch seconds


@dataclass(frozen=True, slots=True)
class QuizScore:
    """A member's right answers out of those given (in some scope: a server, a level, a period)."""

    user_id: int
    right: int
    asked: int


@dataclass(frozen=True, slots=True)
class QuizTopicScore:
    """A member's right answers out of those given, on one level's one topic; ``seed`` is one
    answer's seed ¶s (all answers of a topic cite the same rule)."""

    level: str
    topic: str
    right: int
    asked: int
    seed: str


class Store(Protocol):
    """What the bot needs from storage. Every method is safe to call from the event loop."""

    @property
    def location(self) -> Location:
        """Where the data lives (printed at start; the command-sync state is kept beside it)."""
        ...

    async def guild_timezone(self, guild_id: int) -> str | None:
        """The server's default IANA zone, or None when unset."""
        ...

    async def set_guild_timezone(self, guild_id: int, tz: str) -> None:
        """Set the server's default zone (the caller validates the name)."""
        ...

    async def put_schedule(
        self,
        guild_id: int,
        channel_id: int,
        post_time: str,
        timezone: str,
        locale: str,
        since: datetime,
        due_at: int | None,
        due_day: date | None,
    ) -> int:
        """Create or replace the channel's schedule with its next due time; re-enables it and keeps
        last_posted. A row being posted right now keeps its lease. Returns the id."""
        ...

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        """All schedules (of one server, if given), bad rows included, ordered by id."""
        ...

    async def schedules_page(self, after_id: int, limit: int) -> tuple[ScheduleRow, ...]:
        """Up to `limit` schedules with ids above `after_id`, ordered by id (to walk every row)."""
        ...

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        """Delete the server's schedules (only the channel's, if given); returns how many."""
        ...

    async def claim_due(
        self, now: datetime, lease_until: datetime, token: str, shards: Shards | None, limit: int
    ) -> tuple[Claimed, ...]:
        """Lease up to `limit` enabled rows with due_at <= now (of `shards`' guilds): each is
        returned to exactly one caller, and becomes due again at `lease_until` unless confirmed
        or released. Reads only due rows (an index range)."""
        ...

    async def confirm(
        self, schedule_id: int, token: str, day: date, message_id: int | None, error: str | None,
        due_at: int | None, due_day: date | None,
    ) -> bool:
        """The post for `day` is done (or deliberately given up): record it and the next due time.
        False when the lease was no longer ours (nothing changed)."""
        ...

    async def release(self, schedule_id: int, token: str, retry_at: int, error: str | None, unsure: bool) -> None:
        """Give the lease back, due again at `retry_at`; `unsure` False only when nothing was sent."""
        ...

    async def reschedule(self, schedule_id: int, due_at: int | None, due_day: date | None,
                         token: str | None = None) -> None:
        """Set the next due time (with `token`: only while our lease holds)."""
        ...

    async def unscheduled(self, after_id: int = 0, limit: int | None = None) -> tuple[ScheduleRow, ...]:
        """Enabled rows with no due time (rows from before due times were stored, or bad rows),
        with ids above `after_id`, at most `limit`, ordered by id."""
        ...

    async def reschedule_many(self, items: Sequence[tuple[int, int | None, date | None]]) -> None:
        """`reschedule` for many (id, due_at, due_day) at once; rows under lease are left alone."""
        ...

    async def next_due(self, shards: Shards | None) -> datetime | None:
        """The earliest due_at among enabled rows of `shards`' guilds (an index lookup)."""
        ...

    async def disable(self, schedule_id: int, reason: str) -> None:
        """Stop posting for the schedule, keeping the reason for /daily show."""
        ...

    async def enable(self, schedule_id: int, due_at: int | None, due_day: date | None) -> None:
        """Clear a disabled reason (e.g. after a successful test post) and schedule it again."""
        ...

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        """Record (or clear, with None) the last delivery error without disabling."""
        ...

    async def meta(self, key: str) -> str | None:
        """A small stored fact (e.g. the zone data the due times were computed with)."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        ...

    # -- the study quiz (/quiz) --

    async def create_quiz(
        self, guild_id: int, channel_id: int, user_id: int, locale: str, level: str, count: int, seed: int,
        school: str, seconds: int, deadline: int, now: int,
    ) -> QuizRow | None:
        """Start a quiz at question 1, due at `deadline`; None when the channel has a running quiz."""
        ...

    async def quiz(self, quiz_id: int) -> QuizRow | None:
        ...

    async def running_quiz(self, channel_id: int) -> QuizRow | None:
        """The channel's running quiz, if any (there is at most one)."""
        ...

    async def running_quizzes(self, shards: Shards | None) -> tuple[QuizRow, ...]:
        """Every running quiz of `shards`' guilds, ordered by id."""
        ...

    async def due_quizzes(self, now: int, shards: Shards | None) -> tuple[QuizRow, ...]:
        """Running quizzes (of `shards`' guilds) whose deadline is at or before `now`, earliest first."""
        ...

    async def next_quiz_deadline(self, shards: Shards | None) -> int | None:
        """The earliest deadline among running quizzes of `shards`' guilds."""
        ...

    async def set_quiz_message(self, quiz_id: int, question: int, message_id: int) -> None:
        """Record the message that asks `question` (ignored once the quiz has moved on)."""
        ...

    async def advance_quiz(self, quiz_id: int, question: int, deadline: int) -> bool:
        """Move a running quiz from `question` to the next, due at `deadline`; False (nothing
        changed) when it is not running or not at `question` (someone else moved it)."""
        ...

    async def end_quiz(self, quiz_id: int, status: str, now: int) -> bool:
        """End a running quiz with `status` (done, stopped, ended); False when it was not running."""
        ...

    async def add_quiz_answer(self, answer: QuizAnswer) -> bool:
        """Record a member's answer; False when they had answered this question already."""
        ...

    async def quiz_answers(self, quiz_id: int, question: int | None = None) -> tuple[QuizAnswer, ...]:
        """The quiz's answers (to one question, if given), in the order they were given."""
        ...

    async def quiz_scores(self, guild_id: int, level: str | None, since: int | None,
                          limit: int) -> tuple[QuizScore, ...]:
        """The server's best members (of one level, answers since `since`, if given): most right
        first, then fewer answers, then user id."""
        ...

    async def quiz_topics(self, guild_id: int, user_id: int) -> tuple[QuizTopicScore, ...]:
        """A member's answers in the server by level and topic, ordered by level and topic."""
        ...

    # -- the casebook (/case, /history), server options, profiles (bot.store_casebook) --

    async def add_case(self, new: NewCase) -> Case:
        """Record a cast under a new random id (a clash is retried); returns it as stored."""
        ...

    async def case(self, case_id: str) -> Case | None:
        ...

    async def cases_by_author(self, author_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        """The author's cases, newest first (index cases_author)."""
        ...

    async def cases_in_guild(self, guild_id: int, viewer_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        """The server's cases `viewer_id` may see (not private, or theirs), newest first (index cases_guild)."""
        ...

    async def delete_case(self, case_id: str) -> bool:
        """Delete a case and its notes (one transaction); False when there was no such case."""
        ...

    async def add_note(self, case_id: str, author_id: int, body: str, at: int) -> CaseNote:
        ...

    async def edit_note(self, note_id: int, case_id: str, author_id: int, body: str, at: int) -> bool:
        """Replace a note's text; only its author's, on that case (False: nothing changed)."""
        ...

    async def case_notes(self, case_ids: Sequence[str]) -> tuple[CaseNote, ...]:
        """The notes of these cases, by case and then oldest first."""
        ...

    async def guild_options(self, guild_id: int) -> GuildOptions:
        ...

    async def set_guild_options(self, guild_id: int, options: GuildOptions) -> None:
        ...

    async def profile(self, user_id: int) -> Profile | None:
        ...

    async def set_profile(self, profile: Profile) -> None:
        ...

    async def delete_profile(self, user_id: int) -> bool:
        ...

    async def delete_user_cases(self, user_id: int) -> int:
        """Delete every case the user authored, the notes on them and every note the user wrote;
        returns how many cases (one transaction)."""
        ...

    async def close(self) -> None:
        """Release the connection(s); further calls fail."""
        ...


@dataclass(frozen=True, slots=True)
class Location:
    """Where the store is: a SQLite file (`path`) or a PostgreSQL server (`url`)."""

    path: Path | None = None
    url: str | None = None

    @property
    def is_postgres(self) -> bool:
        return self.url is not None

    @property
    def is_memory(self) -> bool:
        return self.path is not None and str(self.path) == ":memory:"

    def describe(self) -> str:
        """For the start-up line: the file, or the server without its password."""
        if self.url is not None:
            from urllib.parse import urlsplit

            parts = urlsplit(self.url)
            host = parts.hostname or "localhost"
            port = f":{parts.port}" if parts.port else ""
            user = f"{parts.username}@" if parts.username else ""
            return f"postgresql://{user}{host}{port}{parts.path}"
        return str(self.path)

    def state_dir(self) -> Path | None:
        """Where small files belonging to this store go (None for an in-memory database)."""
        if self.is_memory:
            return None
        if self.path is not None:
            return self.path.parent
        return platformdirs.user_state_path(APP_NAME)

    @classmethod
    def parse(cls, value: str | os.PathLike[str]) -> Location:
        text = os.fspath(value)
        if text.startswith(("postgresql://", "postgres://")):
            return cls(url=text)
        return cls(path=Path(text))


def default_location(environ: dict[str, str] | None = None) -> Location:
    """$LIUREN_DB (a file path or postgresql:// URL), else liuren.sqlite3 in the user's data directory."""
    env = os.environ if environ is None else environ
    value = env.get("LIUREN_DB", "").strip()
    if value:
        return Location.parse(value)
    return Location(path=platformdirs.user_data_path(APP_NAME) / DB_FILE)


def shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """A SQL condition (with ``?`` placeholders) keeping the rows of `shards`' guilds."""
    if shards is None or shards.count <= 1:
        return "", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f" AND ((guild_id >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)


def held(ids: Collection[int] | None, count: int | None) -> Shards | None:
    """The Shards of a process running `ids` of `count` (None: one process holds every guild)."""
    if not count or count <= 1 or ids is None:
        return None
    return Shards(count, tuple(sorted(ids)))


async def open_store(location: Location | str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the store; None → `default_location()`.

    Raises StoreError with one line naming the database and what to do when it cannot be used.
    """
    where = default_location() if location is None else (
        location if isinstance(location, Location) else Location.parse(location)
    )
    if where.url is not None:
        from .store_postgres import PostgresStore

        return await PostgresStore.open(where)
    from .store_sqlite import SqliteStore

    return await SqliteStore.open(where)
