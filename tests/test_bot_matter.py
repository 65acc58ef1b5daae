"""The matter asked in the bot: /cast and /chart take ``question`` and ``matter``;
the matter section is the first thing after the chart's header and says which words decided it;
``matter:`` overrides; the casebook stores and shows it; the picture marks the 類神' cells; the
daily post keeps the general reading. The real bot against the local Discord stand-in."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

import engine
from bot.core import words as i18n
from bot.core.options import MATTER_CHOICES
from bot.daily.compose import compose
from bot.reply.chart import chart_reply
from bot.reply.limits import EMBED_TOTAL_MAX, group_messages
from bot.store import GuildOptions, NewCase, open_store
from engine import calendar
from engine.school import School
from engine.symbols import BRANCHES, PILLARS
from engine.terms import General
from testkit.discord_standin import Callback, DiscordStandIn, message_errors
from tests.conftest import StartBot
from tests.test_bot_counts import Counts
from tests.test_casebook_e2e import case_id, message_of, press
from tests.test_embeds import assert_within_limits
from texts.corpus import corpus
from texts.corpus.scripts import foreign
from texts.corpus.shown import unit_lines
from texts.matters.recognise import GENERAL, MATTERS, Matter
from texts.picture.draw import draw
from texts.picture.glyphs import measure
from texts.picture.layout import layout
from texts.picture.shapes import CELL, MARGIN, RING_ROWS, Box
from texts.words import LANGS
from texts.words.schools import school_line

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo
WALLET = "財布をなくしました。見つかりますか？"
SPEC = Path("/work/shared/discord-api-spec/openapi.json")
KANA = re.compile(r"[\u3040-\u30ff]")
QUOTED = re.compile(r"「[^」]*」")


def clock() -> datetime:
    return NOW


def fields(callback: Callback) -> list[dict[str, str]]:
    return [f for e in callback.embeds for f in e.get("fields", [])]


def name_of(matter: Matter, lang: i18n.Lang) -> str:
    return i18n.word(f"term.Matter.{matter.value}", lang)


# -- the command's options, as Discord's own spec allows them ------------------------------------


def _check(value: Any, schema: dict[str, Any], spec: dict[str, Any], where: str) -> list[str]:
    """What of ``value`` breaks ``schema`` (the keywords Discord's spec uses on command options)."""
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    problems: list[str] = []
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", 1 << 30) or len(value) < schema.get("minLength", 0):
            problems.append(f"{where}: {len(value)} characters")
    elif isinstance(value, list):
        if len(value) > schema.get("maxItems", 1 << 30):
            problems.append(f"{where}: {len(value)} items")
        for i, item in enumerate(value):
            problems += _check(item, schema.get("items", {}), spec, f"{where}[{i}]")
    elif isinstance(value, dict):
        if len(value) > schema.get("maxProperties", 1 << 30):
            problems.append(f"{where}: {len(value)} properties")
        properties = schema.get("properties", {})
        for key, item in value.items():
            sub = properties.get(key, schema.get("additionalProperties"))
            if isinstance(sub, dict):
                problems += _check(item, sub, spec, f"{where}.{key}")
    return problems


async def test_cast_and_chart_offer_the_fifteen_matters_and_general_within_discords_spec(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    spec = json.loads(SPEC.read_text())
    commands = {c["name"]: c for c in standin.global_commands}
    for command in ("cast", "chart"):
        options = {o["name"]: o for o in commands[command]["options"]}
        assert {"question", "matter"} <= set(options)
        matter = options["matter"]
        assert [c["value"] for c in matter["choices"]] == [m.value for m in MATTERS] + [GENERAL]
        assert matter["choices"][8]["name"] == name_of(Matter.lost, "en")
        assert matter["choices"][8]["name_localizations"]["ja"] == name_of(Matter.lost, "ja")
        assert matter["choices"][8]["name_localizations"]["zh-CN"] == name_of(Matter.lost, "zh-CN")
        assert matter["description_localizations"]["ja"] == i18n.text("cast.matter.description", "ja")
        for option in (matter, options["question"]):
            assert not _check(option, {"$ref": "#/components/schemas/ApplicationCommandStringOption"}, spec, command)
    assert len(MATTER_CHOICES) == 16


# -- the matter section first, and the words that decided it ---------------------------------------


async def test_a_lost_wallet_reads_the_lost_matter_first_with_its_words(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"question": WALLET})
    assert not message_errors(callback.data)
    first, second = fields(callback)[:2]
    assert first["name"] == f"{i18n.word('matter.title', 'ja')} — 占事 {name_of(Matter.lost, 'ja')}"
    assert "「なくし」" in first["value"] and i18n.text("embed.matter_hint", "ja") in first["value"]
    assert second["name"] == "類神1 玄武" and "¶123" in second["value"]
    # The 類神's opening is quoted (original, then the seed's Japanese), and only once in the reply.
    values = [f["value"] for f in fields(callback)]
    assert sum(v.startswith("玄武遺亡陰賊走失。") for v in values) == 1
    # The chart's own fields come after the section.
    names = [f["name"] for f in fields(callback)]
    assert names.index(i18n.text("embed.lessons", "ja")) > 2


async def test_matter_overrides_the_words_and_general_reads_none(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    chosen = await standin.slash("cast", {"question": WALLET, "matter": "wealth"})
    first = fields(chosen)[0]
    assert first["name"].endswith(name_of(Matter.wealth, "ja"))
    assert first["value"] == i18n.word("matter.chosen", "ja")  # chosen, not read from the words
    assert not any(name_of(Matter.lost, "ja") in f["name"] for f in fields(chosen))
    general = await standin.slash("cast", {"question": WALLET, "matter": "general"})
    assert fields(general)[0]["name"] == i18n.text("embed.lessons", "ja")
    assert i18n.word("matter.none", "ja", option="`matter:`") not in general.embeds[0]["description"]


async def test_a_question_that_names_no_matter_says_so(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"question": "今日の運勢は"}, locale="zh-TW")
    assert fields(callback)[0]["name"] == i18n.text("embed.lessons", "zh-TW")
    assert i18n.word("matter.none", "zh-TW", option="`matter:`") in callback.embeds[0]["description"]


async def test_a_bad_matter_value_is_refused_and_nothing_is_recorded(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    callback = await standin.slash("cast", {"matter": "weather"}, locale="en-US")
    assert callback.ephemeral and not callback.embeds
    assert not await bot.store.cases_by_author(standin.user_id, 0, 10)


async def test_an_english_client_reads_the_matter_in_english(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"question": "I lost my wallet. Will I find it?"}, locale="en-US")
    first = fields(callback)[0]
    assert first["name"].endswith(name_of(Matter.lost, "en")) and "「lost」" in first["value"]
    section = [f for f in fields(callback) if not f["name"].startswith(i18n.text("embed.lessons", "en"))]
    opening = next(f for f in section if f["value"].startswith("玄武遺亡陰賊走失"))
    lines = opening["value"].split("\n")
    english = i18n.word("translation.label_en", "en")
    japanese = i18n.word("translation.label_ja", "en")
    assert lines[0] == "玄武遺亡陰賊走失。" and english in lines[1]
    assert any(japanese in line for line in lines[2:])
    # No kana outside the seed's Japanese: labelled as the seed's, or quoted in 「」 as a ground.
    for embed in callback.embeds:
        for f in embed.get("fields", []):
            for line in f["value"].split("\n"):
                assert japanese in line or not KANA.search(QUOTED.sub("", line)), (f["name"], line)


async def test_chart_takes_question_and_matter(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": "辛巳", "yuejiang": "戌", "hour": "巳", "matter": "lost",
                                             "image": False})
    assert fields(callback)[0]["name"].endswith(name_of(Matter.lost, "ja"))
    assert fields(callback)[1]["name"] == "類神1 玄武"


