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


def test_the_bot_process_settles_after_start_up_before_the_gateway() -> None:
    """settle() comes after discord.py's login (which runs setup_hook: the features loaded, the
    quiz's 1,440 charts built in the quiz cog's cog_load) and before connect (the first interaction)."""
    source = (ROOT / "bot" / "__main__.py").read_text(encoding="utf-8")
    assert source.count("settle()") == 1
    assert source.index("await bot.login(token)") < source.index("settle()") < source.index("await bot.connect()")
    assert "bot.start(" not in source
    quiz = (ROOT / "bot" / "quiz" / "cog.py").read_text(encoding="utf-8")
    load = quiz[quiz.index("async def cog_load"):quiz.index("async def cog_unload")]
    assert load.index("await self.service.prepare()") < load.index("self.service.start()")
