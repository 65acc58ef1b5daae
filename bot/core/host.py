"""The bot process: the client, where it connects, one error handler, command sync, secrets kept out of logs.

``make_bot`` builds the client (tests build it the same way, pointed at a local stand-in through
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``). ``setup_hook`` opens the store (unless it was
opened before), creates the daily-post service (``bot.delivery``) and the /quiz service
(``bot.quizzes``), loads the command extensions, syncs the command tree only when its payload
changed, and starts the services.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from texts.when import default_zone

from .delivery import Delivery, DeliveryConfig
from .i18n import TEXTS, Lang, Translator, language_of, text
from .quiz_service import QuizService
from .schedule import parse_zone
from .store import Location, Shards, Store, default_location, open_store

log = logging.getLogger("bot")

EXTENSIONS = ("bot.commands", "bot.daily", "bot.settings", "bot.quiz", "bot.casebook", "bot.profile")


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


# Interaction and webhook tokens travel in URLs (and gateway payloads): anyone holding one can
# answer as the bot for 15 minutes, so --debug logs must not show them.
_TOKEN_PATTERNS = (
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]{20,}"),
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
)


class RedactSecrets(logging.Filter):
    """Replaces each secret, and every interaction/webhook token, in a record's message,
    arguments and traceback with ``[REDACTED]``.

    Attach it to handlers: a handler filter sees every record that reaches the handler,
    including those propagated from child loggers (a logger filter would not).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def redact(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        for pattern in _TOKEN_PATTERNS:
            value = pattern.sub(lambda m: m.group(1) + REDACTED, value)
        return value

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class _NoVoiceWarnings(logging.Filter):
    """Drops discord.py's "PyNaCl/davey is not installed, voice will NOT be supported": the bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


_NO_VOICE = _NoVoiceWarnings()


def silence_voice_warnings() -> None:
    logging.getLogger("discord.client").addFilter(_NO_VOICE)


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


def permission_names(permissions: Iterable[str], lang: Lang) -> str:
    """Discord permission flags (``manage_guild``) as the reader's client names them (サーバー管理)."""
    named = [text(f"permission.{p}", lang) if f"permission.{p}" in TEXTS else p.replace("_", " ") for p in permissions]
    return text("permission.sep", lang).join(named)


# Discord refuses a message over 2,000 characters: a reply is clipped to it, and an error reply it
# still refuses falls back to a short fixed one, so the user is never left without an answer.
MESSAGE_MAX = 2000


def user_message(error: app_commands.AppCommandError, locale: discord.Locale | str) -> tuple[str, bool]:
    """What to tell the user about ``error``, and whether it is a bug worth a traceback in the log."""
    lang = language_of(locale)
    inner = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(inner, ReplyError):
        return inner.message, False
    if isinstance(error, app_commands.CommandOnCooldown):
        return text("error.cooldown", lang, seconds=error.retry_after), False
    if isinstance(error, app_commands.BotMissingPermissions):
        return text("error.bot_permission", lang, detail=permission_names(error.missing_permissions, lang)), False
    if isinstance(error, app_commands.MissingPermissions):
        return text("error.permission", lang, detail=permission_names(error.missing_permissions, lang)), False
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
        if len(message) > MESSAGE_MAX:
            message = message[: MESSAGE_MAX - 1] + "…"
        try:
            await reply_ephemeral(interaction, message)
        except discord.HTTPException as refused:
            log.warning("could not tell the user about an error in /%s (%s); sending the short form", command,
                        refused.status)
            try:
                await reply_ephemeral(interaction, text("error.fallback", language_of(interaction.locale)))
            except discord.HTTPException:
                log.warning("could not tell the user about an error in /%s at all", command, exc_info=True)


# -- command sync -------------------------------------------------------------------------------


def sync_state_path(where: Location | Path) -> Path | None:
    """Where the last synced command hashes are kept: beside the database file (None: nowhere,
    for an in-memory database); for PostgreSQL, in the user's state directory."""
    location = where if isinstance(where, Location) else Location(path=where)
    folder = location.state_dir()
    if folder is None:
        return None
    name = location.path.name if location.path is not None else "postgresql"
    return folder / (name + ".commands.json")


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
    bot: commands.Bot | commands.AutoShardedBot,
    state_path: Path | None,
    guild_id: int | None = None,
    *,
    force: bool = False,
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
    synced = await bot.tree.sync(guild=guild)
    log.info("synced %d application commands (%s)", len(synced), scope)
    state[scope] = digest
    _save_sync_state(state_path, state)
    return True


def _save_sync_state(state_path: Path | None, state: Mapping[str, str]) -> None:
    """Write the sync state atomically (a crash leaves the old file, never half a file)."""
    if state_path is None:
        return
    state_path.parent.mkdir(parents=True, exist_ok=True)
    temporary = state_path.with_suffix(state_path.suffix + ".tmp")
    temporary.write_text(json.dumps(dict(state), indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(state_path)


# -- the bot ------------------------------------------------------------------------------------


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LiurenBot(commands.AutoShardedBot):
    """The Discord bot, on the shards it is given (all, by default).

    ``store`` and ``delivery`` (the daily-post service) are ready after ``setup_hook``;
    ``clock`` gives aware UTC now.
    """

    store: Store
    delivery: Delivery
    quizzes: QuizService  # the /quiz service (bot/quiz_service.py)

    def __init__(
        self,
        *,
        store_path: str | os.PathLike[str] | Location | None = None,
        store: Store | None = None,
        clock: Callable[[], datetime] | None = None,
        guild_id: int | None = None,
        force_sync: bool = False,
        extensions: Iterable[str] = EXTENSIONS,
        delivery_config: DeliveryConfig | None = None,
        **client_kwargs: Any,
    ) -> None:
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("help_command", None)
        client_kwargs.setdefault("tree_cls", LiurenTree)
        super().__init__(command_prefix=commands.when_mentioned, **client_kwargs)
        self._opened: Store | None = store  # set once the store is open; closed by close()
        self._started: Delivery | None = None  # set once the service runs; stopped by close()
        self._quizzes_started: QuizService | None = None  # likewise for the /quiz service
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
        self.delivery_config = delivery_config or DeliveryConfig()
        self.synced: bool | None = None  # whether the last start synced commands

    @property
    def shards_held(self) -> Shards | None:
        """The shards whose guilds this process posts for (None: every guild)."""
        if self.shard_count is None or self.shard_count <= 1 or self.shard_ids is None:
            return None
        return Shards(self.shard_count, tuple(sorted(self.shard_ids)))

    async def setup_hook(self) -> None:
        if self._opened is None:
            self._opened = self.store = await open_store(self.location)
        self.delivery = Delivery(self, self.store, self.clock, self.delivery_config, self.shards_held)
        self.quizzes = QuizService(self, self.store, self.clock, self.shards_held)
        await self.tree.set_translator(Translator())
        from .buttons import DYNAMIC_ITEMS  # imports this module: loaded once the bot exists

        # The buttons under charts and pages keep working across restarts (the custom_id says all).
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in self.extension_names:
            await self.load_extension(name)
        self.synced = await sync_if_changed(
            self, sync_state_path(self.location), self.guild_id, force=self.force_sync
        )
        self.delivery.start()
        self._started = self.delivery
        self.quizzes.start()
        self._quizzes_started = self.quizzes

    async def close(self) -> None:
        """Stop claiming posts and let those in flight finish, disconnect, then close the store."""
        if self._started is not None:
            await self._started.stop()
        if self._quizzes_started is not None:
            await self._quizzes_started.stop()
        await super().close()
        if self._opened is not None:
            await self._opened.close()


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
    text_value = env.get("LIUREN_LEASE_MINUTES", "").strip()
    if not text_value:
        return DeliveryConfig(heartbeat=heartbeat)
    try:
        minutes = float(text_value)
    except ValueError:
        minutes = -1.0
    # Fractions are allowed (tests run leases of seconds); a lease shorter than a slow send
    # would let another process post the day again, so keep it to minutes in production.
    if not 0.01 <= minutes <= 24 * 60:
        raise ValueError(f"LIUREN_LEASE_MINUTES must be a number of minutes from 0.01 to 1440, not {text_value!r}")
    return DeliveryConfig(lease=timedelta(minutes=minutes), heartbeat=heartbeat)


def make_bot(
    *,
    store_path: str | os.PathLike[str] | Location | None = None,
    clock: Callable[[], datetime] | None = None,
    environ: Mapping[str, str] | None = None,
    **client_kwargs: Any,
) -> LiurenBot:
    """A configured bot: endpoints from the environment, ``DISCORD_GUILD_ID`` for a dev guild,
    shards from ``LIUREN_SHARD_COUNT``/``LIUREN_SHARD_IDS``, the lease from ``LIUREN_LEASE_MINUTES``.

    Raises ``ValueError`` for a setting that cannot be used.
    """
    env = os.environ if environ is None else environ
    zone = default_zone(env)
    try:
        parse_zone(zone)
    except ValueError:
        raise ValueError(f"LIUREN_TZ={zone!r} is not an IANA time zone (e.g. Asia/Tokyo)") from None
    configure_endpoints(env)
    silence_voice_warnings()
    guild = env.get("DISCORD_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ValueError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}")
    client_kwargs.setdefault("guild_id", int(guild) if guild else None)
    for key, value in shard_settings(env).items():
        client_kwargs.setdefault(key, value)
    client_kwargs.setdefault("delivery_config", delivery_settings(env))
    return LiurenBot(store_path=store_path, clock=clock, **client_kwargs)
