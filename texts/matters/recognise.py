"""The matters a question may ask about (docs/rules.md §9.2), and how a question is read for them (§9.4).

:class:`Matter` holds the fifteen keys in §9.2's order. :func:`recognise` is a pure function from a
question to the matters it names, with the words that decided each; the words are data
(texts/matters.toml), checked when first used: an unknown matter or language, an empty list, a word
that is blank or folds to nothing, a word given twice, or one word (after folding) under two matters
or both as a keyword and a stop word stops the load with :class:`MattersError` naming the file and
the word.

    >>> [(f.matter.value, f.words) for f in recognise("財布をなくしました。見つかりますか？")]
    [('lost', ('なくし',))]
    >>> [f.matter.value for f in recognise("這場官司能贏嗎？")]
    ['lawsuit']
    >>> recognise("What will the weather be?")
    ()
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from texts import shipped
from texts.corpus.normalize import fold_char
from texts.memo import remember

DATA = shipped.ROOT / "matters.toml"
GENERAL = "general"  # the option value for no matter: the general reading only (§9.4)


class Matter(StrEnum):
    """The fifteen matters of docs/rules.md §9.2, in its order; the value is the ``matter`` key."""

    petition = "petition"  # 謁貴・干求
    fright = "fright"  # 驚恐・怪異
    documents = "documents"  # 文書・音信
    marriage = "marriage"  # 婚姻
    lawsuit = "lawsuit"  # 訟
    wealth = "wealth"  # 財
    secret = "secret"  # 陰私・隠匿
    woman = "woman"  # 婦人
    lost = "lost"  # 失物・盗賊・走失
    banquet = "banquet"  # 筵會・聚會
    office = "office"  # 官・職
    travel = "travel"  # 道路・出行
    illness = "illness"  # 病・喪
    deceit = "deceit"  # 詐偽
    child = "child"  # 子・胎孕

    @property
    def order(self) -> int:
        """The place in §9.2 (1 … 15)."""
        return MATTERS.index(self) + 1

    @classmethod
    def parse(cls, text: str) -> Matter | None:
        """A ``matter`` option: one of the fifteen keys, or ``general`` (→ None: no matter).

        ``ValueError`` naming every accepted value otherwise."""
        key = text.strip().lower()
        if key == GENERAL:
            return None
        try:
            return cls(key)
        except ValueError:
            accepted = " ".join((*(m.value for m in cls), GENERAL))
            raise ValueError(f"unknown matter {text!r}: give one of {accepted}") from None


MATTERS: tuple[Matter, ...] = tuple(Matter)
LANGUAGES = ("ja", "zh", "en")
_STOP = "stop"


class MattersError(ValueError):
    """The keyword file is malformed; the message names the file, the table and the word."""


@dataclass(frozen=True, slots=True)
class Found:
    """A matter a question names, and the words of the question that named it (as the question
    writes them, after NFKC), in the order they occur, each once."""

    matter: Matter
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Word:
    folded: str
    written: str
    matter: Matter | None  # None: a stop word
    latin: bool
    place: int  # the matter's place in §9.2 (1 … 15); 0 for a stop word


def fold(text: str) -> str:
    """The form a question and a keyword are compared in: NFKC, casefold, runs of white space as one
    space, and each character through texts.corpus.normalize's fold (丟/丢, 結婚/结婚, 病気/病氣 meet)."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_TABLE).split())


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table: each character casefolded and folded (white space as a space), the
    first time it is seen."""

    def __missing__(self, code: int) -> str:
        c = chr(code)
        folded = " " if c.isspace() else "".join(fold_char(x) for x in c.casefold())
        self[code] = folded
        return folded


class _PlainTable(_FoldTable):
    """The same for a question of PLAIN characters, which NFKC changes one for one: each character's
    NFKC form folded (so the question need not be normalised first)."""

    def __missing__(self, code: int) -> str:
        folded = _TABLE[ord(nfkc(chr(code)))]
        self[code] = folded
        return folded


_TABLE = _FoldTable()
_PLAIN_TABLE = _PlainTable()
# A letter or digit of a Latin-script word: the word boundary of §9.4 is anything else.
# A letter or digit of a Latin-script word (ASCII, Latin-1 and Latin Extended-A/B letters): a Latin
# keyword matches only where the characters either side of it are none of these (§9.4).
_LATIN_EXTRA = frozenset(chr(c) for c in range(0xC0, 0x250)) - {"\u00d7", "\u00f7"}


def _folded(text: str, table: _FoldTable = _TABLE) -> tuple[str, tuple[int, ...] | None]:
    """``text`` (already NFKC, unless ``table`` is the PLAIN table) folded, runs of white space as one
    space, and for each folded character the index it comes from (None when that is its own index)."""
    folded = text.translate(table)
    if len(folded) == len(text) and "  " not in folded:
        return folded, None
    out: list[str] = []
    source: list[int] = []
    for i, c in enumerate(text):
        for f in table[ord(c)]:
            if f == " " and out and out[-1] == " ":
                continue
            out.append(f)
            source.append(i)
    return "".join(out), tuple(source)


def _is_latin(c: str) -> bool:
    return (c.isascii() and c.isalnum()) or c in _LATIN_EXTRA


_LATIN = frozenset(chr(c) for c in range(0x250) if _is_latin(chr(c)))  # the same, as one set
_LATIN_CLASS = "".join(re.escape(c) for c in sorted(_LATIN))
# The patterns are strings, compiled by the re module when a question is first read (and kept in its
# cache), not at import: a start recognises no question.
_LATIN_RUN = f"[{_LATIN_CLASS}]+"

# Characters whose NFKC form is their own (the full-width forms and the ideographic space: an ASCII
# one) and which nothing composes with or reorders: a question made of them only is normalised one
# character at a time. (unicodedata's composition looks each CJK character up in a list from the
# start, which cost more than the rest of recognition; tests/test_matters_scan.py checks the set.)
PLAIN = ("[\x20-\x7e\u3000-\u3003\u300c-\u300f\u3041-\u3096\u30a1-\u30fa\u30fc"
         "\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e]*")
_WIDE = "[\u3000\uff01-\uff5e]"  # of those, the ones NFKC changes (to a space, to ASCII)


def _narrow(wide: re.Match[str]) -> str:
    c = wide.group()
    return " " if c == "\u3000" else chr(ord(c) - 0xFEE0)


def _narrowed(plain: str) -> str:
    return re.sub(_WIDE, _narrow, plain) if re.search(_WIDE, plain) else plain


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, one character at a time where that is the same."""
    return _narrowed(text) if re.fullmatch(PLAIN, text) else unicodedata.normalize("NFKC", text)


