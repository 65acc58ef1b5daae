"""The book: every unit of the 《心印賦》 in seed order, with the look-ups a chart or a reader makes
(data: texts/corpus.toml; its schema is texts/corpus/units.py's).

    >>> corpus().general_on("貴人", "子").original
    '解紛（子）必囑事於童僕，'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.terms import GENERAL_ALIASES, GENERALS, General
from texts import shipped
from texts.corpus.normalize import normalize
from texts.corpus.units import (
    BRANCH_NAMES,
    TEXT_FIELDS,
    CorpusError,
    Note,
    Unit,
    branch_of,
    problem,
    validate_unit,
)
from texts.memo import remember

DATA = shipped.ROOT / "corpus.toml"
# a name may be asked for with the seed's suffix for a lesson type (蒿矢課, 蒿矢卦)
_SUFFIXES = ("課", "卦")


def _canonical_names() -> dict[str, General]:
    names = {normalize(str(g)): g for g in GENERALS}
    names.update({normalize(alias): g for alias, g in GENERAL_ALIASES.items()})
    return names


@remember()
def _general_names() -> Mapping[str, General]:
    # built on first use: normalize() loads OpenCC's tables, which `import texts` need not do
    return MappingProxyType(_canonical_names())


def canonical_general(name: object) -> General | None:
    """The General ``name`` stands for (a General, or its name in any form: 青竜 青龙 → 青龍,
    天乙 → 貴人), or None. ``str()`` of the result is the name in the engine's form."""
    if isinstance(name, General):
        return name
    if not isinstance(name, str):
        return None
    return _general_names().get(normalize(name))


