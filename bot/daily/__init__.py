"""Daily posts: /daily and the service that posts each scheduled day once (a discord.py extension:
``await bot.load_extension("bot.daily")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Daily

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Daily", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Daily(bot))
