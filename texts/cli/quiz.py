"""``liuren quiz``: the study quiz in a terminal, reading answers from one stream and writing to another.

    liuren quiz --level medium --questions 5 --lang en --seed 7

Each question shows the day, hour and 月将, the 四課 and the ring (never the 三伝 or the 課名),
the prompt and numbered choices; an answer is a number or a choice's text. The reply says right,
half right (the answer under another school option, named) or wrong and prints why (the engine's
trace in the reader's language and the seed ¶ to read). ``q`` or the end of input stops the round
with the score so far; the score closes every round.

    >>> import io
    >>> out = io.StringIO()
    >>> play(make_round("easy", 1, seed=1), "en", io.StringIO("q\\n"), out)
    Score(right=0, asked=0)
    >>> out.getvalue().splitlines()[-1]
    'Score: 0/0'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from engine.school import DEFAULT_SCHOOL, School
from texts.quiz import Level, Question, make_round, parse_answer, render_question, render_reveal, render_score
from texts.words import Lang, text

QUIT = frozenset({"q", "quit", "exit", "ｑ"})


@dataclass(frozen=True, slots=True)
class Score:
    """Right answers out of the questions answered (a question left by quitting is not counted);
    another school option's answer counts half."""

    right: float = 0
    asked: int = 0


def _say(out: TextIO, line: str = "") -> None:
    out.write(line + "\n")
    out.flush()


def play(
    questions: Sequence[Question], lang: Lang, stdin: TextIO, stdout: TextIO, *, title: str | None = None
) -> Score:
    """Ask each question on ``stdout`` and read the answers from ``stdin``, one line each.

    A reply that names no choice is asked again (and not counted). ``q`` or the end of ``stdin``
    stops early. Always ends by writing the score line; returns the score.
    """
    right: float = 0
    asked = 0
    if title is not None:
        _say(stdout, title)
    for number, q in enumerate(questions, 1):
        _say(stdout)
        _say(stdout, render_question(q, lang, number, len(questions)))
        while True:
            stdout.write(text("quiz.ask", lang))
            stdout.flush()
            line = stdin.readline()
            reply = line.strip()
            if not line or reply.lower() in QUIT:
                if not line:
                    _say(stdout)
                _say(stdout, text("quiz.stopped", lang))
                _say(stdout, render_score(right, asked, lang))
                return Score(right, asked)
            choice = parse_answer(q, reply, lang)
            if choice is not None:
                break
            _say(stdout, text("quiz.unknown", lang, count=len(q.choices)))
        asked += 1
        right += q.credit(choice)  # a school split half
        _say(stdout, render_reveal(q, lang, choice))
    _say(stdout)
    _say(stdout, render_score(right, asked, lang))
    return Score(right, asked)


def main(
    level: str = "easy",
    questions: int = 10,
    lang: Lang = "ja",
    seed: int | None = None,
    school: School = DEFAULT_SCHOOL,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play one round of ``questions`` questions of ``level`` in the terminal (or the given streams);
    0 when the round ran (however it ended). ``ValueError`` for a level or a count it cannot use."""
    if questions < 1:
        raise ValueError(f"--questions {questions}: give 1 or more")
    chosen = Level(level)
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    round_ = make_round(chosen, questions, seed=seed, school=school)
    if not round_:
        _say(stdout, text("quiz.empty", lang))
        return 0
    title = text("quiz.title", lang, level=text(f"quiz.level.{chosen.value}", lang), count=len(round_))
    play(round_, lang, stdin, stdout, title=title)
    return 0
