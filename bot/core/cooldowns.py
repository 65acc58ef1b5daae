"""Per-user cooldowns: one mechanism for slash commands, buttons and forms (quiz answers included).

The tree checks a command before it runs (``LiurenTree.interaction_check``) and ``guarded`` checks
a button or form before its callback; a user over the rate is answered, ephemerally, with how long
to wait (``app_commands.CommandOnCooldown``, through the one error path). Buckets are per user and
per kind: a command names its kind in ``extras["cooldown"]`` (a command naming none has no
cooldown); every button counts as ``button``, every form as ``form`` (``bot.core.errors.guard``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from discord import app_commands

__all__ = ["RATES", "Cooldowns", "Rate"]


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``uses`` in any ``per`` seconds."""

    uses: int
    per: float


# A person studying casts a burst of charts now and then, never hundreds (a script's 200 /cast
# and 100 presses in seconds were all served before). A window of a minute lets a study session's
# burst through and stops a script after it.
RATES: Mapping[str, Rate] = {
    "cast": Rate(20, 60.0),  # /cast and /chart (extras={"cooldown": "cast"}): each casts and saves a case
    "button": Rate(30, 60.0),  # 理由, 原文, 前の時/次の時, pages, quiz answers
    "form": Rate(10, 60.0),  # a note form: a person writes a note in more than six seconds
    # /case show, note, delete, /history, /profile set: each reads or writes the casebook
    "case": Rate(30, 60.0),
    "export": Rate(5, 600.0),  # /case export reads every case the caller may see (one at a time, too)
}

_FORGET_AFTER = 600.0  # buckets idle this long are dropped (memory stays bounded by active users)


class Cooldowns:
    """The buckets of every user, per kind; ``clock`` is monotonic seconds (tests may give one)."""

    def __init__(self, rates: Mapping[str, Rate] = RATES, clock: Callable[[], float] = time.monotonic) -> None:
        self.rates = dict(rates)
        self._clock = clock
        self._buckets: dict[tuple[str, int], app_commands.Cooldown] = {}
        self._used: dict[tuple[str, int], float] = {}
        self._swept = clock()

    def hit(self, kind: str, user_id: int) -> None:
        """Count one use; raises ``app_commands.CommandOnCooldown`` (with the wait) when over the rate."""
        rate = self.rates.get(kind)
        if rate is None:
            return
        now = self._clock()
        self._sweep(now)
        bucket = self._buckets.get((kind, user_id))
        if bucket is None:
            bucket = self._buckets[(kind, user_id)] = app_commands.Cooldown(rate.uses, rate.per)
        self._used[(kind, user_id)] = now
        wait = bucket.update_rate_limit(now)
        if wait is not None:
            raise app_commands.CommandOnCooldown(bucket, wait)

    def _sweep(self, now: float) -> None:
        if now - self._swept < _FORGET_AFTER:
            return
        self._swept = now
        for key in [k for k, used in self._used.items() if now - used > _FORGET_AFTER]:
            del self._buckets[key], self._used[key]
