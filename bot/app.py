"""The bot process: the client, where it connects, one error handler, command sync, secrets kept out of logs.

``make_bot`` builds the client (tests build it the same way, pointed at a local stand-in through
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``). ``setup_hook`` opens the store, loads the
command and daily extensions and syncs the command tree only when its payload changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from .i18n import Translator, language_of, text
from .store import Store, default_path, open_store
from .when import WhenError, zone_named

log = logging.getLogger("bot")

DEFAULT_ZONE = "Asia/Tokyo"
EXTENSIONS = ("bot.commands", "bot.daily")


def default_zone() -> str:
    """The zone used when neither the user nor the server chose one: $LIUREN_TZ or Asia/Tokyo."""
    return os.environ.get("LIUREN_TZ") or DEFAULT_ZONE


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


# -- secrets out of logs --------------------------------------------------------------------------

REDACTED = "[REDACTED]"


class RedactSecrets(logging.Filter):
    """Replaces each secret in a record's message, arguments and traceback with ``[REDACTED]``.

    Attach it to handlers: a handler filter sees every record that reaches the handler,
    including those propagated from child loggers (a logger filter would not).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def redact(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        return value

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def install_redaction(secrets: Iterable[str], handlers: Iterable[logging.Handler] | None = None) -> RedactSecrets:
    """Attach one ``RedactSecrets`` to ``handlers`` (default: every root handler); returns it."""
    redactor = RedactSecrets(secrets)
    for handler in handlers if handlers is not None else logging.getLogger().handlers:
        handler.addFilter(redactor)
    return redactor


# -- errors -------------------------------------------------------------------------------------


class ReplyError(app_commands.AppCommandError):
    """An error the user can act on; ``message`` is already in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def reply_ephemeral(interaction: discord.Interaction[Any], message: str) -> None:
    """Send ``message`` only to the user, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


def _missing(permissions: Iterable[str]) -> str:
    return ", ".join(p.replace("_", " ") for p in permissions)


def user_message(error: app_commands.AppCommandError, locale: discord.Locale | str) -> tuple[str, bool]:
    """What to tell the user about ``error``, and whether it is a bug worth a traceback in the log."""
    lang = language_of(locale)
    inner = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(inner, ReplyError):
        return inner.message, False
    if isinstance(error, app_commands.CommandOnCooldown):
        return text("error.cooldown", lang, seconds=error.retry_after), False
    if isinstance(error, app_commands.BotMissingPermissions):
        return text("error.bot_permission", lang, detail=_missing(error.missing_permissions)), False
    if isinstance(error, app_commands.MissingPermissions):
        return text("error.permission", lang, detail=_missing(error.missing_permissions)), False
    if isinstance(error, app_commands.CheckFailure):
        return text("error.permission", lang, detail=str(error) or "check"), False
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return text("error.unknown_command", lang), True
    if isinstance(inner, discord.Forbidden):
        return text("error.bot_permission", lang, detail=inner.text or "403"), False
    return "", True


class LiurenTree(app_commands.CommandTree[Any]):
    """The command tree with the bot's single error handler (every cog's commands end here)."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        message, is_bug = user_message(error, interaction.locale)
        command = interaction.command.qualified_name if interaction.command else "?"
        if is_bug:
            ref = uuid.uuid4().hex[:8]
            log.error("command /%s failed (ref %s)", command, ref, exc_info=error)
            if not message:
                message = text("error.internal", language_of(interaction.locale), ref=ref)
        else:
            log.info("command /%s refused: %s", command, message)
        try:
            await reply_ephemeral(interaction, message)
        except discord.HTTPException:
            log.warning("could not tell the user about an error in /%s", command, exc_info=True)


# -- command sync -------------------------------------------------------------------------------


def sync_state_path(db_path: Path) -> Path:
    """Where the last synced command hashes are kept: next to the database."""
    return db_path.with_name(db_path.name + ".commands.json")


async def command_payload(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> list[Any]:
    """The JSON Discord would receive for ``tree.sync(guild=guild)``, translations included."""
    translator = tree.translator
    payload = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    return sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))


def payload_hash(payload: list[Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


async def sync_if_changed(
    bot: commands.Bot, state_path: Path | None, guild_id: int | None = None, *, force: bool = False
) -> bool:
    """Sync the command tree (to ``guild_id`` at once, else globally) if its payload changed.

    The hash of the last synced payload is kept per application and scope in ``state_path``; a
    start with the same commands makes no request. Returns whether a sync was made.
    """
    guild = discord.Object(id=guild_id) if guild_id else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    digest = payload_hash(await command_payload(bot.tree, guild))
    scope = f"{bot.application_id}:{guild_id or 'global'}"
    state: dict[str, str] = {}
    if state_path is not None and state_path.exists():
        try:
            loaded = json.loads(state_path.read_text(encoding="utf-8"))
            state = {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            log.warning("unreadable command sync state %s; syncing again", state_path)
    if not force and state.get(scope) == digest:
        log.info("application commands unchanged (%s); not syncing", scope)
        return False
    synced = await bot.tree.sync(guild=guild)
    log.info("synced %d application commands (%s)", len(synced), scope)
    if state_path is not None:
        state[scope] = digest
        state_path.parent.mkdir(parents=True, exist_ok=True)
        temporary = state_path.with_suffix(state_path.suffix + ".tmp")
        temporary.write_text(json.dumps(state, indent=1, sort_keys=True), encoding="utf-8")
        temporary.replace(state_path)
    return True


# -- the bot ------------------------------------------------------------------------------------


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LiurenBot(commands.Bot):
    """The Discord bot. ``store`` is ready after ``setup_hook``; ``clock`` gives aware UTC now."""

    store: Store

    def __init__(
        self,
        *,
        store_path: str | os.PathLike[str] | None = None,
        clock: Callable[[], datetime] | None = None,
        guild_id: int | None = None,
        force_sync: bool = False,
        extensions: Iterable[str] = EXTENSIONS,
        **client_kwargs: Any,
    ) -> None:
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("help_command", None)
        client_kwargs.setdefault("tree_cls", LiurenTree)
        super().__init__(command_prefix=commands.when_mentioned, **client_kwargs)
        self.store_path = Path(store_path) if store_path is not None else default_path()
        self.clock: Callable[[], datetime] = clock or _utc_now
        self.guild_id = guild_id
        self.force_sync = force_sync
        self.extension_names = tuple(extensions)
        self.synced: bool | None = None  # whether the last start synced commands

    async def setup_hook(self) -> None:
        self.store = await open_store(self.store_path)
        await self.tree.set_translator(Translator())
        for name in self.extension_names:
            await self.load_extension(name)
        self.synced = await sync_if_changed(
            self, None if str(self.store_path) == ":memory:" else sync_state_path(self.store_path),
            self.guild_id, force=self.force_sync,
        )

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def make_bot(
    *,
    store_path: str | os.PathLike[str] | None = None,
    clock: Callable[[], datetime] | None = None,
    environ: Mapping[str, str] | None = None,
    **client_kwargs: Any,
) -> LiurenBot:
    """A configured bot: endpoints from the environment, ``DISCORD_GUILD_ID`` for a dev guild.

    Raises ``ValueError`` for a ``DISCORD_GUILD_ID`` or ``LIUREN_TZ`` that cannot be used.
    """
    env = os.environ if environ is None else environ
    zone = env.get("LIUREN_TZ") or DEFAULT_ZONE
    try:
        zone_named(zone)
    except WhenError:
        raise ValueError(f"LIUREN_TZ={zone!r} is not an IANA time zone (e.g. Asia/Tokyo)") from None
    configure_endpoints(env)
    guild = env.get("DISCORD_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ValueError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}")
    client_kwargs.setdefault("guild_id", int(guild) if guild else None)
    return LiurenBot(store_path=store_path, clock=clock, **client_kwargs)