def _latin_end(text: str, start: int) -> int:
    """Where the run of Latin letters and digits through ``start`` ends."""
    run = re.compile(_LATIN_RUN).match(text, start)
    return start + 1 if run is None else run.end()


def _latin_word(word: str) -> bool:
    return any(_is_latin(c) for c in word) and all(_is_latin(c) or c in " -'" for c in word)


@dataclass(frozen=True, slots=True)
class Keywords:
    """The checked keyword data, indexed for the scan: by folded form, and the lengths of the words
    (longest first) that start with a character, or for a word starting with a Latin letter or
    digit, with a run of them (a run in a question is either a word's whole first run or no start)."""

    words: tuple[_Word, ...]
    _by_folded: Mapping[str, _Word]
    _lengths: Mapping[str, tuple[int, ...]]  # by first character (not a Latin one)
    _by_run: Mapping[str, tuple[int, ...]]  # by the run of Latin letters and digits a word starts with
    _starts: re.Pattern[str]  # where a word may start: a first character, or a whole run of Latin ones

    def of(self, matter: Matter | None) -> tuple[str, ...]:
        """The words (as written) of a matter, or the stop words for ``None``."""
        return tuple(w.written for w in self.words if w.matter is matter)


def _problem(where: Path, message: str) -> MattersError:
    return MattersError(f"{where}: {message}")


