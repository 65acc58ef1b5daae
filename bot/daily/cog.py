"""/daily set|show|off|now: edit a server's daily-post schedules.

The posting itself is `bot.daily.delivery.Delivery`, which this cog creates and starts once READY
(its loop waits for READY before its first look anyway; the start loads none of its modules) and
stops in ``cog_unload``, as ``self.delivery``; the commands get their options parsed at the
boundary, store each schedule with its next due time, and wake the service.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, time
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

import bot.daily as posts  # the service and the schedule's reading, loaded when first asked for (PEP 562)
from bot.core import ack
from bot.core.errors import MESSAGE_MAX, ReplyError, permission_names
from bot.core.options import ChannelOption, ServerZoneOption, TimeOption, guild_of
from bot.core.reader import resolve
from bot.core.user_text import clip
from bot.core.words import Lang, ls, text
from bot.store import Bad, epoch, stored_text

from .notice import forget_setter, remember_setter
from .publish import followable

if TYPE_CHECKING:
    from bot.core.host import LiurenBot
    from bot.store import ScheduleRow

    from .delivery import Delivery

__all__ = ["NEEDED", "WANTED", "Daily"]

# The permissions the bot needs in a target channel; checked by /daily set. Read Message History
# lets a restarted bot find a post it may have made already (without it: a post may be doubled).
NEEDED = ("view_channel", "send_messages", "embed_links", "read_message_history")
# Wanted, not needed: without Attach Files the post goes out without the chart's picture.
WANTED = ("attach_files",)


def local_text(instant: datetime, zone: ZoneInfo) -> str:
    local = instant.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M %Z}"


class Daily(commands.Cog):
    """/daily: set, show, stop and test the daily chart post of a server's channels."""

    daily = app_commands.Group(
        name="daily",
        description=ls("daily.description"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # a server's commands: servers only
        allowed_installs=app_commands.AppInstallationType(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot
        self._delivery: Delivery | None = None
        self._starting: asyncio.Task[None] | None = None

    @property
    def delivery(self) -> Delivery:
        """The posting service, made at its first use (once READY, or by a command)."""
        if self._delivery is None:
            bot = self.bot
            self._delivery = posts.Delivery(bot, bot.store, bot.clock, bot.config.delivery, bot.shards_held,
                                            bot.config.site_url)
        return self._delivery

    async def cog_load(self) -> None:
        # The service starts once READY: the collector settles after (bot.warming), as after the quiz's charts.
        self._starting = asyncio.create_task(self._start_when_ready(), name="liuren-daily-start")
        self.bot.warming.append(self._starting)

    async def _start_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        self.delivery.start()

    async def cog_unload(self) -> None:
        """Stop claiming posts and let those in flight finish (the host closes the store after)."""
        if self._starting is not None:
            self._starting.cancel()
        if self._delivery is not None:
            await self._delivery.stop()

    # Refusals raise bot.core.errors.ReplyError (or a failed permission check): the bot's one tree error
    # handler answers them ephemerally, so no command here can reply twice.

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
                raise ReplyError(text("daily.bad_channel", lang, channel=channel.mention,
                                      missing=permission_names(missing, lang)))
        return channel

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
        time: app_commands.Transform[time, TimeOption],
        tz: app_commands.Transform[ZoneInfo, ServerZoneOption] | None = None,
    ) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        store = self.bot.store
        at = time
        zone = tz if tz is not None else await self._server_zone(guild.id, lang)
        target = self._postable(guild, channel, lang)
        now = self.delivery.now()
        previous = next((r for r in await store.schedules(guild.id) if r.channel_id == target.id), None)
        # Re-setting keeps the day's record: a channel already posted today is not posted twice.
        last = posts.plan_of(previous) if previous is not None else None
        due = posts.next_post(now, at, zone, last_posted=last.last_posted if isinstance(last, posts.Plan) else None,
                              since=now)
        schedule_id = await store.put_schedule(
            guild.id, target.id, f"{at:%H:%M}", zone.key, str(interaction.locale), now, epoch(due.instant), due.day
        )
        await remember_setter(store, schedule_id, interaction.user.id, interaction.channel_id)
        self.delivery.changed()
        reply = text(
            "daily.set", lang, channel=target.mention, time=f"{at:%H:%M}", zone=zone.key,
            next=local_text(due.instant, zone),
        )
        if guild.me is not None and not all(getattr(target.permissions_for(guild.me), p) for p in WANTED):
            reply += "\n" + text("daily.no_picture", lang, missing=permission_names(WANTED, lang))
        # Other servers can follow only an announcement channel's posts (bot.daily.publish).
        reply += "\n" + text("daily.published" if followable(target) else "daily.followable", lang)
        await ack.send(interaction, reply, ephemeral=True)

    async def _server_zone(self, guild_id: int, lang: Lang) -> ZoneInfo:
        """The server's zone (/settings timezone), validated when it was set; ReplyError when unset."""
        zone = (await self.bot.store.guild_options(guild_id)).timezone
        if zone is None:
            raise ReplyError(text("daily.no_zone", lang))
        if isinstance(zone, Bad):  # a stored name this zone data no longer knows
            raise ReplyError(text("daily.bad_zone", lang, value=clip(zone.text, 80)))
        return zone

    @daily.command(name="show", description=ls("daily.show.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_show(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        rows = await self.bot.store.schedules(guild.id)
        if not rows:
            await ack.send(interaction, text("daily.none", lang), ephemeral=True)
            return
        default = (await self.bot.store.guild_options(guild.id)).timezone
        shown = text("daily.unset", lang) if default is None else stored_text(default)
        lines = [text("daily.show_head", lang, zone=shown)]
        now = self.delivery.now()
        for row in rows:
            lines.extend(self._show_row(row, now, lang))
        await ack.send(interaction, clip("\n".join(lines), MESSAGE_MAX), ephemeral=True)

    def _show_row(self, row: ScheduleRow, now: datetime, lang: Lang) -> list[str]:
        plan = posts.plan_of(row)
        mention = f"<#{row.channel_id}>"
        if isinstance(plan, posts.BadRow):
            self.delivery.report_bad(plan)
            return [text("daily.bad_row", lang, id=row.id, channel=mention, problem=plan.problem)]
        due = posts.next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        last = plan.last_posted.isoformat() if plan.last_posted else text("daily.never", lang)
        lines = [
            text(
                "daily.show_row", lang, channel=mention, time=f"{plan.at:%H:%M}", zone=plan.zone_name,
                next="—" if plan.disabled_reason else local_text(due.instant, plan.zone), last=last,
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
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        for row in await self.bot.store.schedules(guild.id):
            if channel is None or row.channel_id == channel:
                await forget_setter(self.bot.store, row.id)
        count = await self.bot.store.delete_schedules(guild.id, channel)
        self.delivery.changed()
        reply = text("daily.off", lang, count=count) if count else text("daily.off_none", lang)
        await ack.send(interaction, reply, ephemeral=True)

    @daily.command(name="now", description=ls("daily.now.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_now(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        store, delivery = self.bot.store, self.delivery
        rows = await store.schedules(guild.id)
        if not rows:
            await ack.send(interaction, text("daily.none", lang), ephemeral=True)
            return
        await ack.defer(interaction, ephemeral=True, thinking=True)
        now = delivery.now()
        lines: list[str] = []
        for row in rows:
            plan = posts.plan_of(row)
            mention = f"<#{row.channel_id}>"
            if isinstance(plan, posts.BadRow):
                delivery.report_bad(plan)
                lines.append(text("daily.bad_row", lang, id=row.id, channel=mention, problem=plan.problem))
                continue
            outcome, reason = await delivery.post_now(plan, now)
            if outcome == "posted":
                line = text("daily.now_ok", lang, channel=mention)
                if plan.disabled_reason is not None:
                    await delivery.schedule_again(plan)
                    line += " " + text("daily.now_enabled", lang)
                if plan.last_error is not None:
                    await store.note_error(plan.id, None)
            else:
                line = text("daily.now_fail", lang, channel=mention, reason=reason)
                if outcome == "disabled" and plan.disabled_reason is None:
                    await store.disable(plan.id, reason)
                    line += " " + text("daily.now_disabled", lang)
            lines.append(line)
        delivery.changed()
        await interaction.followup.send(clip("\n".join(lines), MESSAGE_MAX), ephemeral=True)
