"""Publishing a daily post made in an announcement channel, so the servers following the channel
get it too (Discord's crosspost: one request per message, after the post is confirmed).

Publishing never decides whether the post is sent: it runs only once the post is recorded, so a
refused or lost publish can never make the post go out again. Each message is published once: a
refusal (403, a rate limit discord.py could not wait out, a publish that took too long) is logged,
noted for /daily show and told to who set the schedule (bot.daily.notice), and not tried again —
Discord allows only a few publishes per channel an hour, so a retry loop would only spend them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.store import Store

from .failures import describe
from .notice import tell_setter

if TYPE_CHECKING:
    from .schedule import Plan

__all__ = ["ALREADY_PUBLISHED", "PUBLISH_WAIT", "followable", "publish"]

log = logging.getLogger("bot.daily")

ALREADY_PUBLISHED = 40033  # Discord's code for a message crossposted before (a found post may be)
# discord.py waits out a short 429 itself; a publish still unanswered after this long (Discord's
# hourly publish limit answers with a wait of many minutes) is given up, not waited for.
PUBLISH_WAIT = 30.0


def followable(channel: object) -> bool:
    """Whether other servers can follow ``channel``: an announcement channel (Discord type 5)."""
    return isinstance(channel, discord.TextChannel) and channel.is_news()


async def publish(client: discord.Client, store: Store, plan: Plan, message_ids: Sequence[int]) -> str | None:
    """Publish the post's messages when its channel is an announcement channel (as the gateway
    told the bot); the reason when Discord refused (the setter told, the schedule's error noted),
    else None. Never raises and never retries."""
    if not message_ids or not followable(client.get_channel(plan.channel_id)):
        return None
    for message_id in message_ids:
        try:
            await asyncio.wait_for(client.http.publish_message(plan.channel_id, message_id), PUBLISH_WAIT)
        except discord.HTTPException as error:
            if error.code == ALREADY_PUBLISHED:
                continue
            reason = describe(error)
        except Exception as error:  # too slow, a dropped connection: told, not retried
            reason = describe(error)
        else:
            continue
        log.warning("daily: schedule id=%d post in channel %d was not published: %s", plan.id, plan.channel_id,
                    reason)
        try:
            await store.note_error(plan.id, f"publish: {reason}")
        except Exception as error:
            log.warning("daily: could not note the refused publish of schedule id=%d (%s)", plan.id, describe(error))
        await tell_setter(client, store, plan, reason, key="daily.publish_notice")
        return reason
    log.info("daily: published schedule id=%d post (%d messages) in channel %d", plan.id, len(message_ids),
             plan.channel_id)
    return None
