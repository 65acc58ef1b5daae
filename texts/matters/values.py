"""The reading for the matter asked (docs/rules.md §9.3, R1–R10), as values: what is quoted, and what is stated.

:func:`answer` is what a reply calls: it reads the matters of a question (or the one a caller chose),
builds a :class:`MatterSection` per matter in §9.2's order, then the general reading with the units
already quoted left out (it refers back instead), so that no unit is quoted twice in one reply.
The words are written by texts/matters/sentences.py; nothing here is a sentence. Each unit is quoted
once per reply through texts/matters/quotes.py, which holds the corpus's units as their quotations.

The reading quotes and states; it never sums lines into a verdict of its own. For each matter:

- R1 the 類神 in §9.2's order, each opening quoted once as the ground (貴人: its citations instead);
- R2 where it stands (天盤, 地盤) and the name line for that 地盤 branch, or none;
- R3 the 伝 it rides, and whether an opening the seed conditions on 發用 bears (勾陳, 騰蛇);
- R4 a （不加…） branch (never reached under docs/rules.md §5; kept for a future placement option);
- R5 the lessons whose upper it is; for marriage the 日辰 of ¶159;
- R6 空亡, 旺相休囚死 (with a moment), 六親: facts without verdict;
- R7 the other generals' lines that speak of the matter, then its patterns (undecided ones named);
- R8 伏吟 and a lost thing: where to seek (¶147); R9 the patterns that speak of any matter, once,
  under the first matter; R10 the [伝統] 六親 of the matter: the lessons and 伝 that carry it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.chart import Chart, kin
from engine.facts import Facts, vigour
from engine.facts import facts as derive_facts
from engine.patterns import Patterns, classify
from engine.symbols import BRANCHES, Branch, Stem
from engine.terms import General, Input, Kin, PatternName, Position, Vigour
from texts.corpus import Corpus, corpus
from texts.matters.quotes import Quote, QuoteIndex, quote
from texts.matters.recognise import Found, Matter, choose
from texts.matters.table import ANY_MATTER, ON_INITIAL, PERSON, RULES, Ground, MatterRules, Spirit
from texts.reading import Reading, read

__all__ = ["Answer", "DayAndBranch", "KinListing", "KinPlace", "MatterSection", "MentionReading",  # Quote: quotes.py's
           "PatternReading", "Quote", "Search", "SpiritReading", "Undecided", "answer", "read_matters"]


@dataclass(frozen=True, slots=True)
class SpiritReading:
    """One 類神 of a matter on this chart (R1–R6).

    ``rank`` is its place among the matter's 類神 (1 first). ``opening`` is its quoted opening (None
    for 貴人, whose grounds are citations). ``line`` is the name line for its 地盤 branch (None: the
    seed gives none). ``bears``: for an opening conditioned on 發用 (勾陳, 騰蛇), whether the
    condition holds; None for the others. ``excluded``: R4. ``above``: the earlier matter this 類神
    was given under (then nothing of it is quoted again).

    The stated facts (R3 ``positions``, R5 ``lessons``, R6 ``void``, ``vigour``, ``kin``) are read off
    the chart when asked for: a reply that only needs its quotations does not pay for them.
    """

    general: General
    rank: int
    grounds: tuple[Ground, ...]
    opening: Quote | None
    heaven: Branch
    ground: Branch
    line: Quote | None
    bears: bool | None
    excluded: bool
    above: Matter | None
    chart: Chart = field(repr=False, compare=False)
    known: Facts = field(repr=False, compare=False)

    @property
    def positions(self) -> tuple[Position, ...]:
        """R3: the 伝 whose 天盤 branch it rides (two of them when 中伝 and 末伝 repeat), in order."""
        return tuple(s.position for s in self.chart.steps if s.branch == self.heaven)

    @property
    def initial(self) -> bool:
        """It rides the 初伝 (= 發用, ¶51/¶53)."""
        return self.chart.steps[0].branch == self.heaven

    @property
    def lessons(self) -> tuple[int, ...]:
        """R5: the numbers of the lessons whose upper it rides (1: 干上神, 3: 支上神)."""
        return tuple(x.number for x in self.chart.lessons if x.upper == self.heaven)

    @property
    def void(self) -> bool:
        """R6: its 天盤 branch is in the day's 旬空 (天空's 「即空亡也」 is its nature, not this: §9.7)."""
        return self.heaven in self.chart.void

    @property
    def month(self) -> Branch | None:
        """月建, which sets ``vigour`` (None for a chart without a moment or a month given)."""
        return self.known.month

    @property
    def vigour(self) -> Vigour | None:
        """R6: 旺相休囚死 of its 天盤 branch by the month; None when the month is not known."""
        month = self.known.month
        return None if month is None else vigour(self.heaven, month)

    @property
    def stem(self) -> Stem:
        """The day stem ``kin`` is counted to."""
        return self.chart.day.stem

    @property
    def kin(self) -> Kin:
        """R6: 六親 of its 天盤 branch to the day stem."""
        return kin(self.chart.day.stem.element, self.heaven.element)


@dataclass(frozen=True, slots=True)
class DayAndBranch:
    """¶159 「夫，干也；妻，支也」 for marriage (R5): does the 干上神 overcome the day branch, and the
    支上神 the day stem? Both → 蕪淫 (quoted under R7)."""

    stem_upper: Branch
    day_branch: Branch
    stem_upper_overcomes: bool
    branch_upper: Branch
    day_stem: Stem
    branch_upper_overcomes: bool

    @property
    def both(self) -> bool:
        return self.stem_upper_overcomes and self.branch_upper_overcomes


@dataclass(frozen=True, slots=True)
class MentionReading:
    """Another general's name line that speaks of the matter, because it stands on ``ground`` (R7)."""

    general: General
    ground: Branch
    quote: Quote


