"""The 《心印賦》 and its annotation as units a chart can look up (data: texts/corpus.toml).

A unit is one verbatim span of a seed paragraph (``original``) with the Japanese sentences that
translate exactly that span (``translation``). The units of a seed line, in order, reproduce the
line; tests/test_texts.py checks that against the seed itself.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from texts.normalize import normalize

DATA = Path(__file__).with_name("corpus.toml")

KINDS = ("front-matter", "procedure", "method", "general", "general-on-branch", "pattern")
# the id prefix each kind's ids carry
_PREFIX = {
    "front-matter": "front",
    "procedure": "procedure",
    "method": "method",
    "pattern": "pattern",
    "general": "general",
    "general-on-branch": "general",
}
BRANCHES = tuple("子丑寅卯辰巳午未申酉戌亥")
# the twelve generals in their order from 貴人 (¶87), in the forms the engine uses
GENERALS = ("貴人", "騰蛇", "朱雀", "六合", "勾陳", "青龍", "天空", "白虎", "太常", "玄武", "太陰", "天后")
# other names the seed gives a general (¶87 天乙乃貴人也)
_GENERAL_ALIASES = {"天乙": "貴人", "天乙貴人": "貴人"}
# a name may be asked for with the seed's suffix for a lesson type (蒿矢課, 蒿矢卦)
_SUFFIXES = ("課", "卦")
_ID = re.compile(r"^[a-z-]+\.\S+$")


class CorpusError(ValueError):
    """The corpus data is malformed; the message names the unit and the problem."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One span of the seed: its classical words, their translation, and what it is about.

    ``lines`` are the seed lines the unit draws from: (original's, translation's), or only one
    of them when the other text is empty. ``keys`` are the names it answers to: the method or
    pattern name(s), or for a name line the general, its branch(es), then the name(s) it gives.
    """

    id: str
    kind: str
    original: str
    translation: str
    lines: tuple[int, ...]
    keys: tuple[str, ...]
    general: str | None = None
    branches: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()

    @property
    def original_line(self) -> int | None:
        """Seed line of ``original`` (None when the unit has only a translation)."""
        return self.lines[0] if self.original else None

    @property
    def translation_line(self) -> int | None:
        """Seed line of ``translation`` (None when the unit has none)."""
        return self.lines[-1] if self.translation else None


def _problem(unit_id: str, message: str) -> CorpusError:
    return CorpusError(f"unit {unit_id!r}: {message}")


def validate_unit(u: Unit) -> None:
    """Raise CorpusError if ``u`` is inconsistent on its own."""
    if not _ID.match(u.id):
        raise _problem(u.id, "id must look like 'kind.name' (e.g. 'general.貴人.子')")
    if u.kind not in KINDS:
        raise _problem(u.id, f"kind {u.kind!r} is not one of {', '.join(KINDS)}")
    if u.id.split(".", 1)[0] != _PREFIX[u.kind]:
        raise _problem(u.id, f"a {u.kind} unit's id must start with '{_PREFIX[u.kind]}.'")
    if not u.original and not u.translation:
        raise _problem(u.id, "original and translation are both empty")
    texts = int(bool(u.original)) + int(bool(u.translation))
    if len(u.lines) != texts:
        raise _problem(u.id, f"lines {list(u.lines)} must give one seed line per non-empty text ({texts})")
    if any(n < 1 for n in u.lines) or list(u.lines) != sorted(set(u.lines)):
        raise _problem(u.id, f"lines {list(u.lines)} must be positive and increasing")
    if not u.keys or any(not k for k in u.keys) or len(set(u.keys)) != len(u.keys):
        raise _problem(u.id, f"keys {list(u.keys)} must be non-empty, distinct names")
    is_general = u.kind in ("general", "general-on-branch")
    if is_general and u.general not in GENERALS:
        raise _problem(u.id, f"general {u.general!r} is not one of {' '.join(GENERALS)}")
    if not is_general and u.general is not None:
        raise _problem(u.id, f"only general units name a general (got {u.general!r})")
    if is_general and u.keys[0] != u.general:
        raise _problem(u.id, f"the first key must be the general {u.general!r}")
    if u.kind == "general" and u.id != f"general.{u.general}" and not u.id.startswith(f"general.{u.general}."):
        raise _problem(u.id, f"a general unit's id must be 'general.{u.general}' or start with it")
    for name, values in (("branches", u.branches), ("excludes", u.excludes)):
        bad = [b for b in values if b not in BRANCHES]
        if bad or len(set(values)) != len(values):
            raise _problem(u.id, f"{name} {list(values)} must be distinct branches 子…亥")
    if u.kind == "general-on-branch":
        if not u.branches:
            raise _problem(u.id, "a general-on-branch unit needs its branch(es)")
        if u.id != f"general.{u.general}.{''.join(u.branches)}":
            raise _problem(u.id, f"id must be 'general.{u.general}.{''.join(u.branches)}'")
        if u.keys[1 : 1 + len(u.branches)] != u.branches:
            raise _problem(u.id, f"keys must start with the general then the branches {list(u.branches)}")
    elif u.branches:
        raise _problem(u.id, "only general-on-branch units have branches")
    if u.excludes and u.kind != "general":
        raise _problem(u.id, "only a general's opening unit has excludes")


@dataclass(frozen=True, slots=True)
class Corpus:
    """All units, in seed order, with the indices the lookups use. Built once by ``corpus()``."""

    units: tuple[Unit, ...]
    _by_id: Mapping[str, Unit] = field(init=False, repr=False, compare=False)
    _on_branch: Mapping[tuple[str, str], Unit] = field(init=False, repr=False, compare=False)
    _haystack: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Unit] = {}
        on_branch: dict[tuple[str, str], Unit] = {}
        for u in self.units:
            validate_unit(u)
            if u.id in by_id:
                raise _problem(u.id, "duplicate id")
            by_id[u.id] = u
            for b in u.branches:
                assert u.general is not None  # validate_unit: general-on-branch names its general
                if (u.general, b) in on_branch:
                    raise _problem(u.id, f"{u.general} on {b} is already {on_branch[u.general, b].id!r}")
                on_branch[u.general, b] = u
        for g in GENERALS:
            if f"general.{g}" not in by_id:
                raise CorpusError(f"no opening unit 'general.{g}' for the general {g}")
        haystack = tuple(normalize("\n".join((u.original, u.translation, *u.keys))) for u in self.units)
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_on_branch", MappingProxyType(on_branch))
        object.__setattr__(self, "_haystack", haystack)

    def get(self, unit_id: str) -> Unit:
        """The unit with this id; KeyError naming the id if there is none."""
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise KeyError(f"no unit with id {unit_id!r}") from None

    def _named(self, kind: str, name: str) -> Unit | None:
        """The ``kind`` unit answering to ``name``: the one whose id is '<kind>.<name>', else the first."""
        wanted = {normalize(name)}
        for suffix in _SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                wanted.add(normalize(name[: -len(suffix)]))
        found = [u for u in self.units if u.kind == kind and wanted & {normalize(k) for k in u.keys}]
        for u in found:
            if normalize(u.id.split(".", 1)[1]) in wanted:
                return u
        return found[0] if found else None

    def method(self, name: str) -> Unit | None:
        """The rule for casting by method ``name`` (重審, 蒿矢, 八専 …; ¶51–¶83), or None."""
        return self._named("method", name)

    def pattern(self, name: str) -> Unit | None:
        """The meaning of the named pattern (課体) ``name`` (元首, 龍首, 帷簿 …; ¶139–¶175), or None."""
        return self._named("pattern", name)

    def general(self, name: str) -> Unit | None:
        """The general's opening unit (e.g. 但見騰蛇，驚疑擾亂), or None if ``name`` is no general."""
        g = canonical_general(name)
        return None if g is None else self._by_id[f"general.{g}"]

    def general_on(self, general: str, branch: object) -> Unit | None:
        """The name line of ``general`` 臨 ``branch`` (the 地盤 branch under it), or None."""
        g = canonical_general(general)
        return None if g is None else self._on_branch.get((g, str(branch)))

    def paragraph(self, line: int) -> tuple[Unit, ...]:
        """The units drawn from seed line ``line`` (original or translation), in order."""
        return tuple(u for u in self.units if line in u.lines)

    def search(self, term: str) -> tuple[Unit, ...]:
        """Units whose original, translation or keys contain ``term`` (variants folded)."""
        needle = normalize(term)
        if not needle:
            return ()
        return tuple(u for u, hay in zip(self.units, self._haystack, strict=True) if needle in hay)

    def terms(self) -> tuple[str, ...]:
        """Every key a lookup answers to (names of methods, patterns, generals, name lines), once each.

        The branches are left out: they are keys of the name lines but not terms worth completing.
        """
        seen: dict[str, None] = {}
        for u in self.units:
            for k in u.keys:
                if k not in BRANCHES:
                    seen.setdefault(k, None)
        return tuple(seen)


