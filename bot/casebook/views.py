"""Buttons that keep working after a restart: discord.py DynamicItems whose custom_id carries
everything they need (the case id, a page), registered by the casebook cog's ``cog_load``.

Under a chart: 理由 (the trace), 原文 (every matched line, paged), 前の時 / 次の時 (the same day's
neighbouring 時 as a new reply, itself a new case) and, for the author, a note (a modal). Also the
pages of /history and of 原文, and the confirmation that deletes a user's cases. A private case's
buttons act only for its author; a button on a deleted case answers that the case is gone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import ui

from bot.core import ack
from bot.core.errors import ReplyError, guard, guarded
from bot.core.host import LiurenBot, host_of
from bot.core.reader import resolve
from bot.core.user_text import clip
from bot.core.words import Lang, text
from bot.reply.send import send_reply
from bot.reply.site import SiteLink, site_link, with_site_link
from bot.store import Case, CaseNote
from engine import Chart

from .present import (
    NOTE_MAX,
    Scope,
    case_embeds,
    chart_of,
    history_embed,
    history_page,
    load_case,
    neighbour,
    note_lines,
    picture_now,
    schools_text,
    source_pages,
    why_text,
)
from .privacy import birth_embed, known_for, plain_text, seen_alone
from .schools import SchoolsButton, schools_row

__all__ = [
    "DYNAMIC_ITEMS",
    "CaseButton",
    "HistoryPage",
    "NoteModal",
    "SourcePage",
    "WipeCases",
    "case_view",
    "history_view",
    "send_case",
    "submit_note",
    "wipe_view",
    "write_note",
]

Action = Literal["why", "src", "prev", "next", "note"]
ACTIONS: tuple[tuple[Action, str, discord.ButtonStyle], ...] = (
    ("why", "button.why", discord.ButtonStyle.secondary),
    ("src", "button.source", discord.ButtonStyle.secondary),
    ("prev", "button.previous", discord.ButtonStyle.secondary),
    ("next", "button.next", discord.ButtonStyle.secondary),
    ("note", "button.note", discord.ButtonStyle.primary),
)
log = logging.getLogger("bot")
NOTES_PER_CASE = 25  # notes a case keeps (25 × 1,000 characters keeps an export small)
LABEL_MAX = 80
MODAL_TITLE_MAX = 45


def _action(value: str) -> Action:
    for action, _, _ in ACTIONS:
        if action == value:
            return action
    raise ValueError(f"unknown case button {value!r}")


def _stopped(view: ui.View) -> ui.View:
    """A view only for sending: its presses reach the registered DynamicItems, not this instance
    (a stopped view is not stored by discord.py, so nothing is dispatched twice)."""
    view.stop()
    return view


class _Sent(ui.View):
    """A chart's buttons as sent (stopped: presses reach the registered CaseButtons), their
    components given as written: ``case_view`` makes them from one language's template."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


_PLACEHOLDER = "000000"  # a case id, replaced in the template by the case's own
_TEMPLATES: dict[Lang, tuple[dict[str, Any], ...]] = {}


def _template(lang: Lang, link: SiteLink | None) -> tuple[dict[str, Any], ...]:
    """The components of a chart's buttons in ``lang``, made from the CaseButtons themselves, once
    per language (not five DynamicItems and a view built for every reply); with a link
    (it differs per chart), made again."""
    found = _TEMPLATES.get(lang) if link is None else None
    if found is None:
        view = ui.View(timeout=None)
        for action, label, style in ACTIONS:
            view.add_item(CaseButton(action, _PLACEHOLDER, text(label, lang), style))
        found = tuple(with_site_link(view, link).to_components())  # the chart's page, a row of its own
        if link is None:
            _TEMPLATES[lang] = found
    return found


