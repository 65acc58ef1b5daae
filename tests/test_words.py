"""The project's words as data (texts/locales): validated at load, complete, and in the right script."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

import pytest

from engine import facts, symbols, terms
from engine.reasons import Rule
from texts.words import LANGS, WordsError, language_of, load, words

KANA = re.compile(r"[\u3040-\u30ff]")
TERM_ENUMS: list[type[Enum]] = [
    terms.General,
    terms.Position,
    terms.Method,
    terms.Frame,
    terms.Relation,
    terms.Polarity,
    terms.Seat,
    terms.Kin,
    terms.Vigour,
    terms.Sex,
    terms.Role,
    terms.PatternName,
    terms.Input,
    symbols.Rank,
    symbols.Element,
    facts.Supply,
]


def test_the_shipped_words_load() -> None:
    loaded = load()
    assert set(loaded) == set(LANGS)
    assert len({frozenset(table) for table in loaded.values()}) == 1


def test_every_reason_has_a_sentence() -> None:
    for rule in Rule:
        for lang in LANGS:
            assert f"why.{rule.value}" in words()[lang], (lang, rule)


def test_every_term_has_a_word_in_every_language() -> None:
    for enum in TERM_ENUMS:
        for member in enum:
            for lang in LANGS:
                assert words()[lang].get(f"term.{enum.__name__}.{member.name}"), (lang, enum, member)


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_english_and_chinese_words_have_no_kana(lang: str) -> None:
    found = {key: value for key, value in words()[lang].items() if KANA.search(value)}
    assert not found, list(found.items())[:5]


def test_chinese_words_are_in_their_own_script() -> None:
    # 伝 and 専 are Japanese forms; 傳/專 are Traditional, 传/专 Simplified.
    for lang, banned in (("zh-TW", "伝専剣転発"), ("zh-CN", "伝専傳專轉發")):
        bad = {
            k: v
            for k, v in words()[lang].items()
            if k.startswith(("term.Position", "term.Method", "term.Frame")) and any(c in v for c in banned)
        }
        assert not bad, (lang, bad)


def _copy(tmp: Path) -> Path:
    root = tmp / "locales"
    for lang in LANGS:
        (root / lang).mkdir(parents=True)
        (root / lang / "a.toml").write_text('[greet]\nhello = "hello {name}"\nbye = "bye"\n', encoding="utf-8")
    return root


def test_a_missing_key_stops_the_load(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "zh-CN" / "a.toml").write_text('[greet]\nhello = "你好 {name}"\n', encoding="utf-8")
    with pytest.raises(WordsError, match=r"zh-CN.*greet\.bye"):
        load(root)


def test_different_placeholders_stop_the_load(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "en" / "a.toml").write_text('[greet]\nhello = "hello {who}"\nbye = "bye"\n', encoding="utf-8")
    with pytest.raises(WordsError, match=r"greet\.hello"):
        load(root)


def test_a_broken_file_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "ja" / "a.toml").write_text("[greet\n", encoding="utf-8")
    with pytest.raises(WordsError, match=r"ja[/\\]a.toml"):
        load(root)


def test_a_good_copy_loads(tmp_path: Path) -> None:
    assert load(_copy(tmp_path))["en"]["greet.hello"] == "hello {name}"


@pytest.mark.parametrize(
    ("tag", "lang"),
    [
        ("ja-JP", "ja"),
        ("zh_TW", "zh-TW"),
        ("zh-Hans", "zh-CN"),
        ("fr", "en"),
        ("pt-BR", "en"),
        ("", "ja"),
        (None, "ja"),
    ],
)
def test_language_of(tag: str | None, lang: str) -> None:
    assert language_of(tag) == lang
