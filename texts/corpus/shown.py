"""A corpus unit as a reader of a language is shown it: the original with its editorial marks, and
the translations under it, labelled (Japanese: the seed's; English: the project's first; Chinese
readers read the original).
"""

from __future__ import annotations

from texts.corpus.scripts import simplified
from texts.corpus.translations import TRANSLATOR, Translation, translations
from texts.corpus.units import Unit
from texts.words import Lang, text


def shows_translation(lang: Lang) -> bool:
    """The seed's translation is Japanese: shown to readers of Japanese and English, not Chinese."""
    return lang in ("ja", "en")


def original(unit: Unit, lang: Lang = "ja") -> str:
    """The classical original as the seed writes it, with the corpus's editorial marks shown
    (a broken character's emendation as 〔…〕, a slip followed by its mark in ``lang``: 〔ママ〕,
    [sic], 〔原文如此〕): never silently repaired."""
    # the corpus writes the sic mark in Japanese; other readers get their own word for it
    shown = unit.display_original
    return shown if lang == "ja" or _SIC not in shown else shown.replace(_SIC, text("reading.sic", lang))


_SIC = "〔ママ〕"  # what texts.corpus.Unit.display puts after a slip


def translation(unit: Unit) -> str:
    """The seed's Japanese translation, with its editorial marks (a slip followed by 〔ママ〕)."""
    return unit.display_translation


def seed_lines(unit: Unit) -> str:
    return ",".join(f"¶{n}" for n in unit.lines)


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


def sic_lines(unit: Unit, lang: Lang) -> tuple[str, ...]:
    """One line of why for each slip marked (〔ママ〕, [sic], 〔原文如此〕) in what a reader of ``lang`` is
    shown of ``unit``: a slip of the original, for every reader; a slip of the Japanese translation,
    for readers of Japanese (English readers are told by the translation's own mark, Chinese
    readers are not shown the Japanese)."""
    lines = []
    for n in unit.notes_of("sic"):
        if n.field == "original":
            read = n.read if lang != "zh-CN" else simplified(n.read)
            lines.append(text("reading.sic_original", lang, at=n.at, read=read))
        elif lang == "ja":
            lines.append(text("reading.sic_translation", lang, at=n.at, read=n.read))
    return tuple(lines)


def translation_marks(english: Translation, lang: Lang) -> list[str]:
    """The editor's notes on the project's translation, each as the mark a reader of ``lang`` sees."""
    return [text("translation.mark", lang, kind=text(f"translation.kind.{n.kind}", lang), says=n.says)
            for n in english.notes]


def unit_lines(unit: Unit, lang: Lang, *, japanese: bool = True) -> tuple[str, ...]:
    """A quoted unit as a reader of ``lang`` is shown it: the classical original with its editorial
    marks (none when the unit has no classical text), then ``translation_lines``. The one call for
    a reply that quotes a unit (the bot's embeds, a lookup)."""
    head = (original(unit, lang),) if unit.original else ()
    return head + translation_lines(unit, lang, japanese=japanese)


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
