"""IDENTIFY pacing as Discord's gateway documents it: each shard belongs to a bucket
(``shard_id % max_concurrency``) and a bucket may IDENTIFY once every five seconds.

discord.py's default hook sleeps five seconds before every IDENTIFY but the first, whatever the
bot's ``max_concurrency`` (from ``GET /gateway/bot``) and however long ago the bucket last
identified. :class:`IdentifyPacer` waits only as long as the bucket's window still has to run, so
a bot allowed 16 concurrent IDENTIFYs starts its shards together, and a shard that reconnects after
a minute does not wait at all.

    >>> pacer = IdentifyPacer(max_concurrency=2)
    >>> pacer.wait(0, now=100.0), pacer.wait(1, now=100.0)  # two buckets: no wait
    (0.0, 0.0)
    >>> pacer.wait(2, now=101.0)  # bucket 0 again, 1 s after its IDENTIFY: the rest of the window
    4.25
    >>> pacer.wait(4, now=101.0)  # bucket 0's next slot is taken by shard 2: one window later
    9.5
"""

from __future__ import annotations

__all__ = ["SLACK", "WINDOW", "IdentifyPacer"]

# Discord: "max_concurrency: The number of identify requests allowed per 5 seconds".
WINDOW = 5.0
# A shard's IDENTIFY goes out a little after its turn is given (the hook returns, discord.py builds
# and sends it), the next one's sooner after its own: a bucket's turns are WINDOW + SLACK apart, so
# Discord never receives two within its window (the stand-in once saw 4.9997 s between them).
SLACK = 0.25


class IdentifyPacer:
    """When each shard may IDENTIFY; one per bot process (several processes are paced by Discord)."""

    __slots__ = ("_next", "max_concurrency")

    def __init__(self, max_concurrency: int = 1) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self._next: dict[int, float] = {}  # bucket → the earliest time it may IDENTIFY again

    def wait(self, shard_id: int | None, *, now: float) -> float:
        """Seconds until ``shard_id`` may IDENTIFY, counted from ``now`` (a monotonic clock); the slot is
        taken, so the next shard of the bucket waits one window more."""
        bucket = (shard_id or 0) % self.max_concurrency
        at = max(now, self._next.get(bucket, now))
        self._next[bucket] = at + WINDOW + SLACK
        return at - now
