"""``python -m bot.health``: exit 0 when the running bot's scheduler beat recently, else 1 with one line.

The daily-post loop touches ``LIUREN_HEALTH_FILE`` after every tick, and it ticks at least once a
minute once the bot is connected; a container healthcheck (or a monitor) runs this module.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["MAX_AGE", "check", "main"]

MAX_AGE = 180.0  # seconds: three missed minutes of ticks


def check(path: Path, now: float | None = None, max_age: float = MAX_AGE) -> str | None:
    """Why the bot is unhealthy (None: healthy)."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"{path} does not exist: the bot has not connected yet (or LIUREN_HEALTH_FILE differs)"
    except OSError as error:
        return f"{path} cannot be read: {error.strerror}"
    if age > max_age:
        return f"the scheduler last beat {age:.0f} s ago (limit {max_age:.0f} s)"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    target = args[0] if args else os.environ.get("LIUREN_HEALTH_FILE", "")
    if not target:
        print("unhealthy: set LIUREN_HEALTH_FILE (or give the file) to check", file=sys.stderr)
        return 1
    problem = check(Path(target))
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