def parse(data: Mapping[str, Any], where: Path = DATA) -> Keywords:
    """The keywords described by parsed TOML ``data``; :class:`MattersError` if anything is wrong."""
    tables = {m.value for m in MATTERS} | {_STOP}
    unknown = sorted(set(data) - tables)
    if unknown:
        raise _problem(where, f"unknown table(s) {unknown}: give [stop] and the matters {[m.value for m in MATTERS]}")
    missing = [key for key in (_STOP, *(m.value for m in MATTERS)) if key not in data]
    if missing:
        raise _problem(where, f"missing table(s) {missing}")
    words: list[_Word] = []
    seen: dict[str, _Word] = {}
    for key in (_STOP, *(m.value for m in MATTERS)):
        table = data[key]
        if not isinstance(table, Mapping):
            raise _problem(where, f"[{key}] must be a table of lists {list(LANGUAGES)}")
        extra = sorted(set(table) - set(LANGUAGES))
        if extra:
            raise _problem(where, f"[{key}]: unknown language(s) {extra} (give {', '.join(LANGUAGES)})")
        matter = None if key == _STOP else Matter(key)
        count = 0
        for lang in LANGUAGES:
            listed = table.get(lang)
            if listed is None:
                raise _problem(where, f"[{key}]: missing list {lang!r} (give [] for none)")
            if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
                raise _problem(where, f"[{key}].{lang} must be a list of strings, got {listed!r}")
            if len(set(listed)) != len(listed):
                twice = sorted({w for w in listed if listed.count(w) > 1})
                raise _problem(where, f"[{key}].{lang}: {twice} listed twice")
            for written in listed:
                folded = fold(written)
                if not written.strip() or not folded.strip() or folded != folded.strip():
                    raise _problem(where, f"[{key}].{lang}: {written!r} is blank or has white space at an end")
                word = _Word(folded, written, matter, _latin_word(folded), 0 if matter is None else matter.order)
                other = seen.get(folded)
                if other is not None and other.matter is not matter:
                    here = "a stop word" if matter is None else f"[{key}]"
                    there = "a stop word" if other.matter is None else f"[{other.matter.value}]"
                    raise _problem(where, f"{written!r} ({here}) folds like {other.written!r} ({there})")
                if other is None:
                    seen[folded] = word
                    words.append(word)
                count += 1
        if matter is not None and count == 0:
            raise _problem(where, f"[{key}] has no keywords")
    lengths: dict[str, set[int]] = {}
    runs: dict[str, set[int]] = {}
    for w in words:
        first = w.folded[0]
        if first in _LATIN:
            runs.setdefault(w.folded[: _latin_end(w.folded, 0)], set()).add(len(w.folded))
        else:
            lengths.setdefault(first, set()).add(len(w.folded))
    firsts = "".join(re.escape(c) for c in sorted(lengths))
    return Keywords(
        tuple(words),
        {w.folded: w for w in words},
        {c: tuple(sorted(n, reverse=True)) for c, n in lengths.items()},
        {r: tuple(sorted(n, reverse=True)) for r, n in runs.items()},
        # one character class first, so that the regular expression skips to the next in C; a Latin
        # letter or digit is the start of a run (the scan never enters one: it skips whole runs)
        re.compile(f"[{_LATIN_CLASS}{firsts}](?:(?<=[{_LATIN_CLASS}])[{_LATIN_CLASS}]*)?"),
    )


def load(path: Path | str = DATA) -> Keywords:
    """Read and check a keyword file; :class:`MattersError` naming the file if it is malformed."""
    path = Path(path)
    try:
        data = shipped.load(path)
    except (OSError, ValueError) as error:  # unreadable, not UTF-8, not TOML
        raise _problem(path, str(error)) from None
    return parse(data, path)


@remember()
def keywords() -> Keywords:
    """The shipped keywords, loaded and checked once."""
    return load(DATA)


def recognise(question: str, table: Keywords | None = None) -> tuple[Found, ...]:
    """The matters ``question`` names, in §9.2's order (not the question's), each with its words.

    Left to right, the longest keyword or stop word starting at each place is taken and skipped
    past; a stop word names nothing. Negation is not parsed. No matter → ``()``: the general reading.
    """
    table = keywords() if table is None else table
    plain = re.fullmatch(PLAIN, question) is not None  # then NFKC is the question's, character by character
    shown = question if plain else unicodedata.normalize("NFKC", question)
    text, source = _folded(shown, _PLAIN_TABLE if plain else _TABLE)
    found: dict[int, dict[str, None]] = {}  # by the matter's place in §9.2 (an int hashes in C)
    by_folded, lengths, by_run = table._by_folded, table._lengths, table._by_run
    done = 0  # the end of the last word taken
    for start in table._starts.finditer(text):  # the places a word may start (and no word inside a Latin word)
        i = start.start()
        if i < done:
            continue
        run = start.group()
        starting = by_run.get(run) if run[0] in _LATIN else lengths[run]
        if starting is None:
            continue
        w = None
        for n in starting:  # the longest word starting here
            w = by_folded.get(text[i : i + n])
            if w is not None and w.latin and _inside_word(text, i, i + n):
                w = None  # a Latin word matches only on word boundaries
            if w is not None:
                break
        if w is None:
            continue
        done = i + len(w.folded)
        if w.place:  # a stop word names nothing: it only keeps a shorter word inside from firing
            words = shown[i:done] if source is None else shown[source[i] : source[done - 1] + 1]
            found.setdefault(w.place, {})[_narrowed(words) if plain else words] = None
    return tuple(Found(MATTERS[n - 1], tuple(found[n])) for n in sorted(found))


def _inside_word(text: str, start: int, end: int) -> bool:
    return (start > 0 and text[start - 1] in _LATIN) or (end < len(text) and text[end] in _LATIN)


def choose(question: str | None, matter: str | Matter | None = None) -> tuple[Found, ...]:
    """The matters a reply reads: an explicit ``matter`` (a key, or ``general`` for none) overrides
    recognition entirely (its words are empty); else those :func:`recognise` finds in ``question``."""
    if matter is not None:
        chosen = matter if isinstance(matter, Matter) else Matter.parse(matter)
        return () if chosen is None else (Found(chosen, ()),)
    return _recognised(question) if question else ()


@remember(256)
def _recognised(question: str) -> tuple[Found, ...]:
    """:func:`recognise` with the shipped keywords, kept per question: the same question read
    against many charts (a sweep, the hours around a cast, a study group's daily one) is recognised once."""
    return recognise(question)
