"""What a daily post says: the chart for its instant with its reading and picture, as messages."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo

import discord
from discord import ui

import engine
from bot.core.words import language_of, text
from bot.reply.chart import chart_embeds
from bot.reply.limits import group_messages
from bot.reply.send import picture_file
from bot.reply.site import SiteLink, link_view, site_link
from engine import Chart
from engine.school import DEFAULT_SCHOOL, School
from texts.picture.draw import Picture

__all__ = ["Post", "compose", "with_picture", "without_picture"]


@dataclass(frozen=True, slots=True)
class Post:
    """A daily post: a header line and the chart's embeds, grouped into Discord-sized messages, and
    the chart's picture, which the first message uploads and its first embed shows; with a site,
    the link to the chart's page, under the first message."""

    content: str
    messages: tuple[tuple[discord.Embed, ...], ...]
    chart: Chart
    picture: Picture | None = None
    link: SiteLink | None = None  # the chart's page, when LIUREN_SITE_URL is set

    def view(self) -> ui.View | None:
        """The first message's buttons: the site link alone (None without a site)."""
        return link_view(self.link)

    def file(self) -> discord.File | None:
        """A fresh upload of the picture (a ``discord.File`` is spent by one request)."""
        return None if self.picture is None else picture_file(self.picture)


def compose(at: datetime, zone: ZoneInfo, locale: str, school: School = DEFAULT_SCHOOL,
            site: str | None = None) -> Post:
    """The chart for `at` in `zone` (cast with the ``school`` options) with its reading and (``site``,
    the study site's address) the link to its page, as messages, without its picture (drawn where the
    bot draws: ``with_picture``); blocking: run it in a thread. The zone comes parsed: the chart is
    cast from the local instant, so nothing here reads a zone name again."""
    local = at.astimezone(zone)
    chart = engine.cast(local, school=school.by_the_clock())  # a schedule has no place: the clock's hour
    lang = language_of(locale)
    header = text("daily.post_header", lang, date=local.date().isoformat(), time=f"{local:%H:%M}", zone=zone.key)
    messages = group_messages(chart_embeds(chart, locale=locale))
    return Post(header, tuple(tuple(group) for group in messages), chart, None, site_link(chart, lang, site))


def with_picture(post: Post, picture: Picture) -> Post:
    """``post`` uploading ``picture`` (its chart's, drawn after ``compose``: bot.reply.picture) and
    showing it in its first embed."""
    post.messages[0][0].set_image(url=f"attachment://{picture.filename}")
    return replace(post, picture=picture)


def without_picture(embeds: tuple[discord.Embed, ...]) -> tuple[discord.Embed, ...]:
    """The message's embeds without the picture they show (for a channel where the bot may not
    attach files: the post goes out as text rather than not at all)."""
    return tuple(embed.copy().set_image(url=None) for embed in embeds)