def case_view(case: Case, lang: Lang, link: SiteLink | None = None) -> ui.View:
    """The buttons under a case's chart, their custom ids carrying the case id."""
    own = f":{case.id}"
    return _Sent([
        {**row, "components": [
            {**c, "custom_id": c["custom_id"].removesuffix(f":{_PLACEHOLDER}") + own} if "custom_id" in c else c
            for c in row["components"]
        ]} for row in _template(lang, link)
    ])


async def send_case(
    interaction: discord.Interaction[Any], case: Case, lang: Lang, *, zone_note: str | None = None,
    image: bool = True, theme: str = "dark", ephemeral: bool = False, notes: Sequence[CaseNote] = (),
    chart: Chart | None = None, schools: bool = False,
) -> None:
    """The case's chart (``chart`` when just cast) as the interaction's reply (followups when it
    needs more messages), with its picture, its notes, the other schools (``schools``) and its buttons."""
    alone = seen_alone(interaction, case, ephemeral)
    chart, reply = case_embeds(case, lang, zone_note=zone_note, chart=chart, alone=alone)
    embeds, sizes = reply.embeds, list(reply.sizes)
    if notes:
        body = "\n".join(note_lines(notes, lang))
        # Right under the chart's first embed, so the notes are in the first message with it.
        embeds.insert(1, discord.Embed(title=text("case.notes", lang), description=clip(body, 4000)))
        sizes.insert(1, len(embeds[1]))
    if schools:  # /case show: every other school's chart, line by line
        embeds.insert(1, discord.Embed(description=clip(schools_text(chart, lang), 4000)))
        sizes.insert(1, len(embeds[1]))
    known = known_for(chart, case, alone)
    picture = picture_now(chart, lang, theme, known=known, spirits=reply.spirits) if image else None
    link = site_link(chart, lang, host_of(interaction).config.site_url)  # LIUREN_SITE_URL
    view = case_view(case, lang, link)
    if (row := schools_row(case.id, chart, lang)) is not None:  # a reader who chose a school or a place
        view = _Sent([*view.to_components(), row])
    await send_reply(interaction, embeds, lang, ephemeral=ephemeral, picture=picture, view=view,
                     sizes=sizes)
    # A chart others see is read without birth data; its author alone is told what it decides.
    mine = birth_embed(chart, case, lang) if not alone and interaction.user.id == case.author_id else None
    if mine is not None:
        await interaction.followup.send(embed=mine, ephemeral=True)


async def write_note(bot: LiurenBot, interaction: discord.Interaction[Any], case: Case, body: str, lang: Lang,
                     number: int | None = None) -> str:
    """Add a note to `case` (or, with `number`, replace the caller's note of that number); the reply.
    Only the case's author writes notes on it (the note button's rule, for /case note too), at most
    NOTES_PER_CASE of them. A note is kept under the interaction that sent it: the same interaction
    delivered again (a retry) adds nothing and gets the same reply."""
    if interaction.user.id != case.author_id:
        raise ReplyError(text("case.author_only", lang, id=case.id))
    body = (plain_text(body, lang) or "").strip()
    if not body:
        raise ReplyError(text("case.note_empty", lang))
    if len(body) > NOTE_MAX:
        raise ReplyError(text("case.note_too_long", lang, count=f"{len(body):,}"))
    now = int(bot.clock().timestamp())
    notes = await bot.store.case_notes([case.id])
    if number is None:
        note = await bot.store.add_note(case.id, interaction.user.id, body, now, limit=NOTES_PER_CASE,
                                        source=interaction.id)
        if note is None:
            raise ReplyError(text("case.note_cap", lang, id=case.id, count=NOTES_PER_CASE))
        before = sum(1 for n in notes if n.id < note.id)  # a retry's note is among `notes` already
        return text("case.note_added", lang, id=case.id, number=before + 1)
    if not 1 <= number <= len(notes) or notes[number - 1].author_id != interaction.user.id:
        raise ReplyError(text("case.note_not_yours", lang, id=case.id, number=number))
    await bot.store.edit_note(notes[number - 1].id, case.id, interaction.user.id, body, now)
    return text("case.note_edited", lang, id=case.id, number=number)