@dataclass(frozen=True, slots=True)
class Search:
    """R8: with 伏吟, the lost or fled is sought one place from the day branch (¶147)."""

    day_branch: Branch
    place: Branch
    clockwise: bool


@dataclass(frozen=True, slots=True)
class PatternReading:
    """A pattern of the matter the chart carries (R7, R9): the names that hold (several share one
    verse), the verse (None where the seed has none), and for 伏吟 under lost the R8 search."""

    names: tuple[PatternName, ...]
    quote: Quote | None
    search: Search | None = None


@dataclass(frozen=True, slots=True)
class Undecided:
    """A pattern of the matter the chart cannot decide without an input (R7): named, not quoted."""

    name: PatternName
    needs: tuple[Input, ...]


@dataclass(frozen=True, slots=True)
class KinPlace:
    """Where a 六親 sits: a lesson (``lesson`` its number) or a 伝 (``position``), its branch, 空 or not."""

    branch: Branch
    void: bool
    lesson: int | None = None
    position: Position | None = None


@dataclass(frozen=True, slots=True)
class KinListing:
    """R10: the matter's [伝統] 六親 and (read off the chart when asked for) the lessons, then the 伝,
    whose 天盤 branch carries it."""

    kin: Kin
    chart: Chart = field(repr=False, compare=False)

    @property
    def places(self) -> tuple[KinPlace, ...]:
        return tuple(KinPlace(*where) for where in self.where())

    def where(self) -> list[tuple[Branch, bool, int | None, Position | None]]:
        """``places`` as KinPlace's fields (a writer that only reads them need not build the values)."""
        chart, wanted, element = self.chart, self.kin, self.chart.day.stem.element
        where = [(x.upper, x.upper in chart.void, x.number, None) for x in chart.lessons
                 if kin(element, x.upper.element) is wanted]
        return where + [(s.branch, s.void, None, s.position) for s in chart.steps if s.kin is wanted]


