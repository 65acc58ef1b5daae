"""The project's words as data (texts/locales): validated at load, complete, and in the right script."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

import pytest

from engine import facts, symbols, terms
from engine.reasons import Rule
from texts.words import LANGS, Lang, WordsError, language_of, load, words

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
def test_english_and_chinese_words_have_no_kana(lang: Lang) -> None:
    found = {key: value for key, value in words()[lang].items() if KANA.search(value)}
    assert not found, list(found.items())[:5]


def test_chinese_words_are_in_their_own_script() -> None:
    # 伝 and 専 are Japanese forms; 傳/專 are Traditional, 传/专 Simplified.
    checks: tuple[tuple[Lang, str], ...] = (("zh-TW", "伝専剣転発"), ("zh-CN", "伝専傳專轉發"))
    for lang, banned in checks:
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


# -- English terms a reader of the English literature recognises --------------

# The lead's canonical English forms (notes/en_terms.md), keyed by the engine's Japanese form; the
# English output, docs/glossary.md and the project's translation all use these.
CANONICAL_ENGLISH: dict[str, str] = {
    "貴人": "the Noble", "騰蛇": "the Soaring Serpent", "朱雀": "the Vermilion Bird", "六合": "the Six Harmonies",
    "勾陳": "the Hooked Array", "青龍": "the Azure Dragon", "天空": "the Heavenly Void", "白虎": "the White Tiger",
    "太常": "the Great Constant", "玄武": "the Black Warrior", "太陰": "the Great Yin", "天后": "the Heavenly Empress",
    "賊剋": "Rebel-and-Overcome", "重審": "Repeated Examination", "元首": "Prime Head", "比用": "Comparison",
    "知一": "Knowing the One", "渉害": "Wading through Harm", "見機": "Seizing the Moment",
    "察微": "Examining the Subtle", "綴瑕": "Mending the Flaw", "遙剋": "Distant Overcoming", "蒿矢": "Mugwort Arrow",
    "弾射": "Pellet Shot", "昴星": "the Pleiades", "別責": "Borrowed Duty", "八専": "Eight Specials",
    "伏吟": "Hidden Chant", "反吟": "Return Chant", "自任": "Self-Reliance", "自信": "Self-Trust",
    "無依": "No Reliance", "四課": "the four lessons", "三伝": "the three transmissions",
    "初伝": "the initial transmission", "中伝": "the middle transmission", "末伝": "the final transmission",
    "發用": "the emergence", "天盤": "the heaven plate", "地盤": "the earth plate",
    "天地盤": "the heaven-and-earth plate", "月将": "the month general", "天将": "the heavenly generals",
    "日干": "the day stem", "日支": "the day branch", "日辰": "the day branch", "干上神": "the stem's upper",
    "支上神": "the branch's upper", "上神": "upper", "下神": "lower", "剋": "overcome", "賊": "rebel",
    "旬空": "void", "空亡": "void", "遁干": "concealed stem", "六親": "the six kin", "課体": "lesson pattern",
    "類神": "category spirit", "寄宮": "lodging palace", "三刑": "the three punishments", "沖": "clash",
    "三合": "triad", "旺相休囚死": "prosperous/strong/resting/imprisoned/dead", "驛馬": "post horse",
    "太歳": "the year branch", "月建": "the month branch", "本命": "natal branch", "行年": "walking year",
}  # fmt: skip


def _canonical(term: str) -> str | None:
    from texts.corpus.normalize import normalize

    folded = normalize(term)
    return next((english for key, english in CANONICAL_ENGLISH.items() if normalize(key) == folded), None)


def _bare(english: str) -> str:
    return english.lower().removeprefix("the ")


def test_the_glossary_gives_the_canonical_english_first() -> None:
    from pathlib import Path

    rows = 0
    glossary = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"
    for line in glossary.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or "(節)" in cells[0] or "(の句)" in cells[0]:
            continue
        parts = [_canonical(p) for p in cells[0].split(" (")[0].split("・")]
        if all(parts):
            rows += 1
            assert cells[3].startswith(", ".join(p for p in parts if p)), (cells[0], cells[3])
    assert rows >= 50


# The words of the terminal, the picture and the reading (the bot, the quiz board and the matter
# reading keep their own files, and their own tests).
_GLOSSED_WORDS = ("term.", "school.", "render.", "cli.", "picture.", "reading.", "why.")


def test_english_glosses_are_the_canonical_forms() -> None:
    """Wherever an English word glosses a term, "gloss (CJK)", the gloss is the canonical English."""
    import re

    wrong = []
    for key, template in words()["en"].items():
        if not key.startswith(_GLOSSED_WORDS):
            continue
        for match in re.finditer(r"([A-Za-z][A-Za-z' /-]*) \(([^()\sA-Za-z]+)\)", template):
            english = _canonical(match.group(2))
            said = _bare(match.group(1))  # a plural glosses the term too: "lesson patterns (課體)"
            if english is not None and not said.removesuffix("s").endswith(_bare(english).removesuffix("s")):
                wrong.append(f"{key}: {match.group(0)!r} (canonical: {english!r})")
    assert not wrong, "\n".join(wrong)
    assert "concealed stem (遁干)" in words()["en"]["reading.hidden_stem"].lower()
