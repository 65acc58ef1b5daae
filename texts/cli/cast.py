"""What ``liuren cast`` and ``liuren table`` make of their arguments: the school, the language, the
chart and its facts; the chart as JSON; the picture written to a file.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine.chart import CastError, Chart, cast, cast_classical
from engine.classical import classical_charts
from engine.facts import Facts, facts
from engine.school import School
from engine.symbols import parse_branch
from engine.terms import Sex
from texts.cli.zone import cli_zone
from texts.when import WhenError, parse_when
from texts.words import Lang, language_of
from texts.words.explain import explain
from texts.words.schools import school_line, school_options

if TYPE_CHECKING:  # the readings and the JSON schema are imported by the runs that print them
    from engine.alternatives import Alternative
    from texts.matters.values import MatterSection
    from texts.place import Located
    from texts.reading import Reading


def school_from(args: argparse.Namespace) -> School:
    return School(
        day_changes_at_23=args.day_change == "23",
        noble_table=args.noble,
        fuyin_repeat_clash=args.fuyin_repeat_clash,
        shehai_depth_first=args.shehai_depth,
        maoxing_by_day=args.maoxing_by_day,
        tengshe_whenever_seen=args.tengshe_whenever_seen,
        # the sun's options are the cast command's alone (table, find and quiz cast no moment)
        daynight=getattr(args, "daynight", "hours"),
        hour_by=getattr(args, "hour_by", "clock"),
    )


def lang_from(args: argparse.Namespace) -> Lang:
    chosen: Lang | None = args.lang
    return chosen if chosen is not None else language_of(os.environ.get("LIUREN_LANG") or "ja")


def _blank(name: str, value: str | None) -> None:
    if value is not None and not value.strip():
        raise CastError(f"{name} is empty: give a value or leave the option out")


def chart_from(args: argparse.Namespace, now: datetime | None = None) -> Chart:
    """The chart the ``cast`` arguments ask for; ``CastError`` for anything unreadable or contradictory."""
    for name in ("at", "when", "tz", "day", "yuejiang", "hour", "place"):
        _blank(f"--{name}" if name != "when" else "the moment", getattr(args, name, None))
    school = school_from(args)
    located = place_from(args)
    moment_text = args.at if args.at is not None else args.when
    if args.at is not None and args.when is not None:
        raise CastError("give the moment once: either as an argument or with --at")
    if args.day is not None or args.hour is not None:
        if moment_text is not None:
            raise CastError("--day/--hour cast from the classical inputs: leave out the moment (or drop --day/--hour)")
        if args.tz is not None:
            raise CastError("--tz has no meaning with --day/--hour (no calendar is used)")
        if located is not None or school.needs_place:
            raise CastError("--place, --daynight sun and --hour-by mean/apparent need a moment: "
                            "the classical inputs --day/--hour have no time of day to read the sun at")
        missing = [name for name in ("day", "yuejiang", "hour") if getattr(args, name) is None]
        if missing:
            raise CastError(
                "casting from the classical inputs needs --day, --yuejiang and --hour "
                f"(missing: {', '.join('--' + m for m in missing)})"
            )
        return cast_classical(args.day, args.yuejiang, args.hour, school=school)
    zone = args.tz if args.tz is not None else (_zone_of(located) if located is not None else cli_zone())
    try:
        at = parse_when(moment_text or "now", zone, now or datetime.now(UTC))
    except WhenError as error:
        raise CastError(str(error)) from None
    override = parse_branch(args.yuejiang) if args.yuejiang is not None else None
    if school.needs_place and located is None:
        raise CastError("--daynight sun and --hour-by mean/apparent read the sun at a place: "
                        "give --place (a city's name, or lat,lon such as 35.68,139.69)")
    return cast(at, school=school, yuejiang=override, place=None if located is None else located.place)


def place_from(args: argparse.Namespace) -> Located | None:
    """The ``--place`` given, resolved (``PlaceError``, a ``ValueError``, when it cannot be); ``None``
    without one."""
    text: str | None = getattr(args, "place", None)
    if text is None:
        return None
    from texts.place import parse_place  # the gazetteer loads only for a run that names a place

    return parse_place(text)


def _zone_of(located: Located) -> str:
    """A place given without --tz brings its own zone: a city's, or for coordinates the nearest
    city's (the machine's zone when the gazetteer is not installed)."""
    from texts.place import own_zone

    return own_zone(located) or cli_zone()


def chart_and_facts(args: argparse.Namespace) -> tuple[Chart, Facts]:
    """The chart of the ``cast`` arguments and its facts (with the querent's birth data if given)."""
    chart = chart_from(args)
    sex = Sex[args.sex] if args.sex is not None else None
    return chart, facts(chart, birth_year=args.birth_year, sex=sex)


def table(school: School, hour: str) -> list[Chart]:
    """All 720 charts: each day with the 月将 set so the plate turns by 0 … 11."""
    return list(classical_charts(school, hours=(parse_branch(hour),)))


def table_line(chart: Chart) -> str:
    from engine.patterns import detect

    lessons = " ".join(f"{x.upper}{x.lower}" for x in reversed(chart.lessons))
    steps = "".join(str(b) for b in chart.transmissions.branches)
    named = "・".join(p.name.name for p in detect(chart))
    name = chart.transmissions.name
    return f"{chart.day} {chart.yuejiang}加{chart.hour}  四課 {lessons}  三伝 {steps}  {name}  [{named}]"


def reading_dict(result: Reading, lang: Lang) -> list[dict[str, Any]]:
    """The reading as JSON: each entry's section, role, position, the unit shown, and what is said."""
    from texts.corpus.shown import original, translation, unit_translations
    from texts.reading.sentences import notes, role_label  # as the reading

    return [
        {
            "section": e.section._name_,  # _name_: .name is a Python-level property
            "role": e.role._name_,
            "position": None if e.position is None else e.position._name_,
            "same_as": None if e.same_as is None else e.same_as._name_,
            "excluded": e.excluded,
            "names": list(e.names),
            "notes": notes(e, lang),
            "label": role_label(e, lang),
            "unit": None
            if e.unit is None
            else {
                "id": e.unit.id,
                "lines": list(e.unit.lines),
                "original": e.unit.original,
                "translation": e.unit.translation,
                "shown": {"original": original(e.unit, lang), "translation": translation(e.unit)},  # lang: its sic mark
                "translations": unit_translations(e.unit, lang),  # {"ja": the seed's, "en": the project's}
            },
        }
        for e in result.entries
    ]


def chart_json(
    chart: Chart, known: Facts, lang: Lang, reading: Reading | None, matters: tuple[MatterSection, ...] = ()
) -> dict[str, Any]:
    """The engine's JSON with each reason's text in ``lang`` added (engine/schema.py), and the
    alternatives' and the sun's lines in ``lang`` (``text``, ``alternatives_text``, ``alternatives_summary``)."""
    from engine.alternatives import alternatives
    from engine.schema import to_dict  # imported by the runs that print JSON

    others = alternatives(chart)
    data = to_dict(chart, known, others)
    data["lang"] = lang
    _word_the_sides(data, chart, others, lang)
    # the school options that are not the defaults, by name and as a sentence (None: defaults)
    data["school_options"] = {"changed": list(school_options(chart.school)), "text": school_line(chart.school, lang)}
    for item, why in zip(data["trace"], chart.transmissions.trace, strict=True):
        item["text"] = explain(why, lang)
    found = reading.patterns if reading is not None else None
    if found is not None:
        for item, p in zip(data["patterns"], found.held, strict=True):
            for reason, why in zip(item["reasons"], p.reasons, strict=True):
                reason["text"] = explain(why, lang)
    if reading is not None:
        # schema 3: the matter sections first, then the general reading's entries
        from texts.matters.sentences import matter_json

        data["reading"] = {"matters": [matter_json(m) for m in matters], "entries": reading_dict(reading, lang)}
    return data


def _word_the_sides(data: dict[str, Any], chart: Chart, found: tuple[Alternative, ...], lang: Lang) -> None:
    """The alternatives and the sun in ``lang``: each alternative's ``text``, the lines shown for them
    (``alternatives_text``), and the sun's lines and reasons (docs/rules.md §10)."""
    from texts.alternatives import alternative_line, alternative_lines, summary_line, sun_lines

    for item, alternative in zip(data["alternatives"], found, strict=True):
        item["text"] = alternative_line(alternative, lang)
    data["alternatives_text"] = alternative_lines(chart, lang, found, indent="")
    data["alternatives_summary"] = summary_line(chart, lang, found)  # one line, as a reply or caption says it
    if chart.sun is not None:
        data["sun"]["text"] = sun_lines(chart.sun, lang)
        for item, why in zip(data["sun"]["trace"], chart.sun.trace, strict=True):
            item["text"] = explain(why, lang)


def sides(chart: Chart, lang: Lang, *, with_trace: bool = True) -> list[str]:
    """The lines the terminal prints after the chart: what the sun said at the place (with its reasons
    unless ``with_trace`` is off), then the alternatives, or the line saying no option changes it."""
    from texts.alternatives import alternative_lines, sun_lines

    lines = []
    if chart.sun is not None:
        lines += sun_lines(chart.sun, lang)
        if with_trace:
            lines += [f"  {explain(why, lang)}" for why in chart.sun.trace]
    return lines + alternative_lines(chart, lang)


def write_png(chart: Chart, target: str, theme: str, lang: Lang, known: Facts | None = None) -> None:
    """Draw ``chart`` into the file ``target`` (``-``: standard output); ``OSError`` says why it failed."""
    from texts.picture.draw import render_png

    try:  # 本命 行年 with ``known``
        png = render_png(chart, theme="dark" if theme == "dark" else "light", lang=lang, known=known)
    except ModuleNotFoundError as error:  # Pillow is the [picture] extra, loaded by the first drawing: say so
        raise CastError(str(error)) from error
    if target == "-":
        sys.stdout.buffer.write(png)
        sys.stdout.flush()
        return
    if not target.strip():
        raise CastError("--png needs a file name (or '-' for standard output)")
    with open(target, "wb") as out:
        out.write(png)
