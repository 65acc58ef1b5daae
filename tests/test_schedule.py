"""Pure tests of when daily posts fall due (bot.schedule): zones, DST, rollover, sharding."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.core.zones import parse_time, parse_zone, zone_suggestions
from bot.daily.schedule import BadRow, Plan, held_by, next_post, occurrence, plan_of, shard_of
from bot.store import ScheduleRow

NEW_YORK = ZoneInfo("America/New_York")
TOKYO = ZoneInfo("Asia/Tokyo")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


# --- parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("09:05", time(9, 5)),
        ("9:05", time(9, 5)),
        ("00:00", time(0)),
        ("23:59", time(23, 59)),
        (" 07:30 ", time(7, 30)),
    ],
)
def test_parse_time_accepts_wall_times(text: str, expected: time) -> None:
    assert parse_time(text) == expected


@pytest.mark.parametrize("text", ["25:00", "24:00", "12:60", "noon", "9", "09:5", "-1:00", "", "1230"])
def test_parse_time_rejects_non_times(text: str) -> None:
    with pytest.raises(ValueError):
        parse_time(text)


def test_parse_zone_is_the_engines_zone_parser_forgiving_case() -> None:
    from engine import calendar

    assert parse_zone("Asia/Tokyo").key == "Asia/Tokyo"
    assert parse_zone("asia/tokyo").key == "Asia/Tokyo"
    assert parse_zone("europe/PARIS") is calendar.zone("Europe/Paris")


@pytest.mark.parametrize(
    "name", ["Mars/Olympus", "", "America", "../etc/passwd", "/etc/localtime", "Asia/Tokyo\x00", "localtime", "JST"]
)
def test_parse_zone_rejects_non_zones(name: str) -> None:
    with pytest.raises(ValueError, match="unknown time zone"):
        parse_zone(name)


def test_zone_suggestions_match_case_insensitively() -> None:
    found = zone_suggestions("tokyo")
    assert "Asia/Tokyo" in found
    assert all("tokyo" in name.lower() for name in found)
    assert len(zone_suggestions("")) == 25


# --- occurrence: one instant per local day --------------------------------------------


def test_occurrence_plain_day_tokyo() -> None:
    # Japan keeps +09:00 all year: 09:00 JST is midnight UTC.
    assert occurrence(date(2026, 5, 2), time(9, 0), TOKYO) == utc(2026, 5, 2, 0, 0)
    # 07:30 JST is the previous UTC day.
    assert occurrence(date(2026, 5, 2), time(7, 30), TOKYO) == utc(2026, 5, 1, 22, 30)


def test_occurrence_in_spring_forward_gap_fires_when_the_gap_ends() -> None:
    # US DST 2026 starts Sun 8 March at 02:00 EST (07:00 UTC); 02:00–02:59 never happens.
    fired = occurrence(date(2026, 3, 8), time(2, 30), NEW_YORK)
    assert fired == utc(2026, 3, 8, 7, 0)
    assert fired.astimezone(NEW_YORK).replace(tzinfo=None) == datetime(2026, 3, 8, 3, 0)
    # Just before the gap is untouched.
    assert occurrence(date(2026, 3, 8), time(1, 59), NEW_YORK) == utc(2026, 3, 8, 6, 59)


def test_occurrence_in_gap_for_a_half_hour_shift() -> None:
    # Lord Howe Island springs forward 30 minutes at 02:00 (+10:30 → +11:00) on 4 Oct 2026.
    zone = ZoneInfo("Australia/Lord_Howe")
    fired = occurrence(date(2026, 10, 4), time(2, 15), zone)
    assert fired.astimezone(zone).replace(tzinfo=None) == datetime(2026, 10, 4, 2, 30)
    assert fired == utc(2026, 10, 3, 15, 30)


def test_occurrence_on_fall_back_day_is_the_first_of_the_two() -> None:
    # US DST 2026 ends Sun 1 Nov at 02:00 EDT: 01:30 happens at 05:30 UTC (EDT) and 06:30 UTC (EST).
    assert occurrence(date(2026, 11, 1), time(1, 30), NEW_YORK) == utc(2026, 11, 1, 5, 30)


# --- next_post -------------------------------------------------------------------------


def simulate(at: time, zone: ZoneInfo, start: datetime, end: datetime, step: timedelta) -> list[tuple[date, datetime]]:
    """Run a loop over a clock ticking by `step` (schedule set at `start`), posting whenever due."""
    posts: list[tuple[date, datetime]] = []
    last: date | None = None
    now = start
    while now < end:
        due = next_post(now, at, zone, last_posted=last, since=start)
        if due.instant <= now:
            posts.append((due.day, now))
            last = due.day
        now += step
    return posts


def test_spring_forward_day_is_neither_skipped_nor_doubled() -> None:
    posts = simulate(time(2, 30), NEW_YORK, utc(2026, 3, 6, 12), utc(2026, 3, 11, 12), timedelta(minutes=1))
    days = [day for day, _ in posts]
    assert days == [date(2026, 3, d) for d in (7, 8, 9, 10, 11)]
    local = {day: at.astimezone(NEW_YORK).replace(tzinfo=None) for day, at in posts}
    assert local[date(2026, 3, 7)] == datetime(2026, 3, 7, 2, 30)
    assert local[date(2026, 3, 8)] == datetime(2026, 3, 8, 3, 0)  # first valid instant after the gap
    assert local[date(2026, 3, 9)] == datetime(2026, 3, 9, 2, 30)


def test_fall_back_day_posts_once() -> None:
    posts = simulate(time(1, 30), NEW_YORK, utc(2026, 10, 30, 12), utc(2026, 11, 3, 12), timedelta(minutes=1))
    assert Counter(day for day, _ in posts) == {
        date(2026, 10, 31): 1,
        date(2026, 11, 1): 1,
        date(2026, 11, 2): 1,
        date(2026, 11, 3): 1,
    }
    fall_back = next(at for day, at in posts if day == date(2026, 11, 1))
    assert fall_back == utc(2026, 11, 1, 5, 30)  # 01:30 EDT, not again at 01:30 EST


def test_second_1_30_on_fall_back_day_is_not_due() -> None:
    due = next_post(utc(2026, 11, 1, 6, 30), time(1, 30), NEW_YORK, last_posted=date(2026, 11, 1))
    assert due.day == date(2026, 11, 2)
    assert due.instant == utc(2026, 11, 2, 6, 30)  # 01:30 EST


def test_tokyo_date_rollover_uses_the_local_date() -> None:
    # 15:05 UTC on 1 May is 00:05 JST on 2 May: a 00:00 JST post for 2 May is due now.
    now = utc(2026, 5, 1, 15, 5)
    due = next_post(now, time(0, 0), TOKYO, last_posted=date(2026, 5, 1))
    assert due == type(due)(date(2026, 5, 2), utc(2026, 5, 1, 15, 0))
    assert due.instant <= now
    # One minute before local midnight with the day's post made: tomorrow's.
    late = next_post(utc(2026, 5, 1, 14, 59), time(23, 58), TOKYO, last_posted=date(2026, 5, 1))
    assert late.day == date(2026, 5, 2)
    assert late.instant == utc(2026, 5, 2, 14, 58)


def test_missed_post_is_owed_until_the_local_day_ends() -> None:
    # The 09:00 JST post of 2 May was missed (bot down); at 15:00 JST it is still owed.
    due = next_post(utc(2026, 5, 2, 6, 0), time(9, 0), TOKYO, last_posted=date(2026, 5, 1))
    assert due.day == date(2026, 5, 2)
    assert due.instant == utc(2026, 5, 2, 0, 0)
    # At 00:10 JST on 3 May yesterday's is no longer owed; today's 09:00 is next.
    later = next_post(utc(2026, 5, 2, 15, 10), time(9, 0), TOKYO, last_posted=date(2026, 5, 1))
    assert later.day == date(2026, 5, 3)
    assert later.instant == utc(2026, 5, 3, 0, 0)


def test_schedule_set_after_the_time_does_not_owe_that_day() -> None:
    now = utc(2026, 5, 2, 1, 0)  # 10:00 JST
    due = next_post(now, time(9, 0), TOKYO, since=now)
    assert due.day == date(2026, 5, 3)
    early = utc(2026, 5, 1, 23, 59)  # 08:59 JST
    assert next_post(early, time(9, 0), TOKYO, since=early).day == date(2026, 5, 2)


def test_last_posted_in_the_future_is_respected() -> None:
    # e.g. the clock was set back: nothing is posted twice for a day already claimed.
    due = next_post(utc(2026, 5, 2, 6, 0), time(9, 0), TOKYO, last_posted=date(2026, 5, 4))
    assert due.day == date(2026, 5, 5)


def test_next_post_rejects_naive_now() -> None:
    with pytest.raises(ValueError):
        next_post(datetime(2026, 5, 2, 6, 0), time(9, 0), TOKYO)


# --- stored rows -----------------------------------------------------------------------


def row(**changes: object) -> ScheduleRow:
    base: dict[str, object] = dict(
        id=7,
        guild_id=1,
        channel_id=2,
        post_time="09:00",
        timezone="Asia/Tokyo",
        locale="ja",
        last_posted=None,
        since=None,
        disabled_reason=None,
        last_error=None,
    )
    base.update(changes)
    return ScheduleRow(**base)  # type: ignore[arg-type]


def test_plan_of_good_row() -> None:
    plan = plan_of(row(last_posted="2026-05-01", since="2026-04-30T01:00:00+00:00"))
    assert isinstance(plan, Plan)
    assert (plan.at, plan.zone_name, plan.last_posted) == (time(9, 0), "Asia/Tokyo", date(2026, 5, 1))
    assert plan.since == utc(2026, 4, 30, 1, 0)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"post_time": "25:00"}, ["time", "25:00"]),
        ({"timezone": "Mars/Olympus"}, ["zone", "Mars/Olympus"]),
        ({"timezone": "asia/tokyo"}, ["zone"]),  # stored names must be canonical
        ({"last_posted": "yesterday"}, ["last_posted"]),
        ({"since": "2026-04-30T01:00:00"}, ["since"]),  # naive
        ({"post_time": "9", "timezone": "Nowhere"}, ["time", "zone"]),  # every problem named
    ],
)
def test_plan_of_bad_rows_name_the_problem(changes: dict[str, object], words: list[str]) -> None:
    bad = plan_of(row(**changes))
    assert isinstance(bad, BadRow)
    assert bad.row.id == 7
    for word in words:
        assert word in bad.problem


# --- sharding --------------------------------------------------------------------------


def test_shard_of_uses_the_timestamp_bits() -> None:
    guild = (12345 << 22) | 0x3FFFFF  # low 22 bits (worker, process, increment) must not matter
    assert shard_of(guild, 4) == 12345 % 4 == 1
    assert shard_of(12345 << 22, 4) == 1
    assert shard_of(guild, 1) == 0


def test_each_guild_is_held_by_exactly_one_process() -> None:
    guilds = [(n << 22) + n for n in range(1000, 1100)]
    processes = [(0, 1), (2,), (3, 4)]  # 5 shards over 3 processes
    for guild in guilds:
        holders = [p for p in processes if held_by(guild, p, 5)]
        assert len(holders) == 1
        assert shard_of(guild, 5) in holders[0]


def test_unsharded_bot_holds_everything() -> None:
    assert held_by(81384788765712384, None, None)
    assert held_by(81384788765712384, [0], 1)
    assert held_by(81384788765712384, None, 4)
    assert not held_by(3 << 22, [0, 1], 4)
    assert held_by(3 << 22, [3], 4)
