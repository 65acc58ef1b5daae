"""What the 《心印賦》 says about a chart: the passages that match its method, patterns and 三伝.

``reading(chart, patterns)`` takes any object shaped like ``engine.chart.Chart`` (only
``transmissions.method``, ``transmissions.frame`` and ``steps`` with ``branch``, ``ground`` and
``general`` are read) and the chart's patterns (names, or objects with ``name`` and ``reason``
such as ``engine.patterns.detect(chart)``). Where the seed has no line, or excludes the branch,
the entry says so instead of being left out. Each entry says why it is there in Japanese (``note``,
the readers' default) and in English (``note_en``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from texts.corpus import Corpus, Unit, canonical_general, corpus

POSITIONS = ("初伝", "中伝", "末伝")

# Why a method has no rule line of its own in ¶51–¶83 (tests/test_texts.py proves each absence):
# (Japanese, English).
_NO_RULE_LINE = {
    "自任": ("原文に自任の取用規則の句はない。名は¶147（伏吟任信）に見えるのみ：課体を参照",
             "seed has no rule line for 自任; it is named only in ¶147 (伏吟任信), see the pattern"),
    "自信": ("原文に自信の取用規則の句はない。名は¶147（伏吟任信）に見えるのみ：課体を参照",
             "seed has no rule line for 自信; it is named only in ¶147 (伏吟任信), see the pattern"),
    "綴瑕": ("原文に綴瑕（渉害でなお決まらないときの取り方）の句はない。最も近い規則は渉害（¶59）",
             "seed has no line for 綴瑕 (RULES §4's tie-break of 渉害); the nearest rule is 渉害 (¶59)"),
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
    """One passage of a reading: its role in the chart, the unit (None: the seed has no line), why.

    ``note`` says why in Japanese (the readers' default), ``note_en`` the same in English; neither
    quotes anything the corpus does not hold. ``excluded`` is True on a general's opening whose
    （不加…） names the 地盤 branch the general stands on: the seed withholds that sense there.
    """

    role: str
    unit: Unit | None
    note: str
    note_en: str
    excluded: bool = False


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
        if u is not None:
            entries.append(Entry("frame", u, f"天地盤が{frame}（{_line(u)}）", f"the plate is {frame} ({_line(u)})"))
        else:
            entries.append(Entry("frame", None, f"天地盤が{frame}；原文に{frame}の句はない",
                                 f"the plate is {frame}; seed has no line for {frame}"))
    rule = _RULE_NAME.get(method, method)
    u = c.method(rule)
    if u is not None:
        same, same_en = ("", "") if rule == method else (f"（＝{rule}）", f" = {rule}")
        note, note_en = f"初伝は{method}{same}で取る（{_line(u)}）", f"初伝 taken by {method}{same_en} ({_line(u)})"
    else:
        note, note_en = _NO_RULE_LINE.get(
            method, (f"原文に{method}の取用規則の句はない", f"seed has no rule line for {method}"))
    entries.append(Entry("method", u, note, note_en))
    return entries


def _pattern_entries(c: Corpus, patterns: Iterable[str | PatternLike]) -> list[Entry]:
    # Several names may share one passage (八専 and 帷簿, 伏吟 and 自任): one entry for it.
    # The engine's reasons are Japanese already; a bare name gets a short Japanese/English "holds".
    found: dict[str, tuple[Unit, list[str], list[str]]] = {}
    missing: list[Entry] = []
    for p in patterns:
        name = p if isinstance(p, str) else p.name
        reason = "" if isinstance(p, str) else str(getattr(p, "reason", ""))
        why, why_en = (reason, reason) if reason else (f"{name}が成立", f"{name} holds")
        u = c.pattern(name)
        if u is None:
            missing.append(Entry("pattern", None, f"{why}；原文（¶139–¶175）に{name}の句はない",
                                 f"{why_en}; seed has no verse for {name} (¶139–¶175)"))
        elif u.id in found:
            found[u.id][1].append(why)
            found[u.id][2].append(why_en)
        else:
            found[u.id] = (u, [why], [why_en])
    return [Entry("pattern", u, "；".join(whys), "; ".join(whys_en))
            for u, whys, whys_en in found.values()] + missing


def _step_entries(c: Corpus, position: str, step: StepLike) -> list[Entry]:
    general = canonical_general(step.general)
    if general is None:
        raise ValueError(f"{position}: {step.general!r} is not one of the twelve generals")
    branch, ground = str(step.branch), str(step.ground)
    opening = c.general(general)
    assert opening is not None  # every general has an opening (checked when the corpus loads)
    excluded = ground in opening.excludes
    note = f"{position}{branch}に{general}が乗り、{ground}に臨む"
    note_en = f"{position} {branch} carries {general}, 臨 {ground}"
    if excluded:
        # Quote the opening's own （不加…）, whole: it is the seed's text, a shortened one would not be.
        note += f"（原文「不加{''.join(opening.excludes)}」：{ground}ではこの断を取らない）"
        note_en += f"; excluded: {general} 不加{ground} (the opening's sense does not hold here)"
    on = c.general_on(general, ground)
    if on is not None:
        names = "・".join(on.keys[1 + len(on.branches) :])
        on_note = f"{general}が{ground}に臨む：{names}（{_line(on)}）"
        on_note_en = f"{general} 臨 {ground}: {names} ({_line(on)})"
    elif general == "天空":
        on_note = f"原文に天空が{ground}に臨む句はない（天空には支ごとの句がない：¶135）"
        on_note_en = f"seed has no line for 天空 on {ground} (天空 has none per branch, ¶135)"
    else:
        on_note = f"原文に{general}が{ground}に臨む句はない"
        on_note_en = f"seed has no line for {general} on {ground}"
    return [
        Entry(f"{position} general", opening, note, note_en, excluded),
        Entry(f"{position} general-on-branch", on, on_note, on_note_en),
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
