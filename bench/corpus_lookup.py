"""What the corpus's lookups cost: the calls one reading makes, a /lookup search, and the load.

    python bench/corpus_lookup.py

"One reading's lookups" is what texts/reading.py asks of the corpus for one chart: the method
rule, three pattern verses, and for each of the three 伝 the general's opening and its name line.
Prints the median of several rounds (µs per call); nothing here is asserted.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from texts.corpus import DATA, canonical_general, corpus, load

C = corpus()
STEPS = (("朱雀", "午"), ("白虎", "巳"), ("天空", "子"))


def one_reading() -> None:
    C.method("重審")
    for name in ("元首", "龍首", "富貴"):
        C.pattern(name)
    for general, ground in STEPS:
        canonical_general(general)
        C.general(general)
        C.general_on(general, ground)


def simplified_search() -> None:
    C.search("贵人")


def load_once() -> None:
    load(DATA)


def median_us(fn: Callable[[], None], calls: int, rounds: int = 7) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def main() -> None:
    print(f"one reading's lookups   {median_us(one_reading, 2000):9.1f} µs")
    print(f"search('贵人')           {median_us(simplified_search, 500):9.1f} µs  (hits: {len(C.search('贵人'))})")
    print(f"load corpus.toml        {median_us(load_once, 5, rounds=3) / 1000:9.1f} ms")


if __name__ == "__main__":
    main()