@dataclass(frozen=True, slots=True)
class Corpus:
    """All units, in seed order, with the indices the lookups use. Built once by ``corpus()``.

    Every key, alias and text is normalised here, once; a lookup normalises only what it is asked.
    """

    units: tuple[Unit, ...]
    _by_id: Mapping[str, Unit] = field(init=False, repr=False, compare=False)
    _on_branch: Mapping[tuple[General, str], Unit] = field(init=False, repr=False, compare=False)
    _named: Mapping[tuple[str, str], Unit] = field(init=False, repr=False, compare=False)
    _by_name: Mapping[str, tuple[Unit, ...]] = field(init=False, repr=False, compare=False)
    _haystack: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _terms: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _folded_terms: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _pattern_texts: tuple[tuple[Unit, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Unit] = {}
        on_branch: dict[tuple[General, str], Unit] = {}
        for u in self.units:
            validate_unit(u)
            if u.id in by_id:
                raise problem(u.id, "duplicate id")
            by_id[u.id] = u
            for b in u.branches:
                assert u.general is not None  # validate_unit: general-on-branch names its general
                if (u.general, b) in on_branch:
                    raise problem(u.id, f"{u.general} on {b} is already {on_branch[u.general, b].id!r}")
                on_branch[u.general, b] = u
        for g in GENERALS:
            if f"general.{g}" not in by_id:
                raise CorpusError(f"no opening unit 'general.{g}' for the general {g}")
        # name → units answering to it (keys and aliases), in seed order
        by_name: dict[str, list[Unit]] = {}
        for u in self.units:
            for k in dict.fromkeys(normalize(k) for k in (*u.keys, *u.aliases)):
                by_name.setdefault(k, []).append(u)
        # (kind, name) → the unit of that kind a name picks: the one whose id is '<kind>.<name>', else the first
        named: dict[tuple[str, str], Unit] = {}
        for key, units in by_name.items():
            for kind in ("method", "pattern"):
                found = [u for u in units if u.kind == kind]
                if found:
                    named[kind, key] = next((u for u in found if normalize(u.id.split(".", 1)[1]) == key), found[0])
        seen: dict[str, None] = {}
        for u in self.units:
            for k in (*u.keys, *u.aliases):
                if k not in BRANCH_NAMES:
                    seen.setdefault(k, None)
        haystack = tuple(normalize("\n".join((u.original, u.translation, *u.keys, *u.aliases))) for u in self.units)
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_on_branch", MappingProxyType(on_branch))
        object.__setattr__(self, "_named", MappingProxyType(named))
        object.__setattr__(self, "_by_name", MappingProxyType({k: tuple(v) for k, v in by_name.items()}))
        object.__setattr__(self, "_haystack", haystack)
        object.__setattr__(self, "_terms", tuple(seen))
        object.__setattr__(self, "_folded_terms", tuple(normalize(t) for t in seen))
        object.__setattr__(self, "_pattern_texts", tuple(
            (u, normalize(u.original)) for u in self.units if u.kind == "pattern"))

    def get(self, unit_id: str) -> Unit:
        """The unit with this id; KeyError naming the id if there is none."""
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise KeyError(f"no unit with id {unit_id!r}") from None

    def _pick(self, kind: str, name: object) -> Unit | None:
        """The ``kind`` unit answering to ``name`` (or to ``name`` without a 課/卦 suffix)."""
        text = str(name)
        u = self._named.get((kind, normalize(text)))
        if u is None:
            for suffix in _SUFFIXES:
                if text.endswith(suffix) and len(text) > len(suffix):
                    u = self._named.get((kind, normalize(text[: -len(suffix)])))
        return u

    def method(self, name: object) -> Unit | None:
        """The rule for casting by method ``name`` (a Method/Frame or its name: 重審, 蒿矢, 八専 …;
        ¶51–¶83), or None."""
        return self._pick("method", name)

    def pattern(self, name: object) -> Unit | None:
        """The meaning of the named pattern (課体) ``name`` (元首, 龍首, 帷簿 …; ¶139–¶175), or None."""
        return self._pick("pattern", name)

    def named_in_patterns(self, name: object) -> tuple[int, ...]:
        """The ¶ of the 課体 lines (¶139–¶175) whose original names ``name`` without being its own
        verse (昴星 → ¶147, named as the condition of 冬蛇掩目 and 虎視転蓬), in seed order."""
        key = normalize(str(name))
        own = self.pattern(name)
        return tuple(dict.fromkeys(
            n for u, original in self._pattern_texts
            if u is not own and key in original and (n := u.original_line) is not None
        ))

    def named(self, name: str) -> tuple[Unit, ...]:
        """Every unit whose keys or aliases include ``name`` (variants folded), in seed order."""
        return self._by_name.get(normalize(name), ())

    def general(self, name: object) -> Unit | None:
        """The general's opening unit (e.g. 但見騰蛇，驚疑擾亂), or None if ``name`` is no general."""
        g = canonical_general(name)
        return None if g is None else self._by_id[f"general.{g._name_}"]  # _name_: str() is a Python call

    def general_on(self, general: object, branch: object) -> Unit | None:
        """The name line of ``general`` 臨 ``branch`` (the 地盤 branch under it), or None.

        Both may be the engine's values (General, Branch) or their names. The unit is returned even
        where no chart can reach the pair: ``unit.reachable(branch)`` says so.
        """
        g, b = canonical_general(general), branch_of(branch)
        return None if g is None or b is None else self._on_branch.get((g, b))

    def paragraph(self, line: int) -> tuple[Unit, ...]:
        """The units drawn from seed line ``line`` (original or translation), in order."""
        return tuple(u for u in self.units if line in u.lines)

    def search(self, term: str) -> tuple[Unit, ...]:
        """Units whose original, translation, keys or aliases contain ``term`` (variants folded:
        simplified, traditional and Japanese forms find the same units)."""
        needle = normalize(term)
        if not needle:
            return ()
        return tuple(u for u, hay in zip(self.units, self._haystack, strict=True) if needle in hay)

    def terms(self) -> tuple[str, ...]:
        """Every key a lookup answers to (names of methods, patterns, generals, name lines, aliases),
        once each. The branches are left out: they are keys of the name lines but not terms worth
        completing.
        """
        return self._terms

    def suggest(self, current: str, limit: int = 25) -> tuple[str, ...]:
        """Terms for an autocomplete of ``current``, in any form (腾 finds 騰蛇): those starting
        with it first, then those containing it; at most ``limit``."""
        needle = normalize(current)
        pairs = tuple(zip(self._terms, self._folded_terms, strict=True))
        first = [t for t, f in pairs if f.startswith(needle)]
        then = [t for t, f in pairs if needle in f and not f.startswith(needle)]
        return tuple((first + then)[:limit])


def _str_list(label: str, name: str, values: Any) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise problem(label, f"field {name!r} must be a list of str, got {values!r}")
    return values


def _branch_table(label: str, name: str, table: Any) -> tuple[tuple[str, str], ...]:
    # the keys are checked against the unit's branches by validate_unit
    if not isinstance(table, dict):
        raise problem(label, f"field {name!r} must be a table {{branch = text}}, got {table!r}")
    for key, value in table.items():
        if not isinstance(value, str):
            raise problem(label, f"{name}.{key} must be a string, got {value!r}")
    return tuple(table.items())


_NOTE_FIELDS = {"kind", "says", "field", "at", "read"}


def _note(label: str, table: Any) -> Note:
    if not isinstance(table, dict):
        raise problem(label, f"a note must be a table, got {table!r}")
    unknown = set(table) - _NOTE_FIELDS
    if unknown:
        raise problem(label, f"unknown note field(s) {sorted(unknown)} (known: {', '.join(sorted(_NOTE_FIELDS))})")
    for name in ("kind", "says"):
        if name not in table:
            raise problem(label, f"a note needs {name!r}")
    for name, value in table.items():
        if not isinstance(value, str):
            raise problem(label, f"note field {name!r} must be a string, got {value!r}")
    which = table.get("field", "translation")
    if which not in TEXT_FIELDS:
        raise problem(label, f"a note's field must be 'original' or 'translation', got {which!r}")
    return Note(table["kind"], table["says"], which, table.get("at", ""), table.get("read", ""))


_FIELDS: dict[str, type] = {
    "id": str,
    "kind": str,
    "original": str,
    "translation": str,
    "lines": list,
    "keys": list,
    "general": str,
    "branches": list,
    "excludes": list,
    "names_by_branch": dict,
    "unreachable": dict,
    "aliases": list,
    "notes": list,
}
_REQUIRED = ("id", "kind", "original", "translation", "lines", "keys")


def _unit_from_table(i: int, table: Mapping[str, Any]) -> Unit:
    unit_id = table.get("id")
    label = unit_id if isinstance(unit_id, str) else f"#{i + 1}"
    for name in table:
        if name not in _FIELDS:
            raise problem(label, f"unknown field {name!r} (known: {', '.join(_FIELDS)})")
    for name in _REQUIRED:
        if name not in table:
            raise problem(label, f"missing field {name!r}")
    for name, value in table.items():
        if not isinstance(value, _FIELDS[name]):
            raise problem(label, f"field {name!r} must be a {_FIELDS[name].__name__}, got {value!r}")
    lines = table["lines"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in lines):
        raise problem(label, f"field 'lines' must be a list of int, got {lines!r}")
    general = table.get("general")
    g = None
    if general is not None:
        g = canonical_general(general)
        if g is None or str(g) != general:
            raise problem(label, f"general {general!r} is not one of {' '.join(map(str, GENERALS))}")
    return Unit(
        id=table["id"],
        kind=table["kind"],
        original=table["original"],
        translation=table["translation"],
        lines=tuple(lines),
        keys=tuple(_str_list(label, "keys", table["keys"])),
        general=g,
        branches=tuple(_str_list(label, "branches", table.get("branches", []))),
        excludes=tuple(_str_list(label, "excludes", table.get("excludes", []))),
        names_by_branch=_branch_table(label, "names_by_branch", table.get("names_by_branch", {})),
        unreachable=_branch_table(label, "unreachable", table.get("unreachable", {})),
        aliases=tuple(_str_list(label, "aliases", table.get("aliases", []))),
        notes=tuple(_note(label, n) for n in table.get("notes", [])),
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
        data = shipped.load(path)
    except ValueError as e:  # not TOML (tomllib.TOMLDecodeError) or not UTF-8
        raise CorpusError(f"{path}: not valid TOML: {e}") from e
    try:
        return parse(data)
    except CorpusError as e:
        raise CorpusError(f"{path}: {e}") from e


@remember()
def corpus() -> Corpus:
    """The package's corpus, loaded and validated once."""
    return load(DATA)
