"""One worker thread for the bot's CPU work off the event loop: drawing charts, composing posts.

``asyncio.to_thread`` spreads work over the default executor's threads, and glibc gives each thread
its own malloc arena: pictures drawn on six threads held ~30 MB more than the same pictures drawn on
one. A single worker keeps one arena (and keeps two drawings from competing for the two cores with
the event loop); the work it does is a few milliseconds per chart.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["off_loop"]

_P = ParamSpec("_P")
_T = TypeVar("_T")
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="liuren-worker")


async def off_loop(work: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``work(*args, **kwargs)`` on the bot's worker thread and wait for its result."""
    return await asyncio.get_running_loop().run_in_executor(_WORKER, functools.partial(work, *args, **kwargs))
