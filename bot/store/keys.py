"""The members' keys (bot.store.sealing): read, made, deleted, and the key table rewritten so a
deleted key leaves PostgreSQL's files; and the one-off sealing of older rows (``seal_old_rows``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import sql as q
from .driver import Driver, Params, Rows
from .remembered import Readers
from .sealing import new_key, seal_birth, seal_text
from .values import StoreError

__all__ = ["DROP_BIRTH_KEY", "DROP_CASE_KEY", "PRUNE_KEYS", "MemberKeys", "Sealing"]

log = logging.getLogger("bot")
Keys = tuple[bytes | None, bytes | None]

# A member's key made once (two casts at once agree on the first), and deleted with what it sealed.
SET_CASE_KEY = (
    "INSERT INTO member_keys (user_id, case_key) VALUES (?, ?) ON CONFLICT (user_id) "
    "DO UPDATE SET case_key = COALESCE(member_keys.case_key, excluded.case_key) RETURNING case_key"
)
SET_BIRTH_KEY = (
    "INSERT INTO member_keys (user_id, birth_key) VALUES (?, ?) ON CONFLICT (user_id) "
    "DO UPDATE SET birth_key = COALESCE(member_keys.birth_key, excluded.birth_key) RETURNING birth_key"
)
DROP_CASE_KEY = "UPDATE member_keys SET case_key = NULL WHERE user_id = ?"
DROP_BIRTH_KEY = "UPDATE member_keys SET birth_key = NULL WHERE user_id = ?"
PRUNE_KEYS = "DELETE FROM member_keys WHERE user_id = ? AND case_key IS NULL AND birth_key IS NULL"
# PostgreSQL: the key table copied anew (its live rows only) and the old one dropped, whose file the
# server empties at the commit. Not VACUUM: a plain one leaves deleted rows in the pages' free space,
# and VACUUM FULL copies a deleted row still visible to any open transaction (a backup under way).
REWRITE_KEYS = (
    "LOCK TABLE member_keys IN ACCESS EXCLUSIVE MODE",
    "CREATE TABLE member_keys_new (LIKE member_keys INCLUDING ALL)",
    "INSERT INTO member_keys_new SELECT * FROM member_keys",
    "DROP TABLE member_keys",
    "ALTER TABLE member_keys_new RENAME TO member_keys",
    "ALTER INDEX member_keys_new_pkey RENAME TO member_keys_pkey",
)

# -- rows written before sealing (step 10), sealed once by Store.seal_plaintext, a page at a time ----

SEALED_MARK = "personal fields sealed"  # a meta key: every plain row sealed (or reported)
PLAIN_CASES = (
    "SELECT seq, id, author_id, question, birth_year, sex FROM cases WHERE seq > ? AND question_sealed IS NULL "
    "AND birth_sealed IS NULL AND (question IS NOT NULL OR birth_year IS NOT NULL OR sex IS NOT NULL) "
    "ORDER BY seq LIMIT ?"
)
SEAL_CASE = (
    "UPDATE cases SET question = NULL, birth_year = NULL, sex = NULL, question_sealed = ?, birth_sealed = ? "
    "WHERE id = ?"
)
PLAIN_NOTES = (
    "SELECT id, case_id, author_id, body FROM case_notes WHERE id > ? AND body_sealed IS NULL ORDER BY id LIMIT ?"
)
SEAL_NOTE = "UPDATE case_notes SET body = '', body_sealed = ? WHERE id = ?"
PLAIN_PROFILES = (
    "SELECT user_id, user_id, birth_year, sex, zone FROM profiles WHERE user_id > ? AND sealed IS NULL "
    "ORDER BY user_id LIMIT ?"
)
SEAL_PROFILE = "UPDATE profiles SET birth_year = 0, sex = '', zone = NULL, sealed = ? WHERE user_id = ?"
# PostgreSQL, once the plain rows are sealed: the tables written anew, without the plain values'
# old row versions (a one-off rewrite at the upgrade; statement_timeout lifted for it).
REWRITE_PLAIN = ("SET statement_timeout = 0", "VACUUM FULL cases", "VACUUM FULL case_notes",
                 "VACUUM FULL profiles", "RESET statement_timeout")

SEAL_PAGE = 500  # plain rows sealed per transaction


@dataclass(frozen=True, slots=True)
class Sealing:
    """The keys a write seals with: those already stored, and those made for it, which ``steps``
    store in the write's own transaction (one commit for the key and the row it seals, not two)."""

    case_key: bytes | None
    birth_key: bytes | None
    steps: tuple[tuple[str, Params], ...] = ()  # SET_CASE_KEY / SET_BIRTH_KEY, one per key made

    def stored(self, returned: Sequence[Rows]) -> Sealing:
        """The keys as ``steps`` left them stored (each step's returned row): another write's key
        where that write stored one first, so what this write sealed must be sealed again."""
        case_key, birth_key = self.case_key, self.birth_key
        for (statement, _), rows in zip(self.steps, returned, strict=True):
            if statement == SET_CASE_KEY:
                case_key = _bytes(rows[0][0])
            else:
                birth_key = _bytes(rows[0][0])
        return Sealing(case_key, birth_key)


