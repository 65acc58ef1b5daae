"""Telling people about the daily post: who set a schedule and where, so a post Discord refuses
for good (403/404), or whose publishing it refuses, is told to them; the shards no process of
this bot holds.

Who set a schedule is kept in the store's meta table (``daily-setter:<schedule id>`` → ``user
channel``), written by /daily set and blanked by /daily off; the shard heartbeats as
``daily-shard:<count>:<id>`` → the epoch second a process last ran that shard's posts.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord.http import handle_message_parameters

from bot.core.words import language_of, text
from bot.store import Shards, Store, epoch

if TYPE_CHECKING:  # the schedule's reading loads with the service, once READY (bot/daily/__init__.py)
    from .schedule import Plan

__all__ = ["ShardWatch", "forget_setter", "remember_setter", "setter", "tell_setter"]

log = logging.getLogger("bot.daily")

HEARTBEAT = 60  # seconds between a process's shard heartbeats
SEEN = 5 * 60  # a shard with a heartbeat this recent is held by some process


def _key(schedule_id: int) -> str:
    return f"daily-setter:{schedule_id}"


async def remember_setter(store: Store, schedule_id: int, user_id: int, channel_id: int | None) -> None:
    """Keep who set the schedule and from which channel (to tell them if it stops)."""
    await store.set_meta(_key(schedule_id), f"{user_id} {channel_id or 0}")


async def forget_setter(store: Store, schedule_id: int) -> None:
    """The schedule is gone: keep no user id for it."""
    await store.set_meta(_key(schedule_id), "")


async def setter(store: Store, schedule_id: int) -> tuple[int, int | None] | None:
    """(user id, channel id or None) of who set the schedule; None when unknown."""
    value = await store.meta(_key(schedule_id))
    parts = (value or "").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]) or None


async def tell_setter(client: discord.Client, store: Store, plan: Plan, reason: str,
                      key: str = "daily.stopped_notice") -> str | None:
    """Tell who set the schedule that it stopped (or, with another ``key``, what else Discord
    refused), in the channel they set it from, else by DM. Returns where it was told ("channel" or
    "dm"), None when nobody could be told; never raises."""
    try:
        who = await setter(store, plan.id)
    except Exception as error:
        log.warning("daily: cannot read who set schedule id=%d (%s)", plan.id, error)
        return None
    if who is None:
        log.warning("daily: schedule id=%d stopped, and nobody is known to tell (set before this was kept)", plan.id)
        return None
    user_id, channel_id = who
    message = text(key, language_of(plan.locale), user=f"<@{user_id}>",
                   channel=f"<#{plan.channel_id}>", reason=reason)
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                      users=[discord.Object(user_id)])
    targets: list[tuple[str, int | None]] = []
    if channel_id is not None and channel_id != plan.channel_id:
        targets.append(("channel", channel_id))
    targets.append(("dm", None))
    for where, target in targets:
        try:
            if target is None:
                target = int((await client.http.start_private_message(user_id))["id"])
            with handle_message_parameters(content=message, allowed_mentions=mentions) as params:
                await client.http.send_message(target, params=params)
        except Exception as error:  # forbidden, gone, DMs closed: try the next way
            log.info("daily: could not tell the setter of schedule id=%d by %s (%s)", plan.id, where, error)
            continue
        log.info("daily: told the setter of schedule id=%d by %s that it stopped", plan.id, where)
        return where
    log.warning("daily: schedule id=%d stopped and its setter could not be told", plan.id)
    return None


class ShardWatch:
    """Says at start which shards this process leaves to others and whether any process runs them."""

    def __init__(self, store: Store, shards: Shards | None) -> None:
        self.store = store
        self.shards = shards
        self._last = 0

    async def beat(self, now: datetime) -> None:
        """Record that this process runs its shards' posts (at most once a HEARTBEAT)."""
        if self.shards is None or epoch(now) - self._last < HEARTBEAT:
            return
        self._last = epoch(now)
        for shard in self.shards.ids:
            await self.store.set_meta(f"daily-shard:{self.shards.count}:{shard}", str(self._last))

    async def report(self, now: datetime) -> tuple[int, ...]:
        """Log the shards this process does not hold, and which of them no process was seen running
        lately; returns those."""
        if self.shards is None:
            return ()
        others = [s for s in range(self.shards.count) if s not in self.shards.ids]
        if not others:
            return ()
        unseen: list[int] = []
        for shard in others:
            seen = await self.store.meta(f"daily-shard:{self.shards.count}:{shard}")
            if not (seen or "").isdigit() or epoch(now) - int(seen or 0) > SEEN:
                unseen.append(shard)
        held_ids = ",".join(map(str, self.shards.ids))
        log.warning("daily: this process posts for shards %s of %d only; shards %s are left to other processes",
                    held_ids, self.shards.count, ",".join(map(str, others)))
        if unseen:
            log.warning("daily: no process has run shards %s in the last %d minutes: their servers get no daily "
                        "posts until one runs with LIUREN_SHARD_IDS covering them", ",".join(map(str, unseen)),
                        SEEN // 60)
        return tuple(unseen)
