"""``liuren site build DIR`` and ``liuren site path``: the study site from the command line.

    liuren site build site/                       every language, all 1,440 charts
    liuren site build site/ --lang en --lang ja --base-url https://example.org/liuren/
    liuren site path --day 丁丑 --yuejiang 卯 --hour 午 --lang en    → en/chart/d13-y03-h06.html
    liuren site path --at "2026-11-29 14:00" --tz Asia/Tokyo
"""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.chart import CastError, Chart, cast, cast_classical
from texts.cli.errors import say
from texts.cli.zone import cli_zone
from texts.site.paths import chart_path
from texts.when import ACCEPTED_FORMS, WhenError, parse_when
from texts.words import LANGS, Lang, language_of

# The builder draws the picture, so it needs Pillow (the [picture] extra): it is imported only by
# `site build`, and `liuren` without the extra still parses its arguments.


def add_parser(sub: Any) -> None:
    """Add ``site`` with its ``build`` and ``path`` commands to the ``liuren`` subcommands ``sub``."""
    site = sub.add_parser("site", help="the static study site: build it, or print a chart's page path")
    commands = site.add_subparsers(dest="site_command", required=True)
    b = commands.add_parser("build", help="write the site into DIR (an empty directory, or an earlier site)")
    b.add_argument("dir", help="the directory to write (created if missing)")
    b.add_argument("--lang", action="extend", nargs="+", choices=LANGS, default=None,
                   help="a language to build (repeatable; default all four)")
    b.add_argument("--base-url", default=None,
                   help="the site's public address, for canonical links and sitemap.xml (default $LIUREN_SITE_URL; "
                        "neither: no absolute link at all)")
    b.add_argument("--only-days", help=argparse.SUPPRESS)  # development: e.g. 甲子,乙丑 (links stay inside)
    b.add_argument("--workers", type=int, default=None, help=argparse.SUPPRESS)
    p = commands.add_parser("path", help="the page of a chart, relative to the site's root")
    p.add_argument("--day", help="day pillar, e.g. 丁丑 (with --yuejiang and --hour)")
    p.add_argument("--yuejiang", help="月将 branch")
    p.add_argument("--hour", help="hour branch")
    p.add_argument("--at", help=f"a moment instead: {', '.join(ACCEPTED_FORMS)}")
    p.add_argument("--tz", help="IANA time zone for --at (default $LIUREN_TZ, else this machine's zone)")
    p.add_argument("--lang", choices=LANGS, default=None, help="the page's language (default $LIUREN_LANG, else ja)")


def chart_of(args: argparse.Namespace, now: datetime | None = None) -> Chart:
    """The chart ``site path`` names: from --day/--yuejiang/--hour, or from --at (and --tz)."""
    classical = [args.day, args.yuejiang, args.hour]
    if args.at is not None:
        if any(v is not None for v in classical):
            raise CastError("give either --at (with --tz) or --day, --yuejiang and --hour, not both")
        try:
            at = parse_when(args.at, args.tz or cli_zone(), now or datetime.now(UTC))
        except WhenError as error:
            raise CastError(str(error)) from None
        return cast(at)
    if args.tz is not None:
        raise CastError("--tz goes with --at")
    missing = [f"--{n}" for n, v in zip(("day", "yuejiang", "hour"), classical, strict=True) if v is None]
    if missing:
        raise CastError(f"give --day, --yuejiang and --hour (missing: {', '.join(missing)}), or --at")
    return cast_classical(args.day, args.yuejiang, args.hour)


def run(args: argparse.Namespace) -> int:
    """Carry out ``site build`` or ``site path``; errors are ValueError/OSError for the caller to report."""
    if args.site_command == "path":
        chosen: Lang | None = args.lang
        lang = chosen if chosen is not None else language_of(os.environ.get("LIUREN_LANG") or "ja")
        print(chart_path(chart_of(args), lang))
        return 0
    try:
        from texts.site.build import SiteError, build, parse_days
    except ModuleNotFoundError as error:  # Pillow missing: say which extra, no traceback
        raise CastError(str(error)) from error

    days = parse_days(args.only_days) if args.only_days else None
    if args.workers is not None and args.workers < 1:
        raise SiteError("--workers must be at least 1")
    base_url = args.base_url if args.base_url is not None else (os.environ.get("LIUREN_SITE_URL") or "").strip()
    kwargs: dict[str, Any] = {"base_url": base_url or None, "workers": args.workers}
    if days is not None:
        kwargs["days"] = days
    summary = build(Path(args.dir), args.lang or LANGS, **kwargs)
    say(f"site: {summary.pages} pages, {summary.files} files, {summary.size / 1e6:.1f} MB in {summary.seconds:.1f} s"
        f" → {Path(args.dir) / 'index.html'}")
    return 0
