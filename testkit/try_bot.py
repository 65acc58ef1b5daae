"""Try the bot without Discord: ``python -m testkit.try_bot --when "2026-11-29 14:00" --tz Asia/Tokyo``.

Starts the local Discord stand-in (testkit/discord_standin.py) and the real bot against it, on a
database in a temporary folder, sends one /cast as a member of the stand-in's server would, prints
the reply (its embeds as text, its buttons' labels) and saves its picture to a PNG file, then stops
both. Exit status 0 when the chart was shown; 1 when the bot answered with an error (printed, as
the member would read it). Run from a checkout with the ``[bot]`` extra installed: testkit is not
part of the installed package.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from bot.core.host import make_bot
from bot.core.words import DISCORD_LOCALE
from testkit.discord_standin import DiscordStandIn, Recorded
from texts.words import LANGS, Lang

__all__ = ["embed_lines", "main", "try_cast"]

START_TIMEOUT_S = 30.0
REPLY_TIMEOUT_S = 60.0
ENGLISH_LOCALE = "en-US"  # the Discord locale an English reader's client sends


def embed_lines(embed: Mapping[str, Any]) -> list[str]:
    """An embed as plain text: title, description, each field (name, then value), picture, footer."""
    lines = []
    if title := embed.get("title"):
        lines.append(f"# {title}")
    if description := embed.get("description"):
        lines.append(str(description))
    for field in embed.get("fields") or ():
        lines += [f"## {field['name']}", str(field["value"])]
    if image := (embed.get("image") or {}).get("url"):
        lines.append(f"[picture: {image}]")
    if footer := (embed.get("footer") or {}).get("text"):
        lines.append(f"-- {footer}")
    return lines


def message_lines(body: Mapping[str, Any]) -> list[str]:
    """A message the bot sent: its text, its embeds, its buttons' labels."""
    lines = [str(body["content"])] if body.get("content") else []
    for embed in body.get("embeds") or ():
        lines += embed_lines(embed)
    labels = [str(c.get("label") or c.get("url") or c.get("custom_id"))
              for row in body.get("components") or () for c in row.get("components") or ()]
    if labels:
        lines.append("buttons: " + " · ".join(f"[{label}]" for label in labels))
    return lines


def _environment(standin: DiscordStandIn) -> dict[str, str]:
    """This process's environment without Discord or liuren settings (no real token or database
    is ever used), pointed at the stand-in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LIUREN_"))}
    return {**env, **standin.env(), "LIUREN_GUILD_READY_TIMEOUT": "0.2"}


async def try_cast(options: Mapping[str, Any], lang: Lang, picture: Path) -> tuple[bool, list[str]]:
    """One /cast on the stand-in: whether the chart was shown, and the reply as lines of text.
    The reply's picture, if any, is written to ``picture``."""
    async with DiscordStandIn() as standin:
        with tempfile.TemporaryDirectory(prefix="liuren-try-") as folder:
            bot = make_bot(store_path=Path(folder) / "liuren.sqlite3", environ=_environment(standin))
            done = asyncio.Event()
            sent: dict[str, int] = {}

            async def completed(interaction: discord.Interaction[Any], command: object) -> None:
                if interaction.id == sent.get("id"):
                    done.set()

            bot.add_listener(completed, "on_app_command_completion")
            running = asyncio.create_task(bot.start(standin.token))
            try:
                await _ready(bot, running)
                payload = standin.interaction_payload("cast", options, locale=DISCORD_LOCALE.get(lang, ENGLISH_LOCALE))
                sent["id"] = int(payload["id"])
                callback = await standin.interact(payload, timeout=REPLY_TIMEOUT_S)
                if callback.ephemeral and not callback.embeds:  # a refusal: said once, nothing follows
                    return False, message_lines(callback.data)
                await asyncio.wait_for(done.wait(), REPLY_TIMEOUT_S)
                prefix = f"/webhooks/{standin.application_id}/{callback.token}"
                later = [r for r in standin.requests if r.path.startswith(prefix) and r.method in ("PATCH", "POST")]
                return True, _reply(callback.body, later, picture)
            finally:
                await bot.close()
                await asyncio.wait_for(running, 10)


async def _ready(bot: Any, running: asyncio.Task[None]) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT_S
    while not bot.is_ready():
        if running.done():
            running.result()  # why the bot stopped
            raise RuntimeError("the bot stopped before it was ready")
        if loop.time() > deadline:
            raise TimeoutError(f"the bot was not ready on the stand-in in {START_TIMEOUT_S:g} s")
        await asyncio.sleep(0.02)


def _reply(first: Mapping[str, Any], later: Sequence[Recorded], picture: Path) -> list[str]:
    """The reply's messages as text (a deferred reply: its edit, then the followups), the picture saved."""
    bodies = [] if first.get("type") == 5 else [dict(first.get("data") or {}, _files=first.get("_files", []))]
    for r in later:
        if bodies and r.method == "PATCH" and r.path.endswith("/messages/@original"):
            bodies[0].update(r.body or {})  # the reply edited: its picture, drawn after its text went out
        else:
            bodies.append(dict(r.body or {}))
    lines: list[str] = []
    saved = False
    for number, body in enumerate(bodies, 1):
        if len(bodies) > 1:
            lines.append(f"==== message {number} of {len(bodies)} ====")
        lines += message_lines(body)
        for file in body.get("_files") or ():
            if file["filename"].endswith(".png") and not saved:  # the chart's picture, on the first message
                picture.write_bytes(file["data"])
                saved = True
                alt = next((a.get("description") for a in body.get("attachments") or ()
                            if a.get("filename") == file["filename"]), None)
                lines.append(f"picture saved: {picture} ({len(file['data']):,} bytes)"
                             + (f"; its alt text: {alt}" if alt else ""))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testkit.try_bot", description=__doc__.split("\n\n")[1])
    parser.add_argument("--when", default="now", help="the moment, as /cast when: takes it (default: now)")
    parser.add_argument("--tz", help="IANA time zone, e.g. Asia/Tokyo (default: the bot's)")
    parser.add_argument("--question", help="what is asked (its matter is read first)")
    parser.add_argument("--matter", help="the matter, if the question's words do not give it")
    parser.add_argument("--lang", choices=LANGS, default="en", help="the reader's language (default: en)")
    parser.add_argument("--out", type=Path, default=Path("liuren-cast.png"), help="where the picture is saved")
    args = parser.parse_args(argv)
    options = {"when": args.when, **{k: v for k in ("tz", "question", "matter") if (v := getattr(args, k))}}
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    shown, lines = asyncio.run(try_cast(options, args.lang, args.out))
    print(f"/cast {' '.join(f'{k}:{v}' for k, v in options.items())}  (a reader of {args.lang})")
    print("\n".join(lines))
    return 0 if shown else 1


if __name__ == "__main__":
    sys.exit(main())
