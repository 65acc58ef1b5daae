"""The casebook, server settings, profiles and the buttons under a chart, end to end: the real bot
against the local Discord stand-in, restarted on the same database where it matters."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.core.words import Lang, text
from bot.store import open_store
from engine.school import School
from testkit.discord_standin import MEMBER_PERMISSIONS, Callback, DiscordStandIn, GuildSpec, snowflake
from tests.conftest import StartBot
from texts.words.explain import explain
from texts.words.schools import school_line

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo: 丁未日, 初伝 酉
MANAGE_GUILD = 1 << 5
ADMIN = MEMBER_PERMISSIONS | MANAGE_GUILD
ID = re.compile(r"(?:Case|課) ([0-9A-Z]{6})$")


def clock() -> datetime:
    return NOW


def case_id(callback: Callback) -> str:
    footer = callback.embeds[0]["footer"]["text"]
    found = ID.search(footer)
    assert found is not None, footer
    return found[1]


def custom_ids(callback: Callback) -> list[str]:
    return [c["custom_id"] for row in callback.data.get("components", []) for c in row["components"]]


def transmissions(callback: Callback) -> str:
    """The 三伝 as three branches, read from the reply's embeds."""
    heads = tuple(text("embed.transmissions", lang) for lang in ("ja", "en", "zh-TW", "zh-CN"))
    for embed in callback.embeds:
        for field in embed.get("fields", []):
            if field["name"].startswith(heads):
                return "".join(re.findall(r"\*\*(.)\*\*", field["value"])[:3])
    raise AssertionError("no 三伝 field in the reply")


def message_of(standin: DiscordStandIn, callback: Callback) -> dict[str, Any]:
    """The message a reply made (the stand-in answers callbacks without keeping them)."""
    return {
        "id": str(snowflake()), "channel_id": str(standin.guilds[0].channels[0].id), "type": 20,
        "content": "", "embeds": callback.embeds, "components": callback.data.get("components", []),
        "author": {"id": str(standin.bot_user_id), "username": "liuren", "discriminator": "0000",
                   "global_name": None, "avatar": None, "bot": True},
        "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "pinned": False,
        "flags": int(callback.data.get("flags", 0)), "webhook_id": str(standin.application_id),
        "application_id": str(standin.application_id),
    }


async def press(standin: DiscordStandIn, message: dict[str, Any], custom_id: str, **kwargs: Any) -> Callback:
    """Press the button `custom_id` of `message` (kwargs as for a slash command: user_id, guild_id …)."""
    payload = standin.interaction_payload("cast", {}, **kwargs)
    payload["type"] = 3
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    payload["message"] = message
    return await standin.interact(payload)


async def submit(standin: DiscordStandIn, custom_id: str, fields: dict[str, str], **kwargs: Any) -> Callback:
    payload = standin.interaction_payload("cast", {}, **kwargs)
    payload["type"] = 5
    payload["data"] = {"custom_id": custom_id, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]} for key, value in fields.items()
    ]}
    return await standin.interact(payload)


def ephemeral_text(callback: Callback) -> str:
    assert callback.type == 4 and callback.ephemeral, callback.body
    return str(callback.data.get("content") or json.dumps(callback.embeds, ensure_ascii=False))


def rows_of(db: Path, user: int) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {
            "cases": conn.execute("SELECT count(*) FROM cases WHERE author_id = ?", (user,)).fetchone()[0],
            "notes": conn.execute("SELECT count(*) FROM case_notes WHERE author_id = ?", (user,)).fetchone()[0],
            "profiles": conn.execute("SELECT count(*) FROM profiles WHERE user_id = ?", (user,)).fetchone()[0],
        }


# -- the casebook across a restart --------------------------------------------------------------


