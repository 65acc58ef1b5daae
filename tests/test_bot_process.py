"""The real ``python -m bot`` process: SIGTERM with a send in flight, a database it must refuse, no
network, and what its --debug log may not show. Discord is the local stand-in (127.0.0.1)."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from bot.health import check
from bot.health import main as health_main
from testkit.discord_standin import DiscordStandIn
from testkit.processes import due_now, finish, run_bot, until


@pytest.mark.slow
async def test_sigterm_lets_the_send_in_flight_finish_and_exits_0(standin: DiscordStandIn, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    guild = standin.guilds[0]
    channel = guild.channels[0].id
    day = await due_now(db, guild.id, channel)
    standin.slow_answer(channel, 2.0)
    process = await run_bot({**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": str(db)})
    try:
        await until(lambda: standin.messages.get(channel))  # stored; the answer takes 2 s more
    except BaseException:
        process.kill()
        raise
    process.send_signal(signal.SIGTERM)
    code, err = await finish(process)
    assert code == 0, err
    assert "Traceback" not in err
    assert f"database {db}" in err  # where the data lives is printed at start
    assert len(standin.messages[channel]) == 1
    with sqlite3.connect(db) as conn:
        last_posted, message_id, lease = conn.execute(
            "SELECT last_posted, message_id, lease_token FROM schedules"
        ).fetchone()
    assert last_posted == day
    assert message_id == int(standin.messages[channel][0]["id"]) and lease is None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"GARBAGE" * 100, "not a SQLite database"),
        (None, "newer"),  # a schema from the future
    ],
)
async def test_a_database_it_cannot_use_is_one_line_and_untouched(
    tmp_path: Path, content: bytes | None, words: str
) -> None:
    db = tmp_path / "bot.sqlite3"
    if content is None:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 99")
    else:
        db.write_bytes(content)
    before = db.read_bytes()
    process = await run_bot({"DISCORD_TOKEN": "x.y.z", "LIUREN_DB": str(db),
                             "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})
    code, err = await finish(process)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2
    assert lines[-1].startswith("cannot open the database:") and str(db) in lines[-1] and words in lines[-1]
    assert "Traceback" not in err and len(lines) == 2  # the "database …" line, then the refusal
    assert db.read_bytes() == before


async def test_no_network_is_one_clear_line(tmp_path: Path) -> None:
    process = await run_bot({"DISCORD_TOKEN": "x.y.z", "LIUREN_DB": str(tmp_path / "bot.sqlite3"),
                             "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})
    code, err = await finish(process)
    assert code == 1
    assert "Traceback" not in err
    refusal = [line for line in err.splitlines() if line.startswith("cannot reach Discord")]
    assert len(refusal) == 1 and "network" in refusal[0]


@pytest.mark.slow
async def test_debug_log_hides_tokens_and_voice_warnings(standin: DiscordStandIn, tmp_path: Path) -> None:
    health = tmp_path / "health"
    assert health_main([str(health)]) == 1  # not running: unhealthy
    process = await run_bot(
        {**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": str(tmp_path / "bot.sqlite3"),
         "LIUREN_HEALTH_FILE": str(health)}, "--debug"
    )
    try:
        await standin.wait_connected(timeout=20)
        await until(health.exists)
        assert health_main([str(health)]) == 0  # connected, and the scheduler beats
        await until(lambda: standin.requests_to("PUT", f"/applications/{standin.application_id}/commands"))
        payload = standin.interaction_payload("help", {}, guild_id=None)
        token = payload["token"]
        await standin.interact(payload, timeout=20)
    finally:
        process.send_signal(signal.SIGTERM)
    code, err = await finish(process)
    assert code == 0
    assert "DEBUG" in err and "/callback" in err  # the requests were logged…
    assert token not in err and standin.token not in err  # …without the secrets in them
    assert "voice will NOT be supported" not in err


def test_health_check_says_why(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    assert "does not exist" in (check(beat) or "")
    beat.touch()
    assert check(beat) is None
    stale = beat.stat().st_mtime + 600
    assert "last beat 600 s ago" in (check(beat, now=stale) or "")
