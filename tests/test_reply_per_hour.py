"""A chart's reply kept per 時 (bot.reply.kept): a minute of a 時 kept for another minute
is that reply with the moment line's time rewritten, and that is exactly what writing it gives.

Each test compares the kept reply of a minute with a fresh ``chart_reply`` of the same chart; the
minutes are chosen where a 時 is not one reply: a 節 (the month pillar) or a 中気 (the 月將) inside
it, a new year at midnight inside 子, a clock change's repeated hour, a question that says the time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.reply import kept as replies
from bot.reply.chart import ChartReply, chart_reply
from bot.reply.kept import remembered_reply
from engine import Chart, cast

TOKYO = ZoneInfo("Asia/Tokyo")
NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture(autouse=True)
def written(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Chart]]:
    """The charts ``chart_reply`` was asked to write (a fresh cache for each test)."""
    replies._REPLIES.clear()
    calls: list[Chart] = []
    original: Callable[..., ChartReply] = replies.chart_reply

    def counting(chart: Chart, **kwargs: Any) -> ChartReply:
        calls.append(chart)
        return original(chart, **kwargs)

    monkeypatch.setattr(replies, "chart_reply", counting)
    yield calls
    replies._REPLIES.clear()


def dicts(reply: ChartReply) -> list[dict[str, Any]]:
    return [e.to_dict() for e in reply.embeds]


def same_as_written(chart: Chart, **options: Any) -> ChartReply:
    kept = remembered_reply(chart, **options)
    fresh = chart_reply(chart, **options)
    assert dicts(kept) == dicts(fresh), chart.moment
    assert kept.spirits == fresh.spirits
    assert kept.sizes == tuple(len(e) for e in fresh.embeds)  # the lengths it hands out, for this minute too
    return kept


@pytest.mark.parametrize("options", [
    {"locale": "ja"},
    {"locale": "en", "zone_note": "server"},
    {"locale": "zh-TW", "question": "失くした鍵は見つかりますか"},
    {"locale": "zh-CN", "matter": "general"},
])
def test_the_minutes_of_a_hour_are_written_once_and_each_is_what_writing_it_gives(
        options: dict[str, Any], written: list[Chart]) -> None:
    start = datetime(2026, 11, 29, 13, 0, tzinfo=TOKYO)  # 未: 13:00–14:59
    first = same_as_written(cast(start), **options)
    for minutes in (1, 7, 59, 60, 61, 119):
        at = start + timedelta(minutes=minutes)
        reply = same_as_written(cast(at), **options)
        # Only the moment line differs from the first minute's reply, and only in its time.
        old, new = dicts(first), dicts(reply)
        assert old[1:] == new[1:] and {**old[0], "description": ""} == {**new[0], "description": ""}
        before, after = old[0]["description"].split("\n"), new[0]["description"].split("\n")
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1 and before[changed[0]].endswith("13:00")
        assert after[changed[0]].endswith(f"{at:%H:%M}")
    assert len(written) == 1  # the first minute's; the others rewritten from it
    same_as_written(cast(start + timedelta(hours=2)))  # the next 時: a reply of its own
    assert len(written) == 2


def minutes_around(instant: datetime, zone: ZoneInfo) -> tuple[Chart, Chart]:
    """Two charts of one 時, a minute before and a minute after ``instant``."""
    before, after = cast((instant - timedelta(minutes=1)).astimezone(zone)), cast(
        (instant + timedelta(minutes=1)).astimezone(zone))
    assert before.hour == after.hour and before.day == after.day, "the instant falls on a 時's edge"
    return before, after


def test_a_term_inside_a_hour_gives_each_side_its_own_reading() -> None:
    month_after = cast(datetime(2026, 12, 10, 12, tzinfo=TOKYO)).moment
    yuejiang_after = cast(datetime(2026, 12, 25, 12, tzinfo=TOKYO)).moment
    assert month_after is not None and yuejiang_after is not None
    for instant, changes in ((month_after.sectional_term.instant, "month"),
                             (yuejiang_after.principal_term.instant, "yuejiang")):
        before, after = minutes_around(instant, TOKYO)
        assert getattr(before.moment, changes) != getattr(after.moment, changes)
        for chart in (before, after, before):
            same_as_written(chart, locale="ja")
            same_as_written(chart, locale="en", question="転職できますか")


def test_a_new_year_inside_the_rat_hour_is_a_reply_of_its_own() -> None:
    before, after = minutes_around(datetime(2026, 12, 31, 15, 0, tzinfo=ZoneInfo("UTC")), TOKYO)
    assert before.moment is not None and after.moment is not None
    assert before.moment.local.year != after.moment.local.year
    for chart in (before, after):
        same_as_written(chart, locale="en")


def test_a_clock_changes_repeated_hour_keeps_its_offsets_apart() -> None:
    # 2026-11-01 01:00–02:00 comes twice in New York (EDT, then EST).
    first = datetime(2026, 11, 1, 1, 20, tzinfo=NEW_YORK)
    second = first.replace(fold=1)
    assert first.utcoffset() != second.utcoffset()
    for at in (first, second, first + timedelta(minutes=5), second + timedelta(minutes=5)):
        same_as_written(cast(at), locale="en")


def test_a_reply_whose_question_says_its_time_is_not_rewritten(written: list[Chart]) -> None:
    start = datetime(2026, 11, 29, 13, 0, tzinfo=TOKYO)
    question = "2026-11-29 13:00 に出た話はまとまりますか"
    for minutes in (0, 5):
        same_as_written(cast(start + timedelta(minutes=minutes)), locale="ja", question=question)
    assert len(written) == 2  # 13:05 written anew: 13:00's reply says 13:00 twice
    for minutes in (10, 0):  # from 13:05's reply, which says 13:05 once: the question's 13:00 stays
        same_as_written(cast(start + timedelta(minutes=minutes)), locale="ja", question=question)
    assert len(written) == 2
