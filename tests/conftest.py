"""Shared fixtures: a local Discord stand-in and a real bot connected to it.

``standin`` is a started ``DiscordStandIn`` on the ``guilds`` a test module gives (override the
``guilds`` fixture; the default is one guild with one text channel). ``discord_endpoints`` (used
by every test) puts discord.py's API base and gateway back after the test, whatever it pointed
them at; ``feature_modules`` (every test too) puts back the features' modules a closed bot dropped
from ``sys.modules``, so each start does not import them again. ``bot_env`` points the process at
it (DISCORD_API_BASE, DISCORD_GATEWAY_URL) with a fresh database under tmp_path. ``start_bot``
starts the real bot against it and stops it after the test: ``bot = await start_bot(clock=...)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.core.host import EXTENSIONS, make_bot
from testkit.daily_harness import Clock, Harness, utc
from testkit.discord_standin import DiscordStandIn, GuildSpec

StartBot = Callable[..., Awaitable[Any]]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` (pyproject's addopts) starts: two per core for the whole suite —
    about half its time is spent waiting on real bot processes, sockets and PostgreSQL, not computing —
    and none (one process, no start-up cost) when tests were named on the command line.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` or an explicit ``-n N`` still decides, as pytest-xdist documents."""
    if number := os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").strip():
        return int(number)
    if config.args_source is pytest.Config.ArgsSource.ARGS:
        return 0
    return 2 * len(os.sched_getaffinity(0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker (every worker collects, and all sort alike), the files are dealt out longest
    first, as far as the ``slow`` marks tell: most slow tests first, then most tests. pyproject's
    ``--dist loadfile --no-loadscope-reorder`` deals whole files in this order, so a long file is not
    the last one started while the other workers sit idle. Each file's tests keep their order."""
    if not hasattr(config, "workerinput"):
        return
    slow = Counter(item.path for item in items if item.get_closest_marker("slow"))
    size = Counter(item.path for item in items)
    items.sort(key=lambda item: (-slow[item.path], -size[item.path], str(item.path)))


# The sweeps over every chart allocate millions of short-lived objects beside caches of
# thousands of long-lived ones (charts, readings); at the interpreter's default thresholds (700, 10,
# 10) py-spy put a fifth of test_matters' sweep in the collector's passes over those caches, and
# these thresholds took 3-5 % off the sweep files as measured. What collection and the imports made
# is frozen out of the collector's reach, and it runs less often:
# the garbage is the same, collected in fewer passes (a test that needs it gone calls gc.collect()).
GC_THRESHOLDS = (10_000, 50, 50)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


# discord.py's Bot.close unloads each extension and drops its package's modules from
# sys.modules, so that the next load_extension imports them afresh (reload_extension's semantics).
# A process runs one bot in production; a test worker starts hundreds, and importing the five
# features again at every start was a fifth of the e2e files' CPU (py-spy). So the harness puts the
# features' modules back (only those missing: a module a test replaced stays replaced) before each
# test; a bot restarted within a test still imports them afresh, as a new process would.
for _name in EXTENSIONS:
    importlib.import_module(_name)
FEATURE_MODULES = {name: module for name, module in sys.modules.items()
                   if any(name == e or name.startswith(e + ".") for e in EXTENSIONS)}


@pytest.fixture(autouse=True)
def feature_modules() -> None:
    """The features' modules a closed bot dropped (``FEATURE_MODULES``) put back before each test."""
    for name, module in FEATURE_MODULES.items():
        sys.modules.setdefault(name, module)


@pytest.fixture(autouse=True)
def discord_endpoints() -> Iterator[None]:
    """discord.py's endpoints (class attributes the bot points at a stand-in) restored after each test."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
def guilds() -> list[GuildSpec] | None:
    """The stand-in's guilds (None: its default, one guild with one text channel)."""
    return None


@pytest.fixture
async def standin(guilds: list[GuildSpec] | None) -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn(guilds=guilds) as server:
        yield server


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "liuren.sqlite3"


@pytest.fixture
def bot_env(monkeypatch: pytest.MonkeyPatch, standin: DiscordStandIn, db_path: Path) -> dict[str, str]:
    """Environment of a bot run against the stand-in; returns the variables set."""
    env = {**standin.env(), "LIUREN_DB": str(db_path), "LIUREN_TZ": "Asia/Tokyo"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("LIUREN_SITE_URL", raising=False)  # replies as they are without a site
    return env


@pytest.fixture
async def start_bot(bot_env: dict[str, str], standin: DiscordStandIn) -> AsyncIterator[StartBot]:
    """A factory that starts a bot on the stand-in and waits until it is ready and has done the
    work its features do once READY (``bot.warming``), so a test sees only its own work; all are
    closed after."""
    running: list[tuple[Any, asyncio.Task[None]]] = []
    stuck: set[asyncio.Task[None]] = set()  # bots that never became ready: their test has failed already

    async def start(*, timeout: float = 20.0, **kwargs: Any) -> Any:
        kwargs.setdefault("guild_ready_timeout", 0.05)
        bot = make_bot(**kwargs)
        task = asyncio.create_task(bot.start(standin.token))
        running.append((bot, task))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                stuck.add(task)  # its test is told why here, not again at teardown
                task.result()  # re-raises why the bot stopped
                raise RuntimeError("the bot stopped before it was ready")
            if loop.time() > deadline:
                stuck.add(task)
                raise TimeoutError(f"the bot did not become ready on the stand-in in {timeout:g} s\n"
                                   + not_ready_report(standin, task))
            await asyncio.sleep(0.01)
        await asyncio.gather(*bot.warming, return_exceptions=True)
        return bot

    yield start
    for bot, task in reversed(running):
        await bot.close()
        if task in stuck:  # what it was awaiting fails on the closed session: its test says why already
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            continue
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


def not_ready_report(standin: DiscordStandIn, task: asyncio.Task[None]) -> str:
    """What a bot that did not become ready had done: the stand-in's requests and IDENTIFYs, and
    where the bot's start is waiting (a CI run once timed out here and could not say why)."""
    requests = "\n".join(f"  {r.method} {r.path} → {r.status}" for r in standin.requests) or "  none"
    frames, awaited = [], task.get_coro()
    while awaited is not None:  # down the chain of awaits (Task.get_stack shows only the outermost)
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is not None:
            frames.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    where = "\n".join(frames) or "  (not running)"
    return (f"requests the stand-in answered:\n{requests}\nIDENTIFYs: {len(standin.identifies)}\n"
            f"the bot's start is waiting at:\n{where}")


# -- the daily-post harness (testkit/daily_harness.py) -----------------------------------------


@pytest.fixture
def harness_db(tmp_path: Path) -> Path | str:
    """The harness's database (a module may give another, e.g. ``store_location`` for both backends)."""
    return tmp_path / "data" / "liuren.sqlite3"


@pytest.fixture
def harness_config() -> dict[str, Any]:
    """DeliveryConfig fields for the harness's bot (a module may give its own, e.g. a short lease)."""
    return {}


@pytest.fixture
async def harness(standin: DiscordStandIn, harness_db: Path | str,
                  harness_config: dict[str, Any]) -> AsyncIterator[Harness]:
    """A stoppable, restartable bot on the stand-in with the test's clock, 2026-05-01 23:00 UTC
    (08:00 in Tokyo); stopped after the test."""
    h = Harness(standin, harness_db, Clock(utc(2026, 5, 1, 23, 0)))
    h.config = dict(harness_config)
    yield h
    await h.stop()


# -- the store backends -----------------------------------------------------------------------

POSTGRES_DSN_VAR = "LIUREN_TEST_POSTGRES"
DEFAULT_POSTGRES_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_dsn() -> str:
    return os.environ.get(POSTGRES_DSN_VAR) or DEFAULT_POSTGRES_DSN


def _postgres_unavailable(dsn: str) -> str | None:
    """Why the PostgreSQL tests cannot run here (None: a server answers)."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(dsn, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as error:
        return f"no PostgreSQL server answers at {dsn} ({str(error).strip().splitlines()[0]})"
    return None


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The DSN of a live PostgreSQL server; skips (or, with LIUREN_REQUIRE_POSTGRES=1, fails)."""
    dsn = postgres_dsn()
    why = _postgres_unavailable(dsn)
    if why is not None:
        if os.environ.get("LIUREN_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"LIUREN_REQUIRE_POSTGRES=1 but {why}; set {POSTGRES_DSN_VAR}")
        pytest.skip(f"{why}; set {POSTGRES_DSN_VAR} to run the PostgreSQL tests")
    return dsn


@pytest.fixture(scope="session")
def postgres_admin(postgres_server: str) -> Iterator[Any]:
    """One autocommit connection per worker that makes and drops the tests' schemas (a connection
    costs the server ~4 ms of CPU; two per test were a tenth of what it spent on the suite)."""
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        yield conn


@pytest.fixture
def postgres_url(postgres_server: str, postgres_admin: Any) -> Iterator[str]:
    """A URL whose connections use a fresh, empty schema; the schema is dropped afterwards."""
    from testkit.pg_schemas import fresh_schema, schema_url

    with fresh_schema(postgres_admin) as schema:
        yield schema_url(postgres_server, schema)


@pytest.fixture(scope="session")
def migrated_schemas(postgres_server: str, postgres_admin: Any) -> Iterator[Any]:
    from testkit.pg_schemas import MigratedSchemas

    schemas = MigratedSchemas(postgres_server, postgres_admin)
    yield schemas
    schemas.close()


@pytest.fixture
def migrated_postgres_url(postgres_server: str, migrated_schemas: Any) -> Iterator[str]:
    """A URL whose connections use a schema at the store's current version with no rows (reused
    between tests: testkit/pg_schemas.py), for tests of the store's operations, not its migrations."""
    from testkit.pg_schemas import schema_url

    schema = migrated_schemas.take()
    yield schema_url(postgres_server, schema)
    migrated_schemas.give_back(schema)


def _location(request: pytest.FixtureRequest, tmp_path: Path, postgres: str) -> str:
    """A fresh SQLite file, or the URL the ``postgres`` fixture gives, by the backend parameter."""
    if request.param == "postgres":
        url: str = request.getfixturevalue(postgres)
        return url
    return str(tmp_path / "nested" / "dir" / "liuren.sqlite3")


@pytest.fixture(params=["sqlite", "postgres"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives, once per backend: a fresh SQLite file, or an empty PostgreSQL schema at
    the current version (migrated once per worker and reused: testkit/pg_schemas.py)."""
    return _location(request, tmp_path, "migrated_postgres_url")


@pytest.fixture(params=["sqlite", "postgres"])
def empty_store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """As ``store_location``, but a PostgreSQL schema that is new and empty, for a test that
    migrates it itself (from an older version, say)."""
    return _location(request, tmp_path, "postgres_url")
