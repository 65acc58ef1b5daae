"""``python -m bot`` / ``liuren-bot``: run the Discord bot, or without a token show the chart for now."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

import discord

NO_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot connect. To get a token: open
https://discord.com/developers/applications, create an application, open its "Bot" page and
press "Reset Token"; then run `DISCORD_TOKEN=... liuren-bot`. Invite the bot with the scopes
bot and applications.commands (see the README). Meanwhile, here is the chart for now:
"""


def setup_logging(token: str, level: int = logging.INFO) -> None:
    """Log to stderr through a handler that never prints the token."""
    from .app import install_redaction

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    install_redaction([token], [handler])


def terminal_chart(zone: str) -> str:
    """The chart for now in ``zone`` and its reading, as ``liuren cast now --reading`` prints them."""
    import engine
    from engine.render import render_text
    from texts.cli import chart_reading, render_reading

    chart = engine.cast(None, tz=zone)
    return render_text(chart) + "\n" + render_reading(chart_reading(chart))


async def _run(token: str, force_sync: bool) -> None:
    from .app import make_bot

    bot = make_bot(force_sync=force_sync)  # ValueError for a bad DISCORD_GUILD_ID or LIUREN_TZ
    async with bot:
        await bot.start(token)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="liuren-bot", description="大六壬 Discord bot")
    parser.add_argument("--sync", action="store_true", help="sync the slash commands even if unchanged")
    parser.add_argument("--debug", action="store_true", help="log at DEBUG level")
    args = parser.parse_args(argv)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        from .app import default_zone

        print(NO_TOKEN_HELP, file=sys.stderr)
        try:
            print(terminal_chart(default_zone()))
        except ValueError as error:  # a bad LIUREN_TZ
            print(f"cannot cast for now: {error}", file=sys.stderr)
            return 2
        return 0
    setup_logging(token, logging.DEBUG if args.debug else logging.INFO)
    try:
        asyncio.run(_run(token, args.sync))
    except ValueError as error:
        print(f"cannot start: {error}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN: copy a fresh token from the developer portal's Bot page.",
              file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents; this bot needs none of the privileged ones.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
