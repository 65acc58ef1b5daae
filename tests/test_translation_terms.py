"""The English translation names each domain term by its one canonical English form.

For every corpus unit with an English translation (texts/translations/en/*.toml), each general and
each method or frame whose characters occur in the unit's classical original must have its English
form in the English text, with the characters kept beside it. The files are read with tomllib
directly, so this does not depend on the translation loader.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "texts" / "corpus.toml"
EN = ROOT / "texts" / "translations" / "en"

# The canonical English forms, as decided for the translation, the glossary and texts/locales/en
# (docs/glossary.md lists the terms; these are the English forms of its generals and methods).
# Each entry: the characters as the project writes them, then the English form.
GENERAL_TERMS: tuple[tuple[str, str], ...] = (
    ("貴人", "the Noble"),
    ("騰蛇", "the Soaring Serpent"),
    ("朱雀", "the Vermilion Bird"),
    ("六合", "the Six Harmonies"),
    ("勾陳", "the Hooked Array"),
    ("青龍", "the Azure Dragon"),
    ("天空", "the Heavenly Void"),
    ("白虎", "the White Tiger"),
    ("太常", "the Great Constant"),
    ("玄武", "the Black Warrior"),
    ("太陰", "the Great Yin"),
    ("天后", "the Heavenly Empress"),
)
METHOD_TERMS: tuple[tuple[str, str], ...] = (
    ("賊剋", "Rebel-and-Overcome"),
    ("重審", "Repeated Examination"),
    ("元首", "Prime Head"),
    ("比用", "Comparison"),
    ("知一", "Knowing the One"),
    ("渉害", "Wading through Harm"),
    ("見機", "Seizing the Moment"),
    ("察微", "Examining the Subtle"),
    ("綴瑕", "Mending the Flaw"),
    ("遙剋", "Distant Overcoming"),
    ("蒿矢", "Mugwort Arrow"),
    ("弾射", "Pellet Shot"),
    ("昴星", "the Pleiades"),
    ("別責", "Borrowed Duty"),
    ("八専", "Eight Specials"),
    ("伏吟", "Hidden Chant"),
    ("反吟", "Return Chant"),
    ("自任", "Self-Reliance"),
    ("自信", "Self-Trust"),
    ("無依", "No Reliance"),
)
TERMS = GENERAL_TERMS + METHOD_TERMS

# The seed writes traditional forms; a term is found in either (傳/伝, 專/専, 涉/渉, 克/剋, 彈/弾).
_FOLD = str.maketrans({"傳": "伝", "專": "専", "涉": "渉", "克": "剋", "彈": "弾"})
# Units where the characters stand as ordinary words, not as the term's name: checked by hand.
NOT_THE_TERM: tuple[tuple[str, str, str], ...] = (
    ("method.比用", "賊剋", "賊克紛紛: rebels and overcomings come thick and fast, not the method"),
)
_EXEMPT = frozenset((uid, chars) for uid, chars, _ in NOT_THE_TERM)
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")


def fold(text: str) -> str:
    """The text with the seed's traditional variants of the terms' characters folded."""
    return text.translate(_FOLD)


def _load(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def corpus_units() -> dict[str, Mapping[str, Any]]:
    return {unit["id"]: unit for unit in _load(CORPUS)["unit"]}


def translation_files() -> list[Path]:
    return sorted(EN.glob("*.toml"))


def english_units() -> Iterator[tuple[str, str, str]]:
    """(file name, unit id, English text) for every unit of every English translation file."""
    for path in translation_files():
        for unit_id, unit in _load(path).get("units", {}).items():
            yield path.name, unit_id, unit["text"]


def english_form(form: str) -> str:
    """The form as it must appear: a leading article may be capitalised or dropped ("The Noble")."""
    return form.removeprefix("the ")


def test_the_term_list_is_well_formed() -> None:
    chars = [c for c, _ in TERMS]
    assert len(set(chars)) == len(chars) == 32
    assert all(fold(c) == c for c in chars), "terms are written in the project's forms"


def test_there_are_translations_to_check() -> None:
    names = {p.name for p in translation_files()}
    assert {"generals.toml", "patterns.toml"} <= names
    assert sum(1 for _ in english_units()) >= 141


@pytest.mark.slow  # over a second on the project's machine
def test_every_translated_unit_is_a_corpus_unit() -> None:
    units = corpus_units()
    unknown = [f"{name}: {uid}" for name, uid, _ in english_units() if uid not in units]
    assert not unknown, f"translations of units the corpus does not have: {unknown}"


def test_every_general_and_pattern_unit_is_translated() -> None:
    wanted = {
        uid
        for uid, unit in corpus_units().items()
        if unit["kind"] in ("general", "general-on-branch", "pattern")
    }
    have = {uid for _, uid, _ in english_units()}
    assert len(wanted) == 141
    assert sorted(wanted - have) == []


def test_each_term_has_its_english_form() -> None:
    units = corpus_units()
    missing: list[str] = []
    checked = 0
    for name, uid, text in english_units():
        original = fold(units[uid]["original"])
        for chars, form in TERMS:
            if chars not in original or (uid, chars) in _EXEMPT:
                continue
            checked += 1
            if english_form(form) not in text:
                missing.append(f"{name} {uid}: {chars} needs {form!r}")
    # generals.toml alone holds 23 such mentions, patterns.toml 27: far fewer means a broken fold
    assert checked >= 50, "the test found almost no terms: the term list or the fold is wrong"
    assert not missing, "\n".join(missing)


def test_each_term_keeps_its_characters_beside_the_english() -> None:
    units = corpus_units()
    missing: list[str] = []
    for name, uid, text in english_units():
        original = fold(units[uid]["original"])
        english = fold(text)
        for chars, form in TERMS:
            if (uid, chars) in _EXEMPT:
                continue
            if chars in original and english_form(form) in text and chars not in english:
                missing.append(f"{name} {uid}: {form!r} without ({chars})")
    assert not missing, "\n".join(missing)


def test_exemptions_name_real_occurrences() -> None:
    units = corpus_units()
    for uid, chars, _ in NOT_THE_TERM:
        assert chars in fold(units[uid]["original"]), (uid, chars)


def test_a_term_the_original_lacks_is_not_required() -> None:
    # The check must not fire on words the original does not contain: 天空 names 天乙, not 貴人.
    original = fold(corpus_units()["general.天空"]["original"])
    assert "貴人" not in original and "天乙" in original


@pytest.mark.parametrize("path", translation_files(), ids=lambda p: p.name)
def test_english_has_no_kana(path: Path) -> None:
    data = _load(path)
    assert data["language"] == "en" and data["translator"] == "project"
    bad = [
        uid
        for uid, unit in data.get("units", {}).items()
        for words in (unit["text"], *(note["says"] for note in unit.get("notes", ())))
        if _KANA.search(words)
    ]
    assert not bad, f"kana in the English (text or notes) of {bad}"
