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
from dataclasses import dataclass
from typing import Literal

from engine.symbols import BRANCHES, Branch
from engine.terms import GENERALS, General

KINDS = ("front-matter", "procedure", "method", "general", "general-on-branch", "pattern")
NOTE_KINDS = ("emendation", "sic", "alias")
Field = Literal["original", "translation"]
TEXT_FIELDS: tuple[Field, ...] = ("original", "translation")
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
_ID = re.compile(r"^[a-z-]+\.\S+$")
BRANCH_NAMES = frozenset(b.name for b in BRANCHES)


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
        return self.display("original") if self.notes else self.original  # most units: no call

    @property
    def display_translation(self) -> str:
        """``display("translation")``."""
        return self.display("translation") if self.notes else self.translation


def branch_of(value: object) -> str | None:
    """The character of a branch given as a Branch or its character; None for anything else."""
    if isinstance(value, Branch):
        return value._name_  # not .name, a Python-level property: asked for each general of each reading
    text = str(value).strip()
    return text if text in BRANCH_NAMES else None


def _lookup_pair(pairs: tuple[tuple[str, str], ...], branch: object) -> str | None:
    b = branch_of(branch)
    for key, text in pairs:  # a loop, not a generator: asked for each name line of each reading
        if key == b:
            return text
    return None


def problem(unit_id: str, message: str) -> CorpusError:
    return CorpusError(f"unit {unit_id!r}: {message}")


def _validate_notes(u: Unit) -> None:
    for n in u.notes:
        if n.kind not in NOTE_KINDS:
            raise problem(u.id, f"note kind {n.kind!r} is not one of {', '.join(NOTE_KINDS)}")
        if not n.says.strip():
            raise problem(u.id, f"a {n.kind} note must say why (field 'says')")
        if n.field not in TEXT_FIELDS:
            raise problem(u.id, f"a note's field must be 'original' or 'translation', got {n.field!r}")
        text = u.original if n.field == "original" else u.translation
        if not n.at or not n.read:
            raise problem(u.id, f"a {n.kind} note needs 'at' (the seed's words) and 'read'")
        if n.kind in ("emendation", "sic") and text.count(n.at) != 1:
            raise problem(u.id, f"{n.kind} note: {n.at!r} must occur exactly once in the {n.field}")
        if n.kind == "alias" and n.at not in text:
            raise problem(u.id, f"alias note: {n.at!r} is not in the {n.field}")
        if n.kind == "emendation" and set(n.at) != {BROKEN}:
            raise problem(u.id, f"an emendation's 'at' must be broken characters (U+FFFD), got {n.at!r}")
        if n.kind == "sic" and (BROKEN in n.at or n.read == n.at):
            raise problem(u.id, "a sic note marks a slip ('at') and says what it should read ('read' ≠ 'at')")
        if BROKEN in n.read:
            raise problem(u.id, f"a note's 'read' must not contain U+FFFD: {n.read!r}")
        if n.kind == "alias" and n.read not in u.aliases:
            raise problem(u.id, f"alias note for {n.read!r}, which is not one of the aliases {list(u.aliases)}")
    for which in TEXT_FIELDS:
        if BROKEN in u.display(which):
            raise problem(u.id, f"the {which} has broken characters (U+FFFD) no emendation note covers")
    explained = {n.read for n in u.notes_of("alias")}
    for alias in u.aliases:
        if alias not in explained:
            raise problem(u.id, f"alias {alias!r} needs a note of kind 'alias' saying where it comes from")
    if len(set(u.aliases)) != len(u.aliases) or set(u.aliases) & set(u.keys):
        raise problem(u.id, f"aliases {list(u.aliases)} must be distinct and not already keys")


def _validate_branch_data(u: Unit) -> None:
    if u.kind != "general-on-branch":
        if u.names_by_branch or u.unreachable:
            raise problem(u.id, "only general-on-branch units have names_by_branch or unreachable")
        return
    named = [b for b, _ in u.names_by_branch]
    if sorted(named) != sorted(u.branches) or len(set(named)) != len(named):
        raise problem(u.id, f"names_by_branch must name each of the branches {list(u.branches)} once")
    used = {name for _, name in u.names_by_branch}
    if not used <= set(u.names) or set(u.names) - used:
        raise problem(u.id, f"names_by_branch must use exactly the names {list(u.names)}, got {sorted(used)}")
    for b, reason in u.unreachable:
        if b not in u.branches:
            raise problem(u.id, f"unreachable branch {b} is not one of the unit's branches")
        if not reason.strip():
            raise problem(u.id, f"unreachable {b} needs a reason")
    if len({b for b, _ in u.unreachable}) != len(u.unreachable):
        raise problem(u.id, "unreachable names a branch twice")


def validate_unit(u: Unit) -> None:
    """Raise CorpusError if ``u`` is inconsistent on its own."""
    if not _ID.match(u.id):
        raise problem(u.id, "id must look like 'kind.name' (e.g. 'general.貴人.子')")
    if u.kind not in KINDS:
        raise problem(u.id, f"kind {u.kind!r} is not one of {', '.join(KINDS)}")
    if u.id.split(".", 1)[0] != _PREFIX[u.kind]:
        raise problem(u.id, f"a {u.kind} unit's id must start with '{_PREFIX[u.kind]}.'")
    if not u.original and not u.translation:
        raise problem(u.id, "original and translation are both empty")
    texts = int(bool(u.original)) + int(bool(u.translation))
    if len(u.lines) != texts:
        raise problem(u.id, f"lines {list(u.lines)} must give one seed line per non-empty text ({texts})")
    if any(n < 1 for n in u.lines) or list(u.lines) != sorted(set(u.lines)):
        raise problem(u.id, f"lines {list(u.lines)} must be positive and increasing")
    if not u.keys or any(not k for k in u.keys) or len(set(u.keys)) != len(u.keys):
        raise problem(u.id, f"keys {list(u.keys)} must be non-empty, distinct names")
    is_general = u.kind in ("general", "general-on-branch")
    if is_general and not isinstance(u.general, General):
        raise problem(u.id, f"general {u.general!r} is not one of {' '.join(map(str, GENERALS))}")
    if not is_general and u.general is not None:
        raise problem(u.id, f"only general units name a general (got {u.general!r})")
    if is_general and u.keys[0] != str(u.general):
        raise problem(u.id, f"the first key must be the general {u.general!s}")
    if u.kind == "general" and u.id != f"general.{u.general}" and not u.id.startswith(f"general.{u.general}."):
        raise problem(u.id, f"a general unit's id must be 'general.{u.general}' or start with it")
    for name, values in (("branches", u.branches), ("excludes", u.excludes)):
        if any(b not in BRANCH_NAMES for b in values) or len(set(values)) != len(values):
            raise problem(u.id, f"{name} {list(values)} must be distinct branches 子…亥")
    if u.kind == "general-on-branch":
        spelled = "".join(u.branches)
        if not u.branches:
            raise problem(u.id, "a general-on-branch unit needs its branch(es)")
        if u.id != f"general.{u.general}.{spelled}":
            raise problem(u.id, f"id must be 'general.{u.general}.{spelled}'")
        if u.keys[1 : 1 + len(u.branches)] != u.branches:
            raise problem(u.id, f"keys must start with the general then the branches {list(spelled)}")
    elif u.branches:
        raise problem(u.id, "only general-on-branch units have branches")
    if u.excludes and u.kind != "general":
        raise problem(u.id, "only a general's opening unit has excludes")
    _validate_branch_data(u)
    _validate_notes(u)