@dataclass(frozen=True, slots=True)
class MatterSection:
    """The reading for one matter (R1–R10), in the order it is shown."""

    matter: Matter
    words: tuple[str, ...]  # the question's words that decided it (empty when chosen explicitly)
    spirits: tuple[SpiritReading, ...]
    day_and_branch: DayAndBranch | None
    mentions: tuple[MentionReading, ...]
    patterns: tuple[PatternReading, ...]
    undecided: tuple[Undecided, ...]
    any_matter: tuple[PatternReading, ...]
    kin: KinListing | None
    person: bool = False  # `woman` read as the person asked about (§9.4 amended): opening and line only

    def quotes(self) -> tuple[Quote, ...]:
        """Every quotation of the section in the order shown, those referred back to included."""
        out: list[Quote] = []
        for s in self.spirits:
            out.extend(q for q in (s.opening, s.line) if q is not None)
        out.extend(m.quote for m in self.mentions)
        out.extend(p.quote for p in (*self.patterns, *self.any_matter) if p.quote is not None)
        return tuple(out)

    def units(self) -> tuple[str, ...]:
        """The ids of the units this section quotes (not those it refers back to), in order."""
        return tuple(q.unit.id for q in self.quotes() if not q.above)


@dataclass(frozen=True, slots=True)
class Answer:
    """A reply to a question: the matter sections first, then the general reading, which refers back
    to any unit a section quoted instead of quoting it again."""

    matters: tuple[MatterSection, ...]
    reading: Reading

    def units(self) -> tuple[str, ...]:
        """Every unit quoted in the reply, in order (each once)."""
        return (*(u for m in self.matters for u in m.units()), *(u.id for u in self.reading.units()))


def _spirit(
    index: QuoteIndex, quoted: set[str], chart: Chart, known: Facts, spirit: Spirit, rank: int, above: Matter | None
) -> SpiritReading:
    general = spirit.general
    at = chart.generals.by_ground.index(general)
    ground, heaven = BRANCHES[at], BRANCHES[(at + chart.plate.offset) % 12]  # heaven: plate.up(ground)
    line_pair = index.lines[general * 12 + ground]
    excluded = index.excludes[general * 12 + ground]  # R4
    bears: bool | None = None
    if general in ON_INITIAL:  # R3
        if general is General.騰蛇 and chart.school.tengshe_whenever_seen:
            bears = not excluded and heaven in chart.transmissions.branches
        else:
            bears = not excluded and chart.steps[0].branch == heaven
    if above is not None:
        opening = index.openings[general][1] if spirit.opening else None
        line = None if line_pair is None else line_pair[1]
    else:
        opening = quote(index.openings[general], quoted) if spirit.opening else None
        line = None if line_pair is None else quote(line_pair, quoted)
    return SpiritReading(
        general, rank, spirit.grounds, opening, heaven, ground, line, bears, excluded, above, chart, known
    )


def _day_and_branch(chart: Chart) -> DayAndBranch:
    stem, branch = chart.day.stem, chart.day.branch
    up1, up3 = chart.stem_upper, chart.branch_upper
    return DayAndBranch(
        up1, branch, up1.element.overcomes(branch.element), up3, stem, up3.element.overcomes(stem.element)
    )


def _masked(groups: Sequence[tuple[PatternName, ...]]) -> tuple[tuple[tuple[PatternName, ...], int], ...]:
    return tuple((g, sum(1 << n for n in g)) for g in groups)


# Each matter's pattern groups, and R9's, with the bits of their names (a group none of whose names
# holds is passed over with one test)
_GROUPS = {rules.matter: _masked(rules.patterns) for rules in RULES.values()}
_ANY_GROUPS = _masked(ANY_MATTER)


def _patterns(
    index: QuoteIndex,
    quoted: set[str],
    chart: Chart,
    held: int,
    groups: Sequence[tuple[tuple[PatternName, ...], int]],
    search: bool,
) -> tuple[PatternReading, ...]:
    out: list[PatternReading] = []
    for group, bits in groups:
        if not held & bits:
            continue
        names = group if len(group) == 1 else tuple(n for n in group if held >> n & 1)
        pair = index.verses[names[0]]
        where = None
        if search and PatternName.伏吟 in names:  # R8: 「貴順支前一位尋之；貴逆支後一位尋之」
            day, clockwise = chart.day.branch, chart.generals.clockwise
            where = Search(day, day + 1 if clockwise else day - 1, clockwise)
        out.append(PatternReading(names, None if pair is None else quote(pair, quoted), where))
    return tuple(out)


