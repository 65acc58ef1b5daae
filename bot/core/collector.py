"""The garbage collector set for a long-running bot (issue 21): what start-up made is frozen out of
its passes.

By the end of start-up (discord.py's login, which runs ``setup_hook``: the features loaded, the
quiz's 1,440 charts built, the commands synced) the process holds some 90,000 objects that live as
long as it does (modules, the words, the charts, discord.py's state), and every full collection
walked them all again; ``gc.freeze`` moves them to a generation the collector never searches (they
are still freed if they die). Frozen before the store was even opened, as it once was, the quiz's
charts alone (30,000 objects) stayed in the searched heap, and a full pass under load took ~47 ms
instead of ~30 ms (bench/bot_bench.py: one every 600 or so /cast).

The youngest generation is searched every ``YOUNG_THRESHOLD`` allocations instead of CPython's 700:
with 64 /cast in flight, each search found the interactions in flight alive and moved them on, so
the middle generation's searches (~1.1 ms each, every tenth) walked them again. Measured for issue 21
(bench/bot_bench.py, interleaved): 700 -> 2,000 (11 runs each): CPU per interaction with pictures
1.47x -> 1.40x the peer (median; the event loop's thread 1.27x -> 1.21x); RSS after the memory run
89.7-90.1 -> 91.3 MB. 2,000 -> 6,000 (10 pairs, once the cases were written on the event loop,
bot.store.sqlite): the collector's CPU over a run 386 -> 225 ms (~38 us less per interaction,
gc.callbacks), CPU with pictures 1.42x -> 1.335x and its worst run 1.76x -> 1.44x, the picture
latency 1.36x -> 1.285x, same moment CPU 1.095x -> 1.06x; RSS after the memory run 91.4 -> 92.1 MB.
12,000 measured no better than 6,000 (5 pairs). Every 10,000 had held the resident set 5-10 MB higher
before the ack watchdog let go of answered interactions (bot.core.ack): the garbage waits for the
pass. The other two thresholds are CPython's.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "settle"]

YOUNG_THRESHOLD = 6_000


def settle() -> None:
    """Collect, then freeze what exists now (call once, when start-up's objects are made); from
    then on the youngest generation is searched every ``YOUNG_THRESHOLD`` allocations."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
