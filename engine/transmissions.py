"""三伝: choosing the initial transmission and deriving the middle and final (RULES §4).

The steps run in the order RULES §4 fixes: 伏吟, 反吟, 八専, 賊剋 (with 比用 and 渉害), 遙剋,
昴星, 別責. Every decision appends a line to the trace, in the words a student would use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .lessons import OVERCOMES, REBELS, Lesson, is_incomplete
from .plate import Plate
from .school import School
from .symbols import STEMS, Branch, Pillar, travel_horse, triad_of

POSITIONS = ("初伝", "中伝", "末伝")

# The methods a chart can be cast by; the first group decides 初 by 剋.
METHODS = (
    "重審", "元首", "知一", "見機", "察微", "綴瑕", "渉害",
    "蒿矢", "弾射", "昴星", "別責", "八専", "自任", "自信", "無依",
)
FRAMES = ("伏吟", "反吟", "八専")


@dataclass(frozen=True, slots=True)
class Transmissions:
    """The three transmissions with the rule that chose them.

    ``method`` names the rule that decided 初伝 (one of ``METHODS``); ``frame`` is 伏吟, 反吟 or
    八専 when the plate itself is of that kind, else ``None``. ``candidates`` are the branches
    that competed for 初伝 (empty where no choice was made).
    """

    initial: Branch
    middle: Branch
    final: Branch
    method: str
    frame: str | None
    candidates: tuple[Branch, ...]
    trace: tuple[str, ...]

    @property
    def branches(self) -> tuple[Branch, Branch, Branch]:
        return (self.initial, self.middle, self.final)

    @property
    def name(self) -> str:
        """課名 as a reader says it: 元首, 反吟・重審, 伏吟・自任, 八専 …"""
        if self.frame is None or self.frame == self.method:
            return self.method
        return f"{self.frame}・{self.method}"


def three_transmissions(
    day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], school: School
) -> Transmissions:
    """Cast the 三伝 for a day and plate; every one of the 720 (day, plate) pairs is decided."""
    trace: list[str] = [_describe_lessons(lessons)]
    if plate.offset == 0:
        return _hidden_chant(day, lessons, school, trace)
    has_overcoming = any(lesson.relation for lesson in lessons)
    if plate.offset == 6:
        if has_overcoming:
            trace.append("反吟（十二神が各々沖の位に臨む）: 剋があるので賊剋の法で取る (¶79)")
            return _by_overcoming(day, plate, lessons, school, trace, frame="反吟")
        return _no_reliance(day, plate, lessons, trace)
    if day.stem.lodging == day.branch:
        if has_overcoming:
            trace.append(f"八専（{day.stem}の寄宮{day.stem.lodging}が日支と同じ）: 剋があるので賊剋の法で取る (¶83)")
            return _by_overcoming(day, plate, lessons, school, trace, frame="八専")
        return _eight_specials(day, plate, lessons, trace)
    if has_overcoming:
        return _by_overcoming(day, plate, lessons, school, trace, frame=None)
    remote = _remote(day, plate, lessons, school, trace)
    if remote is not None:
        return remote
    if not is_incomplete(lessons):
        return _pleiades(day, plate, lessons, trace)
    return _separate_duty(day, plate, lessons, trace)


def _describe_lessons(lessons: Sequence[Lesson]) -> str:
    words = {OVERCOMES: "上が下を剋す＝剋", REBELS: "下が上を剋す＝賊", "": "剋なし"}
    return "四課: " + "、".join(f"第{x.number}課 {x.upper}/{x.lower}（{words[x.relation]}）" for x in lessons)


def _finish(
    initial: Branch, middle: Branch, final: Branch, method: str, frame: str | None,
    candidates: Sequence[Branch], trace: list[str],
) -> Transmissions:
    return Transmissions(initial, middle, final, method, frame, tuple(candidates), tuple(trace))


def _linked(plate: Plate, initial: Branch, method: str, frame: str | None,
            candidates: Sequence[Branch], trace: list[str]) -> Transmissions:
    """相因 (¶51): 中 is what stands over 初, 末 what stands over 中."""
    middle = plate.up(initial)
    final = plate.up(middle)
    trace.append(f"相因: 初伝{initial}の上に{middle}＝中伝、{middle}の上に{final}＝末伝")
    return _finish(initial, middle, final, method, frame, candidates, trace)


def _distinct_uppers(lessons: Sequence[Lesson]) -> list[Branch]:
    seen: list[Branch] = []
    for lesson in lessons:
        if lesson.upper not in seen:
            seen.append(lesson.upper)
    return seen


def _by_overcoming(
    day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], school: School,
    trace: list[str], frame: str | None,
) -> Transmissions:
    """賊剋 (¶51, ¶55): 賊 before 剋; one candidate decides, several go to 比用 and 渉害."""
    rebels = _distinct_uppers([x for x in lessons if x.relation == REBELS])
    if rebels:
        candidates, kind = rebels, REBELS
    else:
        candidates, kind = _distinct_uppers([x for x in lessons if x.relation == OVERCOMES]), OVERCOMES
    listed = "・".join(map(str, candidates))
    if len(candidates) == 1:
        method = "重審" if kind == REBELS else "元首"
        why = "下賊が一つ" if kind == REBELS else "賊がなく上剋が一つ"
        trace.append(f"{kind}の上神は{listed}ただ一つ（{why}）→ {method}: 初伝{candidates[0]} (¶55)")
        return _linked(plate, candidates[0], method, frame, candidates, trace)
    trace.append(f"{kind}の上神が{len(candidates)}つ: {listed} → 比用を試みる (¶55)")
    initial, method = _choose(day, plate, lessons, candidates, school, trace, names=None)
    return _linked(plate, initial, method, frame, candidates, trace)


def _choose(
    day: Pillar, plate: Plate, lessons: Sequence[Lesson], candidates: Sequence[Branch],
    school: School, trace: list[str], names: str | None,
) -> tuple[Branch, str]:
    """比用 then 渉害 among several candidates; ``names`` keeps a 遙剋 name instead of 知一/見機 …"""
    polarity = "陽" if day.stem.is_yang else "陰"
    alike = [c for c in candidates if c.is_yang == day.stem.is_yang]
    if len(alike) == 1:
        trace.append(f"比用: 日干{day.stem}は{polarity}、{polarity}の候補は{alike[0]}のみ → 知一 (¶59)")
        return alike[0], names or "知一"
    pool = alike if alike else list(candidates)
    if alike:
        trace.append(f"比用: {polarity}の候補が{len(alike)}つ（{'・'.join(map(str, alike))}）→ 渉害 (¶55)")
    else:
        trace.append(f"比用: {polarity}の候補がない → すべての候補で渉害 (¶55)")
    if school.shehai_depth_first:
        depths = {c: _depth(plate, c) for c in pool}
        deepest = max(depths.values())
        trace.append("渉害の深さ: " + "、".join(f"{c}={d}" for c, d in depths.items()))
        pool = [c for c in pool if depths[c] == deepest]
        if len(pool) == 1:
            trace.append(f"最も深い{pool[0]}を取る → 渉害")
            return pool[0], names or "渉害"
    grounds = {c: plate.down(c) for c in pool}
    for rank, method in (("孟", "見機"), ("仲", "察微")):
        tier = [c for c in pool if grounds[c].season_rank == rank]
        if len(tier) == 1:
            trace.append(f"渉害: {rank}の上に臨むのは{tier[0]}（地盤{grounds[tier[0]]}）のみ → {method} (¶55)")
            return tier[0], names or method
        if tier:
            trace.append(f"渉害: {rank}の上に臨む候補が{len(tier)}つ（{'・'.join(map(str, tier))}）→ 綴瑕")
            pool = tier
            break
    else:
        trace.append("渉害: 孟にも仲にも臨む候補がない → 綴瑕")
    stem_upper, branch_upper = lessons[0].upper, lessons[2].upper
    pick, label = (stem_upper, "干上神") if day.stem.is_yang else (branch_upper, "支上神")
    if pick in pool:
        trace.append(f"綴瑕: {polarity}日は{label}{pick}を取る")
        return pick, names or "綴瑕"
    trace.append(f"綴瑕: {label}{pick}は候補にない → 課の順で最初の{pool[0]}を取る")
    return pool[0], names or "綴瑕"


def _depth(plate: Plate, candidate: Branch) -> int:
    """The classical 渉害 depth: 剋 met walking the 地盤 from where it sits home to itself."""
    ground = plate.down(candidate)
    count = 0
    for step in range((candidate - ground) % 12):
        place = ground + step
        count += place.element.overcomes(candidate.element)
        count += sum(1 for stem in STEMS if stem.lodging == place and stem.element.overcomes(candidate.element))
    return count


def _remote(
    day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], school: School, trace: list[str]
) -> Transmissions | None:
    """遙剋 (¶63): with no 剋 in the lessons, compare uppers 2–4 with the day stem."""
    uppers = _distinct_uppers(lessons[1:])
    stem = day.stem
    for method, picked, words in (
        ("蒿矢", [u for u in uppers if u.element.overcomes(stem.element)], f"日干{stem}を剋す"),
        ("弾射", [u for u in uppers if stem.element.overcomes(u.element)], f"日干{stem}に剋される"),
    ):
        if not picked:
            continue
        listed = "・".join(map(str, picked))
        trace.append(f"四課に剋なし → 遙剋: 第二〜四課の上神のうち{words}もの {listed} → {method} (¶63)")
        if len(picked) == 1:
            return _linked(plate, picked[0], method, None, picked, trace)
        initial, _ = _choose(day, plate, lessons, picked, school, trace, names=method)
        return _linked(plate, initial, method, None, picked, trace)
    return None


def _hidden_chant(day: Pillar, lessons: tuple[Lesson, ...], school: School, trace: list[str]) -> Transmissions:
    """伏吟 (¶75): everything at home; 刑 carries 初 to 中 to 末."""
    yang = day.stem.is_yang
    method = "自任" if yang else "自信"
    stem_upper, branch_upper = lessons[0].upper, lessons[2].upper
    trace.append(f"伏吟（十二神が本位に帰る）: {'陽日 自任' if yang else '陰日 自信'} (¶75)")
    if lessons[0].relation:
        initial, took = stem_upper, "干上神"
        trace.append(f"第1課に剋あり（{day.stem}日）→ 剋を取り干上神{initial}を初伝")
    elif yang:
        initial, took = stem_upper, "干上神"
        trace.append(f"剋なし、陽日 → 干上神{initial}を初伝")
    else:
        initial, took = branch_upper, "支上神"
        trace.append(f"剋なし、陰日 → 支上神{initial}を初伝")
    if initial.punishment == initial:
        # 陽日 (and an 乙 day, whose 初 is already 干上神) go on to 支上神; other 陰日 to 干上神.
        middle, label = (branch_upper, "支上神") if took == "干上神" else (stem_upper, "干上神")
        trace.append(f"初伝{initial}は自刑 → {label}{middle}を中伝")
    else:
        middle = initial.punishment
        trace.append(f"{initial}の刑は{middle} → 中伝")
    final = middle.punishment
    if final == middle:
        final = middle.clash
        trace.append(f"中伝{middle}も自刑 → その沖{final}を末伝")
    elif school.fuyin_repeat_clash and final == initial:
        final = middle.clash
        trace.append(f"{middle}の刑は初伝{initial}に戻る → この流派では沖{final}を末伝")
    else:
        trace.append(f"{middle}の刑は{final} → 末伝")
    return _finish(initial, middle, final, method, "伏吟", (), trace)


def _no_reliance(day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], trace: list[str]) -> Transmissions:
    """反吟 without 剋: 無依 (井欄), 初 from the day branch's 驛馬 (¶79 note)."""
    initial = travel_horse(day.branch)
    middle, final = lessons[2].upper, lessons[0].upper
    trace.append(
        f"反吟で剋なし → 無依（井欄）: 日支{day.branch}の驛馬{initial}を初伝、"
        f"支上神{middle}を中伝、干上神{final}を末伝 (¶79)"
    )
    return _finish(initial, middle, final, "無依", "反吟", (), trace)


