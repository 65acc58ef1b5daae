"""What one /cast costs in CPU on the real path, moment text → reply payload, beside a peer doing
the same Discord work in the same process.

    python bench/reading_bench.py [--count 2000] [--rounds 5]
    python bench/reading_bench.py --quick     # 2 casts, one round, 1 start-up: a smoke run, not figures

Ours is what /cast does between the interaction's options and the HTTP body, without the network
and the store: the moment parsed in the reader's zone (``Reader.moment``), the chart cast, the case
embeds (reading, chart fields, the case id in the footer; ``bot.casebook.present.case_embeds``),
the five buttons (``case_view``), with the picture its PNG, alt text and upload
(``picture_for``'s ``draw`` and ``bot.reply.send.picture_file``), and the payload discord.py sends
(each embed's ``to_dict()``, the view's ``to_components()``). The peer builds the same reply from
ours, copied once (``discord.Embed.from_dict``, five ``ui.Button``, a ``discord.File`` of the same
bytes), and makes the same payload: what discord.py costs for that reply alone.

Workloads, CPU time (``time.process_time``, every thread) per /cast:

- ``same minute``: one moment again and again (what the caches are for);
- ``same hour``: a study group's casts within one 時, each its own minute;
- ``new hours``: a chart moment never shown before each time (caches warm from earlier rounds
  only for the charts' classical parts);

each with the picture off and on (drawn in this process, as the bot draws it on a machine of one
core or with ``LIUREN_DRAWING=thread``, its allocator set so: with the drawing process, the bot's
loop pays ~0.36 ms a picture and the drawing is the child's, as ``bench/bot_bench.py`` prints), the
collector set as the bot's process sets it once started (``bot.core.collector.settle``, after the
warm-up cast: start-up's objects frozen, the youngest generation searched every ``YOUNG_THRESHOLD``
allocations). Each figure is the median over ``--rounds`` rounds, the order of the workloads
rotating; ratios are ours/peer. Then start-up: ``liuren cast --day 甲子 --yuejiang 亥 --hour 午`` beside
``python -c pass``, run alternately
``--starts`` times each (wall clock, median).
Not a test: timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from io import BytesIO
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from engine.school import School

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
from discord import ui

import engine
from bot.casebook.present import case_embeds
from bot.casebook.privacy import known_for
from bot.casebook.views import case_view
from bot.core.collector import settle
from bot.core.reader import Reader
from bot.core.worker import draw_apart
from bot.reply.send import picture_file
from bot.store import Case, GuildOptions
from texts.picture.draw import draw

ZONE = ZoneInfo("Asia/Tokyo")
NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
READER = Reader("ja", GuildOptions(), None, True, ZONE, "bot")


def _case(moment: datetime) -> Case:
    return Case(seq=1, id="AB12CD", guild_id=1, channel_id=2, author_id=3, private=False,
                instant=moment, zone=ZONE, day=None, yuejiang=None, hour=None,
                school=School(), question=None, birth_year=None, sex=None, created_at=0)


def ours(when: str, picture: bool) -> dict[str, Any]:
    """The real path of one /cast (``send_case``'s work): its reply as discord.py would send it."""
    moment = READER.moment(when, NOW)
    chart = engine.cast(moment, school=READER.school)
    case = _case(moment)
    chart, reply = case_embeds(case, READER.lang, zone_note=READER.zone_note(), chart=chart, alone=False)
    embeds = reply.embeds
    view = case_view(case, READER.lang)
    payload: dict[str, Any] = {"components": view.to_components()}
    if picture:
        drawn = draw(chart, theme="dark", lang=READER.lang, known=known_for(chart, case, False),
                     highlight=reply.spirits)
        embeds[0].set_image(url=f"attachment://{drawn.filename}")
        upload = picture_file(drawn)
        payload["attachments"] = [upload.to_dict(0)]
    payload["embeds"] = [e.to_dict() for e in embeds]
    return payload


class Peer:
    """The reply ours sends, copied once; each /cast builds the same payload from it."""

    def __init__(self, copied: dict[str, Any], png: bytes) -> None:
        self.embeds = [discord.Embed.from_dict(e) for e in copied["embeds"]]
        self.buttons = [(c["label"], discord.ButtonStyle(c["style"]), c["custom_id"])
                        for r in copied["components"] for c in r["components"]]
        self.png = png

    def reply(self, when: str, picture: bool) -> dict[str, Any]:
        view = ui.View(timeout=None)
        for label, style, custom_id in self.buttons:
            view.add_item(ui.Button(label=label, style=style, custom_id=custom_id))
        view.stop()
        payload: dict[str, Any] = {"components": view.to_components()}
        if picture:
            upload = discord.File(BytesIO(self.png), filename="liuren.png", description="alt")
            payload["attachments"] = [upload.to_dict(0)]
        payload["embeds"] = [e.to_dict() for e in self.embeds]
        return payload


def per_call(work: Callable[[str, bool], object], whens: list[str], picture: bool) -> float:
    start = time.process_time()
    for when in whens:
        work(when, picture)
    return (time.process_time() - start) / len(whens) * 1e6


CLI = ("cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午")


def startup(starts: int) -> tuple[float, float]:
    """Median wall ms of the CLI cast and of a bare interpreter, run alternately, with the bytecode
    cached as an installed package has it (in a cache of this run's own: PYTHONPYCACHEPREFIX, even
    where PYTHONDONTWRITEBYTECODE is set, which would compile every module at every start)."""
    script = shutil.which("liuren")
    cli = [script, *CLI] if script else [sys.executable, "-m", "texts.cli", *CLI]
    bare = [sys.executable, "-c", "pass"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="liuren-pycache-")
    subprocess.run(cli, check=True, stdout=subprocess.DEVNULL, env=env)  # writes the bytecode
    times: dict[str, list[float]] = {"cli": [], "bare": []}
    for _ in range(starts):
        for name, argv in (("cli", cli), ("bare", bare)):
            t = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
            times[name].append((time.perf_counter() - t) * 1000)
    return statistics.median(times["cli"]), statistics.median(times["bare"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="casts per workload and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=15, help="start-ups of the CLI and of a bare interpreter")
    parser.add_argument("--quick", action="store_true", help="2 casts, one round, 1 start-up")
    args = parser.parse_args(argv)
    if args.quick:
        # 2: the same hour's second cast is a minute of its own (the first is the warm-up's minute)
        args.count, args.rounds, args.starts = 2, 1, 1
    hour = datetime(2026, 11, 29, 13, 0)
    same_minute = [f"{hour:%Y-%m-%d %H:%M}"] * args.count
    same_hour = [f"{hour + timedelta(minutes=i % 120):%Y-%m-%d %H:%M}" for i in range(args.count)]
    fresh = iter(range(10**9))

    def new_hours() -> list[str]:
        return [f"{datetime(1960, 1, 1, 1) + timedelta(hours=2 * next(fresh)):%Y-%m-%d %H:%M}"
                for _ in range(args.count)]

    copied = ours(same_minute[0], picture=True)  # first-use work (imports, fonts, words) is not a cast's
    peer = Peer(copied, draw(engine.cast(READER.moment(same_minute[0], NOW))).png)
    draw_apart(False)  # the pictures drawn here: the allocator as a bot drawing in its own process has it
    settle()  # the collector as the bot runs with it (bot/__main__.py settles once READY)
    workloads: list[tuple[str, Callable[[], list[str]]]] = [
        ("same minute", lambda: same_minute), ("same hour", lambda: same_hour), ("new hours", new_hours),
    ]
    runs: dict[tuple[str, bool, str], list[float]] = {}
    jobs = [(name, picture, who) for name, _ in workloads for picture in (False, True) for who in ("ours", "peer")]
    moments = dict(workloads)
    for r in range(args.rounds):
        shift = r % len(jobs)
        for name, picture, who in jobs[shift:] + jobs[:shift]:
            work = ours if who == "ours" else peer.reply
            runs.setdefault((name, picture, who), []).append(per_call(work, moments[name](), picture))
    print(f"µs CPU per /cast (median of {args.rounds} rounds × {args.count}), moment text → reply payload")
    print(f"{'workload':<24} {'ours':>10} {'peer':>10} {'ours/peer':>10}  ours min–max")
    for name, _ in workloads:
        for picture in (False, True):
            mine = runs[(name, picture, "ours")]
            theirs = statistics.median(runs[(name, picture, "peer")])
            label = f"{name}, picture {'on' if picture else 'off'}"
            print(f"{label:<24} {statistics.median(mine):10.1f} {theirs:10.1f} "
                  f"{statistics.median(mine) / theirs:9.2f}×  {min(mine):.0f}–{max(mine):.0f}")
    print("target: a warm /cast (same minute or hour) ≤ 120 µs of the project's own CPU "
          "(ours − peer)")
    cli, bare = startup(args.starts)
    print(f"start-up: liuren {' '.join(CLI)} {cli:.0f} ms, python -c pass {bare:.0f} ms: {cli / bare:.2f}× "
          f"(median of {args.starts}; target ≤ 3.5×; load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
