"""The "Other schools" button under a chart (docs/rules.md §10.1): every alternative of the case's
chart, one line each, answered to the presser alone. Its custom_id carries the case id and, for a
chart read at a place, the place (a case keeps none), so it works after a restart.

It is shown under a chart cast with a school option or a place (a reader who chose them); under
every other chart the same lines follow the reasons behind 理由 (the Why button)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot.core import ack
from bot.core.errors import guarded
from bot.core.host import host_of
from bot.core.reader import resolve
from bot.core.user_text import clip
from bot.core.words import Lang, text
from engine import Chart
from engine.school import DEFAULT_SCHOOL
from engine.sun import Place

from .present import chart_of, load_case, schools_text

__all__ = ["SchoolsButton", "place_suffix", "schools_row"]

LABEL_MAX = 80


def place_suffix(place: Place | None) -> str:
    """What a chart's place adds to the button's custom_id (nothing without one)."""
    return "" if place is None else f":{place.lat:.6f},{place.lon:.6f}"


def schools_row(case_id: str, chart: Chart, lang: Lang) -> dict[str, Any] | None:
    """An action row with the button, for a chart cast with a school option or a place; else ``None``."""
    if chart.sun is None and chart.school == DEFAULT_SCHOOL:
        return None
    place = None if chart.sun is None else chart.sun.place
    button = SchoolsButton(case_id, text("button.schools", lang), place)
    return {"type": 1, "components": [button.item.to_component_dict()]}


class SchoolsButton(ui.DynamicItem[ui.Button[ui.View]],
                    template=r"lr:o:(?P<case>[0-9A-Z]{6})(?::(?P<lat>-?\d{1,2}\.\d{6}),(?P<lon>-?\d{1,3}\.\d{6}))?"):
    """The other schools of a case's chart, for whoever may see the case."""

    def __init__(self, case_id: str, label: str = "", place: Place | None = None) -> None:
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or "…", style=discord.ButtonStyle.secondary,
                                   custom_id=f"lr:o:{case_id}{place_suffix(place)}"))
        self.case_id = case_id
        self.place = place

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> SchoolsButton:
        place = None if match["lat"] is None else Place(float(match["lat"]), float(match["lon"]))
        return cls(match["case"], place=place)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        lang = (await resolve(bot, interaction)).lang
        case = await load_case(bot, interaction, self.case_id, lang)  # a private case: its author only
        await ack.send(interaction, clip(schools_text(chart_of(case, self.place), lang), 2000), ephemeral=True)
