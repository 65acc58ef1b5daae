"""A reading written out for a reader: the one place its notes become sentences.

Everything here takes a :class:`~texts.reading.Reading` (or one of its notes) and a language and
returns text; the terminal (``liuren``) and the bot (bot/embeds.py) both build on it. The classical
original is always shown as written; the seed's Japanese translation is shown beside it for readers
of Japanese and English, and English readers read the project's own English translation first,
labelled as the project's (``translation_lines``; Chinese readers read the original).

    >>> from engine import cast_classical
    >>> from texts.reading import read
    >>> reading = read(cast_classical("甲子", "亥", "午"))
    >>> say(reading.entries[0].notes[0], "ja")
    '課名 知一'
"""

from __future__ import annotations

from engine.reasons import Why
from engine.terms import Role
from texts.corpus import Unit
from texts.corpus.translations import TRANSLATOR, Translation, translations  # issue 25
from texts.memo import remember
from texts.reading import Entry, Note, Reading, Said, Section
from texts.words import Lang, corpus_name, text
from texts.words.explain import explain, show


def shows_translation(lang: Lang) -> bool:
    """The seed's translation is Japanese: shown to readers of Japanese and English, not Chinese."""
    return lang in ("ja", "en")


@remember(1 << 11)  # issue 21: ≈ 0.5 KB a sentence with its note; 8,192 of them held 4 MB
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
    return role if entry.position is None else f"{show(entry.position, lang)} {role}"


# Template keys by member, made once (issue 23: Enum .name is a Python-level property, and these are
# written for every entry of every reading).
_SECTION_KEYS = {s: f"reading.section.{s._name_}" for s in Section}
_ROLE_KEYS = {r: f"reading.role.{r._name_}" for r in Role}


def original(unit: Unit, lang: Lang = "ja") -> str:
    """The classical original as the seed writes it, with the corpus's editorial marks shown
    (a broken character's emendation as 〔…〕, a slip followed by its mark in ``lang``: 〔ママ〕,
    [sic], 〔原文如此〕): never silently repaired."""
    # issue 19: the corpus writes the sic mark in Japanese; other readers get their own word for it
    shown = unit.display_original
    return shown if lang == "ja" else shown.replace(_SIC, text("reading.sic", lang))


_SIC = "〔ママ〕"  # what texts.corpus.Unit.display puts after a slip


def translation(unit: Unit) -> str:
    """The seed's Japanese translation, with its editorial marks (a slip followed by 〔ママ〕)."""
    return unit.display_translation


def seed_lines(unit: Unit) -> str:
    return ",".join(f"¶{n}" for n in unit.lines)


# -- issue 25: what a reader is shown under a quoted line: the translations, labelled ----------------


def translation_lines(unit: Unit, lang: Lang, *, japanese: bool = True) -> tuple[str, ...]:
    """The lines a reader of ``lang`` is shown under ``unit``'s original, in order.

    Japanese: the seed's translation, unlabelled (as it always was). English: the project's own
    English translation labelled as the project's, each of its editor's notes as a mark
    (``[obscure] …``), then the seed's Japanese labelled as the seed's; ``japanese=False`` leaves
    the Japanese out, only for a reply that offers it another way (a button). Chinese readers read
    the original: nothing.

    >>> from texts.corpus import corpus
    >>> translation_lines(corpus().get("method.元首"), "en", japanese=False)[0][:46]
    "English (this project's translation): If among"
    >>> translation_lines(corpus().get("method.元首"), "zh-TW")
    ()
    """
    if lang == "ja":
        return (translation(unit),) if unit.translation else ()
    if lang != "en":
        return ()
    lines: list[str] = []
    english = translations("en").get(unit.id)
    if english is not None:
        lines.append(text("translation.line", lang, label=text("translation.label_en", lang), words=english.text))
        lines += translation_marks(english, lang)
    if japanese and unit.translation:
        lines.append(text("translation.line", lang, label=text("translation.label_ja", lang), words=translation(unit)))
    return tuple(lines)


def translation_marks(english: Translation, lang: Lang) -> list[str]:
    """The editor's notes on the project's translation, each as the mark a reader of ``lang`` sees."""
    return [text("translation.mark", lang, kind=text(f"translation.kind.{n.kind}", lang), says=n.says)
            for n in english.notes]


def unit_lines(unit: Unit, lang: Lang, *, japanese: bool = True) -> tuple[str, ...]:
    """A quoted unit as a reader of ``lang`` is shown it: the classical original with its editorial
    marks (none when the unit has no classical text), then ``translation_lines``. The one call for
    a reply that quotes a unit (the bot's embeds, a lookup)."""
    shown = original(unit, lang)
    return ((shown,) if unit.original else ()) + translation_lines(unit, lang, japanese=japanese)


def unit_translations(unit: Unit, lang: Lang) -> dict[str, dict[str, object]]:
    """A unit's translations for a reader of ``lang``, as JSON, by language, each with its
    translator: ``"ja"`` the seed's (verbatim ``text``; ``shown`` with its marks) for every reader,
    ``"en"`` the project's (``text`` and its ``notes``, each ``kind`` and ``says``) for English
    readers, who are shown it (``translation_lines``). A translation the unit lacks is absent."""
    found: dict[str, dict[str, object]] = {}
    if unit.translation:
        found["ja"] = {"translator": "seed", "text": unit.translation, "shown": translation(unit)}
    english = translations("en").get(unit.id) if lang == "en" else None
    if english is not None:
        found["en"] = {"translator": TRANSLATOR, "text": english.text,
                       "notes": [{"kind": n.kind, "says": n.says} for n in english.notes]}
    return found


# -- end of issue 25 ---------------------------------------------------------------------------------


def notes(entry: Entry, lang: Lang) -> list[str]:
    """What the reading says with an entry, as sentences; a stated fact is marked as stated."""
    said = [say(n, lang) for n in entry.notes]
    if entry.names:
        said.append(text("reading.name_of", lang,  # the names in the reader's script (issue 19)
                         names=text("list.sep", lang).join(corpus_name(n, lang) for n in entry.names)))
    if entry.unit is None and any(isinstance(n, Note) and n.key in _STATED for n in entry.notes):
        said.append(text("reading.stated", lang))
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
        lines.extend(f"      {s}" for s in translation_lines(unit, lang))  # issue 25
        lines.extend(f"      ※ {s}" for s in said)
    return "\n".join(lines)
