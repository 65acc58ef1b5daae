"""The daily service's requests to Discord: one message send (with the day's nonce and
``enforce_nonce``, paced), and the search of a channel's recent messages for a post already made."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import ui
from discord.http import handle_message_parameters
from discord.utils import MISSING

from .failures import Pace

__all__ = ["Attempt", "Sender"]


@dataclass(slots=True)
class Attempt:
    """What one delivery knows about its own sends (mutable: it changes as the sends go)."""

    in_flight: bool = False  # a request is out and unanswered
    maybe_sent: bool = False  # some failed request may still have been stored
    checked: bool = False  # the channel was searched for an earlier send
    first_id: int | None = None  # the first message of the post, once Discord confirmed it
    text_only: bool = False  # the picture is left out (the bot may not attach files there)
    sent: list[int] = field(default_factory=list)  # the post's messages Discord confirmed, in order


class Sender:
    """Sends through the client's HTTP session, spacing the starts of sends with ``pace``."""

    def __init__(self, client: discord.Client, pace: Pace) -> None:
        self.client = client
        self._pace = pace

    async def send(
        self, channel_id: int, content: str | None, embeds: tuple[discord.Embed, ...], key: str | None,
        state: Attempt | None = None, upload: discord.File | None = None, view: ui.View | None = None,
    ) -> Any:
        await self._pace.wait()
        # A nonce makes discord.py ask for enforce_nonce too (checked below: it is the guarantee).
        # Nobody is pinged by a post (allowed_mentions on every message).
        with handle_message_parameters(
            content=content if content is not None else MISSING, embeds=list(embeds), nonce=key,
            file=upload if upload is not None else MISSING, allowed_mentions=discord.AllowedMentions.none(),
            view=view if view is not None else MISSING,  # the site link under the first message
        ) as params:
            if key is not None and params.payload is not None:
                params.payload["enforce_nonce"] = True
            if state is not None:
                state.in_flight = True
            try:
                data = await self.client.http.send_message(channel_id, params=params)
            except asyncio.CancelledError:
                raise  # cancelled while the request is out: it stays "in flight", so maybe sent
            except BaseException:
                if state is not None:
                    state.in_flight = False
                raise
            if state is not None:
                state.in_flight = False
            return data

    async def find_posted(self, channel_id: int, content: str, history: int) -> int | None:
        """The id of the bot's own message with ``content`` among the channel's recent messages
        (none without Read Message History: Discord then returns no messages, so /daily set asks for it)."""
        me = self.client.user
        if me is None:
            return None
        for message in await self.client.http.logs_from(channel_id, limit=history):
            author = message.get("author") or {}
            if str(author.get("id")) == str(me.id) and message.get("content") == content:
                return int(message["id"])
        return None
