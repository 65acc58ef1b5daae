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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from engine.chart import CastError
from engine.terms import FIRST_YEAR, LAST_YEAR
from texts.cli.cast import chart_and_facts, chart_json, lang_from, school_from, sides, table, table_line, write_png
from texts.cli.errors import one_line, say
from texts.render import render_text
from texts.when import ACCEPTED_FORMS
from texts.words import LANGS
from texts.words.schools import school_line

if TYPE_CHECKING:  # the readings and the JSON schema are imported by the runs that print them,
    # not by every start (a chart alone starts ~10 ms of ~160 sooner without them)
    from texts.reading import Reading


def _columns() -> int:
    """The terminal's width, as ``shutil.get_terminal_size()`` finds it (``COLUMNS``, else the
    terminal of stdout, else 80), without importing shutil: argparse's formatter imports it for
    every parser, and shutil brings bz2, lzma and zlib, 4 ms of a 100 ms start."""
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
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def school_title(environ: Mapping[str, str] | None = None) -> str:
    """The school options' heading: with the study site's address ($LIUREN_SITE_URL) a link to its
    rules page; without one, no link (the project has no public home to point at)."""
    home = ((os.environ if environ is None else environ).get("LIUREN_SITE_URL") or "").strip()
    if not home:
        return "school options (where books differ; the study site's rules page tells each: liuren site build)"
    return f"school options ({home.rstrip('/')}/en/rules.html#school-options)"


def _version() -> str:
    from importlib import metadata  # only for --version (importing it is a third of a start-up)

    try:
        return metadata.version("liuren")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"liuren {_version()}")  # on stdout, as argparse's own version action
        parser.exit()


def _school_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(school_title())
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
    # the matter reading's one school option (docs/rules.md §9.3 R3)
    group.add_argument(
        "--tengshe-whenever-seen",
        action="store_true",
        help="騰蛇: its opening bears whenever it rides a 伝 (¶95 但見), not only as 發用 (¶97)",
    )


def _sun_arguments(parser: argparse.ArgumentParser) -> None:
    """The place and the two school options that read the sun there (docs/rules.md §10): cast only."""
    parser.add_argument(
        "--place", metavar="PLACE",
        help="where the question is asked: a city (東京, 乌鲁木齐, Madrid, ES) or lat,lon (35.68,139.69); "
             "without --tz the chart takes the place's zone; names need liuren[place]",
    )
    group = parser.add_argument_group("school options that read the sun at --place")
    group.add_argument("--daynight", choices=("hours", "sun"), default="hours",
                       help="晝夜 for 貴人 by the hours 卯–申 (default) or by sunrise and sunset at --place")
    group.add_argument("--hour-by", choices=("clock", "mean", "apparent"), default="clock",
                       help="read the hour and the day change on the clock (default), on local mean solar time, "
                            "or on apparent solar time (真太陽時) at --place")


def _lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", choices=LANGS, default=None, help="the language of labels and reasons (default $LIUREN_LANG, else ja)"
    )


class _Matters:
    """The values of ``--matter``: texts.matters.recognise's keys and ``general``, read from it when argparse
    first asks (a value given, ``--help``), so a start that asks no matter does not import it."""

    def __iter__(self) -> Iterator[str]:
        from texts.matters.recognise import GENERAL, MATTERS

        return iter((*(m.value for m in MATTERS), GENERAL))

    def __contains__(self, value: object) -> bool:
        return value in tuple(self)


