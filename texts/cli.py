"""``liuren``: cast a chart and read it, in the terminal.

    liuren cast now --reading
    liuren cast --at "2026-11-29 14:00" --tz Asia/Tokyo --lang en
    liuren cast --day 甲子 --yuejiang 亥 --hour 午 --reading --json
    liuren cast --day 甲子 --yuejiang 亥 --hour 午 --png chart.png   the chart as a picture
    liuren table [--hour 子]             all 720 課 with their 三伝 and 課体
    liuren find 冬蛇掩目                   the classical charts where a 課体, method or line applies
    liuren lookup 貴人 子                  a line of the 《心印賦》

Bad input exits with status 2 and one line on stderr saying what is accepted.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NoReturn

from engine.chart import CastError, Chart, cast, cast_classical
from engine.classical import classical_charts
from engine.facts import Facts, facts
from engine.school import School
from engine.symbols import parse_branch
from engine.terms import FIRST_YEAR, LAST_YEAR, Sex
from texts.render import render_text
from texts.when import ACCEPTED_FORMS, WhenError, default_zone, parse_when
from texts.words import LANGS, Lang, language_of
from texts.words.explain import explain
from texts.words.schools import school_line, school_options

if TYPE_CHECKING:  # issue 21: the readings and the JSON schema are imported by the runs that print them,
    # not by every start (a chart alone starts ~10 ms of ~160 sooner without them)
    from texts.matters.values import MatterSection
    from texts.reading import Reading


def _columns() -> int:
    """The terminal's width, as ``shutil.get_terminal_size()`` finds it (``COLUMNS``, else the
    terminal of stdout, else 80), without importing shutil: argparse's formatter imports it for
    every parser, and shutil brings bz2, lzma and zlib, 4 ms of a 100 ms start (issue 21)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal (``_columns``)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the fix, not the whole usage."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# issue 23: where docs/rules.md is for those who installed a wheel (pyproject.toml [project.urls]
# Documentation; tests/test_packaging.py checks they agree).
RULES_URL = "https://github.com/liuren-project/liuren/blob/main/docs/rules.md"

def _version() -> str:
    from importlib import metadata  # issue 21: only for --version (importing it is a third of a start-up)

    try:
        return metadata.version("liuren")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``, looked up only when asked for (issue 21)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"liuren {_version()}")  # on stdout, as argparse's own version action
        parser.exit()


def _school_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(f"school options ({RULES_URL}#school-options)")
    group.add_argument(
        "--day-change",
        choices=("23", "0"),
        default="23",
        help="the day pillar changes at 23:00 (子初換日, default) or at midnight",
    )
    group.add_argument("--noble", choices=("甲牛", "甲羊"), default="甲牛", help="貴人 table (default 甲牛)")
    group.add_argument(
        "--fuyin-repeat-clash", action="store_true", help="伏吟: 末 = 沖(中) when 刑(中) would repeat 初"
    )
    group.add_argument(
        "--shehai-depth", action="store_true", help="渉害: count the classical depth before the 孟仲 rule"
    )
    group.add_argument(
        "--maoxing-by-day",
        action="store_true",
        help="昴星: name 虎視転蓬/冬蛇掩目 by 剛日/柔日, not by the general on 初伝",
    )
    # issue 18: the matter reading's one school option (docs/rules.md §9.3 R3)
    group.add_argument(
        "--tengshe-whenever-seen",
        action="store_true",
        help="騰蛇: its opening bears whenever it rides a 伝 (¶95 但見), not only as 發用 (¶97)",
    )


def _lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", choices=LANGS, default=None, help="the language of labels and reasons (default $LIUREN_LANG, else ja)"
    )


