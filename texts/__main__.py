"""Look a term up in the 《心印賦》: ``python -m texts 貴人 子``, ``python -m texts 蒿矢``.

Prints each unit found (id, kind, seed lines; the original, then its translation under it, as a
reader is shown them: a lost character restored in 〔〕, a slip followed by 〔ママ〕), then the
editor's notes. ``python -m texts --help`` says how to call it.
Exit status: 0 when something was found, 1 when nothing matched, 2 on a usage error.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence

from engine.symbols import BRANCHES
from engine.terms import GENERALS
from texts.corpus import Corpus, Unit, canonical_general, corpus
from texts.present import original, translation_lines  # issue 25
from texts.words import LANGS, Lang, language_of  # issue 25

USAGE = (
    "usage: python -m texts [--lang LANG] TERM  |  python -m texts [--lang LANG] GENERAL BRANCH"
    "   (e.g. 蒿矢, 解紛, 貴人 子)"
)
HELP = f"""{USAGE}

Look a term up in the 《心印賦》 (大六壬指南 巻一) and print the passages, the classical original
with its Japanese translation under it.

  TERM            a method (重審 蒿矢 八専 …), a pattern (龍首 三交 …), a general (騰蛇), the name
                  of a name line (解紛 升堂 入林) or any word of the text. Simplified, traditional
                  and Japanese forms find the same passages (贵人 貴人; 三传 三傳 三伝; 青龙 青龍 青竜).
  GENERAL BRANCH  the line naming a general on a 地盤 branch (貴人 子, 騰蛇 亥); a pair no cast
                  chart can reach is marked unreachable, with the reason.

The text is shown as the seed has it: a character lost in the seed is restored in 〔〕 and a
slip of the translation is followed by 〔ママ〕, each with a note saying why.

With --lang en the project's own English translation comes under the original, labelled as the
project's, with its editor's notes as marks, and the seed's Japanese after it; Chinese readers
(zh-TW, zh-CN) read the original.

options:
  -h, --help      show this help and exit
  --lang LANG     the reader's language: ja, en, zh-TW, zh-CN (default $LIUREN_LANG, else ja)
  --              end of options (a TERM may then start with '-')

