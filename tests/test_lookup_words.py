"""The corpus lookup (``python -m texts``, ``liuren lookup``) speaks the reader's language end to end:
its labels, reasons, errors, usage and help are texts/locales/<lang>/lookup.toml's, and the editor's
notes are shown in the reader's language (texts/corpus_notes.toml, checked at load by
texts/corpus/notes.py). The seed's own words are shown as written."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from texts.cli import main as liuren
from texts.cli.lookup import main
from texts.corpus import corpus
from texts.corpus.notes import NOTES, NotesWordsError, load, note_key, says, unreachable_reason
from texts.corpus.scripts import foreign
from texts.words import LANGS, LOCALES, Lang, read_file

SEED = (Path(__file__).parents[1] / "texts" / "seed" / "000_bc2579445fc12f06.txt").read_text(encoding="utf-8")
KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff]")  # ・ (U+30FB) is Chinese punctuation too
QUOTE = re.compile(r"「([^「」]*)」")
UNIT_ID = re.compile(r"\b[a-z][a-z-]*\.[^\s\]）),:：]+")  # general.騰蛇.亥, method.伏吟反吟: ids, not words
CALLS: dict[str, list[str]] = {
    "unreachable": ["騰蛇", "亥"],  # the rule's reason, the opening's （不加戌亥）
    "left out": ["六合", "丑"],  # unreachable though ¶103's （不加…） leaves it out
    "emendation": ["天獄"],
    "sic": ["伏吟"],  # and "also mentioned in …"
    "alias": ["失路"],
    "names": ["貴人", "辰"],  # a line naming two branches
    "nothing": ["蒿失"],  # with "did you mean"
    "not a general": ["貴神", "子"],
    "not a branch": ["貴人", "十"],
    "no line": ["白虎", "巳"],
    "no name lines": ["天空", "子"],
    "usage": [],
    "unknown option": ["--verbose", "貴人"],
    "bad language": ["--lang", "fr", "蒿矢"],
    "help": ["--help"],
}


def said(lang: Lang, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every call's stdout and stderr, for a reader of ``lang`` (asked with --lang, or by
    $LIUREN_LANG when the call's --lang is the mistake)."""
    monkeypatch.setenv("LIUREN_LANG", lang)
    out: dict[str, str] = {}
    for name, args in CALLS.items():
        main([*(["--lang", lang] if name != "bad language" else []), *args])
        got = capsys.readouterr()
        out[name] = got.out + got.err
        assert out[name].strip(), name
    return out


@cache
def seed_texts() -> tuple[str, ...]:
    """What the lookup shows of the seed (originals, translations, their marked forms), longest first."""
    shown = {t for u in corpus().units
             for t in (u.original, u.translation, u.display_original, u.display_translation) if len(t) > 1}
    return tuple(sorted(shown, key=len, reverse=True))


@cache
def note_words() -> frozenset[str]:
    """The seed's words a note marks and what the editor reads there (shown quoted: 「剋される」 → 「刑する」)."""
    return frozenset(w for u in corpus().units for n in u.notes for w in (n.at, n.read) if w)


def from_seed(fragment: str) -> bool:
    parts = [p for p in re.split(r"〔\?〕|…", fragment) if p]
    return bool(parts) and all(p in SEED or p in note_words() for p in parts)


def unquoted(text: str, *, inline: bool = False) -> str:
    """``text`` without the seed's words: its shown texts, every 「…」 quoting it, and (``inline``,
    English, whose notes quote the seed unbracketed) any run of CJK and kana the seed has."""
    for seed in seed_texts():
        text = text.replace(seed, "")
    text = QUOTE.sub(lambda m: "" if from_seed(m.group(1)) else m.group(0), text)
    # a character the editor restores, shown in its 〔〕 (〔憂〕)
    text = re.sub(r"〔([^〔〕]+)〕", lambda m: "" if m.group(1) in note_words() else m.group(0), text)
    if inline:
        text = re.sub(r"[\u3040-\u30ff\u3400-\u9fff]+", lambda m: "" if m.group(0) in SEED else m.group(0), text)
    return text


