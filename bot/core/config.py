"""The environment, read once at start: where Discord is, the bot's default zone, a dev guild, shards,
the study site's address, how long to wait for servers at start, where pictures are drawn, and how
the daily-post service paces itself. A setting that cannot be used is a ``ValueError`` naming the
variable."""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import discord
import yarl

from texts.when import default_zone

from .zones import parse_zone

__all__ = ["Config", "DeliveryConfig", "configure_endpoints", "delivery_settings", "drawing_apart",
           "guild_ready_timeout", "parse_shard_ids", "read_config", "shard_settings", "site_url"]


@dataclass(frozen=True, slots=True)
class DeliveryConfig:
    """How the daily-post service paces itself; every field has an operator's default."""

    lease: timedelta = timedelta(minutes=10)  # LIUREN_LEASE_MINUTES: a claim unconfirmed this long is taken over
    attempts: int = 3  # sends per post and claim before the lease is released for a later retry
    backoff: tuple[float, ...] = (2.0, 8.0)  # seconds before the 2nd and 3rd attempt
    retry_after: timedelta = timedelta(seconds=30)  # a released post is due again after this
    max_in_flight: int = 32  # posts being delivered at once (each its own task)
    requests_per_second: float = 40.0  # message sends started per second, under Discord's global 50/s
    stop_grace: float = 10.0  # on shutdown, how long sends in flight may take to finish (s)
    max_sleep: float = 60.0  # the loop wakes at least this often (a wall-clock jump is noticed)
    history: int = 50  # recent channel messages searched when taking over an unsure post
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)  # backoff waits (tests record them)
    heartbeat: Path | None = None  # LIUREN_HEALTH_FILE: touched after every tick (bot.health reads it)


@dataclass(frozen=True, slots=True)
class Config:
    """The bot's settings from the environment (``read_config``)."""

    zone: ZoneInfo  # LIUREN_TZ: casts without a zone of their own (parsed once, here)
    guild_id: int | None = None  # DISCORD_GUILD_ID: sync the commands to one dev guild at once
    shards: Mapping[str, Any] = field(default_factory=dict)  # shard_count / shard_ids for the client
    delivery: DeliveryConfig = field(default_factory=DeliveryConfig)
    site_url: str | None = None  # LIUREN_SITE_URL: the study site's address (chart replies link to it)
    # LIUREN_GUILD_READY_TIMEOUT: seconds to wait for the next server's data after the gateway's READY
    # before the bot counts as ready (discord.py's guild_ready_timeout; None: its default, 2 s)
    guild_ready_timeout: float | None = None
    # LIUREN_DRAWING: pictures drawn in a process of their own (True) or on a thread of the bot's
    # (False); None: the process where the machine has a second core (bot.core.worker.APART)
    drawing_apart: bool | None = None


def read_config(env: Mapping[str, str]) -> Config:
    """Every setting the bot reads from `env`; ValueError for one that cannot be used."""
    name = default_zone(env)
    try:
        zone = parse_zone(name)
    except ValueError:
        raise ValueError(f"LIUREN_TZ={name!r} is not an IANA time zone (e.g. Asia/Tokyo)") from None
    guild = env.get("DISCORD_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ValueError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}")
    return Config(zone, int(guild) if guild else None, shard_settings(env), delivery_settings(env), site_url(env),
                  guild_ready_timeout(env), drawing_apart(env))


def drawing_apart(env: Mapping[str, str]) -> bool | None:
    """LIUREN_DRAWING: ``process`` (True), ``thread`` (False), or not set (None: by the machine).

    In a process of their own, pictures are drawn on another core beside the event loop, for ~40
    MB of memory more (docs/performance.md, "The drawing process"); on a thread, they take turns
    with the replies for the interpreter lock."""
    value = env.get("LIUREN_DRAWING", "").strip()
    if not value:
        return None
    if value not in ("process", "thread"):
        raise ValueError(f"LIUREN_DRAWING must be process or thread, not {value!r}")
    return value == "process"


def guild_ready_timeout(env: Mapping[str, str]) -> float | None:
    """LIUREN_GUILD_READY_TIMEOUT in seconds, 0.01 to 60 (None: not set, discord.py's 2 s).

    After READY, discord.py waits this long for each next server's GUILD_CREATE before it counts
    the bot as ready (and the daily posts start). A bot in a few servers starts faster with less; one
    in thousands, whose servers arrive over seconds, keeps the default.
    """
    return _number(env, "LIUREN_GUILD_READY_TIMEOUT", "seconds", 0.01, 60)


