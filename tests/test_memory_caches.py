"""What the memory work promises: charts share their parts without changing, the caches are
bounded by what their entries weigh, and a long text of the picture is kept only once it recurs."""

from __future__ import annotations

import sys

from bot.reply import chart as embeds
from bot.reply.kept import remembered_reply
from engine import chart as engine_chart
from engine.chart import cast_classical
from engine.symbols import BRANCHES, PILLARS
from texts.corpus import corpus
from texts.matters.values import answer
from texts.memo import LRU, Recurring, size_of
from texts.reading import match as reading


def test_charts_of_one_day_and_plate_share_their_lessons_and_transmissions() -> None:
    one, other = cast_classical("甲子", "亥", "午"), cast_classical("甲子", "子", "未")  # the same plate
    assert one.plate == other.plate and one.hour != other.hour
    assert one.transmissions is other.transmissions and one.lessons is other.lessons
    assert one.generals is other.generals and one.steps is other.steps  # 午 and 未 are both 晝 hours
    night = cast_classical("甲子", "辰", "亥")  # the same plate at a 夜 hour: another 貴人
    assert night.plate == one.plate and night.generals != one.generals and night.transmissions is one.transmissions


def test_shared_parts_give_the_charts_a_fresh_build_gives() -> None:
    inputs = [(PILLARS[i % 60], BRANCHES[(i * 5) % 12], BRANCHES[(i * 7) % 12]) for i in range(300)]
    shared = [cast_classical(*x) for x in inputs]
    engine_chart.clear_cache()
    fresh = [cast_classical(*x) for x in inputs[::-1]][::-1]  # built again, in the other order
    assert shared == fresh
    assert all(a is not b for a, b in zip(shared, fresh, strict=True))


def test_a_weight_given_to_put_bounds_the_cache() -> None:
    kept = LRU[str, str](10)
    kept.put("a", "x", 6)
    kept.put("b", "y", 3)
    assert kept.weight == 9 and len(kept) == 2
    kept.put("c", "z", 4)  # 13 > 10: the least recently used goes
    assert sorted(kept.keys()) == ["b", "c"] and kept.weight == 7


def test_size_of_counts_each_object_once_and_not_what_is_shared() -> None:
    text = "x" * 100
    assert size_of((text, text)) == sys.getsizeof((text, text)) + sys.getsizeof(text)
    unit = corpus().get("pattern.卦名")
    assert size_of((unit,), (type(unit),)) == sys.getsizeof((unit,))
    assert size_of({"k": [1, 2]}) == sys.getsizeof({"k": [1, 2]}) + sys.getsizeof("k") + sys.getsizeof([1, 2])


def test_a_value_asked_for_once_is_made_and_let_go_and_kept_when_asked_again() -> None:
    made: list[str] = []
    recurring = Recurring[str, str](100)

    def make() -> str:
        made.append("x")
        return "value"

    assert recurring.get("k", make, len) == "value" and len(recurring) == 0
    assert recurring.get("k", make, len) == "value" and len(recurring) == 1
    assert recurring.get("k", make, len) == "value" and len(made) == 2  # the third from the cache
    for n in range(40):  # 40 more values of 5 bytes, each asked for twice: only 100 bytes' worth stay
        recurring.get(f"k{n}", make, len)
        recurring.get(f"k{n}", make, len)
    assert recurring.weight <= 100 and len(recurring) == 20


def test_the_text_caches_stay_within_their_budgets_and_give_what_a_fresh_read_gives() -> None:
    charts = [cast_classical(PILLARS[i % 60], BRANCHES[i % 12], BRANCHES[(i * 7) % 12]) for i in range(260)]
    for c in charts:
        remembered_reply(c, locale="ja")
    assert 0 < reading._CACHE.weight <= reading.BUDGET and len(reading._CACHE) < len(charts)
    assert 0 < embeds._FIELDS.weight <= embeds.BUDGET and 0 < embeds._CHART_PIECES.weight <= embeds.BUDGET
    last = charts[-1]
    cached = reading.read(last)
    assert reading._CACHE.get(cached.key) is not None
    assert cached.entries == reading.read(last, texts=corpus()).entries  # texts= bypasses the cache


def test_the_readings_sampled_weights_stay_near_what_they_hold() -> None:
    # texts.reading weighs a sample of its entries (texts.memo.Sampled), the rest the moving
    # mean; the sum stays near the truth after heavy readings (all fifteen matters asked, the answer's
    # general reading carrying what they quoted) give way to plain ones, and in a mix of both.
    question = "上司 怖 手紙 婚 裁判 お金 秘密 母 盗 宴 仕事 旅 病 嘘 妊娠"
    for phase in ("heavy", "plain", "mixed"):
        for i in range(300):
            c = cast_classical(PILLARS[(i * 7) % 60], BRANCHES[i % 12], BRANCHES[(i * 5) % 12])
            if phase == "heavy" or (phase == "mixed" and i % 3 == 0):
                answer(c, question=question)
            else:
                reading.read(c)
        exact = sum(size_of((k, v), reading._SHARED) for k, v in reading._CACHE._items.items())
        kept = reading._CACHE.weight
        assert len(reading._CACHE) > 30 and abs(kept - exact) <= 0.1 * exact, (phase, kept, exact)