class _Matters:
    """The values of ``--matter``: texts.matters.recognise's keys and ``general``, read from it when argparse
    first asks (a value given, ``--help``), so a start that asks no matter does not import it (issue 21)."""

    def __iter__(self) -> Iterator[str]:
        from texts.matters.recognise import GENERAL, MATTERS

        return iter((*(m.value for m in MATTERS), GENERAL))

    def __contains__(self, value: object) -> bool:
        return value in tuple(self)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="liuren", description="大六壬: cast a chart and read the 《心印賦》 lines that match it")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    forms = ", ".join(ACCEPTED_FORMS)
    c = sub.add_parser("cast", help="cast one chart")
    c.add_argument("when", nargs="?", default=None, help=f"the moment: {forms}")
    c.add_argument("--at", help=f"the moment: {forms}")
    c.add_argument("--tz", default=None, help="IANA time zone (default $LIUREN_TZ, else Asia/Tokyo)")
    c.add_argument("--day", help="day pillar, e.g. 甲子 (with --yuejiang and --hour: no calendar)")
    c.add_argument("--yuejiang", help="月将 branch; with a moment it overrides the calendar's")
    c.add_argument("--hour", help="hour branch, e.g. 午 (with --day)")
    c.add_argument("--reading", action="store_true", help="add the 《心印賦》 lines, in a teacher's order")
    c.add_argument("--json", action="store_true", help="print the documented JSON (engine/schema.py)")
    c.add_argument("--no-trace", action="store_true", help="leave out the reasons")
    c.add_argument(
        "--png", metavar="FILE", help="also draw the chart as a PNG picture into FILE ('-': standard output)"
    )
    c.add_argument("--theme", choices=("dark", "light"), default="light", help="the picture's colours (default light)")
    c.add_argument("--birth-year", type=_birth_year, help="the querent's birth year (1900–2100), for 本命 and 行年")
    c.add_argument("--sex", choices=("男", "女"), help="the querent's sex, for 行年")
    _lang_argument(c)
    _school_arguments(c)
    # issue 18: the matter asked (docs/rules.md §9): recognised in --question, or chosen with --matter
    c.add_argument("--question", metavar="TEXT", help="the question asked: its matter (類神) is read first")
    c.add_argument(
        "--matter",
        metavar="MATTER",  # named, so argparse lists the choices only in --help and in an error
        choices=_Matters(),
        help="the matter to read, overriding recognition ('general': none, the general reading only): %(choices)s",
    )

    t = sub.add_parser("table", help="the classical table of all 720 課 (60 days × 12 plates)")
    t.add_argument("--hour", default="子", help="hour branch the plates are set on (sets 晝夜 for 貴人)")
    t.add_argument("--json", action="store_true", help="a JSON list of charts")
    _lang_argument(t)
    _school_arguments(t)

    f = sub.add_parser(
        "find", help="the classical charts (day, 月将, hour, 晝/夜) where a 課体, method or line applies"
    )
    f.add_argument("term", help="a 課体 (冬蛇掩目), a method (知一), or a unit id (general.貴人.子)")
    _lang_argument(f)
    _school_arguments(f)

    lk = sub.add_parser("lookup", help="look a term up in the 《心印賦》 (as python -m texts)")
    lk.add_argument("terms", nargs="+", help="a term, or a general and a branch (貴人 子)")
    _lang_argument(lk)  # issue 25: English readers read the project's English translation

    qz = sub.add_parser("quiz", help="study: name the 初伝, the method, a 課体 … of classical charts")
    qz.add_argument("--level", choices=("easy", "medium", "hard"), default="easy", help="default easy")
    qz.add_argument("--questions", type=int, default=10, help="how many questions (default 10)")
    qz.add_argument("--seed", type=int, default=None, help="the same seed asks the same round")
    _lang_argument(qz)
    _school_arguments(qz)
    # issue 18: which matters a question names (docs/rules.md §9.4)
    mt = sub.add_parser("matter", help="the matters a question names, one key per line ('general' when none)")
    mt.add_argument("text", nargs="+", help="the question, e.g. 財布をなくしました")
    # issue 24 (the study site): `liuren site build DIR`, `liuren site path` — texts/site/command.py
    from texts.site.command import add_parser as _site_parser

    _site_parser(sub)
    # end issue 24
    return parser


def _birth_year(text: str) -> int:
    try:
        year = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a year: give e.g. 1990") from None
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise argparse.ArgumentTypeError(f"{year} is outside {FIRST_YEAR}–{LAST_YEAR}")
    return year


def school_from(args: argparse.Namespace) -> School:
    return School(
        day_changes_at_23=args.day_change == "23",
        noble_table=args.noble,
        fuyin_repeat_clash=args.fuyin_repeat_clash,
        shehai_depth_first=args.shehai_depth,
        maoxing_by_day=args.maoxing_by_day,
        tengshe_whenever_seen=args.tengshe_whenever_seen,  # issue 18
    )