def _matter_key(value: str) -> str:
    """``--matter``'s value as its key: a key, or a matter as the output prints it (婚姻, marriage)."""
    from texts.matters.phrases import matter_named
    from texts.matters.recognise import GENERAL

    try:
        found = matter_named(value)
    except ValueError:
        return value  # argparse's choices then name every accepted key
    return GENERAL if found is None else found.value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="liuren", description="大六壬: cast a chart and read the 《心印賦》 lines that match it")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    forms = ", ".join(ACCEPTED_FORMS)
    c = sub.add_parser("cast", help="cast one chart")
    c.add_argument("when", nargs="?", default=None, help=f"the moment: {forms}")
    c.add_argument("--at", help=f"the moment: {forms}")
    c.add_argument("--tz", default=None, help="IANA time zone (default $LIUREN_TZ, else this machine's zone)")
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
    _sun_arguments(c)
    # the matter asked (docs/rules.md §9): recognised in --question, or chosen with --matter
    c.add_argument("--question", metavar="TEXT", help="the question asked: its matter (類神) is read first")
    c.add_argument(
        "--matter",
        metavar="MATTER",  # named, so argparse lists the choices only in --help and in an error
        type=_matter_key,
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
    _lang_argument(lk)  # English readers read the project's English translation

    qz = sub.add_parser("quiz", help="study: name the 初伝, the method, a 課体 … of classical charts")
    qz.add_argument("--level", choices=("easy", "medium", "hard"), default="easy", help="default easy")
    qz.add_argument("--questions", type=int, default=10, help="how many questions (default 10)")
    qz.add_argument("--seed", type=int, default=None, help="the same seed asks the same round")
    _lang_argument(qz)
    _school_arguments(qz)
    # which matters a question names (docs/rules.md §9.4)
    mt = sub.add_parser("matter", help="the matters a question names, one key per line ('general' when none)")
    mt.add_argument("text", nargs="+", help="the question, e.g. 財布をなくしました")
    # the study site: `liuren site build DIR`, `liuren site path` — texts/cli/site.py
    from texts.cli.site import add_parser as _site_parser

    _site_parser(sub)
    from texts.cli.verify import add_parser as _verify_parser  # liuren verify: texts/cli/verify.py

    _verify_parser(sub)
    from texts.cli.serve import add_parser as _mcp_parser  # liuren mcp: texts/cli/serve.py, mcp.py

    _mcp_parser(sub)
    return parser


def _birth_year(text: str) -> int:
    try:
        year = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a year: give e.g. 1990") from None
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise argparse.ArgumentTypeError(f"{year} is outside {FIRST_YEAR}–{LAST_YEAR}")
    return year


def run(args: argparse.Namespace) -> int:
    """Carry out parsed arguments; 2 with one line on stderr for input that cannot be used."""
    try:
        if args.command == "cast":
            lang = lang_from(args)
            chart, known = chart_and_facts(args)
            # a question (or --matter) reads its matters first and implies --reading
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
                from texts.reading import read  # a chart alone starts without the reading

                reading = read(chart, known)
            else:
                reading = None
            matters = reply.matters if reply is not None else ()
            if args.png is not None:
                write_png(chart, args.png, args.theme, lang, known)
                if args.png == "-":
                    return 0  # the picture is the output: no text mixed into the PNG stream
            if args.json:
                import json  # imported by the runs that print JSON, not by every start

                print(
                    json.dumps(
                        chart_json(chart, known, lang, reading if with_reading else None, matters),
                        ensure_ascii=False,
                        indent=2,
                    )
                )
            else:
                # with --reading the 課体 and the trace are the reading's, said once there
                print(render_text(chart, lang, with_trace=not args.no_trace and reading is None, known=known,
                                  with_patterns=reading is None))
                if matters:  # the matter section comes before the general reading
                    from texts.matters.sentences import render_matters

                    print(render_matters(matters, lang))
                elif args.question is not None and args.matter is None:  # §9.4: say no matter was read
                    from texts.matters.sentences import unrecognised

                    print(unrecognised(lang, "--matter"))
                if reading is not None:
                    from texts.reading.sentences import render_reading

                    print(render_reading(reading, lang, with_trace=not args.no_trace))
                # last, the sun at the place and the other schools (docs/rules.md §10)
                print("\n".join(sides(chart, lang, with_trace=not args.no_trace)))
        elif args.command == "table":
            charts = table(school_from(args), args.hour)
            if args.json:
                import json

                from engine.schema import to_dict

                print(json.dumps([to_dict(c) for c in charts], ensure_ascii=False))
            else:
                school = school_line(school_from(args), lang_from(args))  # name the school
                if school is not None:
                    print(school)
                print("\n".join(table_line(c) for c in charts))
        elif args.command == "quiz":
            from texts.cli.quiz import main as quiz

            return quiz(args.level, args.questions, lang_from(args), args.seed, school_from(args))
        elif args.command == "matter":
            from texts.matters.recognise import GENERAL, recognise

            found = recognise(" ".join(args.text))
            print("\n".join(f.matter.value for f in found) if found else GENERAL)
        elif args.command == "site":  # the study site (texts/cli/site.py)
            from texts.cli.site import run as site

            return site(args)
        elif args.command == "verify":  # texts/cli/verify.py
            from texts.cli.verify import run as verify

            return verify(args)
        elif args.command == "mcp":  # texts/cli/serve.py
            from texts.cli.serve import run as serve

            return serve(args)
        elif args.command == "find":
            from texts.cli.find import find_charts

            lines = find_charts(args.term, school_from(args), lang_from(args))
            print("\n".join(lines))
        else:
            from texts.cli.lookup import lookup

            return lookup(args.terms, lang_from(args))  # in the reader's language
    except (ValueError, LookupError) as error:  # CastError, CalendarError, unknown terms: each says what is accepted
        say(f"liuren: error: {error}")
        return 2
    except BrokenPipeError:
        raise  # `| head` closed the pipe: guarded() ends quietly
    except OSError as error:  # --png into a folder that does not exist, a read-only file …
        say(f"liuren: error: cannot write {error.filename}: {error.strerror}")
        return 1
    return 0


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
    # what the imports built (modules, classes, tables) lives until the process ends;
    # frozen, it is not walked again by the collections of the run nor by the interpreter's at exit
    # (a ninth of a cast's start-up). Only here: main() also runs inside other processes (the tests).
    gc.freeze()
    return main()


if __name__ == "__main__":
    raise SystemExit(console())
