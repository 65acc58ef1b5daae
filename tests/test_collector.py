"""bot.core.collector: start-up's objects frozen out of the collector's passes, which
still collect what dies later, the youngest generation searched less often; run in a process of its
own (it sets the process's GC)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import gc
import bot.core.host  # what python -m bot has imported by then
from bot.core.collector import YOUNG_THRESHOLD, settle
before = gc.get_threshold()
settle()
assert gc.get_freeze_count() > 30_000, gc.get_freeze_count()
assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:]) != before, gc.get_threshold()
garbage = []
garbage.append(garbage)  # a cycle made later still goes
del garbage
assert gc.collect() >= 1
print("ok")
"""


def test_settle_freezes_start_up_and_keeps_collecting_cycles() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_the_bot_process_settles_after_ready_and_the_features_start_up() -> None:
    """settle() comes after discord.py's login (which runs setup_hook: the features loaded), and
    once the gateway is READY and the work the features finish after it (the quiz's 1,440 charts,
    built after READY so start-up does not wait for them) is done: so all of it is frozen, and READY
    does not wait for the collection."""
    source = (ROOT / "bot" / "__main__.py").read_text(encoding="utf-8")
    assert source.count("settle()") == 1 and source.count("settle_when_ready(bot)") == 1
    when = source[source.index("async def settle_when_ready"):source.index("async def _run")]
    assert when.index("await bot.wait_until_ready()") < when.index("await asyncio.gather(*bot.warming") \
        < when.index("settle()")
    assert source.index("await bot.login(token)") < source.index("settle_when_ready(bot)") \
        < source.index("await bot.connect()")
    assert "bot.start(" not in source
    quiz = (ROOT / "bot" / "quiz" / "cog.py").read_text(encoding="utf-8")
    load = quiz[quiz.index("async def cog_load"):quiz.index("async def cog_unload")]
    assert "await self.service.prepare()" not in load
    assert load.index("self.service.prepare()") < load.index("self.bot.warming.append(") < load.index(
        "self.service.start()")
    service = (ROOT / "bot" / "quiz" / "service.py").read_text(encoding="utf-8")
    prepare = service[service.index("async def prepare"):service.index("def start")]
    assert prepare.index("await self.client.wait_until_ready()") < prepare.index("index, DEFAULT_SCHOOL")
