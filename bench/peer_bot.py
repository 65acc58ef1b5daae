"""The benchmark's peer: a bare discord.py bot with one slash command and a fixed one-embed reply.

bench/bot_bench.py runs it as a subprocess beside the real bot, against the same kind of local
Discord stand-in, so the figures show what discord.py costs by itself and, by difference, what the
chart casting, the reading and the embed building add. Nothing else is loaded: no engine, no
corpus, no store, no translator, no extensions.

The command takes the union of the benchmark workload's options, all optional and ignored, so
discord.py parses and transforms the same arguments it does for the real bot's commands.

Environment: ``DISCORD_TOKEN`` (required, never logged); ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL`` point discord.py elsewhere, the same switch as ``bot.app.configure_endpoints``
(reimplemented here so the peer does not import the bot package). Usage:
    DISCORD_TOKEN=... DISCORD_API_BASE=... DISCORD_GATEWAY_URL=... python bench/peer_bot.py
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Mapping
from typing import Any

import discord
import yarl
from discord import app_commands

COMMAND = "peer"  # the one slash command; the benchmark sends its workload here


def configure_endpoints(environ: Mapping[str, str]) -> None:
    """Point discord.py at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when set (as bot.app does).

    A copy on purpose: importing ``bot.app`` would load the bot's own modules (i18n, store, dateutil)
    into the peer and blur what the benchmark compares, discord.py alone against the whole bot.
    """
    api = environ.get("DISCORD_API_BASE")
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    gateway = environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def fixed_embed() -> discord.Embed:
    """The reply to every interaction: one small embed, built once."""
    embed = discord.Embed(title="peer", description="fixed reply", colour=0x5865F2)
    embed.add_field(name="課", value="—")
    return embed


class PeerBot(discord.Client):
    """A client with a command tree holding one command; syncs it on start, as the real bot does."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree: app_commands.CommandTree[PeerBot] = app_commands.CommandTree(self)
        reply = fixed_embed()

        @self.tree.command(name=COMMAND, description="fixed one-embed reply")
        async def peer(  # the options mirror the workload's; values are ignored
            interaction: discord.Interaction[Any],
            when: str | None = None,
            tz: str | None = None,
            question: str | None = None,
            day: str | None = None,
            yuejiang: str | None = None,
            hour: str | None = None,
            term: str | None = None,
        ) -> None:
            await interaction.response.send_message(embed=reply)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def run(token: str) -> None:
    async with PeerBot() as client:
        await client.start(token)


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    # Same logging level and sink as `python -m bot` (INFO to stderr), so neither pays more for logs.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    configure_endpoints(os.environ)
    try:
        asyncio.run(run(token))
    except discord.LoginFailure:
        print("the stand-in rejected DISCORD_TOKEN", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
