"""The 《心印賦》 and its annotation as units a chart can look up (data: texts/corpus.toml).

A unit is one verbatim span of a seed paragraph (``original``) with the Japanese sentences that
translate exactly that span (``translation``). The units of a seed line, in order, reproduce the
line; tests/test_texts.py checks that against the seed itself. The verbatim texts are never
changed: what an editor adds sits beside them.

Schema of a ``[[unit]]`` table (texts/corpus.toml says the same at its top):

- ``id`` (str), ``kind`` (one of KINDS), ``lines`` ([int]), ``keys`` ([str]), ``original`` and
  ``translation`` (str, verbatim): as before. ``general`` (a General's name) and ``branches``
  ([branch]) on the general units; ``excludes`` ([branch]) on an opening with （不加…）.
- ``names_by_branch`` ({branch = name}), required on every general-on-branch unit: which of the
  names in ``keys`` the seed gives the general on which branch (六合 升堂 on 午, 入室 on 卯). Each of
  the unit's branches has exactly one name; a name may serve two branches (巳午受貢).
- ``unreachable`` ({branch = reason}) on a general-on-branch unit: the branches of the unit no cast
  chart can put the general on (under ¶87's 順逆 rule, docs/rules.md §5 and §7), each with its reason.
- ``aliases`` ([str]): other names a lookup answers to, that the seed does not give this unit as
  its name (the tradition's 入林/失路 for 玄武 on 寅/辰). Each needs an ``alias`` note.
- ``notes`` ([{kind, field, at, read, says}]): editorial notes, never part of the verbatim text.
  ``kind`` is one of NOTE_KINDS:
  - ``emendation``: ``at`` is a run of U+FFFD (characters broken in the seed) in ``field``
    ("original" or "translation"), occurring once; ``read`` is what the editor restores there.
    Every U+FFFD of a unit must be covered by one. The display form shows ``〔read〕`` in its place.
  - ``sic``: ``at`` is a slip of the text in ``field``, occurring once; ``read`` is what it should
    say. The display form shows ``at〔ママ〕``: the slip stays visible, and so does the mark.
  - ``alias``: ``at`` is the seed's words (in ``field``) the alias ``read`` comes from.
  ``says`` is the reason, in English, with the seed lines it rests on.

``Unit.display_original`` and ``Unit.display_translation`` are the texts a reader is shown: the
verbatim text with the emendations and [sic] marks applied (the same string when there are none).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from engine.symbols import BRANCHES, Branch
from engine.terms import GENERAL_ALIASES, GENERALS, General
from texts import shipped
from texts.memo import remember
from texts.normalize import normalize

DATA = Path(__file__).with_name("corpus.toml")

KINDS = ("front-matter", "procedure", "method", "general", "general-on-branch", "pattern")
NOTE_KINDS = ("emendation", "sic", "alias")
Field = Literal["original", "translation"]
_TEXT_FIELDS: tuple[Field, ...] = ("original", "translation")
BROKEN = "\ufffd"  # what the seed has where a character was lost
# the id prefix each kind's ids carry
_PREFIX = {
    "front-matter": "front",
    "procedure": "procedure",
    "method": "method",
    "pattern": "pattern",
    "general": "general",
    "general-on-branch": "general",
}
# a name may be asked for with the seed's suffix for a lesson type (蒿矢課, 蒿矢卦)
_SUFFIXES = ("課", "卦")
_ID = re.compile(r"^[a-z-]+\.\S+$")
_BRANCH_NAMES = frozenset(b.name for b in BRANCHES)


class CorpusError(ValueError):
    """The corpus data is malformed; the message names the unit and the problem."""


@dataclass(frozen=True, slots=True)
class Note:
    """An editor's note on a unit (see the module docstring for what each kind promises)."""

    kind: str
    says: str
    field: Field = "translation"
    at: str = ""
    read: str = ""


