"""The project's own translations of the 《心印賦》 (data: texts/translations/<lang>/*.toml).

The corpus (texts/corpus/units.py) holds the seed's words: the classical original and the seed's Japanese
translation, verbatim. A translation here is the project's own rendering of a unit's original into
another language, never the seed's, and always labelled so (``translator = "project"``).
docs/translation.md says how it was made and how to propose a correction.

    >>> t = english("method.重審")
    >>> t.translator, t.unit_id
    ('project', 'method.重審')
    >>> "Repeated Examination (重審課)" in t.text
    True
    >>> english("front.title").text
    'A Guide to Da Liu Ren (大六壬指南), Volume 1'

A file of a language directory looks like this (every file of the directory is read)::

    language = "en"
    translator = "project"

    [units."method.重審"]
    text = \"\"\"…the unit's original in English, verse then annotation…\"\"\"
    [[units."method.重審".notes]]
    kind = "from-original"
    says = "…"

Validation at load, each failure a ``TranslationError`` naming the file and the unit: the file's
``language`` is its directory's name; ``translator`` is ``"project"``; every unit id is a unit of
the corpus, given once in the language; ``text`` is a non-empty string; a note's ``kind`` is one of
``NOTE_KINDS`` and its ``says`` non-empty; no unknown keys (a misspelt field is not silently dropped);
outside Japanese, no kana in a text or a note. And the language is complete: every unit that needs
a translation (``needs_translation``) has one (``missing``, ``require_complete``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from texts import shipped
from texts.corpus import Corpus, Unit, corpus
from texts.memo import remember

ROOT = shipped.ROOT / "translations"
TRANSLATOR = "project"  # the only translator: the seed's own translation lives in the corpus
# what a note on a translation may say (docs/translation.md, "Editorial marks")
NOTE_KINDS = (
    "from-original",  # the seed's Japanese misreads or adds to the original; translated from the original
    "broken",  # a broken character (U+FFFD) in the seed's original at this place (the English shows [?])
    "from-japanese",  # the unit has no classical words (a sentence of the seed's Japanese); the English renders it
    "obscure",  # the original is obscure here; the note says how it was read
    "sic",  # a slip of the original, read as the note says
)
# hiragana, katakana (with its middle dot ・ and long-vowel mark ー), katakana extensions, half-width katakana
KANA = re.compile("[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_FILE_KEYS = frozenset({"language", "translator", "units"})
_UNIT_KEYS = frozenset({"text", "notes"})
_NOTE_KEYS = frozenset({"kind", "says"})


class TranslationError(ValueError):
    """The translation data is malformed or incomplete; the message names the file and the unit."""


@dataclass(frozen=True, slots=True)
class TranslationNote:
    """An editor's note on a translated unit: ``kind`` is one of NOTE_KINDS, ``says`` one sentence."""

    kind: str
    says: str


@dataclass(frozen=True, slots=True)
class Translation:
    """The project's translation of one corpus unit: its whole original (verse, then annotation)."""

    unit_id: str
    text: str
    notes: tuple[TranslationNote, ...]
    translator: str


def needs_translation(unit: Unit) -> bool:
    """Whether ``unit`` must have a translation in every language: it has the seed's Japanese.

    Every unit is showable (a lookup reaches any unit by its keys; readings, the quiz and the
    site quote them), so the rule is the issue's: a unit with a Japanese translation needs one.
    """
    return bool(unit.translation)


def _problem(where: str, unit_id: str | None, message: str) -> TranslationError:
    return TranslationError(f"{where}: unit {unit_id!r}: {message}" if unit_id else f"{where}: {message}")


def _note(where: str, unit_id: str, i: int, table: Any) -> TranslationNote:
    if not isinstance(table, Mapping):
        raise _problem(where, unit_id, f"note {i} is not a table")
    extra = set(table) - _NOTE_KEYS
    if extra:
        raise _problem(where, unit_id, f"note {i} has unknown key(s) {sorted(extra)}; a note has kind and says")
    kind, says = table.get("kind"), table.get("says")
    if kind not in NOTE_KINDS:
        raise _problem(where, unit_id, f"note {i} has kind {kind!r}; expected one of {', '.join(NOTE_KINDS)}")
    if not isinstance(says, str) or not says.strip():
        raise _problem(where, unit_id, f"note {i} ({kind}) says nothing")
    return TranslationNote(kind, says)


def _check_script(where: str, unit_id: str, language: str, text: str, what: str) -> None:
    if language == "ja":
        return
    found = KANA.search(text)
    if found:
        context = text[max(found.start() - 12, 0) : found.end() + 12]
        raise _problem(
            where,
            unit_id,
            f"kana {found.group()!r} in the {language} {what}: …{context}… "
            "(quote the Japanese by its sense, in English, or by its kanji)",
        )


