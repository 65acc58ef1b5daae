"""A local stand-in for Discord's REST API and gateway, for end-to-end tests of the real discord.py client.

The server listens on 127.0.0.1 (a free port). Point the bot at it with the environment variables
``DISCORD_API_BASE`` (``standin.api_base``) and ``DISCORD_GATEWAY_URL`` (``standin.gateway_url``);
bot/app.py copies them into ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``.

What it plays:
- login: ``GET /users/@me`` (401 unless the token matches), ``GET /oauth2/applications/@me``;
- the gateway: HELLO → IDENTIFY → READY (+ one GUILD_CREATE per guild), heartbeats, RESUME;
- application commands: global and per-guild ``GET``/``PUT`` (ids stay stable per name);
- messages: ``POST /channels/{id}/messages`` (recorded; failures configurable per channel with
  ``fail_channel``; ``enforce_nonce`` as Discord documents it: the same nonce from the same author
  within ``nonce_window`` seconds returns the message already stored instead of a new one;
  ``lose_answer``/``slow_answer`` store the message and then drop or delay the reply),
  ``GET /channels/{id}/messages?limit=`` (newest first), ``GET /channels/{id}``;
- permissions: the bot's permissions in a channel are its roles' (``everyone_permissions`` and
  ``bot_permissions``) with the channel's overwrites applied, as Discord computes them
  (``bot_permissions_in``); a message without View Channel is 403 50001, without Send Messages, or
  with a file but without Attach Files, 403 50013; reading messages without Read Message History
  returns no messages (Discord's documented behaviour);
- DMs: ``POST /users/@me/channels`` opens a DM channel (``dm_channel_of``), whose messages are recorded;
- the 3 s deadline: an interaction callback later than ``callback_deadline`` seconds after
  INTERACTION_CREATE is 404 10062 (Unknown interaction), a second callback 400 40060;
- shards: IDENTIFY's ``shard: [id, count]`` gets READY and GUILD_CREATE for that shard's guilds only;
- interactions: tests inject INTERACTION_CREATE with ``slash``/``autocomplete``/``press`` (a button)/
  ``message_command`` (a message's context menu: type 2, ``data.type`` 3, the message in
  ``data.resolved.messages`` under ``target_id``)/``interact`` and await the callback; followups and
  edits through ``/webhooks/{app}/{token}``; ``member_message`` stores a member's message (any
  timestamp) for a menu to target;
- announcement channels (type 5): ``POST /channels/{id}/messages/{message_id}/crosspost`` publishes
  a message to following servers, as Discord rules: only in an announcement channel (else 400
  50024), only a message of that channel (else 404 10008), once (again: 400 40033), with Send
  Messages for the bot's own message and Manage Messages for another's (else 403 50013); refusals
  configurable with ``fail_crosspost``; ``crossposted`` lists what was published;
Every REST request is recorded (method, path without the API prefix, query, JSON body). Message
bodies are checked against Discord's limits and rejected with a 400 in Discord's nested error
shape, as Discord would.

A 500 makes discord.py retry up to five times with 1 s, 3 s, 5 s … sleeps: use ``times=1`` to test a
retry that succeeds without waiting long.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
MAX_REQUEST_BYTES = 32 * 1024 * 1024  # above any upload limit Discord grants a bot
JSON_HEADERS = {"Content-Type": "application/json"}  # exactly this: discord.py checks equality

EPHEMERAL = 1 << 6

# Permission bits used in guild fixtures (Discord's values).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
ADMINISTRATOR = 1 << 3
MANAGE_MESSAGES = 1 << 13
ANNOUNCEMENT = 5  # GUILD_ANNOUNCEMENT: a channel other servers can follow
CROSSPOSTED = 1 << 0  # a message's flag once published
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
MEMBER_PERMISSIONS = BOT_PERMISSIONS | USE_APPLICATION_COMMANDS

# Discord's message limits; the stand-in enforces them the way Discord does (HTTP 400).
LIMITS: Mapping[str, int] = {
    "content": 2000,
    "embeds": 10,
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field.name": 256,
    "field.value": 1024,
    "footer.text": 2048,
    "author.name": 256,
    "total": 6000,
}

_snowflakes = itertools.count(1_300_000_000_000_000_000)
DISCORD_EPOCH_MS = 1_420_070_400_000  # a snowflake's time counts from 2015-01-01 UTC


def snowflake() -> int:
    """A fresh, increasing id."""
    return next(_snowflakes)


@dataclass(slots=True)
class ChannelSpec:
    """A guild channel; ``type`` 0 is a text channel, 5 an announcement channel. ``overwrites`` are
    Discord permission overwrite dicts."""

    id: int = field(default_factory=snowflake)
    name: str = "general"
    type: int = 0
    overwrites: list[dict[str, Any]] = field(default_factory=list)

    def payload(self, guild_id: int, position: int) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id),
            "name": self.name,
            "position": position,
            "permission_overwrites": self.overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }


@dataclass(slots=True)
class GuildSpec:
    """A guild the bot is in. ``bot_permissions`` is given to the bot through its own role."""

    id: int = field(default_factory=snowflake)
    name: str = "study group"
    channels: list[ChannelSpec] = field(default_factory=lambda: [ChannelSpec()])
    everyone_permissions: int = VIEW_CHANNEL | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS
    bot_permissions: int = BOT_PERMISSIONS
    preferred_locale: str = "ja"
    bot_role_id: int = field(default_factory=snowflake)
    owner_id: int = field(default_factory=snowflake)


@dataclass(frozen=True, slots=True)
class Recorded:
    """One REST request as the stand-in received it."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/123/messages"
    query: Mapping[str, str]
    body: Any  # parsed JSON, or None
    status: int  # what the stand-in answered
    at: float = field(default_factory=time.perf_counter)