def _eight_specials(day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], trace: list[str]) -> Transmissions:
    """八専 without 剋 (¶83): count three from the stem's (yang) or lesson 4's (yin) upper."""
    stem_upper = lessons[0].upper
    if day.stem.is_yang:
        initial = stem_upper + 2
        how = f"陽日は干上神{stem_upper}から順に三つ数えて{initial}"
    else:
        initial = lessons[3].upper - 2
        how = f"陰日は第四課の上神{lessons[3].upper}から逆に三つ数えて{initial}"
    trace.append(f"八専（干支同位）で剋なし: {how}を初伝、中伝・末伝はともに干上神{stem_upper} (¶83)")
    return _finish(initial, stem_upper, stem_upper, "八専", "八専", (), trace)


def _pleiades(day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], trace: list[str]) -> Transmissions:
    """昴星 (¶67): no 剋, no 遙剋, four distinct lessons; look to 酉."""
    stem_upper, branch_upper = lessons[0].upper, lessons[2].upper
    if day.stem.is_yang:
        initial = plate.up(Branch.酉)
        trace.append(f"剋も遙剋もなく四課が備わる → 昴星: 陽日は仰いで地盤酉の上の{initial}を初伝、"
                     f"支上神{branch_upper}を中伝、干上神{stem_upper}を末伝 (¶67)")
        return _finish(initial, branch_upper, stem_upper, "昴星", None, (), trace)
    initial = plate.down(Branch.酉)
    trace.append(f"剋も遙剋もなく四課が備わる → 昴星: 陰日は俯して天盤酉の下の{initial}を初伝、"
                 f"干上神{stem_upper}を中伝、支上神{branch_upper}を末伝 (¶67)")
    return _finish(initial, stem_upper, branch_upper, "昴星", None, (), trace)


# 干合 (¶71): 甲己 乙庚 丙辛 丁壬 戊癸 — the partner is five stems on.
def _separate_duty(day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], trace: list[str]) -> Transmissions:
    """別責 (¶71): no 剋, no 遙剋, 不備; take the 干合 (陽日) or the 三合 neighbour (陰日)."""
    stem_upper = lessons[0].upper
    if day.stem.is_yang:
        partner = STEMS[(day.stem + 5) % 10]
        initial = plate.up(partner.lodging)
        how = f"陽日は干合{day.stem}{partner}、{partner}の寄宮{partner.lodging}の上の{initial}"
    else:
        triad = triad_of(day.branch)
        initial = triad[(triad.index(day.branch) + 1) % 3]
        how = f"陰日は日支{day.branch}の三合（{''.join(map(str, triad))}）で次の{initial}"
    trace.append(f"剋も遙剋もなく四課不備 → 別責: {how}を初伝、中伝・末伝はともに干上神{stem_upper} (¶71)")
    return _finish(initial, stem_upper, stem_upper, "別責", None, (), trace)
