"""The corpus editor's words in the reader's language: its notes, and why no chart reaches a name line.

texts/corpus.toml gives each ``[[unit.notes]]`` its ``says`` in English; texts/corpus_notes.toml gives
the same notes in Japanese and Chinese, one table per note keyed ``"<unit id>#<n>"`` (its place among
its unit's notes, from 1). At load every note must have every language and no table may name a note
the corpus lacks or a language it does not speak; each translation carries its English's ¶ numbers.

    >>> from texts.corpus import corpus
    >>> u = corpus().get("pattern.天獄")
    >>> says(u, 0, "zh-TW").endswith("讀作「憂」。"), says(u, 0, "en") == u.notes[0].says
    (True, True)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from engine.symbols import BRANCHES
from engine.terms import GENERALS
from texts import shipped
from texts.corpus.book import Corpus, corpus
from texts.corpus.units import Unit
from texts.memo import remember
from texts.words import LANGS, Lang, term, text

NOTES = shipped.ROOT / "corpus_notes.toml"
# English is the corpus's own words; every other language the project speaks is here
TRANSLATED: tuple[Lang, ...] = tuple(lang for lang in LANGS if lang != "en")
_PARAGRAPH = re.compile(r"¶\d+")
_CLOCKWISE = "亥子丑寅卯辰"  # ¶87: 貴人 on these leads the generals clockwise, on the others counter-clockwise


class NotesWordsError(ValueError):
    """The note translations are unreadable, or disagree with the corpus's notes."""


def note_key(unit: Unit, index: int) -> str:
    """The key of ``unit``'s note at ``index`` (0-based) in corpus_notes.toml: ``general.騰蛇#1``."""
    return f"{unit.id}#{index + 1}"


def load(path: Path = NOTES, c: Corpus | None = None) -> dict[str, dict[Lang, str]]:
    """Every note's translations by key, checked against the corpus ``c`` (the shipped one by default)."""
    try:
        data = shipped.load(path)
    except (OSError, ValueError) as error:  # unreadable, not UTF-8, not TOML
        raise NotesWordsError(f"{path}: {error}") from None
    english = {note_key(u, i): n.says for u in (c or corpus()).units for i, n in enumerate(u.notes)}
    missing, extra = sorted(english.keys() - data.keys()), sorted(data.keys() - english.keys())
    if missing or extra:
        raise NotesWordsError(f"{path}: notes differ from the corpus's: missing {missing}, extra {extra}")
    loaded: dict[str, dict[Lang, str]] = {}
    for key, table in data.items():
        if not isinstance(table, Mapping):
            raise NotesWordsError(f"{path}: {key!r} must be a table of languages")
        langs = set(table)
        if langs != set(TRANSLATED):
            raise NotesWordsError(f"{path}: {key!r} has languages {sorted(langs)}, wants {sorted(TRANSLATED)}")
        said: dict[Lang, str] = {}
        for lang in TRANSLATED:
            value = table[lang]
            if not isinstance(value, str) or not value.strip():
                raise NotesWordsError(f"{path}: {key!r} {lang} must say something")
            if Counter(_PARAGRAPH.findall(value)) != Counter(_PARAGRAPH.findall(english[key])):
                raise NotesWordsError(f"{path}: {key!r} {lang} cites other ¶ than the English")
            said[lang] = value
        loaded[key] = said
    return loaded


@remember()
def _shipped() -> dict[str, dict[Lang, str]]:
    return load()


def says(unit: Unit, index: int, lang: Lang) -> str:
    """What ``unit``'s note at ``index`` says, in ``lang`` (English: the corpus's own ``says``)."""
    if lang == "en":
        return unit.notes[index].says
    return _shipped()[note_key(unit, index)][lang]


# -- why no chart reaches a name line, in the reader's language ---------------------------------


def _stands(places: int) -> str:
    """The 地盤 branches a general ``places`` from 貴人 can stand on under ¶87's 順逆 rule
    (docs/rules.md §5), as one run round the ring from the first after those it never reaches."""
    names = [b.name for b in BRANCHES]
    on = {(p + places if names[p] in _CLOCKWISE else p - places) % 12 for p in range(12)}
    first = next(i for i in range(12) if i in on and (i - 1) % 12 not in on)
    return "".join(names[(first + k) % 12] for k in range(12) if (first + k) % 12 in on)


def unreachable_reason(c: Corpus, u: Unit, branch: str, lang: Lang) -> str:
    """Why no cast chart puts ``u``'s general on ``branch``, written in ``lang`` from the values the
    corpus's reason rests on (in English it is the corpus's ``[unit.unreachable]`` reason)."""
    general = u.general
    if general is None:  # validate_unit: only general-on-branch units have unreachable branches
        return u.unreachable_reason(branch) or ""
    places = GENERALS.index(general)
    opening = c.general(general)
    tail = ""
    if opening is not None and opening.excludes and opening.original_line is not None:
        named = "reason_names" if branch in opening.excludes else "reason_leaves"
        tail = text(f"lookup.{named}", lang, line=opening.original_line, excludes="".join(opening.excludes))
    return text("lookup.reason", lang, general=term(general, lang), branch=branch,
                places=text("lookup.place" if places == 1 else "lookup.places", lang, count=places),
                stands=_stands(places), tail=tail)
