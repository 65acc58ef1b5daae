"""The matter sections of a reply written out for a reader (the presentation of texts/matter_reading.py).

:func:`items` turns a :class:`~texts.matter_reading.MatterSection` into :class:`Item` values: a
heading or a quotation with what is said beside it, in ``lang``; the terminal (:func:`render_matters`)
and the bot lay those out. The words are texts/locales/<lang>/matter.toml. The classical original is
shown as written; the seed's Japanese translation beside it for readers of Japanese and English,
as in the general reading (texts/present.py).

    >>> from engine import cast_classical
    >>> from texts.matter_reading import answer
    >>> reply = answer(cast_classical("辛巳", "戌", "巳"), question="財布をなくしました。見つかりますか？")
    >>> items(reply.matters[0], "ja")[0].said
    ('問いの語「なくし」による（違うときは占事を指定できる）',)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.terms import General, Position, Seat

from .corpus import Corpus, corpus
from .explain import show
from .matter_reading import KinListing, KinPlace, MatterSection, PatternReading, Quote, SpiritReading
from .matter_table import Ground
from .present import original, seed_lines, translation_lines  # translation_lines: issue 25
from .words import Lang, term, text


@dataclass(frozen=True, slots=True)
class Item:
    """One step of a matter section as shown: a ``heading`` (the matter, a 類神: ``level`` 1, 2), or a quotation
    (``quote``, with ``role`` its label) — or neither: stated facts only. ``said``: the sentences."""

    said: tuple[str, ...]
    heading: str | None = None
    quote: Quote | None = None
    role: str | None = None
    level: int = 1  # of a heading: 1 the matter, 2 a 類神


def _t(key: str, lang: Lang, **values: object) -> str:
    return text(f"matter.{key}", lang, **values)


def _cite(g: Ground, lang: Lang, texts: Corpus) -> str:
    unit = texts.get(g.unit)
    line = unit.translation_line if g.translated else unit.original_line
    if g.translated:
        return _t("cite_translated", lang, n=line, mark=_t("translated", lang), words=g.words)
    return _t("cite", lang, n=line, words=g.words)


def _positions(s: SpiritReading, lang: Lang) -> str:
    return text("list.sep", lang).join(
        _t("initial", lang) if p is Position.初伝 else show(p, lang) for p in dict.fromkeys(s.positions)
    )


def _quote_item(quote: Quote, role: str, said: Sequence[str], lang: Lang) -> Item:
    if quote.above:
        return Item((*said, _t("above", lang)), role=role, quote=quote)
    return Item(tuple(said), role=role, quote=quote)


def _spirit_items(s: SpiritReading, lang: Lang, texts: Corpus) -> list[Item]:
    g = show(s.general, lang)
    heading = _t("spirit", lang, rank=s.rank, general=g)
    if s.above is not None:
        return [Item((_t("spirit_above", lang, general=g, matter=term(s.above, lang)),), heading=heading, level=2)]
    cites = _t("cite_sep", lang).join(_cite(x, lang, texts) for x in s.grounds)
    out = [Item((_t("grounds", lang, cites=cites),), heading=heading, level=2)]
    # R1 the opening, with R3 and R4 said beside it
    opening_said: list[str] = []
    if s.excluded:
        opening_said.append(_t("excluded", lang, general=g, ground=show(s.ground, lang)))
    if s.bears is True:
        seen = s.general is General.騰蛇 and not s.initial
        opening_said.append(_t("bears_seen" if seen else "bears", lang))
    elif s.bears is False:
        opening_said.append(_t("not_bears", lang))
    if s.opening is not None:
        out.append(_quote_item(s.opening, _t("role.opening", lang), opening_said, lang))
        opening_said = []
    # R2 where it stands, and its line
    # (a stated fact never sits under a quotation, where it would read as the seed's: issue 19)
    stands = _t("stands", lang, general=g, heaven=show(s.heaven, lang), ground=show(s.ground, lang))
    if s.line is None:
        key = "no_line_天空" if s.general is General.天空 else "no_line"
        out.append(Item((stands, _t(key, lang, general=g, ground=show(s.ground, lang)))))
    else:
        out.append(Item((stands,)))
        name = s.line.unit.name_on(s.ground)
        said = [_t("line_name", lang, name=name)] if name is not None else []
        out.append(_quote_item(s.line, _t("role.line", lang), said, lang))
    # R3 (the 伝), R5 (the lessons), R6 (facts without verdict)
    facts = [*opening_said]
    if s.positions:
        facts.append(_t("rides", lang, general=g, positions=_positions(s, lang)))
    else:
        facts.append(_t("rides_none", lang, general=g))
    heaven = show(s.heaven, lang)
    if s.lessons:
        lessons = text("list.sep", lang).join(_t("lesson", lang, n=n) for n in s.lessons)
        seats = [term(seat, lang) for n, seat in ((1, Seat.干上神), (3, Seat.支上神)) if n in s.lessons]
        seat_text = _t("seats", lang, seats=text("list.sep", lang).join(seats)) if seats else ""
        facts.append(_t("lessons", lang, heaven=heaven, lessons=lessons, seats=seat_text))
    else:
        facts.append(_t("no_lesson", lang, heaven=heaven))
    facts.append(_t("void" if s.void else "not_void", lang, heaven=heaven))
    if s.vigour is not None and s.month is not None:
        facts.append(_t("vigour", lang, heaven=heaven, month=show(s.month, lang), vigour=show(s.vigour, lang)))
    facts.append(_t("kin", lang, heaven=heaven, stem=show(s.stem, lang), kin=show(s.kin, lang)))
    facts.append(_t("stated", lang))
    out.append(Item(tuple(facts)))
    return out


def _pattern_item(p: PatternReading, any_matter: bool, lang: Lang) -> Item:
    names = text("list.name_sep", lang).join(show(n, lang) for n in p.names)
    said = [_t("any" if any_matter else "pattern", lang, names=names)]
    if p.search is not None:
        s = p.search
        key = "reading.hidden_chant_search_順" if s.clockwise else "reading.hidden_chant_search_逆"
        said.append(text(key, lang, branch=show(s.day_branch, lang), place=show(s.place, lang)))
    role = _t("role.any" if any_matter else "role.pattern", lang)
    if p.quote is None:
        return Item((*said, _t("no_verse", lang, names=names)), role=role)
    return _quote_item(p.quote, role, said, lang)


def _place(p: KinPlace, lang: Lang) -> str:
    b = show(p.branch, lang)
    if p.lesson is not None:
        where = _t("kin_lesson", lang, n=p.lesson, branch=b)
    else:
        assert p.position is not None
        where = _t("kin_step", lang, position=show(p.position, lang), branch=b)
    return _t("kin_void", lang, place=where) if p.void else where


def _kin_item(k: KinListing, lang: Lang) -> Item:
    name = show(k.kin, lang)
    if not k.places:
        return Item((_t("kin_none", lang, kin=name),))
    places = text("list.sep", lang).join(_place(p, lang) for p in k.places)
    return Item((_t("kin_title", lang, kin=name, places=places),))


def _day_and_branch_item(section: MatterSection, lang: Lang) -> Item | None:
    d = section.day_and_branch
    if d is None:
        return None
    said = [
        _t("day_and_branch", lang),
        _t(
            "stem_upper_yes" if d.stem_upper_overcomes else "stem_upper_no",
            lang,
            upper=show(d.stem_upper, lang),
            branch=show(d.day_branch, lang),
        ),
        _t(
            "branch_upper_yes" if d.branch_upper_overcomes else "branch_upper_no",
            lang,
            upper=show(d.branch_upper, lang),
            stem=show(d.day_stem, lang),
        ),
    ]
    if d.both:
        said.append(_t("both", lang))
    return Item(tuple(said))


def items(section: MatterSection, lang: Lang, *, texts: Corpus | None = None) -> tuple[Item, ...]:
    """The section as shown, in R1–R10's order: the heading, each 類神 (grounds, opening, line,
    facts), the 日辰 for marriage, the mentions, the patterns (R8 with 伏吟), the any-matter
    patterns, and the [伝統] 六親."""
    texts = corpus() if texts is None else texts
    if section.words:
        decided = _t("decided_by", lang, words=_t("words_sep", lang).join(section.words))
    else:
        decided = _t("chosen", lang)
    out: list[Item] = [Item((decided,), heading=_t("heading", lang, matter=term(section.matter, lang)))]
    if not section.spirits:
        out.append(Item((_t("no_spirit", lang),)))
    for s in section.spirits:
        out.extend(_spirit_items(s, lang, texts))
    day = _day_and_branch_item(section, lang)
    if day is not None:
        out.append(day)
    for m in section.mentions:
        said = (_t("mention", lang, general=show(m.general, lang), ground=show(m.ground, lang)),)
        out.append(_quote_item(m.quote, _t("role.mention", lang), said, lang))
    out.extend(_pattern_item(p, False, lang) for p in section.patterns)
    for u in section.undecided:
        needs = text("list.sep", lang).join(show(n, lang) for n in u.needs)
        out.append(Item((_t("undecided", lang, name=show(u.name, lang), needs=needs),), role=_t("role.pattern", lang)))
    out.extend(_pattern_item(p, True, lang) for p in section.any_matter)
    if section.kin is not None:
        out.append(_kin_item(section.kin, lang))
    return tuple(out)


def render_matters(sections: Sequence[MatterSection], lang: Lang) -> str:
    """The matter sections for a terminal, before the general reading: each quotation's original
    with the translation under it (ja/en), what is said with it, and a unit quoted above as a
    reference back."""
    if not sections:
        return ""
    bullet = text("reading.bullet", lang)
    lines = [_t("title", lang)]
    for section in sections:
        for item in items(section, lang):
            if item.heading is not None:
                lines.append(f"{'■' if item.level == 1 else ' ◆'} {item.heading}")
                lines.extend(f"  {bullet}{s}" for s in item.said)
                continue
            if item.quote is None or item.quote.above:
                ref = f"【{item.role}】 " if item.role else ""
                if item.quote is not None:
                    ref += f"({seed_lines(item.quote.unit)}) "
                lines.extend(f"  {bullet}{ref if i == 0 else ''}{s}" for i, s in enumerate(item.said))
                continue
            unit = item.quote.unit
            lines.append(f"  【{item.role}】 {original(unit, lang)}  ({seed_lines(unit)})")
            lines.extend(f"      {s}" for s in translation_lines(unit, lang))  # issue 25: English readers' too
            lines.extend(f"      ※ {s}" for s in item.said)
    return "\n".join(lines)


def matter_json(section: MatterSection) -> dict[str, object]:
    """One matter as JSON (schema 3, engine/schema.py): ``{"key", "words", "spirits", "units"}``."""
    return {
        "key": section.matter.value,
        "words": list(section.words),
        "spirits": [
            {
                "general": s.general.name,
                "heaven": s.heaven.name,
                "ground": s.ground.name,
                "transmissions": [p.name for p in s.positions],
                "lessons": list(s.lessons),
                "void": s.void,
                "vigour": None if s.vigour is None else s.vigour.name,
                "kin": s.kin.name,
                "bears": s.bears,
                "line": None if s.line is None else s.line.unit.id,
            }
            for s in section.spirits
        ],
        "units": list(section.units()),
    }
