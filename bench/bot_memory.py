"""The memory run of bench/bot_bench.py: which moments it casts, and where ours holds its memory.

The memory figure is the resident set after 10,000 distinct casts with pictures *and a full chart
cache*. engine.cast_classical keeps every chart it built, one per (day pillar, 月将, hour branch)
and school: 60 × 12 × 12 = 8,640 for the default school, and a cast from an instant shares that
chart. Moments two hours apart from 1960 reach only 5,265 of them in 10,000 casts (61 %), so
:func:`memory_moments` walks the 時 from 1960 (each a new chart moment) and takes every one whose
inputs are new until all 8,640 are cast, then as many others, spread evenly over the walk, as
make up the count: every cast a distinct moment and picture, the chart cache full.

:func:`resident` reads a process's resident set by kind of mapping from /proc (no cost to it): the
C library's main heap, its per-thread arenas, other anonymous memory (Python's object arenas among
it), and files (the interpreter, libraries). :class:`Tracer` writes a ``sitecustomize`` that starts
``tracemalloc`` in ours and dumps a snapshot on SIGUSR1 (``--where``): what the memory run left
allocated, by file and line. Tracing costs time and memory, so a traced run's RSS is not the figure.
"""

from __future__ import annotations

import linecache
import signal
import subprocess
import sysconfig
import time
import tracemalloc
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import engine
from engine.symbols import BRANCHES

ZONE = "Asia/Tokyo"  # the bot's LIUREN_TZ in the benchmark: the moments are read in it
START = datetime(1960, 1, 1, 1)  # 丑時's start: every step of two hours is the start of the next 時
CHART_INPUTS = 60 * len(BRANCHES) * len(BRANCHES)  # what a full cache holds, per school


def _key(chart: engine.Chart) -> tuple[int, int, int]:
    return chart.day.index, int(chart.yuejiang), int(chart.hour)


def memory_moments(count: int) -> tuple[list[str], int]:
    """``count`` distinct moments as /cast's ``when`` text (each its own 時, minutes varied), and how
    many distinct chart inputs they cast: ``CHART_INPUTS`` whenever ``count`` reaches it."""
    zone = ZoneInfo(ZONE)
    new: list[datetime] = []  # the first moment of each chart input, in walk order
    other: list[datetime] = []  # moments whose chart input came earlier in the walk
    seen: set[tuple[int, int, int]] = set()
    at = START
    while len(seen) < min(count, CHART_INPUTS):
        key = _key(engine.cast(at.replace(tzinfo=zone)))
        (other if key in seen else new).append(at)
        seen.add(key)
        at += timedelta(hours=2)
    extra = count - len(new)
    while len(other) < extra:  # only when count exceeds the walk: more of the same 時 inputs, later
        other.append(at)
        at += timedelta(hours=2)
    chosen = new + ([other[i * len(other) // extra] for i in range(extra)] if extra > 0 else [])
    chosen.sort()
    return [f"{m + timedelta(minutes=n % 60):%Y-%m-%d %H:%M}" for n, m in enumerate(chosen)], len(seen)


_THREAD_HEAP = 64 * 2**20  # glibc's HEAP_MAX_SIZE on 64-bit: a thread arena's heap starts on this boundary


def resident(pid: int) -> dict[str, float]:
    """MB resident by kind of mapping (/proc/PID/smaps): the C library's "main heap", its "thread
    arenas", "other anonymous" memory (Python's object arenas, blocks mapped on their own, stacks:
    adjacent ones merge into one mapping, so they are not told apart) and "files" (the interpreter,
    the libraries)."""
    kinds = dict.fromkeys(("main heap", "thread arenas", "other anonymous", "files"), 0.0)
    kind = "files"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and not head[0].endswith(":"):
            start = int(head[0].split("-")[0], 16)
            name = head[5] if len(head) > 5 else ""
            if name == "[heap]":
                kind = "main heap"
            elif name:
                kind = "files"  # a path, or [stack], [vdso]…
            else:
                kind = "thread arenas" if start % _THREAD_HEAP == 0 else "other anonymous"
        elif head and head[0] == "Rss:":
            kinds[kind] += int(head[1]) / 1024
    return kinds


_HOOK = '''\
import os, signal, tracemalloc
tracemalloc.start({frames})
def _dump(signum, frame):
    path = {path!r} + "." + str(_dump.n)
    tracemalloc.take_snapshot().dump(path + ".part")
    os.rename(path + ".part", path)  # whole, or not there yet
    _dump.n += 1
_dump.n = 0
signal.signal(signal.SIGUSR1, _dump)
'''


class Tracer:
    """A folder holding a ``sitecustomize.py`` that starts tracemalloc (put it first on ours'
    PYTHONPATH); each SIGUSR1 to that process dumps a snapshot, which :meth:`snapshot` waits for."""

    def __init__(self, folder: Path, frames: int = 1) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "sitecustomize.py").write_text(_HOOK.format(frames=frames, path=str(folder / "snapshot")))
        self.folder = folder
        self.taken = 0

    def snapshot(self, process: subprocess.Popen[bytes], wait_s: float = 300.0) -> Path:
        """The path of a snapshot ``process`` dumped when asked, once wholly written."""
        path = self.folder / f"snapshot.{self.taken}"
        self.taken += 1
        process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + wait_s
        while not path.exists():
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"no {path} from process {process.pid}")
            time.sleep(0.2)
        return path


def where(before: Path, after: Path, root: Path, lines: int = 25) -> list[str]:
    """What grew between two snapshots: the total, by file, and the top ``lines`` lines."""
    old, new = tracemalloc.Snapshot.load(str(before)), tracemalloc.Snapshot.load(str(after))
    out = []
    by_line = new.compare_to(old, "lineno")
    total = sum(s.size_diff for s in by_line)
    out.append(f"  traced growth {total / 2**20:.1f} MB (still allocated; the allocator's own holding is not traced)")
    for stat in new.compare_to(old, "filename")[:12]:
        out.append(f"  {stat.size_diff / 2**20:8.2f} MB  {_short(stat.traceback[0].filename, root)}")
    for stat in by_line[:lines]:
        frame = stat.traceback[0]
        code = linecache.getline(frame.filename, frame.lineno).strip()[:70]
        out.append(f"  {stat.size_diff / 2**20:8.2f} MB {stat.count_diff:9,d}  "
                   f"{_short(frame.filename, root)}:{frame.lineno}  {code}")
    return out


def _short(filename: str, root: Path) -> str:
    for prefix in (str(root) + "/", sysconfig.get_paths()["purelib"] + "/", sysconfig.get_paths()["stdlib"] + "/"):
        if filename.startswith(prefix):
            return filename[len(prefix):]
    return filename