def parse_file(
    data: Mapping[str, Any], *, language: str, known: Iterable[str], where: str = "<data>"
) -> dict[str, Translation]:
    """The translations of one parsed file of ``language``; TranslationError if any is invalid.

    ``known`` are the corpus's unit ids; ``where`` names the file in errors.
    """
    known = frozenset(known)
    extra = set(data) - _FILE_KEYS
    if extra:
        raise _problem(where, None, f"unknown top-level key(s) {sorted(extra)}; expected language, translator, units")
    if data.get("language") != language:
        raise _problem(where, None, f"language is {data.get('language')!r}, but the file is in the {language!r} folder")
    translator = data.get("translator")
    if translator != TRANSLATOR:
        raise _problem(where, None, f"translator is {translator!r}; the translations are the project's: {TRANSLATOR!r}")
    units = data.get("units")
    if not isinstance(units, Mapping) or not units:
        raise _problem(where, None, 'no [units."<id>"] tables')
    found: dict[str, Translation] = {}
    for unit_id, table in units.items():
        if unit_id not in known:
            raise _problem(where, unit_id, "no unit of the corpus has this id")
        if not isinstance(table, Mapping):
            raise _problem(where, unit_id, "not a table")
        extra = set(table) - _UNIT_KEYS
        if extra:
            raise _problem(where, unit_id, f"unknown key(s) {sorted(extra)}; a unit has text and notes")
        text = table.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _problem(where, unit_id, "the text is empty")
        notes = table.get("notes", [])
        if not isinstance(notes, list):
            raise _problem(where, unit_id, 'notes must be an array of tables ([[units."<id>".notes]])')
        parsed = tuple(_note(where, unit_id, i, n) for i, n in enumerate(notes, 1))
        _check_script(where, unit_id, language, text, "text")
        for n in parsed:
            _check_script(where, unit_id, language, n.says, f"{n.kind} note")
        found[unit_id] = Translation(unit_id, text, parsed, translator)
    return found


def load_language(language: str, root: Path = ROOT, source: Corpus | None = None) -> Mapping[str, Translation]:
    """Every translation of ``language`` under ``root``/<language>/*.toml, validated, by unit id.

    TranslationError (naming the file) for bad TOML, an invalid entry, or a unit given twice.
    Completeness is not checked here: see ``require_complete``.
    """
    folder = root / language
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise TranslationError(f"{folder}: no translation files")
    known = {u.id for u in (source or corpus()).units}
    merged: dict[str, Translation] = {}
    origin: dict[str, Path] = {}
    for path in files:
        where = str(path)
        try:
            data = shipped.load(path)
        except ValueError as e:  # not TOML (tomllib.TOMLDecodeError) or not UTF-8
            raise TranslationError(f"{where}: not valid TOML: {e}") from e
        for unit_id, t in parse_file(data, language=language, known=known, where=where).items():
            if unit_id in merged:
                raise _problem(where, unit_id, f"already translated in {origin[unit_id].name}")
            merged[unit_id] = t
            origin[unit_id] = path
    return MappingProxyType(merged)


def missing(translations: Mapping[str, Translation], source: Corpus | None = None) -> tuple[str, ...]:
    """Ids of the units that need a translation (``needs_translation``) and have none, in seed order."""
    return tuple(u.id for u in (source or corpus()).units if needs_translation(u) and u.id not in translations)


def require_complete(language: str, translations: Mapping[str, Translation], source: Corpus | None = None) -> None:
    """TranslationError naming every unit of the corpus that needs a ``language`` translation and lacks one."""
    lacking = missing(translations, source)
    if lacking:
        shown = ", ".join(lacking[:12]) + (f" and {len(lacking) - 12} more" if len(lacking) > 12 else "")
        raise TranslationError(f"{ROOT / language}: {len(lacking)} unit(s) have no {language} translation: {shown}")


def languages(root: Path = ROOT) -> tuple[str, ...]:
    """The languages with a translation folder, sorted."""
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.toml"))))


@remember()
def translations(language: str) -> Mapping[str, Translation]:
    """The package's translations of ``language``, loaded and validated once, complete or an error.

    Complete: every unit that ``needs_translation`` has one (``require_complete``).
    """
    found = load_language(language)
    require_complete(language, found)
    return found


def english(unit_id: str) -> Translation | None:
    """The project's English translation of a unit; None if the unit has none (no Japanese either).

    KeyError for an id that is no unit of the corpus.
    """
    corpus().get(unit_id)
    return translations("en").get(unit_id)
