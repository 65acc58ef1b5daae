"""A question's text in the reader's language: the prompt, the choices, the board, the verdict and
the explanation; and a reply read back as one of the choices.
"""

from __future__ import annotations

from engine.chart import Chart
from engine.symbols import Branch
from texts.alternatives import option_words
from texts.corpus import corpus
from texts.corpus.normalize import normalize
from texts.corpus.shown import original, translation_lines
from texts.quiz.values import Answer, Kind, Note, NoteValue, Question, Word
from texts.render import lessons, ring
from texts.words import Lang, text
from texts.words.explain import cite, explain, show


def _value(value: NoteValue, lang: Lang) -> str:
    return text(f"quiz.{value.key}", lang) if isinstance(value, Word) else show(value, lang)


def render_answer(value: Answer, lang: Lang) -> str:
    """A choice as ``lang`` writes it: a branch by its character, a term by its word."""
    return show(value, lang)


def render_prompt(q: Question, lang: Lang) -> str:
    """The question's sentence in ``lang``."""
    values = {name: _value(v, lang) for name, v in q.prompt.values}
    return text(f"quiz.prompt.{q.prompt.key}", lang, **values)


def render_choices(q: Question, lang: Lang) -> tuple[str, ...]:
    """The numbered choices, one line each, in presentation order."""
    return tuple(text("quiz.choice", lang, number=i, choice=render_answer(c, lang))
                 for i, c in enumerate(q.choices, 1))


def parse_answer(q: Question, reply: str, lang: Lang) -> Answer | None:
    """The choice a reply names — its number, or its text in ``lang`` or in the engine's own
    characters (variants folded: 弹射 = 彈射 = 弾射) — or ``None`` when it names none."""
    said = reply.strip()
    if said.isdecimal():
        number = int(said)
        return q.choices[number - 1] if 1 <= number <= len(q.choices) else None
    folded = normalize(said)
    if not folded:
        return None
    for choice in q.choices:
        if folded in (normalize(render_answer(choice, lang)), normalize(choice.name)):
            return choice
    return None


def render_note(note: Note, lang: Lang) -> str:
    """One of the quiz's own explanation steps, citing its seed ¶."""
    values = {name: _value(v, lang) for name, v in note.values}
    return text(f"quiz.note.{note.key}", lang, **values) + cite(note.seed, lang)


def explanation_lines(q: Question, lang: Lang) -> tuple[str, ...]:
    """Why, in ``lang``: the 課体's reasons, the trace (each Why rendered by texts.words.explain.explain),
    the 天将 notes, then the seed units to read (the classical original; beneath it, as
    texts.corpus.shown.translation_lines gives them, the seed's translation in Japanese and the project's
    English translation, then the seed's, in English)."""
    e = q.explanation
    lines = [text("quiz.why", lang)]
    lines += [f"  {explain(w, lang)}" for w in e.reasons]
    if e.trace:
        if e.reasons:
            lines.append(text("quiz.trace", lang))
        lines += [f"  {explain(w, lang)}" for w in e.trace]
    lines += [f"  {render_note(n, lang)}" for n in e.notes]
    if e.units:
        lines.append(text("quiz.read", lang, paragraphs=text("cite.sep", lang).join(
            text("cite.item", lang, n=n) for n in e.seed)))
    for unit_id in e.units:
        unit = corpus().get(unit_id)
        # the original with its marks in the reader's words; under it, in Japanese the
        # seed's translation, in English the project's translation (labelled) and then the seed's
        if unit.original:
            lines.append("  " + text("quiz.unit", lang, n=unit.lines[0], original=original(unit, lang)))
        lines += ["    " + s for s in translation_lines(unit, lang)]
    return tuple(lines)


