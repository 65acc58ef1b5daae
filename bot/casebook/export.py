"""/case export's files: the cases a caller may see, as JSON and CSV, under Discord's upload limit.

Every column the casebook keeps is exported, the birth year and sex included, so a user sees
what is kept about them; those two are filled only in the caller's own cases (a server's other
members' birth data is theirs). When both files fit one upload (the interaction's
``attachment_size_limit``) they are sent as they are; otherwise the cases, newest first, are cut
into parts, each a ZIP of the same two files that fits the limit, and each part goes in a message
of its own (``/case export part:`` resumes a large export; docs/privacy.md).
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.store import Case, CaseNote

__all__ = ["CSV_NAME", "EXPORT_FIELDS", "JSON_NAME", "Part", "export_files", "export_parts"]

EXPORT_FIELDS = ("id", "created_at", "guild_id", "channel_id", "author_id", "private", "instant", "zone",
                 "day", "yuejiang", "hour", "school", "question", "matter", "birth_year", "sex", "notes")
JSON_NAME = "liuren-cases.json"
CSV_NAME = "liuren-cases.csv"
Part = tuple[tuple[str, bytes], ...]  # one message's files: (filename, data)
_STAMP = (1980, 1, 1, 0, 0, 0)  # the ZIP entries' time: the same cases give the same bytes
_ZIP_OVERHEAD = 1024  # bytes of a ZIP of two files beyond their compressed data (headers, directory)
_ROW_OVERHEAD = 16  # a row's separators in the JSON and the CSV


def _row(case: Case, notes: Sequence[CaseNote], viewer: int) -> dict[str, Any]:
    own = case.author_id == viewer
    return {
        "id": case.id, "created_at": datetime.fromtimestamp(case.created_at, UTC).isoformat(),
        "guild_id": None if case.guild_id is None else str(case.guild_id),
        "channel_id": None if case.channel_id is None else str(case.channel_id),
        "author_id": str(case.author_id), "private": case.private, "instant": case.instant, "zone": case.zone,
        "day": case.day, "yuejiang": case.yuejiang, "hour": case.hour, "school": json.loads(case.school),
        "question": case.question, "matter": case.matter,
        "birth_year": case.birth_year if own else None, "sex": case.sex if own else None,
        "notes": [{"author_id": str(n.author_id), "created_at": datetime.fromtimestamp(n.created_at, UTC).isoformat(),
                   "edited": n.edited_at is not None, "text": n.body} for n in notes],
    }


def _files(rows: Sequence[dict[str, Any]]) -> tuple[bytes, bytes]:
    as_json = json.dumps(list(rows), ensure_ascii=False, indent=1).encode()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_FIELDS)
    writer.writeheader()
    for row in rows:
        writer.writerow({
            **row, "private": int(row["private"]),
            "school": json.dumps(row["school"], ensure_ascii=False, sort_keys=True),
            "notes": json.dumps(row["notes"], ensure_ascii=False),
        })
    return as_json, out.getvalue().encode("utf-8-sig")


def _rows(cases: Sequence[Case], notes: Sequence[CaseNote], viewer: int) -> list[dict[str, Any]]:
    by_case: dict[str, list[CaseNote]] = {}
    for note in notes:
        by_case.setdefault(note.case_id, []).append(note)
    return [_row(c, by_case.get(c.id, []), viewer) for c in cases]


def export_files(cases: Sequence[Case], notes: Sequence[CaseNote], viewer: int) -> tuple[bytes, bytes]:
    """The cases (with their notes) as JSON and as CSV (one row per case; notes as JSON in a column)."""
    return _files(_rows(cases, notes, viewer))


def _zipped(rows: Sequence[dict[str, Any]], files: tuple[bytes, bytes] | None = None) -> bytes:
    as_json, as_csv = _files(rows) if files is None else files
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in ((JSON_NAME, as_json), (CSV_NAME, as_csv)):
            archive.writestr(zipfile.ZipInfo(name, _STAMP), data, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _split(rows: Sequence[dict[str, Any]], limit: int, files: tuple[bytes, bytes] | None = None) -> list[bytes]:
    """ZIPs of consecutive runs of `rows`, each within `limit` bytes (halved until it fits);
    ``files``: `rows`' two files, when already made."""
    packed = _zipped(rows, files)
    if len(packed) <= limit or len(rows) <= 1:
        return [packed]
    half = len(rows) // 2
    return _split(rows[:half], limit) + _split(rows[half:], limit)


def _runs(rows: Sequence[dict[str, Any]], limit: int) -> list[Sequence[dict[str, Any]]]:
    """Consecutive runs of `rows` whose ZIP should fit `limit`: each row's JSON compressed alone
    (and counted twice, for the CSV) over-estimates its share, so a run rarely needs a second cut
    and the whole export is compressed about twice, not once per halving."""
    runs: list[Sequence[dict[str, Any]]] = []
    start, size = 0, _ZIP_OVERHEAD
    for n, row in enumerate(rows):
        share = 2 * len(zlib.compress(json.dumps(row, ensure_ascii=False).encode(), 1)) + _ROW_OVERHEAD
        if n > start and size + share > limit:
            runs.append(rows[start:n])
            start, size = n, _ZIP_OVERHEAD
        size += share
    runs.append(rows[start:])
    return runs


def export_parts(cases: Sequence[Case], notes: Sequence[CaseNote], viewer: int, limit: int) -> list[Part]:
    """The export as messages' files, each message's files together within `limit` bytes: the two
    plain files when they fit, else numbered ZIP parts (``liuren-cases-2-of-5.zip``)."""
    rows = _rows(cases, notes, viewer)
    as_json, as_csv = _files(rows)
    if len(as_json) + len(as_csv) <= limit:
        return [((JSON_NAME, as_json), (CSV_NAME, as_csv))]
    runs = _runs(rows, limit)
    # One run is all the rows: its files are the two just made (for 5,000 cases, a third of the work).
    whole = (as_json, as_csv) if len(runs) == 1 else None
    zips = [packed for run in runs for packed in _split(run, limit, whole)]
    return [((f"liuren-cases-{n}-of-{len(zips)}.zip", data),) for n, data in enumerate(zips, start=1)]
