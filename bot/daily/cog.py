"""/daily set|show|off|now: edit a server's daily-post schedules (a discord.py extension).

The posting itself is `bot.delivery.Delivery`, held by the bot as ``bot.delivery``; this cog
validates input at the boundary, stores each schedule with its next due time, and wakes it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import MESSAGE_MAX, LiurenBot, ReplyError, permission_names
from bot.embeds import clip
from bot.i18n import Lang, language_of, ls, text
from bot.schedule import BadRow, Plan, next_post, parse_time, parse_zone, plan_of, zone_suggestions
from bot.store import ScheduleRow, epoch

__all__ = ["NEEDED", "ChannelOption", "Daily", "guild_of", "setup", "zone_choices"]

# The permissions the bot needs in a target channel; checked by /daily set.
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")  # the post carries the chart's picture


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:  # guild_only makes this a stale-cache corner case
        raise app_commands.NoPrivateMessage()
    return interaction.guild


async def zone_choices(current: str) -> list[Choice[str]]:
    return [Choice(name=name, value=name) for name in zone_suggestions(current)]


def local_text(instant: datetime, zone: str) -> str:
    local = instant.astimezone(parse_zone(zone))
    return f"{local:%Y-%m-%d %H:%M %Z}"


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
        return int(value.id) if isinstance(value, discord.abc.Snowflake) else int(value)


class Daily(commands.Cog):
    """/daily: set, show, stop and test the daily chart post of a server's channels."""

    daily = app_commands.Group(
        name="daily",
        description=ls("daily.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    # Refusals raise bot.app.ReplyError (or a failed permission check): the bot's one tree error
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
        time: app_commands.Range[str, 1, 20],
        tz: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        guild = guild_of(interaction)
        lang = language_of(interaction.locale)
        store = self.bot.store
        try:
            at = parse_time(time)
        except ValueError:
            raise ReplyError(text("daily.bad_time", lang, value=clip(time, 40))) from None
        zone_name = tz if tz is not None else await store.guild_timezone(guild.id)
        if zone_name is None:
            raise ReplyError(text("daily.no_zone", lang))
        try:
            zone = parse_zone(zone_name)  # validated once, here: the loop trusts stored zones
        except ValueError:
            raise ReplyError(text("daily.bad_zone", lang, value=clip(zone_name, 80))) from None
        target = self._postable(guild, channel, lang)
        now = self.bot.delivery.now()
        previous = next((r for r in await store.schedules(guild.id) if r.channel_id == target.id), None)
        # Re-setting keeps the day's record: a channel already posted today is not posted twice.
        last = plan_of(previous) if previous is not None else None
        due = next_post(now, at, zone, last_posted=last.last_posted if isinstance(last, Plan) else None, since=now)
        await store.put_schedule(
            guild.id, target.id, f"{at:%H:%M}", zone.key, str(interaction.locale), now, epoch(due.instant), due.day
        )
        self.bot.delivery.changed()
        reply = text(
            "daily.set", lang, channel=target.mention, time=f"{at:%H:%M}", zone=zone.key,
            next=local_text(due.instant, zone.key),
        )
        await interaction.response.send_message(reply, ephemeral=True)

    @daily_set.autocomplete("tz")
    async def _set_tz(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await zone_choices(current)

    @daily.command(name="show", description=ls("daily.show.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_show(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = language_of(interaction.locale)
        rows = await self.bot.store.schedules(guild.id)
        if not rows:
            await interaction.response.send_message(text("daily.none", lang), ephemeral=True)
            return
        default = await self.bot.store.guild_timezone(guild.id)
        lines = [text("daily.show_head", lang, zone=default or text("daily.unset", lang))]
        now = self.bot.delivery.now()
        for row in rows:
            lines.extend(self._show_row(row, now, lang))
        await interaction.response.send_message(clip("\n".join(lines), MESSAGE_MAX), ephemeral=True)

    def _show_row(self, row: ScheduleRow, now: datetime, lang: Lang) -> list[str]:
        plan = plan_of(row)
        mention = f"<#{row.channel_id}>"
        if isinstance(plan, BadRow):
            self.bot.delivery.report_bad(plan)
            return [text("daily.bad_row", lang, id=row.id, channel=mention, problem=plan.problem)]
        due = next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        last = plan.last_posted.isoformat() if plan.last_posted else text("daily.never", lang)
        lines = [
            text(
                "daily.show_row", lang, channel=mention, time=f"{plan.at:%H:%M}", zone=plan.zone_name,
                next="—" if plan.disabled_reason else local_text(due.instant, plan.zone_name), last=last,
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
        lang = language_of(interaction.locale)
        count = await self.bot.store.delete_schedules(guild.id, channel)
        self.bot.delivery.changed()
        reply = text("daily.off", lang, count=count) if count else text("daily.off_none", lang)
        await interaction.response.send_message(reply, ephemeral=True)

    @daily.command(name="now", description=ls("daily.now.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily_now(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = language_of(interaction.locale)
        store, delivery = self.bot.store, self.bot.delivery
        rows = await store.schedules(guild.id)
        if not rows:
            await interaction.response.send_message(text("daily.none", lang), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        now = delivery.now()
        lines: list[str] = []
        for row in rows:
            plan = plan_of(row)
            mention = f"<#{row.channel_id}>"
            if isinstance(plan, BadRow):
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


async def setup(bot: LiurenBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Daily(bot))
