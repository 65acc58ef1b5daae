"""A SQLite file before the bot opens it: refused, without writing to it, when it must not be
opened (a directory, unreadable, read-only, not SQLite, truncated, or emptied where a marker says
it held cases or schedules), each refusal a ``StoreError`` naming the file and what to do; and when
it is new, made so that only the bot's user can read it.

The marker beside the file says what the file held (cases, schedules) and how to start afresh on
purpose: delete the marker (docs/admin.md)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from .values import StoreError

__all__ = ["HELD_KINDS", "RESTORE", "check_file", "create_private", "leave_marker", "marked", "marker_path"]

HEADER = b"SQLite format 3\x00"
RESTORE = "restore it from a backup (see docs/admin.md) or point LIUREN_DB at another file"
HELD_KINDS = ("cases", "schedules")  # the tables whose rows make a file worth a marker, as the marker names them
_HELD = "held: "  # the marker's first line: "held: cases, schedules"
_OLD_SUFFIX = ".has-schedules"  # the marker's name before it said what it holds (left for cases too)


def marker_path(path: Path) -> Path:
    """The file that says what `path` has held (so an emptied or vanished database is noticed)."""
    return path.with_name(path.name + ".held")


def _markers(path: Path) -> tuple[Path, Path]:
    return marker_path(path), path.with_name(path.name + _OLD_SUFFIX)


def _found(path: Path) -> tuple[Path, frozenset[str]] | None:
    """The marker beside `path` and what it says it held (an empty set: a marker that does not say,
    as the old ``.has-schedules`` did not); None when there is no marker."""
    for marker in _markers(path):
        try:
            first = marker.read_text(encoding="utf-8").partition("\n")[0]
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError):
            return marker, frozenset()
        said = first.removeprefix(_HELD).split(", ") if first.startswith(_HELD) else []
        return marker, frozenset(kind for kind in said if kind in HELD_KINDS)
    return None


def marked(path: Path) -> frozenset[str]:
    """What the marker beside `path` says the file held (none when there is no marker)."""
    found = _found(path)
    return frozenset() if found is None else found[1]


def _held_words(kinds: Iterable[str]) -> str:
    named = [kind for kind in HELD_KINDS if kind in set(kinds)]
    return " and ".join(named) if named else " or ".join(HELD_KINDS)


def leave_marker(path: Path, kinds: Iterable[str]) -> None:
    """Write the marker beside `path`: what it held and how to start afresh (replaces an old one)."""
    marker, old = _markers(path)
    held = [kind for kind in HELD_KINDS if kind in set(kinds)]
    marker.write_text(
        f"{_HELD}{', '.join(held)}\n"
        f"{path.name} held {_held_words(held)}. While this file is here, the bot refuses to open "
        f"{path.name} empty or missing, so that a lost database is not silently replaced by an empty one.\n"
        "To start afresh with an empty database on purpose, delete this file (see docs/admin.md).\n",
        encoding="utf-8",
    )
    old.unlink(missing_ok=True)


def _refusal(path: Path, state: str) -> StoreError | None:
    """The refusal of an emptied or vanished `path` when a marker says it held rows (else None)."""
    found = _found(path)
    if found is None:
        return None
    marker, kinds = found
    return StoreError(
        f"{path} is {state} but held {_held_words(kinds)} before ({marker} says so); {RESTORE}; or, to "
        f"start afresh with an empty database on purpose, delete {marker}"
    )


def check_file(path: Path) -> None:
    """Refuse, without writing anything, a database file the bot must not open (see module doc)."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file; point LIUREN_DB at a file")
    if not path.exists():
        if (refused := _refusal(path, "missing")) is not None:
            raise refused
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
        if (refused := _refusal(path, "empty (0 bytes)")) is not None:
            raise refused
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
