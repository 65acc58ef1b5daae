"""/verify on the Discord stand-in gives the judgements `liuren verify` gives, in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.verify.cog import QUOTE_MAX
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot
from tests.test_verify import CHANGED, INVENTED, RIGHT, SIMPLIFIED
from texts.cli import main
from texts.corpus.verify import MAX_QUOTE

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)


def clock() -> datetime:
    return NOW


async def test_verify_judges_as_the_cli_does(standin: DiscordStandIn, start_bot: StartBot,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    await start_bot(clock=clock)
    cases = [(RIGHT, 139), (RIGHT, 51), (CHANGED, 139), (SIMPLIFIED, None), (INVENTED, None)]
    for locale, lang in (("en-US", "en"), ("ja", "ja"), ("zh-TW", "zh-TW"), ("zh-CN", "zh-CN")):
        for quote, paragraph in cases:
            options: dict[str, object] = {"quote": quote} | ({} if paragraph is None else {"paragraph": paragraph})
            callback = await standin.slash("verify", options, locale=locale)
            assert callback.ephemeral  # private unless asked otherwise
            argv = ["verify", quote, "--lang", lang] + ([] if paragraph is None else ["--paragraph", str(paragraph)])
            main(argv)
            said = capsys.readouterr().out.strip().split("\n")
            embed = callback.embeds[0]
            assert embed["title"] == said[0], (locale, quote)
            assert embed["description"] == "\n".join(said[1:])
    shown = await standin.slash("verify", {"quote": RIGHT, "private": False}, locale="en-US")
    assert not shown.ephemeral and shown.embeds[0]["title"].startswith("Verbatim: ¶139")
    empty = await standin.slash("verify", {"quote": "，。"}, locale="en-US")
    assert empty.ephemeral and "1 to 2000 characters" in str(empty.data)


def test_the_commands_bound_is_the_checkers() -> None:
    """/verify declares the longest quotation texts.corpus.verify checks (it loads the checker later)."""
    assert QUOTE_MAX == MAX_QUOTE
