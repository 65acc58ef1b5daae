"""``liuren``: the engine's command line with the reading of the 《心印賦》 added.

    liuren cast now --reading
    liuren cast --day 甲子 --yuejiang 亥 --hour 午 --reading [--json]

Everything else is ``python -m engine``'s; this front end lives in texts/ because the engine
never imports the corpus (data flows one way: instant → chart → matched texts).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine import cli as engine_cli
from engine.chart import Chart
from engine.patterns import detect
from engine.render import render_text
from engine.schema import to_dict

from .reading import Reading, reading


def _add_reading(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reading", action="store_true",
                        help="add the matching lines of the 《心印賦》: original, translation under it")


# The reading's roles as a Japanese reader names them (bot/i18n.py has the same words for the bot).
_ROLE_LABELS = {"method": "課法", "frame": "課格", "pattern": "課体",
                "general": "天将", "general-on-branch": "所臨"}


def role_label(role: str) -> str:
    """``method`` → 課法, ``初伝 general-on-branch`` → ``初伝 所臨``; an unknown role is kept as is."""
    words = role.split(" ")
    return " ".join(_ROLE_LABELS.get(w, w) for w in words)


def render_reading(result: Reading) -> str:
    """Each matched unit as its original with the translation under it; gaps say why (in Japanese)."""
    lines = ["《心印賦》（《大六壬指南》巻一）"]
    for entry in result.entries:
        label = role_label(entry.role)
        if entry.unit is None:
            lines.append(f"【{label}】 {entry.note}")
            continue
        unit = entry.unit
        seed_lines = ",".join(f"¶{n}" for n in unit.lines)
        lines.append(f"【{label}】 {unit.original}  ({seed_lines})")
        if unit.translation:
            lines.append(f"    {unit.translation}")
        if entry.note:
            lines.append(f"    ※ {entry.note}")
    return "\n".join(lines)


def reading_dict(result: Reading) -> list[dict[str, Any]]:
    return [
        {
            "role": e.role, "note": e.note, "note_en": e.note_en, "excluded": e.excluded,
            "unit": None if e.unit is None else {
                "id": e.unit.id, "lines": list(e.unit.lines),
                "original": e.unit.original, "translation": e.unit.translation,
            },
        }
        for e in result.entries
    ]


def chart_reading(chart: Chart) -> Reading:
    """The reading of a chart with its detected patterns."""
    return reading(chart, detect(chart))


def run(args: argparse.Namespace) -> int:
    if args.command != "cast" or not args.reading:
        return engine_cli.run(args)
    try:
        chart, known = engine_cli.chart_and_facts(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    result = reading(chart, detect(chart, known))
    if args.json:
        data = to_dict(chart, known) | {"reading": reading_dict(result)}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(render_text(chart, with_trace=not args.no_trace, known=known))
        print(render_reading(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = engine_cli.build_parser(extend_cast=_add_reading).parse_args(argv)
    return engine_cli.guarded(run, args)


if __name__ == "__main__":
    raise SystemExit(main())
