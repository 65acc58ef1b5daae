"""三伝: choosing the initial transmission and deriving the middle and final (docs/rules.md §4).

The steps run in the order docs/rules.md §4 fixes: 伏吟, 反吟, 八専, 賊剋 (with 比用 and 渉害), 遙剋,
昴星, 別責. Every decision is recorded as a :class:`~engine.reasons.Why` in the trace; the words
are the presentation layer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .lessons import Lesson, is_incomplete
from .plate import Plate
from .reasons import Depth, Rule, Value, Why
from .school import School
from .symbols import STEMS, Branch, Pillar, Rank, Stem, travel_horse, triad_of
from .terms import Frame, Method, Polarity, Relation, Seat


@dataclass(frozen=True, slots=True)
class Transmissions:
    """The three transmissions with the rule that chose them.

    ``method`` names the rule that decided 初伝; ``frame`` is 伏吟, 反吟 or 八専 when the plate itself
    is of that kind, else ``None``. ``candidates`` are the branches that competed for 初伝 (empty
    where no choice was made). ``trace`` says why, step by step.
    """

    initial: Branch
    middle: Branch
    final: Branch
    method: Method
    frame: Frame | None
    candidates: tuple[Branch, ...]
    trace: tuple[Why, ...]

    @property
    def branches(self) -> tuple[Branch, Branch, Branch]:
        return (self.initial, self.middle, self.final)

    @property
    def name(self) -> str:
        """課名 as a reader writes it: 元首, 反吟・重審, 伏吟・自任, 八専 …"""
        if self.frame is None or self.frame.name == self.method.name:
            return self.method.name
        return f"{self.frame.name}・{self.method.name}"


@dataclass(slots=True)
class _Trace:
    """The reasons gathered while one chart is cast, and what the cast works on."""

    day: Pillar
    plate: Plate
    lessons: tuple[Lesson, ...]
    school: School
    steps: list[Why] = field(default_factory=list)

    def add(self, rule: Rule, **values: Value) -> None:
        self.steps.append(Why(rule, tuple(values.items())))

    @property
    def polarity(self) -> Polarity:
        return Polarity.陽 if self.day.stem.is_yang else Polarity.陰

    @property
    def stem_upper(self) -> Branch:
        return self.lessons[0].upper

    @property
    def branch_upper(self) -> Branch:
        return self.lessons[2].upper

    def done(
        self,
        initial: Branch,
        middle: Branch,
        final: Branch,
        method: Method,
        frame: Frame | None,
        candidates: Sequence[Branch] = (),
    ) -> Transmissions:
        return Transmissions(initial, middle, final, method, frame, tuple(candidates), tuple(self.steps))

    def linked(
        self, initial: Branch, method: Method, frame: Frame | None, candidates: Sequence[Branch]
    ) -> Transmissions:
        """相因 (¶51): 中 is what stands over 初, 末 what stands over 中."""
        middle = self.plate.up(initial)
        final = self.plate.up(middle)
        self.add(Rule.LINKED, initial=initial, middle=middle, final=final)
        return self.done(initial, middle, final, method, frame, candidates)


# The steps after which 渉害 is counted (比用 left several candidates, or none alike): the only place
# the school option shehai_depth_first is read. A 三伝 whose trace has neither is the same under
# either value of it.
DEPTH_READ = frozenset({Rule.COMPARE_SEVERAL, Rule.COMPARE_NONE})


def three_transmissions(day: Pillar, plate: Plate, lessons: tuple[Lesson, ...], school: School) -> Transmissions:
    """Cast the 三伝 for a day and plate; every one of the 720 (day, plate) pairs is decided."""
    t = _Trace(day, plate, lessons, school)
    t.add(Rule.LESSONS, lessons=tuple((x.number, x.upper, x.lower, x.relation) for x in lessons))
    if plate.offset == 0:
        return _hidden_chant(t)
    has_overcoming = any(lesson.relation is not None for lesson in lessons)
    if plate.offset == 6:
        if has_overcoming:
            t.add(Rule.RETURN_CHANT_OVERCOMING)
            return _by_overcoming(t, Frame.反吟)
        return _no_reliance(t)
    if day.stem.lodging == day.branch:
        if has_overcoming:
            t.add(Rule.EIGHT_SPECIALS_OVERCOMING, stem=day.stem, lodging=day.stem.lodging)
            return _by_overcoming(t, Frame.八専)
        return _eight_specials(t)
    if has_overcoming:
        return _by_overcoming(t, None)
    remote = _remote(t)
    if remote is not None:
        return remote
    if not is_incomplete(lessons):
        return _pleiades(t)
    return _separate_duty(t)


def _distinct_uppers(lessons: Sequence[Lesson]) -> tuple[Branch, ...]:
    seen: list[Branch] = []
    for lesson in lessons:
        if lesson.upper not in seen:
            seen.append(lesson.upper)
    return tuple(seen)


def _by_overcoming(t: _Trace, frame: Frame | None) -> Transmissions:
    """賊剋 (¶51, ¶55): 賊 before 剋; one candidate decides, several go to 比用 and 渉害."""
    rebels = _distinct_uppers([x for x in t.lessons if x.relation is Relation.賊])
    if rebels:
        candidates, kind = rebels, Relation.賊
    else:
        candidates, kind = _distinct_uppers([x for x in t.lessons if x.relation is Relation.剋]), Relation.剋
    if len(candidates) == 1:
        method = Method.重審 if kind is Relation.賊 else Method.元首
        rule = Rule.SINGLE_REBEL if kind is Relation.賊 else Rule.SINGLE_OVERCOMING
        t.add(rule, candidate=candidates[0], method=method)
        return t.linked(candidates[0], method, frame, candidates)
    t.add(Rule.SEVERAL, relation=kind, count=len(candidates), candidates=candidates)
    initial, method = _choose(t, candidates, remote=None)
    return t.linked(initial, method, frame, candidates)


def _choose(t: _Trace, candidates: Sequence[Branch], remote: Method | None) -> tuple[Branch, Method]:
    """比用 then 渉害 among several candidates; a 遙剋 (``remote``) keeps its own name (docs/rules.md §7)."""
    polarity = t.polarity
    alike = tuple(c for c in candidates if c.is_yang == t.day.stem.is_yang)
    if len(alike) == 1:
        method = remote or Method.知一
        t.add(Rule.COMPARE_ONE, stem=t.day.stem, polarity=polarity, pick=alike[0], method=method)
        return alike[0], method
    pool = alike if alike else tuple(candidates)
    if alike:
        t.add(Rule.COMPARE_SEVERAL, polarity=polarity, count=len(alike), alike=alike)
    else:
        t.add(Rule.COMPARE_NONE, polarity=polarity)
    if t.school.shehai_depth_first:
        depths = tuple(shehai_count(t.plate, c) for c in pool)
        deepest = max(d[-1] for d in depths)
        t.add(Rule.DEPTHS, depths=depths)
        pool = tuple(d[0] for d in depths if d[-1] == deepest)
        if len(pool) == 1:
            method = remote or Method.渉害
            t.add(Rule.DEEPEST, pick=pool[0], method=method)
            return pool[0], method
    grounds = {c: t.plate.down(c) for c in pool}
    for rank, named in ((Rank.孟, Method.見機), (Rank.仲, Method.察微)):
        tier = tuple(c for c in pool if grounds[c].season_rank is rank)
        if len(tier) == 1:
            method = remote or named
            t.add(Rule.RANK_ONE, rank=rank, pick=tier[0], ground=grounds[tier[0]], method=method)
            return tier[0], method
        if tier:
            t.add(Rule.RANK_SEVERAL, rank=rank, count=len(tier), tier=tier)
            pool = tier
            break
    else:
        t.add(Rule.RANK_NONE)
    method = remote or Method.綴瑕
    pick, seat = (t.stem_upper, Seat.干上神) if t.day.stem.is_yang else (t.branch_upper, Seat.支上神)
    if pick in pool:
        t.add(Rule.MEND_TAKE, polarity=polarity, seat=seat, pick=pick, method=method)
        return pick, method
    t.add(Rule.MEND_FIRST, seat=seat, pick=pick, first=pool[0], method=method)
    return pool[0], method


def shehai_depth(plate: Plate, candidate: Branch) -> int:
    """The classical 渉害 depth: 剋 met walking the 地盤 from where it sits home to itself.

    Each branch passed counts once if its element 剋 the candidate's, and once more for each stem
    lodged there (寄宮, ¶39) whose element does.
    """
    return shehai_count(plate, candidate)[-1]


def shehai_count(plate: Plate, candidate: Branch) -> Depth:
    """How :func:`shehai_depth` counts ``candidate``: (candidate, its 地盤 branch, the branches walked,
    what among them 剋 it — branches, and stems by their 寄宮 — and the count)."""
    ground = plate.down(candidate)
    walk = tuple(ground + step for step in range((candidate - ground) % 12))
    counted: list[Branch | Stem] = []
    for place in walk:
        if place.element.overcomes(candidate.element):
            counted.append(place)
        counted.extend(s for s in STEMS if s.lodging == place and s.element.overcomes(candidate.element))
    return (candidate, ground, walk, tuple(counted), len(counted))


def _remote(t: _Trace) -> Transmissions | None:
    """遙剋 (¶63): with no 剋 in the lessons, compare uppers 2–4 with the day stem."""
    uppers = _distinct_uppers(t.lessons[1:])
    stem = t.day.stem
    for method, rule, picked in (
        (Method.蒿矢, Rule.REMOTE_OVERCOMES, tuple(u for u in uppers if u.element.overcomes(stem.element))),
        (Method.弾射, Rule.REMOTE_OVERCOME, tuple(u for u in uppers if stem.element.overcomes(u.element))),
    ):
        if not picked:
            continue
        t.add(rule, stem=stem, candidates=picked, method=method)
        if len(picked) == 1:
            return t.linked(picked[0], method, None, picked)
        # ¶63 「如有二克或克二者，亦如比用之法」: several go through the 比用 filter.
        t.add(Rule.REMOTE_SEVERAL, count=len(picked), candidates=picked, method=method)
        initial, _ = _choose(t, picked, remote=method)
        return t.linked(initial, method, None, picked)
    return None


def _hidden_chant(t: _Trace) -> Transmissions:
    """伏吟 (¶75): everything at home; 刑 carries 初 to 中 to 末."""
    yang = t.day.stem.is_yang
    method = Method.自任 if yang else Method.自信
    stem_upper, branch_upper = t.stem_upper, t.branch_upper
    t.add(Rule.HIDDEN_CHANT, polarity=t.polarity, method=method)
    if t.lessons[0].relation is not None:
        initial, took = stem_upper, Seat.干上神
        t.add(Rule.HIDDEN_CHANT_OVERCOMING, stem=t.day.stem, initial=initial)
    elif yang:
        initial, took = stem_upper, Seat.干上神
        t.add(Rule.HIDDEN_CHANT_YANG, initial=initial)
    else:
        initial, took = branch_upper, Seat.支上神
        t.add(Rule.HIDDEN_CHANT_YIN, initial=initial)
    if initial.punishment == initial:
        # 陽日 (and an 乙 day, whose 初 is already 干上神) go on to 支上神; other 陰日 to 干上神.
        middle, seat = (branch_upper, Seat.支上神) if took is Seat.干上神 else (stem_upper, Seat.干上神)
        t.add(Rule.SELF_PUNISHED_INITIAL, initial=initial, seat=seat, middle=middle)
    else:
        middle = initial.punishment
        t.add(Rule.PUNISH_MIDDLE, initial=initial, middle=middle)
    final = middle.punishment
    if final == middle:
        final = middle.clash
        t.add(Rule.SELF_PUNISHED_MIDDLE, middle=middle, final=final)
    elif t.school.fuyin_repeat_clash and final == initial:
        final = middle.clash
        t.add(Rule.REPEAT_CLASH, middle=middle, initial=initial, final=final)
    else:
        t.add(Rule.PUNISH_FINAL, middle=middle, final=final)
    return t.done(initial, middle, final, method, Frame.伏吟)


def _no_reliance(t: _Trace) -> Transmissions:
    """反吟 without 剋: 無依 (井欄), 初 from the day branch's 驛馬 (¶79 note)."""
    initial = travel_horse(t.day.branch)
    middle, final = t.branch_upper, t.stem_upper
    t.add(Rule.NO_RELIANCE, branch=t.day.branch, initial=initial, middle=middle, final=final)
    return t.done(initial, middle, final, Method.無依, Frame.反吟)


