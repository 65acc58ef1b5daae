"""The chart as text for a terminal: the 天地盤 as the usual square ring, 四課, 三伝, trace."""

from __future__ import annotations

from .chart import Chart
from .facts import Facts, facts
from .patterns import Patterns, classify
from .symbols import Branch

# One-character names of the generals, as printed on a 天地盤.
ABBREVIATIONS = {
    "貴人": "貴", "騰蛇": "蛇", "朱雀": "雀", "六合": "合", "勾陳": "勾", "青龍": "龍",
    "天空": "空", "白虎": "虎", "太常": "常", "玄武": "玄", "太陰": "陰", "天后": "后",
}

# 地盤 positions of the square ring, read row by row (south at the top, as printed in the books).
_RING_ROWS = ("巳午未申", "辰  酉", "卯  戌", "寅丑子亥")
_NUMERALS = "一二三四"
_SPACE = "\u3000"  # a full-width space keeps CJK columns aligned
_BLANK = _SPACE * 2  # one empty cell


def heading(chart: Chart) -> str:
    """One line naming the chart: day, hour, 月将 and, for an instant, the moment and zone."""
    head = f"{chart.day}日 {chart.hour}時 月将{chart.yuejiang}  課名 {chart.transmissions.name}"
    m = chart.moment
    if m is None:
        return head
    override = "" if chart.yuejiang == m.yuejiang else f"（暦では{m.yuejiang}、指定で{chart.yuejiang}）"
    return (
        f"{head}\n{m.local:%Y-%m-%d %H:%M} {m.zone} ({m.local.tzname()})  "
        f"年{m.year} 月{m.month} 日{m.day} 時{m.hour}  "
        f"中気 {m.principal_term.name} {m.principal_term.instant:%Y-%m-%d %H:%M:%S} UTC{override}"
    )


def ring(chart: Chart) -> str:
    """The 天地盤: each cell is the general's one-character name and the 天盤 branch; a cell's
    place in the square is its 地盤 branch."""
    lines = []
    for row in _RING_ROWS:
        cells = []
        for ch in row:
            if ch == " ":
                cells.append(_BLANK)
                continue
            ground = Branch[ch]
            heaven = chart.plate.up(ground)
            cells.append(ABBREVIATIONS[chart.generals.over(ground)] + str(heaven))
        lines.append("│" + "│".join(cells) + "│")
    return "\n".join(lines)


def lessons(chart: Chart) -> str:
    """四課 in the book's order, right to left: 四 三 二 一."""
    order = list(reversed(chart.lessons))
    generals = [ABBREVIATIONS[chart.generals.on(x.upper)] for x in order]
    return "\n".join((
        "四課  " + " ".join(f"{_NUMERALS[x.number - 1]}課" for x in order),
        "天将  " + " ".join(g + _SPACE for g in generals),
        "上神  " + " ".join(f"{x.upper}{_SPACE}" for x in order),
        "下神  " + " ".join(f"{x.lower}{_SPACE}" for x in order),
        "剋賊  " + " ".join((x.relation or _SPACE) + _SPACE for x in order),
    ))


def transmissions(chart: Chart, known: Facts | None = None) -> str:
    """三伝 with their 天将, 遁干, 六親, 旺相休囚死 (when the month is known) and 空亡 mark."""
    rows = []
    for i, step in enumerate(chart.steps):
        stem = str(step.hidden_stem) if step.hidden_stem is not None else _SPACE
        vigour = known.steps[i].vigour if known is not None else None
        mark = " 空" if step.void else ""
        rows.append(
            f"{step.position}  {stem}{step.branch}  {step.general}  {step.kin}"
            f"{'  ' + vigour if vigour else ''}  (地盤{step.ground}){mark}"
        )
    return "\n".join(rows)


def derived(known: Facts) -> str:
    """驛馬, 丁神, 天馬, 太歳, 月建 (and 本命/行年 when given) on one line; unknowns are left out."""
    items = [("驛馬", known.travel_horse), ("丁神", known.ding), ("天馬", known.heavenly_horse),
             ("太歳", known.year), ("月建", known.month), ("本命", known.natal), ("行年", known.walking_year)]
    return "  ".join(f"{label}{value}" for label, value in items if value is not None)


def patterns(found: Patterns) -> str:
    """課体 that hold, with their reasons, then those an input is missing for."""
    lines = [f"  {p.reason}" for p in found.held]
    lines += [f"  （{u.reason}）" for u in found.undecided]
    return "課体\n" + "\n".join(lines) if lines else "課体 なし"


def render_text(chart: Chart, *, with_trace: bool = True, known: Facts | None = None) -> str:
    """The whole chart as a terminal shows it; ``known`` passes facts derived with birth data."""
    known = known if known is not None else facts(chart)
    g = chart.generals
    parts = [
        heading(chart),
        f"旬空 {''.join(map(str, chart.void))}  "
        f"貴人 {g.noble}（{'晝' if g.daytime else '夜'}・{'順' if g.clockwise else '逆'}）",
        "天地盤（マスの位置が地盤、中は天将と天盤）",
        ring(chart),
        lessons(chart),
        f"三伝  {chart.transmissions.name}",
        transmissions(chart, known),
        derived(known),
        patterns(classify(chart, known)),
    ]
    if with_trace:
        parts.append("理由\n" + "\n".join(f"  {line}" for line in chart.transmissions.trace))
    return "\n".join(parts)
