"""What the corpus's lookups cost: the calls one reading makes, a /lookup search, and the load.

    python bench/corpus_lookup.py
    python bench/corpus_lookup.py --quick     # a hundredth of the calls, one round: a smoke run

"One reading's lookups" is what texts/reading/match.py asks of the corpus for one chart: the method
rule, three pattern verses, and for each of the three 伝 the general's opening and its name line.
Prints the median of several rounds (µs per call); nothing here is asserted.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/corpus_lookup.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a hundredth of the calls, one round")
    args = parser.parse_args(argv)
    scale, rounds = (100, 1) if args.quick else (1, 7)
    print(f"one reading's lookups   {median_us(one_reading, 2000 // scale, rounds):9.1f} µs")
    print(f"search('贵人')           {median_us(simplified_search, 500 // scale, rounds):9.1f} µs"
          f"  (hits: {len(C.search('贵人'))})")
    load_ms = median_us(load_once, 1 if args.quick else 5, rounds=min(rounds, 3)) / 1000
    print(f"load corpus.toml        {load_ms:9.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
