"""The store's values: typed rows as stored, the few conversions they need, and the store's one error.

Every value is a frozen dataclass read back exactly as written; text fields a schedule's loop
must trust are validated later (bot.daily.schedule.plan_of), so a bad row is reported, never
dropped here. ``school_json`` is the one stored form of the school options (cases, quizzes and
server options all keep it).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.school import School

__all__ = [
    "CASE_ID_ALPHABET",
    "Case",
    "CaseNote",
    "Claimed",
    "GuildOptions",
    "NewCase",
    "Profile",
    "QuizAnswer",
    "QuizRow",
    "QuizScore",
    "QuizTopicScore",
    "ScheduleRow",
    "Shards",
    "StoreError",
    "epoch",
    "from_epoch",
    "held",
    "new_case_id",
    "normalize_case_id",
    "school_from_json",
    "school_json",
]


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


def held(ids: tuple[int, ...] | list[int] | None, count: int | None) -> Shards | None:
    """The Shards of a process running `ids` of `count` (None: one process holds every guild)."""
    if not count or count <= 1 or ids is None:
        return None
    return Shards(count, tuple(sorted(ids)))


# -- the school options, as stored --------------------------------------------------------------


def school_json(school: School) -> str:
    """The school options as stored (every option, so later defaults cannot change a stored one)."""
    return json.dumps({
        "day_changes_at_23": school.day_changes_at_23,
        "noble_table": school.noble_table,
        "fuyin_repeat_clash": school.fuyin_repeat_clash,
        "shehai_depth_first": school.shehai_depth_first,
        "maoxing_by_day": school.maoxing_by_day,
        "daynight": school.daynight, "hour_by": school.hour_by,
    }, ensure_ascii=False, sort_keys=True)


def school_from_json(value: str | None) -> School:
    """The stored options back; an option missing from the text takes today's default.
    ValueError for text that is not a JSON object."""
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
        **{k: data[k] for k in ("daynight", "hour_by") if k in data},  # the sun's options: School checks them
    )


# -- daily posts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """One schedule exactly as stored; text fields are unvalidated (see bot.daily.schedule.plan_of)."""

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


# -- the study quiz -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuizRow:
    """One /quiz round as stored; bot.quiz.service rebuilds its questions from level, count, seed
    and school (texts.quiz.make_round is deterministic)."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int  # who started it
    locale: str  # the starter's locale: the quiz's reader language
    level: str
    count: int
    seed: int
    school: str  # school_json(...)
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


# -- the casebook, server options, profiles -------------------------------------------------------

# Crockford's base32: no I, L, O, U, so an id read aloud or retyped is not misread.
CASE_ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CASE_ID_LENGTH = 6


# Two characters for every 10 bits (the first for the low 5), so an id is three look-ups.
_PAIRS = tuple(CASE_ID_ALPHABET[v & 31] + CASE_ID_ALPHABET[v >> 5] for v in range(1024))


class _Randomness:
    """The system's randomness read a page at a time and handed out 4 bytes per id (one
    read of os.urandom per 1,024 ids, not one each). Thread-safe; a forked child reads afresh, so no
    two processes hand out the same bytes."""

    PAGE = 4096

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._page = b""
        self._at = 0

    def take4(self) -> int:
        with self._lock:
            if self._at >= len(self._page):
                self._page, self._at = os.urandom(self.PAGE), 0
            at = self._at
            self._at = at + 4
            return int.from_bytes(self._page[at:at + 4], "little")

    def after_fork(self) -> None:
        """In a forked child: nothing of the parent's page, and a lock no parent thread can be holding."""
        self._lock = threading.Lock()
        self._page, self._at = b"", 0


_RANDOM = _Randomness()
os.register_at_fork(after_in_child=_RANDOM.after_fork)


def new_case_id() -> str:
    """A random 6-character base32 id (30 bits: a clash is retried by the store).

        >>> len(new_case_id()), set(new_case_id()) <= set(CASE_ID_ALPHABET)
        (6, True)
    """
    bits = _RANDOM.take4()
    return _PAIRS[bits & 1023] + _PAIRS[(bits >> 10) & 1023] + _PAIRS[(bits >> 20) & 1023]


def normalize_case_id(value: str) -> str | None:
    """A typed id in its stored form (upper case, Crockford's look-alikes mapped), or None."""
    cleaned = value.strip().lstrip("#").upper().replace("O", "0").replace("I", "1").replace("L", "1")
    if len(cleaned) != CASE_ID_LENGTH or any(c not in CASE_ID_ALPHABET for c in cleaned):
        return None
    return cleaned


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
    matter: str | None = None  # `matter:` as chosen (a texts.matters key or "general"); None: none chosen


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
    matter: str | None = None  # as NewCase.matter

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
    """A server's settings, one row; ``None`` means not set (the bot's zone, the school's
    defaults, the reader's locale, the picture on)."""

    school: str | None = None  # school_json(...)
    language: str | None = None  # ja, en, zh-TW or zh-CN
    image: bool | None = None
    timezone: str | None = None  # IANA name, validated when set


@dataclass(frozen=True, slots=True)
class Profile:
    """A user's birth data (本命/行年) and, optionally, the zone their casts default to."""

    user_id: int
    birth_year: int
    sex: str  # 男 or 女
    zone: str | None = None
