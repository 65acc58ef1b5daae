"""The matter section's sentences in one language, formatted once for every value they can take.

What texts/matters/sentences.py says of a 類神 turns on a few small values — a general, a 地盤 and a
天盤 branch, a month, a day stem, the 伝 and lessons it rides — and so do a mention, a quotation's
lines and the 日辰 of marriage. :func:`phrases` formats each such sentence from the words of
texts/locales/<lang>/matter.toml for every value it can take (12 generals × 12 branches × …), the
first time a language is written, and a reply looks them up instead of formatting them: the words
are the same, only the work is done once.

Nothing here depends on a chart — only on the words and the corpus — so nothing needs clearing
between charts; one set is kept per language and corpus (a few).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.chart import kin
from engine.facts import vigour
from engine.symbols import BRANCHES, STEMS
from engine.terms import GENERALS, General, Position, Seat
from texts.corpus import Corpus, Unit
from texts.corpus.normalize import normalize
from texts.corpus.shown import original, seed_lines, sic_lines, translation_lines
from texts.matters.recognise import MATTERS, Matter
from texts.matters.table import TABLE, Ground
from texts.memo import remember
from texts.words import LANGS, Lang, corpus_name, term, text, words
from texts.words.explain import show

__all__ = ["Phrases", "QuoteText", "cite", "grounds_sentence", "grounds_shown", "matter_named", "phrases", "quote_text"]


@dataclass(frozen=True, slots=True)
class QuoteText:
    """A unit as a matter section shows it in one language: the original (with the reader's marks),
    the ¶ it cites, the lines under it (already indented), and for a name line the sentence naming
    the general on each 地盤 branch (None where the line gives no name)."""

    unit: Unit
    original: str
    seeds: str
    under: tuple[str, ...]
    names: tuple[str | None, ...]
    sics: tuple[str, ...]  # why each slip marked in what is shown, one line each


@dataclass(frozen=True, slots=True)
class Phrases:
    """One language's sentences for one corpus, indexed by the engine's values as numbers.

    ``word`` holds the ``matter.*`` templates by key (for the sentences with open values: the words
    of a question, a pattern's names); every other table holds finished sentences."""

    lang: Lang
    texts: Corpus
    word: Mapping[str, str]
    sep: str  # list.sep
    name_sep: str  # list.name_sep
    bullet: str  # reading.bullet
    general: tuple[str, ...]  # by General
    branch: tuple[str, ...]  # by Branch
    stem: tuple[str, ...]  # by Stem
    matter: Mapping[Matter, str]  # the matter's term
    heading: Mapping[Matter, str]  # the section's heading
    spirit: tuple[str, ...]  # the 類神's heading: by (rank − 1) × 12 + General (ranks 1–3)
    stands: tuple[str, ...]  # by (General × 12 + 地盤) × 12 + 天盤
    excluded: tuple[str, ...]  # by General × 12 + 地盤
    no_line: tuple[str, ...]  # by General × 12 + 地盤
    mention: tuple[str, ...]  # by General × 12 + 地盤
    rides: tuple[str, ...]  # by General × 8 + the 伝 it rides as bits (初伝 1, 中伝 2, 末伝 4; 0: none)
    lessons: tuple[str, ...]  # by 天盤 × 16 + the lessons it is upper of as bits (lesson n: 1 << n − 1)
    void: tuple[str, ...]  # by 天盤 × 2 + 空亡 or not
    vigour: tuple[str, ...]  # by 月建 × 12 + 天盤
    kin: tuple[str, ...]  # by day stem × 12 + 天盤
    stem_upper: tuple[str, ...]  # by (干上神 × 12 + day branch) × 2 + overcomes
    branch_upper: tuple[str, ...]  # by (支上神 × 10 + day stem) × 2 + overcomes
    kin_lesson: tuple[str, ...]  # by (lesson − 1) × 12 + branch
    kin_step: tuple[str, ...]  # by Position × 12 + branch
    # the table's grounds, by id: (them, the sentence, the sentence beside the general's quoted opening)
    grounds: Mapping[int, tuple[tuple[Ground, ...], str, str]]
    quotes: Mapping[str, QuoteText]  # by unit id
    not_bears_serpent: str  # 騰蛇 off the 發用, naming the school option that reads it wherever seen

    def t(self, key: str, **values: object) -> str:
        """``matter.<key>`` formatted, as texts.words.text would."""
        template = self.word[key]
        return template.format(**values) if values else template


def matter_named(name: str) -> Matter | None:
    """The matter a ``matter`` option names: one of the fifteen keys or ``general`` (None), or a
    matter as any language prints it (婚姻, 婚姻, 婚姻, "marriage (婚姻)", its parts: 病 of 病・喪,
    "marriage"), compared folded; ``ValueError`` naming the keys otherwise."""
    try:
        return Matter.parse(name)
    except ValueError:
        found = _named().get(normalize(name.strip()))
        if found is None:
            raise
        return found


@remember()
def _named() -> dict[str, Matter]:
    """Every printed name of a matter, and each part of it, folded (a part two matters share is left out)."""
    named: dict[str, set[Matter]] = {}
    for lang in LANGS:
        for m in MATTERS:
            shown = term(m, lang)
            for part in (shown, *re.split(r"[()（）・、·,]\s*|\s+\(", shown)):
                if part.strip():
                    named.setdefault(normalize(part.strip()), set()).add(m)
    return {k: next(iter(v)) for k, v in named.items() if len(v) == 1}


def cite(g: Ground, lang: Lang, texts: Corpus) -> str:
    """One ground cited: its ¶ and words (〔訳〕 for the translation's)."""
    unit = texts.get(g.unit)
    if g.translated:
        mark = text("matter.translated", lang)
        return text("matter.cite_translated", lang, n=unit.translation_line, mark=mark, words=g.words)
    return text("matter.cite", lang, n=unit.original_line, words=g.words)


def grounds_sentence(grounds: tuple[Ground, ...], lang: Lang, texts: Corpus) -> str:
    """What grounds a 類神: its citations, in order."""
    cites = text("matter.cite_sep", lang).join(cite(x, lang, texts) for x in grounds)
    return text("matter.grounds", lang, cites=cites)


def grounds_shown(grounds: tuple[Ground, ...], opening: str | None, lang: Lang, texts: Corpus) -> str:
    """The grounds sentence said before a 類神's opening (``opening``: the unit id quoted right
    under it, or None): the opening's own words are cited by ¶ only, not said twice (its
    translation's words are still quoted: a reader of Chinese is not shown them)."""
    def one(g: Ground) -> str:
        if g.unit == opening and not g.translated:
            return text("matter.cite_below", lang, n=texts.get(g.unit).original_line)
        return cite(g, lang, texts)

    cites = text("matter.cite_sep", lang).join(dict.fromkeys(one(g) for g in grounds))
    return text("matter.grounds", lang, cites=cites)


def quote_text(unit: Unit, lang: Lang) -> QuoteText:
    """``unit`` as :class:`QuoteText` (texts.corpus.shown's original, ¶ and translation lines)."""
    names = tuple(
        None if (name := unit.name_on(b)) is None else text("matter.line_name", lang, name=corpus_name(name, lang))
        for b in BRANCHES
    )
    under = tuple(f"      {s}" for s in translation_lines(unit, lang))  # English readers' too
    return QuoteText(unit, original(unit, lang), seed_lines(unit), under, names, sic_lines(unit, lang))


def _rides(general: General, bits: int, lang: Lang) -> str:
    if not bits:
        return text("matter.rides_none", lang, general=show(general, lang))
    positions = text("list.sep", lang).join(
        text("matter.initial", lang) if p is Position.初伝 else show(p, lang) for p in Position if bits >> p & 1
    )
    return text("matter.rides", lang, general=show(general, lang), positions=positions)


def _lessons(heaven: str, bits: int, lang: Lang) -> str:
    if not bits:
        return text("matter.no_lesson", lang, heaven=heaven)
    numbers = [n for n in (1, 2, 3, 4) if bits >> (n - 1) & 1]
    sep = text("list.sep", lang)
    lessons = sep.join(text("matter.lesson", lang, n=n) for n in numbers)
    seats = [term(seat, lang) for n, seat in ((1, Seat.干上神), (3, Seat.支上神)) if n in numbers]
    seat_text = text("matter.seats", lang, seats=sep.join(seats)) if seats else ""
    return text("matter.lessons", lang, heaven=heaven, lessons=lessons, seats=seat_text)


def _build(lang: Lang, texts: Corpus) -> Phrases:
    def t(key: str, **values: object) -> str:
        return text(f"matter.{key}", lang, **values)

    g = tuple(show(x, lang) for x in GENERALS)
    b = tuple(show(x, lang) for x in BRANCHES)
    s = tuple(show(x, lang) for x in STEMS)
    pairs = [(x, y) for x in GENERALS for y in BRANCHES]  # (General, 地盤)
    no_line = tuple(
        t("no_line_天空" if x is General.天空 else "no_line", general=g[x], ground=b[y]) for x, y in pairs
    )
    prefix = "matter."
    matter_terms = {m: term(m, lang) for m in MATTERS}
    return Phrases(
        lang=lang,
        texts=texts,
        word={k[len(prefix) :]: v for k, v in words()[lang].items() if k.startswith(prefix)},
        sep=text("list.sep", lang),
        name_sep=text("list.name_sep", lang),
        bullet=text("reading.bullet", lang),
        general=g,
        branch=b,
        stem=s,
        matter=matter_terms,
        heading={k: t("heading", matter=v) for k, v in matter_terms.items()},
        spirit=tuple(t("spirit", rank=rank, general=g[x]) for rank in (1, 2, 3) for x in GENERALS),
        stands=tuple(t("stands", general=g[x], heaven=b[h], ground=b[y]) for x, y in pairs for h in BRANCHES),
        excluded=tuple(t("excluded", general=g[x], ground=b[y]) for x, y in pairs),
        no_line=no_line,
        mention=tuple(t("mention", general=g[x], ground=b[y]) for x, y in pairs),
        rides=tuple(_rides(x, bits, lang) for x in GENERALS for bits in range(8)),
        lessons=tuple(_lessons(b[h], bits, lang) for h in BRANCHES for bits in range(16)),
        void=tuple(t("void" if v else "not_void", heaven=b[h]) for h in BRANCHES for v in (False, True)),
        vigour=tuple(
            # the general reading's sentence: one way of saying 旺相 in a reply
            text("reading.vigour", lang, branch=b[h], month=b[m], vigour=show(vigour(h, m), lang))
            for m in BRANCHES
            for h in BRANCHES
        ),
        kin=tuple(
            t("kin", heaven=b[h], stem=s[x], kin=show(kin(x.element, h.element), lang)) for x in STEMS for h in BRANCHES
        ),
        stem_upper=tuple(
            t("stem_upper_yes" if yes else "stem_upper_no", upper=b[u], branch=b[d])
            for u in BRANCHES
            for d in BRANCHES
            for yes in (False, True)
        ),
        branch_upper=tuple(
            t("branch_upper_yes" if yes else "branch_upper_no", upper=b[u], stem=s[d])
            for u in BRANCHES
            for d in STEMS
            for yes in (False, True)
        ),
        kin_lesson=tuple(t("kin_lesson", n=n, branch=b[y]) for n in (1, 2, 3, 4) for y in BRANCHES),
        kin_step=tuple(t("kin_step", position=show(p, lang), branch=b[y]) for p in Position for y in BRANCHES),
        grounds={
            id(x.grounds): (
                x.grounds,
                grounds_shown(x.grounds, None, lang, texts),
                grounds_shown(x.grounds, f"general.{x.general.name}", lang, texts),
            )
            for x in _SPIRITS
        },
        quotes={u.id: quote_text(u, lang) for u in texts.units},
        not_bears_serpent=t("not_bears_騰蛇", option=text("school.tengshe_whenever_seen", lang)),
    )


_SPIRITS = tuple(x for row in TABLE for x in row.spirits)
_KEPT: dict[tuple[Lang, int], Phrases] = {}


def phrases(lang: Lang, texts: Corpus) -> Phrases:
    """The sentences of ``lang`` for ``texts``, built the first time they are asked for."""
    found = _KEPT.get((lang, id(texts)))
    if found is not None and found.texts is texts:
        return found
    built = _build(lang, texts)
    if len(_KEPT) > 8:  # a test's own corpora: keep a few, not every one
        _KEPT.clear()
    _KEPT[lang, id(texts)] = built
    return built
