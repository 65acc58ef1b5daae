"""A test's casebook filled with thousands of cases, as fast as the store writes them, within its
deadline.

The store writes the casts made together in one shared transaction (bot.store.batch), so adding
cases together is far quicker than one commit after another. But each call is answered within the
store's deadline of when it was made, queue time included (bot.store.deadline): queued all at once,
the last of thousands may not be answered in time on a slow, loaded machine. ``add_all`` keeps at
most a batch's worth in flight, the next call made as one is answered, so the batches stay full.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from bot.store import Case, NewCase, Store
from bot.store.batch import BATCH_MAX

__all__ = ["add_all"]


async def add_all(store: Store, cases: Iterable[NewCase]) -> list[Case]:
    """``cases`` stored, at most ``BATCH_MAX`` in flight at once; returns them as stored, in order."""
    room = asyncio.Semaphore(BATCH_MAX)

    async def add(new: NewCase) -> Case:
        async with room:
            return await store.add_case(new)

    return list(await asyncio.gather(*(add(new) for new in cases)))