def _eight_specials(t: _Trace) -> Transmissions:
    """八専 without 剋 (¶83): count three from the stem's (yang) or lesson 4's (yin) upper."""
    stem_upper = t.stem_upper
    if t.day.stem.is_yang:
        initial = stem_upper + 2
        t.add(Rule.EIGHT_SPECIALS_YANG, stem_upper=stem_upper, initial=initial)
    else:
        fourth = t.lessons[3].upper
        initial = fourth - 2
        t.add(Rule.EIGHT_SPECIALS_YIN, fourth=fourth, initial=initial, stem_upper=stem_upper)
    return t.done(initial, stem_upper, stem_upper, Method.八専, Frame.八専)


def _pleiades(t: _Trace) -> Transmissions:
    """昴星 (¶67): no 剋, no 遙剋, four distinct lessons; look to 酉."""
    stem_upper, branch_upper = t.stem_upper, t.branch_upper
    if t.day.stem.is_yang:
        initial = t.plate.up(Branch.酉)
        t.add(Rule.PLEIADES_YANG, initial=initial, middle=branch_upper, final=stem_upper)
        return t.done(initial, branch_upper, stem_upper, Method.昴星, None)
    initial = t.plate.down(Branch.酉)
    t.add(Rule.PLEIADES_YIN, initial=initial, middle=stem_upper, final=branch_upper)
    return t.done(initial, stem_upper, branch_upper, Method.昴星, None)


def _separate_duty(t: _Trace) -> Transmissions:
    """別責 (¶71): no 剋, no 遙剋, 不備; take the 干合 (陽日) or the 三合 neighbour (陰日)."""
    stem_upper = t.stem_upper
    if t.day.stem.is_yang:
        # 干合 (¶71): 甲己 乙庚 丙辛 丁壬 戊癸 — the partner is five stems on.
        partner = STEMS[(t.day.stem + 5) % 10]
        initial = t.plate.up(partner.lodging)
        t.add(
            Rule.SEPARATE_YANG,
            stem=t.day.stem,
            partner=partner,
            lodging=partner.lodging,
            initial=initial,
            stem_upper=stem_upper,
        )
    else:
        triad = triad_of(t.day.branch)
        initial = triad[(triad.index(t.day.branch) + 1) % 3]
        t.add(Rule.SEPARATE_YIN, branch=t.day.branch, triad=triad, initial=initial, stem_upper=stem_upper)
    return t.done(initial, stem_upper, stem_upper, Method.別責, None)
