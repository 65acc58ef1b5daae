"""The bot process: the client, which extensions it loads, the store it opens, and its services.

``make_bot`` builds the client from the environment (tests build it the same way, pointed at a local
stand-in through ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``). ``setup_hook`` opens the store
(unless it was opened before), loads the feature extensions — each registers its own buttons and
starts its own service in ``cog_load`` — and syncs the command tree only when its payload changed.
``close`` unloads the extensions (their services stop), disconnects, ends the drawing process
(bot.core.drawing), then closes the store. The host knows no feature: it loads them by name.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands

from bot.store import Location, Shards, Store, default_location, held, open_store

from .ack import release
from .config import Config, DeliveryConfig, configure_endpoints, read_config
from .drawing import process as drawer
from .errors import LiurenTree
from .identify import IdentifyPacer
from .logs import silence_voice_warnings
from .sync import sync_if_changed, sync_state_path
from .user_text import NO_PINGS
from .words import Translator
from .worker import draw_apart

__all__ = ["EXTENSIONS", "LiurenBot", "host_of", "make_bot"]

log = logging.getLogger("bot")

# The features, each a package with its cogs (bot/<feature>/__init__.py has the setup).
EXTENSIONS = ("bot.study", "bot.daily", "bot.settings", "bot.quiz", "bot.casebook", "bot.verify")


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LiurenBot(commands.AutoShardedBot):
    """The Discord bot, on the shards it is given (all, by default).

    ``store`` is ready after ``setup_hook``; ``clock`` gives aware UTC now; ``config`` is the
    environment as read at start.
    """

    store: Store

    def __init__(
        self,
        *,
        store_path: str | os.PathLike[str] | Location | None = None,
        store: Store | None = None,
        clock: Callable[[], datetime] | None = None,
        config: Config | None = None,
        guild_id: int | None = None,
        force_sync: bool = False,
        extensions: Iterable[str] = EXTENSIONS,
        delivery_config: DeliveryConfig | None = None,
        **client_kwargs: Any,
    ) -> None:
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("help_command", None)
        client_kwargs.setdefault("tree_cls", LiurenTree)
        # No message of the bot pings anyone (replies echo users' text).
        client_kwargs.setdefault("allowed_mentions", NO_PINGS)
        super().__init__(command_prefix=commands.when_mentioned, **client_kwargs)
        base = config if config is not None else read_config(os.environ)
        self.config = replace(base, delivery=delivery_config) if delivery_config is not None else base
        draw_apart(self.config.drawing_apart)
        self._opened: Store | None = store  # set once the store is open; closed by close()
        if store is not None:
            self.store = store
            self.location = store.location
        elif isinstance(store_path, Location):
            self.location = store_path
        else:
            self.location = default_location() if store_path is None else Location.parse(store_path)
        self.clock: Callable[[], datetime] = clock or _utc_now
        self.guild_id = guild_id
        self.force_sync = force_sync
        self.extension_names = tuple(extensions)
        self.synced: bool | None = None  # whether the last start synced commands
        # start-up work a feature finishes after READY (the quiz's charts): the collector settles after it
        self.warming: list[asyncio.Future[None]] = []
        self.identify_pacer = IdentifyPacer()  # max_concurrency read from Discord in setup_hook

    @property
    def shards_held(self) -> Shards | None:
        """The shards whose guilds this process posts for (None: every guild)."""
        return held(self.shard_ids, self.shard_count)

    async def setup_hook(self) -> None:
        if self._opened is None:
            self._opened = self.store = await open_store(self.location)
        await self.tree.set_translator(Translator())
        try:
            limits = await self.fetch_session_start_limits()
        except (discord.HTTPException, discord.GatewayNotFound) as error:  # pace as the smallest bot
            log.info("the gateway's IDENTIFY limits could not be read (%s); one IDENTIFY per 5 s", error)
        else:
            self.identify_pacer = IdentifyPacer(limits.max_concurrency)
        for name in self.extension_names:
            await self.load_extension(name)
        self.synced = await sync_if_changed(
            self, sync_state_path(self.location), self.guild_id, force=self.force_sync
        )

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's events, and a form's submission also as ``form_submit`` (listeners:
        ``on_form_submit(interaction)``): a feature answering forms that outlive a restart listens
        to that, so the other interactions (every /cast) schedule no listener task. A
        command's completion lets its answered interaction go at once (``ack.release``)."""
        super().dispatch(event_name, *args, **kwargs)
        if event_name == "app_command_completion":  # the command's last step (discord.py's tree)
            release(args[0])
        if event_name == "interaction" and getattr(args[0], "type", None) is discord.InteractionType.modal_submit:
            super().dispatch("form_submit", *args, **kwargs)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait only as long as Discord's IDENTIFY window for this shard's bucket still runs
        (bot/core/identify.py), not discord.py's fixed 5 s before every shard but the first."""
        delay = self.identify_pacer.wait(shard_id, now=asyncio.get_running_loop().time())
        if delay > 0:
            await asyncio.sleep(delay)

    async def close(self) -> None:
        """Unload the features (their services stop claiming and let work in flight finish),
        disconnect, then end the drawing process and close the store."""
        await super().close()  # discord.py's Bot.close unloads every extension before disconnecting
        await drawer.close()
        if self._opened is not None:
            await self._opened.close()


def host_of(interaction: discord.Interaction[Any]) -> LiurenBot:
    """The bot an interaction reached (a button's or form's callback has only the interaction)."""
    client = interaction.client
    if not isinstance(client, LiurenBot):
        raise TypeError(f"the liuren views run only on LiurenBot, not {type(client).__name__}")
    return client


def make_bot(
    *,
    store_path: str | os.PathLike[str] | Location | None = None,
    clock: Callable[[], datetime] | None = None,
    environ: Mapping[str, str] | None = None,
    **client_kwargs: Any,
) -> LiurenBot:
    """A configured bot: endpoints from the environment, ``DISCORD_GUILD_ID`` for a dev guild,
    shards from ``LIUREN_SHARD_COUNT``/``LIUREN_SHARD_IDS``, the lease from ``LIUREN_LEASE_MINUTES``,
    the wait for servers after READY from ``LIUREN_GUILD_READY_TIMEOUT``.

    Raises ``ValueError`` for a setting that cannot be used.
    """
    env = os.environ if environ is None else environ
    config = read_config(env)
    configure_endpoints(env)
    silence_voice_warnings()
    client_kwargs.setdefault("guild_id", config.guild_id)
    if config.guild_ready_timeout is not None:
        client_kwargs.setdefault("guild_ready_timeout", config.guild_ready_timeout)
    for key, value in config.shards.items():
        client_kwargs.setdefault(key, value)
    return LiurenBot(store_path=store_path, clock=clock, config=config, **client_kwargs)
