"""The quiz never shows what gives its answer away (texts/quiz/sentences.py render_board): over every
classical chart, for each kind of question, the board leaves out the chart part that marks the
answer — the 三伝 always; the 剋賊 row unless the 初伝 is given; the 天将 where one is asked for."""

from __future__ import annotations

import random

import pytest

from engine.classical import classical_charts
from engine.patterns import classify
from engine.school import DEFAULT_SCHOOL
from engine.terms import GENERALS, Method
from texts.quiz import Kind, ask, render_board
from texts.words import Lang, short, text
from texts.words.explain import show

RELATION_SHOWN = (Kind.MIDDLE, Kind.FINAL)  # the kinds that give the 初伝: the 剋賊 row gives nothing more


def _rows(board: str, label: str) -> list[str]:
    return [line for line in board.split("\n") if line.startswith(label)]


@pytest.mark.slow  # 1,440 charts × 7 kinds × 2 languages: a few seconds
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_board_marks_its_answer(lang: Lang) -> None:
    relation, transmissions = text("render.relation_row", lang), text("render.transmissions", lang)
    generals = {short(g, lang) for g in GENERALS}
    rng = random.Random(49)
    asked = dict.fromkeys(Kind, 0)
    for chart in classical_charts(DEFAULT_SCHOOL):
        kinds = [k for k in Kind if k is not Kind.PATTERN or classify(chart).held]
        for kind in kinds:
            q = ask(chart, kind, rng)
            board = render_board(q, lang)
            asked[kind] += 1
            assert transmissions not in board, (kind, chart.day)
            assert bool(_rows(board, relation)) == (kind in RELATION_SHOWN), (kind, chart.day)
            if kind in (Kind.GENERAL, Kind.SPIRIT):
                assert not generals & set(board), (kind, chart.day)
            if kind in (Kind.METHOD, Kind.PATTERN):
                assert show(q.answer, lang) not in board, (kind, q.answer)
    assert all(asked.values()), asked


def test_the_initial_question_hides_the_row_that_marks_it() -> None:
    """The 剋賊 row marks the one lesson a 元首/重審 初伝 is taken from."""
    rng = random.Random(1)
    for chart in list(classical_charts(DEFAULT_SCHOOL))[::30]:
        if chart.transmissions.method in (Method.元首, Method.重審):
            board = render_board(ask(chart, Kind.INITIAL, rng), "ja")
            assert not _rows(board, text("render.relation_row", "ja"))