def lang_from(args: argparse.Namespace) -> Lang:
    chosen: Lang | None = args.lang
    return chosen if chosen is not None else language_of(os.environ.get("LIUREN_LANG") or "ja")


def _blank(name: str, value: str | None) -> None:
    if value is not None and not value.strip():
        raise CastError(f"{name} is empty: give a value or leave the option out")


def chart_from(args: argparse.Namespace, now: datetime | None = None) -> Chart:
    """The chart the ``cast`` arguments ask for; ``CastError`` for anything unreadable or contradictory."""
    for name in ("at", "when", "tz", "day", "yuejiang", "hour"):
        _blank(f"--{name}" if name != "when" else "the moment", getattr(args, name))
    school = school_from(args)
    moment_text = args.at if args.at is not None else args.when
    if args.at is not None and args.when is not None:
        raise CastError("give the moment once: either as an argument or with --at")
    if args.day is not None or args.hour is not None:
        if moment_text is not None:
            raise CastError("--day/--hour cast from the classical inputs: leave out the moment (or drop --day/--hour)")
        if args.tz is not None:
            raise CastError("--tz has no meaning with --day/--hour (no calendar is used)")
        missing = [name for name in ("day", "yuejiang", "hour") if getattr(args, name) is None]
        if missing:
            raise CastError(
                "casting from the classical inputs needs --day, --yuejiang and --hour "
                f"(missing: {', '.join('--' + m for m in missing)})"
            )
        return cast_classical(args.day, args.yuejiang, args.hour, school=school)
    zone = args.tz if args.tz is not None else default_zone()
    try:
        at = parse_when(moment_text or "now", zone, now or datetime.now(UTC))
    except WhenError as error:
        raise CastError(str(error)) from None
    override = parse_branch(args.yuejiang) if args.yuejiang is not None else None
    return cast(at, school=school, yuejiang=override)


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
    from texts.reading.sentences import notes, role_label  # issue 21: as the reading

    return [
        {
            "section": e.section._name_,  # _name_: .name is a Python-level property (issue 23)
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
                "translations": unit_translations(e.unit, lang),  # issue 25: {"ja": the seed's, "en": the project's}
            },
        }
        for e in result.entries
    ]


def chart_json(
    chart: Chart, known: Facts, lang: Lang, reading: Reading | None, matters: tuple[MatterSection, ...] = ()
) -> dict[str, Any]:
    """The engine's JSON with each reason's text in ``lang`` added (schema 3, engine/schema.py)."""
    from engine.schema import to_dict  # issue 21: imported by the runs that print JSON

    data = to_dict(chart, known)
    data["lang"] = lang
    # issue 19: the school options that are not the defaults, by name and as a sentence (None: defaults)
    data["school_options"] = {"changed": list(school_options(chart.school)), "text": school_line(chart.school, lang)}
    for item, why in zip(data["trace"], chart.transmissions.trace, strict=True):
        item["text"] = explain(why, lang)
    found = reading.patterns if reading is not None else None
    if found is not None:
        for item, p in zip(data["patterns"], found.held, strict=True):
            for reason, why in zip(item["reasons"], p.reasons, strict=True):
                reason["text"] = explain(why, lang)
    if reading is not None:
        # issue 18 (schema 3): the matter sections first, then the general reading's entries
        from texts.matters.sentences import matter_json

        data["reading"] = {"matters": [matter_json(m) for m in matters], "entries": reading_dict(reading, lang)}
    return data


