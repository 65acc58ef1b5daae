"""The garbage collector set for a long-running bot (issue 21): what start-up made is frozen out of
its passes.

By the end of start-up (discord.py's login, which runs ``setup_hook``: the features loaded, the
quiz's 1,440 charts built, the commands synced) the process holds some 90,000 objects that live as
long as it does (modules, the words, the charts, discord.py's state), and every full collection
walked them all again; ``gc.freeze`` moves them to a generation the collector never searches (they
are still freed if they die). Frozen before the store was even opened, as it once was, the quiz's
charts alone (30,000 objects) stayed in the searched heap, and a full pass under load took ~47 ms
instead of ~30 ms (bench/bot_bench.py: one every 600 or so /cast). CPython's
thresholds are kept: searching the youngest generation less often (every 10,000 allocations
instead of 700) cut its time per /cast from ~0.05 ms to ~0.03 ms, but each interaction is in a
reference cycle with its response (as in discord.py), and what waited for the pass held the
resident set 5–10 MB higher after 10,000 casts (bench/bot_bench.py --memory 10000).
"""

from __future__ import annotations

import gc

__all__ = ["settle"]


def settle() -> None:
    """Collect, then freeze what exists now (call once, when start-up's objects are made)."""
    gc.collect()
    gc.freeze()
