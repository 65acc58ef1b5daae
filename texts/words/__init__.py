"""The project's own words in every language it speaks, as validated data.

Every file ``texts/locales/<lang>/<domain>.toml`` holds ``key = "template"`` pairs (nested tables
flatten to dotted keys: ``[term.Position]`` ``"初伝" = …`` is ``term.Position.初伝``). At load every
key must exist in every language with the same ``{placeholders}``; a file that breaks this stops
the load with :class:`WordsError` naming the file and key, the way the corpus is checked.

    >>> text("language.name", "en")
    'English'
    >>> language_of("zh-CN"), language_of("fr"), language_of(None)
    ('zh-CN', 'en', 'ja')
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, Literal, get_args

from texts import shipped

Lang = Literal["ja", "en", "zh-TW", "zh-CN"]
LANGS: tuple[Lang, ...] = get_args(Lang)
DEFAULT_LANG: Lang = "ja"
LOCALES = shipped.ROOT / "locales"

# Which language a locale tag reads. Japanese is the project's default (its readers read the seed's
# Japanese translation); any other tag we have no words for reads English, the widest second language.
_BY_TAG: dict[str, Lang] = {
    "ja": "ja",
    "ja-jp": "ja",
    "en": "en",
    "en-us": "en",
    "en-gb": "en",
    "zh": "zh-CN",
    "zh-cn": "zh-CN",
    "zh-hans": "zh-CN",
    "zh-sg": "zh-CN",
    "zh-tw": "zh-TW",
    "zh-hant": "zh-TW",
    "zh-hk": "zh-TW",
    "zh-mo": "zh-TW",
}


class WordsError(ValueError):
    """A locale file that is missing, unreadable, or disagrees with the others."""


def language_of(tag: str | None) -> Lang:
    """The language for a locale tag such as ``"zh-TW"`` or ``"en-US"``.

    ``None`` (nobody asked) reads the default, Japanese; a tag we have no words for reads English.
    """
    if tag is None or not tag.strip():
        return DEFAULT_LANG
    key = tag.strip().replace("_", "-").lower()
    return _BY_TAG.get(key) or _BY_TAG.get(key.split("-")[0], "en")


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str], where: Path) -> None:
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, str):  # asked first: nearly every value is one, and Mapping's check is slower
            if full in out:
                raise WordsError(f"{where}: key {full!r} is defined twice")
            out[full] = value
        elif isinstance(value, Mapping):
            _flatten(value, f"{full}.", out, where)
        else:
            raise WordsError(f"{where}: {full!r} must be a string, not {type(value).__name__}")


_NO_FIELDS: frozenset[str] = frozenset()


def _fields(template: str, lang: Lang, key: str) -> frozenset[str]:
    if "{" not in template and "}" not in template:  # most words: nothing to parse
        return _NO_FIELDS
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)
    except ValueError as error:  # where it is named only here: the check runs over every key at each start
        raise WordsError(f"{lang}:{key}: bad template {template!r}: {error}") from None


def read_file(path: Path) -> dict[str, str]:
    """One locale file's words by dotted key (``[lookup] usage = …`` → ``lookup.usage``), as ``load``
    reads each file; ``WordsError`` for a file that is not TOML, a key twice or a value not a string."""
    try:
        data = shipped.load(path)
    except (OSError, ValueError) as error:  # unreadable, not UTF-8, not TOML
        raise WordsError(f"{path}: {error}") from None
    table: dict[str, str] = {}
    _flatten(data, "", table, path)
    return table


def _read(root: Path, lang: Lang) -> dict[str, str]:
    folder = root / lang
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise WordsError(f"{folder}: no locale files for {lang}")
    table: dict[str, str] = {}
    for path in files:
        for key, value in read_file(path).items():
            if key in table:
                raise WordsError(f"{path}: key {key!r} is defined twice")
            table[key] = value
    return table


def _check(root: Path, lang: Lang, table: Mapping[str, str], base: Mapping[str, str]) -> None:
    """``lang``'s words against the default language's: the same keys, the same placeholders."""
    missing = sorted(base.keys() - table.keys())
    extra = sorted(table.keys() - base.keys())
    if missing or extra:
        raise WordsError(
            f"{root / lang}: keys differ from {DEFAULT_LANG}: missing {missing[:5]}, extra {extra[:5]}"
            f" ({len(missing)} missing, {len(extra)} extra)"
        )
    for key, template in table.items():
        got = _fields(template, lang, key)
        want = got if base is table else _fields(base[key], DEFAULT_LANG, key)  # the default: once
        if got != want:
            raise WordsError(
                f"{root / lang}: {key!r} has placeholders {sorted(got)}, {DEFAULT_LANG} has {sorted(want)}"
            )


def load(root: Path = LOCALES) -> dict[Lang, dict[str, str]]:
    """Every language's words, checked: the same keys and the same placeholders everywhere."""
    loaded = {lang: _read(root, lang) for lang in LANGS}
    for lang in LANGS:
        _check(root, lang, loaded[lang], loaded[DEFAULT_LANG])
    return loaded


