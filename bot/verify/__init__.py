"""Verify: /verify, a quotation of the 《心印賦》 checked (a discord.py extension:
``await bot.load_extension("bot.verify")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Verify

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Verify", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Verify(bot))
