"""Daily posts: /daily and the service that posts each scheduled day once (a discord.py extension:
``await bot.load_extension("bot.daily")``).

The service (``Delivery``, delivery.py) and the schedule's reading (``plan_of``, ``next_post``,
``Plan``, ``BadRow``: schedule.py) load with their module when first asked for (PEP 562): the
service is made once READY, so a start loads none of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .cog import Daily

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

    from .delivery import Delivery
    from .schedule import BadRow, Plan, next_post, plan_of

__all__ = ["BadRow", "Daily", "Delivery", "Plan", "next_post", "plan_of", "setup"]

# Where each name lives: its module is imported when the name is first asked for.
_HOME = {"Delivery": "bot.daily.delivery",
         **dict.fromkeys(("BadRow", "Plan", "next_post", "plan_of"), "bot.daily.schedule")}


def __getattr__(name: str) -> Any:
    """A name of the package, from its module (imported now if it was not yet)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Daily(bot))
