"""Command sync: the command tree is synced only when its payload changed since the last sync."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.store import Location

__all__ = ["payload_hash", "sync_if_changed", "sync_state_path", "syncs_commands"]

log = logging.getLogger("bot")


def sync_state_path(where: Location | Path) -> Path | None:
    """Where the last synced command hashes are kept: beside the database file (None: nowhere,
    for an in-memory database); for PostgreSQL, in the user's state directory."""
    location = where if isinstance(where, Location) else Location(path=where)
    folder = location.state_dir()
    if folder is None:
        return None
    name = location.path.name if location.path is not None else "postgresql"
    return folder / (name + ".commands.json")


async def _commands_and_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[tuple[Any, dict[str, Any]]]:
    """Each command beside the JSON Discord would receive for it in ``tree.sync(guild=guild)``,
    translations included, in the order of the commands' type and name (so the order they were
    added in changes no hash)."""
    translator = tree.translator
    pairs = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            pairs.append((command, await command.get_translated_payload(tree, translator)))
        else:
            pairs.append((command, command.to_dict(tree)))
    return sorted(pairs, key=lambda pair: (pair[1].get("type", 1), pair[1]["name"]))


def syncs_commands(shard_ids: list[int] | tuple[int, ...] | None) -> bool:
    """Whether a process running ``shard_ids`` syncs the commands: only the one with shard 0 (or the
    only process), so processes started together do not each replace the commands."""
    return shard_ids is None or 0 in shard_ids


def payload_hash(payload: list[Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


async def sync_if_changed(
    bot: commands.Bot | commands.AutoShardedBot,
    state_path: Path | None,
    guild_id: int | None = None,
    *,
    force: bool = False,
) -> bool:
    """Sync the command tree (to ``guild_id`` at once, else globally) if its payload changed.

    The hash of the last synced payload is kept per application and scope in ``state_path``; a
    start with the same commands makes no request, and a process without shard 0 none (unless
    ``force``). Returns whether a sync was made.
    """
    shard_ids = getattr(bot, "shard_ids", None)
    if not force and not syncs_commands(shard_ids):
        log.info("application commands are synced by the process running shard 0, not this one (shards %s)",
                 ",".join(map(str, shard_ids or ())))
        return False
    guild = discord.Object(id=guild_id) if guild_id else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    pairs = await _commands_and_payload(bot.tree, guild)
    payload = [sent for _, sent in pairs]
    digest = payload_hash(payload)
    scope = f"{bot.application_id}:{guild_id or 'global'}"
    state: dict[str, str] = {}
    if state_path is not None and state_path.exists():
        try:
            loaded = json.loads(state_path.read_text(encoding="utf-8"))
            state = {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            log.warning("unreadable command sync state %s; syncing again", state_path)
    if guild is None:
        # Commands once synced to a guild (a dev guild, DISCORD_GUILD_ID) would show twice there
        # beside the global ones: clear every such copy this application left, then forget it.
        prefix = f"{bot.application_id}:"
        for stale in [k for k in state if k.startswith(prefix) and k != scope]:
            old = discord.Object(id=int(stale.removeprefix(prefix)))
            bot.tree.clear_commands(guild=old)
            await bot.tree.sync(guild=old)
            log.info("removed the guild copy of the commands (%s): they are global now", stale)
            del state[stale]
            _save_sync_state(state_path, state)
    if not force and state.get(scope) == digest:
        log.info("application commands unchanged (%s); not syncing", scope)
        return False
    synced = await _upload(bot, guild, payload, [command for command, _ in pairs])
    log.info("synced %d application commands (%s)", synced, scope)
    state[scope] = digest
    _save_sync_state(state_path, state)
    return True


async def _upload(
    bot: commands.Bot | commands.AutoShardedBot,
    guild: discord.abc.Snowflake | None,
    payload: list[Any],
    sent: list[Any],
) -> int:
    """What ``bot.tree.sync(guild=guild)`` sends and raises, for the payload already built (building
    it, every command translated into each locale, was most of a start's sync, and
    ``tree.sync`` would build it again); ``sent``: the commands in the payload's order, which
    CommandSyncFailure names by the indices Discord gives. Returns how many commands Discord now has."""
    application = bot.application_id
    if application is None:
        raise app_commands.MissingApplicationID
    try:
        if guild is None:
            data = await bot.http.bulk_upsert_global_commands(application, payload=payload)
        else:
            data = await bot.http.bulk_upsert_guild_commands(application, guild.id, payload=payload)
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:  # as tree.sync: the payload itself was refused
            raise app_commands.CommandSyncFailure(error, sent) from None
        raise
    return len(data)


def _save_sync_state(state_path: Path | None, state: Mapping[str, str]) -> None:
    """Write the sync state atomically (a crash leaves the old file, never half a file)."""
    if state_path is None:
        return
    state_path.parent.mkdir(parents=True, exist_ok=True)
    temporary = state_path.with_suffix(state_path.suffix + ".tmp")
    temporary.write_text(json.dumps(dict(state), indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(state_path)


