"""Settings: a server's /settings and a user's /profile (a discord.py extension:
``await bot.load_extension("bot.settings")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Settings
from .profile import Profiles

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Profiles", "Settings", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Settings(bot))
    await bot.add_cog(Profiles(bot))