@dataclass(slots=True)
class Failure:
    """Answer ``status`` to channel messages; ``times`` None means always, otherwise that many times.

    ``status`` 0 means "store the message, then drop the connection without an answer";
    ``delay`` > 0 means "store the message, then answer after that many seconds".
    """

    status: int
    times: int | None = None
    retry_after: float = 0.05
    delay: float = 0.0


@dataclass(slots=True)
class Callback:
    """The interaction callback the bot posted, and how long it took from INTERACTION_CREATE."""

    interaction_id: int
    token: str
    body: dict[str, Any]
    elapsed: float

    @property
    def type(self) -> int:
        return int(self.body["type"])

    @property
    def data(self) -> dict[str, Any]:
        data = self.body.get("data") or {}
        assert isinstance(data, dict)
        return data

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags", 0)) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds", []))

    @property
    def files(self) -> list[dict[str, Any]]:
        """Files the callback uploaded (multipart): field, filename, content_type and data (bytes)."""
        return list(self.body.get("_files", []))


@dataclass(slots=True)
class _Waiter:
    predicate: Callable[[Recorded], bool]
    future: asyncio.Future[Recorded]


def discord_error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    """A JSON error in Discord's shape (``errors`` nested down to ``{"_errors": [...]}``)."""
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return web.Response(status=status, body=json.dumps(body).encode(), headers=JSON_HEADERS)


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    return web.Response(status=status, body=json.dumps(data).encode(), headers={**JSON_HEADERS, **(headers or {})})


