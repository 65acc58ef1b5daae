"""A member's sealed call on a case, and the case's outcome, as typed values; the fingerprint anyone
can recompute from an export (docs/usage.md, "Calls").

The fingerprint is the first ``FINGERPRINT_HEX`` hex digits of SHA-256 over the UTF-8 bytes of
four lines joined by ``\\n``: ``liuren-call-1``, the case id, the member's id in decimal, the call's
time as ISO 8601 in UTC (``2026-11-29T05:00:00+00:00``, the export's ``made_at``), then the call's
text exactly as kept (last, so a line break in the text cannot be mistaken for a separator).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

__all__ = ["FINGERPRINT_HEX", "MARKS", "Call", "Mark", "Outcome", "as_mark", "fingerprint", "iso_utc"]

FINGERPRINT_HEX = 12
Mark = Literal["hit", "partly", "missed"]
MARKS: tuple[Mark, ...] = ("hit", "partly", "missed")


def iso_utc(at: int) -> str:
    """Epoch seconds as ISO 8601 in UTC, as the export writes every time."""
    return datetime.fromtimestamp(at, UTC).isoformat()


def fingerprint(case_id: str, member_id: int, text: str, made_at: int) -> str:
    """The call's fingerprint (module doc: the encoding)."""
    canonical = "\n".join(("liuren-call-1", case_id, str(member_id), iso_utc(made_at), text))
    return hashlib.sha256(canonical.encode()).hexdigest()[:FINGERPRINT_HEX]


def as_mark(value: object) -> Mark | None:
    for mark in MARKS:
        if value == mark:
            return mark
    return None


@dataclass(frozen=True, slots=True)
class Call:
    """A call as kept: ``text`` None once withdrawn (by its member, or when they deleted their data:
    ``author_id`` None then). ``due_at`` opens it to the case's readers; ``mark`` is the owner's."""

    id: int
    case_id: str
    author_id: int | None
    text: str | None
    made_at: int
    due_at: int | None
    withdrawn_at: int | None
    mark: Mark | None

    @property
    def fingerprint(self) -> str | None:
        """The fingerprint of the call as made (None once withdrawn: its text is gone)."""
        if self.text is None or self.author_id is None:
            return None
        return fingerprint(self.case_id, self.author_id, self.text, self.made_at)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the case's owner recorded: when the calls were revealed, what happened, and whether the
    calls are marked by a vote of the members who made none (``vote``) rather than by the owner."""

    case_id: str
    revealed_at: int | None
    text: str | None
    decided_at: int | None
    vote: bool = False
