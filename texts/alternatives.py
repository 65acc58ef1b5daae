"""Schools side by side and the sun at a place, in the reader's language (docs/rules.md §10): one line
per alternative that changes the chart (or one line saying none does), and the solar time or sunrise
and sunset a chart used, saying when the hour, the day or 晝夜 differ from the clock's.

Every output of a chart words them here: the terminal's text and JSON now, the bot and the site after.

    >>> from engine import cast_classical
    >>> alternative_lines(cast_classical("丁卯", "子", "子"), "en")
    ['Other schools:', '  伏吟 final as the clash: 三傳 卯子午']
    >>> alternative_lines(cast_classical("丁卯", "未", "午"), "en")
    ['No school option changes this chart.']
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.alternatives import Alternative, alternatives
from engine.chart import Chart
from engine.solar import Solar
from engine.terms import PatternName
from texts.words import Lang, text
from texts.words.explain import show

__all__ = ["alternative_line", "alternative_lines", "changes", "option_words", "summary_line", "sun_lines"]


def option_words(option: str, value: bool | str, lang: Lang) -> str:
    """An option at a value, named: ``noble_table`` 甲羊 → "貴人 table 甲羊"."""
    suffix = str(value).lower() if isinstance(value, bool) else value
    return text(f"alt.option.{option}_{suffix}", lang)


def changes(alternative: Alternative, lang: Lang) -> str:
    """What the alternative changes, most important first, in one phrase."""
    parts = []
    chart = alternative.chart
    if alternative.transmissions is not None:
        parts.append(text("alt.transmissions", lang, branches="".join(map(str, alternative.transmissions))))
    if alternative.method is not None:
        parts.append(text("alt.method", lang, method=show(alternative.method, lang)))
    if alternative.hour:
        parts.append(text("alt.hour", lang, hour=chart.hour))
    if alternative.day:
        parts.append(text("alt.day", lang, day=chart.day))
    if alternative.generals:
        parts.append(text("alt.generals", lang, branches="".join(map(str, alternative.generals))))
    named = [text("alt.gained", lang, name=show(PatternName[n], lang)) for n in alternative.patterns_gained]
    named += [text("alt.lost", lang, name=show(PatternName[n], lang)) for n in alternative.patterns_lost]
    if named:
        parts.append(text("alt.patterns", lang, changes=" ".join(named)))
    if alternative.tengshe:
        bears = chart.steps[0].general.name == "騰蛇" or chart.school.tengshe_whenever_seen
        parts.append(text("alt.tengshe_bears" if bears else "alt.tengshe_idle", lang))
    return text("alt.sep", lang).join(parts)


def alternative_line(alternative: Alternative, lang: Lang) -> str:
    """One alternative: the option and its value, then what changes."""
    return text("alt.line", lang, option=option_words(alternative.option, alternative.value, lang),
                changes=changes(alternative, lang))


def alternative_lines(
    chart: Chart, lang: Lang, found: Sequence[Alternative] | None = None, indent: str = "  "
) -> list[str]:
    """A heading and one line per alternative that changes ``chart``; or the one line saying none does."""
    found = alternatives(chart) if found is None else found
    if not found:
        return [text("alt.none", lang)]
    return [text("alt.heading", lang), *(indent + alternative_line(a, lang) for a in found)]


def summary_line(chart: Chart, lang: Lang, found: Sequence[Alternative] | None = None) -> str:
    """All the alternatives in one short line (a reply's or a caption's): each option and the kinds of
    thing it changes; or the line saying no option changes the chart.

    >>> from engine import cast_classical
    >>> summary_line(cast_classical("甲子", "亥", "午"), "en")
    'Other schools change this chart: 貴人 table 甲羊 (天將)'
    """
    found = alternatives(chart) if found is None else found
    if not found:
        return text("alt.none", lang)
    sep = text("alt.kind.sep", lang)
    items = [text("alt.kind.item", lang, option=option_words(a.option, a.value, lang),
                  kinds=sep.join(text(f"alt.kind.{k}", lang) for k in a.kinds)) for a in found]
    return text("alt.kind.summary", lang, options=text("alt.sep", lang).join(items))


def sun_lines(sun: Solar, lang: Lang) -> list[str]:
    """The place, the solar time used and sunrise/sunset, and each way the sun's answer differs."""
    lines = [text("sun.place", lang, place=str(sun.place))]
    if sun.solar is not None:
        equation = "" if sun.equation_of_time is None else text(
            "sun.equation", lang, equation=f"{sun.equation_of_time:+.1f}")
        kind = text("sun.apparent" if sun.equation_of_time is not None else "sun.mean", lang)
        lines.append(text("sun.solar", lang, clock=f"{sun.clock:%H:%M:%S}", kind=kind, solar=f"{sun.solar:%H:%M:%S}",
                          lon=f"{sun.place.lon:+.3f}") + equation)
    if sun.hour_differs:
        lines.append(text("sun.hour_differs", lang, clock_hour=sun.clock_hour, hour=sun.hour))
    if sun.day_differs:
        lines.append(text("sun.day_differs", lang, clock_day=sun.clock_day, day=sun.day))
    if sun.polar is not None:
        lines.append(text(f"sun.polar_{sun.polar}", lang))
    elif sun.sunrise is not None and sun.sunset is not None:
        lines.append(text("sun.rise_set", lang, sunrise=f"{sun.sunrise:%H:%M}", sunset=f"{sun.sunset:%H:%M}",
                          daynight=text("sun.daytime" if sun.daytime else "sun.nighttime", lang)))
    if sun.daytime_differs:
        lines.append(text("sun.daynight_differs", lang,
                          hours=text("sun.daytime" if sun.hours_daytime else "sun.nighttime", lang)))
    return lines
