"""When daily posts are due: pure functions over schedules, zones, dates and instants.

Nothing here touches Discord, the database or the clock; the service (bot.daily.delivery) feeds in `now`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.core.zones import parse_time, parse_zone
from bot.store import epoch

if TYPE_CHECKING:  # the rows load with the daily posts' first read (bot.store.schedule_values)
    from bot.store import ScheduleRow

__all__ = [
    "BadRow",
    "Due",
    "Plan",
    "due_times",
    "held_by",
    "next_post",
    "nonce",
    "occurrence",
    "parse_time",
    "plan_of",
    "shard_of",
]

@dataclass(frozen=True, slots=True)
class Plan:
    """A schedule row that makes sense: a channel, a wall time and a zone."""

    id: int
    guild_id: int
    channel_id: int
    at: time
    zone: ZoneInfo
    locale: str
    last_posted: date | None
    since: datetime | None
    disabled_reason: str | None
    last_error: str | None

    @property
    def zone_name(self) -> str:
        return self.zone.key


@dataclass(frozen=True, slots=True)
class BadRow:
    """A stored schedule that cannot be run, with why (reported, never dropped)."""

    row: ScheduleRow
    problem: str


def plan_of(row: ScheduleRow) -> Plan | BadRow:
    """Validate a stored row; a row written by an older or broken version becomes a BadRow."""
    problems: list[str] = []
    try:
        at = parse_time(row.post_time)
    except ValueError as error:
        problems.append(f"time: {error}")
    try:
        zone = parse_zone(row.timezone)
        if zone.key != row.timezone:  # names are stored canonical (validated at write time)
            raise ValueError(f"{row.timezone!r} is not stored as its IANA name {zone.key!r}")
    except ValueError as error:
        problems.append(f"zone: {error}")
    last_posted: date | None = None
    if row.last_posted is not None:
        try:
            last_posted = date.fromisoformat(row.last_posted)
        except ValueError:
            problems.append(f"last_posted: {row.last_posted!r} is not a date")
    since: datetime | None = None
    if row.since is not None:
        try:
            since = datetime.fromisoformat(row.since)
            if since.tzinfo is None:
                raise ValueError
        except ValueError:
            problems.append(f"since: {row.since!r} is not an aware instant")
    if problems:
        return BadRow(row, "; ".join(problems))
    return Plan(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        at=at,
        zone=zone,
        locale=row.locale,
        last_posted=last_posted,
        since=since,
        disabled_reason=row.disabled_reason,
        last_error=row.last_error,
    )


def _exists(wall: datetime, zone: ZoneInfo) -> bool:
    """Whether the naive wall time occurs on the zone's clocks (false inside a spring-forward gap)."""
    there = wall.replace(tzinfo=zone)
    return there.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall


def occurrence(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The UTC instant the post for local `day` fires: `at` on that day in `zone`.

    In a spring-forward gap the wall time never happens, so the post fires at the first
    instant after the gap (the transition itself). When clocks fall back and the wall time
    happens twice, the first occurrence counts — a day is one post, never two.
    """
    wall = datetime.combine(day, at)
    if _exists(wall, zone):
        return wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    # Inside a gap: fold=1 reads the wall time with the offset after the change (an instant
    # before the transition), fold=0 with the offset before it (an instant after). Bisect on
    # whole seconds, as zone transitions fall on whole seconds.
    lo = int(wall.replace(tzinfo=zone, fold=1).timestamp())
    hi = int(wall.replace(tzinfo=zone, fold=0).timestamp())
    after = datetime.fromtimestamp(hi, zone).utcoffset()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if datetime.fromtimestamp(mid, zone).utcoffset() == after:
            hi = mid
        else:
            lo = mid
    return datetime.fromtimestamp(hi, UTC)


@dataclass(frozen=True, slots=True)
class Due:
    """The next post a schedule owes: the local day it is for and the instant it fires."""

    day: date
    instant: datetime


def next_post(
    now: datetime, at: time, zone: ZoneInfo, *, last_posted: date | None = None, since: datetime | None = None
) -> Due:
    """The earliest post not yet made, counting from today's local date in `zone`.

    A post is owed for local day D when D is after `last_posted` and D's occurrence is not
    before `since` (a schedule set at 10:00 does not owe that morning's 09:00). If the
    returned instant is not after `now`, the post is due now (including a catch-up for a
    post missed earlier the same local day). Yesterday's missed post is never owed.
    """
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime")
    day = now.astimezone(zone).date()
    if last_posted is not None and last_posted >= day:
        day = last_posted + timedelta(days=1)
    while True:
        instant = occurrence(day, at, zone)
        if since is None or instant >= since:
            return Due(day, instant)
        day += timedelta(days=1)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that holds a guild, by Discord's rule."""
    return (guild_id >> 22) % shard_count


def held_by(guild_id: int, shard_ids: Collection[int] | None, shard_count: int | None) -> bool:
    """Whether a process running `shard_ids` of `shard_count` owns the guild's posts.

    No sharding (count None or 1, or no shard ids known) means one process holds every guild.
    """
    if not shard_count or shard_count <= 1 or shard_ids is None:
        return True
    return shard_of(guild_id, shard_count) in shard_ids


def nonce(schedule_id: int, day: date, part: int = 0) -> str:
    """The message nonce of a schedule's post for local `day` (its `part`-th message).

    Derived, not random: every attempt at the same post — a retry after a lost answer, another
    process taking over — sends the same nonce, and with ``enforce_nonce`` Discord answers a
    repeat within a few minutes with the message it already has. Digits only, at most 25
    characters, as Discord requires.
    """
    digest = hashlib.sha256(f"liuren:{schedule_id}:{day.isoformat()}:{part}".encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)


def due_times(rows: Sequence[ScheduleRow], now: datetime) -> tuple[list[tuple[int, int, date]], list[BadRow]]:
    """The next due time of each enabled row, and the rows that cannot be read (pure)."""
    items: list[tuple[int, int, date]] = []
    bad: list[BadRow] = []
    for row in rows:
        if row.disabled_reason is not None:
            continue
        plan = plan_of(row)
        if isinstance(plan, BadRow):
            bad.append(plan)
            continue
        due = next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        items.append((plan.id, epoch(due.instant), due.day))
    return items, bad