def canonical_general(name: str) -> str | None:
    """The general ``name`` stands for, in the form of GENERALS (青竜 → 青龍, 天乙 → 貴人), or None."""
    n = normalize(name)
    for alias, g in _GENERAL_ALIASES.items():
        if n == normalize(alias):
            return g
    for g in GENERALS:
        if n == normalize(g):
            return g
    return None


_FIELDS = {
    "id": str,
    "kind": str,
    "original": str,
    "translation": str,
    "lines": list,
    "keys": list,
    "general": str,
    "branches": list,
    "excludes": list,
}
_REQUIRED = ("id", "kind", "original", "translation", "lines", "keys")


def _unit_from_table(i: int, table: Mapping[str, Any]) -> Unit:
    unit_id = table.get("id")
    label = unit_id if isinstance(unit_id, str) else f"#{i + 1}"
    for name in table:
        if name not in _FIELDS:
            raise _problem(label, f"unknown field {name!r} (known: {', '.join(_FIELDS)})")
    for name in _REQUIRED:
        if name not in table:
            raise _problem(label, f"missing field {name!r}")
    for name, value in table.items():
        if not isinstance(value, _FIELDS[name]):
            raise _problem(label, f"field {name!r} must be a {_FIELDS[name].__name__}, got {value!r}")
    lists = {name: table.get(name, []) for name in ("lines", "keys", "branches", "excludes")}
    for name, values in lists.items():
        want = int if name == "lines" else str
        if not all(isinstance(v, want) and not isinstance(v, bool) for v in values):
            raise _problem(label, f"field {name!r} must be a list of {want.__name__}, got {values!r}")
    return Unit(
        id=table["id"],
        kind=table["kind"],
        original=table["original"],
        translation=table["translation"],
        lines=tuple(lists["lines"]),
        keys=tuple(lists["keys"]),
        general=table.get("general"),
        branches=tuple(lists["branches"]),
        excludes=tuple(lists["excludes"]),
    )


def parse(data: Mapping[str, Any]) -> Corpus:
    """The corpus described by parsed TOML ``data`` (``[[unit]]`` tables); CorpusError if invalid."""
    extra = set(data) - {"unit"}
    if extra:
        raise CorpusError(f"unknown top-level table(s) {sorted(extra)}; units go in [[unit]]")
    tables = data.get("unit")
    if not isinstance(tables, list) or not tables:
        raise CorpusError("the corpus has no [[unit]] tables")
    return Corpus(tuple(_unit_from_table(i, t) for i, t in enumerate(tables)))


def load(path: Path | str = DATA) -> Corpus:
    """Read and validate a corpus file; CorpusError (with the file name) if it is malformed."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise CorpusError(f"{path}: not valid TOML: {e}") from e
    try:
        return parse(data)
    except CorpusError as e:
        raise CorpusError(f"{path}: {e}") from e


@cache
def corpus() -> Corpus:
    """The package's corpus, loaded and validated once."""
    return load(DATA)

