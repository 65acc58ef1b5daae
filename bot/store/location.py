"""Where the store lives: a SQLite file or a PostgreSQL server, from ``LIUREN_DB``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

__all__ = ["APP_NAME", "DB_FILE", "Location", "default_location"]

APP_NAME = "liuren"
DB_FILE = "liuren.sqlite3"


def _user_folder(kind: Literal["data", "state"]) -> Path:
    """The user's data or state folder for the app. platformdirs is imported here, by the one start
    that asks (LIUREN_DB unset, or a PostgreSQL server's sync state), not by every start."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME) if kind == "data" else platformdirs.user_state_path(APP_NAME)


@dataclass(frozen=True, slots=True)
class Location:
    """Where the store is: a SQLite file (`path`) or a PostgreSQL server (`url`)."""

    path: Path | None = None
    url: str | None = None

    @property
    def is_postgres(self) -> bool:
        return self.url is not None

    @property
    def is_memory(self) -> bool:
        return self.path is not None and str(self.path) == ":memory:"

    def describe(self) -> str:
        """For the start-up line: the file, or the server without its password."""
        if self.url is not None:
            parts = urlsplit(self.url)
            host = parts.hostname or "localhost"
            port = f":{parts.port}" if parts.port else ""
            user = f"{parts.username}@" if parts.username else ""
            return f"postgresql://{user}{host}{port}{parts.path}"
        return str(self.path)

    def state_dir(self) -> Path | None:
        """Where small files belonging to this store go (None for an in-memory database)."""
        if self.is_memory:
            return None
        if self.path is not None:
            return self.path.parent
        return _user_folder("state")

    @classmethod
    def parse(cls, value: str | os.PathLike[str]) -> Location:
        text = os.fspath(value)
        if text.startswith(("postgresql://", "postgres://")):
            return cls(url=text)
        return cls(path=Path(text))


def default_location(environ: Mapping[str, str] | None = None) -> Location:
    """$LIUREN_DB (a file path or postgresql:// URL), else liuren.sqlite3 in the user's data directory."""
    env = os.environ if environ is None else environ
    value = env.get("LIUREN_DB", "").strip()
    if value:
        return Location.parse(value)
    return Location(path=_user_folder("data") / DB_FILE)
