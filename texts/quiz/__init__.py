"""Study questions drawn from the classical charts, and their text in the reader's language.

A :class:`Question` is a value: the chart, what is asked (a :class:`Prompt`), the engine's answer,
plausible wrong choices, the presented order of all choices, and an :class:`Explanation` (the
engine's own reasons — ``chart.transmissions.trace`` and a 課体's reasons — plus the seed units to
read), in values.py; questions.py draws and asks them, sentences.py writes them. Nothing here
prints, reads or talks to Discord; the terminal loop is texts/cli/quiz.py.

Levels draw charts by *topic*: the plate's frame (伏吟 反吟 八専) when it has one, else the method
that took the 初伝. ``easy`` is 元首/重審, ``medium`` 比用 (知一), 渉害 (見機 察微 綴瑕, and 渉害
itself under the depth-count school option) and 遙剋 (蒿矢 弾射), ``hard`` 昴星 別責 八専 伏吟 反吟
and the 課体 questions. A round goes round-robin over its level's topics and picks a random chart
within each, never the same chart twice.

The package's names load with their module when first asked for (``texts.quiz.make_round``), but
for ``Level``: the bot's start lists the levels in /quiz's options and builds no question.

    >>> from engine import cast_classical
    >>> from texts.quiz import Kind, ask, render_prompt
    >>> import random
    >>> q = ask(cast_classical("甲子", "亥", "午"), Kind.INITIAL, random.Random(1))
    >>> q.answer, q.answer in q.wrong, len(q.choices)
    (Branch.子, False, 4)
    >>> render_prompt(q, "en")
    'Which branch is the initial transmission (初傳)?'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from texts.deferred import deferred_names
from texts.quiz.levels import Level

if TYPE_CHECKING:
    from texts.quiz.questions import ask, chart_key, draw, index, kinds_for, level_of, make_round, topic_of, topics
    from texts.quiz.sentences import (
        bare_ring,
        explanation_lines,
        parse_answer,
        render_answer,
        render_board,
        render_choices,
        render_note,
        render_points,
        render_prompt,
        render_question,
        render_reveal,
        render_score,
        render_verdict,
    )
    from texts.quiz.values import (
        LEVEL_KINDS,
        LEVEL_TOPICS,
        METHOD_PATTERNS,
        NEIGHBOURS,
        Answer,
        Explanation,
        Kind,
        Note,
        NoteValue,
        Prompt,
        Question,
        Topic,
        Word,
    )

__all__ = [
    "LEVEL_KINDS", "LEVEL_TOPICS", "METHOD_PATTERNS", "NEIGHBOURS", "Answer", "Explanation", "Kind", "Level",
    "Note", "NoteValue", "Prompt", "Question", "Topic", "Word", "ask", "bare_ring", "chart_key", "draw",
    "explanation_lines", "index", "kinds_for", "level_of", "make_round", "parse_answer", "render_answer",
    "render_board", "render_choices", "render_note", "render_points", "render_prompt", "render_question",
    "render_reveal", "render_score", "render_verdict", "topic_of", "topics",
]

# Where each name lives: its module is imported when the name is first asked for (PEP 562).
_HOME = {
    **dict.fromkeys(("ask", "chart_key", "draw", "index", "kinds_for", "level_of", "make_round", "topic_of",
                     "topics"), "texts.quiz.questions"),
    **dict.fromkeys(("bare_ring", "explanation_lines", "parse_answer", "render_answer", "render_board",
                     "render_choices", "render_note", "render_points", "render_prompt", "render_question",
                     "render_reveal", "render_score", "render_verdict"), "texts.quiz.sentences"),
    **dict.fromkeys(("LEVEL_KINDS", "LEVEL_TOPICS", "METHOD_PATTERNS", "NEIGHBOURS", "Answer", "Explanation", "Kind",
                     "Note", "NoteValue", "Prompt", "Question", "Topic", "Word"), "texts.quiz.values"),
}


__getattr__ = deferred_names(__name__, _HOME)
