"""Look a term up in the 《心印賦》: ``python -m texts 貴人 子``, ``python -m texts 蒿矢``.

Prints each unit found (id, kind, seed lines; the original, then its translation under it).
Exit status: 0 when something was found, 1 when nothing matched, 2 on a usage error.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence

from texts.corpus import BRANCHES, GENERALS, Corpus, Unit, canonical_general, corpus
from texts.normalize import normalize

USAGE = "usage: python -m texts TERM  |  python -m texts GENERAL BRANCH   (e.g. 蒿矢, 解紛, 貴人 子)"


def format_unit(u: Unit) -> str:
    """The unit as the CLI prints it: a header, the original, the translation under it."""
    where = " ".join(
        f"{label}¶{n}"
        for label, n in (("", u.original_line), ("訳", u.translation_line))
        if n is not None
    )
    lines = [f"[{u.id}] {u.kind}  {where}"]
    lines.append(f"  {u.original}" if u.original else "  (no classical text: a note of the translation)")
    if u.translation:
        lines.append(f"  {u.translation}")
    return "\n".join(lines)


def find(c: Corpus, args: Sequence[str]) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """(units named exactly by ``args``, other units that mention the term)."""
    if len(args) == 2:
        on = c.general_on(args[0], args[1])
        return ((on,) if on else ()), ()
    term = args[0]
    exact: list[Unit] = []
    by_id = next((u for u in c.units if u.id == term), None)
    for u in (by_id, c.method(term), c.pattern(term), c.general(term)):
        if u is not None and u not in exact:
            exact.append(u)
    if not exact:
        # a name of a name line (解紛, 升堂 …): every unit keyed by it
        wanted = normalize(term)
        exact = [u for u in c.units if u.kind == "general-on-branch" and wanted in map(normalize, u.keys)]
    others = tuple(u for u in c.search(term) if u not in exact)
    return tuple(exact), others


def not_found(c: Corpus, args: Sequence[str]) -> str:
    """A message that says why nothing matched and what would."""
    if len(args) == 2:
        general, branch = args
        g = canonical_general(general)
        if g is None:
            return f"{general!r} is not a general; the generals are {' '.join(GENERALS)}"
        if branch not in BRANCHES:
            return f"{branch!r} is not a branch; give one of {''.join(BRANCHES)}"
        named = "".join(b for b in BRANCHES if c.general_on(g, b))
        if not named:
            return f"the seed has no name line per branch for {g} (¶135); try: python -m texts {g}"
        return f"the seed has no line for {g} on {branch}; it names {g} on {named}"
    close = difflib.get_close_matches(args[0], c.terms(), n=5, cutoff=0.5)
    hint = f" Did you mean: {' '.join(close)}?" if close else ""
    return (
        f"nothing in the 《心印賦》 matches {args[0]!r}.{hint} "
        f"Try a method (重審 蒿矢 八専 …), a pattern (龍首 三交 …), a general with a branch (貴人 子) "
        f"or a word of the text (解紛)."
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (1, 2) or not all(a.strip() for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    c = corpus()
    exact, others = find(c, args)
    if not exact and not others:
        print(not_found(c, args), file=sys.stderr)
        return 1
    # the exact matches in full; what merely mentions the term in full only when nothing was exact
    shown = exact or others
    print("\n\n".join(format_unit(u) for u in shown))
    if len(args) == 2:
        opening = c.general(args[0])
        if opening is not None and args[1] in opening.excludes:
            print(f"\nnote: {opening.general}'s opening ({opening.id}) excludes {args[1]}: "
                  f"不加{''.join(opening.excludes)}")
    if exact and others:
        print(f"\nalso mentioned in {len(others)} more: {' '.join(u.id for u in others)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
