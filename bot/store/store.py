"""The store: every operation the bot needs, written once over a driver (bot.store.driver).

A schedule's delivery state lives in three columns the scheduler reads through an index:
``due_at`` (epoch seconds, UTC) is when the row next needs attention — its next post, or the end
of a lease while a process is posting it; ``lease_token`` names the process holding it;
``unsure`` says a send for the day may already have reached Discord, so whoever posts next must
look in the channel first. A tick reads only rows with ``due_at <= now``.

A case is never changed after it is written; it is removed only by an explicit delete (of the
case, or of every row of a user).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from itertools import chain
from typing import TYPE_CHECKING

from . import keys
from . import sql as q
from .batch import Batched
from .calls import Calls, case_steps, member_steps
from .deadline import deadlined
from .driver import Driver, Params, Rows
from .forms import place_json, stored_text
from .location import Location
from .quizzes import Quizzes
from .remembered import Readers
from .rows import Sealed, case_of, case_params, case_stored, note_of, options_params
from .sealing import seal_birth, seal_text
from .values import (
    Case,
    CaseNote,
    GuildOptions,
    NewCase,
    Profile,
    Shards,
    epoch,
    from_epoch,
    new_case_id,
)

if TYPE_CHECKING:  # the daily posts' values load with their first read (bot.store.schedule_values)
    from .schedule_values import Claimed, ScheduleRow

__all__ = ["ID_TRIES", "Store", "storable"]

ID_TRIES = 8  # random case ids tried before giving up (a clash is 1 in 2**30 per try)


def storable(value: str | None) -> None:
    """Refuse text one backend cannot keep (PostgreSQL's text holds no NUL; SQLite's would), so both
    refuse it alike: ValueError. The bot refuses it earlier, with a message (bot.casebook.privacy)."""
    if value is not None and "\x00" in value:
        raise ValueError("text with a NUL character (U+0000) is not stored")


@deadlined
class Store(Quizzes, Calls):
    """What the bot keeps. Every method is safe to call from the event loop, and answers within
    ``deadline.DEADLINE`` seconds of being called (else StoreUnavailable: bot.store.deadline)."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        # The options and profiles every /cast reads, remembered and read together
        # (bot.store.remembered); the cases of casts made together written in one transaction
        self._readers = Readers(driver)
        self._cases = Batched(self._insert_together)
        self._member_keys = keys.MemberKeys(driver, self._readers)

    @property
    def location(self) -> Location:
        """Where the data lives (printed at start; the command-sync state is kept beside it)."""
        return self.driver.location

    async def close(self) -> None:
        """Finish the writes under way, then release the connection(s); further calls fail."""
        try:
            await self._cases.close()
            await self._readers.close()
        finally:
            await self.driver.close()

    async def seal_plaintext(self) -> int:
        """Seal the rows written before personal fields were sealed (once; bot.store.keys); how many."""
        return await self._member_keys.seal_old_rows()

    async def _insert_together(self, steps: Sequence[tuple[str, Params]]) -> list[Rows]:
        """The cases written together (the ``INSERT_CASE`` steps) in a few statements of many rows
        (``sql.pieces``), after the keys made for them (the other steps, run as they are), in one
        transaction; each case step's rows are its case's (id, seq), or none when its id was taken
        (before, or by an earlier step); each other step's, its own."""
        cases = [n for n, (statement, _) in enumerate(steps) if statement == q.INSERT_CASE]
        others = [n for n, (statement, _) in enumerate(steps) if statement != q.INSERT_CASE]
        params = [steps[n][1] for n in cases]
        statements = [steps[n] for n in others]
        statements += [(q.insert_cases(len(part)), tuple(chain.from_iterable(part))) for part in q.pieces(params)]
        # Flushed: the id a /cast shows is on the disk (PostgreSQL's synchronous commit), so no crash of
        # the server or the machine takes it back; the batch makes one commit's wait serve every cast in it.
        written = await self.driver.fetch_batch(statements)
        results: list[Rows] = [[] for _ in steps]
        for n, rows in zip(others, written[:len(others)], strict=True):
            results[n] = rows
        stored = {str(row[0]): row for rows in written[len(others):] for row in rows}
        for n, p in zip(cases, params, strict=True):
            row = stored.pop(str(p[0]), None)
            results[n] = [] if row is None else [row]
        return results

    # -- server settings (one row per server) ---------------------------------------------------

    async def guild_options(self, guild_id: int) -> GuildOptions:
        """The server's settings (all unset for a server that never chose)."""
        return (await self.reader(guild_id, None))[0]

    async def reader(self, guild_id: int | None, user_id: int | None) -> tuple[GuildOptions, Profile | None]:
        """The server's settings (all unset outside a server: ``guild_id`` None) and the user's
        profile (None without one, or for ``user_id`` None): those not remembered are
        read in one trip to the database."""
        return await self._readers.read(guild_id, user_id)

    async def set_guild_options(self, guild_id: int, options: GuildOptions) -> None:
        """Replace the server's settings."""
        self._readers.options.forget(guild_id)
        try:
            await self.driver.execute(q.SET_GUILD_OPTIONS, options_params(guild_id, options))
        finally:
            self._readers.options.forget(guild_id)

    # -- daily posts ----------------------------------------------------------------------------

    async def put_schedule(
        self, guild_id: int, channel_id: int, post_time: str, timezone: str, locale: str, since: datetime,
        due_at: int | None, due_day: date | None,
    ) -> int:
        """Create or replace the channel's schedule with its next due time; re-enables it and keeps
        last_posted. A row being posted right now keeps its lease. Returns the id."""
        stamp = since.astimezone(UTC).isoformat()
        rows = await self.driver.fetch(
            q.PUT_SCHEDULE, (guild_id, channel_id, post_time, timezone, locale, stamp, due_at, q.iso(due_day))
        )
        await self.driver.note_used("schedules")
        return int(rows[0][0])

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        """All schedules (of one server, if given), bad rows included, ordered by id."""
        rows = await (self.driver.fetch(q.ALL) if guild_id is None else self.driver.fetch(q.OF_GUILD, (guild_id,)))
        return tuple(q.row_of(r) for r in rows)

    async def schedules_page(self, after_id: int, limit: int) -> tuple[ScheduleRow, ...]:
        """Up to `limit` schedules with ids above `after_id`, ordered by id (to walk every row)."""
        return tuple(q.row_of(r) for r in await self.driver.fetch(q.PAGE, (after_id, limit)))

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        """Delete the server's schedules (only the channel's, if given); returns how many."""
        if channel_id is None:
            return await self.driver.execute(q.DELETE_GUILD, (guild_id,))
        return await self.driver.execute(q.DELETE_CHANNEL, (guild_id, channel_id))

    async def claim_due(
        self, now: datetime, lease_until: datetime, token: str, shards: Shards | None, limit: int
    ) -> tuple[Claimed, ...]:
        """Lease up to `limit` enabled rows with due_at <= now (of `shards`' guilds): each is
        returned to exactly one caller, and becomes due again at `lease_until` unless confirmed
        or released. Reads only due rows (an index range)."""
        return await self.driver.claim(epoch(now), epoch(lease_until), token, shards, limit)

    async def confirm(
        self, schedule_id: int, token: str, day: date, message_id: int | None, error: str | None,
        due_at: int | None, due_day: date | None,
    ) -> bool:
        """The post for `day` is done (or deliberately given up): record it and the next due time.
        False when the lease was no longer ours (nothing changed)."""
        params = (day.isoformat(), message_id, error, due_at, q.iso(due_day), schedule_id, token)
        return await self.driver.execute(q.CONFIRM, params) == 1

    async def release(self, schedule_id: int, token: str, retry_at: int, error: str | None, unsure: bool) -> None:
        """Give the lease back, due again at `retry_at`; `unsure` False only when nothing was sent."""
        await self.driver.execute(q.RELEASE, (retry_at, error, int(unsure), schedule_id, token))

    async def reschedule(self, schedule_id: int, due_at: int | None, due_day: date | None,
                         token: str | None = None) -> None:
        """Set the next due time (with `token`: only while our lease holds)."""
        if token is None:
            await self.driver.execute(q.RESCHEDULE, (due_at, q.iso(due_day), schedule_id))
        else:
            await self.driver.execute(q.RESCHEDULE_HELD, (due_at, q.iso(due_day), schedule_id, token))

    async def unscheduled(self, after_id: int = 0, limit: int | None = None) -> tuple[ScheduleRow, ...]:
        """Enabled rows with no due time (rows from before due times were stored, or bad rows),
        with ids above `after_id`, at most `limit`, ordered by id."""
        params = (after_id, q.NO_LIMIT if limit is None else limit)
        return tuple(q.row_of(r) for r in await self.driver.fetch(q.UNSCHEDULED, params))

    async def reschedule_many(self, items: Sequence[tuple[int, int | None, date | None]]) -> None:
        """`reschedule` for many (id, due_at, due_day) at once; rows under lease are left alone."""
        await self.driver.execute_many(q.RESCHEDULE, [(due_at, q.iso(day), sid) for sid, due_at, day in items])

    async def next_due(self, shards: Shards | None) -> datetime | None:
        """The earliest due_at among enabled rows of `shards`' guilds (an index lookup)."""
        where, params = q.shard_filter(shards)
        rows = await self.driver.fetch(q.NEXT_DUE + where + q.NEXT_DUE_ORDER, params)
        return None if not rows or rows[0][0] is None else from_epoch(int(rows[0][0]))

    async def disable(self, schedule_id: int, reason: str) -> None:
        """Stop posting for the schedule, keeping the reason for /daily show."""
        await self.driver.execute(q.DISABLE, (reason, schedule_id))

    async def enable(self, schedule_id: int, due_at: int | None, due_day: date | None) -> None:
        """Clear a disabled reason (e.g. after a successful test post) and schedule it again."""
        await self.driver.execute(q.ENABLE, (due_at, q.iso(due_day), schedule_id))

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        """Record (or clear, with None) the last delivery error without disabling."""
        await self.driver.execute(q.NOTE_ERROR, (error, schedule_id))

    async def meta(self, key: str) -> str | None:
        """A small stored fact (e.g. the zone data the due times were computed with)."""
        rows = await self.driver.fetch(q.META, (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.driver.execute(q.SET_META, (key, value))

    # -- the casebook (/case, /history) and profiles ------------------------------------------------

    async def add_case(self, new: NewCase) -> Case:
        """Record a cast under a new random id (a clash is retried); returns it once stored (committed,
        maybe in one transaction with other casts made at the same time)."""
        storable(new.question)
        # A key the member has not yet is made here and stored in the case's transaction: one commit.
        sealing = await self._member_keys.for_write(new.author_id,
                                                    case=new.question is not None or new.place is not None,
                                                    birth=new.birth_year is not None or new.sex is not None)
        for _ in range(ID_TRIES):
            case_id = new_case_id()
            steps = (*sealing.steps, (q.INSERT_CASE, case_params(case_id, new, _sealed(sealing, case_id, new))))
            *returned, rows = await _all([self._cases.submit(statement, params) for statement, params in steps])
            stored = sealing.stored(returned)
            if rows and stored != replace(sealing, steps=()):  # another write stored the member's key first
                await self.driver.execute(q.RESEAL_CASE, (*_sealed(stored, case_id, new), case_id))
            if rows:
                # An emptied or vanished SQLite file is then refused, not silently replaced.
                await self.driver.note_used("cases")
                return case_stored(case_id, int(rows[0][1]), new)
            sealing = stored
        raise RuntimeError("no free case id after several tries")

    async def case(self, case_id: str) -> Case | None:
        rows = await self.driver.fetch(q.CASE, (case_id,))
        return case_of(rows[0]) if rows else None

    async def cases_by_author(self, author_id: int, offset: int, limit: int) -> tuple[Case, ...]:
        """The author's cases, newest first (index cases_author)."""
        return tuple(case_of(r) for r in await self.driver.fetch(q.BY_AUTHOR, (author_id, limit, offset)))

    async def delete_case(self, case_id: str) -> bool:
        """Delete a case, its notes, its calls and its outcome (one transaction); False when there was no such case."""
        *_, gone = await self.driver.transaction([*case_steps(case_id), (q.DELETE_CASE_NOTES, (case_id,)),
                                                  (q.DELETE_CASE, (case_id,))])
        return gone == 1

    async def add_note(self, case_id: str, author_id: int, body: str, at: int, *, limit: int | None = None,
                       source: int | None = None) -> CaseNote | None:
        """Add a note; with `limit`, only while the case has fewer notes (None: at the cap, nothing
        added). With `source` (the interaction that sent it, and a `limit`), a second delivery adds
        nothing and returns the note the first one added."""
        storable(body)
        key, _ = await self._member_keys.of(author_id, case=True)
        sealed = seal_text(key, body, f"n:{case_id}") if key is not None else None
        if limit is None:
            rows = await self.driver.fetch(q.ADD_NOTE, (case_id, author_id, "", sealed, at))
        else:
            params = (case_id, author_id, "", sealed, at, source, case_id, limit)
            rows = await self.driver.fetch(q.ADD_NOTE_CAPPED, params)
            if not rows and source is not None:
                found = await self.driver.fetch(q.NOTE_FROM, (source,))
                return note_of(found[0]) if found else None
        return replace(note_of(rows[0]), body=body) if rows else None

    async def edit_note(self, note_id: int, case_id: str, author_id: int, body: str, at: int) -> bool:
        """Replace a note's text; only its author's, on that case (False: nothing changed)."""
        storable(body)
        key, _ = await self._member_keys.of(author_id, case=True)
        sealed = seal_text(key, body, f"n:{case_id}") if key is not None else None
        return await self.driver.execute(q.EDIT_NOTE, ("", sealed, at, note_id, case_id, author_id)) == 1

    async def case_notes(self, case_ids: Sequence[str]) -> tuple[CaseNote, ...]:
        """The notes of these cases, by case and then oldest first."""
        if not case_ids:
            return ()
        return tuple(note_of(r) for r in await self.driver.fetch(q.notes_of(len(case_ids)), tuple(case_ids)))

    async def profile(self, user_id: int) -> Profile | None:
        return (await self.reader(None, user_id))[1]

    async def set_profile(self, profile: Profile) -> None:
        self._readers.profiles.forget(profile.user_id)
        try:
            _, key = await self._member_keys.of(profile.user_id, birth=True)
            assert key is not None
            sealed = seal_birth(key, profile.birth_year, profile.sex, f"p:{profile.user_id}",
                                None if profile.zone is None else stored_text(profile.zone),
                                None if profile.place is None else stored_text(profile.place))
            await self.driver.execute(q.SET_PROFILE, (profile.user_id, 0, "", None, sealed))
        finally:
            self._readers.profiles.forget(profile.user_id)

    async def delete_profile(self, user_id: int) -> bool:
        """Delete the profile and the birth year and sex of every case the user cast (public,
        private, DM; one transaction); False when there was no profile (birth data is cleared anyway)."""
        self._readers.profiles.forget(user_id)
        try:
            gone, *_ = await self.driver.transaction([
                (q.DELETE_PROFILE, (user_id,)), (q.FORGET_BIRTH, (user_id,)), (keys.DROP_BIRTH_KEY, (user_id,)),
                (keys.PRUNE_KEYS, (user_id,)),
            ])
        finally:
            self._readers.profiles.forget(user_id)
        await self._member_keys.rewrite()
        return gone == 1

    async def delete_user_cases(self, user_id: int) -> int:
        """Delete every case the user authored, the notes, calls and outcomes on them, every note the
        user wrote and their calls (one seen by others stays as withdrawn: bot.store.calls); returns
        how many cases (one transaction)."""
        *_, gone, _, _ = await self.driver.transaction([
            *member_steps(user_id), (q.DELETE_USER_NOTES, (user_id, user_id)), (q.DELETE_USER_CASES, (user_id,)),
            (keys.DROP_CASE_KEY, (user_id,)), (keys.PRUNE_KEYS, (user_id,)),
        ])
        await self._member_keys.rewrite()
        return gone

    # -- the casebook read by keyset (/case export) and by the channels a member may see ------------

    async def cases_seen_in_guild(self, guild_id: int, viewer_id: int, channel_ids: Sequence[int], offset: int,
                                  limit: int) -> tuple[Case, ...]:
        """The server's cases `viewer_id` may see: theirs, and others' not private cast in one of
        `channel_ids` (the channels they may read); newest first (index cases_guild)."""
        params = (guild_id, viewer_id, *channel_ids, limit, offset)
        return tuple(case_of(r) for r in await self.driver.fetch(q.seen_in_guild(len(channel_ids)), params))

    async def cases_by_author_before(self, author_id: int, before: int, limit: int) -> tuple[Case, ...]:
        """The author's cases with seq below `before`, newest first (a keyset page; index cases_author)."""
        return tuple(case_of(r) for r in await self.driver.fetch(q.MINE_BEFORE, (author_id, before, limit)))

    async def others_cases_before(self, guild_id: int, viewer_id: int, channel_ids: Sequence[int], before: int,
                                  limit: int) -> tuple[Case, ...]:
        """Others' cases of the server, not private, cast in one of `channel_ids`, with seq below
        `before`, newest first (a keyset page; index cases_guild)."""
        params = (guild_id, viewer_id, *channel_ids, before, limit)
        return tuple(case_of(r) for r in await self.driver.fetch(q.others_before(len(channel_ids)), params))


def _sealed(sealing: keys.Sealing, case_id: str, new: NewCase) -> Sealed:
    """The case's question, birth data and place sealed under the keys of ``sealing`` (None: no such data)."""
    case_key, place = sealing.case_key, None if new.place is None else place_json(new.place)
    return (None if case_key is None else seal_text(case_key, new.question, f"q:{case_id}"),
            None if sealing.birth_key is None else seal_birth(sealing.birth_key, new.birth_year, new.sex,
                                                              f"b:{case_id}"),
            None if case_key is None else seal_text(case_key, place, f"w:{case_id}"))


async def _all(writes: Sequence[asyncio.Future[Rows]]) -> list[Rows]:
    """The rows of writes submitted to one batch (they commit or fail together): the first error
    raised, every other one retrieved."""
    done = await asyncio.gather(*writes, return_exceptions=True)
    for result in done:
        if isinstance(result, BaseException):
            raise result
    return [result for result in done if not isinstance(result, BaseException)]
