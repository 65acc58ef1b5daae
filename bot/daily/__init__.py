"""Daily posts: /daily and the service that posts each scheduled day once (a discord.py extension:
``await bot.load_extension("bot.daily")``).

The service (``Delivery``, delivery.py) and the schedule's reading (``plan_of``, ``next_post``,
``Plan``, ``BadRow``: schedule.py) load with their module when first asked for (PEP 562): the
service is made once READY, so a start loads none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from texts.deferred import deferred_names

from .cog import Daily

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

    from .delivery import Delivery
    from .schedule import BadRow, Plan, next_post, plan_of

__all__ = ["BadRow", "Daily", "Delivery", "Plan", "next_post", "plan_of", "setup"]

# Where each name lives: its module is imported when the name is first asked for.
_HOME = {"Delivery": "bot.daily.delivery",
         **dict.fromkeys(("BadRow", "Plan", "next_post", "plan_of"), "bot.daily.schedule")}


__getattr__ = deferred_names(__name__, _HOME)


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Daily(bot))
