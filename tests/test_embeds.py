"""build_embeds and the bot's languages: content, Discord's limits, nothing lost, nothing made up."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest

import engine
from bot import i18n
from bot.embeds import (
    DESCRIPTION_MAX,
    EMBED_TOTAL_MAX,
    EMBEDS_PER_MESSAGE,
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    FIELDS_MAX,
    TITLE_MAX,
    build_embeds,
    build_lookup_embeds,
    group_messages,
    split_lines,
)
from engine.symbols import BRANCHES, PILLARS


@dataclass(frozen=True)
class FakeUnit:
    id: str
    original: str
    translation: str
    lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class FakeEntry:
    role: str
    unit: FakeUnit | None
    note: str = ""
    note_en: str = ""
    excluded: bool = False


@dataclass(frozen=True)
class FakeReading:
    entries: tuple[FakeEntry, ...]


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
    embeds = build_embeds(SEED_CHART, None, patterns=())
    assert embeds[0].title == SEED_CHART.transmissions.name


def test_title_adds_patterns_without_repeating_the_method() -> None:
    name = SEED_CHART.transmissions.name
    title = build_embeds(SEED_CHART, None, patterns=(name.split("・")[-1], "龍首"))[0].title
    assert title is not None
    assert title.count(name.split("・")[-1]) == 1
    assert "龍首" in title


def test_english_title_carries_glosses() -> None:
    title = build_embeds(SEED_CHART, None, locale="en-US", patterns=("龍首",))[0].title
    assert title is not None
    method = SEED_CHART.transmissions.method
    assert i18n.GLOSSES[method] in title
    assert i18n.GLOSSES["龍首"] in title


def test_moment_zone_pillars_and_yuejiang_are_shown() -> None:
    zone = ZoneInfo("America/New_York")
    chart = engine.cast(datetime(2026, 11, 29, 14, 0, tzinfo=zone), "America/New_York")
    assert chart.moment is not None
    description = build_embeds(chart, None, patterns=(), zone_note="server")[0].description or ""
    assert "America/New_York" in description
    assert "server" in description
    assert "2026-11-29 14:00" in description
    for pillar in (chart.moment.year, chart.moment.month, chart.moment.day, chart.moment.hour):
        assert str(pillar) in description
    assert f"月将 **{chart.yuejiang}**" in description


def test_lessons_transmissions_and_plate_fields() -> None:
    embeds = build_embeds(SEED_CHART, None, patterns=())
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
        assert step.general in row and step.kin in row
        if step.hidden_stem is not None:
            assert f"遁干 {step.hidden_stem}" in row
        assert ("空亡" in row) == step.void
    # The plate shows each 天盤 branch in its 地盤 cell: the seed's 亥 over 午 (¶45).
    assert "亥" in plate and plate.count("\n") == 5


def test_void_mark_appears_exactly_on_void_transmissions() -> None:
    seen_void = 0
    for day, yj in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 7):
        chart = engine.cast_classical(day, yj, BRANCHES[0])
        rows = dicts(build_embeds(chart, None, patterns=()))[0]["fields"][1]["value"].split("\n")
        for row, step in zip(rows, chart.steps, strict=True):
            assert ("〔空亡〕" in row) == step.void
            seen_void += step.void
    assert seen_void > 0


def test_classical_chart_says_it_has_no_moment() -> None:
    description = build_embeds(SEED_CHART, None, patterns=())[0].description or ""
    assert i18n.text("embed.classical", "ja") in description
    assert "日 **甲子**" in description and "時 **午**" in description and "月将 **亥**" in description


def test_source_in_the_footer_and_question_in_the_description() -> None:
    embeds = build_embeds(SEED_CHART, None, question="転職はどうか", patterns=())
    d = dicts(embeds)[0]
    assert "《大六壬指南》巻一《心印賦》" in d["footer"]["text"]
    assert "転職はどうか" in d["description"]


READING = FakeReading((
    FakeEntry("課", FakeUnit("method.x", "若四課中並無下克。", "もし四課の中に下賊がなければ。")),
    FakeEntry("天将", None, "天空には支ごとの句がない", "天空 has none per branch"),
))


def test_original_with_translation_under_it_in_japanese() -> None:
    values = [f["value"] for f in dicts(build_embeds(SEED_CHART, READING, patterns=()))[0]["fields"]]
    assert "若四課中並無下克。\nもし四課の中に下賊がなければ。" in values
    assert i18n.text("embed.no_line", "ja") + "\n-# 天空には支ごとの句がない" in values  # said, not left out


def test_english_readers_get_the_english_notes_only() -> None:
    values = [f["value"] for f in dicts(build_embeds(SEED_CHART, READING, locale="en-US", patterns=()))[0]["fields"]]
    assert i18n.text("embed.no_line", "en") + "\n-# 天空 has none per branch" in values
    assert not any("天空には支ごとの句がない" in v for v in values)


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_chinese_readers_get_no_notes(locale: str) -> None:
    text = field_text(build_embeds(SEED_CHART, READING, locale=locale, patterns=()))
    assert "-#" not in text and "支ごと" not in text and "per branch" not in text


EXCLUDED = FakeReading((
    FakeEntry("初伝 general", FakeUnit("general.朱雀", "朱雀…（不加酉戌亥子）", "訳"), "除く", "excluded", True),
    FakeEntry("初伝 general-on-branch", FakeUnit("general.朱雀.酉", "夜噪（酉）", "訳"), "夜噪", "夜噪"),
))


@pytest.mark.parametrize("locale", ["ja", "en-US", "zh-TW", "zh-CN"])
def test_an_excluded_entry_is_marked_in_every_language(locale: str) -> None:
    from bot.embeds import EXCLUDED_MARK

    names = [f["name"] for f in dicts(build_embeds(SEED_CHART, EXCLUDED, locale=locale, patterns=()))[0]["fields"]][3:]
    assert names[0].startswith(EXCLUDED_MARK) and "朱雀" in names[0]
    assert not names[1].startswith(EXCLUDED_MARK) and EXCLUDED_MARK.strip() not in names[1]


@dataclass(frozen=True)
class _Step:
    branch: str
    ground: str
    general: str


@dataclass(frozen=True)
class _Transmissions:
    method: str
    frame: str | None


@dataclass(frozen=True)
class _Chart:
    transmissions: _Transmissions
    steps: tuple[_Step, ...]


def test_readings_mark_exactly_the_excluded_entries() -> None:
    from bot.embeds import EXCLUDED_MARK, pattern_names
    from texts.reading import reading

    # 朱雀 on 酉 (¶99 不加酉…), 白虎 on 巳 (no exclusion), 六合 on 子 (¶103 不加…子): a built plate,
    # since no cast chart puts a general where its opening excludes it (see test_texts).
    built = _Chart(_Transmissions("重審", None), (_Step("午", "酉", "朱雀"), _Step("亥", "巳", "白虎"),
                                                 _Step("辰", "子", "六合")))
    readings = [(SEED_CHART, reading(built))]
    for day, hour in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 11):
        chart = engine.cast_classical(day, "亥", hour)
        readings.append((chart, reading(chart, pattern_names(chart))))
    marked = []
    for chart, read in readings:
        fields = [f for d in dicts(build_embeds(chart, read, locale="ja")) for f in d["fields"]][3:]
        assert len(fields) == len(read.entries)  # no field is split in these readings
        for f, e in zip(fields, read.entries, strict=True):
            assert f["name"].startswith(EXCLUDED_MARK) == e.excluded, (f["name"], e.role)
            marked += [f["name"]] if e.excluded else []
    assert [m.split(" ", 2)[1:] for m in marked] == [["初伝", "天将 朱雀（¶99）"], ["末伝", "天将 六合（¶103）"]]


@pytest.mark.parametrize("locale", ["ja", "en-US", "zh-TW"])
def test_quoted_lines_come_only_from_the_corpus(locale: str) -> None:
    from bot.embeds import pattern_names
    from texts.reading import reading

    for day, hour in itertools.islice(itertools.product(PILLARS, BRANCHES), 0, 720, 37):
        chart = engine.cast_classical(day, BRANCHES[(hour + 3) % 12], hour)
        read = reading(chart, pattern_names(chart))
        allowed = {line for e in read.entries if e.unit for line in
                   (*e.unit.original.split("\n"), *e.unit.translation.split("\n"))}
        lang = i18n.language_of(locale)
        notes = {"ja": [e.note for e in read.entries], "en": [e.note_en for e in read.entries]}
        allowed |= {f"-# {n}" for n in notes.get(lang, [])}
        allowed.add(i18n.text("embed.no_line", lang))
        embeds = build_embeds(chart, read, locale=locale)
        assert_within_limits(embeds)
        reading_fields = [f for d in dicts(embeds) for f in d["fields"]][3:]
        assert len(reading_fields) >= len(read.entries)
        for f in reading_fields:
            for line in f["value"].split("\n"):
                assert line.strip() in allowed, (f["name"], line)


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_chinese_readers_see_the_original_without_the_japanese(locale: str) -> None:
    embeds = build_embeds(SEED_CHART, READING, locale=locale, patterns=())
    text = field_text(embeds)
    assert "若四課中並無下克。" in text
    assert "もし" not in text
    assert "タイムゾーン" not in (embeds[0].description or "")


def test_english_readers_get_english_labels_and_the_corpus_translation() -> None:
    d = dicts(build_embeds(SEED_CHART, READING, locale="en-GB", patterns=()))[0]
    assert d["fields"][0]["name"].startswith("四課 Four Lessons")
    assert "もし四課の中に下賊がなければ。" in field_text(build_embeds(SEED_CHART, READING, locale="en-GB"))


def _huge_reading() -> FakeReading:
    entries = []
    for i in range(60):
        lines = [f"{i:02d}句{j:03d}" + "天" * (7 * j % 90) for j in range(40)]
        if i % 5 == 0:
            lines.append(f"{i:02d}長" + "地" * 2500)  # one line longer than two whole fields
        translation = "\n".join(f"{i:02d}訳{j:03d}" + "あ" * (11 * j % 70) for j in range(30))
        entries.append(FakeEntry(f"役{i}", FakeUnit(f"u{i}", "\n".join(lines), translation)))
    return FakeReading(tuple(entries))


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
    embeds = build_embeds(SEED_CHART, reading, locale=locale, question="問" * 5000, patterns=())
    assert len(embeds) > 10  # enough to need several messages
    assert_within_limits(embeds)
    assert len(group_messages(embeds)) > 1
    lang = i18n.language_of(locale)
    mark = i18n.text("embed.cut", lang)
    fields = [f for d in dicts(embeds) for f in d.get("fields", [])]
    for entry in reading.entries:
        assert entry.unit is not None
        values = [f["value"] for f in fields if f["name"].split(" ")[0] == entry.role]
        expected = entry.unit.original
        if i18n.shows_translation(lang):
            expected += "\n" + entry.unit.translation
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
    units = [FakeUnit(f"u{i}", "原" * 900, "訳" * 900) for i in range(20)]
    embeds = build_lookup_embeds("元首", units, locale="ja")
    assert_within_limits(embeds)
    text = field_text(embeds)
    assert text.count("原") == 8 * 900  # LOOKUP_MAX_UNITS units shown in full
    assert "20" in (embeds[0].description or "")
    none = build_lookup_embeds("存在しない", [], locale="en-US")
    assert "存在しない" in (none[0].description or "")


# -- i18n ---------------------------------------------------------------------------------------


def test_every_text_has_all_four_languages() -> None:
    for key, entry in i18n.TEXTS.items():
        assert set(entry) == set(i18n.LANGS), key
        placeholders = {frozenset(re.findall(r"{(\w+)", v)) for v in entry.values()}
        assert len(placeholders) == 1, f"{key}: languages disagree on placeholders"


def test_command_descriptions_fit_discord() -> None:
    for key, entry in i18n.TEXTS.items():
        if key.endswith(".description"):
            assert all(1 <= len(v) <= 100 for v in entry.values()), key


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("ja", "ja"), ("en-US", "en"), ("en-GB", "en"), ("zh-TW", "zh-TW"), ("zh-CN", "zh-CN"),
     ("ko", "ja"), ("fr", "ja"), (None, "ja"), (discord.Locale.british_english, "en")],
)
def test_language_of(locale: str | discord.Locale | None, lang: str) -> None:
    assert i18n.language_of(locale) == lang


async def test_translator_gives_english_and_chinese_descriptions() -> None:
    translator = i18n.Translator()
    string = i18n.ls("cast.description")
    context: discord.app_commands.TranslationContextTypes = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    assert string.message == i18n.TEXTS["cast.description"]["ja"]
    assert await translator.translate(string, discord.Locale.american_english, context) == \
        i18n.TEXTS["cast.description"]["en"]
    assert await translator.translate(string, discord.Locale.taiwan_chinese, context) == \
        i18n.TEXTS["cast.description"]["zh-TW"]
    assert await translator.translate(string, discord.Locale.japanese, context) is None
    assert await translator.translate(string, discord.Locale.korean, context) is None
    plain = discord.app_commands.locale_str("cast")
    assert await translator.translate(plain, discord.Locale.american_english, context) is None


def test_gloss() -> None:
    assert i18n.gloss("反吟・重審") == "反吟・重審 (Reversed Chant · Repeated Scrutiny)"
    assert i18n.gloss("未知") == "未知"
