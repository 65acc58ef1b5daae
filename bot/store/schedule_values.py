"""The daily posts' values as stored: a schedule's row, and a row this process holds a lease on.

Loaded with the daily posts' first read of the schedules (once READY), not with the store at
start: ``bot.store`` gives these names when first asked for (PEP 562). Frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Claimed", "ScheduleRow"]


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
