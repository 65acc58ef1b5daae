"""build_embeds and the bot's languages: content, Discord's limits, nothing lost, nothing made up."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest

import engine
from bot.core import words as i18n
from bot.reply.chart import build_embeds
from bot.reply.limits import (
    DESCRIPTION_MAX,
    EMBED_TOTAL_MAX,
    EMBEDS_PER_MESSAGE,
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    FIELDS_MAX,
    TITLE_MAX,
    group_messages,
    split_lines,
)
from bot.reply.lookup import build_lookup_embeds
from engine.symbols import BRANCHES, PILLARS, Branch
from engine.terms import General, Position, Role
from texts.corpus import Unit
from texts.corpus.shown import unit_lines
from texts.reading import Entry, Note, Reading, Section, read
from texts.reading.sentences import notes


def unit(unit_id: str, original: str, translation: str, lines: tuple[int, ...] = (1, 2)) -> Unit:
    """A unit like the corpus's, with made-up text: for checking limits and layout, never shown to users."""
    return Unit(unit_id, "method", original, translation, lines, (unit_id,))


def reading_of(chart: engine.Chart, *entries: Entry) -> Reading:
    """A reading of ``chart`` with the given entries (the real one's chart, facts and 課体)."""
    real = read(chart)
    return Reading(real.chart, real.facts, real.patterns, entries)


SEED_CHART = engine.cast_classical("甲子", "亥", "午")  # the seed's example plate (¶45)


def dicts(embeds: Sequence[discord.Embed]) -> list[dict[str, Any]]:
    return [dict(e.to_dict()) for e in embeds]


def assert_within_limits(embeds: Sequence[discord.Embed]) -> None:
    for embed in embeds:
        d = embed.to_dict()
        assert len(d.get("title", "")) <= TITLE_MAX
        assert len(d.get("description", "")) <= DESCRIPTION_MAX
        fields = d.get("fields", [])
        assert len(fields) <= FIELDS_MAX
        for f in fields:
            assert 1 <= len(f["name"]) <= FIELD_NAME_MAX
            assert 1 <= len(f["value"]) <= FIELD_VALUE_MAX
        assert len(d.get("footer", {}).get("text", "")) <= 2048
        assert len(embed) <= EMBED_TOTAL_MAX
    for message in group_messages(embeds):
        assert 1 <= len(message) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in message) <= EMBED_TOTAL_MAX


def field_text(embeds: Sequence[discord.Embed]) -> str:
    return "\n".join(f["value"] for d in dicts(embeds) for f in d.get("fields", []))


def test_title_is_the_method_name_the_engine_gives() -> None:
    embeds = build_embeds(SEED_CHART, None)
    assert embeds[0].title == SEED_CHART.transmissions.name


def test_title_adds_patterns_without_repeating_the_method() -> None:
    chart = engine.cast_classical("丁卯", "子", "子")  # 伏吟・自信 with 三交, 龍戦, 励徳
    title = build_embeds(chart, read(chart))[0].title
    assert title is not None
    assert title.startswith("伏吟・自信 ｜ ") and title.count("自信") == 1 and title.count("伏吟") == 1
    assert "三交" in title and "龍戦" in title


def test_english_title_carries_glosses() -> None:
    chart = engine.cast_classical("丁卯", "子", "子")
    title = build_embeds(chart, read(chart), locale="en-US")[0].title
    assert title is not None
    assert i18n.GLOSSES["自信"] in title and i18n.GLOSSES["三交"] in title


@pytest.mark.parametrize(("locale", "name"), [("zh-TW", "八專"), ("zh-CN", "八专")])
def test_chinese_titles_write_the_name_in_their_script(locale: str, name: str) -> None:
    chart = engine.cast_classical("丁未", "寅", "未")  # 八専・知一
    title = build_embeds(chart, read(chart), locale=locale)[0].title or ""
    assert title.startswith(name) and "専" not in title


def test_moment_zone_pillars_and_yuejiang_are_shown() -> None:
    zone = ZoneInfo("America/New_York")
    chart = engine.cast(datetime(2026, 11, 29, 14, 0, tzinfo=zone))
    assert chart.moment is not None
    description = build_embeds(chart, None, zone_note="server")[0].description or ""
    assert "America/New_York" in description
    assert "server" in description
    assert "2026-11-29 14:00" in description
    for pillar in (chart.moment.year, chart.moment.month, chart.moment.day, chart.moment.hour):
        assert str(pillar) in description
    assert f"月将 **{chart.yuejiang}**" in description