def _number(env: Mapping[str, str], name: str, unit: str, low: float, high: float) -> float | None:
    """The setting ``name`` as a number of ``unit`` from ``low`` to ``high`` (None: not set); a
    ValueError naming it for anything else."""
    value = env.get(name, "").strip()
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        number = math.nan  # compares with nothing: refused below
    if not low <= number <= high:
        raise ValueError(f"{name} must be a number of {unit} from {low:g} to {high:g}, not {value!r}")
    return number


# A button's link may hold 512 characters (Discord's spec: ButtonComponentForMessageRequest.url);
# the longest chart path under the site's address is "zh-TW/chart/d00-y00-h00.html" and a "/".
URL_MAX = 512
LONGEST_CHART_PATH = 29


def site_url(env: Mapping[str, str]) -> str | None:
    """LIUREN_SITE_URL, the address ``liuren site build`` output is published at (None: not set).

    It must be an absolute http(s) address that Discord takes as a button's link: ASCII, no
    spaces, a host, no query or fragment (chart paths are appended to it), short enough that the
    longest chart page's address fits in 512 characters.
    """
    value = env.get("LIUREN_SITE_URL", "").strip()
    if not value:
        return None
    if not value.isascii() or any(c.isspace() or not c.isprintable() for c in value):
        raise ValueError(f"LIUREN_SITE_URL={value!r} must be ASCII without spaces "
                         "(percent-encode the path, give the host in its xn-- form)")
    try:
        parts = urlsplit(value)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname) and (parts.port or 0) >= 0
    except ValueError:  # a malformed host: an unclosed IPv6 bracket, a port that is not a number
        usable = False
    if not usable:
        raise ValueError(f"LIUREN_SITE_URL={value!r} must be the site's http(s) address, "
                         "e.g. https://example.org/liuren/")
    if "?" in value or "#" in value:
        raise ValueError(f"LIUREN_SITE_URL={value!r} must be the site's root, without ?query or #fragment")
    if len(value.rstrip("/")) + LONGEST_CHART_PATH > URL_MAX:
        raise ValueError(f"LIUREN_SITE_URL is {len(value)} characters: a chart page's address under it "
                         f"must fit a button's {URL_MAX}")
    return value


def configure_endpoints(environ: Mapping[str, str]) -> None:
    """Point discord.py at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when they are set.

    Both are public class attributes of discord.py, read whenever a request or connection is
    made, so setting them before the client starts redirects every call (a local stand-in, a proxy).
    """
    api = environ.get("DISCORD_API_BASE")
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    gateway = environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2"`` or ``"0-1,4"`` as shard ids, each below `count`; ValueError otherwise."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if match is None:
            raise ValueError(f"LIUREN_SHARD_IDS={text!r}: give ids like 0-3 or 0,2,5")
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ValueError(f"LIUREN_SHARD_IDS={text!r}: range {part} runs backwards")
        ids.update(range(first, last + 1))
    if not ids or max(ids) >= count:
        raise ValueError(f"LIUREN_SHARD_IDS={text!r}: every id must be below LIUREN_SHARD_COUNT={count}")
    return tuple(sorted(ids))


def shard_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The AutoShardedClient arguments from LIUREN_SHARD_COUNT / LIUREN_SHARD_IDS (empty: not set)."""
    count_text = env.get("LIUREN_SHARD_COUNT", "").strip()
    ids_text = env.get("LIUREN_SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ValueError("LIUREN_SHARD_IDS needs LIUREN_SHARD_COUNT (the total number of shards)")
        return {}
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"LIUREN_SHARD_COUNT must be a positive whole number, not {count_text!r}")
    count = int(count_text)
    ids = parse_shard_ids(ids_text, count) if ids_text else tuple(range(count))
    return {"shard_count": count, "shard_ids": list(ids)}


def delivery_settings(env: Mapping[str, str]) -> DeliveryConfig:
    """The daily-post service's settings: LIUREN_LEASE_MINUTES (default 10), LIUREN_HEALTH_FILE."""
    health = env.get("LIUREN_HEALTH_FILE", "").strip()
    heartbeat = Path(health) if health else None
    # Fractions are allowed (tests run leases of seconds); a lease shorter than a slow send
    # would let another process post the day again, so keep it to minutes in production.
    minutes = _number(env, "LIUREN_LEASE_MINUTES", "minutes", 0.01, 24 * 60)
    if minutes is None:
        return DeliveryConfig(heartbeat=heartbeat)
    return DeliveryConfig(lease=timedelta(minutes=minutes), heartbeat=heartbeat)


