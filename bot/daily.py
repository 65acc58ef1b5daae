"""The daily chart auto-post: /daily set|show|off|now, /settings timezone, and the scheduler loop.

A discord.py extension (`await bot.load_extension("bot.daily")`). The bot provides `.store`
(bot.store.Store) and `.clock` (aware UTC now; tests replace it). When posts fall due is decided
in bot.schedule; this module claims, composes and sends them, and turns Discord's answers into
schedule state: 404/403 disable the schedule with the reason, transient errors are retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import ReplyError
from bot.embeds import chart_embeds, group_messages
from bot.i18n import Lang, language_of, ls, text
from bot.schedule import BadRow, Plan, held_by, next_post, parse_time, parse_zone, plan_of, zone_suggestions
from bot.store import ScheduleRow, Store
from engine import cast

__all__ = ["ATTEMPTS", "MAX_SLEEP", "Daily", "Outcome", "setup"]

log = logging.getLogger(__name__)

MAX_SLEEP = 30.0  # the loop wakes at least this often (s), so new schedules and retries are picked up
STOP_GRACE = 10.0  # on unload, how long a tick in progress may take to finish its posts (s)
MIN_SLEEP = 1.0  # …and at most this often, even when a post is due in a few milliseconds
ATTEMPTS = 3  # sends per post and tick before the claim is released for the next tick
BACKOFF = (2.0, 8.0)  # seconds before the 2nd and 3rd attempt
SEND_CONCURRENCY = 5

# The permissions the bot needs in a target channel; checked by /daily set.
NEEDED = ("view_channel", "send_messages", "embed_links")


def _clip(message: str, limit: int = 2000) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "…"


# -- composing and sending a post -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Post:
    """A daily post: a header line and the chart's embeds, grouped into Discord-sized messages."""

    content: str
    messages: tuple[tuple[discord.Embed, ...], ...]


def compose(at: datetime, zone: str, locale: str) -> Post:
    """The chart for `at` in `zone` with its reading, as messages (blocking: run it in a thread)."""
    chart = cast(at, tz=zone)
    local = at.astimezone(parse_zone(zone))
    header = text(
        "daily.post_header", language_of(locale), date=local.date().isoformat(), time=f"{local:%H:%M}", zone=zone
    )
    embeds = chart_embeds(chart, locale=locale)
    return Post(header, tuple(tuple(group) for group in group_messages(embeds)))


Outcome = Literal["posted", "taken", "disabled", "retry", "failed"]


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        code = f" (code {error.code})" if error.code else ""
        return f"{error.status} {error.text or error.response.reason}{code}".strip()
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _is_transient(error: BaseException) -> bool:
    if isinstance(error, discord.RateLimited):
        return True
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError)


def _is_gone(error: BaseException) -> bool:
    """A post to this channel will keep failing until a human acts: deleted or forbidden."""
    return isinstance(error, discord.NotFound | discord.Forbidden)