@dataclass(frozen=True, slots=True)
class Unit:
    """One span of the seed: its classical words, their translation, and what it is about.

    ``lines`` are the seed lines the unit draws from: (original's, translation's), or only one
    of them when the other text is empty. ``keys`` are the names it answers to: the method or
    pattern name(s), or for a name line the general, its branch(es), then the name(s) it gives.
    Branches are held as their characters (``Branch.name``: "子" … "亥"), so ``str(step.ground) in
    unit.excludes`` holds for the engine's values too; ``general`` is the engine's ``General``.
    ``names_by_branch`` and ``unreachable`` are (branch, text) pairs in the unit's branch order; the
    methods below take a ``Branch`` or its character.
    """

    id: str
    kind: str
    original: str
    translation: str
    lines: tuple[int, ...]
    keys: tuple[str, ...]
    general: General | None = None
    branches: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    names_by_branch: tuple[tuple[str, str], ...] = ()
    unreachable: tuple[tuple[str, str], ...] = ()
    aliases: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()

    @property
    def original_line(self) -> int | None:
        """Seed line of ``original`` (None when the unit has only a translation)."""
        return self.lines[0] if self.original else None

    @property
    def translation_line(self) -> int | None:
        """Seed line of ``translation`` (None when the unit has none)."""
        return self.lines[-1] if self.translation else None

    @property
    def names(self) -> tuple[str, ...]:
        """The names a general-on-branch unit gives (the keys after the general and branches)."""
        return self.keys[1 + len(self.branches) :] if self.kind == "general-on-branch" else ()

    def name_on(self, branch: object) -> str | None:
        """The name the seed gives the general on ``branch`` (a Branch or its character), or None."""
        return _lookup_pair(self.names_by_branch, branch)

    def reachable(self, branch: object) -> bool:
        """False when no cast chart puts this unit's general on ``branch`` (see ``unreachable``)."""
        return _lookup_pair(self.unreachable, branch) is None

    def unreachable_reason(self, branch: object) -> str | None:
        """Why no chart puts this unit's general on ``branch``; None when one can."""
        return _lookup_pair(self.unreachable, branch)

    def notes_of(self, kind: str) -> tuple[Note, ...]:
        """The notes of one kind (``emendation``, ``sic``, ``alias``), in data order."""
        return tuple(n for n in self.notes if n.kind == kind)

    def display(self, which: Field) -> str:
        """The text a reader is shown for ``original`` or ``translation``: the verbatim text with
        each emendation shown as 〔restored〕 and each slip followed by 〔ママ〕."""
        text = self.original if which == "original" else self.translation
        for n in self.notes:
            if n.field != which:
                continue
            if n.kind == "emendation":
                text = text.replace(n.at, f"〔{n.read}〕", 1)
            elif n.kind == "sic":
                text = text.replace(n.at, f"{n.at}〔ママ〕", 1)
        return text

    @property
    def display_original(self) -> str:
        """``display("original")``."""
        return self.display("original")

    @property
    def display_translation(self) -> str:
        """``display("translation")``."""
        return self.display("translation")


def _branch_of(value: object) -> str | None:
    """The character of a branch given as a Branch or its character; None for anything else."""
    if isinstance(value, Branch):
        return value._name_  # not .name, a Python-level property: asked for each general of each reading
    text = str(value).strip()
    return text if text in _BRANCH_NAMES else None


def _lookup_pair(pairs: tuple[tuple[str, str], ...], branch: object) -> str | None:
    b = _branch_of(branch)
    return next((text for key, text in pairs if key == b), None)


def _problem(unit_id: str, message: str) -> CorpusError:
    return CorpusError(f"unit {unit_id!r}: {message}")


