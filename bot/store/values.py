"""The store's values: typed rows as stored, the few conversions they need, and the store's one error.

Every value is a frozen dataclass read back as written. A case's, a server's, a profile's and a
quiz's school, zones, instants and language arrive decoded (bot.store.forms: a value that no longer
decodes is a ``Bad`` its reader reports); a schedule's text fields are validated by its loop
(bot.daily.schedule.plan_of). Neither is ever dropped here. The quiz's rows and the daily posts'
are bot.store.quiz_values and bot.store.schedule_values, loaded with their first read.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from engine.school import DEFAULT_SCHOOL, School

from .forms import Bad, KeptPlace, Language

__all__ = [
    "CASE_ID_ALPHABET",
    "Case",
    "CaseNote",
    "GuildOptions",
    "KeptPlace",
    "NewCase",
    "Profile",
    "Shards",
    "StoreError",
    "epoch",
    "from_epoch",
    "held",
    "new_case_id",
    "normalize_case_id",
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
    """A cast to record: an aware instant and zone, or the classical day, 月将 and hour."""

    guild_id: int | None
    channel_id: int | None
    author_id: int
    private: bool
    instant: datetime | None
    zone: ZoneInfo | None
    day: str | None
    yuejiang: str | None
    hour: str | None
    school: School
    question: str | None
    birth_year: int | None
    sex: str | None
    created_at: int  # epoch seconds
    matter: str | None = None  # `matter:` as chosen (a texts.matters key or "general"); None: none chosen
    place: KeptPlace | None = None  # where it was cast (sealed with the question: it says where the member is)


@dataclass(frozen=True, slots=True)
class Case:
    """A recorded cast with its id (``seq`` orders cases, newest highest); a stored instant, zone or
    school that no longer decodes is a ``Bad`` (bot.casebook reports it)."""

    seq: int
    id: str
    guild_id: int | None
    channel_id: int | None
    author_id: int
    private: bool
    instant: datetime | Bad | None
    zone: ZoneInfo | Bad | None
    day: str | None
    yuejiang: str | None
    hour: str | None
    school: School | Bad
    question: str | None
    birth_year: int | None
    sex: str | None
    created_at: int
    matter: str | None = None  # as NewCase.matter
    place: KeptPlace | Bad | None = None  # as NewCase.place

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
    defaults, the reader's locale, the picture on). Stored options or a language that no longer
    decode are logged and read as not set; a zone that no longer decodes is a ``Bad`` (the reader
    reports it)."""

    school: School | None = None
    language: Language | None = None
    image: bool | None = None
    timezone: ZoneInfo | Bad | None = None
    place: KeptPlace | Bad | None = None  # the place a /cast without place: is read at

    @property
    def chosen_school(self) -> School:
        """The school options the server chose, else the defaults."""
        return DEFAULT_SCHOOL if self.school is None else self.school


@dataclass(frozen=True, slots=True)
class Profile:
    """A user's birth data (本命/行年) and, optionally, the zone and place their casts default to."""

    user_id: int
    birth_year: int
    sex: str  # 男 or 女
    zone: ZoneInfo | Bad | None = None
    place: KeptPlace | Bad | None = None
