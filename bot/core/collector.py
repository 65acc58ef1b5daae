"""The garbage collector set for a long-running bot: what start-up made (modules, the words, the
quiz's charts, discord.py's state) is frozen out of its passes, and the youngest generation is
searched less often than CPython's default. Why, with the figures: docs/performance.md, "The bot".
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "pause", "resume", "settle"]

YOUNG_THRESHOLD = 6_000  # at 700, each young pass found the interactions in flight alive and moved them on


def pause() -> None:
    """No passes while the modules are imported: what they make lives as long as the process, and
    a pass would only walk it (``resume`` ends the pause)."""
    gc.disable()


def resume() -> None:
    """Passes on again, what exists now set aside unsearched (frozen) until ``settle``."""
    gc.freeze()
    gc.enable()


def settle() -> None:
    """Collect, then freeze what exists now (call once, when start-up's objects are made); from
    then on the youngest generation is searched every ``YOUNG_THRESHOLD`` allocations."""
    gc.unfreeze()  # what resume set aside is searched once, so start-up's garbage goes too
    gc.collect()
    gc.freeze()  # start-up's ~90,000 long-lived objects were walked again by every full pass
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