NOTE_FORM = re.compile(r"lr:n:(?P<case>[0-9A-Z]{6})")
NOTE_FIELD = "note"


class NoteModal(ui.Modal):
    """The note form the author's note button opens. Only its layout lives here: it is stopped once
    sent, and every submission (even one made after a restart) is handled by ``submit_note``."""

    def __init__(self, case: Case, lang: Lang) -> None:
        super().__init__(title=clip(text("case.note_modal", lang, id=case.id), MODAL_TITLE_MAX),
                         custom_id=f"lr:n:{case.id}", timeout=None)
        self.note: ui.TextInput[NoteModal] = ui.TextInput(
            label=clip(text("case.note_modal_label", lang), MODAL_TITLE_MAX), style=discord.TextStyle.long,
            custom_id=NOTE_FIELD, max_length=NOTE_MAX, required=True,
        )
        self.add_item(self.note)


def _field_value(components: Any, custom_id: str) -> str | None:
    """A submitted text input's value, wherever the form nests it (action rows or labels)."""
    if isinstance(components, list):
        for component in components:
            found = _field_value(component, custom_id)
            if found is not None:
                return found
    elif isinstance(components, dict):
        if components.get("custom_id") == custom_id and isinstance(components.get("value"), str):
            return str(components["value"])
        for key in ("components", "component"):
            if key in components:
                found = _field_value(components[key], custom_id)
                if found is not None:
                    return found
    return None