def _nest(path: list[str], leaf: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = leaf
    for key in reversed(path):
        node = {key: node}
    return node


def _merge(into: dict[str, Any], other: dict[str, Any]) -> None:
    for key, value in other.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        else:
            into[key] = value


def message_errors(body: Mapping[str, Any]) -> dict[str, Any]:
    """Discord's validation of a message body against its length limits, as a nested error tree."""
    errors: dict[str, Any] = {}

    def fail(path: list[str], text: str) -> None:
        _merge(errors, _nest(path, {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": text}]}))

    content = body.get("content") or ""
    if len(content) > LIMITS["content"]:
        fail(["content"], f"Must be {LIMITS['content']} or fewer in length.")
    embeds = body.get("embeds") or []
    if len(embeds) > LIMITS["embeds"]:
        fail(["embeds"], f"Must be {LIMITS['embeds']} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        where = ["embeds", str(i)]
        for key in ("title", "description"):
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > LIMITS[key]:
                fail([*where, key], f"Must be {LIMITS[key]} or fewer in length.")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > LIMITS["footer.text"]:
            fail([*where, "footer", "text"], "Must be 2048 or fewer in length.")
        if len(author) > LIMITS["author.name"]:
            fail([*where, "author", "name"], "Must be 256 or fewer in length.")
        fields = embed.get("fields") or []
        if len(fields) > LIMITS["fields"]:
            fail([*where, "fields"], "Must be 25 or fewer in length.")
        for j, item in enumerate(fields):
            name, value = item.get("name") or "", item.get("value") or ""
            total += len(name) + len(value)
            if not name or len(name) > LIMITS["field.name"]:
                fail([*where, "fields", str(j), "name"], "Must be between 1 and 256 in length.")
            if not value or len(value) > LIMITS["field.value"]:
                fail([*where, "fields", str(j), "value"], "Must be between 1 and 1024 in length.")
    if total > LIMITS["total"]:
        fail(["embeds"], f"Embed size exceeds maximum size of {LIMITS['total']}")
    return errors


def attachment_errors(body: Mapping[str, Any]) -> dict[str, Any]:
    """Discord's reading of an edit's files (PATCH of a message, multipart): only the attachments
    the body lists stay on the message, a new one named by the index of its ``files[n]`` part, so
    an upload the list leaves out is dropped, and an embed's ``attachment://`` image shows only a
    file the message keeps. Each such mistake is an error here, so a test sees it."""
    errors: dict[str, Any] = {}
    listed = body.get("attachments") or []
    uploaded = {str(f["field"]): f for f in body.get("_files") or ()}
    kept: set[str] = set()
    for i, entry in enumerate(listed):
        ident = str(entry.get("id"))
        file = uploaded.get(f"files[{ident}]")
        if file is not None and entry.get("filename") not in (None, file["filename"]):
            _merge(errors, _nest(["attachments", str(i), "filename"], {"_errors": [
                {"code": "ATTACHMENT_NAME_MISMATCH", "message": "Does not match the uploaded file's name."}]}))
        kept.add(str(file["filename"] if file is not None else entry.get("filename")))
    for part in uploaded:
        if not any(f"files[{e.get('id')}]" == part for e in listed):
            _merge(errors, _nest(["attachments"], {"_errors": [
                {"code": "ATTACHMENT_NOT_LISTED", "message": f"{part} is not listed in attachments."}]}))
    for i, embed in enumerate(body.get("embeds") or []):
        url = str((embed.get("image") or {}).get("url") or "")
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in kept:
            _merge(errors, _nest(["embeds", str(i), "image", "url"], {"_errors": [
                {"code": "ATTACHMENT_NOT_FOUND", "message": "Names no attachment of the message."}]}))
    return errors


class DiscordStandIn:
    """The stand-in server. ``await start()``, then run the bot with ``api_base``/``gateway_url``."""

    def __init__(
        self,
        *,
        token: str = "standin-token.abc.def",
        guilds: Iterable[GuildSpec] | None = None,
        application_id: int | None = None,
        bot_user_id: int | None = None,
        heartbeat_interval_ms: int = 41_250,
        max_concurrency: int = 1,
    ) -> None:
        self.token = token
        self.guilds: list[GuildSpec] = list(guilds) if guilds is not None else [GuildSpec()]
        self.application_id = application_id or snowflake()
        self.bot_user_id = bot_user_id or self.application_id
        self.user_id = snowflake()  # the human who runs commands
        self.heartbeat_interval_ms = heartbeat_interval_ms
        # GET /gateway/bot's max_concurrency: IDENTIFYs allowed per 5 s (Discord gives most bots 1)
        self.max_concurrency = max_concurrency
        self.requests: list[Recorded] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.messages: dict[int, list[dict[str, Any]]] = {}  # channel id → messages posted
        self.nonce_window = 300.0  # seconds an enforced nonce is remembered ("a few minutes")
        self._nonces: dict[tuple[int, str, str], tuple[float, dict[str, Any]]] = {}
        self.failures: dict[int, Failure] = {}
        self.followup_failure: Failure | None = None
        self.crosspost_failures: dict[int, Failure] = {}  # channel id → how its crossposts are refused
        self.crossposted: list[tuple[int, int]] = []  # (channel id, message id) published, in order
        # What a PUT of the commands is refused with (Discord's 400 50035 for a payload it will not
        # take, e.g. a name it does not allow); None: every payload is taken.
        self.commands_refusal: dict[str, Any] | None = None
        self.identifies: list[dict[str, Any]] = []
        self.identified_at: list[float] = []  # time.monotonic() of each IDENTIFY, parallel to identifies
        self.errors: list[Exception] = []  # exceptions raised inside the stand-in itself
        self.callback_deadline = 3.0  # seconds Discord waits for an interaction's first answer
        self.dm_channels: dict[int, int] = {}  # user id → DM channel id
        self._answered: set[int] = set()
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self._waiters: list[_Waiter] = []
        self._sockets: list[web.WebSocketResponse] = []
        self._connected = asyncio.Event()
        self._stopping = asyncio.Event()
        self._sequence = 0
        self._sent_at: dict[int, float] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        # Request bodies as large as Discord takes (aiohttp's default is 1 MiB): uploads are checked
        # against the interaction's own attachment_size_limit, not cut off by the server.
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]

    async def stop(self) -> None:
        self._stopping.set()
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """The environment variables that point the bot at this stand-in."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    # -- configuration -----------------------------------------------------------------------

    def fail_channel(self, channel_id: int, status: int, *, times: int | None = None,
                     retry_after: float = 0.05) -> None:
        """Make ``POST /channels/{channel_id}/messages`` answer ``status`` (403, 404, 429, 500 …)."""
        self.failures[channel_id] = Failure(status, times, retry_after)

    def fail_crosspost(self, channel_id: int, status: int, *, times: int | None = None,
                       retry_after: float = 0.05) -> None:
        """Make ``POST /channels/{channel_id}/messages/{id}/crosspost`` answer ``status`` (403, 429 …)."""
        self.crosspost_failures[channel_id] = Failure(status, times, retry_after)

    def fail_followups(self, status: int, *, times: int = 1) -> None:
        """Make the next ``times`` interaction followups (``POST /webhooks/{app}/{token}``) answer ``status``."""
        self.followup_failure = Failure(status, times)

    def lose_answer(self, channel_id: int, *, times: int = 1) -> None:
        """Store the next message(s) to the channel, then drop the connection: the answer is lost."""
        self.failures[channel_id] = Failure(0, times)

    def slow_answer(self, channel_id: int, seconds: float, *, times: int = 1) -> None:
        """Store the next message(s) to the channel at once, but answer only after ``seconds``."""
        self.failures[channel_id] = Failure(200, times, delay=seconds)

    def bot_permissions_in(self, guild: GuildSpec, channel: ChannelSpec) -> int:
        """The bot's permissions in ``channel``: its roles', then the channel's overwrites for
        @everyone, for its role, then for the bot itself (Discord's order)."""
        base = guild.everyone_permissions | guild.bot_permissions
        if base & ADMINISTRATOR:
            return -1 & ((1 << 53) - 1)
        for target in (str(guild.id), str(guild.bot_role_id), str(self.bot_user_id)):
            for overwrite in channel.overwrites:
                if str(overwrite.get("id")) == target:
                    base = (base & ~int(overwrite.get("deny", 0))) | int(overwrite.get("allow", 0))
        return base

    def deny_bot(self, channel_id: int, permissions: int) -> None:
        """Withdraw ``permissions`` from the bot's role in the channel (an overwrite, as a server admin would).
        The gateway is not told: the bot learns it from the next refused request, as after a lost event."""
        found = self.channel(channel_id)
        assert found is not None, channel_id
        guild, channel = found
        channel.overwrites = [o for o in channel.overwrites if str(o.get("id")) != str(guild.bot_role_id)]
        channel.overwrites.append({"id": str(guild.bot_role_id), "type": 0, "allow": "0", "deny": str(permissions)})

    def dm_channel_of(self, user_id: int) -> int | None:
        """The DM channel the bot opened with ``user_id``, if any."""
        return self.dm_channels.get(user_id)

    def channel(self, channel_id: int) -> tuple[GuildSpec, ChannelSpec] | None:
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.id == channel_id:
                    return guild, channel
        return None

    # -- queries for tests -------------------------------------------------------------------

    def requests_to(self, method: str, path_prefix: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method and r.path.startswith(path_prefix)]

    async def wait_request(
        self, predicate: Callable[[Recorded], bool], *, timeout: float = 5.0, since: int = 0
    ) -> Recorded:
        """The first request (from index ``since``) matching ``predicate``, waiting up to ``timeout`` s."""
        for recorded in self.requests[since:]:
            if predicate(recorded):
                return recorded
        future: asyncio.Future[Recorded] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(predicate, future)
        self._waiters.append(waiter)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Until a client has identified and received READY."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- interactions ------------------------------------------------------------------------

    def command_id(self, name: str, guild_id: int | None) -> tuple[int, int | None]:
        """The registered id of a command (guild command first), and the guild it is registered in."""
        if guild_id is not None and (guild_id, name) in self._command_ids:
            return self._command_ids[(guild_id, name)], guild_id
        if (None, name) in self._command_ids:
            return self._command_ids[(None, name)], None
        return snowflake(), None

    def interaction_payload(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        type: int = 2,
        focused: str | None = None,
        guild_id: int | bool | None = True,
        channel_id: int | None = None,
        locale: str = "ja",
        user_id: int | None = None,
        member_permissions: int = MEMBER_PERMISSIONS,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for ``/name`` (``"daily set"`` for a subcommand).

        ``guild_id=True`` uses the first guild, ``None`` makes it a DM. Option types follow the
        Python value: bool → BOOLEAN, int → INTEGER, float → NUMBER, else STRING.
        """
        guild = self.guilds[0] if guild_id is True and self.guilds else None
        if isinstance(guild_id, int) and not isinstance(guild_id, bool):
            guild = next((g for g in self.guilds if g.id == guild_id), None)
            if guild is None:
                raise ValueError(f"no guild {guild_id} in the stand-in")
        user = {"id": str(user_id or self.user_id), "username": "student", "discriminator": "0",
                "global_name": "Student", "avatar": None}
        words = name.split()
        leaf: list[dict[str, Any]] = [
            {"type": _option_type(value), "name": key, "value": value, **({"focused": True} if key == focused else {})}
            for key, value in (options or {}).items()
        ]
        nested = leaf
        if len(words) == 3:
            nested = [{"type": 2, "name": words[1], "options": [{"type": 1, "name": words[2], "options": leaf}]}]
        elif len(words) == 2:
            nested = [{"type": 1, "name": words[1], "options": leaf}]
        elif len(words) != 1:
            raise ValueError(f"command name {name!r} must have 1 to 3 words")
        command_id, registered_in = self.command_id(words[0], guild.id if guild else None)
        data: dict[str, Any] = {"id": str(command_id), "name": words[0], "type": 1, "options": nested}
        if registered_in is not None:
            data["guild_id"] = str(registered_in)
        interaction_id = snowflake()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type,
            "data": data,
            "token": f"itoken-{interaction_id}",
            "version": 1,
            "locale": locale,
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id) if guild else str(self.user_id)},
            "context": 0 if guild else 1,
        }
        if guild is not None:
            channel = next((c for c in guild.channels if c.id == channel_id), guild.channels[0])
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.preferred_locale
            payload["channel_id"] = str(channel.id)
            payload["channel"] = channel.payload(guild.id, 0)
            payload["member"] = {
                "user": user, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                "mute": False, "flags": 0, "permissions": str(member_permissions), "nick": None,
                "avatar": None, "pending": False,
            }
        else:
            dm_id = channel_id or snowflake()
            payload["channel_id"] = str(dm_id)
            payload["channel"] = {"id": str(dm_id), "type": 1, "recipients": [user]}
            payload["user"] = user
        return payload

    async def interact(self, payload: dict[str, Any], *, timeout: float = 5.0) -> Callback:
        """Send INTERACTION_CREATE and wait for the bot's callback."""
        interaction_id, token = int(payload["id"]), str(payload["token"])
        path = f"/interactions/{interaction_id}/{token}/callback"
        since = len(self.requests)
        waiting = asyncio.ensure_future(
            self.wait_request(lambda r: r.method == "POST" and r.path == path, timeout=timeout, since=since)
        )
        sent = time.perf_counter()
        self._sent_at[interaction_id] = sent
        await self.dispatch("INTERACTION_CREATE", payload)
        recorded = await waiting
        return Callback(interaction_id, token, recorded.body or {}, recorded.at - sent)

    async def slash(self, name: str, options: Mapping[str, Any] | None = None, *,
                    timeout: float = 5.0, **kwargs: Any) -> Callback:
        """Run ``/name`` with ``options`` and return the callback."""
        return await self.interact(self.interaction_payload(name, options, **kwargs), timeout=timeout)

    async def autocomplete(self, name: str, options: Mapping[str, Any], focused: str, *,
                           timeout: float = 5.0, **kwargs: Any) -> list[dict[str, Any]]:
        """The choices the bot offers while a user types option ``focused``."""
        payload = self.interaction_payload(name, options, type=4, focused=focused, **kwargs)
        callback = await self.interact(payload, timeout=timeout)
        assert callback.type == 8, callback.body
        return list(callback.data.get("choices", []))

    async def followups(self, callback: Callback, *, count: int = 1, timeout: float = 5.0) -> list[Recorded]:
        """Wait for ``count`` followup messages (``POST /webhooks/{app}/{token}``) after a callback."""
        path = f"/webhooks/{self.application_id}/{callback.token}"
        found: list[Recorded] = []
        index = 0
        while len(found) < count:
            recorded = await self.wait_request(
                lambda r: r.method == "POST" and r.path == path, timeout=timeout, since=index
            )
            found.append(recorded)
            index = self.requests.index(recorded) + 1
        return found

    async def original_edit(self, callback: Callback, *, timeout: float = 5.0) -> Recorded:
        """Wait for the edit of a callback's message (``PATCH …/messages/@original``), e.g. the
        picture added to a reply sent before it was drawn."""
        path = f"/webhooks/{self.application_id}/{callback.token}/messages/@original"
        return await self.wait_request(lambda r: r.method == "PATCH" and r.path == path, timeout=timeout)

    async def picture(self, callback: Callback, *, timeout: float = 5.0) -> dict[str, Any]:
        """The one file a reply's picture came as: with the callback, or, for a picture not drawn
        when the text went out, by the edit that followed it; AssertionError unless the first embed
        of that message shows it (``attachment://``)."""
        embeds, files = callback.embeds, callback.files
        if not files:
            edit = await self.original_edit(callback, timeout=timeout)
            assert edit.status == 200, edit.body
            embeds, files = edit.body.get("embeds") or [], edit.body.get("_files") or []
        [upload] = files
        assert embeds[0]["image"]["url"] == f"attachment://{upload['filename']}", embeds[0].get("image")
        return dict(upload)

    def edits(self, callback: Callback) -> list[Recorded]:
        """The edits of a callback's message so far."""
        path = f"/webhooks/{self.application_id}/{callback.token}/messages/@original"
        return [r for r in self.requests if r.method == "PATCH" and r.path == path]

    def buttons(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The buttons (component type 2) of a stored message, in order, from every action row."""
        return [c for row in message.get("components") or [] for c in row.get("components") or [] if c.get("type") == 2]

    async def press(self, message: Mapping[str, Any], custom_id: str, *, timeout: float = 5.0,
                    **kwargs: Any) -> Callback:
        """A member presses the button ``custom_id`` on ``message`` (one the bot posted, as stored in
        ``messages``): a component interaction (type 3) carrying the message, as Discord sends it.
        ``kwargs`` as for ``interaction_payload`` (``user_id``, ``locale``, ``guild_id`` …); the
        channel is the message's."""
        if not any(b.get("custom_id") == custom_id for b in self.buttons(message)):
            raise ValueError(f"message {message.get('id')} has no button {custom_id!r}")
        kwargs.setdefault("channel_id", int(message["channel_id"]))
        payload = self.interaction_payload("button", None, type=3, **kwargs)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = dict(message)
        return await self.interact(payload, timeout=timeout)

    def member_message(self, channel_id: int, content: str, timestamp: str, *,
                       author_id: int | None = None) -> dict[str, Any]:
        """Store a member's message in ``channel_id`` posted at ``timestamp`` (ISO 8601), as Discord
        would give it (a menu's target); its id is a snowflake of that moment, as Discord's are."""
        moment = datetime.fromisoformat(timestamp)
        ms = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
        message = self._message(channel_id, {"content": content})
        message["id"] = str((ms << 22) | (next(_snowflakes) & 0x3FFFFF))
        message["timestamp"] = moment.isoformat()
        message["author"] = {"id": str(author_id or snowflake()), "username": "friend", "discriminator": "0",
                             "global_name": "Friend", "avatar": None}
        self.messages.setdefault(channel_id, []).append(message)
        return message

    async def message_command(self, name: str, message: Mapping[str, Any], *, timeout: float = 5.0,
                              **kwargs: Any) -> Callback:
        """A member runs the message command ``name`` from ``message``'s menu (Apps → ``name``): an
        APPLICATION_COMMAND interaction whose command is of type MESSAGE (3), the message resolved
        under ``target_id``, in the message's channel. ``kwargs`` as for ``interaction_payload``."""
        kwargs.setdefault("channel_id", int(message["channel_id"]))
        payload = self.interaction_payload("menu", None, **kwargs)
        guild_id = payload.get("guild_id")
        command_id, registered_in = self.command_id(name, int(guild_id) if guild_id else None)
        payload["data"] = {"id": str(command_id), "name": name, "type": 3, "target_id": str(message["id"]),
                           "resolved": {"messages": {str(message["id"]): dict(message)}}}
        if registered_in is not None:
            payload["data"]["guild_id"] = str(registered_in)
        return await self.interact(payload, timeout=timeout)

    # -- gateway -----------------------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event to every connected client."""
        if not self._sockets:
            raise RuntimeError("no client is connected to the stand-in gateway")
        self._sequence += 1
        text = json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data})
        for ws in list(self._sockets):
            await ws.send_str(text)

    def _user(self) -> dict[str, Any]:
        return {"id": str(self.bot_user_id), "username": "liuren", "discriminator": "0000",
                "global_name": None, "avatar": None, "bot": True, "verified": True, "flags": 0,
                "mfa_enabled": False}

    def _guild_payload(self, guild: GuildSpec) -> dict[str, Any]:
        roles = [
            {"id": str(guild.id), "name": "@everyone", "permissions": str(guild.everyone_permissions),
             "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
            {"id": str(guild.bot_role_id), "name": "liuren", "permissions": str(guild.bot_permissions),
             "position": 1, "color": 0, "hoist": False, "managed": True, "mentionable": False, "flags": 0,
             "tags": {"bot_id": str(self.bot_user_id)}},
        ]
        me = {"user": self._user(), "roles": [str(guild.bot_role_id)], "joined_at": "2024-01-01T00:00:00+00:00",
              "deaf": False, "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False}
        return {
            "id": str(guild.id), "name": guild.name, "owner_id": str(guild.owner_id), "icon": None,
            "splash": None, "discovery_splash": None, "features": [], "roles": roles, "emojis": [],
            "stickers": [], "channels": [c.payload(guild.id, i) for i, c in enumerate(guild.channels)],
            "threads": [], "members": [me], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "member_count": 2, "large": False, "unavailable": False,
            "preferred_locale": guild.preferred_locale, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "system_channel_flags": 0, "afk_timeout": 300,
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:  # identify
                    if payload["d"].get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identifies.append(payload["d"])
                    self.identified_at.append(time.monotonic())
                    await self._ready(ws, payload["d"].get("shard"))
                elif op == 6:  # resume
                    self._sockets.append(ws)
                    self._sequence += 1
                    await ws.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": self._sequence, "d": {}}))
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            if not self._sockets:
                self._connected.clear()
        return ws

    async def _ready(self, ws: web.WebSocketResponse, shard: list[int] | None = None) -> None:
        shard_id, shard_count = (shard[0], shard[1]) if shard else (0, 1)
        guilds = [g for g in self.guilds if (g.id >> 22) % shard_count == shard_id]
        self._sequence += 1
        ready = {
            "v": 10, "user": self._user(), "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": f"session-{snowflake()}", "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0}, "private_channels": [],
            "relationships": [], "shard": [shard_id, shard_count],
        }
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self._sequence, "d": ready}))
        for guild in guilds:
            self._sequence += 1
            await ws.send_str(json.dumps(
                {"op": 0, "t": "GUILD_CREATE", "s": self._sequence, "d": self._guild_payload(guild)}
            ))
        self._sockets.append(ws)
        self._connected.set()

    # -- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.can_read_body and request.content_type.startswith("multipart/"):
            # discord.py sends files as multipart: the JSON in payload_json, each file as files[n].
            form = await request.post()
            body = json.loads(str(form.get("payload_json") or "{}"))
            body["_multipart"] = True
            body["_files"] = [
                {"field": name, "filename": part.filename, "content_type": part.content_type, "data": part.file.read()}
                for name, part in form.items() if isinstance(part, web.FileField)
            ]
        elif request.can_read_body:
            raw = await request.read()
            if request.content_type == "application/json" and raw:
                body = json.loads(raw)
        try:
            response = await self._route(request, path, body)
        except _DropConnection:
            self.requests.append(Recorded(request.method, path, dict(request.query), body, 0))
            if request.transport is not None:
                request.transport.close()
            raise
        except Exception as error:  # a stand-in bug must show up in the test, not as a silent retry
            self.errors.append(error)
            response = discord_error(500, 0, f"stand-in error: {error!r}")
        recorded = Recorded(request.method, path, dict(request.query), body, response.status)
        self.requests.append(recorded)
        for waiter in list(self._waiters):
            if not waiter.future.done() and waiter.predicate(recorded):
                waiter.future.set_result(recorded)
        return response

    def _message(self, channel_id: int, body: Mapping[str, Any], *, webhook: bool = False) -> dict[str, Any]:
        message: dict[str, Any] = {
            "id": str(snowflake()), "channel_id": str(channel_id), "type": 0 if not webhook else 20,
            "content": body.get("content") or "", "embeds": body.get("embeds") or [],
            "author": self._user(), "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "pinned": False, "flags": int(body.get("flags") or 0), "components": body.get("components") or [],
        }
        if webhook:
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
        return message

    def _store_message(self, channel_id: int, body: Mapping[str, Any], author: str) -> dict[str, Any]:
        """Store a new message, or with ``enforce_nonce`` return the one this author already sent
        with that nonce within ``nonce_window`` seconds (Discord's documented behaviour)."""
        nonce = body.get("nonce")
        key = (channel_id, author, str(nonce))
        now = time.monotonic()
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get(key)
            if seen is not None and now - seen[0] <= self.nonce_window:
                return seen[1]
        message = self._message(channel_id, body)
        if nonce is not None:
            message["nonce"] = nonce
            self._nonces[key] = (now, message)
        self.messages.setdefault(channel_id, []).append(message)
        return message

    def _commands_put(self, guild_id: int | None, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        stored = []
        for command in payload:
            key = (guild_id, command["name"])
            command_id = self._command_ids.setdefault(key, snowflake())
            entry = {**command, "id": str(command_id), "application_id": str(self.application_id),
                     "version": str(snowflake()), "type": command.get("type", 1)}
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        names = {c["name"] for c in payload}
        for key in [k for k in self._command_ids if k[0] == guild_id and k[1] not in names]:
            del self._command_ids[key]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored

    async def _route(self, request: web.Request, path: str, body: Any) -> web.Response:
        method = request.method
        parts = [p for p in path.split("/") if p]
        app = str(self.application_id)
        if path == "/users/@me" and method == "GET":
            if request.headers.get("Authorization") != f"Bot {self.token}":
                return discord_error(401, 0, "401: Unauthorized")
            return _json(self._user())
        if path == "/oauth2/applications/@me" and method == "GET":
            return _json({
                "id": app, "name": "liuren", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "owner": {**self._user(), "bot": False},
                "verify_key": "0" * 64, "flags": 0, "team": None,
            })
        if path == "/gateway/bot" and method == "GET":
            return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": {
                "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": self.max_concurrency}})
        if parts[:1] == ["applications"] and len(parts) >= 3 and parts[1] == app:
            guild_id = int(parts[3]) if len(parts) >= 5 and parts[2] == "guilds" else None
            if parts[-1] == "commands":
                if method == "GET":
                    return _json(self.global_commands if guild_id is None
                                 else self.guild_commands.get(guild_id, []))
                if method == "PUT":
                    if self.commands_refusal is not None:
                        return discord_error(400, 50035, "Invalid Form Body", self.commands_refusal)
                    return _json(self._commands_put(guild_id, list(body or [])))
        if parts[:1] == ["interactions"] and len(parts) == 4 and parts[3] == "callback" and method == "POST":
            interaction_id = int(parts[1])
            sent_at = self._sent_at.get(interaction_id)
            if sent_at is not None and time.perf_counter() - sent_at > self.callback_deadline:
                return discord_error(404, 10062, "Unknown interaction")
            if interaction_id in self._answered:
                return discord_error(400, 40060, "Interaction has already been acknowledged.")
            self._answered.add(interaction_id)
            data = (body or {}).get("data") or {}
            errors = message_errors(data)
            if errors:
                return discord_error(400, 50035, "Invalid Form Body", {"data": errors})
            callback_type = int((body or {}).get("type", 0))
            result: dict[str, Any] = {"interaction": {
                "id": str(interaction_id), "type": 2,
                "response_message_loading": callback_type == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }}
            if callback_type in (4, 5, 7):
                message = self._message(0, data, webhook=True)
                result["interaction"]["response_message_id"] = message["id"]
                result["resource"] = {"type": callback_type, "message": message}
            elif callback_type:
                result["resource"] = {"type": callback_type}
            return _json(result)
        if parts[:1] == ["webhooks"] and len(parts) >= 3 and parts[1] == app:
            failing = self.followup_failure
            if method == "POST" and failing is not None and (failing.times or 0) > 0:
                failing.times = (failing.times or 0) - 1
                return discord_error(failing.status, 0, "stand-in: followup refused")
            errors = message_errors(body or {})
            if method == "PATCH" and (body or {}).get("_multipart"):
                _merge(errors, attachment_errors(body))
            if errors and method in ("POST", "PATCH"):
                return discord_error(400, 50035, "Invalid Form Body", errors)
            if method in ("POST", "PATCH", "GET"):
                return _json(self._message(0, body or {}, webhook=True))
            if method == "DELETE":
                return web.Response(status=204)
        if path == "/users/@me/channels" and method == "POST":
            recipient = (body or {}).get("recipient_id")  # CreatePrivateChannelRequest
            if not isinstance(recipient, str | int) or not str(recipient).isdigit():
                return discord_error(400, 50035, "Invalid Form Body",
                                     {"recipient_id": {"_errors": [{"code": "BASE_TYPE_REQUIRED",
                                                                    "message": "This field is required"}]}})
            dm_id = self.dm_channels.setdefault(int(recipient), snowflake())
            user = {"id": str(recipient), "username": "student", "discriminator": "0", "global_name": None,
                    "avatar": None}
            return _json({"id": str(dm_id), "type": 1, "last_message_id": None, "recipients": [user]})
        if parts[:1] == ["channels"] and len(parts) >= 2 and parts[1].isdigit() \
                and int(parts[1]) in self.dm_channels.values():
            if parts[2:] == ["messages"] and method == "POST":
                message = self._store_message(int(parts[1]), body or {}, request.headers.get("Authorization", ""))
                return _json(message)
            return discord_error(404, 0, "404: Not Found")
        if parts[:1] == ["channels"] and len(parts) >= 2 and parts[1].isdigit():
            channel_id = int(parts[1])
            found = self.channel(channel_id)
            if found is None:
                return discord_error(404, 10003, "Unknown Channel")
            guild, channel = found
            allowed = self.bot_permissions_in(guild, channel)
            if len(parts) == 2 and method == "GET":
                return _json(channel.payload(guild.id, guild.channels.index(channel)))
            if len(parts) == 5 and parts[2] == "messages" and parts[4] == "crosspost" and method == "POST":
                return self._crosspost(channel, allowed, parts[3])
            if parts[2:] == ["messages"] and not allowed & VIEW_CHANNEL:
                return discord_error(403, 50001, "Missing Access")
            if parts[2:] == ["messages"] and method == "GET":
                if not allowed & READ_MESSAGE_HISTORY:
                    return _json([])  # Discord: "no messages will be returned"
                limit = min(100, int(request.query.get("limit", "50")))
                return _json(list(reversed(self.messages.get(channel_id, [])))[:limit])
            if parts[2:] == ["messages"] and method == "POST":
                if not allowed & SEND_MESSAGES or ((body or {}).get("_files") and not allowed & ATTACH_FILES):
                    return discord_error(403, 50013, "Missing Permissions")
                failure = self.failures.get(channel_id)
                if failure is not None and (failure.times is None or failure.times > 0):
                    if failure.times is not None:
                        failure.times -= 1
                    if failure.status not in (0, 200):
                        return self._failure(failure)
                else:
                    failure = None
                errors = message_errors(body or {})
                if errors:
                    return discord_error(400, 50035, "Invalid Form Body", errors)
                message = self._store_message(channel_id, body or {}, request.headers.get("Authorization", ""))
                if failure is not None and failure.status == 0:
                    raise _DropConnection
                if failure is not None and failure.delay:
                    with contextlib.suppress(TimeoutError):  # stop() ends the wait early
                        await asyncio.wait_for(self._stopping.wait(), failure.delay)
                return _json(message)
        return discord_error(404, 0, "404: Not Found")

    def _crosspost(self, channel: ChannelSpec, allowed: int, message_id: str) -> web.Response:
        """Publish a message of an announcement channel to the channels following it (Discord's
        rules: see the module doc); a configured refusal answers first, as Discord's would."""
        if not allowed & VIEW_CHANNEL:
            return discord_error(403, 50001, "Missing Access")
        failure = self.crosspost_failures.get(channel.id)
        if failure is not None and (failure.times is None or failure.times > 0):
            if failure.times is not None:
                failure.times -= 1
            return self._failure(failure)
        if channel.type != ANNOUNCEMENT:
            return discord_error(400, 50024, "Cannot execute action on this channel type")
        message = next((m for m in self.messages.get(channel.id, []) if m["id"] == message_id), None)
        if message is None:
            return discord_error(404, 10008, "Unknown Message")
        own = str(message["author"]["id"]) == str(self.bot_user_id)
        if not allowed & SEND_MESSAGES or (not own and not allowed & MANAGE_MESSAGES):
            return discord_error(403, 50013, "Missing Permissions")
        if int(message.get("flags") or 0) & CROSSPOSTED:
            return discord_error(400, 40033, "This message has already been crossposted.")
        message["flags"] = int(message.get("flags") or 0) | CROSSPOSTED
        self.crossposted.append((channel.id, int(message_id)))
        return _json(message)

    @staticmethod
    def _failure(failure: Failure) -> web.Response:
        if failure.status == 403:
            return discord_error(403, 50013, "Missing Permissions")
        if failure.status == 404:
            return discord_error(404, 10003, "Unknown Channel")
        if failure.status == 429:
            return _json({"message": "You are being rate limited.", "retry_after": failure.retry_after,
                          "global": False, "code": 0}, status=429, headers={"Via": "1.1 google"})
        return discord_error(failure.status, 0, f"{failure.status}: Server Error")


class _DropConnection(Exception):
    """Raised inside a handler to close the client's connection without an answer."""


def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3
