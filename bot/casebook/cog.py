"""/case show, /case note, /case export, /case delete and /history: the casebook (占例) of every
/cast and /chart (a discord.py extension with one cog).

What a caller may see: their own cases everywhere, and a server's cases that are not private when
they ask inside that server (bot.store.Case.visible_to). The buttons under a chart, of history
pages and of the matched lines are registered here (``cog_load``), so they work after a restart.
Every refusal is an ephemeral ``ReplyError`` in the reader's language, with nothing changed.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import ack
from bot.core.errors import ReplyError
from bot.core.options import bounded
from bot.core.reader import resolve
from bot.core.words import Lang, ls, text
from bot.core.worker import on_drawing_side
from texts.picture.draw import warm

from . import calls as calling
from .present import Scope, history_embed, history_page, load_case
from .views import DYNAMIC_ITEMS, history_view, send_case, submit_note, write_note

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Casebook"]

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
SCOPE_CHOICES = [app_commands.Choice(name="mine", value="mine"), app_commands.Choice(name="server", value="server")]
MARK_CHOICES = [app_commands.Choice(name=mark, value=mark) for mark in ("hit", "partly", "missed")]
EXPORT_MAX = 5000  # cases per export
PART_MAX = 1000  # /case export part:
PARTS_PER_REPLY = 4  # messages of a large export sent per /case export (part: goes on from there)
UPLOAD_MARGIN = 64 * 1024  # bytes kept below Discord's upload limit (multipart headers, rounding)


class Casebook(commands.Cog):
    """/case … and /history."""

    case = app_commands.Group(name="case", description=ls("case.description"),
                              allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot
        self._exporting: set[int] = set()  # users whose /case export is being made
        self._warmed: asyncio.Future[None] | None = None  # the picture's machinery, loaded after READY

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self._warmed = asyncio.ensure_future(self._warm())  # start-up does not wait for it
        self.bot.warming.append(self._warmed)

    async def cog_unload(self) -> None:
        if self._warmed is not None:
            self._warmed.cancel()  # unloaded before READY: nothing to load
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    async def _warm(self) -> None:
        """Once the gateway is READY, Pillow, the painter and the fonts loaded where the pictures
        are drawn (the drawing process started, where there is one), so the first new 時 does not
        pay for them (~40 ms); READY does not wait."""
        await self.bot.wait_until_ready()
        await on_drawing_side(warm)

    async def _lang(self, interaction: discord.Interaction[Any]) -> Lang:
        return (await resolve(self.bot, interaction)).lang

    @commands.Cog.listener()
    async def on_form_submit(self, interaction: discord.Interaction[Any]) -> None:
        """The note forms (bot.casebook.views.NoteModal) are answered here, so one survives a restart
        (``form_submit``: every form's submission, bot.core.host.LiurenBot.dispatch)."""
        await submit_note(self.bot, interaction)

    @case.command(name="show", description=ls("case.show.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id")
    @app_commands.describe(case_id=ls("case.id.description"))
    async def show(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20]) -> None:
        reader = await resolve(self.bot, interaction)
        case = await load_case(self.bot, interaction, case_id, reader.lang)
        notes = await self.bot.store.case_notes([case.id])
        await send_case(interaction, case, reader.lang, image=reader.wants_image(), ephemeral=case.private,
                        notes=notes, schools=True)  # and every other school's chart, line by line

    @case.command(name="note", description=ls("case.note.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id", note="text", number="edit")
    @app_commands.describe(case_id=ls("case.id.description"), note=ls("case.text.description"),
                           number=ls("case.edit.description"))
    async def note(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20],
                   note: app_commands.Range[str, 1, 1000],
                   number: app_commands.Range[int, 1, 1000] | None = None) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        message = await write_note(self.bot, interaction, case, note, lang, number)
        await ack.send(interaction, message, ephemeral=True)

    @case.command(name="delete", description=ls("case.delete.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id")
    @app_commands.describe(case_id=ls("case.id.description"))
    async def delete(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20]) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        if case.author_id != interaction.user.id:
            raise ReplyError(text("case.author_only", lang, id=case.id))
        await self.bot.store.delete_case(case.id)
        await ack.send(interaction, text("case.deleted", lang, id=case.id), ephemeral=True)

    # -- calls (bot.casebook.calls): sealed, hidden until revealed, marked by the case's owner ------------

    @case.command(name="call", description=ls("call.call.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id", call="text")
    @app_commands.describe(case_id=ls("case.id.description"), call=ls("call.text.description"),
                           due=ls("call.due.description"))
    async def call(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20],
                   call: app_commands.Range[str, 1, calling.CALL_MAX],
                   due: app_commands.Range[str, 1, 40] | None = None) -> None:
        reader = await resolve(self.bot, interaction, with_zone=True)
        case = await load_case(self.bot, interaction, case_id, reader.lang)
        zone = reader.zone or ZoneInfo("UTC")
        due_at = calling.due_of(due, zone, reader.lang, self.bot.clock())
        message = await calling.make_call(self.bot, interaction, case, call, due_at, reader.lang)
        await ack.send(interaction, message, ephemeral=True)

    @case.command(name="calls", description=ls("call.calls.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id")
    @app_commands.describe(case_id=ls("case.id.description"))
    async def calls(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20]) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        found, outcome = await self.bot.store.case_calls(case.id), await self.bot.store.outcome(case.id)
        now = int(self.bot.clock().timestamp())
        embed = calling.calls_embed(case, found, outcome, interaction.user.id, now, lang)
        await ack.send(interaction, embed=embed, ephemeral=True)

    @case.command(name="withdraw", description=ls("call.withdraw.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id")
    @app_commands.describe(case_id=ls("case.id.description"))
    async def withdraw(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20]) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        await ack.send(interaction, await calling.withdraw(self.bot, interaction, case, lang), ephemeral=True)

    @case.command(name="reveal", description=ls("call.reveal.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id")
    @app_commands.describe(case_id=ls("case.id.description"))
    async def reveal(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20]) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        await ack.send(interaction, await calling.reveal(self.bot, interaction, case, lang), ephemeral=True)

    @case.command(name="outcome", description=ls("call.outcome.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id", outcome="text")
    @app_commands.describe(case_id=ls("case.id.description"), outcome=ls("call.outcome_text.description"),
                           vote=ls("call.vote.description"))
    async def outcome(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20],
                      outcome: app_commands.Range[str, 1, calling.OUTCOME_MAX], vote: bool = False) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        message = await calling.record_outcome(self.bot, interaction, case, outcome, lang, vote=vote)
        await ack.send(interaction, message, ephemeral=True)

    @case.command(name="mark", description=ls("call.mark.description"), extras={"cooldown": "case"})
    @app_commands.rename(case_id="id", number="call")
    @app_commands.describe(case_id=ls("case.id.description"), number=ls("call.number.description"),
                           mark=ls("call.mark_choice.description"))
    @app_commands.choices(mark=MARK_CHOICES)
    async def mark(self, interaction: discord.Interaction[Any], case_id: app_commands.Range[str, 1, 20],
                   number: app_commands.Range[int, 1, 1000], mark: str) -> None:
        lang = await self._lang(interaction)
        case = await load_case(self.bot, interaction, case_id, lang)
        message = await calling.mark_call(self.bot, interaction, case, number, mark, lang)
        await ack.send(interaction, message, ephemeral=True)

    @case.command(name="record", description=ls("call.record.description"), extras={"cooldown": "case"})
    @app_commands.describe(member=ls("call.member.description"), scope=ls("call.scope.description"))
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def record(self, interaction: discord.Interaction[Any], member: discord.User | None = None,
                     scope: str = "mine") -> None:
        from .tally import record as call_record  # the record's tallies load with the first /case record

        lang = await self._lang(interaction)
        embed = await call_record(self.bot, interaction, None if member is None else member.id, scope == "server", lang)
        await ack.send(interaction, embed=embed, ephemeral=True)

    @case.command(name="export", description=ls("case.export.description"), extras={"cooldown": "export"})
    @app_commands.describe(part=ls("case.part.description"))
    async def export(self, interaction: discord.Interaction[Any],
                     part: app_commands.Range[int, 1, PART_MAX] = 1) -> None:
        # The export's writers (JSON, CSV, ZIP) load with the first /case export, not before READY
        from .export import case_walk, part_files, plan

        lang = await self._lang(interaction)
        part = bounded(part, 1, PART_MAX, "part", lang)
        user = interaction.user.id
        if user in self._exporting:  # one export per user at a time: each walks the whole casebook
            raise ReplyError(text("case.export_busy", lang))
        self._exporting.add(user)
        try:
            await ack.defer(interaction, ephemeral=True, thinking=True)
            walk = case_walk(self.bot, interaction)
            # Every message's files within the upload limit Discord gave this interaction.
            limit = max(interaction.filesize_limit - UPLOAD_MARGIN, UPLOAD_MARGIN)
            cut = await plan(walk, user, limit, EXPORT_MAX)
            if part > cut.parts:
                raise ReplyError(text("case.export_none", lang, part=part, parts=cut.parts))
            for number in range(part, min(part + PARTS_PER_REPLY, cut.parts + 1)):
                files = [discord.File(io.BytesIO(data), filename=name)
                         for name, data in await part_files(walk, cut, number, user)]
                if cut.parts == 1:
                    message = text("case.exported", lang, count=cut.count)
                else:
                    message = text("case.export_part", lang, count=cut.count, part=number, parts=cut.parts)
                left = cut.parts - number
                if number == part + PARTS_PER_REPLY - 1 and left:
                    message += "\n" + text("case.export_more", lang, left=left, next=number + 1)
                await interaction.followup.send(message, files=files, ephemeral=True)
        finally:
            self._exporting.discard(user)

    @app_commands.command(name="history", description=ls("history.description"), extras={"cooldown": "case"})
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(scope=ls("history.scope.description"))
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def history(self, interaction: discord.Interaction[Any], scope: str = "mine") -> None:
        lang = await self._lang(interaction)
        chosen: Scope = "server" if scope == "server" else "mine"
        cases, older = await history_page(self.bot, interaction, chosen, 0, lang)
        await ack.send(interaction, embed=history_embed(cases, chosen, 0, lang),
                                                view=history_view(chosen, 0, older, lang), ephemeral=True)
