"""The daily post in an announcement channel is published (crossposted) once, so the servers
following the channel get it; a text channel's is not, and /daily set says how each can be
followed; a refused publish is told to who set the schedule, noted for /daily show, and neither
retried nor a reason to post again. The real bot against the local Discord stand-in."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from bot.core.words import text
from testkit.daily_harness import Harness, restore_before, utc
from testkit.discord_standin import ANNOUNCEMENT, ChannelSpec, GuildSpec
from tests.test_message_cast import SPEC, in_spec

NINE = utc(2026, 5, 2, 0, 0)  # 09:00 in Tokyo


@pytest.fixture
def guilds() -> list[GuildSpec]:
    return [GuildSpec(channels=[ChannelSpec(name="general"), ChannelSpec(name="news", type=ANNOUNCEMENT),
                                ChannelSpec(name="text")])]


def crossposts(h: Harness, channel: int) -> list[str]:
    """The paths of every publish the bot asked for in ``channel`` (answered or refused)."""
    return [r.path for r in h.standin.requests_to("POST", f"/channels/{channel}/messages/")
            if r.path.endswith("/crosspost")]


async def set_daily(h: Harness, channel: int) -> str:
    """/daily set at 09:00 Tokyo, run from the general channel; the reply's text."""
    reply = await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"},
                          channel_id=h.channel(0))
    return str(reply.data["content"])


async def test_a_post_in_an_announcement_channel_is_published_once(harness: Harness) -> None:
    h = harness
    await h.start()
    news = h.channel(1)
    assert text("daily.published", "ja") in await set_daily(h, news)
    await h.tick(NINE)
    posts = h.posts(news)
    assert posts
    # Every message of the post published, each once, in order (the stand-in keeps Discord's rules).
    assert h.standin.crossposted == [(news, int(m["id"])) for m in posts]
    assert crossposts(h, news) == [f"/channels/{news}/messages/{m['id']}/crosspost" for m in posts]
    await h.tick(NINE + timedelta(minutes=5))
    await h.tick(NINE + timedelta(days=1, minutes=-1))
    assert len(h.posts(news)) == len(posts) and len(crossposts(h, news)) == len(posts)  # nothing again
    assert not h.standin.errors


async def test_a_text_channel_is_not_published_and_set_says_how_to_make_it_followable(harness: Harness) -> None:
    h = harness
    await h.start()
    plain = h.channel(2)
    reply = await set_daily(h, plain)
    assert text("daily.followable", "ja") in reply and text("daily.published", "ja") not in reply
    await h.tick(NINE)
    assert h.posts(plain) and not crossposts(h, plain) and not h.standin.crossposted


@pytest.mark.parametrize("status", [403, 429])
async def test_a_refused_publish_reaches_the_admin_and_is_not_retried_nor_posted_again(
    harness: Harness, status: int
) -> None:
    h = harness
    await h.start()
    general, news = h.channel(0), h.channel(1)
    await set_daily(h, news)
    h.standin.fail_crosspost(news, status)  # every publish refused (a 429 for good: the hourly limit spent)
    await h.tick(NINE)
    posts = h.posts(news)
    assert posts and not h.standin.crossposted
    asked = len(crossposts(h, news))
    # One publish asked for: a 403 once; a 429 as many times as discord.py waits one out (5), no more.
    assert asked == (1 if status == 403 else 5)
    [told] = h.posts(general)  # who set it, where they set it
    assert f"<@{h.standin.user_id}>" in told["content"] and f"<#{news}>" in told["content"]
    assert str(status) in told["content"]
    assert told["content"].startswith(text("daily.publish_notice", "ja", user=f"<@{h.standin.user_id}>",
                                           channel=f"<#{news}>", reason="")[:20])
    shown = await h.slash("daily show", {})
    assert "publish" in shown.data["content"] and str(status) in shown.data["content"]
    # Later ticks neither publish again nor post again: the day's post is out, once.
    await h.tick(NINE + timedelta(minutes=2))
    await h.tick(NINE + timedelta(hours=2))
    assert len(crossposts(h, news)) == asked and h.posts(news) == posts and len(h.posts(general)) == 1


async def test_a_post_found_after_a_restore_is_not_published_twice_nor_told(harness: Harness) -> None:
    h = harness
    news = h.channel(1)
    await h.start()
    await set_daily(h, news)
    await h.tick(NINE)
    posts, published = h.posts(news), list(h.standin.crossposted)
    assert published
    await h.stop()
    # A database restored from before 09:00: the post is found in the channel, and published if it
    # was not; Discord's "already crossposted" (40033) counts as done, not as a refusal.
    await restore_before(h, news, NINE, date(2026, 5, 2))
    h.standin.nonce_window = 0.0
    h.clock.now = NINE + timedelta(hours=3)
    await h.start()
    await h.tick(NINE + timedelta(hours=3, minutes=1))
    assert h.posts(news) == posts and h.standin.crossposted == published
    assert len(crossposts(h, news)) == len(posts) + 1  # the found message asked once more, answered 40033
    assert not h.posts(h.channel(0))  # nobody told: nothing was refused
    [again] = await h.stored()
    assert again.last_posted == "2026-05-02" and again.last_error is None


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's OpenAPI spec is not in /work/shared")
async def test_every_request_of_a_published_post_is_one_discord_documents(harness: Harness) -> None:
    h = harness
    await h.start()
    await set_daily(h, h.channel(1))
    await h.tick(NINE)
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    operation = spec["paths"]["/channels/{channel_id}/messages/{message_id}/crosspost"]["post"]
    assert operation["operationId"] == "crosspost_message" and "requestBody" not in operation
    published = [r for r in h.standin.requests if r.path.endswith("/crosspost")]
    assert published and all(r.body is None for r in published)  # Discord's crosspost takes no body
    for request in h.standin.requests:
        assert in_spec(spec, request.method, request.path), (request.method, request.path)
