"""parse_when: every accepted form, the zone rules, and errors that list the accepted forms."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from texts.when import ACCEPTED_FORMS, WhenError, parse_when, zone_named
from texts.words import Lang

TOKYO = ZoneInfo("Asia/Tokyo")
# 2026-03-01 03:00 UTC is 12:00 on 1 March in Tokyo but still 28 February in New York.
NOW = datetime(2026, 3, 1, 3, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-29 14:00", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),
        ("2026-11-29T14:00", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),
        ("2026-11-29T14:00:30", datetime(2026, 11, 29, 14, 0, 30, tzinfo=TOKYO)),
        ("14:00", datetime(2026, 3, 1, 14, 0, tzinfo=TOKYO)),
        ("2026年11月29日 14時", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),
        ("2026年11月29日14時30分", datetime(2026, 11, 29, 14, 30, tzinfo=TOKYO)),
        ("11月29日 9時", datetime(2026, 11, 29, 9, 0, tzinfo=TOKYO)),
        ("14時半", datetime(2026, 3, 1, 14, 30, tzinfo=TOKYO)),
        ("午後2時", datetime(2026, 3, 1, 14, 0, tzinfo=TOKYO)),
        ("午前0時", datetime(2026, 3, 1, 0, 0, tzinfo=TOKYO)),
        ("11/29 14:00", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),
        ("2026/11/29 14:00", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),
        ("２０２６－１１－２９　１４：００", datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)),  # full-width
        ("1900-01-01 00:00", datetime(1900, 1, 1, 0, 0, tzinfo=TOKYO)),
        ("2100-12-31 23:59", datetime(2100, 12, 31, 23, 59, tzinfo=TOKYO)),
    ],
)
def test_accepted_forms_read_as_local_time(text: str, expected: datetime) -> None:
    got = parse_when(text, "Asia/Tokyo", NOW)
    assert got == expected
    assert got.tzinfo is not None and got.utcoffset() == timedelta(hours=9)


# Chinese parts of the day read as 午後2時 is read: each beside the clock time it names.
@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("下午2点", "午後2時"),
        ("下午2點", "14:00"),
        ("午后2点", "14:00"),
        ("晚上8点", "20:00"),
        ("晚上 8 點", "20:00"),
        ("上午10点半", "10:30"),
        ("上午12点", "12:00"),  # noon, as 上午 readers mean it
        ("中午12点", "12:00"),
        ("中午1点", "13:00"),
        ("凌晨3点", "03:00"),
        ("凌晨12点", "00:00"),
        ("早上7点", "07:00"),
        ("傍晚6点", "18:00"),
        ("下午2点15分", "14:15"),
        ("下午2点15", "14:15"),  # Chinese often leaves out 分
        ("下午2点一刻", "14:15"),
        ("晚上十一点三刻", "23:45"),
        ("下午两点半", "14:30"),
        ("十点十五分", "10:15"),
        ("2点整", "02:00"),
        ("下午14点", "14:00"),  # redundant but agreeing
        ("11月29日下午3点", "11/29 15:00"),
        ("2026年11月29日下午3点", "2026-11-29 15:00"),
        ("２０２６年１１月２９日　下午３点", "2026-11-29 15:00"),  # full-width
        ("午後2時半", "14:30"),
    ],
)
def test_chinese_parts_of_the_day_read_as_the_japanese_ones(text: str, same_as: str) -> None:
    got = parse_when(text, "Asia/Tokyo", NOW)
    assert got == parse_when(same_as, "Asia/Tokyo", NOW)
    assert got.utcoffset() == timedelta(hours=9)


def test_evening_twelve_is_the_midnight_that_ends_the_day() -> None:
    assert parse_when("2026年11月29日晚上12点", "Asia/Tokyo", NOW) == datetime(2026, 11, 30, 0, 0, tzinfo=TOKYO)
    assert parse_when("2026年12月31日晚上12点", "Asia/Tokyo", NOW) == datetime(2027, 1, 1, 0, 0, tzinfo=TOKYO)
    assert parse_when("2026年11月29日凌晨12点", "Asia/Tokyo", NOW) == datetime(2026, 11, 29, 0, 0, tzinfo=TOKYO)
    with pytest.raises(WhenError) as caught:  # the midnight after 2100 is outside the range
        parse_when("2100年12月31日晚上12点", "Asia/Tokyo", NOW)
    assert caught.value.reason == "range"


@pytest.mark.parametrize(("text", "reason"), [("上午14点", "unreadable"), ("凌晨15点", "unreadable"),
                                              ("下午25点", "unreadable"), ("下午", "unreadable"),
                                              ("2026年11月29日下午", "no_time")])
def test_a_part_of_the_day_that_disagrees_with_the_hour_is_refused(text: str, reason: str) -> None:
    with pytest.raises(WhenError) as caught:
        parse_when(text, "Asia/Tokyo", NOW)
    assert caught.value.reason == reason


@pytest.mark.parametrize("text", ["now", "NOW", " now ", "", "今", "いま"])
def test_now_is_the_given_instant_in_the_zone(text: str) -> None:
    got = parse_when(text, "Asia/Tokyo", NOW)
    assert got == NOW
    assert got.utcoffset() == timedelta(hours=9)
    assert (got.hour, got.day) == (12, 1)


def test_explicit_offset_keeps_the_instant_and_shows_it_in_the_zone() -> None:
    got = parse_when("2026-11-29T05:00Z", "Asia/Tokyo", NOW)
    assert got == datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
    assert (got.hour, got.utcoffset()) == (14, timedelta(hours=9))
    other = parse_when("2026-11-29T14:00+08:00", "Asia/Tokyo", NOW)
    assert other.hour == 15


def test_time_alone_takes_today_in_the_zone_not_in_utc() -> None:
    # At NOW it is already 1 March in Tokyo but still 28 February in New York.
    assert parse_when("14:00", "America/New_York", NOW).date().isoformat() == "2026-02-28"
    assert parse_when("14:00", "Asia/Tokyo", NOW).date().isoformat() == "2026-03-01"


def test_month_and_day_take_this_year_in_the_zone() -> None:
    new_year = datetime(2026, 12, 31, 16, 0, tzinfo=UTC)  # 2027-01-01 01:00 in Tokyo
    assert parse_when("11/29 14:00", "Asia/Tokyo", new_year).year == 2027
    assert parse_when("11/29 14:00", "Europe/London", new_year).year == 2026


def test_zone_object_is_accepted() -> None:
    fixed = timezone(timedelta(hours=-3))
    assert parse_when("2026-11-29 14:00", fixed, NOW) == datetime(2026, 11, 29, 17, 0, tzinfo=UTC)


def test_clock_time_in_a_dst_gap_lands_on_a_real_instant() -> None:
    # 2026-03-08 02:30 does not exist in New York (clocks jump from 02:00 to 03:00).
    got = parse_when("2026-03-08 02:30", "America/New_York", NOW)
    assert got.astimezone(UTC) == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)
    assert (got.hour, got.minute) == (3, 30)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hello", "unreadable"),
        ("tomorrow", "unreadable"),
        ("foo 14:00", "unreadable"),
        ("25:00", "unreadable"),
        ("2026-02-30 10:00", "unreadable"),
        ("2026-11-29", "no_time"),
        ("11/29", "no_time"),
        ("1899-12-31 23:00", "range"),
        ("2101-01-01 00:00", "range"),
        ("0001-01-01 00:00", "range"),
    ],
)
def test_bad_text_is_refused_with_every_accepted_form(text: str, reason: str) -> None:
    with pytest.raises(WhenError) as caught:
        parse_when(text, "Asia/Tokyo", NOW)
    assert caught.value.reason == reason
    assert caught.value.text == text
    message = str(caught.value)
    for form in ACCEPTED_FORMS:
        assert form in message
    assert "1900" in message and "2100" in message


def test_range_is_checked_on_the_local_date() -> None:
    # 2100-12-31 20:00 in Honolulu is already 2101 in UTC; the user's local year is what counts.
    got = parse_when("2100-12-31 20:00", "Pacific/Honolulu", NOW)
    assert got.year == 2100


def test_unknown_zone_is_a_when_error() -> None:
    with pytest.raises(WhenError) as caught:
        parse_when("now", "Mars/Olympus", NOW)
    assert caught.value.reason == "zone"
    with pytest.raises(WhenError):
        zone_named("../../etc/passwd")


def test_naive_now_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="aware"):
        parse_when("now", "Asia/Tokyo", datetime(2026, 1, 1))


def test_a_zone_abbreviation_must_agree_with_the_zone() -> None:
    """``14:00 JST`` with tz America/New_York used to cast 14:00 New York: now a clear error."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert parse_when("2026-11-29 14:00 JST", "Asia/Tokyo", now).isoformat() == "2026-11-29T14:00:00+09:00"
    assert parse_when("2026-11-29 14:00 EST", "America/New_York", now).utcoffset() == timedelta(hours=-5)
    with pytest.raises(WhenError) as refused:
        parse_when("2026-11-29 14:00 JST", "America/New_York", now)
    assert refused.value.reason == "abbreviation" and "JST" in str(refused.value)
    with pytest.raises(WhenError, match="EDT"):  # New York keeps EST in November
        parse_when("2026-11-29 14:00 EDT", "America/New_York", now)
    # An offset or UTC is an instant, not an abbreviation to check.
    assert parse_when("2026-11-29 14:00 UTC", "Asia/Tokyo", now).isoformat() == "2026-11-29T23:00:00+09:00"