def _section(
    index: QuoteIndex,
    quoted: set[str],
    chart: Chart,
    known: Facts,
    found: Patterns,
    held: int,
    asked: Found,
    given: list[Matter | None],
    first: bool,
    person: bool = False,
) -> MatterSection:
    matter = asked.matter
    rules: MatterRules = PERSON if person else RULES[matter]
    spirits = []
    for rank, spirit in enumerate(rules.spirits, start=1):
        spirits.append(_spirit(index, quoted, chart, known, spirit, rank, given[spirit.general]))
        if given[spirit.general] is None:
            given[spirit.general] = matter
    mentions = []
    if rules.mentions:
        by_ground = chart.generals.by_ground
        own = [s.general for s in rules.spirits]
        for m, pair in index.mentions[matter]:  # R7, in ¶ order (the table's)
            ground = BRANCHES[by_ground.index(m.general)]
            if ground in m.branches and m.general not in own:
                mentions.append(MentionReading(m.general, ground, quote(pair, quoted)))
    groups = rules.patterns
    undecided: tuple[Undecided, ...] = ()
    if found.undecided:
        undecided = tuple(Undecided(u.name, u.needs) for u in found.undecided if any(u.name in g for g in groups))
    return MatterSection(
        matter,
        asked.words,
        tuple(spirits),
        _day_and_branch(chart) if rules.day_and_branch else None,
        tuple(mentions),
        _patterns(index, quoted, chart, held, _GROUPS[rules.matter] if rules.patterns else (), rules.hidden_search),
        undecided,
        _patterns(index, quoted, chart, held, _ANY_GROUPS, False) if first else (),  # R9
        KinListing(rules.kin, chart) if rules.kin is not None else None,  # R10
        person,
    )


def _read(
    chart: Chart, known: Facts, matters: Sequence[Found], texts: Corpus | None, found: Patterns
) -> tuple[tuple[MatterSection, ...], set[str]]:
    """The matter sections and the ids of the units they quote (not those referred back to)."""
    # §9.2's order; a recognised `woman` names who is asked about, so it is read after the others (§9.4)
    ordered = sorted(matters, key=lambda f: (f.matter is Matter.woman and bool(f.words), f.matter.order))
    index = QuoteIndex.of(corpus() if texts is None else texts)
    quoted: set[str] = set()
    given: list[Matter | None] = [None] * 12  # by General: the matter each 類神 was first given under
    held = 0  # the patterns that hold, as bits by PatternName
    for p in found.held:
        held |= 1 << p.name
    person = len(ordered) > 1 and ordered[-1].matter is Matter.woman and bool(ordered[-1].words)
    last = len(ordered) - 1
    sections = (_section(index, quoted, chart, known, found, held, a, given, i == 0, person and i == last)
                for i, a in enumerate(ordered))
    return tuple(sections), quoted


def read_matters(
    chart: Chart,
    known: Facts | None,
    matters: Sequence[Found],
    *,
    texts: Corpus | None = None,
    found: Patterns | None = None,
) -> tuple[MatterSection, ...]:
    """The matter sections for ``matters`` (recognised or chosen), in §9.2's order, each unit once.

    ``found`` is ``classify(chart, known)`` if the caller has it already."""
    known = derive_facts(chart) if known is None else known
    return _read(chart, known, matters, texts, classify(chart, known) if found is None else found)[0]


def answer(
    chart: Chart,
    known: Facts | None = None,
    *,
    question: str | None = None,
    matter: str | Matter | None = None,
    texts: Corpus | None = None,
) -> Answer:
    """The reply to ``question`` on ``chart``: the matters it names (or ``matter``: a key, or
    ``general`` for none, overriding recognition), each read by R1–R10, then the general reading
    with the units they quoted referred back to. No question and no matter: the general reading."""
    asked = choose(question, matter)
    if not asked:
        return Answer((), read(chart, known, texts=texts))
    known = derive_facts(chart) if known is None else known
    found = classify(chart, known)
    sections, quoted = _read(chart, known, asked, texts, found)
    return Answer(sections, read(chart, known, texts=texts, quoted=frozenset(quoted), patterns=found))