class MemberKeys:
    """The keys of the store's members (never kept in memory: a key deleted by another process is
    not used again)."""

    __slots__ = ("_driver", "_readers")

    def __init__(self, driver: Driver, readers: Readers) -> None:
        self._driver, self._readers = driver, readers

    async def of(self, user_id: int, *, case: bool = False, birth: bool = False) -> Keys:
        """The member's casebook and birth keys, each made when asked for and missing (None: not
        asked for and not made). Read with the other reads of the moment."""
        sealing = await self.for_write(user_id, case=case, birth=birth)
        if sealing.steps:  # made: stored now, in a transaction of its own
            sealing = sealing.stored([await self._driver.fetch(s, p) for s, p in sealing.steps])
        return sealing.case_key, sealing.birth_key

    async def for_write(self, user_id: int, *, case: bool = False, birth: bool = False) -> Sealing:
        """As ``of``, but a missing key is made here and stored by the write it seals (``Sealing``)."""
        if not case and not birth:
            return Sealing(None, None)
        row = await self._readers.row(q.MEMBER_KEYS, user_id)
        case_key, birth_key = (None, None) if row is None else (_bytes(row[1]), _bytes(row[2]))
        steps: list[tuple[str, Params]] = []
        if case and case_key is None:
            case_key = new_key()
            steps.append((SET_CASE_KEY, (user_id, case_key)))
        if birth and birth_key is None:
            birth_key = new_key()
            steps.append((SET_BIRTH_KEY, (user_id, birth_key)))
        return Sealing(case_key, birth_key, tuple(steps))

    async def rewrite(self) -> None:
        """PostgreSQL: the key table rewritten (``REWRITE_KEYS``), so a deleted key leaves its files.
        SQLite overwrites what it deletes itself (secure_delete). One that fails is logged: the next
        deletion's rewrite catches up."""
        if self._driver.location.url is None:
            return
        try:
            await self._driver.transaction([(statement, ()) for statement in REWRITE_KEYS])
        except StoreError as error:
            log.warning("store: the key table was not rewritten after a deletion (retried at the next): %s", error)

    async def seal_old_rows(self) -> int:
        """Seal every row written before sealing (step 9), a page at a time; returns how many. Done
        once (a mark in ``meta``). A row that cannot be sealed is reported in the log and kept as it
        is (it still reads as before). On PostgreSQL the tables are then rewritten once, so the plain
        values leave the files."""
        if await self._driver.fetch(q.META, (SEALED_MARK,)):
            return 0
        sealed = 0
        for name, select, seal in (("case", PLAIN_CASES, self._case), ("note", PLAIN_NOTES, self._note),
                                   ("profile", PLAIN_PROFILES, self._profile)):
            after = -1  # the page's last seq, id or user id
            while rows := await self._driver.fetch(select, (after, SEAL_PAGE)):
                after = rows[-1][0]
                steps: list[tuple[str, Params]] = []
                for row in rows:
                    try:
                        steps.append(await seal(row))
                    except (ValueError, TypeError, UnicodeError) as error:
                        log.error("store: %s %s could not be sealed (%s); it is kept as it was", name, row[1],
                                  error)
                await self._driver.transaction(steps)
                sealed += len(steps)
        if sealed and self._driver.location.url is not None:
            await self._driver.fetch_batch([(statement, ()) for statement in REWRITE_PLAIN], atomic=False)
        await self._driver.execute(q.SET_META, (SEALED_MARK, "1"))
        return sealed

    async def _case(self, row: Sequence[Any]) -> tuple[str, Params]:
        _, case_id, author, question, birth_year, sex = row
        has_birth = birth_year is not None or sex is not None
        case_key, birth_key = await self.of(int(author), case=question is not None, birth=has_birth)
        birth = None if birth_key is None else seal_birth(
            birth_key, None if birth_year is None else int(birth_year), None if sex is None else str(sex),
            f"b:{case_id}")
        text = None if case_key is None else seal_text(case_key, _text(question), f"q:{case_id}")
        return SEAL_CASE, (text, birth, case_id)

    async def _note(self, row: Sequence[Any]) -> tuple[str, Params]:
        note_id, case_id, author, body = row
        key, _ = await self.of(int(author), case=True)
        assert key is not None
        return SEAL_NOTE, (seal_text(key, _text(body), f"n:{case_id}"), note_id)

    async def _profile(self, row: Sequence[Any]) -> tuple[str, Params]:
        user_id, _, birth_year, sex, zone = row
        _, key = await self.of(int(user_id), birth=True)
        assert key is not None
        sealed = seal_birth(key, int(birth_year), str(sex), f"p:{user_id}", None if zone is None else str(zone))
        return SEAL_PROFILE, (sealed, user_id)


def _text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"text stored as {type(value).__name__}")


def _bytes(value: object) -> bytes | None:
    """A key as read (psycopg's bytes, SQLite's bytes; a memoryview from some drivers)."""
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    raise StoreError(f"a member's key is stored as {type(value).__name__}, not bytes: the database is damaged")
