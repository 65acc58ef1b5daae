"""What the 《心印賦》 says about a chart: the passages that match its method, patterns and 三伝.

``reading(chart, patterns)`` takes any object shaped like ``engine.chart.Chart`` (only
``transmissions.method``, ``transmissions.frame`` and ``steps`` with ``branch``, ``ground`` and
``general`` are read) and the chart's patterns (names, or objects with ``name`` and ``reason``
such as ``engine.patterns.detect(chart)``). Where the seed has no line, or excludes the branch,
the entry says so instead of being left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from texts.corpus import Corpus, Unit, canonical_general, corpus

POSITIONS = ("初伝", "中伝", "末伝")

# Why a method has no rule line of its own in ¶51–¶83 (tests/test_texts.py proves each absence).
_NO_RULE_LINE = {
    "自任": "seed has no rule line for 自任; it is named only in ¶147 (伏吟任信), see the pattern",
    "自信": "seed has no rule line for 自信; it is named only in ¶147 (伏吟任信), see the pattern",
    "綴瑕": "seed has no line for 綴瑕 (RULES §4's tie-break of 渉害); the nearest rule is 渉害 (¶59)",
}

# The chart names a method by the name a reader says; the seed gives its rule under another:
# ¶55 states the rule as 比用, ¶59 only explains why it is also called 知一.
_RULE_NAME = {"知一": "比用"}


class StepLike(Protocol):
    @property
    def branch(self) -> object: ...  # 天盤 branch (engine: Branch, str() is its character)
    @property
    def ground(self) -> object: ...  # the 地盤 branch under it
    @property
    def general(self) -> str: ...


class TransmissionsLike(Protocol):
    @property
    def method(self) -> str: ...
    @property
    def frame(self) -> str | None: ...


class ChartLike(Protocol):
    @property
    def transmissions(self) -> TransmissionsLike: ...
    @property
    def steps(self) -> Sequence[StepLike]: ...


class PatternLike(Protocol):
    @property
    def name(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Entry:
    """One passage of a reading: its role in the chart, the unit (None: the seed has no line), why."""

    role: str
    unit: Unit | None
    note: str


@dataclass(frozen=True, slots=True)
class Reading:
    """The entries for a chart in a stable order: frame, method, patterns, then each 伝's general."""

    entries: tuple[Entry, ...]

    def units(self) -> tuple[Unit, ...]:
        """The units found, each once, in entry order."""
        seen: dict[str, Unit] = {}
        for e in self.entries:
            if e.unit is not None:
                seen.setdefault(e.unit.id, e.unit)
        return tuple(seen.values())


def _line(u: Unit) -> str:
    return f"¶{u.original_line}" if u.original_line is not None else f"¶{u.translation_line}"


def _method_entries(c: Corpus, method: str, frame: str | None) -> list[Entry]:
    entries: list[Entry] = []
    if frame is not None and frame != method:
        u = c.method(frame)
        note = f"the plate is {frame}" + (f" ({_line(u)})" if u else f"; seed has no line for {frame}")
        entries.append(Entry("frame", u, note))
    rule = _RULE_NAME.get(method, method)
    u = c.method(rule)
    if u is not None:
        same = "" if rule == method else f" = {rule}"
        note = f"初伝 taken by {method}{same} ({_line(u)})"
    else:
        note = _NO_RULE_LINE.get(method, f"seed has no rule line for {method}")
    entries.append(Entry("method", u, note))
    return entries


def _pattern_entries(c: Corpus, patterns: Iterable[str | PatternLike]) -> list[Entry]:
    # Several names may share one passage (八専 and 帷簿, 伏吟 and 自任): one entry for it.
    found: dict[str, tuple[Unit, list[str]]] = {}
    missing: list[Entry] = []
    for p in patterns:
        name = p if isinstance(p, str) else p.name
        reason = "" if isinstance(p, str) else str(getattr(p, "reason", ""))
        why = reason or f"{name} holds"
        u = c.pattern(name)
        if u is None:
            missing.append(Entry("pattern", None, f"{why}; seed has no verse for {name} (¶139–¶175)"))
        elif u.id in found:
            found[u.id][1].append(why)
        else:
            found[u.id] = (u, [why])
    return [Entry("pattern", u, "; ".join(whys)) for u, whys in found.values()] + missing


def _step_entries(c: Corpus, position: str, step: StepLike) -> list[Entry]:
    general = canonical_general(step.general)
    if general is None:
        raise ValueError(f"{position}: {step.general!r} is not one of the twelve generals")
    branch, ground = str(step.branch), str(step.ground)
    opening = c.general(general)
    assert opening is not None  # every general has an opening (checked when the corpus loads)
    note = f"{position} {branch} carries {general}, 臨 {ground}"
    if ground in opening.excludes:
        note += f"; excluded: {general} 不加{ground} (the opening's sense does not hold here)"
    on = c.general_on(general, ground)
    if on is not None:
        names = on.keys[1 + len(on.branches) :]
        on_note = f"{general} 臨 {ground}: {'・'.join(names)} ({_line(on)})"
    elif general == "天空":
        on_note = f"seed has no line for 天空 on {ground} (天空 has none per branch, ¶135)"
    else:
        on_note = f"seed has no line for {general} on {ground}"
    return [
        Entry(f"{position} general", opening, note),
        Entry(f"{position} general-on-branch", on, on_note),
    ]


def reading(
    chart: ChartLike, patterns: Iterable[str | PatternLike] = (), *, texts: Corpus | None = None
) -> Reading:
    """The units matched by ``chart``: frame and method, each pattern, then for 初伝 中伝 末伝 the
    general's opening and its name line for the 地盤 branch under it. ``texts`` defaults to
    ``corpus()``. Raises ValueError if a step's general is not one of the twelve.
    """
    c = corpus() if texts is None else texts
    steps = tuple(chart.steps)
    if len(steps) != len(POSITIONS):
        raise ValueError(f"a chart has three transmissions, got {len(steps)}")
    entries = _method_entries(c, chart.transmissions.method, chart.transmissions.frame)
    entries += _pattern_entries(c, patterns)
    for position, step in zip(POSITIONS, steps, strict=True):
        entries += _step_entries(c, position, step)
    return Reading(tuple(entries))