# What every language writes in Latin letters: the command, its options, the rules' file (docs/rules.md)
NAMES = frozenset({"python", "texts", "lang", "help", "LIUREN", "LANG", "docs", "rules"})


@cache
def english_words() -> frozenset[str]:
    """The English words of the English lookup words, but for the NAMES every language writes."""
    english = re.sub(r"\{[^}]*\}", "", " ".join(v for _, v in flat("en")))
    return frozenset(re.findall(r"[A-Za-z]{3,}", english)) - NAMES


def flat(lang: Lang) -> Iterator[tuple[str, str]]:
    yield from read_file(LOCALES / lang / "lookup.toml").items()


def test_every_key_is_in_every_language_with_the_same_placeholders() -> None:
    keys = {lang: dict(flat(lang)) for lang in LANGS}
    assert len(keys["en"]) > 40
    for lang in LANGS:
        assert keys[lang].keys() == keys["en"].keys(), lang
        for key, value in keys[lang].items():
            assert set(re.findall(r"\{(\w+)\}", value)) == set(re.findall(r"\{(\w+)\}", keys["en"][key])), (lang, key)
    assert {"the", "chart", "unreachable", "nothing", "usage", "restored", "named"} <= english_words()
    for lang in ("ja", "zh-TW", "zh-CN"):  # the Latin words of the others are only the NAMES
        latin = set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", " ".join(v for _, v in flat(lang)))))
        assert latin <= NAMES, (lang, sorted(latin - NAMES))