async def test_cast_history_note_restart_then_show_and_the_old_buttons_still_work(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    first = await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now", "question": "Will the book arrive?"}, locale="en-US")
    assert cast.type == 4 and not cast.ephemeral
    ident = case_id(cast)
    assert "《心印賦》" in cast.embeds[0]["footer"]["text"]
    assert custom_ids(cast) == [f"lr:c:{a}:{ident}" for a in ("why", "src", "prev", "next", "note")]
    labels = [c["label"] for row in cast.data["components"] for c in row["components"]]
    assert labels == ["Why", "Source", "Previous hour", "Next hour", "Note"]
    listed = await standin.slash("history", {}, locale="en-US")
    assert ident in ephemeral_text(listed) and "Will the book arrive?" in ephemeral_text(listed)
    noted = await standin.slash("case note", {"id": ident.lower(), "text": "It came on Tuesday."}, locale="en-US")
    assert ephemeral_text(noted) == text("case.note_added", "en", id=ident, number=1)
    old_reply = message_of(standin, cast)

    await first.close()
    await start_bot(clock=clock)  # the same database (LIUREN_DB), a new process state

    shown = await standin.slash("case show", {"id": ident}, locale="en-US")
    assert shown.type == 4 and not shown.ephemeral
    assert shown.embeds[0]["title"] == cast.embeds[0]["title"]
    assert transmissions(shown) == transmissions(cast)
    assert "Will the book arrive?" in shown.embeds[0]["description"]
    assert any("It came on Tuesday." in (e.get("description") or "") for e in shown.embeds)
    assert (await standin.picture(shown))["data"].startswith(b"\x89PNG")

    why = await press(standin, old_reply, f"lr:c:why:{ident}", locale="en-US")
    chart = engine.cast(NOW, "Asia/Tokyo")
    assert explain(chart.transmissions.trace[-1], "en") in ephemeral_text(why)
    source = await press(standin, old_reply, f"lr:c:src:{ident}", locale="en-US")
    assert "1/" in ephemeral_text(source) and source.embeds[0]["description"]
    following = await press(standin, old_reply, f"lr:c:next:{ident}", locale="en-US")
    assert following.type == 4 and not following.ephemeral
    assert "2026-11-29 16:00" in following.embeds[0]["description"]
    assert case_id(following) != ident
    earlier = await press(standin, old_reply, f"lr:c:prev:{ident}", locale="en-US")
    assert "2026-11-29 12:00" in earlier.embeds[0]["description"]
    # The author's note button opens a form; what is sent becomes note 2.
    form = await press(standin, old_reply, f"lr:c:note:{ident}", locale="en-US")
    assert form.type == 9 and form.data["custom_id"] == f"lr:n:{ident}"
    sent = await submit(standin, f"lr:n:{ident}", {"note": "Delivered by hand."}, locale="en-US")
    assert ephemeral_text(sent) == text("case.note_added", "en", id=ident, number=2)
    callbacks = [r for r in standin.requests if r.path == f"/interactions/{sent.interaction_id}/{sent.token}/callback"]
    assert len(callbacks) == 1  # answered once
    # Someone else may read the server's case but not take its author's note button.
    other = await press(standin, old_reply, f"lr:c:note:{ident}", user_id=snowflake(), locale="en-US")
    assert ephemeral_text(other) == text("case.author_only", "en", id=ident)
    history = await standin.slash("history", {"scope": "server"}, user_id=snowflake(), locale="en-US")
    assert ident in ephemeral_text(history)
    assert not standin.errors


async def test_history_pages_with_buttons_newest_first(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    ids = [case_id(await standin.slash("chart", {"day": "甲子", "yuejiang": "亥", "hour": h, "image": False}))
           for h in "子丑寅卯辰巳午未申酉戌亥"]
    page = await standin.slash("history", {}, locale="en-US")
    listing = page.embeds[0]["description"]
    assert listing.index(ids[-1]) < listing.index(ids[-2])  # newest first
    assert ids[0] not in listing and ids[1] not in listing  # 10 a page
    assert custom_ids(page) == ["lr:h:mine:1"]
    message = message_of(standin, page)
    older = await press(standin, message, "lr:h:mine:1", locale="en-US")
    assert older.type == 7  # the same message, edited
    assert ids[0] in older.data["embeds"][0]["description"] and ids[11] not in older.data["embeds"][0]["description"]
    assert [c["custom_id"] for row in older.data["components"] for c in row["components"]] == ["lr:h:mine:0"]


async def test_export_is_what_the_caller_may_see_as_json_and_csv(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    mine = case_id(await standin.slash("cast", {"when": "now", "image": False}))
    other_user = snowflake()
    public = case_id(await standin.slash("cast", {"when": "now", "image": False}, user_id=other_user))
    hidden = case_id(await standin.slash("cast", {"when": "now", "private": True, "image": False},
                                         user_id=other_user))
    await standin.slash("case note", {"id": mine, "text": "応験あり"})
    exported = await standin.slash("case export", {})
    assert exported.type == 5  # deferred: the files follow
    [followup] = await standin.followups(exported)
    files = {f["filename"]: f["data"] for f in followup.body["_files"]}
    rows = json.loads(files["liuren-cases.json"])
    assert {r["id"] for r in rows} == {mine, public}
    assert hidden not in files["liuren-cases.csv"].decode("utf-8-sig")
    [noted] = [r for r in rows if r["id"] == mine]
    assert noted["notes"][0]["text"] == "応験あり" and noted["school"]["fuyin_repeat_clash"] is False
    table = list(csv.DictReader(io.StringIO(files["liuren-cases.csv"].decode("utf-8-sig"))))
    assert {r["id"] for r in table} == {mine, public}


async def test_a_case_whose_stored_values_no_longer_decode_is_listed_and_exported_as_stored(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    ident = case_id(await standin.slash("cast", {"when": "now", "question": "Lost keys", "image": False}))
    await bot.store.driver.execute("UPDATE cases SET zone = ?, school = ? WHERE id = ?",
                                   ("Mars/Base", "{not json", ident))
    listed = ephemeral_text(await standin.slash("history", {}, locale="en-US"))
    assert ident in listed and "Mars/Base" in listed and "Lost keys" in listed
    exported = await standin.slash("case export", {})
    [followup] = await standin.followups(exported)
    files = {f["filename"]: f["data"] for f in followup.body["_files"]}
    [row] = json.loads(files["liuren-cases.json"])
    assert row["id"] == ident and row["zone"] == "Mars/Base" and row["school"] == "{not json"


# -- settings -------------------------------------------------------------------------------------


async def test_settings_school_changes_the_transmissions_and_a_case_keeps_its_options(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    chart = {"day": "丁卯", "yuejiang": "子", "hour": "子", "image": False}
    before = await standin.slash("chart", chart)
    assert transmissions(before) == "卯子卯"
    refused = await standin.slash("settings school", {"fuyin_repeat_clash": True})  # no Manage Server
    assert refused.ephemeral and transmissions(await standin.slash("chart", chart)) == "卯子卯"
    changed = await standin.slash("settings school", {"fuyin_repeat_clash": True}, member_permissions=ADMIN)
    assert text("settings.school.fuyin", "ja") in ephemeral_text(changed)
    after = await standin.slash("chart", chart)
    assert transmissions(after) == "卯子午"
    with_clash = engine.cast_classical("丁卯", "子", "子", school=School(fuyin_repeat_clash=True))
    assert "".join(str(step.branch) for step in with_clash.steps) == "卯子午"  # what the engine says
    await standin.slash("settings school", {"reset": True}, member_permissions=ADMIN)
    assert transmissions(await standin.slash("chart", chart)) == "卯子卯"
    # The case cast under the option is shown with it, not with today's defaults.
    assert transmissions(await standin.slash("case show", {"id": case_id(after)})) == "卯子午"
    shown = ephemeral_text(await standin.slash("settings show", {}, member_permissions=ADMIN))
    assert text("settings.school.day23", "ja") in shown


async def test_settings_language_and_image_apply_to_replies(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    plain = await standin.slash("cast", {"when": "now"}, locale="ja")
    assert await standin.picture(plain) and "課 " in plain.embeds[0]["footer"]["text"]
    await standin.slash("settings language", {"language": "en"}, member_permissions=ADMIN)
    await standin.slash("settings image", {"on": False}, member_permissions=ADMIN)
    english = await standin.slash("cast", {"when": "now"}, locale="ja")
    assert "Case " in english.embeds[0]["footer"]["text"] and not english.files
    assert custom_ids(english) and english.data["components"][0]["components"][0]["label"] == "Why"
    asked = await standin.slash("cast", {"when": "now", "image": True}, locale="ja")
    assert await standin.picture(asked)  # the command's own choice wins
    await standin.slash("settings language", {"language": "client"}, member_permissions=ADMIN)
    back = await standin.slash("cast", {"when": "now"}, locale="zh-TW")
    assert "課 " in back.embeds[0]["footer"]["text"]
    assert back.data["components"][0]["components"][2]["label"] == "前一時"
    # DMs know no server settings.
    dm = await standin.slash("cast", {"when": "now"}, guild_id=None, locale="en-US")
    assert await standin.picture(dm) and "Case " in dm.embeds[0]["footer"]["text"]
    assert not standin.edits(english)  # nor did a picture follow it


async def test_the_servers_language_is_every_commands_language(standin: DiscordStandIn, start_bot: StartBot) -> None:
    """docs/usage.md: replies follow the reader's Discord language unless the server set one; /help,
    /lookup and /quiz me included, not only the casts."""
    await start_bot(clock=clock)
    await standin.slash("settings language", {"language": "en"}, member_permissions=ADMIN)
    helped = await standin.slash("help", locale="ja")
    assert helped.embeds[0]["title"] == text("help.title", "en")
    looked = await standin.slash("lookup", {"term": "元首"}, locale="ja")
    assert looked.embeds[0]["title"] == text("embed.lookup_title", "en", term="元首")
    none = await standin.slash("lookup", {"term": "量子計算"}, locale="zh-TW")
    assert none.embeds[0]["description"] == text("embed.lookup_none", "en", term="量子計算")
    await standin.slash("settings language", {"language": "client"}, member_permissions=ADMIN)
    assert (await standin.slash("help", locale="zh-TW")).embeds[0]["title"] == text("help.title", "zh-TW")


# -- profile ------------------------------------------------------------------------------------


async def test_profile_decides_dragon_battle_with_the_walking_year(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    without = await standin.slash("cast", {"when": "now", "image": False})
    assert "龍戦" not in without.embeds[0]["title"]  # 初伝 酉 on a 未 day: 龍戦 needs 行年
    saved = await standin.slash("profile set", {"birth_year": 1961, "sex": "女"}, locale="en-US")
    assert ephemeral_text(saved) == text("profile.saved", "en", year=1961, sex=text("profile.female", "en"),
                                         zone=text("profile.no_zone", "en"))
    shown = await standin.slash("profile show", {}, locale="en-US")
    assert "1961" in ephemeral_text(shown)
    # Birth data is read only where its owner alone sees the chart (tests/test_privacy.py).
    with_profile = await standin.slash("cast", {"when": "now", "image": False, "private": True})
    assert "龍戦" in with_profile.embeds[0]["title"]  # 行年 卯
    # The case keeps the birth data it was cast with.
    again = await standin.slash("case show", {"id": case_id(with_profile)})
    assert "龍戦" in again.embeds[0]["title"]
    # A profile zone is the caller's default.
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女", "zone": "Europe/London"})
    london = await standin.slash("cast", {"when": "now", "image": False}, locale="en-US")
    assert "Europe/London" in london.embeds[0]["description"] and "2026-11-29 05:00" in london.embeds[0]["description"]


async def test_profile_delete_leaves_no_row_of_the_user(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    user = standin.user_id
    someone = snowflake()
    await standin.slash("profile set", {"birth_year": 1990, "sex": "男"})
    mine = case_id(await standin.slash("cast", {"when": "now", "image": False}))
    theirs = case_id(await standin.slash("cast", {"when": "now", "image": False}, user_id=someone))
    await standin.slash("case note", {"id": mine, "text": "mine"})
    # Only a case's author writes notes on it, by the button or by /case note.
    refused = await standin.slash("case note", {"id": theirs, "text": "my note on their case"}, locale="en-US")
    assert ephemeral_text(refused) == text("case.author_only", "en", id=theirs)
    await standin.slash("case note", {"id": theirs, "text": "their own note"}, user_id=someone)
    assert rows_of(db_path, user) == {"cases": 1, "notes": 1, "profiles": 1}
    deleted = await standin.slash("profile delete", {}, locale="en-US")
    assert ephemeral_text(deleted) == text("profile.deleted", "en", count=1)
    assert rows_of(db_path, user) == {"cases": 1, "notes": 1, "profiles": 0}  # cases only once confirmed
    [button] = custom_ids(deleted)
    stranger = await press(standin, message_of(standin, deleted), button, user_id=someone)
    assert stranger.ephemeral and rows_of(db_path, user)["cases"] == 1
    confirmed = await press(standin, message_of(standin, deleted), button, locale="en-US")
    assert confirmed.type == 7 and confirmed.data["content"] == text("profile.cases_deleted", "en", count=1)
    assert rows_of(db_path, user) == {"cases": 0, "notes": 0, "profiles": 0}
    with sqlite3.connect(db_path) as conn:
        left = conn.execute("SELECT case_id, author_id FROM case_notes").fetchall()
        assert left == [(theirs, someone)]  # their note on their own case stays
        assert conn.execute("SELECT count(*) FROM cases WHERE id = ?", (theirs,)).fetchone()[0] == 1


# -- refusals -------------------------------------------------------------------------------------


async def test_bad_input_is_refused_clearly_and_changes_nothing(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    second = GuildSpec(name="another group")
    standin.guilds.append(second)
    await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now", "image": False}, locale="en-US")
    ident = case_id(cast)
    user = snowflake()
    cases = {
        "unknown": (await standin.slash("case show", {"id": "ZZZZZZ"}, locale="en-US"),
                    text("case.not_found", "en", id="ZZZZZZ")),
        "not an id": (await standin.slash("case show", {"id": "@everyone <b>" * 5}, locale="en-US"),
                      "is not a case id"),
        "other server": (await standin.slash("case show", {"id": ident}, guild_id=second.id, user_id=user,
                                             locale="en-US"), text("case.not_found", "en", id=ident)),
        "dm of another": (await standin.slash("case note", {"id": ident, "text": "x"}, guild_id=None, user_id=user,
                                              locale="en-US"), text("case.not_found", "en", id=ident)),
        "long note": (await standin.slash("case note", {"id": ident, "text": "x" * 1001}, locale="en-US"),
                      text("case.note_too_long", "en", count="1,001")),
        "not my note": (await standin.slash("case note", {"id": ident, "text": "y", "edit": 1}, locale="en-US"),
                        text("case.note_not_yours", "en", id=ident, number=1)),
        "birth year": (await standin.slash("profile set", {"birth_year": 1899, "sex": "男"}, locale="en-US"),
                       text("profile.bad_year", "en", year="1899")),
        "delete another's": (await standin.slash("case delete", {"id": ident}, user_id=user, locale="en-US"),
                             text("case.author_only", "en", id=ident)),
        "server history in a DM": (await standin.slash("history", {"scope": "server"}, guild_id=None, locale="en-US"),
                                   text("history.server_only", "en")),
    }
    for name, (callback, expected) in cases.items():
        assert expected in ephemeral_text(callback), name
    echoed = ephemeral_text(cases["not an id"][0])
    assert "@everyone" not in echoed and len(echoed) < 120
    assert rows_of(db_path, standin.user_id) == {"cases": 1, "notes": 0, "profiles": 0}
    # A button on a case since deleted says so, and nothing is cast.
    deleted = await standin.slash("case delete", {"id": ident}, locale="en-US")
    assert ephemeral_text(deleted) == text("case.deleted", "en", id=ident)
    for action in ("why", "src", "next", "note"):
        pressed = await press(standin, message_of(standin, cast), f"lr:c:{action}:{ident}", locale="en-US")
        assert ephemeral_text(pressed) == text("case.not_found", "en", id=ident), action
    assert rows_of(db_path, standin.user_id)["cases"] == 0


async def test_a_private_cast_is_its_authors_only(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    secret = await standin.slash("cast", {"when": "now", "private": True, "image": False}, locale="en-US")
    assert secret.ephemeral
    ident = case_id(secret)
    stranger = snowflake()
    for action in ("why", "next"):
        pressed = await press(standin, message_of(standin, secret), f"lr:c:{action}:{ident}", user_id=stranger,
                              locale="en-US")
        assert ephemeral_text(pressed) == text("case.not_found", "en", id=ident)
    hidden = await standin.slash("case show", {"id": ident}, user_id=stranger, locale="en-US")
    assert ephemeral_text(hidden) == text("case.not_found", "en", id=ident)
    assert ident not in ephemeral_text(await standin.slash("history", {"scope": "server"}, user_id=stranger))
    mine = await standin.slash("case show", {"id": ident}, locale="en-US")
    assert mine.ephemeral and case_id(mine) == ident
    following = await press(standin, message_of(standin, secret), f"lr:c:next:{ident}", locale="en-US")
    assert following.ephemeral  # a private case's neighbour stays private


async def test_the_new_commands_can_be_installed_by_users_and_used_in_dms(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    names = {c["name"]: c for c in standin.global_commands}
    for name in ("cast", "chart", "lookup", "profile", "history", "case"):
        assert sorted(names[name]["contexts"]) == [0, 1, 2], name
        assert sorted(names[name]["integration_types"]) == [0, 1], name
    assert names["settings"].get("dm_permission") is False or names["settings"]["contexts"] == [0]  # servers only

    def strings(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found = []
        for option in options:
            if option["type"] in (1, 2):
                found += strings(option.get("options", []))
            elif option["type"] == 3 and not option.get("choices"):
                found.append(option)
        return found

    for name in ("case", "history", "profile", "settings"):
        for option in strings(names[name].get("options", [])):
            assert option.get("max_length") or option.get("autocomplete"), (name, option["name"])
    dm = await standin.slash("cast", {"when": "now", "image": False}, guild_id=None)
    ident = case_id(dm)
    listed = await standin.slash("history", {}, guild_id=None)
    assert ident in ephemeral_text(listed)


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_the_new_words_have_no_kana_outside_japanese(lang: Lang) -> None:
    from bot.core.words import TEXTS

    kana = re.compile(r"[\u3040-\u30ff]")
    keys = [k for k in TEXTS if k.split(".")[0] in ("case", "history", "profile", "button", "settings")]
    assert len(keys) > 80
    assert not [k for k in keys if kana.search(TEXTS[k][lang])]


# -- the daily post ---------------------------------------------------------------------------


async def test_the_daily_post_follows_the_server_settings(standin: DiscordStandIn, tmp_path: Path) -> None:
    from testkit.daily_harness import Clock, Harness, utc

    h = Harness(standin, tmp_path / "daily.sqlite3", Clock(utc(2026, 5, 1, 23, 0)))
    try:
        await h.start()
        channel = h.channel()
        await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
        await h.slash("settings language", {"language": "en"})
        await h.slash("settings image", {"on": False})
        await h.slash("settings school", {"noble_table": "甲羊"})
        await h.tick(utc(2026, 5, 2, 0, 0))  # 09:00 in Tokyo, a 丙子 day: 貴人 亥 (甲牛) or 酉 (甲羊)
        # In English the post may go on in a second message (the project's English under each line).
        post, *more = h.posts(channel)
        assert all(not m["content"] for m in more)
        at = utc(2026, 5, 2, 0, 0)
        chosen = engine.cast(at, "Asia/Tokyo", school=School(noble_table="甲羊")).generals.noble
        assert chosen != engine.cast(at, "Asia/Tokyo").generals.noble
        description = post["embeds"][0]["description"]
        assert f"貴人 {chosen}（day" in description  # the school, in English
        assert school_line(School(noble_table="甲羊"), "en") in description  # and named
        sent, *_ = [r.body for r in standin.requests_to("POST", f"/channels/{channel}/messages") if r.status == 200]
        assert not sent.get("_files") and "image" not in sent["embeds"][0]  # no picture
    finally:
        await h.stop()


async def test_the_casebook_survives_a_restart_on_postgresql(
    standin: DiscordStandIn, start_bot: StartBot, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIUREN_DB", postgres_url)
    first = await start_bot(clock=clock)
    await standin.slash("settings school", {"fuyin_repeat_clash": True}, member_permissions=ADMIN)
    cast = await standin.slash("chart", {"day": "丁卯", "yuejiang": "子", "hour": "子", "image": False})
    ident = case_id(cast)
    await standin.slash("case note", {"id": ident, "text": "as the chart said"})
    await first.close()
    await start_bot(clock=clock)
    await standin.slash("settings school", {"reset": True}, member_permissions=ADMIN)
    shown = await standin.slash("case show", {"id": ident})
    assert transmissions(shown) == "卯子午"
    assert any("as the chart said" in (e.get("description") or "") for e in shown.embeds)
    why = await press(standin, message_of(standin, cast), f"lr:c:why:{ident}", locale="en-US")
    assert explain(engine.cast_classical("丁卯", "子", "子", school=School(fuyin_repeat_clash=True))
                   .transmissions.trace[-1], "en") in ephemeral_text(why)


async def test_a_note_form_opened_before_a_restart_is_saved_after_it(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    first = await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now", "image": False}, locale="en-US")
    ident = case_id(cast)
    form = await press(standin, message_of(standin, cast), f"lr:c:note:{ident}", locale="en-US")
    assert form.type == 9
    fields = [c for row in form.data["components"] for c in row.get("components", [row.get("component")])]
    assert [(f["custom_id"], f["max_length"]) for f in fields] == [("note", 1000)]
    await first.close()
    await start_bot(clock=clock)
    sent = await submit(standin, f"lr:n:{ident}", {"note": "Saved across the restart."}, locale="en-US")
    assert ephemeral_text(sent) == text("case.note_added", "en", id=ident, number=1)
    answers = [r for r in standin.requests if r.path == f"/interactions/{sent.interaction_id}/{sent.token}/callback"]
    assert len(answers) == 1  # answered once, not also by a form kept in memory
    too_long = await submit(standin, f"lr:n:{ident}", {"note": "x" * 1001}, locale="en-US")
    assert ephemeral_text(too_long) == text("case.note_too_long", "en", count="1,001")
    store = await open_store(db_path)  # the note's text is sealed: read as the store reads it
    try:
        assert [n.body for n in await store.case_notes([ident])] == ["Saved across the restart."]
    finally:
        await store.close()


async def test_only_a_form_submission_schedules_the_casebook_listener(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The note forms are answered by a listener of ``form_submit`` (bot.core.host), so a
    /cast or a button schedules no listener task of its own; a form still reaches it."""
    bot = await start_bot(clock=clock)
    scheduled: list[str] = []
    schedule = bot._schedule_event

    def counted(coro: Any, event_name: str, *args: Any, **kwargs: Any) -> Any:
        scheduled.append(event_name)
        return schedule(coro, event_name, *args, **kwargs)

    monkeypatch.setattr(bot, "_schedule_event", counted)
    cast = await standin.slash("cast", {"when": "now", "image": False}, locale="en-US")
    ident = case_id(cast)
    await press(standin, message_of(standin, cast), f"lr:c:why:{ident}", locale="en-US")
    assert "on_interaction" not in scheduled and "on_form_submit" not in scheduled, scheduled
    sent = await submit(standin, f"lr:n:{ident}", {"note": "Through the form event."}, locale="en-US")
    assert ephemeral_text(sent) == text("case.note_added", "en", id=ident, number=1)
    assert scheduled.count("on_form_submit") == 1, scheduled
