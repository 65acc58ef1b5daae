"""Persistent bot state: server settings, daily-post schedules, quizzes, the casebook, profiles.

``open_store(location)`` picks a driver from ``LIUREN_DB`` — a ``postgresql://`` URL
(bot.store.postgres) or a file path (bot.store.sqlite, the default) — and returns the one
``Store`` (bot.store.store), whose every operation is written once over the driver.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from .call_values import MARKS, Call, Mark, Outcome, fingerprint, iso_utc
from .driver import Driver, StoreUnavailable
from .forms import (
    LANGUAGES,
    Bad,
    KeptPlace,
    Language,
    decoded,
    school_from_json,
    school_json,
    school_options,
    stored_text,
)
from .location import APP_NAME, Location, default_location
from .sealing import load_cipher
from .sqlite import SqliteDriver
from .store import Store
from .values import (
    Case,
    CaseNote,
    GuildOptions,
    NewCase,
    Profile,
    Shards,
    StoreError,
    epoch,
    from_epoch,
    held,
    normalize_case_id,
)

if TYPE_CHECKING:
    from .quiz_values import QuizAnswer, QuizRow, QuizScore, QuizTopicScore
    from .schedule_values import Claimed, ScheduleRow

__all__ = [
    "APP_NAME",
    "LANGUAGES",
    "MARKS",
    "Bad",
    "Call",
    "Case",
    "CaseNote",
    "Claimed",
    "Driver",
    "GuildOptions",
    "KeptPlace",
    "Language",
    "Location",
    "Mark",
    "NewCase",
    "Outcome",
    "Profile",
    "QuizAnswer",
    "QuizRow",
    "QuizScore",
    "QuizTopicScore",
    "ScheduleRow",
    "Shards",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "decoded",
    "default_location",
    "epoch",
    "fingerprint",
    "from_epoch",
    "held",
    "iso_utc",
    "load_cipher",
    "normalize_case_id",
    "open_store",
    "school_from_json",
    "school_json",
    "school_options",
    "stored_text",
]


# The quiz's and the daily posts' values, loaded when a name is first asked for (PEP 562): the
# start makes none of them, and the first /cast needs none.
_LATER = {**dict.fromkeys(("QuizAnswer", "QuizRow", "QuizScore", "QuizTopicScore"), "bot.store.quiz_values"),
          **dict.fromkeys(("Claimed", "ScheduleRow"), "bot.store.schedule_values")}


def __getattr__(name: str) -> Any:
    """A value named in ``__all__`` whose module loads with its first use (imported now if it was not
    yet), then bound here as an import binds a name: the store's decoders reach it by this name for
    every row, and a read through ``__getattr__`` costs microseconds."""
    home = _LATER.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


async def open_store(location: Location | str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the store; None → `default_location()`.

    Raises StoreError with one line naming the database and what to do when it cannot be used.
    """
    where = default_location() if location is None else (
        location if isinstance(location, Location) else Location.parse(location)
    )
    # psycopg is the [postgres] extra, imported only for a postgresql:// URL
    if where.url is None:
        driver: Driver = await SqliteDriver.open(where)
    else:
        try:
            from .postgres import PostgresDriver
        except ModuleNotFoundError as error:
            raise StoreError(f"LIUREN_DB is a PostgreSQL URL but {error.name} is not installed: "
                             'pip install ".[bot,postgres]" in a checkout (docs/admin.md)') from error
        driver = await PostgresDriver.open(where)
    store = Store(driver)
    try:
        await store.seal_plaintext()  # rows of an older version, once (bot.store.keys)
    except BaseException:
        await store.close()
        raise
    return store
