"""The plain form ``YYYY-MM-DD HH:MM[:SS]`` is read without dateutil (the commonest form,
read on every /cast of a new minute) and names exactly the moment dateutil read, or the same
refusal, in any zone, DST gaps and folds included."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from texts import when
from texts.when import WhenError, parse_when

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
ZONES = ("Asia/Tokyo", "Europe/London", "America/New_York", "Australia/Lord_Howe", "UTC")


def both(text: str, zone: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """What parse_when says of ``text``, and what it says when dateutil reads every form."""
    def read() -> object:
        try:
            found = parse_when(text, zone, NOW)
        except WhenError as error:
            return ("refused", error.reason)
        return (found, found.fold, found.utcoffset(), found.tzinfo)

    fast = read()
    with monkeypatch.context() as patched:
        patched.setattr(when, "_plain", lambda _: None)
        slow = read()
    return fast, slow


def samples() -> list[str]:
    rng = random.Random(21)
    texts = []
    for _ in range(300):
        year, month, day = rng.randint(1890, 2110), rng.randint(1, 12), rng.randint(1, 31)
        hour, minute, second = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
        sep = rng.choice(" T")
        texts.append(f"{year:04d}-{month:02d}-{day:02d}{sep}{hour:02d}:{minute:02d}"
                     + (f":{second:02d}" if rng.random() < 0.3 else ""))
    return [
        *texts,
        "2026-03-08 02:30",  # New York's DST gap
        "2026-11-01 01:30",  # New York's repeated hour
        "2026-03-29 01:30",  # London's gap
        "2026-04-05 01:45",  # Lord Howe's half-hour fold
        "2026-02-29 10:00",  # not a date
        "2026-13-01 10:00",  # left to dateutil, which reads it its own way
        "2026-11-29 24:00",
        "2026-11-29 23:60",
        "1899-12-31 23:59",
        "2101-01-01 00:00",
        "0001-01-01 00:00",  # refused before it is put in a zone (no overflow)
        "  2026-11-29 14:00 ",
        "2026-11-29  14:00",  # two spaces: normalised, then read
        "２０２６-１１-２９ １４:００",  # full-width: normalised, then read
    ]


@pytest.mark.parametrize("zone", ZONES)
def test_the_plain_form_reads_as_dateutil_reads_it(zone: str, monkeypatch: pytest.MonkeyPatch) -> None:
    differ = [(t, *both(t, zone, monkeypatch)) for t in samples()]
    differ = [d for d in differ if d[1] != d[2]]
    assert not differ, differ[:5]


def test_the_plain_form_is_read_without_dateutil() -> None:
    assert when._plain("2026-11-29 14:00") == datetime(2026, 11, 29, 14, 0)
    assert when._plain("2026-11-29T14:00:30") == datetime(2026, 11, 29, 14, 0, 30)
    assert when._plain("2026-02-30 14:00") is None  # dateutil's to refuse
    assert when._plain("11/29 14:00") is None and when._plain("2026-11-29 14:00+09:00") is None
