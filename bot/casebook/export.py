"""/case export's files: the cases a caller may see, as JSON and CSV, under Discord's upload limit,
written as they are read from the database.

Every column the casebook keeps is exported, the birth year and sex included, so a user sees
what is kept about them; those two are filled only in the caller's own cases (a server's other
members' birth data is theirs). When both files fit one upload (the interaction's
``attachment_size_limit``) they are sent as they are; otherwise the cases, newest first, are cut
into parts, each a ZIP of the same two files that fits the limit, and each part goes in a message
of its own (``/case export part:`` resumes a large export; docs/privacy.md).

Nothing holds the whole export: ``plan`` walks the cases once, keeping only each row's sizes'
sums and where each part starts; ``part_files`` walks again from a part's start and writes its
rows into the files (a ZIP's entries through ``ZipFile.open``), page by page. Memory is a page of
cases and one part's compressed bytes, whatever the casebook's size.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.core.worker import off_loop
from bot.store import Bad, Call, Case, CaseNote, KeptPlace, Outcome, iso_utc, school_options, stored_text

from . import calls as calling
from .seen import visible_cases

if TYPE_CHECKING:
    import discord

    from bot.core.host import LiurenBot

__all__ = ["CSV_NAME", "EXPORT_FIELDS", "JSON_NAME", "Calls", "Page", "Plan", "Walk", "case_walk", "part_files", "plan"]

EXPORT_FIELDS = ("id", "created_at", "guild_id", "channel_id", "author_id", "private", "instant", "zone",
                 "day", "yuejiang", "hour", "school", "question", "matter", "birth_year", "sex", "notes", "calls",
                 "outcome", "place")
JSON_NAME = "liuren-cases.json"
CSV_NAME = "liuren-cases.csv"
_STAMP = (1980, 1, 1, 0, 0, 0)  # the ZIP entries' time: the same cases give the same bytes
_ZIP_OVERHEAD = 1024  # bytes of a ZIP of two files beyond their compressed data (headers, directory)
_ROW_OVERHEAD = 16  # a row's separators in the JSON and the CSV
_BOM = "\ufeff"  # the CSV opens as UTF-8 in spreadsheet programs



@dataclass(frozen=True, slots=True)
class Calls:
    """A case's calls as the exporting member may see them (each with whether its text is shown to
    them: their own, or revealed), and its outcome."""

    calls: Sequence[tuple[Call, bool]] = ()
    outcome: Outcome | None = None


Page = Sequence[tuple[Case, Sequence[CaseNote], Calls]]  # cases, newest first, each with its notes and calls
Walk = Callable[[int | None], AsyncIterator[Page]]  # the pages below a seq (None: from the newest)


def case_walk(bot: LiurenBot, interaction: discord.Interaction[Any]) -> Walk:
    """The pages of the caller's export: the cases they may see here (bot.casebook.seen), each
    with its notes and calls, newest first from below a seq."""

    async def pages(before: int | None) -> AsyncIterator[Page]:
        async for cases in visible_cases(bot, interaction, before):
            ids = [c.id for c in cases]
            notes: dict[str, list[CaseNote]] = {}
            for note in await bot.store.case_notes(ids):
                notes.setdefault(note.case_id, []).append(note)
            calls = await kept(ids)
            yield [(case, notes.get(case.id, []), on) for case, on in zip(cases, calls, strict=True)]

    async def kept(ids: list[str]) -> list[Calls]:
        """Each case's calls as the caller may see them, and its outcome (bot.casebook.calls)."""
        found: dict[str, list[Call]] = {}
        for call in await bot.store.calls_on_cases(ids):
            found.setdefault(call.case_id, []).append(call)
        outcomes = await bot.store.outcomes_of(ids)
        now, viewer = int(bot.clock().timestamp()), interaction.user.id
        return [Calls(tuple((c, calling.shown(c, outcomes.get(i), viewer, now)) for c in found.get(i, [])),
                      outcomes.get(i)) for i in ids]

    return pages


