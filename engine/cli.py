"""``python -m engine``: cast a chart, or print the classical table of all 720 課.

    python -m engine cast now [--tz Asia/Tokyo]
    python -m engine cast --at "2026-11-29 14:00" --tz Asia/Tokyo
    python -m engine cast --day 甲子 --yuejiang 亥 --hour 午
    python -m engine table [--json]

Bad input exits with status 2 and one line on stderr saying what is accepted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import datetime

from .chart import CastError, Chart, cast, cast_classical
from .facts import Facts, facts
from .render import render_text
from .schema import to_dict
from .school import School
from .symbols import PILLARS, parse_branch

DEFAULT_ZONE = "Asia/Tokyo"
AT_FORMS = "'now', or ISO 8601 such as '2026-11-29 14:00' or '2026-11-29T14:00:00+09:00'"


def _school_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("school options (RULES.md)")
    group.add_argument("--day-change", choices=("23", "0"), default="23",
                       help="the day pillar changes at 23:00 (子初換日, default) or at midnight")
    group.add_argument("--noble", choices=("甲牛", "甲羊"), default="甲牛", help="貴人 table (default 甲牛)")
    group.add_argument("--fuyin-repeat-clash", action="store_true",
                       help="伏吟: 末 = 沖(中) when 刑(中) would repeat 初")
    group.add_argument("--shehai-depth", action="store_true",
                       help="渉害: count the classical depth before the 孟仲 rule")


def build_parser(extend_cast: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``extend_cast`` may add options to ``cast`` (the reading front end does)."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="大六壬 chart casting")
    sub = parser.add_subparsers(dest="command", required=True)

    c = sub.add_parser("cast", help="cast one chart")
    c.add_argument("when", nargs="?", default=None, help=f"the moment: {AT_FORMS}")
    c.add_argument("--at", help=f"the moment: {AT_FORMS}")
    c.add_argument("--tz", default=None,
                   help=f"IANA time zone (default $LIUREN_TZ or {DEFAULT_ZONE})")
    c.add_argument("--day", help="day pillar, e.g. 甲子 (with --yuejiang and --hour: no calendar)")
    c.add_argument("--yuejiang", help="月将 branch; with --at it overrides the calendar's")
    c.add_argument("--hour", help="hour branch, e.g. 午 (with --day)")
    c.add_argument("--json", action="store_true", help="print the documented JSON schema")
    c.add_argument("--no-trace", action="store_true", help="leave out the reasons")
    c.add_argument("--birth-year", type=int, help="the querent's birth year, for 本命 and 行年")
    c.add_argument("--sex", choices=("男", "女"), help="the querent's sex, for 行年")
    _school_arguments(c)
    if extend_cast is not None:
        extend_cast(c)

    t = sub.add_parser("table", help="the classical table of all 720 課 (60 days × 12 plates)")
    t.add_argument("--hour", default="子", help="hour branch the plates are set on (sets 晝夜 for 貴人)")
    t.add_argument("--json", action="store_true", help="a JSON list of charts")
    _school_arguments(t)
    return parser


def school_from(args: argparse.Namespace) -> School:
    return School(
        day_changes_at_23=args.day_change == "23",
        noble_table=args.noble,
        fuyin_repeat_clash=args.fuyin_repeat_clash,
        shehai_depth_first=args.shehai_depth,
    )


def parse_at(text: str) -> datetime | None:
    """``now`` → None; otherwise an ISO 8601 date-time (naive means local in the zone)."""
    if text.strip().lower() in ("now", "今", "いま"):
        return None
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        raise CastError(f"cannot read the moment {text!r}: give {AT_FORMS}") from None


def chart_from(args: argparse.Namespace) -> Chart:
    """The chart the ``cast`` arguments ask for; ``CastError`` for anything unreadable."""
    school = school_from(args)
    if args.day or (args.hour and not (args.at or args.when)):
        missing = [name for name in ("day", "yuejiang", "hour") if not getattr(args, name)]
        if missing:
            raise CastError("casting from the classical inputs needs --day, --yuejiang and --hour "
                            f"(missing: {', '.join('--' + m for m in missing)})")
        return cast_classical(args.day, args.yuejiang, args.hour, school=school)
    text = args.at or args.when or "now"
    zone = args.tz or os.environ.get("LIUREN_TZ") or DEFAULT_ZONE
    override = parse_branch(args.yuejiang) if args.yuejiang else None
    return cast(parse_at(text), zone, school=school, yuejiang=override)


def chart_and_facts(args: argparse.Namespace) -> tuple[Chart, Facts]:
    """The chart of the ``cast`` arguments and its facts (with the querent's birth data if given)."""
    chart = chart_from(args)
    return chart, facts(chart, birth_year=args.birth_year, sex=args.sex)


def table(school: School, hour: str) -> list[Chart]:
    """All 720 charts: each day with the 月将 set so the plate turns by 0 … 11."""
    h = parse_branch(hour)
    return [cast_classical(day, h + k, h, school=school) for day in PILLARS for k in range(12)]


def table_line(chart: Chart) -> str:
    lessons = " ".join(f"{x.upper}{x.lower}" for x in reversed(chart.lessons))
    steps = "".join(str(b) for b in chart.transmissions.branches)
    return f"{chart.day} {chart.yuejiang}加{chart.hour}  四課 {lessons}  三伝 {steps}  {chart.transmissions.name}"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return guarded(run, args)


def guarded(job: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a printing job; a closed pipe is not an error."""
    try:
        return job(args)
    except BrokenPipeError:  # `| head` closed the pipe: not an error for a printing command
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (keeps the interpreter's final flush quiet)
        return 0


def run(args: argparse.Namespace) -> int:
    """Carry out parsed arguments; 2 with one line on stderr for input that cannot be cast."""
    try:
        if args.command == "cast":
            chart, known = chart_and_facts(args)
            if args.json:
                print(json.dumps(to_dict(chart, known), ensure_ascii=False, indent=2))
            else:
                print(render_text(chart, with_trace=not args.no_trace, known=known))
        else:
            charts = table(school_from(args), args.hour)
            if args.json:
                print(json.dumps([to_dict(c) for c in charts], ensure_ascii=False))
            else:
                print("\n".join(table_line(c) for c in charts))
    except ValueError as error:  # CastError, CalendarError and bad branches all say what is accepted
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


__all__ = ["build_parser", "chart_and_facts", "chart_from", "guarded", "main", "run"]
