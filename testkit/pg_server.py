"""A PostgreSQL server of a test's own, for tests that crash it, restart it or read its files.

The suite's shared server (tests/conftest.py ``postgres_server``) is never stopped or reconfigured:
a test that needs to do that starts its own here — ``initdb`` into a new folder as the ``postgres``
OS user (initdb refuses root), on a free port of 127.0.0.1, its socket in its own folder — and
stops it (and removes the folder) afterwards.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["BIN", "PrivateServer", "private_server", "unavailable"]

BIN = Path(os.environ.get("LIUREN_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
_USER = "postgres"


def unavailable() -> str | None:
    """Why a private server cannot be started here (None: it can)."""
    if not (BIN / "initdb").exists():
        return f"no PostgreSQL binaries in {BIN} (set LIUREN_TEST_PG_BIN)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start initdb as the postgres user"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PrivateServer:
    """One server in its own folder; ``url`` connects as the superuser ``postgres``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str, timeout: float = 120) -> None:
        prefix = ["runuser", "-u", _USER, "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, _USER, _USER)
        self._run(str(BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", _USER, "--no-sync",
                  "--no-instructions", "-E", "UTF8", "--locale=C")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on"
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"),
                  "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode``; "immediate" is a crash: no checkpoint, recovery at the next start."""
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@contextmanager
def private_server() -> Iterator[PrivateServer]:
    """A started server of the caller's own, stopped at once and removed after."""
    folder = Path(tempfile.mkdtemp(prefix="liuren-pg-"))
    server = PrivateServer(folder)
    try:
        server.init()
        server.start()
        yield server
    finally:
        if server.running():
            with suppress(RuntimeError, subprocess.TimeoutExpired):
                server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