def _validate_notes(u: Unit) -> None:
    for n in u.notes:
        if n.kind not in NOTE_KINDS:
            raise _problem(u.id, f"note kind {n.kind!r} is not one of {', '.join(NOTE_KINDS)}")
        if not n.says.strip():
            raise _problem(u.id, f"a {n.kind} note must say why (field 'says')")
        if n.field not in _TEXT_FIELDS:
            raise _problem(u.id, f"a note's field must be 'original' or 'translation', got {n.field!r}")
        text = u.original if n.field == "original" else u.translation
        if not n.at or not n.read:
            raise _problem(u.id, f"a {n.kind} note needs 'at' (the seed's words) and 'read'")
        if n.kind in ("emendation", "sic") and text.count(n.at) != 1:
            raise _problem(u.id, f"{n.kind} note: {n.at!r} must occur exactly once in the {n.field}")
        if n.kind == "alias" and n.at not in text:
            raise _problem(u.id, f"alias note: {n.at!r} is not in the {n.field}")
        if n.kind == "emendation" and set(n.at) != {BROKEN}:
            raise _problem(u.id, f"an emendation's 'at' must be broken characters (U+FFFD), got {n.at!r}")
        if n.kind == "sic" and (BROKEN in n.at or n.read == n.at):
            raise _problem(u.id, "a sic note marks a slip ('at') and says what it should read ('read' ≠ 'at')")
        if BROKEN in n.read:
            raise _problem(u.id, f"a note's 'read' must not contain U+FFFD: {n.read!r}")
        if n.kind == "alias" and n.read not in u.aliases:
            raise _problem(u.id, f"alias note for {n.read!r}, which is not one of the aliases {list(u.aliases)}")
    for which in _TEXT_FIELDS:
        if BROKEN in u.display(which):
            raise _problem(u.id, f"the {which} has broken characters (U+FFFD) no emendation note covers")
    explained = {n.read for n in u.notes_of("alias")}
    for alias in u.aliases:
        if alias not in explained:
            raise _problem(u.id, f"alias {alias!r} needs a note of kind 'alias' saying where it comes from")
    if len(set(u.aliases)) != len(u.aliases) or set(u.aliases) & set(u.keys):
        raise _problem(u.id, f"aliases {list(u.aliases)} must be distinct and not already keys")


def _validate_branch_data(u: Unit) -> None:
    if u.kind != "general-on-branch":
        if u.names_by_branch or u.unreachable:
            raise _problem(u.id, "only general-on-branch units have names_by_branch or unreachable")
        return
    named = [b for b, _ in u.names_by_branch]
    if sorted(named) != sorted(u.branches) or len(set(named)) != len(named):
        raise _problem(u.id, f"names_by_branch must name each of the branches {list(u.branches)} once")
    used = {name for _, name in u.names_by_branch}
    if not used <= set(u.names) or set(u.names) - used:
        raise _problem(u.id, f"names_by_branch must use exactly the names {list(u.names)}, got {sorted(used)}")
    for b, reason in u.unreachable:
        if b not in u.branches:
            raise _problem(u.id, f"unreachable branch {b} is not one of the unit's branches")
        if not reason.strip():
            raise _problem(u.id, f"unreachable {b} needs a reason")
    if len({b for b, _ in u.unreachable}) != len(u.unreachable):
        raise _problem(u.id, "unreachable names a branch twice")


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
    if is_general and not isinstance(u.general, General):
        raise _problem(u.id, f"general {u.general!r} is not one of {' '.join(map(str, GENERALS))}")
    if not is_general and u.general is not None:
        raise _problem(u.id, f"only general units name a general (got {u.general!r})")
    if is_general and u.keys[0] != str(u.general):
        raise _problem(u.id, f"the first key must be the general {u.general!s}")
    if u.kind == "general" and u.id != f"general.{u.general}" and not u.id.startswith(f"general.{u.general}."):
        raise _problem(u.id, f"a general unit's id must be 'general.{u.general}' or start with it")
    for name, values in (("branches", u.branches), ("excludes", u.excludes)):
        if any(b not in _BRANCH_NAMES for b in values) or len(set(values)) != len(values):
            raise _problem(u.id, f"{name} {list(values)} must be distinct branches 子…亥")
    if u.kind == "general-on-branch":
        spelled = "".join(u.branches)
        if not u.branches:
            raise _problem(u.id, "a general-on-branch unit needs its branch(es)")
        if u.id != f"general.{u.general}.{spelled}":
            raise _problem(u.id, f"id must be 'general.{u.general}.{spelled}'")
        if u.keys[1 : 1 + len(u.branches)] != u.branches:
            raise _problem(u.id, f"keys must start with the general then the branches {list(spelled)}")
    elif u.branches:
        raise _problem(u.id, "only general-on-branch units have branches")
    if u.excludes and u.kind != "general":
        raise _problem(u.id, "only a general's opening unit has excludes")
    _validate_branch_data(u)
    _validate_notes(u)


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

    def __post_init__(self) -> None:
        by_id: dict[str, Unit] = {}
        on_branch: dict[tuple[General, str], Unit] = {}
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
                if k not in _BRANCH_NAMES:
                    seen.setdefault(k, None)
        haystack = tuple(normalize("\n".join((u.original, u.translation, *u.keys, *u.aliases))) for u in self.units)
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_on_branch", MappingProxyType(on_branch))
        object.__setattr__(self, "_named", MappingProxyType(named))
        object.__setattr__(self, "_by_name", MappingProxyType({k: tuple(v) for k, v in by_name.items()}))
        object.__setattr__(self, "_haystack", haystack)
        object.__setattr__(self, "_terms", tuple(seen))
        object.__setattr__(self, "_folded_terms", tuple(normalize(t) for t in seen))

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

    def named(self, name: str) -> tuple[Unit, ...]:
        """Every unit whose keys or aliases include ``name`` (variants folded), in seed order."""
        return self._by_name.get(normalize(name), ())

    def general(self, name: object) -> Unit | None:
        """The general's opening unit (e.g. 但見騰蛇，驚疑擾亂), or None if ``name`` is no general."""
        g = canonical_general(name)
        return None if g is None else self._by_id[f"general.{g}"]

    def general_on(self, general: object, branch: object) -> Unit | None:
        """The name line of ``general`` 臨 ``branch`` (the 地盤 branch under it), or None.

        Both may be the engine's values (General, Branch) or their names. The unit is returned even
        where no chart can reach the pair: ``unit.reachable(branch)`` says so.
        """
        g, b = canonical_general(general), _branch_of(branch)
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
        raise _problem(label, f"field {name!r} must be a list of str, got {values!r}")
    return values


