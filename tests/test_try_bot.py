"""``python -m testkit.try_bot``: the bot tried without Discord, as README's development section says —
the stand-in and the real bot started, one /cast sent, its reply printed and its picture saved."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

from bot.core.words import gloss, text

ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n"


def try_bot(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LIUREN_"))}
    return subprocess.run([sys.executable, "-m", "testkit.try_bot", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, its first chunk (IHDR) checked against its CRC."""
    assert data.startswith(PNG)
    length, kind = struct.unpack(">I4s", data[8:16])
    body = data[16:16 + length]
    assert kind == b"IHDR" and struct.unpack(">I", data[16 + length:20 + length])[0] == zlib.crc32(kind + body)
    width, height = struct.unpack(">II", body[:8])
    return width, height


def test_a_cast_is_printed_and_its_picture_saved(tmp_path: Path) -> None:
    picture = tmp_path / "cast.png"
    done = try_bot("--when", "2026-11-29 14:00", "--tz", "Asia/Tokyo",
                   "--question", "財布をなくしました。見つかりますか？", "--lang", "en", "--out", str(picture))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("/cast when:2026-11-29 14:00 tz:Asia/Tokyo question:財布をなくしました。見つかりますか？")
    assert f"# {gloss('八専・知一')}" in out  # the chart of that moment, its title as an English reader sees it
    assert f"**{text('embed.question', 'en')}** 財布をなくしました。見つかりますか？" in out
    assert f"## {text('embed.lessons', 'en')}" in out and "Asia/Tokyo" in out
    assert re.search(r"^buttons: \[.+\]", out, re.M)
    saved = re.search(r"^picture saved: (.+) \(([\d,]+) bytes\)", out, re.M)
    assert saved is not None and Path(saved.group(1)) == picture
    data = picture.read_bytes()
    assert len(data) == int(saved.group(2).replace(",", ""))
    width, height = png_size(data)
    assert width > 300 and height > width  # the whole chart, drawn tall


def test_a_refused_cast_prints_why_and_exits_1(tmp_path: Path) -> None:
    picture = tmp_path / "cast.png"
    done = try_bot("--when", "not a moment", "--lang", "zh-TW", "--out", str(picture))
    assert done.returncode == 1, done.stderr
    assert "not a moment" in done.stdout and "1900" in done.stdout  # the bot's own answer, in zh-TW
    assert not picture.exists()
