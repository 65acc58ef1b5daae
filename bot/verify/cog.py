"""/verify: is a quotation of the 《心印賦》 verbatim, and where does it stand? The judgement is
texts/corpus/verify.py's, said as ``liuren verify`` says it (texts/corpus/verdicts.py), in the
reader's language; only the caller sees it unless ``private`` is turned off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import ack
from bot.core.errors import ReplyError
from bot.core.reader import resolve
from bot.core.user_text import NO_PINGS, clip, escaped
from bot.core.words import ls, text
from bot.core.worker import off_loop

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Verify"]

QUOTE_MAX = 2000  # characters, as texts.corpus.verify.MAX_QUOTE (a test holds them equal): its checker refuses more
TITLE_MAX = 256  # Discord's limit on an embed's title
DESCRIPTION_MAX = 4096  # and on its description


class Verify(commands.Cog):
    """/verify."""

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="verify", description=ls("verify.description"))
    @app_commands.describe(quote=ls("verify.quote.description"), paragraph=ls("verify.paragraph.description"),
                           private=ls("verify.private.description"))
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        quote: app_commands.Range[str, 1, QUOTE_MAX],
        paragraph: app_commands.Range[int, 1, 9999] | None = None,
        private: bool = True,
    ) -> None:
        # The checker and its words (difflib's among them) load with the first /verify, not before READY
        from texts.corpus.verdicts import judgement_text
        from texts.corpus.verify import QuoteError, verify_quote

        lang = (await resolve(self.bot, interaction)).lang
        try:
            judgement = await off_loop(verify_quote, quote, paragraph)
        except QuoteError:  # no character to compare, or longer than a client lets through
            raise ReplyError(text("verify.unusable", lang, max=QUOTE_MAX)) from None
        verdict, _, rest = judgement_text(judgement, lang).partition("\n")
        embed = discord.Embed(title=clip(verdict, TITLE_MAX), description=clip(escaped(rest), DESCRIPTION_MAX))
        embed.set_footer(text=text("embed.source", lang))
        await ack.send(interaction, embed=embed, ephemeral=private, allowed_mentions=NO_PINGS)
