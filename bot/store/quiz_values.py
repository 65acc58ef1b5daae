"""The study quiz's values as stored (/quiz): a round, an answer, the scores read from the answers.

Loaded with the first quiz read or written, not with the store at start: ``bot.store`` gives
these names when first asked for (PEP 562). Frozen dataclasses, read back as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.school import School

from .forms import Bad

__all__ = ["QuizAnswer", "QuizRow", "QuizScore", "QuizTopicScore"]


@dataclass(frozen=True, slots=True)
class QuizRow:
    """One /quiz round as stored; bot.quiz.service rebuilds its questions from level, count, seed
    and school (texts.quiz.make_round is deterministic)."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int  # who started it
    locale: str  # the starter's locale: the quiz's reader language
    level: str
    count: int
    seed: int
    school: School | Bad
    seconds: int  # time to answer each question
    question: int  # the question being asked, 1-based
    deadline: int  # epoch seconds when the current question is revealed
    message_id: int | None  # the current question's message (None until it is posted)
    status: str  # running, done, stopped, ended
    started_at: int
    ended_at: int | None


@dataclass(frozen=True, slots=True)
class QuizAnswer:
    """One member's answer to one question of a quiz (the first press counts; there is no second)."""

    quiz_id: int
    question: int
    user_id: int
    choice: int  # 1-based, in the order the choices were shown
    correct: bool
    topic: str  # texts.quiz.Topic: the method (or frame) the chart drills
    seed: str  # the explanation's seed ¶s, comma-separated
    answered_at: int  # epoch seconds
    half: bool = False  # another school option's answer: half credit (never with ``correct``)


@dataclass(frozen=True, slots=True)
class QuizScore:
    """A member's right answers out of those given (in some scope: a server, a level, a period);
    ``half`` answers were another school option's, each worth half (``points``)."""

    user_id: int
    right: int
    asked: int
    half: int = 0

    @property
    def points(self) -> float:
        """Right answers with each half-right one counting 0.5."""
        return self.right + self.half / 2


@dataclass(frozen=True, slots=True)
class QuizTopicScore:
    """A member's right answers out of those given, on one level's one topic; ``seed`` is one
    answer's seed ¶s (all answers of a topic cite the same rule)."""

    level: str
    topic: str
    right: int
    asked: int
    seed: str
    half: int = 0  # half-right answers (another school option's), each worth 0.5 in ``points``

    @property
    def points(self) -> float:
        """Right answers with each half-right one counting 0.5."""
        return self.right + self.half / 2