def test_lessons_transmissions_and_plate_fields() -> None:
    embeds = build_embeds(SEED_CHART, None)
    fields = dicts(embeds)[0]["fields"]
    names = [f["name"] for f in fields]
    assert names[0] == "四課"
    assert names[1].startswith("三伝")
    assert names[2].startswith("天地盤")
    lessons, transmissions, plate = (f["value"] for f in fields[:3])
    assert lessons.startswith("```") and plate.startswith("```") and plate.endswith("```")
    for lesson in SEED_CHART.lessons:
        assert str(lesson.upper) in lessons
    rows = transmissions.split("\n")
    assert len(rows) == 3
    for row, step in zip(rows, SEED_CHART.steps, strict=True):
        assert row.startswith(f"{step.position} **{step.branch}**")
        assert str(step.general) in row and str(step.kin) in row
        if step.hidden_stem is not None:
            assert f"遁干 {step.hidden_stem}" in row
        assert ("空亡" in row) == step.void
    # The plate shows each 天盤 branch in its 地盤 cell: the seed's 亥 over 午 (¶45).
    assert "亥" in plate and plate.count("\n") == 5


def test_void_mark_appears_exactly_on_void_transmissions() -> None:
    seen_void = 0
    for day, yj in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 7):
        chart = engine.cast_classical(day, yj, BRANCHES[0])
        rows = dicts(build_embeds(chart, None))[0]["fields"][1]["value"].split("\n")
        for row, step in zip(rows, chart.steps, strict=True):
            assert ("〔空亡〕" in row) == step.void
            seen_void += step.void
    assert seen_void > 0


def test_classical_chart_says_it_has_no_moment() -> None:
    description = build_embeds(SEED_CHART, None)[0].description or ""
    assert i18n.text("embed.classical", "ja") in description
    assert "日 **甲子**" in description and "時 **午**" in description and "月将 **亥**" in description


def test_source_in_the_footer_and_question_in_the_description() -> None:
    embeds = build_embeds(SEED_CHART, None, question="転職はどうか")
    d = dicts(embeds)[0]
    assert "《大六壬指南》巻一《心印賦》" in d["footer"]["text"]
    assert "転職はどうか" in d["description"]


READING = reading_of(
    SEED_CHART,
    Entry(
        Section.取法,
        Role.課法,
        None,
        unit("method.x", "若四課中並無下克。", "もし四課の中に下賊がなければ。"),
        (Note("method", (("method", SEED_CHART.transmissions.method),)),),
    ),
    Entry(Section.中末, Role.所臨, Position.中伝, None, (Note("no_line_天空", (("ground", Branch.子),)),)),
)


def test_original_with_translation_under_it_in_japanese() -> None:
    values = [f["value"] for f in dicts(build_embeds(SEED_CHART, READING))[0]["fields"]]
    assert "若四課中並無下克。\nもし四課の中に下賊がなければ。\n-# 初伝は知一で取る" in values
    assert "-# 原文に天空が子に臨む句はない（天空には支ごとの句がない：¶135）" in values  # said, not left out


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
def test_other_readers_get_notes_in_their_language(locale: str) -> None:
    lang = i18n.language_of(locale)
    text = field_text(build_embeds(SEED_CHART, READING, locale=locale))
    for entry in READING.entries:
        for line in notes(entry, lang):
            assert f"-# {line}" in text
    assert "支ごとの句" not in text and "で取る" not in text


def test_an_excluded_entry_is_marked_in_every_language() -> None:
    from bot.reply.chart import EXCLUDED_MARK

    # No cast chart puts a general where its opening excludes it (docs/rules.md §7): build one by hand,
    # 朱雀 riding the 初伝 over 地盤 酉 (¶99 不加酉戌亥子).
    steps = (replace(SEED_CHART.steps[0], general=General.朱雀, ground=Branch.酉), *SEED_CHART.steps[1:])
    built = replace(SEED_CHART, steps=steps)
    reading = read(built)
    assert [e.position for e in reading.entries if e.excluded] == [Position.初伝]
    for locale in ("ja", "en-US", "zh-TW", "zh-CN"):
        names = [f["name"] for d in dicts(build_embeds(built, reading, locale=locale)) for f in d["fields"]][3:]
        marked = [n for n in names if n.startswith(EXCLUDED_MARK)]
        assert len(marked) == 1 and "朱雀" in marked[0], names


def test_cast_charts_mark_nothing_excluded() -> None:
    from bot.reply.chart import EXCLUDED_MARK

    for day, hour in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 11):
        chart = engine.cast_classical(day, "亥", hour)
        names = [f["name"] for d in dicts(build_embeds(chart, read(chart))) for f in d["fields"]]
        assert not any(n.startswith(EXCLUDED_MARK) for n in names)