def _branch_table(label: str, name: str, table: Any) -> tuple[tuple[str, str], ...]:
    # the keys are checked against the unit's branches by validate_unit
    if not isinstance(table, dict):
        raise _problem(label, f"field {name!r} must be a table {{branch = text}}, got {table!r}")
    for key, value in table.items():
        if not isinstance(value, str):
            raise _problem(label, f"{name}.{key} must be a string, got {value!r}")
    return tuple(table.items())


_NOTE_FIELDS = {"kind", "says", "field", "at", "read"}


def _note(label: str, table: Any) -> Note:
    if not isinstance(table, dict):
        raise _problem(label, f"a note must be a table, got {table!r}")
    unknown = set(table) - _NOTE_FIELDS
    if unknown:
        raise _problem(label, f"unknown note field(s) {sorted(unknown)} (known: {', '.join(sorted(_NOTE_FIELDS))})")
    for name in ("kind", "says"):
        if name not in table:
            raise _problem(label, f"a note needs {name!r}")
    for name, value in table.items():
        if not isinstance(value, str):
            raise _problem(label, f"note field {name!r} must be a string, got {value!r}")
    which = table.get("field", "translation")
    if which not in _TEXT_FIELDS:
        raise _problem(label, f"a note's field must be 'original' or 'translation', got {which!r}")
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
            raise _problem(label, f"unknown field {name!r} (known: {', '.join(_FIELDS)})")
    for name in _REQUIRED:
        if name not in table:
            raise _problem(label, f"missing field {name!r}")
    for name, value in table.items():
        if not isinstance(value, _FIELDS[name]):
            raise _problem(label, f"field {name!r} must be a {_FIELDS[name].__name__}, got {value!r}")
    lines = table["lines"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in lines):
        raise _problem(label, f"field 'lines' must be a list of int, got {lines!r}")
    general = table.get("general")
    g = None
    if general is not None:
        g = canonical_general(general)
        if g is None or str(g) != general:
            raise _problem(label, f"general {general!r} is not one of {' '.join(map(str, GENERALS))}")
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