@dataclass(frozen=True, slots=True)
class Plan:
    """How an export is cut: ``count`` cases; ``plain`` when the two files fit one upload; else, for
    each part, the seq its first case is below (None: the newest) and how many cases it holds."""

    count: int
    plain: bool
    starts: tuple[int | None, ...]
    sizes: tuple[int, ...]

    @property
    def parts(self) -> int:
        return len(self.sizes)


def _stored(value: datetime | ZoneInfo | Bad | None) -> str | None:
    return None if value is None else stored_text(value)


def _place(place: KeptPlace | Bad | None) -> dict[str, Any] | str | None:
    """A case's place as exported: its name, coordinates and zone (a bad one as it was stored)."""
    if place is None or isinstance(place, Bad):
        return None if place is None else place.text
    return {"name": place.name, "lat": place.place.lat, "lon": place.place.lon,
            "zone": None if place.zone is None else place.zone.key}


def _call(number: int, call: Call, shown: bool) -> dict[str, Any]:
    """A call as exported: its fingerprint's inputs in full (docs/usage.md, "Calls"), or, hidden from
    the exporting member, only that it was made; withdrawn, without its text."""
    row: dict[str, Any] = {
        "number": number, "author_id": None if call.author_id is None else str(call.author_id),
        "made_at": iso_utc(call.made_at), "due_at": None if call.due_at is None else iso_utc(call.due_at),
    }
    if call.text is None:
        return {**row, "withdrawn": True}
    if not shown:
        return {**row, "hidden": True}
    return {**row, "text": call.text, "fingerprint": call.fingerprint, "mark": call.mark}


def _outcome(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"revealed_at": None if outcome.revealed_at is None else iso_utc(outcome.revealed_at),
            "text": outcome.text, "decided_at": None if outcome.decided_at is None else iso_utc(outcome.decided_at)}


def _row(case: Case, notes: Sequence[CaseNote], calls: Calls, viewer: int) -> dict[str, Any]:
    own = case.author_id == viewer
    return {
        "id": case.id, "created_at": datetime.fromtimestamp(case.created_at, UTC).isoformat(),
        "guild_id": None if case.guild_id is None else str(case.guild_id),
        "channel_id": None if case.channel_id is None else str(case.channel_id),
        "author_id": str(case.author_id), "private": case.private, "instant": _stored(case.instant),
        "zone": _stored(case.zone), "day": case.day, "yuejiang": case.yuejiang, "hour": case.hour,
        "school": case.school.text if isinstance(case.school, Bad) else school_options(case.school),
        "question": case.question, "matter": case.matter,
        "birth_year": case.birth_year if own else None, "sex": case.sex if own else None,
        "notes": [{"author_id": str(n.author_id), "created_at": datetime.fromtimestamp(n.created_at, UTC).isoformat(),
                   "edited": n.edited_at is not None, "text": n.body} for n in notes],
        "calls": [_call(number, call, shown) for number, (call, shown) in enumerate(calls.calls, start=1)],
        "outcome": _outcome(calls.outcome),
        "place": _place(case.place) if own else None,  # where the member was: as the birth data, theirs only
    }


def _json_row(row: dict[str, Any]) -> str:
    """The row as it stands in the JSON file (a list dumped with ``indent=1``: one level in)."""
    return "\n".join(" " + line for line in json.dumps(row, ensure_ascii=False, indent=1).split("\n"))


def _csv_header() -> str:
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=EXPORT_FIELDS).writeheader()
    return out.getvalue()


def _csv_row(row: dict[str, Any]) -> str:
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=EXPORT_FIELDS).writerow({
        **row, "private": int(row["private"]),
        "school": json.dumps(row["school"], ensure_ascii=False, sort_keys=True),
        "notes": json.dumps(row["notes"], ensure_ascii=False),
        "calls": json.dumps(row["calls"], ensure_ascii=False),
        "outcome": "" if row["outcome"] is None else json.dumps(row["outcome"], ensure_ascii=False),
        "place": "" if row["place"] is None else json.dumps(row["place"], ensure_ascii=False),
    })
    return out.getvalue()


