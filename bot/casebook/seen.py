"""Which cases a caller may see, and the walk over them: another member's case is shown only to a
member who may read the channel it was cast in (docs/privacy.md).

Discord's permissions decide: ``view_channel`` and ``read_message_history`` of the caller in that
channel, computed by discord.py from the bot's cache of the server (roles and overwrites). A
channel the bot cannot resolve (not cached, a thread it does not know, a server it is not in)
counts as one the caller cannot read; the caller's own cases are always theirs to see.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.store import Case

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["PAGE", "may_read", "readable_channels", "visible_cases"]

PAGE = 50  # cases per keyset page of the walk (an export holds a page's cases and notes at a time)


def _reads(channel: Any, member: discord.Member) -> bool:
    permissions = channel.permissions_for(member)
    return bool(permissions.view_channel and permissions.read_message_history)


def _member(interaction: discord.Interaction[Any]) -> tuple[discord.Guild, discord.Member] | None:
    guild, user = interaction.guild, interaction.user
    if guild is None or not isinstance(user, discord.Member):
        return None
    return guild, user


def _here(interaction: discord.Interaction[Any]) -> int | None:
    """The interaction's own channel when the caller may read it (Discord says so in the interaction
    itself: known even in a server the bot is not in, where the app is installed by a user)."""
    permissions = interaction.permissions
    readable = permissions.view_channel and permissions.read_message_history
    return interaction.channel_id if readable and interaction.guild_id is not None else None


def may_read(interaction: discord.Interaction[Any], channel_id: int | None) -> bool:
    """Whether the caller may read the channel `channel_id` of the interaction's server."""
    if channel_id is not None and channel_id == _here(interaction):
        return True
    found = _member(interaction)
    if found is None or channel_id is None:
        return False
    guild, member = found
    channel = guild.get_channel_or_thread(channel_id)
    return channel is not None and _reads(channel, member)


def readable_channels(interaction: discord.Interaction[Any]) -> tuple[int, ...]:
    """The channels and threads of the interaction's server (as the bot knows them, and the one
    asked in) the caller may read."""
    here = _here(interaction)
    found = _member(interaction)
    if found is None:
        return () if here is None else (here,)
    guild, member = found
    places: list[Any] = [*guild.channels, *guild.threads]
    known = {c.id for c in places if not isinstance(c, discord.CategoryChannel) and _reads(c, member)}
    return tuple(sorted(known | ({here} if here is not None else set())))


async def visible_cases(bot: LiurenBot, interaction: discord.Interaction[Any], before: int | None,
                        page: int = PAGE) -> AsyncIterator[Sequence[Case]]:
    """Every case the caller may see here, newest first, from seq `before` down (None: from the
    newest), a page at a time: their own (everywhere), merged with (in a server) the server's
    others' cases cast where the caller may read. Each page is read by a keyset (seq), not kept."""
    store, user, top = bot.store, interaction.user.id, 2**62 if before is None else before
    guild = interaction.guild_id
    channels = readable_channels(interaction) if guild is not None else ()
    mine: list[Case] = []
    others: list[Case] = []
    mine_at, others_at = top, top
    mine_done, others_done = False, guild is None or not channels
    while True:
        if not mine and not mine_done:
            mine = list(await store.cases_by_author_before(user, mine_at, page))
            mine_done = len(mine) < page
            mine_at = mine[-1].seq if mine else mine_at
        if not others and not others_done and guild is not None:
            others = list(await store.others_cases_before(guild, user, channels, others_at, page))
            others_done = len(others) < page
            others_at = others[-1].seq if others else others_at
        if not mine and not others:
            return
        out: list[Case] = []
        while len(out) < page and (mine or mine_done) and (others or others_done) and (mine or others):
            source = mine if not others or (mine and mine[0].seq > others[0].seq) else others
            out.append(source.pop(0))
        yield out
