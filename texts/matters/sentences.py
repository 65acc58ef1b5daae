"""The matter sections of a reply written out for a reader (the presentation of texts/matters/values.py).

:func:`items` turns a :class:`~texts.matters.values.MatterSection` into :class:`Item` values: a
heading or a quotation with what is said beside it, in ``lang``; the terminal (:func:`render_matters`)
and the bot lay those out. The words are texts/locales/<lang>/matter.toml. The classical original is
shown as written; the seed's Japanese translation beside it for readers of Japanese and English,
as in the general reading (texts/reading/sentences.py). The sentences come formatted from
texts/matters/phrases.py's tables, which hold each for every value it can take.

    >>> from engine import cast_classical
    >>> from texts.matters.values import answer
    >>> reply = answer(cast_classical("辛巳", "戌", "巳"), question="財布をなくしました。見つかりますか？")
    >>> items(reply.matters[0], "ja")[0].said
    ('問いの語「なくし」による（違うときは占事を指定できる）',)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.terms import General
from texts.corpus import Corpus, corpus
from texts.corpus.shown import seed_lines, sic_lines
from texts.matters.phrases import Phrases, grounds_shown, phrases, quote_text
from texts.matters.values import KinListing, MatterSection, PatternReading, Quote, SpiritReading
from texts.words import Lang, text
from texts.words.explain import show


@dataclass(frozen=True, slots=True)
class Item:
    """One step of a matter section as shown: a ``heading`` (the matter, a 類神: ``level`` 1, 2), or a quotation
    (``quote``, with ``role`` its label) — or neither: stated facts only. ``said``: the sentences."""

    said: tuple[str, ...]
    heading: str | None = None
    quote: Quote | None = None
    role: str | None = None
    level: int = 1  # of a heading: 1 the matter, 2 a 類神


# One step as shown, Item's fields as a plain tuple (said, heading, quote, role, level): the terminal
# lays the steps out directly, and only the bot's items() pays for the values (a frozen dataclass
# costs a call per field to build).
_Step = tuple[tuple[str, ...], str | None, Quote | None, str | None, int]


def _quoted(quote: Quote, role: str, said: Sequence[str], p: Phrases) -> _Step:
    if quote.above:  # say which line: the reader finds it by its ¶
        return ((*said, p.t("above", lines=seed_lines(quote.unit))), None, quote, role, 1)
    sics = p.quotes[quote.unit.id].sics if quote.unit.id in p.quotes else sic_lines(quote.unit, p.lang)
    return ((*said, *sics), None, quote, role, 1)


def _grounds(s: SpiritReading, p: Phrases) -> str:
    """The grounds said before the 類神's opening; not the opening's own words when it is quoted next."""
    quoted_here = s.opening is not None and not s.opening.above
    held = p.grounds.get(id(s.grounds))
    if held is not None and held[0] is s.grounds:  # one of matters.table's rows (the phrases hold its sentence)
        return held[2] if quoted_here else held[1]
    return grounds_shown(s.grounds, s.opening.unit.id if quoted_here and s.opening else None, p.lang, p.texts)


def _spirit_steps(s: SpiritReading, p: Phrases, out: list[_Step]) -> None:
    general, ground, heaven = s.general, s.ground, s.heaven
    at = general * 12 + ground
    if 1 <= s.rank <= 3:
        heading = p.spirit[(s.rank - 1) * 12 + general]
    else:
        heading = p.t("spirit", rank=s.rank, general=p.general[general])
    if s.above is not None:
        above = p.t("spirit_above", general=p.general[general], matter=p.matter[s.above])
        out.append(((above,), heading, None, None, 2))
        return
    out.append(((_grounds(s, p),), heading, None, None, 2))
    # R1 the opening, with R3 and R4 said beside it
    opening_said: list[str] = []
    if s.excluded:
        opening_said.append(p.excluded[at])
    if s.bears is True:
        seen = general is General.騰蛇 and not s.initial
        opening_said.append(p.word["bears_seen" if seen else "bears"])
    elif s.bears is False:
        # 騰蛇's limit to 發用 is the seed's translation and our default, not the original (¶95 但見)
        opening_said.append(p.not_bears_serpent if general is General.騰蛇 else p.word["not_bears"])
    if s.opening is not None:
        out.append(_quoted(s.opening, p.word["role.opening"], opening_said, p))
        opening_said = []
    # R2 where it stands, and its line
    # (a stated fact never sits under a quotation, where it would read as the seed's)
    stands = p.stands[at * 12 + heaven]
    if s.line is None:
        out.append(((stands, p.no_line[at]), None, None, None, 1))
    else:
        out.append(((stands,), None, None, None, 1))
        unit = s.line.unit
        quoted = p.quotes.get(unit.id)
        if quoted is None or quoted.unit is not unit:
            quoted = quote_text(unit, p.lang)
        name = quoted.names[ground]
        out.append(_quoted(s.line, p.word["role.line"], () if name is None else (name,), p))
    # R3 (the 伝), R5 (the lessons), R6 (facts without verdict): what SpiritReading's positions,
    # lessons, void, vigour and kin say, read off the chart as the tables' numbers
    # (the steps are 初伝 中伝 末伝 and the lessons 1–4, in order: engine/chart.py, engine/lessons.py)
    chart = s.chart
    t, x = chart.steps, chart.lessons
    rides = (t[0].branch == heaven) | (t[1].branch == heaven) << 1 | (t[2].branch == heaven) << 2
    upper = (x[0].upper == heaven) | (x[1].upper == heaven) << 1 | (x[2].upper == heaven) << 2 | (
        x[3].upper == heaven) << 3
    facts = [*opening_said, p.rides[general * 8 + rides], p.lessons[heaven * 16 + upper]]
    facts.append(p.void[heaven * 2 + (heaven in chart.void)])
    month = s.known.month
    if month is not None:
        facts.append(p.vigour[month * 12 + heaven])
    facts.append(p.kin[chart.day.stem * 12 + heaven])
    facts.append(p.word["stated"])
    out.append((tuple(facts), None, None, None, 1))


def _pattern_step(r: PatternReading, any_matter: bool, lang: Lang, p: Phrases) -> _Step:
    names = p.name_sep.join(show(n, lang) for n in r.names)
    said = [p.t("any" if any_matter else "pattern", names=names)]
    if r.search is not None:
        s = r.search
        key = "reading.hidden_chant_search_順" if s.clockwise else "reading.hidden_chant_search_逆"
        said.append(text(key, lang, branch=p.branch[s.day_branch], place=p.branch[s.place]))
    role = p.word["role.any" if any_matter else "role.pattern"]
    if r.quote is None:
        return ((*said, p.t("no_verse", names=names)), None, None, role, 1)
    return _quoted(r.quote, role, said, p)


def _place(branch: int, void: bool, lesson: int | None, position: int | None, p: Phrases) -> str:
    if lesson is not None:
        where = p.kin_lesson[(lesson - 1) * 12 + branch]
    else:
        assert position is not None
        where = p.kin_step[position * 12 + branch]
    return p.t("kin_void", place=where) if void else where


def _kin_said(k: KinListing, lang: Lang, p: Phrases) -> str:
    name = show(k.kin, lang)
    places = k.where()  # KinListing.places, as their fields
    if not places:
        return p.t("kin_none", kin=name)
    return p.t("kin_title", kin=name, places=p.sep.join(_place(*x, p) for x in places))


def _day_and_branch_said(section: MatterSection, p: Phrases) -> tuple[str, ...] | None:
    d = section.day_and_branch
    if d is None:
        return None
    said = (
        p.word["day_and_branch"],
        p.stem_upper[(d.stem_upper * 12 + d.day_branch) * 2 + d.stem_upper_overcomes],
        p.branch_upper[(d.branch_upper * 10 + d.day_stem) * 2 + d.branch_upper_overcomes],
    )
    return (*said, p.word["both"]) if d.both else said


def _steps(section: MatterSection, lang: Lang, p: Phrases) -> list[_Step]:
    if section.words:
        decided = p.t("decided_by", words=p.word["words_sep"].join(section.words))
    else:
        decided = p.word["chosen"]
    heading = p.t("person_heading", person=p.word["person"], matter=p.matter[section.matter]) if section.person \
        else p.heading[section.matter]
    out: list[_Step] = [((decided,), heading, None, None, 1)]
    if not section.spirits:
        out.append(((p.word["no_spirit"],), None, None, None, 1))
    for s in section.spirits:
        _spirit_steps(s, p, out)
    day = _day_and_branch_said(section, p)
    if day is not None:
        out.append((day, None, None, None, 1))
    for m in section.mentions:
        out.append(_quoted(m.quote, p.word["role.mention"], (p.mention[m.general * 12 + m.ground],), p))
    out.extend(_pattern_step(r, False, lang, p) for r in section.patterns)
    for u in section.undecided:
        needs = p.sep.join(show(n, lang) for n in u.needs)
        said = (p.t("undecided", name=show(u.name, lang), needs=needs),)
        out.append((said, None, None, p.word["role.pattern"], 1))
    out.extend(_pattern_step(r, True, lang, p) for r in section.any_matter)
    if section.kin is not None:
        out.append(((_kin_said(section.kin, lang, p),), None, None, None, 1))
    return out


def items(section: MatterSection, lang: Lang, *, texts: Corpus | None = None) -> tuple[Item, ...]:
    """The section as shown, in R1–R10's order: the heading, each 類神 (grounds, opening, line,
    facts), the 日辰 for marriage, the mentions, the patterns (R8 with 伏吟), the any-matter
    patterns, and the [伝統] 六親."""
    p = phrases(lang, corpus() if texts is None else texts)
    return tuple(Item(*step) for step in _steps(section, lang, p))


def render_matters(sections: Sequence[MatterSection], lang: Lang) -> str:
    """The matter sections for a terminal, before the general reading: each quotation's original
    with the translation under it (ja/en), what is said with it, and a unit quoted above as a
    reference back."""
    if not sections:
        return ""
    p = phrases(lang, corpus())
    bullet = f"  {p.bullet}"
    between = f"\n{bullet}"  # each sentence on a line of its own (joined here, not line by line)
    lines = [p.word["title"]]
    for section in sections:  # the steps of items(), laid out
        for said, heading, quote, role, level in _steps(section, lang, p):
            if heading is not None:
                lines.append(f"{'■' if level == 1 else ' ◆'} {heading}")
                if said:
                    lines.append(bullet + between.join(said))
                continue
            if quote is None or quote.above:
                ref = f"【{role}】 " if role else ""
                if said:
                    lines.append(bullet + ref + between.join(said))
                continue
            unit = quote.unit
            shown = p.quotes.get(unit.id)
            if shown is None or shown.unit is not unit:
                shown = quote_text(unit, lang)
            lines.append(f"  【{role}】 {shown.original}  ({shown.seeds})")
            lines.extend(shown.under)
            if said:
                lines.append("      ※ " + "\n      ※ ".join(said))
    return "\n".join(lines)


def unrecognised(lang: Lang, option: str) -> str:
    """The line said when a question named no matter (§9.4): the general reading only, and how to
    choose one (``option``: the matter option as the reader's front end shows it, ``--matter``)."""
    return text("matter.none", lang, option=option)


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