def run(args: argparse.Namespace) -> int:
    """Carry out parsed arguments; 2 with one line on stderr for input that cannot be used."""
    try:
        if args.command == "cast":
            lang = lang_from(args)
            chart, known = chart_and_facts(args)
            # issue 18: a question (or --matter) reads its matters first and implies --reading
            asked = args.question is not None or args.matter is not None
            if args.question is not None and not args.question.strip():
                raise CastError("--question is empty: give the question, or leave the option out")
            reply = None
            if asked:
                from texts.matters.values import answer

                reply = answer(chart, known, question=args.question, matter=args.matter)
            with_reading = args.reading or asked
            if reply is not None:
                reading: Reading | None = reply.reading
            elif args.reading or args.json:
                from texts.reading import read  # issue 21: a chart alone starts without the reading

                reading = read(chart, known)
            else:
                reading = None
            matters = reply.matters if reply is not None else ()
            if args.png is not None:
                _write_png(chart, args.png, args.theme, lang, known)
                if args.png == "-":
                    return 0  # the picture is the output: no text mixed into the PNG stream
            if args.json:
                import json  # issue 21: imported by the runs that print JSON, not by every start

                print(
                    json.dumps(
                        chart_json(chart, known, lang, reading if with_reading else None, matters),
                        ensure_ascii=False,
                        indent=2,
                    )
                )
            else:
                # issue 19: with --reading the 課体 and the trace are the reading's, said once there
                print(render_text(chart, lang, with_trace=not args.no_trace and reading is None, known=known,
                                  with_patterns=reading is None))
                if matters:  # issue 18: the matter section comes before the general reading
                    from texts.matters.sentences import render_matters

                    print(render_matters(matters, lang))
                if reading is not None:
                    from texts.reading.sentences import render_reading

                    print(render_reading(reading, lang, with_trace=not args.no_trace))
        elif args.command == "table":
            charts = table(school_from(args), args.hour)
            if args.json:
                import json

                from engine.schema import to_dict

                print(json.dumps([to_dict(c) for c in charts], ensure_ascii=False))
            else:
                school = school_line(school_from(args), lang_from(args))  # issue 19: name the school
                if school is not None:
                    print(school)
                print("\n".join(table_line(c) for c in charts))
        elif args.command == "quiz":
            from texts.quiz_cli import main as quiz

            return quiz(args.level, args.questions, lang_from(args), args.seed, school_from(args))
        elif args.command == "matter":  # issue 18
            from texts.matters.recognise import GENERAL, recognise

            found = recognise(" ".join(args.text))
            print("\n".join(f.matter.value for f in found) if found else GENERAL)
        elif args.command == "site":  # issue 24: the study site (texts/site/command.py)
            from texts.site.command import run as site

            return site(args)
        elif args.command == "find":
            from texts.find import find_charts

            lines = find_charts(args.term, school_from(args), lang_from(args))
            print("\n".join(lines))
        else:
            from texts.__main__ import lookup

            return lookup(args.terms, lang_from(args))  # issue 25: in the reader's language
    except (ValueError, LookupError) as error:  # CastError, CalendarError, unknown terms: each says what is accepted
        print(f"liuren: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # `| head` closed the pipe: guarded() ends quietly
    except OSError as error:  # --png into a folder that does not exist, a read-only file …
        print(f"liuren: error: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    return 0


def _write_png(chart: Chart, target: str, theme: str, lang: Lang, known: Facts | None = None) -> None:
    """Draw ``chart`` into the file ``target`` (``-``: standard output); ``OSError`` says why it failed."""
    try:
        from texts.picture.draw import render_png
    except ModuleNotFoundError as error:  # issue 23: Pillow is the [picture] extra; say so, no traceback
        raise CastError(str(error)) from error

    png = render_png(chart, theme="dark" if theme == "dark" else "light", lang=lang, known=known)  # 本命 行年 (#19)
    if target == "-":
        sys.stdout.buffer.write(png)
        sys.stdout.flush()
        return
    if not target.strip():
        raise CastError("--png needs a file name (or '-' for standard output)")
    with open(target, "wb") as out:
        out.write(png)


def guarded(job: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a printing job; a closed pipe is not an error."""
    try:
        return job(args)
    except BrokenPipeError:  # `| head` closed the pipe: not an error for a printing command
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (keeps the interpreter's final flush quiet)
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return guarded(run, args)


def console() -> int:
    """The ``liuren`` command: ``main`` on the process's own arguments, in a process of its own."""
    # issue 21: what the imports built (modules, classes, tables) lives until the process ends;
    # frozen, it is not walked again by the collections of the run nor by the interpreter's at exit
    # (a ninth of a cast's start-up). Only here: main() also runs inside other processes (the tests).
    gc.freeze()
    return main()


if __name__ == "__main__":
    raise SystemExit(console())
