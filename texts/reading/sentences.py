"""A reading written out for a reader: the one place its notes become sentences.

Everything here takes a :class:`~texts.reading.Reading` (or one of its notes) and a language and
returns text; the terminal (``liuren``) and the bot both build on it. A quoted unit is shown as
texts/corpus/shown.py shows it.

    >>> from engine import cast_classical
    >>> from texts.reading import read
    >>> reading = read(cast_classical("甲子", "亥", "午"))
    >>> say(reading.entries[0].notes[0], "ja")
    '課名 知一'
"""

from __future__ import annotations

from itertools import repeat

from engine.reasons import Why
from engine.terms import Role
from texts.corpus.shown import original, seed_lines, sic_lines, translation_lines
from texts.memo import remember
from texts.reading.values import Entry, Note, Reading, Said, Section
from texts.words import Lang, corpus_name, term, text
from texts.words.explain import explain, show


@remember(1 << 11)  # ≈ 0.5 KB a sentence with its note: about 1 MB (docs/performance.md)
def say(item: Said, lang: Lang) -> str:
    """One note or reason of a reading as a sentence in ``lang`` (notes are values: each is written once)."""
    if isinstance(item, Why):
        return explain(item, lang)
    values = {name: show(value, lang) for name, value in item.values}
    return text(f"reading.{item.key}", lang, **values)


def section_title(section: Section, lang: Lang) -> str:
    return text(_SECTION_KEYS[section], lang)


def role_label(entry: Entry, lang: Lang) -> str:
    """The entry's role, with the 伝 it is about: ``初伝 天将``, ``課体``…"""
    role = text(_ROLE_KEYS[entry.role], lang)
    position = entry.position
    return role if position is None else f"{term(position, lang)} {role}"  # term: what show writes of it


# Template keys by member, made once (Enum .name is a Python-level property, and these are
# written for every entry of every reading).
_SECTION_KEYS = {s: f"reading.section.{s._name_}" for s in Section}
_ROLE_KEYS = {r: f"reading.role.{r._name_}" for r in Role}


def notes(entry: Entry, lang: Lang) -> list[str]:
    """What the reading says with an entry, as sentences; a stated fact is marked as stated."""
    said = list(map(say, entry.notes, repeat(lang)))  # say called from C: no comprehension's frame
    unit = entry.unit
    if unit is not None and unit.notes:  # a slip marked in the quotation: why, in one line
        said += sic_lines(unit, lang)
    names = entry.names
    if names:  # in the reader's script; one name (most name lines) needs no separator looked up
        shown = corpus_name(names[0], lang) if len(names) == 1 else text("list.sep", lang).join(
            [corpus_name(n, lang) for n in names])
        said.append(text("reading.name_of", lang, names=shown))
    if unit is None:
        for n in entry.notes:  # a loop, not a generator: asked for every entry without a line
            if isinstance(n, Note) and n.key in _STATED:
                said.append(text("reading.stated", lang))
                break
    return said


_STATED = frozenset({"kin", "vigour", "void", "hidden_stem", "seat"})


def render_reading(reading: Reading, lang: Lang, *, with_trace: bool = True) -> str:
    """The reading for a terminal: section by section, each line's original with the translation
    under it (for ja/en), and what the reading says with it; ``with_trace=False`` (``--no-trace``)
    leaves out the 取法 section's step-by-step trace, keeping its quoted lines."""
    lines = [text("reading.title", lang)]
    bullet = f"  {text('reading.bullet', lang)}"  # once, not once per line
    current: Section | None = None
    for entry in reading.entries:
        if not with_trace and entry.section is Section.取法 and entry.unit is None:
            continue
        if entry.section is not current:
            current = entry.section
            lines.append(f"■ {section_title(current, lang)}")
        said = notes(entry, lang)
        if entry.unit is None:
            lines.extend(bullet + s for s in said)
            continue
        unit = entry.unit
        lines.append(f"  【{role_label(entry, lang)}】 {original(unit, lang)}  ({seed_lines(unit)})")
        lines.extend(f"      {s}" for s in translation_lines(unit, lang))
        lines.extend(f"      ※ {s}" for s in said)
    return "\n".join(lines)
