"""Schools side by side and the sun at a place in the bot (docs/rules.md §10): /cast's place, the
server's two sun options, the alternatives line under every chart; the real bot on the stand-in."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import engine
from bot.casebook.present import schools_text
from bot.core.words import text
from bot.store import school_from_json, school_json
from engine.alternatives import alternatives
from engine.school import School
from engine.sun import Place
from testkit.discord_standin import MEMBER_PERMISSIONS, Callback, DiscordStandIn
from tests.conftest import StartBot
from tests.test_casebook_e2e import message_of, press
from texts.alternatives import alternative_line, option_words, summary_line
from texts.place import parse_place
from texts.words import text as texts_word

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
ADMIN = MEMBER_PERMISSIONS | (1 << 5)  # Manage Server
URUMQI = {"when": "2026-03-01 13:20", "tz": "Asia/Shanghai", "place": "ウルムチ", "image": False}


def clock() -> datetime:
    return NOW


def warm() -> None:
    """Read the gazetteer before the bot does (about a second, more on a busy machine), so a reply
    is not deferred past the stand-in's wait by the first read; the bot shares this process's copy."""
    parse_place("Tokyo")


def description(callback: Callback) -> str:
    assert callback.embeds, callback.body
    return str(callback.embeds[0]["description"])


def pillars(chart: engine.Chart) -> str:
    """The reply's pillars line for a chart cast from a moment."""
    m = chart.moment
    assert m is not None
    return text("embed.pillars", "ja", year=m.year, month=m.month, day=m.day, hour=m.hour, yuejiang=chart.yuejiang,
                override="")


def ephemeral(callback: Callback) -> str:
    assert callback.ephemeral, callback.body
    return str(callback.data.get("content") or json.dumps(callback.embeds, ensure_ascii=False))


def test_the_sun_options_are_stored_and_read_back() -> None:
    for school in (School(daynight="sun"), School(hour_by="mean"), School(hour_by="apparent", daynight="sun")):
        assert school_from_json(school_json(school)) == school
    assert school_from_json(school_json(School())) == School()
    assert school_from_json('{"noble_table": "甲羊"}') == School(noble_table="甲羊")  # stored before: defaults


