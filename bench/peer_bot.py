"""The benchmark's peer: a bare discord.py bot whose /cast sends the reply the real bot sent.

bench/bot_bench.py starts the real bot first, takes one /cast reply with the picture and one
without from it, and writes them to ``PEER_REPLY``; this bot builds them into discord.py objects
once and sends them for every /cast: the same embeds, the same five buttons (a stopped view, as
ours), an upload of the same PNG bytes with its description, and the same followups. So the
figures show what that Discord work costs in discord.py alone and, by difference, what the
project's own work adds. Nothing else is loaded: no engine, no texts, no store, no translator.

The command takes the real /cast's options (ignored, except ``image: False``: the reply without
the picture), so discord.py parses and transforms the same arguments.

Environment: ``DISCORD_TOKEN`` (required, never logged), ``PEER_REPLY``; ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL`` point discord.py elsewhere, the same switch as the bot's
``configure_endpoints`` (reimplemented so the peer does not import the bot package). Usage:
    DISCORD_TOKEN=... PEER_REPLY=reply.json DISCORD_API_BASE=... DISCORD_GATEWAY_URL=... python bench/peer_bot.py
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import os
import sys
from collections.abc import Mapping
from typing import Any

import discord
import yarl
from discord import app_commands, ui

COMMAND = "cast"  # the one slash command, named as ours so both get the same interactions


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


def load_reply(path: str) -> dict[str, Any]:
    """The reply ours sent, as bench/bot_bench.py copied it at start (with and without the picture)."""
    with open(path, encoding="utf-8") as file:
        reply: dict[str, Any] = json.load(file)
    return reply


class Reply:
    """One copied reply, built into discord.py objects once: its embeds, its buttons, its upload
    (a fresh ``discord.File`` per send, as a ``File`` is spent by one request) and its followups."""

    def __init__(self, copied: dict[str, Any]) -> None:
        first = copied["first"]
        self.embeds = [discord.Embed.from_dict(e) for e in first.get("embeds", [])]
        self.ephemeral = bool(int(first.get("flags", 0)) & 64)
        self.buttons = [
            (c["label"], discord.ButtonStyle(c["style"]), c["custom_id"])
            for r in first.get("components", []) for c in r.get("components", []) if c.get("type") == 2
        ]
        self.files = [(f["filename"], base64.b64decode(f["data"]), f.get("description")) for f in copied["files"]]
        self.followups = [[discord.Embed.from_dict(e) for e in f.get("embeds", [])] for f in copied["followups"]]

    def view(self) -> ui.View:
        view = ui.View(timeout=None)
        for label, style, custom_id in self.buttons:
            view.add_item(ui.Button(label=label, style=style, custom_id=custom_id))
        view.stop()  # only for sending, as ours
        return view

    async def send(self, interaction: discord.Interaction[Any]) -> None:
        extra: dict[str, Any] = {}
        if self.files:
            extra["files"] = [discord.File(io.BytesIO(data), filename=name, description=description)
                              for name, data, description in self.files]
        await interaction.response.send_message(embeds=self.embeds, view=self.view(), ephemeral=self.ephemeral,
                                                **extra)
        for embeds in self.followups:
            await interaction.followup.send(embeds=embeds, ephemeral=self.ephemeral)


class PeerBot(discord.Client):
    """A client with a command tree holding one command; syncs it on start, as the real bot does."""

    def __init__(self, copied: dict[str, Any]) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree: app_commands.CommandTree[PeerBot] = app_commands.CommandTree(self)
        with_picture, plain = Reply(copied["picture"]), Reply(copied["plain"])

        @self.tree.command(name=COMMAND, description="the reply ours sent, copied")
        async def cast(  # the options mirror ours; only image is read
            interaction: discord.Interaction[Any],
            when: str = "now",
            tz: str | None = None,
            private: bool = False,
            question: str | None = None,
            image: bool | None = None,
            theme: str = "dark",
        ) -> None:
            await (plain if image is False else with_picture).send(interaction)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def run(token: str, copied: dict[str, Any]) -> None:
    async with PeerBot(copied) as client:
        await client.start(token)


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token or not os.environ.get("PEER_REPLY"):
        print("DISCORD_TOKEN and PEER_REPLY (the reply to copy, written by bench/bot_bench.py) must be set",
              file=sys.stderr)
        return 2
    # Same logging level and sink as `python -m bot` (INFO to stderr), so neither pays more for logs.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    configure_endpoints(os.environ)
    try:
        asyncio.run(run(token, load_reply(os.environ["PEER_REPLY"])))
    except discord.LoginFailure:
        print("the stand-in rejected DISCORD_TOKEN", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