async def test_one_cast_one_options_read_one_zone_parse_with_a_question(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_bot(clock=clock)
    await bot.store.set_guild_options(standin.guilds[0].id, GuildOptions(timezone=calendar.zone("Asia/Tokyo")))
    counts = Counts(monkeypatch)
    counts.store(bot.store)
    callback = await standin.slash("cast", {"question": WALLET})
    assert await standin.picture(callback) and fields(callback)[1]["name"] == "類神1 玄武"
    assert counts.seen == {"cast": 1, "options": 1, "zone": 1}, counts.seen


# -- the casebook ------------------------------------------------------------------------------------


async def test_case_show_and_history_show_the_matter(standin: DiscordStandIn, start_bot: StartBot) -> None:
    bot = await start_bot(clock=clock)
    cast = await standin.slash("cast", {"question": WALLET, "matter": "wealth", "image": False})
    shown_id = case_id(cast)
    stored = await bot.store.case(shown_id)
    assert stored is not None and stored.matter == "wealth" and stored.question == WALLET
    shown = await standin.slash("case show", {"id": shown_id})
    assert [f["name"] for f in fields(shown)][:3] == [f["name"] for f in fields(cast)][:3]
    assert fields(shown)[0]["name"].endswith(name_of(Matter.wealth, "ja"))
    history = await standin.slash("history", {})
    assert f"〔{i18n.text('history.matter', 'ja')} {name_of(Matter.wealth, 'ja')}〕" in history.embeds[0]["description"]
    # A case read from the question shows the matter its words name.
    recognised = await standin.slash("cast", {"question": WALLET, "image": False})
    again = await standin.slash("case show", {"id": case_id(recognised)}, locale="en-US")
    assert fields(again)[0]["name"].endswith(name_of(Matter.lost, "en"))


async def test_the_source_button_quotes_the_matters_lines_first(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    cast = await standin.slash("cast", {"question": WALLET, "image": False}, locale="en-US")
    page = await press(standin, message_of(standin, cast), f"lr:c:src:{case_id(cast)}", locale="en-US")
    body = page.embeds[0]["description"]
    assert body.startswith("**general.玄武**\n玄武遺亡陰賊走失。")
    assert f"> {i18n.word('translation.label_en', 'en')}" in body  # the project's English, labelled


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_the_store_keeps_a_cases_matter(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    where = request.getfixturevalue("postgres_url") if backend == "postgres" else str(tmp_path / "m.sqlite3")
    store = await open_store(where)
    try:
        base = NewCase(guild_id=1, channel_id=2, author_id=3, private=False, instant=None, zone=None, day="辛巳",
                       yuejiang="戌", hour="巳", school=School(), question=WALLET, birth_year=None,
                       sex=None, created_at=1)
        chosen = await store.add_case(replace(base, matter="lost"))
        recognised = await store.add_case(base)
        assert chosen.matter == "lost" and recognised.matter is None
        again = await store.case(chosen.id)
        assert again is not None and again.matter == "lost"
        assert [c.matter for c in await store.cases_by_author(3, 0, 10)] == [None, "lost"]
    finally:
        await store.close()


# -- the picture marks the 類神's cells ------------------------------------------------------------


def test_the_picture_outlines_the_cells_of_the_spirits_only() -> None:
    chart = engine.cast_classical("辛巳", "戌", "巳")
    plain = layout(chart, "ja", measure)
    marked = layout(chart, "ja", measure, highlight=frozenset({General.玄武}))
    outlines = [i for i in marked.items if isinstance(i, Box) and i.outline == "spirit"]
    assert not [i for i in plain.items if isinstance(i, Box) and i.outline == "spirit"]
    [box] = outlines[:1]
    ground = chart.generals.ground_of(General.玄武)
    row = next(r for r, places in enumerate(RING_ROWS) if str(ground) in places)
    column = RING_ROWS[row].index(str(ground))
    assert box.x0 == MARGIN + column * CELL + 2
    assert any(getattr(i, "text", None) == i18n.word("matter.picture_tag", "ja") for i in marked.items)
    assert marked.height >= plain.height


async def test_the_cast_picture_marks_the_spirits(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    plain = await standin.slash("cast", {"when": "now"})
    asked = await standin.slash("cast", {"question": WALLET})
    # Each picture with its reply or, drawn after the text went out, by the edit that followed it.
    a = Image.open(io.BytesIO((await standin.picture(plain))["data"])).convert("RGB")
    b = Image.open(io.BytesIO((await standin.picture(asked))["data"])).convert("RGB")
    assert a.tobytes() != b.tobytes()
    reply = chart_reply(engine.cast(NOW, "Asia/Tokyo"), question=WALLET)
    assert General.玄武 in reply.spirits


def test_the_daily_post_keeps_the_general_reading() -> None:
    post = compose(NOW, ZoneInfo("Asia/Tokyo"), "ja")
    first = post.messages[0][0].to_dict()["fields"][0]
    assert first["name"] == i18n.text("embed.lessons", "ja")


def test_every_choice_is_named_in_every_language_within_100_characters() -> None:
    for choice in MATTER_CHOICES:
        assert len(choice.name_localizations) == len(LANGS) - 1  # English is the base name
        assert all(1 <= len(n) <= 100 for n in (choice.name, *choice.name_localizations.values()))


# -- phase 2: the school line, and the project's English under each quoted line -------------------


async def test_every_chart_reply_names_the_servers_school_options(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    school = School(noble_table="甲羊")
    await bot.store.set_guild_options(standin.guilds[0].id, GuildOptions(school=school))
    line = school_line(school, "en")
    assert line is not None
    cast = await standin.slash("cast", {"question": WALLET, "image": False}, locale="en-US")
    chart = await standin.slash("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午", "image": False},
                                locale="en-US")
    for reply in (cast, chart):
        assert line in reply.embeds[0]["description"]
    plain = await standin.slash("cast", {"image": False}, guild_id=None)  # a DM: the defaults, no line
    assert i18n.word("school.line", "ja").split("{")[0] not in plain.embeds[0]["description"]


def test_the_daily_post_in_english_quotes_the_projects_english_labelled() -> None:
    post = compose(NOW, ZoneInfo("Asia/Tokyo"), "en-US", school=School(noble_table="甲羊"))
    first = post.messages[0][0].to_dict()
    assert school_line(School(noble_table="甲羊"), "en") in first["description"]
    values = [f["value"] for m in post.messages for e in m for f in e.to_dict().get("fields", [])]
    english = i18n.word("translation.label_en", "en")
    japanese = i18n.word("translation.label_ja", "en")
    quoted = [v for v in values if english in v]
    assert quoted and all(v.index(english) < v.index(japanese) for v in quoted if japanese in v)


async def test_lookup_in_english_shows_the_projects_english_then_the_seeds(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("lookup", {"term": "元首"}, locale="en-US")
    unit = corpus().search("元首")[0]
    first = fields(callback)[0]["value"].split("\n")
    assert first == [line.strip() for line in unit_lines(unit, "en")]
    assert first[0] == unit.original.strip() and i18n.word("translation.label_en", "en") in first[1]


def test_every_matter_in_every_language_fits_discords_limits_and_quotes_each_line_once() -> None:
    """15 matters and general × 4 languages over charts spread across the 720: every embed within
    Discord's limits, the messages within theirs, and no line of the seed quoted twice in a reply."""
    charts = [engine.cast_classical(p, BRANCHES[(i * 5) % 12], BRANCHES[(i * 7) % 12])
              for i, p in enumerate(PILLARS[::6])]
    originals = {u.original.strip(): u.id for u in corpus().units if u.original.strip()}
    seen = 0
    for chart in charts:
        for matter in (*MATTERS, GENERAL):
            for lang in LANGS:
                embeds = chart_reply(chart, locale=lang, matter=matter).embeds
                assert_within_limits(embeds)
                assert all(sum(len(e) for e in m) <= EMBED_TOTAL_MAX for m in group_messages(embeds))
                first_lines = [f["value"].split("\n")[0] for e in embeds for f in e.to_dict().get("fields", [])]
                quoted = [originals[line] for line in first_lines if line in originals]
                assert len(quoted) == len(set(quoted)), (str(chart.day), matter, lang)
                seen += len(quoted)
    assert seen > 10 * 16 * 4 * 5  # the check reads the quotations (a handful per reply at least)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pictures_alt_text_says_first_which_cells_are_outlined(lang: i18n.Lang) -> None:
    chart = engine.cast_classical("辛巳", "戌", "巳")
    plain = draw(chart, lang=lang)
    marked = draw(chart, lang=lang, highlight=frozenset({General.玄武}))
    head = i18n.word("matter.alt_spirits", lang).split("{")[0]
    assert marked.alt.startswith(head) and not plain.alt.startswith(head)
    assert marked.alt.endswith(plain.alt) and len(marked.alt) <= 1024
    ground = chart.generals.ground_of(General.玄武)
    assert i18n.word("picture.alt_cell", lang, ground=ground, heaven=chart.plate.up(ground),
                     general=i18n.word("term.General.玄武", lang)) in marked.alt
    if lang != "ja":
        assert not foreign(marked.alt.split(plain.alt[:20])[0], lang)  # the reader's script