async def test_apparent_solar_time_at_urumqi_gives_si_and_says_the_clock_gives_wei(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    warm()
    await start_bot(clock=clock)
    at = datetime(2026, 3, 1, 13, 20, tzinfo=ZoneInfo("Asia/Shanghai"))
    clocked = engine.cast(at)
    assert str(clocked.hour) == "未" and pillars(clocked) in description(await standin.slash("cast", URUMQI))
    changed = await standin.slash("settings school", {"hour_by": "apparent"}, member_permissions=ADMIN)
    assert option_words("hour_by", "apparent", "ja") in ephemeral(changed)
    reply = await standin.slash("cast", URUMQI)
    shown = description(reply)
    place = parse_place("ウルムチ").place
    chart = engine.cast(at, school=School(hour_by="apparent"), place=place)
    assert str(chart.hour) == "巳"
    assert pillars(chart) in shown and pillars(chart) != pillars(clocked)  # the hour pillar read on the sun
    assert texts_word("sun.hour_differs", "ja", clock_hour="未", hour="巳") in shown
    assert summary_line(chart, "ja") in shown
    # Without a place the school cannot read the sun: a clear answer, not a clock chart.
    refused = await standin.slash("cast", {"when": "2026-03-01 13:20", "tz": "Asia/Shanghai"})
    assert ephemeral(refused) == text("error.place.needed", "ja", options=option_words("hour_by", "apparent", "ja"))
    # The button under it answers every alternative, line by line, at the chart's place (kept in its id).
    button = next(c for row in reply.data["components"] for c in row["components"]
                  if c.get("custom_id", "").startswith("lr:o:"))
    assert button["label"] == text("button.schools", "ja") and button["custom_id"].endswith(
        f":{place.lat:.6f},{place.lon:.6f}")
    details = ephemeral(await press(standin, message_of(standin, reply), button["custom_id"]))
    assert details == schools_text(chart, "ja") and alternative_line(alternatives(chart)[0], "ja") in details
    assert texts_word("sun.hour_differs", "ja", clock_hour="未", hour="巳") in details
    # /case show lists them too (the case keeps its place: the chart at Ürümqi, its alternatives).
    case_id = reply.embeds[0]["footer"]["text"].rsplit(" ", 1)[-1]
    shown_case = await standin.slash("case show", {"id": case_id})
    assert any(e.get("description") == schools_text(chart, "ja") for e in shown_case.embeds), shown_case.embeds
    shown_settings = ephemeral(await standin.slash("settings show", {}, member_permissions=ADMIN))
    assert option_words("hour_by", "apparent", "ja") in shown_settings


async def test_a_place_brings_its_zone_and_names_resolve_in_three_scripts(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    warm()
    await start_bot(clock=clock)
    for name in ("ウルムチ", "乌鲁木齐", "Urumqi"):
        reply = await standin.slash("cast", {"when": "2026-03-01 13:20", "place": name, "image": False})
        shown = description(reply)
        assert "Asia/Urumqi" in shown and text("embed.zone.place", "ja") in shown, shown


async def test_an_ambiguous_and_an_unknown_place_get_clear_answers(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    warm()
    await start_bot(clock=clock)
    ambiguous = ephemeral(await standin.slash("cast", {"place": "Springfield"}, locale="en-US"))
    assert ambiguous.startswith("❌ “Springfield” names ") and "(US)" in ambiguous and "Springfield, US" in ambiguous
    unknown = ephemeral(await standin.slash("cast", {"place": "Qwxzyville"}, locale="en-US"))
    assert unknown == text("error.place.unknown", "en", place="Qwxzyville")
    off = ephemeral(await standin.slash("cast", {"place": "95,10"}, locale="ja"))
    assert off == text("error.place.coordinates", "ja", place="95,10")
    # "name, CC" that still names several is answered with those, not guessed.
    picked = ephemeral(await standin.slash("cast", {"place": "Springfield, US"}, locale="en-US"))
    assert picked.startswith("❌ “Springfield, US” names ") and "(GB)" not in picked
    choices = await standin.autocomplete("cast", {"place": "ウルム"}, "place")
    assert choices and choices[0]["value"] == "Ürümqi, CN", choices


async def test_every_chart_says_which_school_options_change_it(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    reply = await standin.slash("cast", {"when": "now", "tz": "Asia/Tokyo", "image": False})
    chart = engine.cast(NOW, "Asia/Tokyo")
    assert f"-# {summary_line(chart, 'ja')}" in description(reply)
    # Under a default chart no button is added: the lines follow the reasons behind 理由.
    ids = [c["custom_id"] for row in reply.data["components"] for c in row["components"]]
    assert not any(i.startswith("lr:o:") for i in ids)
    why = ephemeral(await press(standin, message_of(standin, reply), next(i for i in ids if i.startswith("lr:c:why:"))))
    assert schools_text(chart, "ja") in why
    classical = await standin.slash("chart", {"day": "丁卯", "yuejiang": "未", "hour": "午", "image": False})
    assert f"-# {texts_word('alt.none', 'ja')}" in description(classical)
    # A place with the default school: the chart is the clock's, the place's options are tried.
    placed = engine.cast(NOW, "Asia/Tokyo", place=Place(35.6895, 139.6917))
    assert placed.transmissions.branches == chart.transmissions.branches and placed.hour == chart.hour


def test_a_reply_kept_for_a_chart_is_not_the_same_minute_read_at_a_place() -> None:
    """Replies are kept per 時; a chart read at a place says what the sun said and tries the sun's
    options, so it never takes the reply kept for the same minute without one."""
    from bot.reply.kept import remembered_reply

    at = datetime(2026, 3, 1, 13, 20, tzinfo=ZoneInfo("Asia/Shanghai"))
    plain = engine.cast(at)
    placed = engine.cast(at, place=Place(43.825, 87.6))
    assert summary_line(plain, "en") != summary_line(placed, "en")  # the hour by the sun would change it
    for chart in (plain, placed):
        shown = str(remembered_reply(chart, locale="en").embeds[0].description)
        assert f"-# {summary_line(chart, 'en')}" in shown
    assert texts_word("sun.place", "en", place=str(Place(43.825, 87.6))) in shown