@pytest.mark.parametrize("lang", ["ja", "zh-TW", "zh-CN"])
def test_no_english_label_in_japanese_or_chinese(lang: Lang, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for name, out in said(lang, capsys, monkeypatch).items():
        words = set(re.findall(r"[A-Za-z]{3,}", UNIT_ID.sub("", out)))
        assert not words & english_words(), (name, sorted(words & english_words()), out)


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN", "en"])
def test_no_kana_nor_japanese_form_outside_the_seeds_words(lang: Lang, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for name, out in said(lang, capsys, monkeypatch).items():
        for given in CALLS[name]:  # the reader's own words, said back as they were given
            out = out.replace(f"「{given}」", "").replace(f"'{given}'", "")
        rest = unquoted(UNIT_ID.sub("", out), inline=lang == "en")
        assert not KANA.search(rest), (name, KANA.findall(rest), out)
        if lang != "en":  # English notes quote the seed's Japanese forms inline
            assert not foreign(rest, lang), (name, foreign(rest, lang), out)


def test_the_english_is_as_it_was(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = said("en", capsys, monkeypatch)
    assert "UNREACHABLE on 亥 (no cast chart; reason below)" in out["unreachable"]
    assert "unreachable on 亥: no chart puts 騰蛇 on 亥" in out["unreachable"]
    assert "note: 騰蛇's opening (general.騰蛇) excludes 亥: 不加戌亥" in out["unreachable"]
    assert "restored as 〔憂〕" in out["emendation"] and "[sic], read 「刑する」" in out["sic"]
    assert "also named 失路" in out["alias"] and "\nalso mentioned in 1 more: method.伏吟反吟" in out["sic"]
    assert out["help"].startswith("usage: python -m texts") and "Did you mean: 蒿矢" in out["nothing"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_reader_reads_the_notes_in_their_language(lang: Lang, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    out = said(lang, capsys, monkeypatch)
    c = corpus()
    for name, unit_id in (("emendation", "pattern.天獄"), ("sic", "method.伏吟"), ("alias", "general.玄武.辰")):
        u = c.get(unit_id)
        assert says(u, 0, lang) in out[name], (lang, name)
        if lang != "en":
            assert u.notes[0].says not in out[name]
    assert liuren(["lookup", "天獄", "--lang", lang]) == 0
    assert says(c.get("pattern.天獄"), 0, lang) in capsys.readouterr().out


def test_the_reasons_are_written_from_the_values_of_the_corpus_reasons() -> None:
    c = corpus()
    pairs = [(u, b, reason) for u in c.units for b, reason in u.unreachable]
    assert len(pairs) == 35  # docs/rules.md §7
    for u, b, reason in pairs:
        assert unreachable_reason(c, u, b, "en") == reason, (u.id, b)
        for lang in ("ja", "zh-TW", "zh-CN"):
            mine = unreachable_reason(c, u, b, lang)
            assert b in mine and re.findall(r"¶\d+", mine) == re.findall(r"¶\d+", reason), (lang, u.id, b)
            stands = re.search(r"stands only on ([子丑寅卯辰巳午未申酉戌亥]+)", reason)
            assert stands is not None and stands.group(1) in mine, (lang, u.id, b)


def test_every_note_translation_quotes_the_seed_verbatim() -> None:
    shipped = load()
    c = corpus()
    assert len(shipped) == sum(len(u.notes) for u in c.units) == 16
    for u in c.units:
        for i, n in enumerate(u.notes):
            for lang, words in shipped[note_key(u, i)].items():
                assert words != n.says and re.findall(r"¶\d+", words), (u.id, lang)
                for quoted in QUOTE.findall(words):
                    assert from_seed(quoted), (u.id, lang, quoted)
                if lang != "ja":  # in the reader's script but for the seed's words, quoted
                    rest = unquoted(words)
                    assert not KANA.search(rest) and not foreign(rest, lang), (u.id, lang, rest)
                if lang == "zh-CN":
                    assert words != shipped[note_key(u, i)]["zh-TW"]  # simplified, not a copy


def _broken(tmp_path: Path, edit: str) -> Path:
    path = tmp_path / "corpus_notes.toml"
    shutil.copy(NOTES, path)
    text = path.read_text(encoding="utf-8")
    if edit == "a note missing":
        text = text.replace('["pattern.天獄#1"]', '["pattern.天獄#9"]')
    elif edit == "a note extra":
        text += '\n["pattern.天獄#2"]\nja = "¶165"\nzh-TW = "¶165"\nzh-CN = "¶165"\n'
    elif edit == "a language missing":
        text = re.sub(r'(\["method\.伏吟#1"\]\n(?:.*\n)*?)zh-CN = .*\n', r"\1", text, count=1)
    elif edit == "a language extra":
        text = text.replace('["method.伏吟#1"]\n', '["method.伏吟#1"]\nen = "¶77 ¶75 ¶75 ¶77"\n')
    elif edit == "another paragraph":
        text = text.replace("¶165「刑罰", "¶166「刑罰", 1)
    assert text != NOTES.read_text(encoding="utf-8"), edit
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "says_"),
    [("a note missing", "missing ['pattern.天獄#1']"), ("a note extra", "extra ['pattern.天獄#2']"),
     ("a language missing", "method.伏吟#1"), ("a language extra", "method.伏吟#1"),
     ("another paragraph", "cites other ¶")],
)
def test_the_note_translations_are_refused_when_they_disagree(edit: str, says_: str, tmp_path: Path) -> None:
    assert load(NOTES)  # the shipped file loads
    with pytest.raises(NotesWordsError, match=re.escape(says_)):
        load(_broken(tmp_path, edit))


@pytest.mark.parametrize("lang", LANGS)
def test_the_study_site_shows_the_notes_and_reasons_in_the_readers_language(lang: Lang) -> None:
    from texts.site.pages import unit_page

    c = corpus()
    for unit_id in ("pattern.天獄", "general.六合.未丑"):
        u = c.get(unit_id)
        page = unit_page(u, lang, []).text
        for i, _ in enumerate(u.notes):
            assert says(u, i, lang) in page, (lang, unit_id)
        for b, reason in u.unreachable:
            assert unreachable_reason(c, u, b, lang) in page and (lang == "en") == (reason in page), (lang, b)
