"""The real ``python -m bot`` process: SIGTERM with a send in flight, a database it must refuse, no
network, and what its --debug log may not show. Discord is the local stand-in (127.0.0.1)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sqlite3
from pathlib import Path

import pytest

from bot.health import check
from bot.health import main as health_main
from testkit.daily_harness import MANAGER
from testkit.discord_standin import DiscordStandIn
from testkit.processes import due_now, finish, read_until, run_bot, until


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
    posted = standin.messages[channel]
    # Each message of the post once (an English post is several messages since the project's English joined it).
    assert len({m["nonce"] for m in posted}) == len(posted) and posted[0]["content"].startswith("📅")
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


# -- stopping and starting: a signal mid-post, a database down at start ------------------------


@pytest.mark.slow
async def test_sigterm_while_daily_now_is_in_flight_logs_no_stray_task_error(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    db = tmp_path / "bot.sqlite3"
    guild = standin.guilds[0]
    channel = guild.channels[0].id
    await due_now(db, guild.id, channel)
    process = await run_bot({**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": str(db)})
    try:
        await standin.wait_connected(timeout=20)
        await until(lambda: standin.messages.get(channel))  # the daily post itself, out of the way
        standin.slow_answer(channel, 5.0)
        payload = standin.interaction_payload("daily now", {}, member_permissions=MANAGER)
        await standin.interact(payload, timeout=20)  # deferred: the test post is being sent
        await until(lambda: len(standin.messages[channel]) >= 2)  # stored; Discord's answer is slow
    finally:
        process.send_signal(signal.SIGTERM)
    code, err = await finish(process)
    assert code == 0, err
    for stray in ("Task exception was never retrieved", "Session is closed", "Traceback"):
        assert stray not in err, err


@pytest.mark.slow
async def test_a_postgres_down_at_start_is_waited_for_then_the_bot_runs(
    standin: DiscordStandIn, postgres_url: str
) -> None:
    with socket.socket() as probe:  # a port nothing listens on (yet)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = postgres_url.replace("127.0.0.1:5432", f"127.0.0.1:{port}")
    assert url != postgres_url
    process = await run_bot({**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": url})
    seen: list[str] = []
    server: asyncio.Server | None = None
    try:
        waiting = await read_until(process, "the database is unavailable", seen)
        assert "trying again in" in waiting and process.returncode is None
        await read_until(process, "(attempt 2)", seen)  # it keeps trying, with a longer wait

        async def forward(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", 5432)

            async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
                with contextlib.suppress(ConnectionError):
                    while data := await source.read(65536):
                        sink.write(data)
                        await sink.drain()
                sink.close()

            await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

        server = await asyncio.start_server(forward, "127.0.0.1", port)  # the server is back
        await standin.wait_connected(timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
    code, err = await finish(process)
    if server is not None:
        server.close()
    assert code == 0, "".join(seen) + err
    assert "Traceback" not in "".join(seen) + err


@pytest.mark.slow  # over a second on the project's machine
async def test_a_wrong_postgres_setting_still_stops_with_exit_2(postgres_server: str) -> None:
    url = postgres_server.replace("postgres@", "no_such_role_liuren@", 1)
    process = await run_bot({"DISCORD_TOKEN": "x.y.z", "LIUREN_DB": url, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})
    code, err = await finish(process)
    assert code == 2, err  # deploy/liuren-bot.service: RestartPreventExitStatus=2, a real configuration error
    assert "check LIUREN_DB" in err and "unavailable" not in err and "Traceback" not in err
