"""The link from a chart reply to the chart's page on the study site (``LIUREN_SITE_URL``).

A link button (style 5, ``url`` and no ``custom_id``: Discord opens it and sends the bot nothing)
in a row of its own under the reply's other buttons. The page is ``texts.site.chart_url``: the
classical chart with the same day, plate and 晝/夜, in the reader's language. Without a site
address there is no link, and the reply is as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from discord import ui

from bot.core.words import Lang, text
from engine import Chart
from texts.site import chart_url

__all__ = ["SiteLink", "link_view", "site_link", "with_site_link"]

LINK_ROW = 1  # under the chart's own buttons, which fill row 0 (five to an action row)


@dataclass(frozen=True, slots=True)
class SiteLink:
    """A chart page's address and the button's label, in the reader's language."""

    url: str
    label: str

    def button(self, row: int | None = None) -> ui.Button[ui.View]:
        return ui.Button(style=discord.ButtonStyle.link, url=self.url, label=self.label, row=row)


def site_link(chart: Chart, lang: Lang, base_url: str | None) -> SiteLink | None:
    """The link to ``chart``'s page under ``base_url`` (the configured site), None without a site."""
    if base_url is None:
        return None
    return SiteLink(chart_url(chart, lang, base_url), text("button.site", lang))


def with_site_link(view: ui.View, link: SiteLink | None) -> ui.View:
    """``view`` with the link added in its own row (``view`` itself, unchanged, without a link)."""
    if link is not None:
        view.add_item(link.button(row=LINK_ROW))
    return view


def link_view(link: SiteLink | None) -> ui.View | None:
    """A view holding only the link (for a message with no other buttons: the daily post)."""
    if link is None:
        return None
    view = ui.View(timeout=None)
    view.add_item(link.button())
    view.stop()  # nothing to dispatch: a link button sends no interaction
    return view
