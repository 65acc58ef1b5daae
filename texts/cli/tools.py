"""What the MCP tools of ``liuren mcp`` do, without the MCP SDK: each takes the tool's arguments
and gives ``(structured JSON, a short text in the reader's language)``, or raises a ValueError
(LookupError) whose message is the one line ``liuren`` says for the same input.

The chart's JSON is ``liuren cast --json``'s (texts/cli/cast.py ``chart_json``, engine/schema.py:
versioned); the judgements' JSON is texts/corpus/verdicts.py's (versioned too).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from engine.chart import CastError
from engine.schema import SCHEMA_VERSION, to_dict
from engine.school import School
from engine.terms import FIRST_YEAR, LAST_YEAR
from texts.cli.cast import chart_and_facts, chart_json, school_from
from texts.cli.lookup import find, format_unit, not_found
from texts.corpus import Unit, corpus
from texts.corpus.citations import check_citations
from texts.corpus.shown import original, unit_translations
from texts.corpus.verdicts import SCHEMA, judgement_text, report_json, report_text, verify_json
from texts.corpus.verify import verify_quote
from texts.render import render_text
from texts.words import LANGS, Lang, language_of
from texts.words.schools import school_line

if TYPE_CHECKING:  # the matter reading is imported by read_chart, not by every start
    from texts.matters.values import MatterSection

Result = tuple[dict[str, Any], str]
CAST_FIELDS = ("when", "zone", "day", "yuejiang", "hour", "day_change", "noble", "fuyin_repeat_clash",
               "shehai_depth", "maoxing_by_day", "tengshe_whenever_seen", "birth_year", "sex")


def reader_of(lang: str | None) -> Lang:
    """The language asked for; None: the CLI's default ($LIUREN_LANG, else ja). ValueError for another."""
    if lang is None:
        return language_of(os.environ.get("LIUREN_LANG") or "ja")
    chosen = next((x for x in LANGS if x == lang), None)
    if chosen is None:
        raise ValueError(f"argument --lang: invalid choice: {lang!r} (choose from {', '.join(LANGS)})")
    return chosen


def _namespace(cast: dict[str, Any], lang: Lang) -> argparse.Namespace:
    """The arguments of ``liuren cast`` the tool's arguments stand for (texts/cli/cast.py reads them)."""
    day_change = str(cast.get("day_change") or "23")
    noble = str(cast.get("noble") or "甲牛")
    if day_change not in ("23", "0"):
        raise CastError(f"argument --day-change: invalid choice: {day_change!r} (choose from '23', '0')")
    if noble not in ("甲牛", "甲羊"):
        raise CastError(f"argument --noble: invalid choice: {noble!r} (choose from '甲牛', '甲羊')")
    sex = cast.get("sex")
    if sex is not None and sex not in ("男", "女"):
        raise CastError(f"argument --sex: invalid choice: {sex!r} (choose from '男', '女')")
    year = cast.get("birth_year")
    if year is not None and not FIRST_YEAR <= year <= LAST_YEAR:
        raise CastError(f"argument --birth-year: {year} is outside {FIRST_YEAR}–{LAST_YEAR}")
    return argparse.Namespace(
        when=cast.get("when"), at=None, tz=cast.get("zone"), day=cast.get("day"), yuejiang=cast.get("yuejiang"),
        hour=cast.get("hour"), day_change=day_change, noble=noble,
        fuyin_repeat_clash=bool(cast.get("fuyin_repeat_clash")), shehai_depth=bool(cast.get("shehai_depth")),
        maoxing_by_day=bool(cast.get("maoxing_by_day")), tengshe_whenever_seen=bool(cast.get("tengshe_whenever_seen")),
        birth_year=year, sex=sex, lang=lang,
    )


def cast_chart(cast: dict[str, Any], lang: str | None = None) -> Result:
    """The chart, as ``liuren cast --json`` gives it, and as ``liuren cast`` prints it."""
    reader = reader_of(lang)
    chart, known = chart_and_facts(_namespace(cast, reader))
    return chart_json(chart, known, reader, None), render_text(chart, reader, with_trace=False, known=known)


def read_chart(cast: dict[str, Any], question: str | None, matter: str | None, lang: str | None = None) -> Result:
    """The chart with its reading (the matters of ``question`` or ``matter`` first), as
    ``liuren cast --json --reading [--question Q] [--matter M]`` gives it, and as text."""
    from texts.matters.recognise import GENERAL, MATTERS
    from texts.matters.sentences import render_matters
    from texts.matters.values import answer
    from texts.reading import read
    from texts.reading.sentences import render_reading

    reader = reader_of(lang)
    if question is not None and not question.strip():
        raise CastError("--question is empty: give the question, or leave the option out")
    keys = (*(m.value for m in MATTERS), GENERAL)
    if matter is not None and matter not in keys:
        raise CastError(f"argument --matter: invalid choice: {matter!r} (choose from {', '.join(keys)})")
    chart, known = chart_and_facts(_namespace(cast, reader))
    matters: tuple[MatterSection, ...] = ()
    if question is None and matter is None:
        reading = read(chart, known)
    else:
        reply = answer(chart, known, question=question, matter=matter)
        reading, matters = reply.reading, reply.matters
    said = [render_text(chart, reader, with_trace=False, known=known, with_patterns=False)]
    if matters:
        said.append(render_matters(matters, reader))
    said.append(render_reading(reading, reader, with_trace=False))
    return chart_json(chart, known, reader, reading, matters), "\n".join(said)


