"""Reasons (``engine.reasons.Why``) written out in the reader's language.

The engine records *what* decided each step; this module is the one place that turns those values
into sentences, from the templates in ``texts/locales/<lang>/why.toml``.

    >>> from engine import cast_classical
    >>> chart = cast_classical("甲子", "亥", "午")
    >>> explain(chart.transmissions.trace[-1], "ja")
    '相因: 初伝子の上に巳＝中伝、巳の上に戌＝末伝 (¶51)'
"""

from __future__ import annotations

from enum import Enum

from engine.reasons import Rule, Why
from engine.symbols import Pillar, Stem
from engine.terms import Relation
from engine.transmissions import Transmissions
from texts.memo import remember
from texts.words import Lang, term, text


def show(value: object, lang: Lang) -> str:
    """One value of a reason as ``lang`` writes it: a term by its word, a list joined, a number."""
    if isinstance(value, Enum):
        return term(value, lang)
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return text("why.item_sep", lang).join([_item(v, lang) for v in value])
        return text("list.sep", lang).join([show(v, lang) for v in value])
    if isinstance(value, _PLAIN):
        return str(value)
    raise TypeError(f"cannot show {value!r} in a reason")


_PLAIN = (Pillar, int, str)  # a tuple: ``Pillar | int | str`` made a union at every value shown


def _item(value: tuple[object, ...], lang: Lang) -> str:
    """A compound value: a lesson ``(number, upper, lower, relation)`` or how a 渉害 depth was
    counted ``(candidate, ground, walk, counted, depth)`` (engine.reasons.Depth)."""
    if len(value) == 4:
        number, upper, lower, relation = value
        words = text(_LESSON_KEYS[relation] if isinstance(relation, Relation) else "why.lesson_none", lang)
        return text("why.lesson", lang, number=number, upper=show(upper, lang), lower=show(lower, lang), relation=words)
    branch, ground, walk, counted, depth = value
    where = {"branch": show(branch, lang), "ground": show(ground, lang), "walk": show(walk, lang)}
    if not isinstance(counted, tuple) or not counted:
        return text("why.depth_none", lang, **where)
    items = text("list.sep", lang).join(
        text("why.depth_stem", lang, stem=show(c, lang), lodging=show(c.lodging, lang)) if isinstance(c, Stem)
        else show(c, lang)
        for c in counted
    )
    return text("why.depth", lang, **where, counted=items, depth=depth)


# Template keys by member, made once (an Enum's .name and .value are Python-level
# properties, and the f-string around them was redone for every reason written).
_LESSON_KEYS = {r: f"why.lesson_{r._name_}" for r in Relation}
_KEYS = {r: f"why.{r._value_}" for r in Rule}
_OUTSIDE_KEYS = {r: f"why.outside.{r._value_}" for r in Rule}


def chart_name(transmissions: Transmissions, lang: Lang) -> str:
    """The 課名 in the reader's script: 元首, 反吟・重審 (ja), 反吟·重審 (zh) …"""
    method = term(transmissions.method, lang)
    frame = transmissions.frame
    if frame is None or frame._name_ == transmissions.method._name_:
        return method
    return term(frame, lang) + text("list.name_sep", lang) + method


@remember(256)  # a few dozen ¶ tuples in all (written for every reason)
def cite(seed: tuple[int, ...], lang: Lang) -> str:
    """`` (¶51, ¶55)``, or nothing where the seed is silent."""
    if not seed:
        return ""
    items = text("cite.sep", lang).join(text("cite.item", lang, n=n) for n in seed)
    return text("cite.wrap", lang, items=items)


def outside(why: Why, lang: Lang) -> str:
    """For a rule the seed does not state, the mark saying where it comes from; else nothing."""
    return text(_OUTSIDE_KEYS[why.rule], lang) if why.outside else ""


def explain(why: Why, lang: Lang, *, with_seed: bool = True) -> str:
    """The reason as one sentence in ``lang``, citing its seed ¶ unless ``with_seed`` is false.

    A rule the seed does not state always carries its mark (docs/rules.md's decision, a school
    option), with or without ``with_seed``: nothing the project adds reads as the seed's.
    """
    values = {name: show(value, lang) for name, value in why.values}
    sentence = text(_KEYS[why.rule], lang, **values)
    if why.outside:
        return sentence + outside(why, lang)
    return sentence + cite(why.seed, lang) if with_seed else sentence
