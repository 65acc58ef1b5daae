"""Study: /cast, /chart, /lookup, /help and the message menu's "Cast for this message" (a discord.py
extension: ``await bot.load_extension("bot.study")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Study

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Study", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Study(bot))