@pytest.mark.parametrize("locale", ["ja", "en-US", "zh-TW", "zh-CN"])
def test_quoted_lines_come_only_from_the_corpus(locale: str) -> None:
    """Every line of a reading field is the corpus's text as the reader is shown it (the original
    with the reader's editorial marks; the seed's Japanese and, for English, the project's English,
    labelled: texts.corpus.shown.unit_lines) or a note the presentation wrote."""
    lang = i18n.language_of(locale)
    for day, hour in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 37):
        chart = engine.cast_classical(day, BRANCHES[(hour + 3) % 12], hour)
        reading = read(chart)
        allowed = {
            line.strip()
            for e in reading.entries
            if e.unit
            for shown in unit_lines(e.unit, lang)
            for line in shown.split("\n")
        }
        allowed |= {f"-# {n}" for e in reading.entries for n in notes(e, lang)}
        allowed |= {n for e in reading.entries for n in notes(e, lang)}
        allowed.add(i18n.text("embed.no_line", lang))
        embeds = build_embeds(chart, reading, locale=locale)
        assert_within_limits(embeds)
        reading_fields = [f for d in dicts(embeds) for f in d["fields"]][3:]
        assert len(reading_fields) >= len(reading.entries)
        mark, continued = i18n.text("embed.cut", lang), i18n.text("embed.continued", lang)
        for f in reading_fields:
            for line in f["value"].split("\n"):
                shown = line.strip()
                if shown in allowed:
                    continue
                # else a piece of a line longer than a whole field, cut with a visible mark
                assert shown.endswith(mark) or f["name"].endswith(continued), (f["name"], line)
                assert any(shown.removesuffix(mark) in a for a in allowed if len(a) > FIELD_VALUE_MAX // 2), line


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_chinese_readers_see_the_original_without_the_japanese(locale: str) -> None:
    embeds = build_embeds(SEED_CHART, READING, locale=locale)
    text = field_text(embeds)
    assert "若四課中並無下克。" in text
    assert "もし" not in text
    assert "タイムゾーン" not in (embeds[0].description or "")


def test_english_readers_get_english_labels_and_the_corpus_translation() -> None:
    d = dicts(build_embeds(SEED_CHART, READING, locale="en-GB"))[0]
    assert d["fields"][0]["name"].startswith("四課 Four Lessons")
    assert "もし四課の中に下賊がなければ。" in field_text(build_embeds(SEED_CHART, READING, locale="en-GB"))


def _huge_reading() -> Reading:
    entries = []
    for i in range(60):
        lines = [f"{i:02d}句{j:03d}" + "天" * (7 * j % 90) for j in range(40)]
        if i % 5 == 0:
            lines.append(f"{i:02d}長" + "地" * 2500)  # one line longer than two whole fields
        translation = "\n".join(f"{i:02d}訳{j:03d}" + "あ" * (11 * j % 70) for j in range(30))
        entries.append(Entry(Section.取法, Role.課法, None, unit(f"u{i}", "\n".join(lines), translation)))
    return reading_of(SEED_CHART, *entries)


def _recover(values: list[str], mark: str) -> str:
    """Undo split_lines: a piece ending with ``mark`` continues the same line."""
    out = ""
    for value in values:
        if out and not out.endswith("\x00"):
            out += "\n"
        out = out.removesuffix("\x00")
        out += value.removesuffix(mark) + ("\x00" if value.endswith(mark) else "")
    return out.removesuffix("\x00")


@pytest.mark.parametrize("locale", ["ja", "en-US", "zh-TW"])
def test_huge_reading_respects_every_limit_and_loses_nothing(locale: str) -> None:
    reading = _huge_reading()
    embeds = build_embeds(SEED_CHART, reading, locale=locale, question="問" * 5000)
    assert len(embeds) > 10  # enough to need several messages
    assert_within_limits(embeds)
    assert len(group_messages(embeds)) > 1
    lang = i18n.language_of(locale)
    mark = i18n.text("embed.cut", lang)
    fields = [f for d in dicts(embeds) for f in d.get("fields", [])]
    for entry in reading.entries:
        assert entry.unit is not None
        values = [f["value"] for f in fields if f" {entry.unit.id}（" in f["name"]]
        expected = "\n".join(line.strip() for line in unit_lines(entry.unit, lang))
        assert entry.unit.original in expected and (lang == "zh-TW") is (entry.unit.translation not in expected)
        assert _recover(values, mark) == expected
    # Continuations are marked: every embed after the first says so in its title.
    continued = i18n.text("embed.continued", lang)
    assert all(continued in (e.title or "") for e in embeds[1:])
    # The giant question is kept whole across description and fields.
    description = embeds[0].description or ""
    spilled = [f["value"] for f in fields if f["name"] == i18n.text("embed.question", lang)]
    label = i18n.text("embed.question", lang)
    assert _recover([description, *spilled], mark).count("問") == 5000 + label.count("問")


def test_split_lines_keeps_lines_whole_when_they_fit() -> None:
    value = "\n".join(["a" * 600, "b" * 600, "c" * 10])
    assert split_lines(value, 1024, "…") == ["a" * 600, "b" * 600 + "\n" + "c" * 10]


def test_split_lines_marks_a_line_cut_inside() -> None:
    pieces = split_lines("x" * 2500, 1024, "…")
    assert all(len(p) <= 1024 for p in pieces)
    assert pieces[0].endswith("…") and pieces[1].endswith("…") and not pieces[2].endswith("…")
    assert "".join(p.removesuffix("…") for p in pieces) == "x" * 2500


def test_group_messages_refuses_an_oversized_embed() -> None:
    big = discord.Embed(title="t", description="d" * 4096)
    for _ in range(3):
        big.add_field(name="n", value="v" * 1024)
    with pytest.raises(ValueError, match="cannot be sent"):
        group_messages([big])


def test_group_messages_packs_in_order_within_limits() -> None:
    embeds = [discord.Embed(title=str(i), description="d" * 1000) for i in range(25)]
    messages = group_messages(embeds)
    assert [e.title for m in messages for e in m] == [str(i) for i in range(25)]
    assert all(sum(len(e) for e in m) <= EMBED_TOTAL_MAX and len(m) <= 10 for m in messages)


def test_lookup_embeds_show_units_within_limits() -> None:
    units = [unit(f"u{i}", "原" * 900, "訳" * 900) for i in range(20)]
    embeds = build_lookup_embeds("元首", units, "ja")
    assert_within_limits(embeds)
    text = field_text(embeds)
    assert text.count("原") == 8 * 900  # LOOKUP_MAX_UNITS units shown in full
    assert "20" in (embeds[0].description or "")
    none = build_lookup_embeds("存在しない", [], "en")
    assert "存在しない" in (none[0].description or "")


# -- i18n ---------------------------------------------------------------------------------------


def test_command_descriptions_fit_discord() -> None:
    for key, entry in i18n.TEXTS.items():
        if key.endswith(".description"):
            assert all(1 <= len(v) <= 100 for v in entry.values()), key


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("ja", "ja"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("zh-TW", "zh-TW"),
        ("zh-CN", "zh-CN"),
        ("ko", "en"),
        ("fr", "en"),
        (None, "ja"),
        (discord.Locale.british_english, "en"),
    ],
)
def test_language_of(locale: str | discord.Locale | None, lang: str) -> None:
    assert i18n.language_of(locale) == lang


