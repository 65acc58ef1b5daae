"""The zone the terminal apps cast in when none is named: ``$LIUREN_TZ``, else the machine's own.

The machine's zone is read as an IANA name where the system says one: ``$TZ`` (``Europe/Paris``,
``:Europe/Paris``), the target of the ``/etc/localtime`` link (``…/zoneinfo/Europe/Paris``), or
``/etc/timezone`` (Debian). Failing those, the clock's present offset from UTC, as ``Etc/GMT-9``
for UTC+9 (the Etc zones' sign is the POSIX one, reversed); failing that, ``UTC``. (The bot keeps
its own default, docs/admin.md: a server has no reader at its console.)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path

from engine.calendar import CalendarError
from engine.calendar import zone as calendar_zone

LOCALTIME = Path("/etc/localtime")
TIMEZONE = Path("/etc/timezone")


def _iana(name: str) -> str | None:
    name = name.strip().removeprefix(":")
    if not name:
        return None
    try:
        return calendar_zone(name).key
    except (CalendarError, ValueError):
        return None


def _linked(localtime: Path) -> str | None:
    try:
        target = localtime.resolve(strict=True).as_posix() if localtime.is_symlink() else ""
    except OSError:
        return None
    _, found, name = target.rpartition("/zoneinfo/")
    return _iana(name) if found else None


def _written(timezone: Path) -> str | None:
    try:
        return _iana(timezone.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def by_offset(offset: timedelta | None) -> str:
    """The Etc zone of a whole-hour offset from UTC (``UTC`` for none or a part hour)."""
    if offset is None or offset % timedelta(hours=1) or not offset:
        return "UTC"
    hours = offset // timedelta(hours=1)
    return f"Etc/GMT{-hours:+d}" if -12 <= -hours <= 14 else "UTC"


def machine_zone(localtime: Path = LOCALTIME, timezone: Path = TIMEZONE,
                 environ: Mapping[str, str] | None = None) -> str:
    """The machine's own zone as an IANA name (see the module's docstring for where it is read)."""
    env = os.environ if environ is None else environ
    return (_iana(env.get("TZ") or "") or _linked(localtime) or _written(timezone)
            or by_offset(datetime.now().astimezone().utcoffset()))


def cli_zone(environ: Mapping[str, str] | None = None) -> str:
    """``$LIUREN_TZ`` when set (and not blank), else :func:`machine_zone`."""
    env = os.environ if environ is None else environ
    return (env.get("LIUREN_TZ") or "").strip() or machine_zone(environ=env)