def load_file(name: str, root: Path = LOCALES) -> dict[Lang, dict[str, str]]:
    """The words of one locale file (``<lang>/<name>.toml``) in every language, checked as ``load``
    checks a language: the same keys and placeholders as the default language's file. For a caller
    that needs one file's words in every language (the bot's command names, before READY) and not
    the other files."""
    loaded = {lang: read_file(root / lang / f"{name}.toml") for lang in LANGS}
    for lang in LANGS:
        _check(root, lang, loaded[lang], loaded[DEFAULT_LANG])
    return loaded


_LOADED: dict[str, dict[str, str]] = {}  # each language's words once read and checked (text() looks here first)


def _language(lang: Lang) -> dict[str, str]:
    """One language's shipped words, read on first use and checked against the default's."""
    table = _LOADED.get(lang)
    if table is None:
        table = _read(LOCALES, lang)
        _check(LOCALES, lang, table, table if lang == DEFAULT_LANG else _language(DEFAULT_LANG))
        _LOADED[lang] = table
    return table


class _Words(Mapping[Lang, dict[str, str]]):
    """Every language's words, each read (and checked) when first asked for (a process
    that speaks one language does not parse the other three's files)."""

    def __getitem__(self, lang: Lang) -> dict[str, str]:
        if lang not in LANGS:
            raise KeyError(lang)
        return _language(lang)

    def __iter__(self) -> Iterator[Lang]:
        return iter(LANGS)

    def __len__(self) -> int:
        return len(LANGS)


_WORDS = _Words()


def words() -> Mapping[Lang, dict[str, str]]:
    """The shipped words by language, each loaded and checked once, when first used."""
    return _WORDS


def _table(lang: Lang) -> dict[str, str]:
    """``words()[lang]``: a language already loaded is taken as it is (it was checked when loaded)."""
    table = _LOADED.get(lang)
    return words()[lang] if table is None else table


def text(key: str, lang: Lang, /, **values: object) -> str:
    """The template ``key`` in ``lang``, formatted with ``values``; ``KeyError`` for an unknown key."""
    template = _table(lang)[key]
    return template.format_map(values) if values else template  # format_map: the values' dict, not a copy


# Each term as found, by language, then enum (the IntEnums of engine.symbols and engine.terms compare
# equal across enums, Branch.子 == Stem.甲 == 0, so each enum has a table of its own), then member.
_FOUND: dict[str, dict[type, dict[Enum, str]]] = {}


def term(value: Enum, lang: Lang) -> str:
    """A domain term (a member of an ``engine.terms``/``engine.symbols`` enum) as ``lang`` writes it
    (``Position.初伝`` → 初伝 / 初傳 / 初传 / initial).

    Terms without an entry of their own (branches, stems) are their CJK character in every language.
    Each member's ``term.<Enum>.<name>`` word is looked up once per language and kept.
    """
    try:
        return _FOUND[lang][type(value)][value]
    except KeyError:
        pass
    name = value.name
    word = words()[lang].get(f"term.{type(value).__name__}.{name}", name)
    _FOUND.setdefault(lang, {}).setdefault(type(value), {})[value] = word
    return word


# -- forms of the reader's script: the tables [short], [solar_term] and [name] of terms.toml --


def _form(table: str, key: str, lang: Lang) -> str:
    return _table(lang).get(f"{table}.{key}", key)


def short(general: Enum, lang: Lang) -> str:
    """A 天将's one-character form on the ring and in the lesson rows: 貴 / 貴 / 贵 (``General.貴人``)."""
    return _form("short", general._name_, lang)  # _name_: .name is a property, and the ring asks 16 times


def shorts(generals: Iterable[Enum], lang: Lang) -> list[str]:
    """``short`` of each of ``generals``, in order, with ``lang``'s words looked up once (the ring
    writes twelve)."""
    table = _table(lang)
    return [table.get(f"short.{g._name_}", g._name_) for g in generals]


def solar_term(name: str, lang: Lang) -> str:
    """A solar term (the engine's Japanese name, e.g. 処暑) in ``lang``'s script: 處暑, 处暑."""
    return _form("solar_term", name, lang)


def corpus_name(key: str, lang: Lang) -> str:
    """A name of the 《心印賦》's name lines (the corpus's Japanese-form key, e.g. 焼身) as ``lang``
    writes it: 燒身 (zh-TW and English: the original's form), 烧身 (zh-CN)."""
    return _form("name", key, lang)


# -- the English names of the proper names (texts/english.toml): one table for every output --

ENGLISH = shipped.ROOT / "english.toml"


def _english() -> dict[str, str]:
    found = _LOADED.get("english.names")
    if found is None:
        found = {k.removeprefix("names."): v for k, v in read_file(ENGLISH).items()}
        _LOADED["english.names"] = found
    return found


def english_name(name: str) -> str | None:
    """The English name of a general, method, frame or 課体 (its engine form: 反吟 → "Return Chant",
    玄武 → "the Black Warrior"), as the glossary and the translation write it; None for others."""
    return _english().get(name)


def named_in_english(english: str) -> str | None:
    """The name whose English name is ``english`` (case and a leading "the" aside): "Black Warrior",
    "the noble" → 玄武, 貴人; None when no name is called so."""
    wanted = " ".join(english.split()).casefold().removeprefix("the ")
    return next((k for k, v in _english().items() if v.casefold().removeprefix("the ") == wanted), None)
