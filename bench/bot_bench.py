"""Benchmark: /cast under load, the real bot against a peer doing the same Discord work.

    python bench/bot_bench.py                  # 4 rounds of 512 per workload, 64 in flight, 10,000 for memory
    python bench/bot_bench.py --quick          # a smoke run: 1 round of 4, 4 in flight, 4 for memory
    python bench/bot_bench.py --memory 0       # the latency and CPU rounds only
    python bench/bot_bench.py --peer-twice     # the peer against itself: the bench's own noise

Three processes besides this one, which only orchestrates (it waits on pipes while a round runs):

- the stand-in host: ``python bench/bot_bench.py --serve`` runs two stand-ins of Discord
  (testkit/discord_standin.py), one per bot, and drives the interactions (C in flight) when told;
- ours: ``python -m bot`` on a fresh SQLite file;
- the peer: ``bench/peer_bot.py``, a bare discord.py client whose /cast sends the reply ours sent,
  copied at start (the same embeds, the same five buttons, an upload of the same PNG bytes; the
  same followups), so the difference is the project's own work.

Ours starts first; one /cast with and one without the picture are taken from it and written to a
file the peer reads. Then both are connected at once and every round runs each workload on both,
one after the other, the order alternating from round to round, so a machine busy with other work
slows both alike. Workloads (64 in flight by default):

- ``new minutes, picture on``: every interaction a minute never cast before (ours and the peer get
  the same moments), the picture attached;
- ``same moment, no picture``: one moment again and again, no picture;
- ``new 時, picture on``: every interaction a 時 never cast before (two hours on from the last, from
  ``NEW_HOURS_BASE``: a new chart, reading, reply and picture each time, as a study group going
  through dates, a quiz or the site asks), the users cycled as in the others, the picture attached.

Figures: latency from INTERACTION_CREATE sent to the callback received, at the stand-in (median, p95
and mean over all rounds); for the workloads with a picture, also to the picture's arrival (ours
sends a picture not drawn yet as an edit of its reply; the peer's comes with it, so its two figures
are one); the bot's CPU per interaction (user + system time of its process, from /proc, over the
round, with the processes it started: ours' drawing process; the median of the rounds; and of it,
the main thread's, which runs the event loop: the rest is worker threads, drawing pictures and
writing the database). Beside them, to read a latency ratio by: the round's wall time per
interaction (its inverse is the throughput at C in flight) and the stand-in host's CPU per
interaction (the same work for both bots; the two bots' and the host's processes share the machine's
cores, so where the host's CPU nears the wall time, the host, not the bot, is what paces the round).
The machine's speed drifts between rounds, so each workload also prints its ratios round by round,
ours against the peer that ran beside it in that round, as median (min–max).
Then memory: ``--memory N`` distinct casts with pictures (each a new chart moment and picture; from
8,640 on, the chart cache full: bench/bot_memory.py says how) and the resident set (VmRSS) of each
bot, with the processes it started (ours' drawing process), at start, before them and after them.
Ratios are ours/peer.
Then start-up: ``--startup N`` starts of each bot, alternated, timed from the process's start to its
IDENTIFY at the stand-in (READY is sent back at once): ours on the bench's database, migrated by then,
its modules compiled and its data's parses kept first, as an install has them (``as_installed``).
``--peer-twice`` runs the rounds with a second peer in ours' place (ours is started only for the
reply the peers copy): two bots doing the same work, so its ratios are what the bench itself reads
as a difference (its figures are in docs/performance.md). Read ours/peer against it.
``--where`` runs ours under tracemalloc and prints what the memory casts left allocated, by file and
line (slower; that run's RSS is not the figure). Nothing is asserted: the figures are printed with the
load average, since the machine may be running other work; the exit status is 0 when all ran.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import ctypes
import ctypes.util
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bot_memory import CHART_INPUTS, Tracer, memory_moments, resident, where  # noqa: E402

if TYPE_CHECKING:  # the stand-in host alone runs it (serve): the orchestrator need not import aiohttp
    from testkit.discord_standin import DiscordStandIn

CONNECT_TIMEOUT_S = 60.0
CALLBACK_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0
WARM_UP = 16
CLEAR_EVERY = 256  # the stand-in forgets what it recorded (uploads included) this often
BASE = datetime(2026, 11, 29, 9, 1)
SAME_MOMENT = "2026-11-29 14:00"
NEW_HOURS_BASE = datetime(2027, 3, 1, 0, 20)  # far from BASE: no 時 of the new minutes' is met again
NEW_MINUTES = "new minutes, picture on"
SAME = "same moment, no picture"
NEW_HOURS = "new 時, picture on"
WORKLOADS = (NEW_MINUTES, SAME, NEW_HOURS)
TICK = os.sysconf("SC_CLK_TCK")
DEFERRED = [0]  # in the stand-in host: interactions answered by a deferral, then an edit
EXPIRED = [0]  # … deferred, and never answered (the stand-in expires an interaction after 3 s)
EDIT_TIMEOUT_S = 20.0
MEMORY_IN_FLIGHT = 8  # the memory run: enough to keep both cores busy, few enough to answer in time
USERS = 10**17  # the users' ids: USERS + n % GROUP
GROUP = 1024
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In a child: end when this orchestrator ends, however it ends (no bot left running)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


MEMORY_MOMENTS: list[str] = []  # in the stand-in host: the memory run's moments (bench/bot_memory.py)


def options_for(workload: str, n: int) -> dict[str, Any]:
    """The /cast options of interaction ``n`` of a workload (the same for ours and the peer)."""
    if workload == NEW_MINUTES:
        return {"when": f"{BASE + timedelta(minutes=n):%Y-%m-%d %H:%M}", "image": True}
    if workload == SAME:
        return {"when": SAME_MOMENT, "image": False}
    if workload == NEW_HOURS:
        return {"when": f"{NEW_HOURS_BASE + timedelta(hours=2 * n):%Y-%m-%d %H:%M}", "image": True}
    # memory: a distinct moment each time, with its picture, until the chart cache is full and beyond
    return {"when": MEMORY_MOMENTS[n], "image": True}


# -- the stand-in host (its own process) --------------------------------------------------------

def user_of(n: int) -> int:
    """Interaction ``n``'s user, of a study group of ``GROUP`` taking turns: each casts a few times
    in a run, within the per-user cooldown (one user casting 64 at once would meet it)."""
    return USERS + n % GROUP


async def _cast(standin: DiscordStandIn, options: Mapping[str, Any], n: int) -> tuple[float, float]:
    """One /cast; ms until the chart reached the stand-in: the callback, or for a bot that first
    deferred (type 5, as one that cannot answer within Discord's 3 s does) the edit that followed;
    and ms until its picture did (the same message, or the edit adding a picture that was still
    being drawn when the text went out; the first figure again without a picture).
    A reply that is not the chart (an error, a cooldown) fails the run."""
    sent = time.perf_counter()
    callback = await standin.slash("cast", options, timeout=CALLBACK_TIMEOUT_S, user_id=user_of(n))
    body, at = callback.body, sent + callback.elapsed
    path = f"/webhooks/{standin.application_id}/{callback.token}"
    if callback.type == 5:
        DEFERRED[0] += 1
        try:
            edit = await standin.wait_request(lambda r: r.path.startswith(path) and r.method in ("PATCH", "POST"),
                                              timeout=EDIT_TIMEOUT_S)
        except TimeoutError:  # the stand-in, as Discord, expires an interaction not answered in time
            EXPIRED[0] += 1
            return float("nan"), float("nan")
        body, at = {"type": 4, "data": edit.body or {}, "_files": (edit.body or {}).get("_files", [])}, edit.at
    data = body.get("data") or {}
    if body.get("type") != 4 or int(data.get("flags") or 0) & 64 or not data.get("embeds") \
            or not data.get("components"):
        raise RuntimeError(f"/cast answered with something else than the chart: {str(body)[:300]}")
    pictured = at
    if options.get("image", True) and not body.get("_files"):  # the picture follows by an edit
        edit = await standin.wait_request(
            lambda r: r.path.startswith(path) and r.method == "PATCH" and bool((r.body or {}).get("_files")),
            timeout=EDIT_TIMEOUT_S)
        if edit.status != 200:
            raise RuntimeError(f"/cast's picture edit refused ({edit.status})")
        body, pictured = {"_files": edit.body["_files"]}, edit.at
    if bool(body.get("_files")) != bool(options.get("image", True)):
        raise RuntimeError(f"/cast with image={options.get('image')} answered with {len(body.get('_files', []))} files")
    return (at - sent) * 1000, (pictured - sent) * 1000


async def _sample(standin: DiscordStandIn, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the bot sent for one /cast: the callback's message with its file (added by an edit
    when the picture was drawn after the text went out), its followups."""
    callback = await standin.slash("cast", options, timeout=CALLBACK_TIMEOUT_S, user_id=user_of(-1))
    await asyncio.sleep(1.0)  # its followups, if any
    path = f"/webhooks/{standin.application_id}/{callback.token}"
    followups = [{k: v for k, v in (r.body or {}).items() if not k.startswith("_")}
                 for r in standin.requests if r.method == "POST" and r.path == path]
    first, uploaded = dict(callback.data), callback.files
    if options.get("image", True) and not uploaded:
        edit = (await standin.original_edit(callback)).body
        first.update(embeds=edit["embeds"], attachments=edit.get("attachments") or [])
        uploaded = edit["_files"]
    files = [{"filename": f["filename"], "data": base64.b64encode(f["data"]).decode()} for f in uploaded]
    attachments = first.get("attachments") or []
    for entry, attached in zip(files, attachments, strict=False):
        entry["description"] = attached.get("description")
    return {"first": {k: v for k, v in first.items() if k != "attachments"},
            "files": files, "followups": followups}


async def _run(standin: DiscordStandIn, workload: str, start: int, count: int,
               concurrency: int) -> list[tuple[float, float]]:
    in_flight = asyncio.Semaphore(concurrency)

    async def bounded(n: int) -> tuple[float, float]:
        async with in_flight:
            return await _cast(standin, options_for(workload, n), n)

    latencies: list[tuple[float, float]] = []
    for chunk in range(start, start + count, CLEAR_EVERY):
        latencies += await asyncio.gather(*(bounded(n) for n in range(chunk, min(start + count, chunk + CLEAR_EVERY))))
        standin.requests.clear()  # nothing waits now; keeps the host's memory flat
        standin.messages.clear()
    return latencies


async def _identified(standin: DiscordStandIn, past: int) -> None:
    while len(standin.identifies) <= past:  # READY is the stand-in's answer to the IDENTIFY, sent at once
        await asyncio.sleep(0.001)


async def serve() -> int:
    """Two stand-ins; JSON commands on stdin, one JSON answer per line on stdout."""
    from testkit.discord_standin import DiscordStandIn

    standins = {"ours": DiscordStandIn(), "peer": DiscordStandIn()}
    for standin in standins.values():
        await standin.start()
    out = sys.stdout
    out.write(json.dumps({who: {**s.env(), "DISCORD_TOKEN": s.token} for who, s in standins.items()}) + "\n")
    out.flush()
    loop = asyncio.get_running_loop()
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            ask = json.loads(line)
            standin = standins.get(ask.get("who", "ours"), standins["ours"])
            answer: Any
            if ask["op"] == "connected":
                await standin.wait_connected(timeout=CONNECT_TIMEOUT_S)
                answer = True
            elif ask["op"] == "sample":
                answer = await _sample(standin, ask["options"])
            elif ask["op"] == "identified":  # the IDENTIFYs so far, once there are more than ``past``
                await asyncio.wait_for(_identified(standin, ask["past"]), CONNECT_TIMEOUT_S)
                answer = len(standin.identifies)
            elif ask["op"] == "moments":
                MEMORY_MOMENTS[:], answer = memory_moments(ask["count"])
            elif ask["op"] == "run":
                DEFERRED[0] = EXPIRED[0] = 0
                both = await _run(standin, ask["workload"], ask["start"], ask["count"], ask["concurrency"])
                answer = {"latencies": [x for x, _ in both], "pictures": [y for _, y in both],
                          "deferred": DEFERRED[0], "expired": EXPIRED[0]}
            else:
                break
            errors = [repr(e) for s in standins.values() for e in s.errors]
            out.write(json.dumps({"answer": answer, "errors": errors}) + "\n")
            out.flush()
    finally:
        for standin in standins.values():
            await standin.stop()
    return 0


# -- the orchestrator ---------------------------------------------------------------------------

class Host:
    """The stand-in host process, spoken to line by line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, "--serve"], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)
        self.env: dict[str, dict[str, str]] = json.loads(self._read())

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the stand-in host ended")
        return line

    def ask(self, **command: Any) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self._read())
        if reply["errors"]:
            raise RuntimeError(f"the stand-in failed: {reply['errors'][0]}")
        return reply["answer"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(STOP_TIMEOUT_S)


Part = Literal["all", "loop", "children"]  # what of a bot cpu_s counts


def family(pid: int) -> list[int]:
    """``pid`` and the processes it started, theirs too (ours' drawing process: its CPU and memory
    are the bot's), as /proc lists them now."""
    found = [pid]
    for parent in found:
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            with contextlib.suppress(OSError):  # a thread or process gone meanwhile
                found += [int(child) for child in children.read_text().split()]
    return found


def cpu_s(pid: int, part: Part = "all") -> float:
    """User + system CPU seconds (from /proc) of process ``pid`` with those it started (``all``), of
    its main thread alone (``loop``), or of those it started alone (``children``)."""
    if part == "loop":
        stats = [Path(f"/proc/{pid}/task/{pid}/stat")]
    else:  # the process tree, read once, with or without its root
        pids = family(pid)
        stats = [Path(f"/proc/{each}/stat") for each in (pids[1:] if part == "children" else pids)]
    total = 0
    for stat in stats:
        with contextlib.suppress(FileNotFoundError):  # a child gone meanwhile: its time is lost with it
            fields = stat.read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / TICK


@dataclass
class Bot:
    """A bot process under test and what was measured of it."""

    label: str
    process: subprocess.Popen[bytes]
    log: TextIO
    latencies: dict[str, list[float]] = field(default_factory=dict)
    round_medians: dict[str, list[float]] = field(default_factory=dict)  # each round's latency median
    pictured: dict[str, list[float]] = field(default_factory=dict)  # latencies until the picture arrived
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)
    loop_ms: dict[str, list[float]] = field(default_factory=dict)  # … of it on the main (event loop's) thread
    child_ms: dict[str, list[float]] = field(default_factory=dict)  # … of it in the processes it started
    wall_ms: dict[str, list[float]] = field(default_factory=dict)  # the round's wall time per interaction
    host_ms: dict[str, list[float]] = field(default_factory=dict)  # … and the stand-in host's CPU per interaction
    deferred: dict[str, int] = field(default_factory=dict)  # answered by a deferral, then an edit
    expired: dict[str, int] = field(default_factory=dict)  # deferred and never answered
    sent: int = 0

    def cpu_s(self, part: Part = "all") -> float:
        """User + system CPU seconds of the process with those it started, or of its main thread (the
        one running the event loop; the rest is worker threads and the drawing process), or of the
        processes it started (``cpu_s``)."""
        return cpu_s(self.process.pid, part)

    def rss_mb(self, *, own: bool = False) -> float:
        """The resident set (VmRSS) of the process and those it started, or with ``own`` of the
        process alone."""
        total = 0.0
        for pid in [self.process.pid] if own else family(self.process.pid):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
                    break
            else:
                raise RuntimeError(f"no VmRSS for {self.label} ({pid})")
        return total

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_TIMEOUT_S)
        self.log.close()