@pytest.mark.parametrize("locale", ["ja", "en-US", "zh-TW", "zh-CN"])
def test_every_reason_has_a_reply_in_every_language(locale: str) -> None:
    from bot.core.reader import when_error_text

    for reason in ("unreadable", "no_time", "range", "abbreviation"):
        reply = when_error_text(WhenError("x" * 500, reason, "detail"), locale)
        assert reply and "x" * 100 not in reply  # the input is echoed clipped


@pytest.mark.parametrize("lang", ["ja", "en", "zh-TW", "zh-CN"])
@pytest.mark.parametrize(("zone", "shown"), [("Asia/Tokyo", "2026-11-22 16:23:21 JST"),
                                             ("America/New_York", "2026-11-22 02:23:21 EST")])
def test_a_chart_shows_its_principal_term_in_its_own_zone(lang: Lang, zone: str, shown: str) -> None:
    """小雪 2026 is 2026-11-22 07:23:21 UTC (docs/calendar.md); the text shows it on the chart's clock,
    the JSON keeps UTC."""
    from engine import cast
    from engine.schema import to_dict
    from texts.render import render_text

    chart = cast(datetime(2026, 11, 29, 14, 0, tzinfo=ZoneInfo(zone)))
    moment_line = render_text(chart, lang=lang).splitlines()[1]
    assert shown in moment_line and "UTC" not in moment_line
    assert to_dict(chart)["moment"]["principal_term"]["instant"] == "2026-11-22T07:23:21+00:00"