class ChannelOption(app_commands.Transformer[Any]):
    """A text/announcement channel option passed as its id, so the command checks it itself.

    discord.py's own channel transformer fails with a generic error when the channel is not in
    the cache; taking the id lets /daily set answer "cannot find that channel" instead.
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        return int(getattr(value, "id", value))


# -- the cog ----------------------------------------------------------------------------------


class Daily(commands.Cog):
    """The /daily and /settings commands, and the loop that makes the posts."""

    daily = app_commands.Group(
        name="daily",
        description=ls("daily.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )
    settings = app_commands.Group(
        name="settings",
        description=ls("daily.settings.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # Replaced by tests so backoff does not wait for real.
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._reported: set[tuple[int, str]] = set()
        self.ticks = 0  # loop iterations completed (tests wait on it)
        self._stopping = False
        self._sending = asyncio.Semaphore(SEND_CONCURRENCY)
        wakeup = getattr(bot, "daily_wakeup", None)
        if not isinstance(wakeup, asyncio.Event):
            wakeup = asyncio.Event()
            bot.daily_wakeup = wakeup  # type: ignore[attr-defined]
        self.wakeup: asyncio.Event = wakeup

    # -- host access --------------------------------------------------------------------------

    @property
    def store(self) -> Store:
        store: Store = self.bot.store  # type: ignore[attr-defined]
        return store

    def now(self) -> datetime:
        clock: Callable[[], datetime] | None = getattr(self.bot, "clock", None)
        now = clock() if clock is not None else datetime.now(UTC)
        if now.tzinfo is None:
            raise ValueError("bot.clock() must return an aware datetime")
        return now

    def shards(self) -> tuple[Sequence[int] | None, int | None]:
        """The shard ids this process runs, and the total count (None when not sharded)."""
        ids: Sequence[int] | None = getattr(self.bot, "shard_ids", None)
        if ids is None and self.bot.shard_id is not None:
            ids = (self.bot.shard_id,)
        return ids, self.bot.shard_count

    @property
    def busy(self) -> bool:
        """Whether the loop has been woken or is running a tick (tests wait for it to settle)."""
        return self.wakeup.is_set() or self._lock.locked()

    # -- lifecycle ----------------------------------------------------------------------------

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="liuren-daily")

    async def cog_unload(self) -> None:
        """Stop the loop, letting a tick in progress finish its posts (up to STOP_GRACE seconds)."""
        self._stopping = True
        self.wakeup.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), STOP_GRACE)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while not self._stopping and not self.bot.is_closed():
            self.wakeup.clear()  # before the run, so a wake during it is not lost
            now = self.now()
            delay = MAX_SLEEP
            try:
                upcoming = await self.run_due(now)
                if upcoming is not None:
                    delay = min(MAX_SLEEP, max(MIN_SLEEP, (upcoming - now).total_seconds()))
            except Exception:
                log.exception("daily: scheduler tick failed")
            self.ticks += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wakeup.wait(), delay)

    # -- the scheduler ------------------------------------------------------------------------

    async def run_due(self, now: datetime | None = None) -> datetime | None:
        """Make every post due at `now` (default: the bot's clock) for the guilds this process holds.

        Returns the instant of the next future post, or None if none is scheduled.
        """
        async with self._lock:
            now = now if now is not None else self.now()
            shard_ids, shard_count = self.shards()
            upcoming: datetime | None = None
            due_now: list[tuple[Plan, date, datetime]] = []
            for row in await self.store.schedules():
                if not held_by(row.guild_id, shard_ids, shard_count):
                    continue
                plan = plan_of(row)
                if isinstance(plan, BadRow):
                    self._report_bad(plan)
                    continue
                if plan.disabled_reason is not None:
                    continue
                due = next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
                if due.instant <= now:
                    due_now.append((plan, due.day, due.instant))
                elif upcoming is None or due.instant < upcoming:
                    upcoming = due.instant
            if due_now:
                results = await asyncio.gather(
                    *(self._deliver(plan, day, at) for plan, day, at in due_now), return_exceptions=True
                )
                for (plan, day, _), result in zip(due_now, results, strict=True):
                    if isinstance(result, Exception):  # e.g. the database went away mid-post
                        log.error("daily: schedule id=%d post for %s failed", plan.id, day, exc_info=result)
                    elif isinstance(result, BaseException):
                        raise result
            return upcoming

    def _report_bad(self, bad: BadRow) -> None:
        key = (bad.row.id, bad.problem)
        if key not in self._reported:  # once per process, not every tick
            self._reported.add(key)
            log.error(
                "daily: schedule id=%d (guild %d, channel %d) is unreadable and is skipped: %s",
                bad.row.id,
                bad.row.guild_id,
                bad.row.channel_id,
                bad.problem,
            )

    async def _deliver(self, plan: Plan, day: date, at: datetime) -> Outcome:
        """Claim the day, then post; the claim makes a second process or a restart skip it."""
        previous = plan.last_posted.isoformat() if plan.last_posted is not None else None
        if not await self.store.claim(plan.id, day):
            return "taken"
        try:
            async with self._sending:
                outcome, error = await self._post(plan, at)
        except asyncio.CancelledError:
            # Forced shutdown mid-post: give the day back so the next start sends it, rather
            # than keep a claim for a post that may never have gone out.
            await asyncio.shield(self.store.release(plan.id, day, previous))
            raise
        if outcome == "posted":
            if plan.last_error is not None:
                await self.store.note_error(plan.id, None)
            log.info("daily: posted schedule id=%d for %s in channel %d", plan.id, day, plan.channel_id)
        elif outcome == "disabled":
            await self.store.release(plan.id, day, previous)
            await self.store.disable(plan.id, error)
            log.warning("daily: schedule id=%d disabled (channel %d): %s", plan.id, plan.channel_id, error)
        elif outcome == "retry":
            await self.store.release(plan.id, day, previous)
            await self.store.note_error(plan.id, error)
            log.warning("daily: schedule id=%d post for %s will be retried next tick: %s", plan.id, day, error)
        else:  # the request itself is wrong (a 4xx other than 403/404): retrying the same day cannot help
            await self.store.note_error(plan.id, error)
            log.error("daily: schedule id=%d post for %s failed and is skipped: %s", plan.id, day, error)
        return outcome

    async def _post(self, plan: Plan, at: datetime) -> tuple[Outcome, str]:
        """Send the chart for `at`, retrying transient errors with backoff; never raises.

        A chart longer than one message goes out as several; once one of them is out the post
        is not retried from the start (that would repeat it) — the error is recorded instead.
        """
        try:
            post = await asyncio.to_thread(compose, at, plan.zone_name, plan.locale)
        except Exception as error:
            log.exception("daily: cannot compose the chart for schedule id=%d", plan.id)
            return "retry", f"chart: {_describe(error)}"
        channel = self.bot.get_partial_messageable(plan.channel_id, guild_id=plan.guild_id)
        for index, embeds in enumerate(post.messages):
            content = post.content if index == 0 else None
            outcome, reason = await self._send(plan, channel, content, embeds)
            if outcome != "posted":
                if index > 0:
                    return "failed", f"{reason} (after {index} of {len(post.messages)} messages)"
                return outcome, reason
        return "posted", ""

    async def _send(
        self,
        plan: Plan,
        channel: discord.PartialMessageable,
        content: str | None,
        embeds: tuple[discord.Embed, ...],
    ) -> tuple[Outcome, str]:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                await channel.send(content=content, embeds=list(embeds))
                return "posted", ""
            except Exception as error:
                reason = _describe(error)
                if _is_gone(error):
                    return "disabled", reason
                if not _is_transient(error):
                    return "failed", reason
                if attempt == ATTEMPTS:
                    return "retry", f"{reason} (after {ATTEMPTS} attempts)"
                log.info("daily: schedule id=%d attempt %d failed (%s); backing off", plan.id, attempt, reason)
                await self.sleep(BACKOFF[min(attempt, len(BACKOFF)) - 1])
        raise AssertionError("unreachable")

    # -- commands -----------------------------------------------------------------------------
    # Refusals raise bot.app.ReplyError (or a failed permission check): the bot's one tree error
    # handler answers them ephemerally, so no command here can reply twice.

    def _guild(self, interaction: discord.Interaction[Any]) -> discord.Guild:
        if interaction.guild is None:  # guild_only makes this a stale-cache corner case
            raise app_commands.NoPrivateMessage()
        return interaction.guild

    def _postable(self, guild: discord.Guild, channel_id: int, lang: Lang) -> discord.TextChannel:
        """The server's text channel, if the bot can see it and post embeds there; else ReplyError."""
        channel = guild.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise ReplyError(text("daily.unknown_channel", lang))
        me = guild.me
        if me is not None:
            perms = channel.permissions_for(me)
            missing = [name for name in NEEDED if not getattr(perms, name)]
            if missing:
                raise ReplyError(text("daily.bad_channel", lang, channel=channel.mention, missing=", ".join(missing)))
        return channel

    async def _zone_choices(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return [Choice(name=name, value=name) for name in zone_suggestions(current)]

    @daily.command(name="set", description=ls("daily.set.description"))
    @app_commands.describe(
        channel=ls("daily.set.channel.description"),
        time=ls("daily.set.time.description"),
        tz=ls("daily.set.tz.description"),
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_set(
        self,
        interaction: discord.Interaction[Any],
        channel: app_commands.Transform[int, ChannelOption],
        time: str,
        tz: str | None = None,
    ) -> None:
        guild = self._guild(interaction)
        lang = language_of(interaction.locale)
        try:
            at = parse_time(time)
        except ValueError:
            raise ReplyError(text("daily.bad_time", lang, value=time)) from None
        zone_name = tz if tz is not None else await self.store.guild_timezone(guild.id)
        if zone_name is None:
            raise ReplyError(text("daily.no_zone", lang))
        try:
            zone = parse_zone(zone_name, exact=False)
        except ValueError:
            raise ReplyError(text("daily.bad_zone", lang, value=zone_name)) from None
        target = self._postable(guild, channel, lang)
        now = self.now()
        previous = next((r for r in await self.store.schedules(guild.id) if r.channel_id == target.id), None)
        await self.store.put_schedule(guild.id, target.id, f"{at:%H:%M}", zone.key, str(interaction.locale), now)
        self.wakeup.set()
        # Re-setting keeps the day's claim: a channel already posted today is not posted twice.
        last = plan_of(previous) if previous is not None else None
        due = next_post(now, at, zone, last_posted=last.last_posted if isinstance(last, Plan) else None, since=now)
        reply = text(
            "daily.set",
            lang,
            channel=target.mention,
            time=f"{at:%H:%M}",
            zone=zone.key,
            next=_local(due.instant, zone.key),
        )
        await interaction.response.send_message(reply, ephemeral=True)

    @daily_set.autocomplete("tz")
    async def _set_tz(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await self._zone_choices(interaction, current)

    @daily.command(name="show", description=ls("daily.show.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_show(self, interaction: discord.Interaction[Any]) -> None:
        guild = self._guild(interaction)
        lang = language_of(interaction.locale)
        rows = await self.store.schedules(guild.id)
        if not rows:
            await interaction.response.send_message(text("daily.none", lang), ephemeral=True)
            return
        default = await self.store.guild_timezone(guild.id)
        lines = [text("daily.show_head", lang, zone=default or text("daily.unset", lang))]
        now = self.now()
        for row in rows:
            lines.extend(self._show_row(row, now, lang))
        await interaction.response.send_message(_clip("\n".join(lines)), ephemeral=True)

    def _show_row(self, row: ScheduleRow, now: datetime, lang: Lang) -> list[str]:
        plan = plan_of(row)
        mention = f"<#{row.channel_id}>"
        if isinstance(plan, BadRow):
            self._report_bad(plan)
            return [text("daily.bad_row", lang, id=row.id, channel=mention, problem=plan.problem)]
        due = next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        last = plan.last_posted.isoformat() if plan.last_posted else text("daily.never", lang)
        lines = [
            text(
                "daily.show_row",
                lang,
                channel=mention,
                time=f"{plan.at:%H:%M}",
                zone=plan.zone_name,
                next="—" if plan.disabled_reason else _local(due.instant, plan.zone_name),
                last=last,
            )
        ]
        if plan.disabled_reason is not None:
            lines.append(text("daily.disabled", lang, reason=plan.disabled_reason))
        if plan.last_error is not None:
            lines.append(text("daily.last_error", lang, error=plan.last_error))
        return lines

    @daily.command(name="off", description=ls("daily.off.description"))
    @app_commands.describe(channel=ls("daily.off.channel.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_off(
        self, interaction: discord.Interaction[Any], channel: app_commands.Transform[int, ChannelOption] | None = None
    ) -> None:
        guild = self._guild(interaction)
        lang = language_of(interaction.locale)
        count = await self.store.delete_schedules(guild.id, channel)
        self.wakeup.set()
        reply = text("daily.off", lang, count=count) if count else text("daily.off_none", lang)
        await interaction.response.send_message(reply, ephemeral=True)

    @daily.command(name="now", description=ls("daily.now.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_now(self, interaction: discord.Interaction[Any]) -> None:
        guild = self._guild(interaction)
        lang = language_of(interaction.locale)
        rows = await self.store.schedules(guild.id)
        if not rows:
            await interaction.response.send_message(text("daily.none", lang), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        now = self.now()
        lines: list[str] = []
        for row in rows:
            plan = plan_of(row)
            mention = f"<#{row.channel_id}>"
            if isinstance(plan, BadRow):
                self._report_bad(plan)
                lines.append(text("daily.bad_row", lang, id=row.id, channel=mention, problem=plan.problem))
                continue
            async with self._sending:
                outcome, reason = await self._post(plan, now)
            if outcome == "posted":
                line = text("daily.now_ok", lang, channel=mention)
                if plan.disabled_reason is not None:
                    await self.store.enable(plan.id)
                    line += " " + text("daily.now_enabled", lang)
                if plan.last_error is not None:
                    await self.store.note_error(plan.id, None)
            else:
                line = text("daily.now_fail", lang, channel=mention, reason=reason)
                if outcome == "disabled" and plan.disabled_reason is None:
                    await self.store.disable(plan.id, reason)
                    line += " " + text("daily.now_disabled", lang)
            lines.append(line)
        self.wakeup.set()
        await interaction.followup.send(_clip("\n".join(lines)), ephemeral=True)

    @settings.command(name="timezone", description=ls("daily.settings.timezone.description"))
    @app_commands.describe(zone=ls("daily.settings.timezone.zone.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_timezone(self, interaction: discord.Interaction[Any], zone: str) -> None:
        guild = self._guild(interaction)
        lang = language_of(interaction.locale)
        try:
            found = parse_zone(zone, exact=False)
        except ValueError:
            raise ReplyError(text("daily.bad_zone", lang, value=zone)) from None
        await self.store.set_guild_timezone(guild.id, found.key)
        await interaction.response.send_message(text("daily.zone_set", lang, zone=found.key), ephemeral=True)

    @settings_timezone.autocomplete("zone")
    async def _settings_zone(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await self._zone_choices(interaction, current)


def _local(instant: datetime, zone: str) -> str:
    local = instant.astimezone(parse_zone(zone))
    return f"{local:%Y-%m-%d %H:%M %Z}"


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Daily(bot))
