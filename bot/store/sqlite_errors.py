"""What SQLite's errors mean to the bot (issue 22): "not now" (locked, interrupted, a full disk, a
disk I/O error) is told as a ``StoreUnavailable`` saying what to do, within seconds, never after a
wait without end; any other error may be damage, and the caller says so."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from .driver import StoreUnavailable

__all__ = ["BUSY", "BUSY_TIMEOUT", "LOCKED", "LOW_SPACE", "STATEMENT_TIMEOUT", "code_of", "told", "unavailable"]

# A locked or slow database answers within seconds, not never. A write waits up to BUSY_TIMEOUT for
# another process's lock; a statement running longer than STATEMENT_TIMEOUT is interrupted (the bot
# has acknowledged the interaction by then and says the database is busy).
BUSY_TIMEOUT = 5.0
STATEMENT_TIMEOUT = 10.0
LOW_SPACE = 4 * 1024 * 1024  # bytes free under which a disk I/O error is read as a full disk

# SQLite's primary result codes (the low byte of sqlite_errorcode) that say "not now" rather than "damaged".
BUSY, LOCKED, _INTERRUPT, _IOERR, _FULL, _CANTOPEN = 5, 6, 9, 10, 13, 14


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
        return StoreUnavailable(f"{path}: a statement took longer than {STATEMENT_TIMEOUT:.0f} s and was stopped")
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


@contextlib.contextmanager
def told(path: Path | str) -> Iterator[None]:
    """sqlite3's "not now" errors raised as StoreUnavailable (``unavailable``); any other as it was."""
    try:
        yield
    except sqlite3.OperationalError as error:
        found = unavailable(error, path)
        if found is None:
            raise
        raise found from error
