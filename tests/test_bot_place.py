"""Default places (docs/usage.md): a server's (/settings place) and a member's (/profile set
place:) read by /cast without place:, the member's first, the reply saying where the place came
from; and a case keeping its place, so /case show casts it again there. The real bot on the stand-in."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import engine
from bot.core.words import text
from engine.school import School
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot
from tests.test_bot_schools import ADMIN, URUMQI, clock, description, ephemeral, pillars, warm
from tests.test_casebook_e2e import message_of, press
from tests.test_privacy import export, exported_rows
from texts.place import parse_place

AT = datetime(2026, 3, 1, 13, 20, tzinfo=ZoneInfo("Asia/Shanghai"))
WHEN = {"when": "2026-03-01 13:20", "tz": "Asia/Shanghai", "image": False}
APPARENT = School(hour_by="apparent")


def at(name: str, hours: int = 0) -> engine.Chart:
    return engine.cast(AT + timedelta(hours=hours), school=APPARENT, place=parse_place(name).place)


async def test_the_servers_place_is_read_by_cast_and_a_profiles_place_comes_first(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    warm()
    await start_bot(clock=clock)
    await standin.slash("settings school", {"hour_by": "apparent"}, member_permissions=ADMIN)
    refused = ephemeral(await standin.slash("cast", WHEN))  # no place anywhere: the sun cannot be read
    assert refused.startswith("❌"), refused
    set_place = ephemeral(await standin.slash("settings place", {"place": "ウルムチ"}, member_permissions=ADMIN))
    assert "Ürümqi" in set_place and "Asia/Urumqi" in set_place
    assert "Ürümqi" in ephemeral(await standin.slash("settings show", {}, member_permissions=ADMIN))
    urumqi, tokyo = at("ウルムチ"), at("東京")
    assert (str(urumqi.hour), str(tokyo.hour)) == ("巳", "未")
    shown = description(await standin.slash("cast", WHEN))
    assert pillars(urumqi) in shown, shown
    assert text("embed.zone.server", "ja") in shown and "Ürümqi" in shown  # where the place came from
    saved = ephemeral(await standin.slash("profile set", {"birth_year": 1987, "sex": "男", "place": "東京"}))
    assert "Asia/Tokyo" in saved
    assert text("profile.place_line", "ja", place="Tokyo 35.6895,139.6917 (Asia/Tokyo)") in ephemeral(
        await standin.slash("profile show", {}))
    mine = description(await standin.slash("cast", WHEN))
    assert pillars(tokyo) in mine and pillars(urumqi) not in mine, mine
    assert text("embed.zone.profile", "ja") in mine
    # A place given still comes before both.
    given = description(await standin.slash("cast", {**WHEN, "place": "ウルムチ"}))
    assert pillars(urumqi) in given
    # Without a zone, the profile's place brings its own (over the server's default of none).
    zoned = description(await standin.slash("cast", {"when": "2026-03-01 14:20", "image": False}))
    assert "Asia/Tokyo" in zoned and text("embed.zone.place", "ja") in zoned, zoned
    coordinates = ephemeral(await standin.slash("settings place", {"place": "43.8,87.6"}, member_permissions=ADMIN))
    assert "43.8000,87.6000 (Asia/Urumqi)" in coordinates and coordinates.count("43.8000") == 1, coordinates
    off = ephemeral(await standin.slash("settings place", {"place": "off"}, member_permissions=ADMIN))
    assert text("daily.unset", "ja") in off


async def test_a_case_cast_at_urumqi_is_shown_again_at_urumqi(standin: DiscordStandIn, start_bot: StartBot) -> None:
    warm()
    await start_bot(clock=clock)
    await standin.slash("settings school", {"hour_by": "apparent"}, member_permissions=ADMIN)
    reply = await standin.slash("cast", URUMQI)
    urumqi, clocked = at("ウルムチ"), engine.cast(AT, school=APPARENT.by_the_clock())
    assert str(urumqi.hour) == "巳" and str(clocked.hour) == "未"
    case_id = reply.embeds[0]["footer"]["text"].rsplit(" ", 1)[-1]
    shown = description(await standin.slash("case show", {"id": case_id, "image": False}))
    assert pillars(urumqi) in shown and pillars(clocked) not in shown, shown
    # The next 時 is cast there too (its case keeps the place): 午 by the sun, not the clock's 申.
    later = at("ウルムチ", 2)
    assert str(later.hour) == "午"
    pressed = await press(standin, message_of(standin, reply), f"lr:c:next:{case_id}")
    assert pillars(later) in description(pressed), description(pressed)
    # The member's export shows the place kept; another member's shows none of it.
    [message] = await export(standin)
    [row] = [r for r in exported_rows(message) if r["id"] == case_id]
    assert (row["place"]["name"], row["place"]["zone"]) == ("Ürümqi", "Asia/Urumqi"), row
    [theirs] = await export(standin, user_id=standin.user_id + 1)
    seen = {r["id"]: r["place"] for r in exported_rows(theirs)}
    assert case_id in seen and set(seen.values()) == {None}, seen
