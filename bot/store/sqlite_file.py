"""A SQLite file before the bot opens it: refused, without writing to it, when it must not be
opened (a directory, unreadable, read-only, not SQLite, truncated, or emptied where a marker says
schedules were kept), each refusal a ``StoreError`` naming the file and what to do; and when it is
new, made so that only the bot's user can read it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .values import StoreError

__all__ = ["RESTORE", "check_file", "create_private", "marker_path"]

HEADER = b"SQLite format 3\x00"
RESTORE = "restore it from a backup (see docs/admin.md) or point LIUREN_DB at another file"


def marker_path(path: Path) -> Path:
    """The file that says `path` has held schedules (so an emptied database is noticed)."""
    return path.with_name(path.name + ".has-schedules")


def check_file(path: Path) -> None:
    """Refuse, without writing anything, a database file the bot must not open (see module doc)."""
    marker = marker_path(path)
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file; point LIUREN_DB at a file")
    if not path.exists():
        if marker.exists():
            raise StoreError(
                f"{path} is missing but held schedules before ({marker} says so); {RESTORE}, "
                f"or delete {marker.name} to start with an empty database"
            )
        folder = _existing_parent(path)
        if not os.access(folder, os.W_OK):
            raise StoreError(f"cannot create {path}: {folder} is read-only; make it writable or set LIUREN_DB")
        return
    if not os.access(path, os.R_OK):
        raise StoreError(f"{path} cannot be read (permission denied); give the bot's user access (chown/chmod)")
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise StoreError(
            f"{path} is read-only (the file or its folder); the bot writes to it: make both writable "
            "by the bot's user"
        )
    size = path.stat().st_size
    if size == 0:
        if marker.exists():
            raise StoreError(
                f"{path} is empty (0 bytes) but held schedules before; {RESTORE}, "
                f"or delete {marker.name} to start with an empty database"
            )
        return
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise StoreError(f"{path} cannot be read ({error.strerror}); check the disk and permissions") from None
    if len(header) < 100 or not header.startswith(HEADER):
        raise StoreError(f"{path} is not a SQLite database (corrupt, or another kind of file); {RESTORE}")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The in-header page count is valid only while the two change counters agree.
    if header[24:28] == header[92:96] and pages and size < pages * page_size:
        raise StoreError(f"{path} is truncated ({size} of {pages * page_size} bytes); {RESTORE}")


def _existing_parent(path: Path) -> Path:
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


# -- the data file holds birth years and questions --
def create_private(path: Path) -> None:
    """Make the folder (0700) and the file (0600) when missing, so only the bot's user can read
    them; SQLite gives its -wal and -shm files the database file's mode. Existing ones keep theirs."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):  # an existing file is check_file's and SQLite's to judge
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
# -- end of the data file's privacy --
