"""``python -m bot`` / ``liuren-bot``: run the Discord bot, or without a token show the chart for now."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence

from .core.collector import pause, resume, settle

pause()  # until the imports below are done (resume): the collector's passes would only walk them

# discord.py is the [bot] extra; without it, one line naming the extra instead of a traceback
try:
    import aiohttp
    import discord
except ModuleNotFoundError as missing:
    print(f"liuren-bot: {missing.name} is not installed; the bot needs its extra: pip install \".[bot]\" "
          "in a checkout (docs/admin.md)", file=sys.stderr)
    raise SystemExit(2) from None

import engine
from texts.reading import read
from texts.reading.sentences import render_reading
from texts.render import render_text
from texts.when import default_zone

from .core.host import LiurenBot, make_bot
from .core.logs import install_redaction
from .core.worker import pace_threads
from .store import Location, Store, StoreError, StoreUnavailable, default_location, load_cipher, open_store

resume()

NO_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot connect. To get a token: open
https://discord.com/developers/applications, create an application, open its "Bot" page and
press "Reset Token"; then run `DISCORD_TOKEN=... liuren-bot`. Invite the bot with the scopes
bot and applications.commands and the permissions View Channels, Send Messages, Embed Links,
Read Message History and Attach Files (docs/admin.md says why). Meanwhile, the chart for now:
"""


def setup_logging(token: str, level: int = logging.INFO) -> None:
    """Log to stderr through a handler that never prints the token."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    install_redaction([token], [handler])


def terminal_chart(zone: str) -> str:
    """The chart for now in ``zone`` and its reading, as ``liuren cast now --reading`` prints them."""
    chart = engine.cast(None, tz=zone)
    # The reading says the 課体 and the trace in their place: the chart printed before it leaves them out.
    return render_text(chart, with_trace=False, with_patterns=False) + "\n" + render_reading(read(chart), "ja")


# Waits between attempts to open a database that is unavailable (down, restarting, disk full):
# the bot waits it out instead of exiting, so a database outage at boot does not stop the service.
OPEN_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


async def open_waiting(location: Location, backoff: Sequence[float] = OPEN_BACKOFF) -> Store:
    """Open the store, waiting with backoff (the last wait repeated) while it is unavailable; a
    database the bot must not use (a wrong setting, a damaged file) raises StoreError at once."""
    attempt = 0
    while True:
        try:
            return await open_store(location)
        except StoreUnavailable as error:
            wait = backoff[min(attempt, len(backoff) - 1)]
            attempt += 1
            print(f"liuren-bot: the database is unavailable ({error}); trying again in {wait:.0f} s "
                  f"(attempt {attempt})", file=sys.stderr, flush=True)
            await asyncio.sleep(wait)


async def settle_when_ready(bot: LiurenBot) -> None:
    """Settle the collector (bot.core.collector) once the gateway is READY and the work the
    features finish after it (``bot.warming``) is done, whether it succeeded or not."""
    await bot.wait_until_ready()
    load_cipher()  # loaded now, so the first sealed write does not wait for it
    await asyncio.gather(*bot.warming, return_exceptions=True)
    settle()


async def _run(token: str, force_sync: bool) -> None:
    """Open the store (so a bad database is refused before connecting), run the bot until it is
    closed, and close it gracefully on SIGTERM or SIGINT."""
    location = default_location()
    print(f"liuren-bot: database {location.describe()}", file=sys.stderr)
    store = await open_waiting(location)  # StoreError: one line, the file untouched
    try:
        bot = make_bot(store=store)  # ValueError for a bad setting
    except BaseException:
        await store.close()
        raise
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(signame: str) -> None:
        if not closing:  # a second signal does not restart the shutdown
            logging.getLogger("bot").info("%s: finishing posts in flight, then stopping", signame)
            closing.append(asyncio.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig.name)
    settling: asyncio.Task[None] | None = None
    try:
        async with bot:
            # discord.py's start, in its two steps: login runs setup_hook (the features loaded, the
            # commands synced); once READY and the features' later start-up work (the quiz's
            # charts) are done, what start-up made is frozen out of the collector's passes
            # (bot.core.collector), so READY does not wait for the collection.
            pause()  # setup_hook imports the features: as for this module's imports
            try:
                await bot.login(token)
            finally:
                resume()
            settling = asyncio.create_task(settle_when_ready(bot), name="liuren-settle")
            await bot.connect()
    finally:
        if settling is not None:
            settling.cancel()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        if closing:
            await closing[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="liuren-bot", description="大六壬 Discord bot")
    parser.add_argument("--sync", action="store_true", help="sync the slash commands even if unchanged")
    parser.add_argument("--debug", action="store_true", help="log at DEBUG level")
    args = parser.parse_args(argv)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        try:
            print(terminal_chart(default_zone()))
        except ValueError as error:  # a bad LIUREN_TZ
            print(f"cannot cast for now: {error}", file=sys.stderr)
            return 2
        return 0
    setup_logging(token, logging.DEBUG if args.debug else logging.INFO)
    pace_threads()  # workers wait longer before taking the interpreter lock from the loop
    try:
        asyncio.run(_run(token, args.sync))
    except StoreError as error:
        print(f"cannot open the database: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"cannot start: {error}", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as error:
        where = os.environ.get("DISCORD_API_BASE") or "discord.com"
        print(f"cannot reach Discord ({where}): {error or type(error).__name__}; check the network "
              "connection, proxy and DNS, then start again.", file=sys.stderr)
        return 1
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
