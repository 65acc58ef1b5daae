"""The study quiz: questions whose answers are the engine's, fair choices, the reveal
quoting the trace, rounds drawn evenly by level, and the terminal loop driven through StringIO."""

from __future__ import annotations

import io
import os
import random
import re
import sys
from collections import Counter
from itertools import islice

import pytest

from engine.chart import Chart
from engine.classical import classical_charts
from engine.patterns import classify, detect
from engine.school import DEFAULT_SCHOOL, School
from engine.symbols import Branch
from engine.terms import Method
from texts.cli import main as cli_main
from texts.cli.quiz import Score, play
from texts.quiz import (
    LEVEL_TOPICS,
    Kind,
    Level,
    Question,
    Topic,
    ask,
    chart_key,
    draw,
    index,
    level_of,
    make_round,
    parse_answer,
    render_answer,
    render_board,
    render_question,
    render_reveal,
    topic_of,
    topics,
)
from texts.render import lessons, ring
from texts.words import LANGS, Lang, text, words
from texts.words.explain import chart_name, explain

KANA = re.compile(r"[\u3040-\u30ff]")
DEPTH = School(shehai_depth_first=True)
OTHER_LANGS: tuple[Lang, ...] = ("en", "zh-TW", "zh-CN")


def engine_answer(q: Question) -> object:
    """What the engine says the answer to ``q`` is, read straight off the chart."""
    t = q.chart.transmissions
    if q.kind is Kind.INITIAL:
        return t.initial
    if q.kind is Kind.MIDDLE:
        return t.middle
    if q.kind is Kind.FINAL:
        return t.final
    if q.kind is Kind.METHOD:
        return t.method
    if q.kind is Kind.GENERAL:
        branch = dict(q.prompt.values)["branch"]
        assert isinstance(branch, Branch)
        return q.chart.generals.on(branch)
    if q.kind is Kind.SPIRIT:  # where the first 類神 of the matter asked stands
        from texts.matters.table import RULES

        matter = dict(q.prompt.values)["matter"]
        return q.chart.generals.ground_of(RULES[matter].spirits[0].general)  # type: ignore[index]
    assert q.answer in {p.name for p in detect(q.chart)}
    return q.answer


def check(q: Question) -> None:
    """The marked answer is the engine's; the wrong choices are distinct, of the answer's kind, and
    never the answer (nor, for a 課体, any the chart carries or may carry)."""
    if q.kind is Kind.PATTERN:
        found = classify(q.chart)
        assert q.answer in found.names
        assert not set(q.wrong) & (set(found.names) | {u.name for u in found.undecided})
    else:
        assert q.answer == engine_answer(q)
    assert type(q.answer) is type(engine_answer(q))
    assert q.answer not in q.wrong
    assert len(set(q.wrong)) == len(q.wrong) == len(q.choices) - 1
    assert sorted(q.choices) == sorted((q.answer, *q.wrong))
    assert all(type(c) is type(q.answer) for c in q.choices)
    assert q.choices[q.number - 1] == q.answer and q.is_right(q.answer)
    assert not any(q.is_right(w) for w in q.wrong)
    assert q.topic is topic_of(q.chart)


def charts_by_method(school: School) -> dict[Method, list[Chart]]:
    by: dict[Method, list[Chart]] = {}
    for chart in classical_charts(school):
        by.setdefault(chart.transmissions.method, []).append(chart)
    return by


def test_every_method_has_charts_in_one_school_or_the_other() -> None:
    assert set(charts_by_method(DEFAULT_SCHOOL)) | set(charts_by_method(DEPTH)) == set(Method)


