"""What SQLite's errors mean to the bot: "not now" (locked, past the call's deadline, a full disk, a
disk I/O error) is told as a ``StoreUnavailable`` saying what to do, within seconds, never after a
wait without end; a damaged file (found at open or at any later call) as a ``StoreError`` naming
the file and what to do, also written to the log when it is found; any other error as it was."""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from .driver import StoreUnavailable
from .sqlite_file import RESTORE
from .values import StoreError

__all__ = ["BUSY", "BUSY_TIMEOUT", "DEADLINE", "LOCKED", "LOW_SPACE", "code_of", "damaged", "not_answering", "told",
           "unavailable"]

# A locked or slow database answers within seconds, not never: every call is answered within DEADLINE
# of when its caller made it, time spent queued behind other calls included (bot.store.sqlite_lanes);
# a write waits at most BUSY_TIMEOUT for another process's lock.
DEADLINE = 5.0
BUSY_TIMEOUT = 5.0
LOW_SPACE = 4 * 1024 * 1024  # bytes free under which a disk I/O error is read as a full disk

# SQLite's primary result codes (the low byte of sqlite_errorcode) that say "not now" rather than "damaged".
BUSY, LOCKED, _INTERRUPT, _IOERR, _FULL, _CANTOPEN = 5, 6, 9, 10, 13, 14
_CORRUPT, _NOTADB = 11, 26  # the file's content is not what SQLite wrote
log = logging.getLogger("bot")


def code_of(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error`` (0 when it carries none)."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


def unavailable(error: sqlite3.Error, path: Path | str) -> StoreUnavailable | None:
    """The error as a StoreUnavailable when it means "not now" (locked, interrupted, disk full or
    a disk I/O error), with what to do; None when it may mean damage (corrupt, not a database)."""
    code = code_of(error)
    if code in (BUSY, LOCKED):
        return StoreUnavailable(f"{path} is locked by another process for more than {BUSY_TIMEOUT:.0f} s ({error})")
    if code == _INTERRUPT:
        return not_answering(path)
    if code in (_FULL, _IOERR, _CANTOPEN):
        folder = Path(path).parent
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
        if code == _FULL or (free is not None and free < LOW_SPACE):
            shown = "" if free is None else f", {free // 1024} KiB free"
            return StoreUnavailable(
                f"the disk holding {path} is full ({error}{shown}): free space on it; the file is not "
                "damaged and nothing was lost (do not restore a backup)"
            )
        return StoreUnavailable(
            f"disk I/O error on {path} ({error}): check the disk (kernel log, mount, permissions); "
            "this is not known damage to the file, so do not restore a backup before checking"
        )
    return None


def not_answering(path: Path | str) -> StoreUnavailable:
    """A call not done within DEADLINE of when it was made (queued behind a slow write, or slow itself)."""
    return StoreUnavailable(
        f"{path} is not answering: the call was not done within {DEADLINE:.0f} s of being made (a stalled "
        "disk, a lock, or a long statement before it or in it); a commit already under way may still be "
        "completed, see docs/admin.md"
    )


def damaged(error: sqlite3.Error, path: Path | str) -> StoreError | None:
    """The error as a StoreError saying the file is damaged and what to do, when SQLite says so
    (corrupt, not a database); None otherwise."""
    if code_of(error) not in (_CORRUPT, _NOTADB):
        return None
    return StoreError(f"the database file {path} is damaged ({error}); stop the bot and {RESTORE}")


@contextlib.contextmanager
def told(path: Path | str) -> Iterator[None]:
    """sqlite3's "not now" errors raised as StoreUnavailable (``unavailable``), a damaged file as a
    StoreError (``damaged``, logged when found); any other as it was."""
    try:
        yield
    except sqlite3.OperationalError as error:
        found = unavailable(error, path)
        if found is None:
            raise
        raise found from error
    except sqlite3.DatabaseError as error:
        harm = damaged(error, path)
        if harm is None:
            raise
        log.error("%s", harm)  # the operator's cue, whatever the caller makes of the error
        raise harm from error
