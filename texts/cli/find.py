"""``liuren find TERM``: the classical charts where a 課体 or a method applies, or a line is quoted.

For teachers setting exercises: every (day, 月将, hour) of the 720 plates, at a 晝 hour (午) and a
夜 hour (子) so both 貴人 are seen, that has the 課体 or method named, or whose reading quotes the
unit named (by id or by a key the corpus knows).
"""

from __future__ import annotations

from engine.classical import classical_charts
from engine.patterns import detect
from engine.school import School
from engine.terms import Method, PatternName
from texts.corpus import canonical_general, corpus
from texts.corpus.normalize import normalize
from texts.memo import remember
from texts.reading import read
from texts.words import Lang, corpus_name, text
from texts.words import term as words_term
from texts.words.explain import chart_name
from texts.words.schools import school_line


@remember(4)
def _named(school: School) -> tuple[tuple[PatternName, ...], ...]:
    """The 課体 that hold in each classical chart of ``school``, in ``classical_charts``'s order:
    worked out once for a few finds in a row (a teacher's session, the site's pages, the tests), not
    once per find (a find was 1,440 classifications)."""
    return tuple(tuple(p.name for p in detect(chart)) for chart in classical_charts(school))


def _member(enum: type[Method] | type[PatternName], name: str) -> Method | PatternName | None:
    """The member named ``name`` in any script (鑄印, 铸印 and 鋳印 are PatternName.鋳印)."""
    folded = normalize(name)
    return next((m for m in enum if normalize(m.name) == folded), None)


def _matcher(term: str) -> tuple[str, object]:
    name = term.strip()
    for enum in (PatternName, Method):
        member = _member(enum, name)
        if member is not None:
            return ("pattern" if enum is PatternName else "method"), member
    c = corpus()
    try:
        return "unit", c.get(name).id
    except KeyError:
        pass
    found = c.method(name) or c.pattern(name) or c.general(name)
    if found is None:
        raise LookupError(f"{term!r} is neither a 課体, a method nor a line of the corpus: try liuren lookup {term}")
    return "unit", found.id


def shown_term(term: str, lang: Lang) -> str:
    """What was asked for, in the reader's script: a 課体, method, general or name by its form in
    ``lang`` (鋳印 → 鑄印 in zh-TW), anything else (a unit id) as typed."""
    name = term.strip()
    for enum in (PatternName, Method):
        member = _member(enum, name)
        if member is not None:
            return words_term(member, lang)
    general = canonical_general(name)
    if general is not None:
        return words_term(general, lang)
    folded = normalize(name)
    key = next((k for u in corpus().units for k in u.names if normalize(k) == folded), None)
    return corpus_name(key, lang) if key is not None else name


def find_charts(term: str, school: School, lang: Lang) -> list[str]:
    """One line per chart where ``term`` applies, then the count; first, the school options in force
    when they are not the defaults."""
    kind, wanted = _matcher(term)
    lines: list[str] = []
    school_note = school_line(school, lang)  # the non-default school options, named first
    named = _named(school) if kind == "pattern" else ()
    for i, chart in enumerate(classical_charts(school)):
        if kind == "pattern":
            hit = any(name is wanted for name in named[i])
        elif kind == "method":
            hit = chart.transmissions.method is wanted
        else:
            hit = any(u.id == wanted for u in read(chart).units())
        if hit:
            lines.append(text("cli.find_line", lang, day=chart.day, yuejiang=chart.yuejiang, hour=chart.hour,
                              time=text("noble.day" if chart.generals.daytime else "noble.night", lang),
                              name=chart_name(chart.transmissions, lang)))
    lines.append(text("cli.find_count", lang, term=shown_term(term, lang), count=len(lines)))
    return lines if school_note is None else [school_note, *lines]