def render_verdict(q: Question, given: Answer, lang: Lang) -> str:
    """Right, half right (another school option's answer, the option named) or wrong, naming the
    answer (and its number)."""
    answer = render_answer(q.answer, lang)
    if q.is_right(given):
        return text("quiz.right", lang, answer=answer, number=q.number)
    split = q.split_of(given)
    if split is not None:  # another school's answer: half right, the option named
        return text("quiz.half", lang, given=render_answer(given, lang), answer=answer, number=q.number,
                    option=option_words(split.option, split.value, lang))
    return text("quiz.wrong", lang, given=render_answer(given, lang), answer=answer, number=q.number)


def render_reveal(q: Question, lang: Lang, given: Answer | None = None) -> str:
    """The answer and why: the verdict on ``given`` (or just the answer), then the explanation."""
    head = (render_verdict(q, given, lang) if given is not None
            else text("quiz.answer", lang, answer=render_answer(q.answer, lang), number=q.number))
    return "\n".join((head, *explanation_lines(q, lang)))


_RING_ROWS = ("巳午未申", "辰  酉", "卯  戌", "寅丑子亥")
_SPACE = "\u3000"


def bare_ring(chart: Chart) -> str:
    """The 天地盤 without the 天将: each cell is the 天盤 branch over its 地盤 place (the layout of
    texts/render.ring), for questions that ask where a 天将 stands."""
    lines = []
    for row in _RING_ROWS:
        cells = [_SPACE * 2 if ch == " " else _SPACE + str(chart.plate.up(Branch[ch])) for ch in row]
        lines.append("│" + "│".join(cells) + "│")
    return "\n".join(lines)


def render_board(q: Question, lang: Lang) -> str:
    """What the student is shown: the day, hour and 月将; then the 四課 and the ring
    (texts/render.py), never the 三伝 or the 課名. For a 天将 question the ring and lessons would
    give the answer away, so only the bare plate is shown."""
    c = q.chart
    head = text("quiz.board", lang, day=c.day, hour=c.hour, yuejiang=c.yuejiang,
                time=text("quiz.day" if c.generals.daytime else "quiz.night", lang))
    if q.kind in (Kind.GENERAL, Kind.SPIRIT):  # a 天将 question (a 類神's too): the bare plate
        return "\n".join((head, text("quiz.plate_bare", lang), bare_ring(c)))
    return "\n".join((head, _board_lessons(q, lang), text("quiz.plate", lang), ring(c, lang)))  # the reader's script


# The kinds whose board shows the 剋賊 row. It marks the lesson a 初伝 is taken from (元首, 重審,
# the candidates of 比用 and 渉害), which method took it, and the 課体 read off the 剋 (無禄 絶嗣 and
# the method's own names): only a question that gives the 初伝 may show it.
RELATION_SHOWN = frozenset({Kind.MIDDLE, Kind.FINAL})


def _board_lessons(q: Question, lang: Lang) -> str:
    """The 四課 as texts/render.lessons writes them, without the 剋賊 row where it would give the
    answer away (RELATION_SHOWN)."""
    shown = lessons(q.chart, lang)
    if q.kind not in RELATION_SHOWN:
        label = text("render.relation_row", lang)
        shown = "\n".join(line for line in shown.split("\n") if not line.startswith(label))
    return shown


def render_question(q: Question, lang: Lang, number: int | None = None, count: int | None = None) -> str:
    """The board, the question (numbered when ``number`` and ``count`` are given) and the choices."""
    parts = []
    if number is not None and count is not None:
        parts.append(text("quiz.number", lang, number=number, count=count))
    parts += [render_board(q, lang), render_prompt(q, lang), *render_choices(q, lang)]
    return "\n".join(parts)


def render_points(points: float, lang: Lang) -> str:
    """Points counted in halves (a school split is worth half), in the reader's writing: ``2``,
    or with a half ``2.5`` as the locale writes it (``quiz.points_half``)."""
    whole, half = divmod(round(2 * points), 2)
    return text("quiz.points_half", lang, whole=whole) if half else str(whole)


def render_score(right: float, asked: int, lang: Lang) -> str:
    """The score line: right answers (a school split counting half) out of questions answered."""
    return text("quiz.score", lang, right=render_points(right, lang), asked=asked)