exit status: 0 found, 1 nothing matched, 2 usage error"""


def _notes(u: Unit) -> list[str]:
    lines = []
    for n in u.notes:
        if n.kind == "emendation":
            lines.append(f"  note: {n.field} {'U+FFFD' * len(n.at)} restored as 〔{n.read}〕: {n.says}")
        elif n.kind == "sic":
            lines.append(f"  note: {n.field} 「{n.at}」 [sic], read 「{n.read}」: {n.says}")
        else:
            lines.append(f"  note: also named {n.read}: {n.says}")
    return lines


def format_unit(u: Unit, branch: str | None = None, lang: Lang = "ja") -> str:
    """The unit as the CLI prints it: a header, the original, the translation under it, the notes.

    With ``branch`` (a general-on-branch query), the header says whether a chart can reach it.
    ``lang`` is the reader's: what is shown under the original is texts.present.translation_lines'
    (issue 25: in English the project's English translation, then the seed's Japanese).
    """
    where = " ".join(
        f"{label}¶{n}"
        for label, n in (("", u.original_line), ("訳", u.translation_line))
        if n is not None
    )
    mark = ""
    if branch is not None and not u.reachable(branch):
        mark = f"  UNREACHABLE on {branch} (no cast chart; reason below)"
    lines = [f"[{u.id}] {u.kind}  {where}{mark}"]
    lines.append(f"  {original(u, lang)}" if u.original else "  (no classical text: a note of the translation)")
    lines.extend(f"  {s}" for s in translation_lines(u, lang))  # issue 25
    if u.names_by_branch and len(u.branches) > 1:
        lines.append("  names: " + ", ".join(f"{name} ({b})" for b, name in u.names_by_branch))
    for b, reason in u.unreachable:
        lines.append(f"  unreachable on {b}: {reason}")
    lines.extend(_notes(u))
    return "\n".join(lines)


def find(c: Corpus, args: Sequence[str]) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """(units named exactly by ``args``, other units that mention the term)."""
    if len(args) == 2:
        on = c.general_on(args[0], args[1].strip())
        return ((on,) if on else ()), ()
    term = args[0]
    exact: list[Unit] = []
    by_id = next((u for u in c.units if u.id == term), None)
    # a name of a name line (解紛, 升堂, 入林 …): every unit keyed by it or with it as an alias
    names = [u for u in c.named(term) if u.kind == "general-on-branch"]
    for u in (by_id, c.method(term), c.pattern(term), c.general(term), *names):
        if u is not None and u not in exact:
            exact.append(u)
    others = tuple(u for u in c.search(term) if u not in exact)
    return tuple(exact), others


def not_found(c: Corpus, args: Sequence[str]) -> str:
    """A message that says why nothing matched and what would."""
    if len(args) == 2:
        general, branch = args
        g = canonical_general(general)
        if g is None:
            return f"{general!r} is not a general; the generals are {' '.join(map(str, GENERALS))}"
        if branch.strip() not in {b.name for b in BRANCHES}:
            return f"{branch!r} is not a branch; give one of {''.join(map(str, BRANCHES))}"
        named = "".join(b.name for b in BRANCHES if c.general_on(g, b))
        if not named:
            return f"the seed has no name line per branch for {g} (¶135); try: python -m texts {g}"
        return f"the seed has no line for {g} on {branch.strip()}; it names {g} on {named}"
    close = difflib.get_close_matches(args[0], c.terms(), n=5, cutoff=0.5)
    hint = f" Did you mean: {' '.join(close)}?" if close else ""
    return (
        f"nothing in the 《心印賦》 matches {args[0]!r}.{hint} "
        f"Try a method (重審 蒿矢 八専 …), a pattern (龍首 三交 …), a general with a branch (貴人 子) "
        f"or a word of the text (解紛)."
    )


def _parse(argv: Sequence[str]) -> tuple[list[str], Lang | None] | int:
    """The terms of the command line and the --lang asked for, or the exit status when it was
    --help or a usage error."""
    args: list[str] = []
    lang: Lang | None = None
    options = True
    rest = iter(argv)
    for a in rest:
        if options and (a == "--lang" or a.startswith("--lang=")):  # issue 25
            given = a.partition("=")[2] if "=" in a else next(rest, "")
            chosen = next((x for x in LANGS if x == given), None)
            if chosen is None:
                said = f"--lang {given!r}" if given else "--lang needs a language"
                print(f"python -m texts: {said}: give one of {', '.join(LANGS)}", file=sys.stderr)
                return 2
            lang = chosen
        elif options and a == "--":
            options = False
        elif options and a in ("-h", "--help"):
            print(HELP)
            return 0
        elif options and a.startswith("-") and len(a) > 1:
            print(f"python -m texts: unknown option {a!r} (see python -m texts --help)", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) not in (1, 2) or not all(a.strip() for a in args):
        print(f"{USAGE}  (see --help)", file=sys.stderr)
        return 2
    return args, lang


def main(argv: Sequence[str] | None = None) -> int:
    parsed = _parse(list(sys.argv[1:] if argv is None else argv))
    if isinstance(parsed, int):
        return parsed
    args, lang = parsed
    return lookup(args, lang if lang is not None else language_of(os.environ.get("LIUREN_LANG") or "ja"))


def lookup(args: Sequence[str], lang: Lang = "ja") -> int:
    """Print what the 《心印賦》 has for the terms ``args`` (one term, or a general and a branch) to a
    reader of ``lang``; 0 when something was found, 1 (and why, on stderr) when nothing was."""
    c = corpus()
    exact, others = find(c, args)
    if not exact and not others:
        print(not_found(c, args), file=sys.stderr)
        return 1
    # the exact matches in full; what merely mentions the term in full only when nothing was exact
    shown = exact or others
    branch = args[1].strip() if len(args) == 2 else None
    print("\n\n".join(format_unit(u, branch, lang) for u in shown))
    if branch is not None:
        opening = c.general(args[0])
        if opening is not None and branch in opening.excludes:
            print(f"\nnote: {opening.general}'s opening ({opening.id}) excludes {branch}: "
                  f"不加{''.join(opening.excludes)}")
    if exact and others:
        print(f"\nalso mentioned in {len(others)} more: {' '.join(u.id for u in others)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # the reader stopped reading (python -m texts 貴人 | head): say nothing more, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