@pytest.mark.parametrize("school", [DEFAULT_SCHOOL, DEPTH], ids=["default", "shehai-depth"])
@pytest.mark.parametrize("kind", list(Kind))
def test_for_every_method_each_kind_marks_the_engines_answer(school: School, kind: Kind) -> None:
    rng = random.Random(13)
    for method, charts in charts_by_method(school).items():
        asked = 0
        for chart in islice(charts, 0, None, max(1, len(charts) // 12)):
            if kind is Kind.PATTERN and not classify(chart).held:
                with pytest.raises(ValueError):
                    ask(chart, kind, rng)
                continue
            q = ask(chart, kind, rng)
            check(q)
            asked += 1
        assert asked or method is Method.綴瑕, method


def test_every_classical_chart_every_kind() -> None:
    """All 1,440 charts × six kinds: no question whose answer or choices are off."""
    rng = random.Random(1440)
    count = 0
    for chart in classical_charts(DEFAULT_SCHOOL):
        for kind in Kind:
            if kind is Kind.PATTERN and not classify(chart).held:
                continue
            check(ask(chart, kind, rng))
            count += 1
    assert count > 1440 * 6 - 10


@pytest.mark.parametrize("choices", [2, 6, 12])
def test_choice_count(choices: int) -> None:
    rng = random.Random(2)
    for chart in islice(classical_charts(DEFAULT_SCHOOL), 0, None, 97):
        for kind in (Kind.INITIAL, Kind.METHOD, Kind.GENERAL, Kind.MIDDLE):
            q = ask(chart, kind, rng, choices=choices)
            assert len(q.choices) == choices
            check(q)
    with pytest.raises(ValueError):
        ask(chart, Kind.INITIAL, rng, choices=13)


def test_plausible_wrong_choices() -> None:
    """The lessons' other candidates and the method's neighbours come first among the wrong choices."""
    rng = random.Random(3)
    for chart in classical_charts(DEFAULT_SCHOOL):
        t = chart.transmissions
        others = [c for c in t.candidates if c != t.initial]
        if others:
            q = ask(chart, Kind.INITIAL, rng)
            assert set(others[:3]) <= set(q.wrong)
    for chart in index()[Topic.見機][:10]:
        q = ask(chart, Kind.METHOD, rng)
        assert {Method.察微, Method.綴瑕} <= set(q.wrong)
    # 渉害 as a method is the depth school's: never a wrong choice where that option is off
    for chart in islice(classical_charts(DEFAULT_SCHOOL), 0, None, 7):
        assert Method.渉害 not in ask(chart, Kind.METHOD, rng).choices


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("school", [DEFAULT_SCHOOL, DEPTH], ids=["default", "shehai-depth"])
def test_a_round_marks_the_engines_answers_and_draws_only_its_level(level: Level, school: School) -> None:
    q_count = 80
    questions = make_round(level, q_count, seed=5, school=school)
    assert len(questions) == q_count
    for q in questions:
        check(q)
        assert q.topic in LEVEL_TOPICS[level] and level_of(q.topic) is level
    # every topic of the level, fairly: counts differ by at most one until a topic runs out
    counts = Counter(q.topic for q in questions)
    assert set(counts) == set(topics(level, school))
    unexhausted = [counts[t] for t in counts if counts[t] < len(index(school)[t])]
    assert max(unexhausted) - min(unexhausted) <= 1
    assert all(counts[t] <= max(unexhausted) for t in counts)
    # never the same chart twice
    keys = [chart_key(q.chart) for q in questions]
    assert len(keys) == len(set(keys))


def test_levels_and_topics() -> None:
    assert topics(Level.EASY) == (Topic.元首, Topic.重審)
    assert Topic.渉害 not in topics(Level.MEDIUM) and Topic.渉害 in topics(Level.MEDIUM, DEPTH)
    assert topics(Level.HARD) == (Topic.昴星, Topic.別責, Topic.八専, Topic.伏吟, Topic.反吟)
    # a framed plate is the frame's topic whatever its method (反吟・重審 is hard, not easy)
    for chart in index()[Topic.反吟]:
        assert chart.transmissions.frame is not None
    assert sum(len(cs) for cs in index().values()) == 1440
    assert Counter(chart.transmissions.method for chart in index()[Topic.伏吟]) == {Method.自任: 60, Method.自信: 60}


def test_a_long_round_uses_every_chart_of_the_level_once() -> None:
    rng = random.Random(8)
    charts = draw(Level.HARD, 10_000, rng)
    assert len(charts) == sum(len(index()[t]) for t in LEVEL_TOPICS[Level.HARD])
    assert len({chart_key(c) for c in charts}) == len(charts)
    # the two 綴瑕 charts without a frame come early and then the topic is skipped
    medium = draw(Level.MEDIUM, 30, random.Random(1))
    assert Counter(topic_of(c) for c in medium)[Topic.綴瑕] == 2


def test_the_same_seed_gives_the_same_round() -> None:
    def shape(qs: tuple[Question, ...]) -> list[tuple[object, ...]]:
        return [(chart_key(q.chart), q.kind, q.answer, q.choices) for q in qs]

    assert shape(make_round("medium", 15, seed=42)) == shape(make_round(Level.MEDIUM, 15, seed=42))
    assert shape(make_round("medium", 15, seed=42)) != shape(make_round("medium", 15, seed=43))


def test_kinds_can_be_fixed_and_all_kinds_turn_up() -> None:
    for kind in Kind:
        assert {q.kind for q in make_round("hard", 12, seed=1, kinds=[kind])} == {kind}
    assert {q.kind for q in make_round("hard", 100, seed=1)} == set(Kind) - {Kind.SPIRIT}  # asked on its own
    assert Kind.PATTERN not in {q.kind for q in make_round("easy", 100, seed=1)}


@pytest.mark.parametrize("lang", LANGS)
def test_the_reveal_quotes_the_trace(lang: Lang) -> None:
    for level in Level:
        for q in make_round(level, 40, seed=11):
            wrong = next(w for w in q.wrong if q.split_of(w) is None)  # another school's answer is half right
            reveal = render_reveal(q, lang, wrong)
            e = q.explanation
            if q.kind is Kind.GENERAL:
                assert not e.trace and len(e.notes) == 3 and 87 in e.seed
            else:
                assert e.trace == q.chart.transmissions.trace
            for why in (*e.trace, *e.reasons):
                assert explain(why, lang) in reveal
            assert text("quiz.wrong", lang, given=render_answer(wrong, lang),
                        answer=render_answer(q.answer, lang), number=q.number) in reveal
            # the seed ¶ to read, with its classical words
            assert e.units and all(f"¶{n}" in reveal for n in e.seed)
            if q.kind is Kind.METHOD and q.chart.transmissions.method is Method.元首:
                assert "¶51 若四課中並無下克" in reveal


def test_the_board_hides_the_answer() -> None:
    for q in make_round("hard", 30, seed=4):
        for lang in LANGS:
            board = render_board(q, lang)
            assert text("render.transmissions", lang) not in board
            assert chart_name(q.chart.transmissions, lang) not in board
            if q.kind is Kind.GENERAL:  # the ring and the lessons would show where each 天将 stands
                assert not any(g in board for g in "貴蛇雀合勾龍空虎常玄陰后")
            elif q.kind not in (Kind.MIDDLE, Kind.FINAL):
                # the 剋賊 row would give 元首/重審 away, and the 初伝 it is taken from
                rows = lessons(q.chart, lang).split("\n")
                assert ring(q.chart, lang) in board and "\n".join(rows[:-1]) in board
                assert text("render.relation_row", lang) not in board
            else:
                assert ring(q.chart, lang) in board and lessons(q.chart, lang) in board


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_no_kana_in_english_or_chinese(lang: Lang) -> None:
    for level in Level:
        for q in make_round(level, 30, seed=9):
            out = render_question(q, lang, 1, 30) + render_reveal(q, lang, q.choices[0])
            # English readers are shown the seed's Japanese second, on its own labelled line
            # (tests/test_translation_display.py checks that line is the seed's translation, verbatim)
            japanese = text("translation.label_ja", lang)
            out = "\n".join(line for line in out.split("\n") if not line.strip().startswith(japanese))
            assert not KANA.search(out), (q.kind, KANA.findall(out)[:10])
    quiz_words = {k: v for k, v in words()[lang].items() if k.startswith("quiz.")}
    assert quiz_words and not any(KANA.search(v) for v in quiz_words.values())


def test_every_quiz_word_in_every_language() -> None:
    keys = {lang: {k for k in words()[lang] if k.startswith("quiz.")} for lang in LANGS}
    assert all(keys[lang] == keys["ja"] for lang in LANGS)
    assert {f"quiz.prompt.{k.value}" for k in Kind} <= keys["ja"]


def test_parse_answer_by_number_or_text() -> None:
    q = next(q for q in make_round("medium", 40, seed=2) if q.kind is Kind.METHOD
             and Method.弾射 in q.choices)
    at = q.choices.index(Method.弾射) + 1
    assert parse_answer(q, str(at), "en") is Method.弾射
    for reply in ("弾射", "弹射", " 彈射 "):
        assert parse_answer(q, reply, "zh-CN") is Method.弾射
    assert parse_answer(q, "0", "en") is None and parse_answer(q, "9", "en") is None
    assert parse_answer(q, "nonsense", "en") is None and parse_answer(q, "", "en") is None


def test_terminal_round_right_wrong_and_score() -> None:
    questions = make_round("easy", 3, seed=21)
    first, second, third = questions
    wrong_number = next(i for i in range(1, 5) if i != second.number)
    replies = f"{first.number}\nwhat?\n{wrong_number}\n{render_answer(third.answer, 'en')}\n"
    out = io.StringIO()
    score = play(questions, "en", io.StringIO(replies), out)
    assert score == Score(right=2, asked=3)
    log = out.getvalue()
    assert log.count("Right! The answer is") == 2 and log.count("Wrong: not") == 1
    assert "That is not one of the choices" in log
    assert log.rstrip().endswith("Score: 2/3")
    for why in second.chart.transmissions.trace:
        assert explain(why, "en") in log


@pytest.mark.parametrize("ending", ["", "q\n", "Q\n"])
def test_terminal_round_ends_early_with_the_score_so_far(ending: str) -> None:
    questions = make_round("medium", 4, seed=3)
    out = io.StringIO()
    score = play(questions, "ja", io.StringIO(f"{questions[0].number}\n{ending}"), out)
    assert score == Score(right=1, asked=1)
    assert out.getvalue().rstrip().endswith("得点: 1/1")
    assert "第2問 / 全4問" in out.getvalue() and "第3問" not in out.getvalue()


def test_liuren_quiz_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    expected = make_round("hard", 2, seed=7)
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{expected[0].number}\n{expected[1].number}\n"))
    assert cli_main(["quiz", "--level", "hard", "--questions", "2", "--seed", "7", "--lang", "zh-TW"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("六壬測驗 高級")
    assert out.rstrip().endswith("得分：2/2") and not KANA.search(out)


def test_liuren_quiz_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["quiz", "--questions", "0"]) == 2
    assert "--questions 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main(["quiz", "--level", "expert"])


@pytest.mark.slow  # over a second on the project's machine
def test_a_round_is_the_same_in_another_process() -> None:
    """A store may keep (level, count, seed) and rebuild the round after a restart: nothing in the
    drawing depends on the process (string hashing is randomised per process)."""
    import subprocess

    code = ("from texts.quiz import make_round, chart_key\n"
            "print([(chart_key(q.chart), q.kind.value, str(q.answer), [str(c) for c in q.choices])"
            " for q in make_round('hard', 12, seed=99)])")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                           env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout for h in (1, 2)}
    assert len(runs) == 1
    here = [(chart_key(q.chart), q.kind.value, str(q.answer), [str(c) for c in q.choices])
            for q in make_round("hard", 12, seed=99)]
    assert runs == {f"{here}\n"}


def test_the_seed_units_name_the_method_and_the_pattern() -> None:
    rng = random.Random(6)
    for topic, unit in ((Topic.元首, "method.元首"), (Topic.綴瑕, "method.渉害"), (Topic.蒿矢, "method.蒿矢"),
                        (Topic.伏吟, "method.伏吟"), (Topic.別責, "method.別責")):
        q = ask(index()[topic][0], Kind.METHOD, rng)
        assert unit in q.explanation.units
    return_chant = next(c for c in index()[Topic.反吟] if c.transmissions.method is Method.重審)
    assert ask(return_chant, Kind.INITIAL, rng).explanation.units == ("method.反吟", "method.重審")
    q = ask(index()[Topic.八専][0], Kind.PATTERN, rng)
    assert q.explanation.reasons and q.explanation.units[0].startswith("pattern.")


def test_the_package_gives_every_name_it_lists_from_its_module() -> None:
    """texts.quiz loads its modules when a name is first asked for: each name of ``__all__`` is
    there, and is its module's own (a name the package forgot would fail only where it is used)."""
    import texts.quiz as quiz
    from texts.quiz import levels, questions, sentences, values

    for name in quiz.__all__:
        homes = [m for m in (levels, questions, sentences, values) if name in vars(m)]
        assert homes and getattr(quiz, name) is getattr(homes[0], name), name
    with pytest.raises(AttributeError):
        _ = quiz.nothing_of_the_kind
