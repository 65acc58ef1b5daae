"""``liuren find TERM``: the classical charts where a 課体 or a method applies, or a line is quoted.

For teachers setting exercises: every (day, 月将, hour) of the 720 plates, at a 晝 hour (午) and a
夜 hour (子) so both 貴人 are seen, that has the 課体 or method named, or whose reading quotes the
unit named (by id or by a key the corpus knows).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.chart import Chart, cast_classical
from engine.patterns import detect
from engine.school import School
from engine.symbols import PILLARS, Branch
from engine.terms import Method, PatternName

from .corpus import corpus
from .explain import chart_name
from .reading import read
from .words import Lang, text

_HOURS = (Branch.午, Branch.子)  # 午 is a 晝 hour, 子 a 夜 hour (¶87)


def classical_charts(school: School) -> Iterator[Chart]:
    """The 1,440 classical charts: 60 days × 12 plates, at 午 (晝) and 子 (夜)."""
    for hour in _HOURS:
        for day in PILLARS:
            for k in range(12):
                yield cast_classical(day, hour + k, hour, school=school)


def _matcher(term: str) -> tuple[str, object]:
    name = term.strip()
    if name in PatternName.__members__:
        return "pattern", PatternName[name]
    if name in Method.__members__:
        return "method", Method[name]
    c = corpus()
    try:
        return "unit", c.get(name).id
    except KeyError:
        pass
    found = c.method(name) or c.pattern(name) or c.general(name)
    if found is None:
        raise LookupError(f"{term!r} is neither a 課体, a method nor a line of the corpus: try liuren lookup {term}")
    return "unit", found.id


def find_charts(term: str, school: School, lang: Lang) -> list[str]:
    """One line per chart where ``term`` applies, then the count."""
    kind, wanted = _matcher(term)
    lines: list[str] = []
    for chart in classical_charts(school):
        if kind == "pattern":
            hit = any(p.name is wanted for p in detect(chart))
        elif kind == "method":
            hit = chart.transmissions.method is wanted
        else:
            hit = any(u.id == wanted for u in read(chart).units())
        if hit:
            lines.append(text("cli.find_line", lang, day=chart.day, yuejiang=chart.yuejiang, hour=chart.hour,
                              time=text("render.day" if chart.generals.daytime else "render.night", lang),
                              name=chart_name(chart.transmissions, lang)))
    lines.append(text("cli.find_count", lang, term=term.strip(), count=len(lines)))
    return lines
