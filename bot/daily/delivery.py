"""The daily-post service: a scheduler that leases due schedules and one delivery task per post.

The /daily cog (bot.daily.cog) creates one `Delivery` in ``cog_load`` and stops it in
``cog_unload``; its commands only edit schedules and wake it. When posts fall due is decided in
bot.daily.schedule (pure), what a post says in bot.daily.compose; this module claims, sends and
records them.

The guarantee (docs/admin.md): every scheduled local day is posted once. A claim is a lease
that expires unless the post is confirmed; every attempt at one day's post carries the same
nonce with ``enforce_nonce``, so Discord answers a repeat with the message it already stored;
a process taking over a lease whose holder may have sent looks for the bot's own post in the
channel's recent messages first and records it instead of posting again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import uuid
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Literal

import discord

from bot.core.config import DeliveryConfig
from bot.core.words import language_of
from bot.core.worker import off_loop
from bot.core.zones import zone_data_version
from bot.reply.picture import drawn
from bot.store import Shards, Store, epoch

from .compose import Post, compose, with_picture, without_picture
from .failures import Pace, describe, is_gone, is_transient, may_have_arrived
from .notice import ShardWatch, tell_setter
from .publish import publish
from .schedule import BadRow, Plan, due_times, next_post, nonce, plan_of
from .sender import Attempt, Sender

if TYPE_CHECKING:
    from bot.store import Claimed

__all__ = ["Delivery", "Outcome", "compose"]

log = logging.getLogger(__name__)

Outcome = Literal["posted", "found", "rescheduled", "disabled", "retry", "skipped", "failed", "left"]

ZONE_DATA_KEY = "zone-data"
PREPARE_PAGE = 2000  # rows per page when due times are (re)computed at start
NO_PICTURE = "posted without the picture: the bot lacks Attach Files in the channel"  # shown by /daily show
LATE = timedelta(minutes=1)  # a post claimed this long after its time searches the channel first


class Delivery:
    """Leases due schedules and posts each in its own task; see the module doc for the guarantee."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        clock: Callable[[], datetime],
        config: DeliveryConfig,
        shards: Shards | None = None,
        site_url: str | None = None,
    ) -> None:
        self.client = client
        self.site_url = site_url  # LIUREN_SITE_URL: a post links to its chart's page
        self.store = store
        self.clock = clock
        self.config = config
        self.shards = shards
        self.wakeup = asyncio.Event()
        self.ticks = 0  # loop iterations completed (tests wait on it)
        self._process = uuid.uuid4().hex[:12]
        self._serial = itertools.count(1)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Outcome]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._stopping = False
        self._reported: set[tuple[int, str]] = set()
        self._sender = Sender(client, Pace(config.requests_per_second))
        self._shards = ShardWatch(store, shards)

    # -- lifecycle ----------------------------------------------------------------------------

    def now(self) -> datetime:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return an aware datetime")
        return now

    @property
    def busy(self) -> bool:
        """Whether the loop has been woken, is running a tick, or posts are in flight."""
        return self.wakeup.is_set() or self._lock.locked() or bool(self._tasks)

    def changed(self) -> None:
        """A schedule was added, changed or removed: look again now."""
        self.wakeup.set()

    def start(self) -> None:
        if self._loop_task is None:
            self._loop_task = asyncio.create_task(self._loop(), name="liuren-daily")

    async def stop(self) -> None:
        """Stop claiming; let sends in flight finish (up to stop_grace s); cancel the rest, which
        give back only leases of posts that surely were not sent."""
        self._stopping = True
        self.wakeup.set()
        if self._loop_task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._loop_task), 2.0)
            except (TimeoutError, asyncio.CancelledError):
                self._loop_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._loop_task
            self._loop_task = None
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=self.config.stop_grace)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)

    async def prepare(self) -> None:
        """Give a due time to rows without one (an older schema's rows), and recompute every due
        time when the zone data changed since they were computed. Walks the rows a page at a
        time and computes each page off the event loop."""
        now = self.now()
        version = zone_data_version()
        every = await self.store.meta(ZONE_DATA_KEY) != version
        after = 0
        while True:
            if every:
                page = await self.store.schedules_page(after, PREPARE_PAGE)
            else:
                page = await self.store.unscheduled(after, PREPARE_PAGE)
            if not page:
                break
            after = page[-1].id
            items, bad = await asyncio.to_thread(due_times, page, now)
            for problem in bad:
                self.report_bad(problem)
            await self.store.reschedule_many(items)
        await self.store.set_meta(ZONE_DATA_KEY, version)

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        try:
            await self.prepare()
            await self._shards.report(self.now())
        except Exception as error:
            log.error("daily: could not prepare the schedules' due times: %s", describe(error))
        while not self._stopping:
            self.wakeup.clear()  # before the run, so a wake during it is not lost
            upcoming: datetime | None = None
            try:
                upcoming = await self.run_due(wait=False)
                await self._shards.beat(self.now())
            except Exception as error:  # the database unavailable, most likely: one line, retried next tick
                log.error("daily: scheduler tick failed (retried in %.0f s): %s", self.config.max_sleep,
                          describe(error))
            self.ticks += 1
            self._beat()
            # Measured from the tick's end, so a slow tick does not make the next one late.
            delay = self.config.max_sleep
            if upcoming is not None:
                delay = min(delay, max(0.05, (upcoming - self.now()).total_seconds()))
            if len(self._tasks) >= self.config.max_in_flight:
                delay = self.config.max_sleep  # a finishing post wakes the loop
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wakeup.wait(), delay)

    def _beat(self) -> None:
        if self.config.heartbeat is not None:
            try:
                self.config.heartbeat.touch()
            except OSError as error:  # a health file we cannot write must not stop the posts
                log.warning("daily: cannot touch the health file %s: %s", self.config.heartbeat, error.strerror)

    # -- the scheduler ------------------------------------------------------------------------

    async def run_due(self, now: datetime | None = None, *, wait: bool = True) -> datetime | None:
        """Lease every post due at `now` (default: the clock) for this process's guilds and start
        its delivery; with `wait`, return once they are done. Returns the next due instant."""
        async with self._lock:
            now = now if now is not None else self.now()
            started: list[asyncio.Task[Outcome]] = []
            free = self.config.max_in_flight - len(self._tasks)
            if free > 0 and not self._stopping:
                token = f"{self._process}-{next(self._serial)}"
                for claimed in await self.store.claim_due(now, now + self.config.lease, token, self.shards, free):
                    task = asyncio.create_task(self._deliver(claimed, now), name=f"liuren-post-{claimed.row.id}")
                    self._tasks.add(task)
                    task.add_done_callback(self._finished)
                    started.append(task)
        if wait and started:
            await asyncio.wait(started)
        return await self.store.next_due(self.shards)

    def _finished(self, task: asyncio.Task[Outcome]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("daily: a delivery failed unexpectedly", exc_info=task.exception())
        if not self._stopping:
            self.wakeup.set()  # a slot is free, and the row has a new due time

    def report_bad(self, bad: BadRow) -> None:
        key = (bad.row.id, bad.problem)
        if key not in self._reported:  # once per process, not every tick
            self._reported.add(key)
            log.error(
                "daily: schedule id=%d (guild %d, channel %d) is unreadable and is skipped: %s",
                bad.row.id, bad.row.guild_id, bad.row.channel_id, bad.problem,
            )

    # -- one post -----------------------------------------------------------------------------

    async def _deliver(self, claimed: Claimed, now: datetime) -> Outcome:
        row, token = claimed.row, claimed.token
        plan = plan_of(row)
        if isinstance(plan, BadRow):
            self.report_bad(plan)
            await self.store.reschedule(row.id, None, None, token)
            await self.store.note_error(row.id, plan.problem)
            return "failed"
        due = next_post(now, plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        if due.instant > now:  # the owed day is over, or the stored due time was early: nothing owed now
            await self.store.reschedule(plan.id, epoch(due.instant), due.day, token)
            return "rescheduled"
        state = Attempt()
        try:
            return await self._post(claimed, plan, due.day, due.instant, state)
        except asyncio.CancelledError:
            # Shutdown beyond the grace period. A post that may have reached Discord keeps its
            # lease: whoever takes it over after expiry looks in the channel first.
            if state.in_flight or state.maybe_sent or state.first_id is not None:
                log.warning("daily: schedule id=%d post for %s left to its lease (may be sent)", plan.id, due.day)
            else:
                unsure = claimed.was_unsure and not state.checked
                await asyncio.shield(self.store.release(plan.id, token, epoch(now), plan.last_error, unsure))
            raise

    def _next(self, plan: Plan, day: date) -> tuple[int, date]:
        following = next_post(self.now(), plan.at, plan.zone, last_posted=day, since=plan.since)
        return epoch(following.instant), following.day

    async def _compose(self, plan: Plan, at: datetime) -> Post:
        """The post with the server's settings (/settings): school, reply language, picture."""
        options = await self.store.guild_options(plan.guild_id)  # the one settings read per post
        locale = options.language or plan.locale
        image = options.image is not False and self.can_attach(plan)
        post = await off_loop(compose, at, plan.zone, locale, options.chosen_school, self.site_url)
        if not image:
            return post
        # Drawn where /cast's pictures are (the drawing process, where there is one), kept for the 時.
        return with_picture(post, await drawn(post.chart, theme="dark", lang=language_of(locale)))

    def can_attach(self, plan: Plan) -> bool:
        """Whether the bot may upload the picture to the channel (as far as the gateway has told it)."""
        channel = self.client.get_channel(plan.channel_id)
        if not isinstance(channel, discord.abc.GuildChannel):
            return True
        return channel.permissions_for(channel.guild.me).attach_files

    async def _post(self, claimed: Claimed, plan: Plan, day: date, at: datetime, state: Attempt) -> Outcome:
        token = claimed.token
        state.text_only = not self.can_attach(plan)
        try:
            post = await self._compose(plan, at)
        except Exception as error:
            log.exception("daily: cannot compose the chart for schedule id=%d", plan.id)
            await self._release(plan, token, f"chart: {describe(error)}", claimed.was_unsure)
            return "retry"
        # A post that may have gone out already, or a late one (after a restart, or on a database
        # restored from a backup that does not know today's post), is looked for first.
        if claimed.was_unsure or self.now() - at > LATE:
            try:
                found = await self._sender.find_posted(plan.channel_id, post.content, self.config.history)
            except Exception as error:
                return await self._failed(plan, token, day, error, claimed.was_unsure, state)
            state.checked = True
            if found is not None:
                due_at, due_day = self._next(plan, day)
                await self.store.confirm(plan.id, token, day, found, None, due_at, due_day)
                log.info("daily: schedule id=%d post for %s was already in the channel; recorded", plan.id, day)
                await publish(self.client, self.store, plan, [found])  # unless it was (Discord says so)
                return "found"
        for index in range(len(post.messages)):
            try:
                message_id = await self._send(plan, day, index, post, state)
            except Exception as error:
                if index > 0:  # the post is out in part: never repeat it, record what happened
                    reason = f"{describe(error)} (after {index} of {len(post.messages)} messages)"
                    due_at, due_day = self._next(plan, day)
                    await self.store.confirm(plan.id, token, day, state.first_id, reason, due_at, due_day)
                    log.error("daily: schedule id=%d post for %s incomplete: %s", plan.id, day, reason)
                    return "failed"
                return await self._failed(plan, token, day, error, claimed.was_unsure, state)
            if index == 0:
                state.first_id = message_id
            state.sent.append(message_id)
        due_at, due_day = self._next(plan, day)
        note = NO_PICTURE if state.text_only else None
        if not await self.store.confirm(plan.id, token, day, state.first_id, note, due_at, due_day):
            log.warning("daily: schedule id=%d lease for %s expired before the post was confirmed", plan.id, day)
        log.info("daily: posted schedule id=%d for %s in channel %d", plan.id, day, plan.channel_id)
        await publish(self.client, self.store, plan, state.sent)  # only once recorded: never a second post
        return "posted"

    async def _failed(
        self, plan: Plan, token: str, day: date, error: Exception, was_unsure: bool, state: Attempt
    ) -> Outcome:
        reason = describe(error)
        if is_gone(error):
            await self.store.disable(plan.id, reason)
            log.warning("daily: schedule id=%d disabled (channel %d): %s", plan.id, plan.channel_id, reason)
            await tell_setter(self.client, self.store, plan, reason)
            return "disabled"
        if is_transient(error):
            unsure = state.maybe_sent or (was_unsure and not state.checked)
            await self._release(plan, token, f"{reason} (after {self.config.attempts} attempts)", unsure)
            log.warning("daily: schedule id=%d post for %s will be retried: %s", plan.id, day, reason)
            return "retry"
        # The request itself is wrong (a 4xx other than 403/404): the same day cannot succeed.
        due_at, due_day = self._next(plan, day)
        await self.store.confirm(plan.id, token, day, None, reason, due_at, due_day)
        log.error("daily: schedule id=%d post for %s failed and is skipped: %s", plan.id, day, reason)
        return "skipped"

    async def _release(self, plan: Plan, token: str, reason: str, unsure: bool) -> None:
        retry_at = epoch(self.now() + self.config.retry_after)
        await self.store.release(plan.id, token, retry_at, reason, unsure)

    async def _send(
        self, plan: Plan, day: date, index: int, post: Post, state: Attempt,
    ) -> int:
        """Send one message of the post, retrying transient errors with backoff and the same
        nonce; returns its id, or raises the last error."""
        content = post.content if index == 0 else None
        embeds = post.messages[index]
        view = post.view() if index == 0 else None
        for attempt in range(1, self.config.attempts + 1):
            try:
                upload = post.file() if index == 0 and not state.text_only else None
                data = await self._sender.send(plan.channel_id, content, embeds, nonce(plan.id, day, index), state,
                                             upload, view)
                return int(data["id"])
            except discord.Forbidden as error:
                if upload is None:
                    raise
                # Attach Files withdrawn: the same message without the picture (a 403 stored nothing).
                log.warning("daily: schedule id=%d: %s on the upload; posting without the picture", plan.id,
                            describe(error))
                state.text_only, embeds = True, without_picture(embeds)
                data = await self._sender.send(plan.channel_id, content, embeds, nonce(plan.id, day, index), state,
                                             view=view)
                return int(data["id"])
            except Exception as error:
                if may_have_arrived(error):
                    state.maybe_sent = True
                if is_gone(error) or not is_transient(error) or attempt == self.config.attempts:
                    raise
                log.info("daily: schedule id=%d attempt %d failed (%s); backing off", plan.id, attempt,
                         describe(error))
                backoff = self.config.backoff
                await self.config.sleep(backoff[min(attempt, len(backoff)) - 1] if backoff else 0.0)
        raise AssertionError("unreachable")

    # -- the test post (/daily now) -----------------------------------------------------------

    async def post_now(self, plan: Plan, at: datetime) -> tuple[Outcome, str]:
        """Post the chart for `at` to the schedule's channel now (not the daily post: no lease,
        no nonce); never raises. 'posted', 'disabled' (403/404) or 'failed' with the reason."""
        try:
            post = await self._compose(plan, at)
            for index, embeds in enumerate(post.messages):
                upload = post.file() if index == 0 else None
                view = post.view() if index == 0 else None
                try:
                    await self._sender.send(plan.channel_id, post.content if index == 0 else None, embeds, None,
                                          upload=upload, view=view)
                except discord.Forbidden:
                    if upload is None:
                        raise
                    await self._sender.send(plan.channel_id, post.content, without_picture(embeds), None, view=view)
        except Exception as error:
            return ("disabled" if is_gone(error) else "failed"), describe(error)
        return "posted", ""

    async def schedule_again(self, plan: Plan) -> None:
        """Re-enable a stopped schedule from its next post on."""
        due = next_post(self.now(), plan.at, plan.zone, last_posted=plan.last_posted, since=plan.since)
        await self.store.enable(plan.id, epoch(due.instant), due.day)
        self.changed()
