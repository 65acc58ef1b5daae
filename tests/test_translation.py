"""The project's English translation (texts/translations/en/*.toml, texts/corpus/translations.py).

- the package's files load and validate; every entry is the project's, non-empty, without kana;
- validation fails, naming the unit, on a missing unit, an unknown id, kana in the English, a
  wrong translator, an unknown note kind, an empty text, a misspelt key, a unit given twice and
  a file in the wrong language folder (each failing case is built here, from the real files);
- every unit of front matter, procedure and method has English (the title too, which has no
  Japanese), and every unit that has a Japanese translation has English;
- the terms of docs/translation.md's table are used: a unit whose original uses a term has that
  term's English form in its English.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from texts.corpus import corpus
from texts.corpus.normalize import normalize
from texts.corpus.translations import (
    KANA,
    NOTE_KINDS,
    ROOT,
    Translation,
    TranslationError,
    english,
    load_language,
    missing,
    needs_translation,
    parse_file,
    require_complete,
    translations,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "translation.md"
EN = ROOT / "en"
PART_A = ("front-matter", "procedure", "method")
TERM_ROW = re.compile(r"^\| ([^\x00-\x7f|]+) \| ([^|]+?) \|$", re.M)


def known() -> set[str]:
    return {u.id for u in corpus().units}


def read(name: str) -> dict[str, Any]:
    with (EN / name).open("rb") as f:
        return tomllib.load(f)


def a_file() -> dict[str, Any]:
    """A valid file to spoil: the real methods.toml."""
    return read("methods.toml")


def test_package_translations_load_and_are_the_projects() -> None:
    found = translations("en")
    assert len(found) >= 37
    for unit_id, t in found.items():
        assert t.unit_id == unit_id and t.translator == "project"
        assert t.text.strip() and not KANA.search(t.text), unit_id
        assert all(n.kind in NOTE_KINDS and not KANA.search(n.says) for n in t.notes), unit_id


def test_part_a_units_all_have_english() -> None:
    """Every front-matter, procedure and method unit, with or without a Japanese translation."""
    found = translations("en")
    lacking = [u.id for u in corpus().units if u.kind in PART_A and u.id not in found]
    assert not lacking, f"no English for {lacking}"


def test_every_unit_with_japanese_has_english() -> None:
    """Checked at load too (``translations``); here it is checked on the files themselves."""
    found = load_language("en")
    assert missing(found) == ()
    assert sum(needs_translation(u) for u in corpus().units) > 170  # not a vacuous check


def test_a_missing_unit_fails_validation() -> None:
    needed = [u for u in corpus().units if needs_translation(u)]
    complete = {u.id: Translation(u.id, "English.", (), "project") for u in needed}
    require_complete("en", complete)  # the full set passes ...
    gone = "method.比用"
    del complete[gone]
    assert missing(complete) == (gone,)
    with pytest.raises(TranslationError, match=re.escape(gone)):  # ... and one unit fewer does not
        require_complete("en", complete)


def test_an_unknown_id_fails_validation() -> None:
    data = a_file()
    data["units"]["method.重審課"] = {"text": "Repeated Examination."}
    with pytest.raises(TranslationError, match=r"'method\.重審課': no unit of the corpus has this id"):
        parse_file(data, language="en", known=known())


@pytest.mark.parametrize("kana", ["です", "ケ", "・", "ｱ"])
def test_kana_in_the_english_fails_validation(kana: str) -> None:
    data = a_file()
    data["units"]["method.比用"]["text"] += f" Comparison{kana}"
    with pytest.raises(TranslationError, match=r"'method\.比用': kana"):
        parse_file(data, language="en", known=known())


def test_kana_in_a_note_fails_validation() -> None:
    data = a_file()
    data["units"]["method.伏吟"]["notes"][0]["says"] = "The Japanese writes 剋される."
    with pytest.raises(TranslationError, match=r"'method\.伏吟': kana 'さ' in the en from-original note"):
        parse_file(data, language="en", known=known())


def test_kana_is_allowed_in_japanese_only() -> None:
    data = a_file()
    data["language"] = "ja"
    data["units"]["method.比用"]["text"] = "比用という。"
    assert parse_file(data, language="ja", known=known())["method.比用"].text == "比用という。"


@pytest.mark.parametrize("translator", ["seed", "", None, "Project"])
def test_a_wrong_translator_fails_validation(translator: str | None) -> None:
    data = a_file()
    if translator is None:
        del data["translator"]
    else:
        data["translator"] = translator
    with pytest.raises(TranslationError, match="translator is"):
        parse_file(data, language="en", known=known())


def test_an_unknown_note_kind_fails_validation() -> None:
    data = a_file()
    data["units"]["method.見機"]["notes"][0]["kind"] = "emendation"
    with pytest.raises(TranslationError, match=r"'method\.見機': note 1 has kind 'emendation'"):
        parse_file(data, language="en", known=known())


@pytest.mark.parametrize("text", ["", "   ", 3])
def test_an_empty_text_fails_validation(text: object) -> None:
    data = a_file()
    data["units"]["method.知一"]["text"] = text
    with pytest.raises(TranslationError, match=r"'method\.知一': the text is empty"):
        parse_file(data, language="en", known=known())


def test_a_misspelt_key_is_not_dropped() -> None:
    data = a_file()
    data["units"]["method.知一"]["note"] = [{"kind": "obscure", "says": "A note that would be lost."}]
    with pytest.raises(TranslationError, match=r"'method\.知一': unknown key\(s\) \['note'\]"):
        parse_file(data, language="en", known=known())


def test_the_files_language_must_be_its_folders(tmp_path: Path) -> None:
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "methods.toml").write_bytes((EN / "methods.toml").read_bytes())
    with pytest.raises(TranslationError, match=r"methods\.toml: language is 'en', but the file is in the 'fr' folder"):
        load_language("fr", root=tmp_path)


def test_a_unit_translated_twice_fails_validation(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    text = (EN / "methods.toml").read_text(encoding="utf-8")
    (tmp_path / "en" / "methods.toml").write_text(text, encoding="utf-8")
    (tmp_path / "en" / "more.toml").write_text(text, encoding="utf-8")
    with pytest.raises(
        TranslationError, match=r"more\.toml: unit 'method\.[^']+': already translated in methods\.toml"
    ):
        load_language("en", root=tmp_path)


def test_the_real_files_pass_the_same_validation(tmp_path: Path) -> None:
    """The spoiled copies above fail because of the spoiling: the unspoiled copies load."""
    (tmp_path / "en").mkdir()
    for path in EN.glob("*.toml"):
        (tmp_path / "en" / path.name).write_bytes(path.read_bytes())
    assert dict(load_language("en", root=tmp_path)) == dict(translations("en"))


def test_english_of_a_unit() -> None:
    t = english("method.昴星")
    assert t is not None and "the Pleiades (昴星)" in t.text
    assert [n.kind for n in t.notes] == ["from-original", "obscure"]
    with pytest.raises(KeyError, match="no unit with id"):
        english("method.無い")


def terms() -> list[tuple[str, str]]:
    """(characters, English) rows of docs/translation.md's term table, multi-character terms only.

    A single character (剋, 賊, 沖) is part of too many compounds to be checked this way.
    """
    rows = [(cjk.strip(), en.strip()) for cjk, en in TERM_ROW.findall(DOC.read_text(encoding="utf-8"))]
    return [(cjk, en) for cjk, en in rows if len(cjk) > 1]


def english_form(text: str) -> str:
    """Compared without case, hyphens or a leading article: "the Pleiades" matches "Pleiades"."""
    return re.sub(r"\s+", " ", re.sub(r"^the ", "", text.lower()).replace("-", " "))


def test_the_doc_table_agrees_with_the_term_test() -> None:
    """The generals and methods of docs/translation.md are tests/test_translation_terms.py's, in its order."""
    from tests.test_translation_terms import TERMS

    named = {c for c, _ in TERMS}
    assert [row for row in terms() if row[0] in named] == list(TERMS)


def test_chart_terms_are_used_in_the_english() -> None:
    """The doc table's other terms (四課, 三傳, 天盤 …; tests/test_translation_terms.py checks the names)."""
    from tests.test_translation_terms import TERMS

    named = {c for c, _ in TERMS}
    rows = [(cjk, en) for cjk, en in terms() if cjk not in named]
    assert len(rows) > 30 and ("三伝", "the three transmissions") in rows
    wrong, checked = [], 0
    for unit_id, t in translations("en").items():
        original = normalize(corpus().get(unit_id).original)
        english_text = english_form(t.text)
        for cjk, en in rows:
            if normalize(cjk) in original:
                checked += 1
                if english_form(en) not in english_text:
                    wrong.append(f"{unit_id}: {cjk} is not rendered {en!r}")
    assert checked >= 40, "the check found almost no terms: the table or the folding is wrong"
    assert not wrong, "\n".join(wrong)
