"""What a question costs a reading in CPU: the reply with a question beside the same reply without.

    python bench/matter_bench.py [--count 2000] [--rounds 5]

Both workloads read the same charts, cast from instants spread over 2000–2050 in Asia/Tokyo (each
a different chart and moment), with every cache emptied before each round, on one core, CPU time
(``time.process_time``) per reply:

- ``without``: ``texts.reading.read`` — the general reading, as /cast gives it today;
- ``with``: ``texts.matters.values.answer`` with a question (one of the §9.5 questions, in turn):
  recognition, the matter sections (R1–R10), then the general reading with the units they quoted
  referred back to;
- ``with, 15 matters``: one question naming all fifteen matters, the most a reply can carry;
- ``… + text``: the same replies written out for the terminal in Japanese (``render_matters`` and
  ``render_reading``), the path ``liuren cast --question`` takes, the sentence cache emptied too.

Casting is outside the timed part (both pay it alike). Each figure is the median over ``--rounds``
rounds, the order of the workloads rotating; the ratio is with/without (the target: ≤ 1.3×).
Not a test: timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.chart import Chart
from texts.matters import values as matter_reading
from texts.matters.sentences import render_matters
from texts.reading import match as reading
from texts.reading import sentences as present

ZONE = ZoneInfo("Asia/Tokyo")
QUESTIONS = (
    "財布をなくしました。見つかりますか？",
    "彼との結婚はうまくいきますか",
    "這場官司能贏嗎？",
    "Will my father recover from his illness?",
    "我今年能升职吗？",
)
EVERY = "上司 怖 手紙 婚 裁判 お金 秘密 母 盗 宴 仕事 旅 病 嘘 妊娠"


def clear_caches() -> None:
    """Forget every reading, so the next reply pays for everything (matter sections are not cached).

    The matter section's tables are kept (texts/matters/phrases.py's sentences, built for every value a
    chart can give; texts/matters/quotes.py's units; texts/matters/recognise.py's keywords and its folding of
    each character): they are built from the words, the corpus and the keyword file, never a chart."""
    reading._CACHE.clear()
    present.say.cache_clear()


def without(chart: Chart, _: int) -> int:
    return len(reading.read(chart).entries)


def with_question(chart: Chart, i: int) -> int:
    reply = matter_reading.answer(chart, question=QUESTIONS[i % len(QUESTIONS)])
    return len(reply.reading.entries) + len(reply.matters)


def with_every(chart: Chart, _: int) -> int:
    reply = matter_reading.answer(chart, question=EVERY)
    return len(reply.reading.entries) + len(reply.matters)


def without_text(chart: Chart, _: int) -> int:
    return len(present.render_reading(reading.read(chart), "ja"))


def with_question_text(chart: Chart, i: int) -> int:
    reply = matter_reading.answer(chart, question=QUESTIONS[i % len(QUESTIONS)])
    return len(render_matters(reply.matters, "ja")) + len(present.render_reading(reply.reading, "ja"))


def per_call(work: Callable[[Chart, int], int], charts: list[Chart]) -> float:
    """CPU µs per reply. As ``timeit`` does, the cycle collector is off while timed (after collecting
    what earlier rounds left), so one workload is not charged a full collection of another's garbage."""
    clear_caches()
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        for i, chart in enumerate(charts):
            work(chart, i)
        return (time.process_time() - start) / len(charts) * 1e6
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="replies per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    rng = random.Random(18)
    start = datetime(2000, 1, 1, tzinfo=UTC)
    moments = [
        (start + timedelta(minutes=rng.randrange(50 * 365 * 24 * 60))).astimezone(ZONE) for _ in range(args.count)
    ]
    charts = [engine.cast(m) for m in moments]
    work: dict[str, Callable[[Chart, int], int]] = {
        "without": without,
        "with": with_question,
        "with, 15 matters": with_every,
        "without + text": without_text,
        "with + text": with_question_text,
    }
    names = list(work)
    times: dict[str, list[float]] = {n: [] for n in names}
    per_call(without, charts[:50])  # warm the corpus, the words and OpenCC before timing
    per_call(with_every, charts[:50])
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(per_call(work[name], charts))
    print(f"reading CPU per reply, median of {args.rounds} rounds × {args.count} charts (cold caches)")
    for name in names:
        t = statistics.median(times[name])
        peer = "without + text" if name.endswith("text") else "without"
        print(f"  {name:<18} {t:8.0f} µs   {t / statistics.median(times[peer]):4.2f}× {peer}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