def _encoded(page: Page, viewer: int) -> list[tuple[int, str, str]]:
    """Each case of the page: its seq, its JSON (as in the file) and its CSV line."""
    out = []
    for case, notes, calls in page:
        row = _row(case, notes, calls, viewer)
        out.append((case.seq, _json_row(row), _csv_row(row)))
    return out


def _measured(page: Page, viewer: int) -> list[tuple[int, int, int]]:
    """Each case of the page: its seq, its bytes in the two plain files, and its share of a ZIP
    (its JSON compressed alone, counted twice for the CSV: an over-estimate, so a part made to
    the estimate fits)."""
    out = []
    for case, notes, calls in page:  # one row's text at a time, not the page's
        row = _row(case, notes, calls, viewer)
        data = _json_row(row).encode()
        plain = len(data) + 2 + len(_csv_row(row).encode())
        out.append((case.seq, plain, 2 * len(zlib.compress(data, 1)) + _ROW_OVERHEAD))
    return out


async def plan(walk: Walk, viewer: int, limit: int, most: int) -> Plan:
    """Walk the export's cases (at most `most`) once and cut them into parts within `limit` bytes."""
    count, plain = 0, len(_csv_header().encode()) + len(_BOM.encode()) + 4
    starts: list[int | None] = [None]
    sizes: list[int] = [0]
    share = _ZIP_OVERHEAD
    last: int | None = None
    async for page in walk(None):
        for seq, size, zipped in await off_loop(_measured, page[: most - count], viewer):
            if sizes[-1] and share + zipped > limit:
                starts.append(last)
                sizes.append(0)
                share = _ZIP_OVERHEAD
            sizes[-1] += 1
            share += zipped
            plain += size
            count += 1
            last = seq
        if count >= most:
            break
    if plain <= limit:
        return Plan(count, True, (None,), (count,))
    return Plan(count, False, tuple(starts), tuple(sizes))


async def _rows(walk: Walk, start: int | None, size: int, viewer: int) -> AsyncIterator[list[tuple[int, str, str]]]:
    """The encoded rows of `size` cases from below `start`, a page at a time."""
    left = size
    async for page in walk(start):
        encoded = await off_loop(_encoded, page[:left], viewer)
        left -= len(encoded)
        yield encoded
        if left <= 0:
            return


async def _write_json(walk: Walk, start: int | None, size: int, viewer: int, out: IO[bytes]) -> None:
    first = True
    out.write(b"[\n" if size else b"[")
    async for rows in _rows(walk, start, size, viewer):
        for _, as_json, _ in rows:
            out.write(((",\n" if not first else "") + as_json).encode())
            first = False
    out.write(b"\n]" if size else b"]")


async def _write_csv(walk: Walk, start: int | None, size: int, viewer: int, out: IO[bytes]) -> None:
    out.write((_BOM + _csv_header()).encode())
    async for rows in _rows(walk, start, size, viewer):
        out.write("".join(as_csv for _, _, as_csv in rows).encode())


async def part_files(walk: Walk, cut: Plan, number: int, viewer: int) -> tuple[tuple[str, bytes], ...]:
    """Part `number` (from 1) of the export as one message's files: the two plain files, or the
    part's ZIP (``liuren-cases-2-of-5.zip``), written from the database as it is read."""
    start, size = cut.starts[number - 1], cut.sizes[number - 1]
    if cut.plain:
        as_json, as_csv = io.BytesIO(), io.BytesIO()
        await _write_json(walk, start, size, viewer, as_json)
        await _write_csv(walk, start, size, viewer, as_csv)
        return (JSON_NAME, as_json.getvalue()), (CSV_NAME, as_csv.getvalue())
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, write in ((JSON_NAME, _write_json), (CSV_NAME, _write_csv)):
            entry = zipfile.ZipInfo(name, _STAMP)
            entry.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(entry, "w") as handle:
                await write(walk, start, size, viewer, handle)
    return ((f"liuren-cases-{number}-of-{cut.parts}.zip", packed.getvalue()),)