def unit_json(u: Unit, lang: Lang) -> dict[str, Any]:
    return {
        "id": u.id,
        "kind": u.kind,
        "paragraphs": {"original": u.original_line, "translation": u.translation_line},
        "original": u.original,
        "shown": original(u, lang) if u.original else "",
        "translations": unit_translations(u, "en"),  # the seed's Japanese and the project's English, labelled
        "notes": [{"kind": n.kind, "field": n.field, "at": n.at, "read": n.read, "says": n.says} for n in u.notes],
    }


def get_passage(paragraph: int | None, unit_id: str | None, lang: str | None = None) -> Result:
    """The units of seed ¶ ``paragraph``, or the unit ``unit_id``: the original as written, the
    seed's Japanese and the project's English (each labelled by its translator), the notes, the ¶."""
    reader = reader_of(lang)
    if (paragraph is None) == (unit_id is None):
        raise LookupError("give a paragraph (¶) or a unit id, not both")
    units = corpus().paragraph(paragraph) if paragraph is not None else (corpus().get(str(unit_id)),)
    if not units:
        raise LookupError(f"¶{paragraph} holds no text of the 《心印賦》 (the seed's ¶ run from 1 to 176)")
    data = {"schema": SCHEMA, "units": [unit_json(u, reader) for u in units]}
    return data, "\n\n".join(format_unit(u, None, reader) for u in units)


def search_text(term: str, lang: str | None = None) -> Result:
    """The units a term names or holds, as ``liuren lookup TERM``: the exact ones, then the others."""
    reader = reader_of(lang)
    if not term.strip():
        raise LookupError("the term is empty: give a word of the text, a method, a pattern or a general")
    exact, others = find(corpus(), [term])
    if not exact and not others:  # nothing found is an answer, not bad input: said as `liuren lookup` says it
        return {"schema": SCHEMA, "exact": [], "mentions": [], "units": []}, not_found(corpus(), [term], reader)
    data = {"schema": SCHEMA, "exact": [u.id for u in exact], "mentions": [u.id for u in others],
            "units": [unit_json(u, reader) for u in (*exact, *others)]}
    return data, "\n\n".join(format_unit(u, None, reader) for u in exact or others)


def verify(quote: str, paragraph: int | None, lang: str | None = None) -> Result:
    """One quotation judged, as ``liuren verify QUOTE [--paragraph N] --json``."""
    judgement = verify_quote(quote, paragraph)
    return verify_json(judgement), judgement_text(judgement, reader_of(lang))


def citations(draft: str, lang: str | None = None) -> Result:
    """Every quotation and ¶ of a text judged, as ``liuren verify --file TEXT --json``."""
    report = check_citations(draft)
    return report_json(report), report_text(report, reader_of(lang))


# each school option as `liuren cast` takes it: the argument, the School field it sets, its two values
_OPTIONS: tuple[tuple[str, str, tuple[object, object]], ...] = (
    ("day_change", "day_changes_at_23", ("23", "0")),
    ("noble", "noble_table", ("甲牛", "甲羊")),
    ("fuyin_repeat_clash", "fuyin_repeat_clash", (False, True)),
    ("shehai_depth", "shehai_depth_first", (False, True)),
    ("maoxing_by_day", "maoxing_by_day", (False, True)),
    ("tengshe_whenever_seen", "tengshe_whenever_seen", (False, True)),
)


def _outcome(args: argparse.Namespace) -> dict[str, Any]:
    chart, known = chart_and_facts(args)
    data = to_dict(chart, known)
    return {"name": data["name"], "method": data["method"],
            "transmissions": [t["branch"] for t in data["transmissions"]],
            "generals": [t["general"] for t in data["transmissions"]],
            "patterns": [p["name"] for p in data["patterns"]]}


def compare_schools(cast: dict[str, Any], lang: str | None = None) -> Result:
    """The chart under the school options in force, and under each option flipped alone: which
    options change its 三伝, generals, method or 課体 (docs/rules.md's school options)."""
    reader = reader_of(lang)
    args = _namespace(cast, reader)
    base = _outcome(args)
    school = school_from(args)
    options = []
    lines = [f"{base['name']}  {''.join(base['transmissions'])}  [{'・'.join(base['patterns'])}]"]
    for argument, name, (one, two) in _OPTIONS:
        flipped = argparse.Namespace(**{**vars(args), argument: two if getattr(args, argument) == one else one})
        alternative = school_from(flipped)
        outcome = _outcome(flipped)
        options.append({"option": name, "in_force": getattr(school, name), "alternative": getattr(alternative, name),
                        "chart": outcome, "differs": outcome != base})
        if outcome != base:  # named as every output names a school: its options that are not the defaults
            named = school_line(alternative, reader) or f"{name} = {getattr(alternative, name)}"
            lines.append(f"{named}: {''.join(outcome['transmissions'])} [{'・'.join(outcome['patterns'])}]")
    data = {"schema": SCHEMA_VERSION, "school": {f.name: getattr(school, f.name) for f in fields(School)},
            "chart": base, "options": options}
    return data, "\n".join(lines)