async def test_translator_gives_japanese_and_chinese_over_an_english_default() -> None:
    """English is the base (what fr/de/ko/… clients see); ja, zh-TW and zh-CN get their own."""
    translator = i18n.Translator()
    string = i18n.ls("cast.description")
    context: discord.app_commands.TranslationContextTypes = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    assert string.message == i18n.TEXTS["cast.description"]["en"]
    assert await translator.translate(string, discord.Locale.japanese, context) == i18n.TEXTS["cast.description"]["ja"]
    assert (
        await translator.translate(string, discord.Locale.taiwan_chinese, context)
        == i18n.TEXTS["cast.description"]["zh-TW"]
    )
    assert (
        await translator.translate(string, discord.Locale.chinese, context) == i18n.TEXTS["cast.description"]["zh-CN"]
    )
    for other in (discord.Locale.american_english, discord.Locale.korean, discord.Locale.french):
        assert await translator.translate(string, other, context) is None
    plain = discord.app_commands.locale_str("cast")
    assert await translator.translate(plain, discord.Locale.japanese, context) is None


def test_gloss() -> None:
    assert i18n.gloss("反吟・重審") == "反吟・重審 (Return Chant · Repeated Examination)"
    assert i18n.gloss("未知") == "未知"


def test_group_messages_packs_by_the_sizes_given_and_refuses_sizes_that_do_not_match() -> None:
    embeds = [discord.Embed(title=str(i), description="d" * 1000) for i in range(6)]
    sizes = [len(e) for e in embeds]
    assert group_messages(embeds, sizes) == group_messages(embeds)
    assert len(group_messages(embeds, [3000] * 6)) == 3  # packed by what the caller says they weigh
    with pytest.raises(ValueError, match="6 embeds"):
        group_messages(embeds, sizes[:-1])
