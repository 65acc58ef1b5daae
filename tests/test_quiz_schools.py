"""The quiz counts a school split as half right (docs/rules.md §10.1): a choice that is the answer
under another school option scores half, and the verdict names the option."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from bot.core.host import LiurenBot
from bot.core.words import text as bot_text
from bot.quiz.cog import level_name
from engine import cast_classical
from engine.alternatives import alternatives
from engine.classical import classical_charts
from engine.school import DEFAULT_SCHOOL, School
from engine.symbols import Branch
from testkit.daily_harness import Clock
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot
from tests.test_quiz_e2e import ALICE, BOB, START, description, messages, press, quizzes, running
from texts.alternatives import option_words
from texts.cli.quiz import Score, play
from texts.quiz import Kind, ask, make_round, render_answer, render_score, render_verdict
from texts.quiz.values import Question
from texts.words import Lang, text

LANGS: tuple[Lang, ...] = ("ja", "en", "zh-TW", "zh-CN")
DEPTH = School(shehai_depth_first=True)


def split_question(kind: Kind, option: str, school: School = DEFAULT_SCHOOL) -> Question:
    """A ``kind`` question whose choices hold ``option``'s answer, on the first chart it changes."""
    for chart in classical_charts(school):
        if not any(a.option == option for a in alternatives(chart)):
            continue
        for seed in range(40):
            q = ask(chart, kind, random.Random(seed))
            if any(s.option == option for s in q.splits):
                return q
    raise AssertionError(f"no {kind} question splits on {option}")


# 渉害 is offered as a method only under its school (tests/test_quiz.py): there the other value's
# 見機 or 察微 is the split.
@pytest.mark.parametrize(("kind", "option", "school"), [
    (Kind.INITIAL, "shehai_depth_first", DEFAULT_SCHOOL), (Kind.METHOD, "shehai_depth_first", DEPTH),
    (Kind.GENERAL, "noble_table", DEFAULT_SCHOOL), (Kind.FINAL, "fuyin_repeat_clash", DEFAULT_SCHOOL)])
def test_another_schools_answer_is_half_right_and_named(kind: Kind, option: str, school: School) -> None:
    q = split_question(kind, option, school)
    [split] = [s for s in q.splits if s.option == option]
    other = next(a.chart for a in alternatives(q.chart) if a.option == option and a.value == split.value)
    # The split is what casting under the option answers, and not this school's answer.
    t = other.transmissions
    if kind is Kind.GENERAL:
        branch = dict(q.prompt.values)["branch"]
        assert isinstance(branch, Branch)
        expected: object = other.generals.on(branch)
    else:
        expected = {Kind.INITIAL: t.initial, Kind.METHOD: t.method, Kind.FINAL: t.final}[kind]
    assert split.answer == expected != q.answer and split.answer in q.choices
    assert q.credit(q.answer) == 1 and q.credit(split.answer) == 0.5
    assert all(q.credit(w) == 0 for w in q.wrong if w != split.answer)
    for lang in LANGS:
        assert render_verdict(q, split.answer, lang) == text(
            "quiz.half", lang, given=render_answer(split.answer, lang), answer=render_answer(q.answer, lang),
            number=q.number, option=option_words(option, split.value, lang))
    # In the terminal the half counts in the score.
    out = io.StringIO()
    score = play([q, q], "en", io.StringIO(f"{q.choices.index(split.answer) + 1}\n{q.number}\n"), out)
    assert score == Score(right=1.5, asked=2) and out.getvalue().splitlines()[-1] == "Score: 1.5/2"


def test_no_split_where_the_schools_agree() -> None:
    chart = cast_classical("丁卯", "未", "午")  # no school option changes it
    assert not alternatives(chart)
    for kind in (Kind.INITIAL, Kind.MIDDLE, Kind.FINAL, Kind.METHOD, Kind.GENERAL):
        assert ask(chart, kind, random.Random(3)).splits == ()


async def split_round(standin: DiscordStandIn, start_bot: StartBot,
                      alices: Callable[[Question], int]) -> tuple[Question, list[dict[str, Any]]]:
    """One medium question with a school split, through the stand-in: Bob presses the split, Alice
    the choice ``alices`` picks; the round is revealed and scored (the question, reveal, scores)."""
    seed = next(s for s in range(1, 2000) if make_round("medium", 1, seed=s)[0].splits)
    [q] = make_round("medium", 1, seed=seed)
    channel = standin.guilds[0].channels[0].id
    clock = Clock(START)
    bot: LiurenBot = await start_bot(clock=clock)
    quizzes(bot).new_seed = lambda: seed
    await standin.slash("quiz start", {"level": "medium", "questions": 1, "seconds": 30}, locale="en-US", user_id=ALICE)
    row = await running(bot, channel)
    (first,) = await messages(standin, channel, 1)
    await press(standin, first, row, 1, q.choices.index(q.splits[0].answer) + 1, BOB)
    await press(standin, first, row, 1, alices(q), ALICE)
    clock.now = START + timedelta(seconds=30)
    await quizzes(bot).run_due()
    return q, await messages(standin, channel, 3)


async def test_the_bots_quiz_names_a_half_right_member_and_counts_half(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    q, (_, reveal, final) = await split_round(standin, start_bot, lambda q: q.number)
    split = q.splits[0]
    shown = description(reveal)
    assert bot_text("quiz.half_members", "en", option=option_words(split.option, split.value, "en"),
                    members=f"<@{BOB}>") in shown
    assert bot_text("quiz.wrong_members", "en", members=f"<@{BOB}>") not in shown
    assert description(final).splitlines() == [
        bot_text("quiz.final_line", "en", rank=1, member=f"<@{ALICE}>", score=render_score(1, 1, "en")),
        bot_text("quiz.final_line", "en", rank=2, member=f"<@{BOB}>", score=render_score(0.5, 1, "en")),
    ]


async def test_the_leaderboard_and_quiz_me_count_the_half(standin: DiscordStandIn, start_bot: StartBot) -> None:
    """The stored scores keep the half: Bob's school split (0.5) ranks above Alice's wrong answer,
    and /quiz me shows it by level and topic."""
    await split_round(standin, start_bot, lambda q: next(
        i for i, c in enumerate(q.choices, 1) if not q.is_right(c) and q.split_of(c) is None))
    board = await standin.slash("quiz leaderboard", {"level": "medium"}, locale="en-US", user_id=ALICE)
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    # Whole answers only, both would have 0 of 1 and Alice (the lower id) would come first.
    assert fields[bot_text("quiz.all_time", "en", level=level_name("medium", "en"))].splitlines() == [
        bot_text("quiz.board_line", "en", rank=1, member=f"<@{BOB}>", right="0.5", asked=1, percent=50),
        bot_text("quiz.board_line", "en", rank=2, member=f"<@{ALICE}>", right=0, asked=1, percent=0),
    ]
    me = (await standin.slash("quiz me", {}, locale="ja", user_id=BOB)).embeds[0]["description"].splitlines()
    assert me[0] == f"**{level_name('medium', 'ja')}** 0.5/1 (50%)"
    assert "：0.5/1（50%）" in me[1]