def spawn(label: str, argv: list[str], env: Mapping[str, str], workdir: Path, host: Host, tree: Path = ROOT,
          tracer: Tracer | None = None, log_name: str | None = None) -> Bot:
    """A bot's process started, pointed at ``label``'s stand-in (not waited for)."""
    log = open(workdir / f"{log_name or label}.log", "w")  # noqa: SIM115 - closed by Bot.stop
    path = str(tree) if tracer is None else f"{tracer.folder}{os.pathsep}{tree}"
    full = {**{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LIUREN_"))}, **env,
            **host.env[label], "PYTHONPATH": path}
    process = subprocess.Popen(argv, cwd=tree, env=full, stdout=log, stderr=log, preexec_fn=_die_with_parent)
    return Bot(label, process, log)


def start(label: str, argv: list[str], env: Mapping[str, str], workdir: Path, host: Host, tree: Path = ROOT,
          tracer: Tracer | None = None) -> Bot:
    """A bot started and connected (``tracer``: under tracemalloc, bench/bot_memory.py)."""
    bot = spawn(label, argv, env, workdir, host, tree, tracer)
    try:
        host.ask(op="connected", who=label)
    except Exception:
        bot.stop()
        raise RuntimeError(f"{label} did not connect; see {workdir / (label + '.log')}") from None
    return bot


def as_installed(tree: Path) -> None:
    """Ours' modules compiled and its data's TOML parses kept, as an install leaves them (pip
    compiles the modules; the image and the service run ``keep_all``: Dockerfile,
    deploy/liuren-bot.service), so a start with ``PYTHONDONTWRITEBYTECODE`` set, which writes none,
    times the bot and not a first run's compiling; the peer's discord.py is installed, compiled."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "bot", "engine", "texts"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-c", "from texts.shipped import keep_all; keep_all()"], cwd=tree,
                   check=True)


def startup_ms(host: Host, label: str, argv: list[str], env: Mapping[str, str], workdir: Path,
               tree: Path = ROOT) -> float:
    """Milliseconds from a bot's process start to its IDENTIFY at the stand-in (READY is the
    answer, sent at once); the process is stopped then."""
    seen = host.ask(op="identified", who=label, past=-1)
    started = time.perf_counter()
    bot = spawn(label, argv, env, workdir, host, tree, log_name=f"{label}-start")
    try:
        host.ask(op="identified", who=label, past=seen)
        return (time.perf_counter() - started) * 1000
    finally:
        bot.stop()


def run_round(host: Host, bot: Bot, workload: str, count: int, concurrency: int, start_at: int) -> None:
    before, loop_before, child_before = bot.cpu_s(), bot.cpu_s("loop"), bot.cpu_s("children")
    host_before = cpu_s(host.process.pid)
    started = time.perf_counter()
    ran = host.ask(op="run", who=bot.label, workload=workload, start=start_at, count=count, concurrency=concurrency)
    bot.wall_ms.setdefault(workload, []).append((time.perf_counter() - started) / count * 1000)
    bot.host_ms.setdefault(workload, []).append((cpu_s(host.process.pid) - host_before) / count * 1000)
    bot.cpu_ms.setdefault(workload, []).append((bot.cpu_s() - before) / count * 1000)
    bot.loop_ms.setdefault(workload, []).append((bot.cpu_s("loop") - loop_before) / count * 1000)
    bot.child_ms.setdefault(workload, []).append((bot.cpu_s("children") - child_before) / count * 1000)
    answered = [x for x in ran["latencies"] if x == x]  # not the expired (NaN)
    bot.latencies.setdefault(workload, []).extend(answered)
    bot.pictured.setdefault(workload, []).extend(x for x in ran["pictures"] if x == x)
    bot.round_medians.setdefault(workload, []).append(statistics.median(answered) if answered else float("nan"))
    bot.deferred[workload] = bot.deferred.get(workload, 0) + ran["deferred"]
    bot.expired[workload] = bot.expired.get(workload, 0) + ran["expired"]


def row(label: str, mine: float, theirs: float, unit: str) -> str:
    ratio = f"{mine / theirs:8.2f}×" if theirs else "       —"  # a few interactions can take < 1 clock tick
    return f"  {label:<34} {mine:9.2f} {unit:<3} {theirs:9.2f} {unit:<3} {ratio}"


def paired(mine: list[float], theirs: list[float]) -> str:
    """Each round's ours/peer (the two ran back to back in it), as median (min–max): a drift of the
    machine between rounds, which moves both alike, moves this less than the pooled figures."""
    ratios = sorted(m / t for m, t in zip(mine, theirs, strict=True) if t and m == m and t == t)
    if not ratios:
        return "—"
    return f"{statistics.median(ratios):.2f}× ({ratios[0]:.2f}–{ratios[-1]:.2f})"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=512, help="interactions per workload per round and bot")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=64, help="interactions in flight")
    parser.add_argument("--memory", type=int, default=10_000, help="distinct casts with pictures before the RSS")
    parser.add_argument("--startup", type=int, default=10, help="starts of each bot timed to READY, interleaved")
    parser.add_argument("--quick", action="store_true", help="1 round of 4, 4 in flight, 4 for memory, 1 start")
    parser.add_argument("--where", action="store_true",
                        help="ours under tracemalloc: what the memory casts left allocated, by line (slower)")
    parser.add_argument("--ours-tree", type=Path, default=ROOT,
                        help="run ours from another source tree (`git archive` of an earlier commit: before/after)")
    parser.add_argument("--peer-twice", action="store_true",
                        help="ours replaced by a second peer once its reply is copied: the bench's own "
                             "noise and bias, to read the ours/peer ratios against (no memory run)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return asyncio.run(serve())
    if args.quick:
        args.count, args.rounds, args.concurrency, args.memory, args.startup = 4, 1, 4, 4, 1
    if args.peer_twice:  # the rounds only: a memory run of two peers would say nothing of ours
        args.memory = 0
    if not (1 <= args.count <= 100_000 and 1 <= args.concurrency <= 256 and args.rounds >= 1):
        parser.error("--count 1…100000, --concurrency 1…256, --rounds ≥ 1")
    workdir = Path(tempfile.mkdtemp(prefix="liuren-bench-"))
    host = Host()
    bots: list[Bot] = []
    tracer = Tracer(workdir / "trace") if args.where else None
    try:
        inputs = host.ask(op="moments", count=args.memory) if args.memory else 0
        ours = start("ours", [sys.executable, "-m", "bot"],
                     {"LIUREN_DB": str(workdir / "bench.sqlite3"), "LIUREN_TZ": "Asia/Tokyo"}, workdir, host,
                     args.ours_tree.resolve(), tracer)
        bots.append(ours)
        reply = {"picture": host.ask(op="sample", who="ours", options=options_for(NEW_MINUTES, -1)),
                 "plain": host.ask(op="sample", who="ours", options=options_for(SAME, 0))}
        (workdir / "reply.json").write_text(json.dumps(reply))
        peer_argv = [sys.executable, str(ROOT / "bench" / "peer_bot.py")]
        peer_env = {"PEER_REPLY": str(workdir / "reply.json")}
        if args.peer_twice:  # "ours" is a peer too, on ours' stand-in, from here on
            ours.stop()
            bots.remove(ours)
            ours = start("ours", peer_argv, peer_env, workdir, host)
            bots.append(ours)
        peer = start("peer", peer_argv, peer_env, workdir, host)
        bots.append(peer)
        picture = reply["picture"]
        sizes = [len(base64.b64decode(f["data"])) for f in picture["files"]]
        print(f"reply copied from ours: {len(picture['first'].get('embeds', []))} embeds, "
              f"{sum(len(r['components']) for r in picture['first'].get('components', []))} buttons, "
              f"{len(picture['followups'])} followups, upload {sum(sizes) / 1024:.1f} KiB")
        for bot in bots:  # first-use work (imports, fonts, caches) is not a round's (nor its deferrals)
            host.ask(op="run", who=bot.label, workload=SAME, start=0, count=WARM_UP, concurrency=4)
        at_start = {bot.label: bot.rss_mb() for bot in bots}
        print(f"before the rounds: {load()}")
        for r in range(args.rounds):
            for workload in WORKLOADS:
                for bot in bots if r % 2 == 0 else bots[::-1]:
                    run_round(host, bot, workload, args.count, args.concurrency, r * args.count)
        print(f"after the rounds:  {load()}")
        what = ("bench/peer_bot.py as well (--peer-twice: the ratios are the bench's own noise and bias)"
                if args.peer_twice else f"python -m bot ({args.ours_tree})")
        print(f"{args.rounds} rounds × {args.count} /cast per workload and bot, {args.concurrency} in flight; "
              f"ours = {what}, peer = bench/peer_bot.py (the same reply, bare discord.py)")
        print(f"  {'':34} {'ours':>13} {'peer':>13} {'ours/peer':>9}")
        for workload in WORKLOADS:
            print(f" {workload}")
            mine, theirs = ours.latencies[workload], peer.latencies[workload]
            print(row("latency median", statistics.median(mine), statistics.median(theirs), "ms"))
            print(row("latency p95", p95(mine), p95(theirs), "ms"))
            print(row("latency mean", statistics.fmean(mine), statistics.fmean(theirs), "ms"))
            if workload != SAME:  # ours may send the picture after the text: until it arrived, too
                mine, theirs = ours.pictured[workload], peer.pictured[workload]
                print(row("latency to the picture, median", statistics.median(mine), statistics.median(theirs), "ms"))
                print(row("latency to the picture, p95", p95(mine), p95(theirs), "ms"))
            print(row("bot CPU per interaction", statistics.median(ours.cpu_ms[workload]),
                      statistics.median(peer.cpu_ms[workload]), "ms"))
            print(row("  of it on the event loop's thread", statistics.median(ours.loop_ms[workload]),
                      statistics.median(peer.loop_ms[workload]), "ms"))
            print(row("  of it in the processes it started", statistics.median(ours.child_ms[workload]),
                      statistics.median(peer.child_ms[workload]), "ms"))
            print(row("wall time per interaction", statistics.median(ours.wall_ms[workload]),
                      statistics.median(peer.wall_ms[workload]), "ms"))
            print(row("stand-in host CPU per interaction", statistics.median(ours.host_ms[workload]),
                      statistics.median(peer.host_ms[workload]), "ms"))
            by_round = paired(ours.round_medians[workload], peer.round_medians[workload])
            print(f"  {'ours/peer round by round':<34} latency median {by_round}, "
                  f"CPU {paired(ours.cpu_ms[workload], peer.cpu_ms[workload])}")
            print(f"  {'deferred, then edited':<34} {ours.deferred[workload]:9d}     {peer.deferred[workload]:9d}")
            print(f"  {'deferred, never answered':<34} {ours.expired[workload]:9d}     {peer.expired[workload]:9d}")
        if args.memory:
            before = {bot.label: bot.rss_mb() for bot in bots}
            first = tracer.snapshot(ours.process) if tracer is not None else None
            t = time.perf_counter()
            for bot in bots:
                ran = host.ask(op="run", who=bot.label, workload="memory", start=0, count=args.memory,
                               concurrency=min(args.concurrency, MEMORY_IN_FLIGHT))
                bot.deferred["memory"], bot.expired["memory"] = ran["deferred"], ran["expired"]
            in_flight = min(args.concurrency, MEMORY_IN_FLIGHT)
            print(f" memory: {args.memory:,} distinct casts with pictures each, {in_flight} in flight "
                  f"({time.perf_counter() - t:.0f} s), {load()}")
            print(f"  the casts' chart inputs: {inputs:,} of the {CHART_INPUTS:,} a full chart cache holds"
                  + (" (full)" if inputs == CHART_INPUTS else ""))
            print(row("RSS at start (connected, warmed up)", at_start["ours"], at_start["peer"], "MB"))
            print(row("RSS before the memory casts", before["ours"], before["peer"], "MB"))
            print(row("RSS after them", ours.rss_mb(), peer.rss_mb(), "MB"))
            kinds = {bot.label: {**resident(bot.process.pid),  # the bot's own process, by kind, then its children
                                 "processes it started": bot.rss_mb() - bot.rss_mb(own=True)} for bot in bots}
            for kind in kinds["ours"]:
                print(row(f"  of it: {kind}", kinds["ours"][kind], kinds["peer"][kind], "MB"))
            print(f"  {'deferred, then edited / never answered':<34} {ours.deferred['memory']:5d} / "
                  f"{ours.expired['memory']:<3d} {peer.deferred['memory']:5d} / {peer.expired['memory']}")
            if tracer is not None and first is not None:
                print(" what the memory casts left allocated in ours (tracemalloc; not the RSS figure):")
                print("\n".join(where(first, tracer.snapshot(ours.process), args.ours_tree.resolve())))
        if args.startup:
            ours_start = ([sys.executable, "-m", "bot"], {"LIUREN_DB": str(workdir / "bench.sqlite3"),
                                                           "LIUREN_TZ": "Asia/Tokyo"}, args.ours_tree.resolve())
            if args.peer_twice:
                ours_start = (peer_argv, peer_env, ROOT)
            for bot in bots:
                bot.stop()
            as_installed(args.ours_tree.resolve())
            times: dict[str, list[float]] = {"ours": [], "peer": []}
            for n in range(args.startup):  # alternated, as the rounds: a busy moment slows both alike
                for label in ("ours", "peer") if n % 2 == 0 else ("peer", "ours"):
                    argv_, env_, tree_ = ours_start if label == "ours" else (peer_argv, peer_env, ROOT)
                    times[label].append(startup_ms(host, label, argv_, env_, workdir, tree_))
            print(f" start-up: process start to READY, {args.startup} starts of each, interleaved; {load()}")
            print(row("median", statistics.median(times["ours"]), statistics.median(times["peer"]), "ms"))
            print(row("best", min(times["ours"]), min(times["peer"]), "ms"))
            print(f"  {'ours/peer start by start':<34} {paired(times['ours'], times['peer'])}")
        print(f"ratios ours/peer printed above; logs in {workdir}")
    finally:
        for bot in bots:
            bot.stop()
        host.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
