"""Every benchmark runs: each script in its quickest mode, as its own process,
from this tree, so a command the README names cannot rot unnoticed.

Timings are printed by the scripts and never asserted here (a loaded machine is slow, not wrong):
a run passes when it exits 0 without a traceback and prints its figures. bench/bot_bench.py exits 1
when the bot misses its targets; that is a figure too, so 0 and 1 both pass when it printed them.
bench/peer_bot.py is the peer bench/bot_bench.py starts and bench/bot_memory.py its memory run
(--quick casts 4 for memory), so they run there.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("LIUREN_TEST_POSTGRES", "")


class Run(NamedTuple):
    script: str
    args: tuple[str, ...]
    prints: str  # a line of its figures
    statuses: tuple[int, ...] = (0,)


RUNS = (
    Run("engine_bench.py", ("--quick",), "charts/s"),
    Run("pattern_counts.py", ("--quick",), "never held:"),
    Run("corpus_lookup.py", ("--quick",), "one reading's lookups"),
    Run("picture_bench.py", ("--quick",), "first picture in a fresh process"),
    Run("reading_bench.py", ("--quick",), "µs CPU per /cast"),
    Run("matter_bench.py", ("--count", "20", "--rounds", "1"), "reading CPU per reply"),
    Run("bot_bench.py", ("--quick",), "ratios ours/peer", (0, 1)),
    Run("deletion_bench.py", ("--cases", "1000", "--members", "50", "--deletions", "3"), "key table"),
    Run("daily_bench.py",
        ("--sizes", "1000", "--ticks", "5", "--backends", "sqlite", *(("postgres",) if POSTGRES else ())), "schedules"),
)


# Not commands of their own: bench/bot_bench.py starts the peer bot and imports its memory run.
RUN_BY_OTHERS = {"peer_bot.py", "bot_memory.py"}


def test_every_script_has_a_smoke_run() -> None:
    scripts = {p.name for p in (ROOT / "bench").glob("*.py")} - {"__init__.py"}
    assert scripts - RUN_BY_OTHERS == {r.script for r in RUNS}


def test_every_bench_command_in_the_readme_is_run_here() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"^python (bench/[\w.]+\.py)", readme, re.M)
    assert len(named) >= 3
    assert {Path(n).name for n in named} <= {r.script for r in RUNS}
    assert all((ROOT / n).is_file() for n in named)


@pytest.mark.slow  # each run is a process of its own, a second or more of CPU
@pytest.mark.parametrize("run", [pytest.param(r, id=r.script) for r in RUNS])
def test_the_benchmark_runs_in_its_quickest_mode(run: Run) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, f"bench/{run.script}", *run.args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    took = time.perf_counter() - started
    command = f"python bench/{run.script} {' '.join(run.args)}"
    report = f"{command} → {done.returncode} in {took:.1f} s\n{done.stderr[-3000:]}"
    assert done.returncode in run.statuses, report
    assert "Traceback" not in done.stderr, report
    assert run.prints in done.stdout, report + done.stdout[-2000:]