async def submit_note(bot: LiurenBot, interaction: discord.Interaction[Any]) -> bool:
    """Handle a note form's submission (True when the interaction was one); called for every form
    submitted, so a form opened before a restart is still saved after it."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    data: Any = interaction.data or {}
    match = NOTE_FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False

    async def save() -> None:
        lang = (await resolve(bot, interaction)).lang
        case = await load_case(bot, interaction, match["case"], lang)  # deleted meanwhile?
        body = _field_value(data.get("components"), NOTE_FIELD) or ""
        message = await write_note(bot, interaction, case, body, lang)
        await ack.send(interaction, message, ephemeral=True)

    # As a button is: acknowledged within 3 s, the form cooldown, the one error path.
    await guard(interaction, "form", f"note form {match['case']}", save)
    return True


class CaseButton(ui.DynamicItem[ui.Button[ui.View]],
                 template=r"lr:c:(?P<action>why|src|prev|next|note):(?P<case>[0-9A-Z]{6})"):
    """One of the buttons under a chart; the custom_id holds the action and the case id."""

    def __init__(self, action: Action, case_id: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or action, style=style,
                                   custom_id=f"lr:c:{action}:{case_id}"))
        self.action: Action = action
        self.case_id = case_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> CaseButton:
        return cls(_action(match["action"]), match["case"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        reader = await resolve(bot, interaction, with_profile=self.action in ("prev", "next"))
        lang = reader.lang
        case = await load_case(bot, interaction, self.case_id, lang)
        if self.action == "note":
            if interaction.user.id != case.author_id:
                raise ReplyError(text("case.author_only", lang, id=case.id))
            form = NoteModal(case, lang)
            await ack.modal(interaction, form)
            form.stop()  # not kept in this process: submit_note answers it, before or after a restart
        elif self.action == "why":
            chart = chart_of(case)
            embed = discord.Embed(title=text("case.why_title", lang), description=clip(why_text(chart, lang), 4000))
            await ack.send(interaction, embed=embed, ephemeral=True)
        elif self.action == "src":
            await send_source_page(interaction, case, 0, lang, edit=False)
        else:
            step = -1 if self.action == "prev" else 1
            new = neighbour(case, step, interaction.user.id, interaction.guild_id, interaction.channel_id,
                            reader.profile, bot.clock())
            saved = await bot.store.add_case(new)
            await send_case(interaction, saved, lang, image=reader.wants_image(), ephemeral=saved.private)


async def send_source_page(interaction: discord.Interaction[Any], case: Case, page: int, lang: Lang, *,
                           edit: bool) -> None:
    chart = chart_of(case)
    pages = source_pages(chart, known_for(chart, case, seen_alone(interaction, case, True)), lang,
                         question=case.question, matter=case.matter)
    if not pages:
        await ack.send(interaction, text("case.source_none", lang), ephemeral=True)
        return
    page = max(0, min(page, len(pages) - 1))
    embed = discord.Embed(title=text("case.source_title", lang, page=page + 1, pages=len(pages)),
                          description=pages[page])
    view = ui.View(timeout=None)
    if page > 0:
        view.add_item(SourcePage(case.id, page - 1, text("button.previous", lang)))
    if page + 1 < len(pages):
        view.add_item(SourcePage(case.id, page + 1, text("button.next", lang)))
    if edit:
        await ack.edit(interaction, embed=embed, view=_stopped(view))
    else:
        await ack.send(interaction, embed=embed, view=_stopped(view), ephemeral=True)


class SourcePage(ui.DynamicItem[ui.Button[ui.View]], template=r"lr:s:(?P<case>[0-9A-Z]{6}):(?P<page>\d{1,3})"):
    """A page turn of 原文 (on the reader's ephemeral message)."""

    def __init__(self, case_id: str, page: int, label: str = "") -> None:
        # The page is part of the id; the label says which way, so two buttons never share an id.
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or str(page + 1), custom_id=f"lr:s:{case_id}:{page}"))
        self.case_id = case_id
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> SourcePage:
        return cls(match["case"], int(match["page"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        lang = (await resolve(bot, interaction)).lang
        case = await load_case(bot, interaction, self.case_id, lang)
        await send_source_page(interaction, case, self.page, lang, edit=True)


def history_view(scope: Scope, page: int, older: bool, lang: Lang) -> ui.View:
    view = ui.View(timeout=None)
    if page > 0:
        view.add_item(HistoryPage(scope, page - 1, text("button.newer", lang)))
    if older:
        view.add_item(HistoryPage(scope, page + 1, text("button.older", lang)))
    return _stopped(view)


class HistoryPage(ui.DynamicItem[ui.Button[ui.View]], template=r"lr:h:(?P<scope>mine|server):(?P<page>\d{1,5})"):
    """A page turn of /history; the list is always the presser's own view of it."""

    def __init__(self, scope: Scope, page: int, label: str = "") -> None:
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or str(page + 1), custom_id=f"lr:h:{scope}:{page}"))
        self.scope: Scope = scope
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> HistoryPage:
        return cls("server" if match["scope"] == "server" else "mine", int(match["page"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        lang = (await resolve(bot, interaction)).lang
        cases, older = await history_page(bot, interaction, self.scope, self.page, lang)
        await ack.edit(interaction, embed=history_embed(cases, self.scope, self.page, lang),
                                                view=history_view(self.scope, self.page, older, lang))


class WipeCases(ui.DynamicItem[ui.Button[ui.View]], template=r"lr:w:(?P<user>\d{1,20})"):
    """The confirmation of /profile delete: deletes every case the user cast, and their notes."""

    def __init__(self, user_id: int, label: str = "") -> None:
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or "OK", style=discord.ButtonStyle.danger,
                                   custom_id=f"lr:w:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> WipeCases:
        return cls(int(match["user"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        lang = (await resolve(bot, interaction)).lang
        if interaction.user.id != self.user_id:  # the message is ephemeral; this is belt and braces
            raise ReplyError(text("case.author_only", lang, id="—"))
        count = await bot.store.delete_user_cases(self.user_id)
        await ack.edit(interaction, content=text("profile.cases_deleted", lang, count=count),
                                                view=None)


def wipe_view(user_id: int, lang: Lang) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(WipeCases(user_id, text("button.confirm_delete", lang)))
    return _stopped(view)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (CaseButton, SourcePage, HistoryPage, WipeCases, SchoolsButton)
