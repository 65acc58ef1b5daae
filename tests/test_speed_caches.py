"""What the bot's and the texts' caches promise: each is right, not only quick.

The store remembers a server's options and a reader's profile and forgets them when it writes
them; a picture is drawn once per 時 (the minute is not in it); a moment read from text is kept,
"now" never; the words of one language load without the others', each checked at load; the
bounded cache weighs its entries when asked to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest

from bot.casebook.present import case_embeds, stamp
from bot.core.reader import Reader
from bot.reply.chart import chart_reply
from bot.reply.kept import remembered_reply
from bot.reply.limits import EMBED_TOTAL_MAX
from bot.store import Case, GuildOptions, Profile, Store, open_store
from engine import calendar, cast
from engine.school import School
from engine.symbols import Branch
from texts.memo import LRU
from texts.picture import draw as picture
from texts.picture.shapes import hour_span

ROOT = Path(__file__).resolve().parents[1]
TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "cache.sqlite3")
    yield opened
    await opened.close()


async def test_the_server_options_are_read_once_and_forgotten_when_written(store: Store) -> None:
    reads: list[str] = []
    fetch = store.driver.fetch

    async def counted(statement: str, params: Any = ()) -> Any:
        reads.append(statement)
        return await fetch(statement, params)

    setattr(store.driver, "fetch", counted)  # noqa: B010 - count the reads the store makes
    assert await store.guild_options(7) == GuildOptions()
    assert await store.guild_options(7) == GuildOptions()
    assert len(reads) == 1
    await store.set_guild_options(7, GuildOptions(language="en", image=False))
    assert await store.guild_options(7) == GuildOptions(language="en", image=False)
    assert len(reads) == 2


async def test_a_profile_is_remembered_and_forgotten_when_set_or_deleted(store: Store) -> None:
    assert await store.profile(9) is None
    await store.set_profile(Profile(9, 1990, "男", calendar.zone("Europe/Paris")))
    assert await store.profile(9) == Profile(9, 1990, "男", calendar.zone("Europe/Paris"))
    await store.set_profile(Profile(9, 1991, "女"))
    assert await store.profile(9) == Profile(9, 1991, "女")
    assert await store.delete_profile(9)
    assert await store.profile(9) is None


def test_every_cast_of_one_hour_shares_one_picture_and_alt_text() -> None:
    picture.clear_cache()
    start = datetime(2026, 11, 29, 13, 0, tzinfo=TOKYO)
    drawn = [picture.draw(cast(start + timedelta(minutes=m))) for m in (0, 7, 59, 61, 119)]
    assert all(d.png is drawn[0].png and d.alt is drawn[0].alt for d in drawn)
    assert drawn[1].filename == "liuren-20261129-1307.png"  # the attachment still names the minute
    assert "2026-11-29 13:00-15:00" in drawn[0].alt and "13:07" not in drawn[0].alt
    other = picture.draw(cast(start + timedelta(minutes=120)))
    assert other.png != drawn[0].png and "15:00-17:00" in other.alt


def test_a_kept_picture_is_the_one_drawn_for_its_hour_and_options_only() -> None:
    """``kept`` (what the bot asks on its event loop) gives the drawn picture of the 時,
    named for the minute, and nothing for a 時 or options not drawn: it never draws."""
    picture.clear_cache()
    start = datetime(2026, 11, 29, 13, 0, tzinfo=TOKYO)
    chart, later = cast(start), cast(start + timedelta(minutes=42))
    assert picture.kept(chart) is None
    png = picture.render_png(chart)
    assert picture.kept(chart) is None  # the PNG alone: a reply needs the alt text too
    drawn = picture.draw(chart)
    assert drawn.png is png
    found = picture.kept(later)
    assert found is not None and (found.png, found.alt) == (drawn.png, drawn.alt)
    assert found.filename == "liuren-20261129-1342.png"
    assert picture.kept(later, theme="light") is None and picture.kept(later, lang="en") is None
    assert picture.kept(later, highlight=frozenset(chart.generals.by_ground[:1])) is None
    assert picture.kept(cast(start + timedelta(minutes=120))) is None


def test_the_hour_key_remembered_for_the_last_chart_is_that_charts_own() -> None:
    one, other = cast(datetime(2026, 11, 29, 13, 5, tzinfo=TOKYO)), cast(datetime(2026, 11, 29, 15, 5, tzinfo=TOKYO))
    keys = [picture.hour_key(c) for c in (one, one, other, one, other, other)]
    assert keys[0] is keys[1] and keys[2] != keys[0]
    assert keys == [keys[0], keys[0], keys[2], keys[0], keys[2], keys[2]]
    assert picture.hour_key(one) == picture.hour_key(cast(datetime(2026, 11, 29, 13, 50, tzinfo=TOKYO)))


def test_the_hour_span_of_the_rat_hour_crosses_midnight() -> None:
    late, early = cast(datetime(2026, 11, 29, 23, 30, tzinfo=TOKYO)), cast(datetime(2026, 11, 30, 0, 30, tzinfo=TOKYO))
    assert hour_span(late) == "2026-11-29 23:00-01:00"
    assert hour_span(early) == "2026-11-30 23:00-01:00"
    assert picture.render_png(late) != picture.render_png(early)


def test_a_moment_read_from_text_is_kept_but_now_is_not() -> None:
    reader = Reader("ja", GuildOptions(), None, True, TOKYO, "bot")
    now = datetime(2026, 11, 29, 5, 0, 12, tzinfo=UTC)
    first = reader.moment("14:00", now)
    assert first == datetime(2026, 11, 29, 14, 0, tzinfo=TOKYO)
    assert reader.moment("14:00", now + timedelta(hours=1)) is first  # the same day: kept
    assert reader.moment("14:00", now + timedelta(days=1)) == first + timedelta(days=1)  # another day
    assert reader.moment("now", now) == now
    assert reader.moment("now", now + timedelta(seconds=5)) == now + timedelta(seconds=5)


def test_one_language_loads_without_the_others() -> None:
    code = "from texts import words; words.text('language.name', 'en'); print(len(words._LOADED))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split()[-1] == "2"  # English, checked against Japanese; no Chinese read


def test_a_weighed_cache_keeps_what_its_budget_holds() -> None:
    kept = LRU[str, bytes](10, weigh=len)
    kept.put("a", b"1234")
    kept.put("b", b"123456")
    assert kept.weight == 10 and kept.get("a") is not None
    kept.put("c", b"12")  # b is now the least recently used
    assert sorted(kept.keys()) == ["a", "c"] and kept.weight == 6
    kept.put("a", b"1")  # replacing re-weighs
    assert kept.weight == 3


@pytest.mark.parametrize("question", [None, "転職できますか"])
def test_a_kept_reply_is_the_written_one_and_each_caller_gets_its_own_copy(question: str | None) -> None:
    chart = cast(datetime(2026, 11, 29, 13, 7, tzinfo=TOKYO))
    written = chart_reply(chart, locale="en", question=question, zone_note="server")
    first = remembered_reply(chart, locale="en", question=question, zone_note="server")
    first.embeds[0].set_footer(text="stamped")
    first.embeds[0].add_field(name="extra", value="x")
    again = remembered_reply(chart, locale="en", question=question, zone_note="server")
    assert [e.to_dict() for e in again.embeds] == [e.to_dict() for e in written.embeds]
    assert again.spirits == written.spirits
    other = remembered_reply(chart, locale="ja", question=question, zone_note="server")
    assert [e.to_dict() for e in other.embeds] != [e.to_dict() for e in written.embeds]


def test_a_kept_replys_shared_fields_refuse_to_change_in_place_and_each_copy_owns_its_list() -> None:
    chart = cast(datetime(2026, 11, 29, 13, 7, tzinfo=TOKYO))
    written = [e.to_dict() for e in chart_reply(chart, locale="ja").embeds]
    first = remembered_reply(chart, locale="ja")
    with pytest.raises(TypeError, match="shared"):
        first.embeds[0].set_field_at(0, name="changed", value="in place")  # would change every later reply
    with pytest.raises(TypeError, match="shared"):
        first.embeds[0].to_dict()["footer"]["text"] = "changed"
    first.embeds[0].remove_field(0)
    first.embeds[0].clear_fields()
    again = remembered_reply(chart, locale="ja")
    assert [e.to_dict() for e in again.embeds] == written
    assert json.loads(json.dumps([e.to_dict() for e in again.embeds])) == written  # sent as plain JSON


def test_casting_the_same_datetime_again_gives_its_chart_and_nothing_else_does() -> None:
    at = datetime(2026, 11, 29, 13, 7, tzinfo=TOKYO)
    first = cast(at)
    assert cast(at) is first  # the one datetime a group's casts of a moment share: cast once
    in_utc = at.astimezone(UTC)  # equal to ``at``, another zone: its own chart
    assert in_utc == at and cast(in_utc).moment != first.moment
    assert cast(at, "America/New_York").moment != first.moment
    assert cast(at, school=replace(first.school, day_changes_at_23=False)).school != first.school
    assert cast(at, yuejiang=Branch.子).yuejiang == Branch.子 and cast(at).yuejiang == first.yuejiang
    assert cast(at) == first


@pytest.mark.parametrize("question", [None, "転職できますか"])
def test_a_case_reply_hands_out_its_embeds_lengths_after_the_case_id_is_stamped(question: str | None) -> None:
    chart = cast(datetime(2026, 11, 29, 13, 7, tzinfo=TOKYO))
    case = Case(seq=1, id="AB12CD", guild_id=1, channel_id=2, author_id=3, private=False,
                instant=chart.moment.local if chart.moment else None, zone=TOKYO,
                day=None, yuejiang=None, hour=None, school=School(), question=question, birth_year=None, sex=None,
                created_at=0)
    for _ in range(2):  # written, then kept
        _, reply = case_embeds(case, "en", chart=chart)
        assert reply.sizes == tuple(len(e) for e in reply.embeds)
        assert "AB12CD" in (reply.embeds[0].footer.text or "")
    crowded = discord.Embed(title="t", description="d" * (EMBED_TOTAL_MAX - 12))
    crowded.set_footer(text="a footer that leaves no room")
    size = stamp([crowded], "ZZ99ZZ", "en", len(crowded))
    assert crowded.footer.text == "Case ZZ99ZZ" and size == len(crowded) <= EMBED_TOTAL_MAX
