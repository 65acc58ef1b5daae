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
from texts.cli.errors import say
from texts.corpus import Corpus, Unit, canonical_general, corpus
from texts.corpus.notes import says, unreachable_reason
from texts.corpus.shown import original, translation_lines
from texts.words import LANGS, Lang, corpus_name, language_of, named_in_english, term, text

# Every word this command writes is texts/locales/<lang>/lookup.toml's; the seed's are shown as written.


def _say(key: str, lang: Lang, **values: object) -> str:
    return text(f"lookup.{key}", lang, **values)


def usage(lang: Lang) -> str:
    """The one-line usage, in ``lang``."""
    return _say("usage", lang)


def help_text(lang: Lang) -> str:
    """``--help``'s text, in ``lang``."""
    return _say("help", lang, usage=usage(lang), langs=", ".join(LANGS))


def _notes(u: Unit, lang: Lang) -> list[str]:
    lines = []
    for i, n in enumerate(u.notes):
        said, field = says(u, i, lang), _say(f"field.{n.field}", lang)
        if n.kind == "emendation":
            line = _say("note_emendation", lang, field=field, lost="U+FFFD" * len(n.at), read=n.read, says=said)
        elif n.kind == "sic":
            line = _say("note_sic", lang, field=field, at=n.at, read=n.read, says=said)
        else:
            line = _say("note_alias", lang, name=corpus_name(n.read, lang), says=said)
        lines.append(f"  {line}")
    return lines


def format_unit(u: Unit, branch: str | None = None, lang: Lang = "ja") -> str:
    """The unit as the CLI prints it: a header, the original, the translation under it, the notes.

    With ``branch`` (a general-on-branch query), the header says whether a chart can reach it.
    ``lang`` is the reader's: what is shown under the original is texts.corpus.shown.translation_lines'
    (in English the project's English translation, then the seed's Japanese), and every
    label, reason and note is in ``lang``.
    """
    where = " ".join(
        _say(key, lang, line=n)
        for key, n in (("line_original", u.original_line), ("line_translation", u.translation_line))
        if n is not None
    )
    mark = ""
    if branch is not None and not u.reachable(branch):
        mark = "  " + _say("unreachable_mark", lang, branch=branch)
    lines = [f"[{u.id}] {_say(f'kind.{u.kind}', lang)}  {where}{mark}"]
    lines.append(f"  {original(u, lang)}" if u.original else f"  {_say('no_original', lang)}")
    lines.extend(f"  {s}" for s in translation_lines(u, lang))
    if u.names_by_branch and len(u.branches) > 1:
        names = _say("name_sep", lang).join(
            _say("name_on", lang, name=corpus_name(name, lang), branch=b) for b, name in u.names_by_branch
        )
        lines.append("  " + _say("names", lang, names=names))
    c = corpus()
    for b, _ in u.unreachable:
        lines.append("  " + _say("unreachable", lang, branch=b, reason=unreachable_reason(c, u, b, lang)))
    lines.extend(_notes(u, lang))
    return "\n".join(lines)


def _english_names(args: Sequence[str]) -> list[str]:
    """``args`` with an English name (one word or several: ``Black Warrior 子``) as its CJK name."""
    for end in (len(args), len(args) - 1):
        if end > 1 and (found := named_in_english(" ".join(args[:end]))) is not None:
            return [found, *args[end:]]
    return [named_in_english(a) or a for a in args]


def find(c: Corpus, args: Sequence[str]) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """(units named exactly by ``args``, other units that mention the term)."""
    # a name as the English output and the glossary write it ("Black Warrior", "the Noble") is its CJK name
    args = _english_names(args)
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


def not_found(c: Corpus, args: Sequence[str], lang: Lang = "ja") -> str:
    """A message, in ``lang``, that says why nothing matched and what would."""
    if len(args) == 2:
        general, branch = args
        g = canonical_general(general)
        if g is None:
            return _say("not_general", lang, given=general, generals=" ".join(term(x, lang) for x in GENERALS))
        if branch.strip() not in {b.name for b in BRANCHES}:
            return _say("not_branch", lang, given=branch, branches="".join(map(str, BRANCHES)))
        named = "".join(b.name for b in BRANCHES if c.general_on(g, b))
        if not named:
            return _say("no_name_lines", lang, general=term(g, lang))
        return _say("no_line_on", lang, general=term(g, lang), branch=branch.strip(), named=named)
    close = difflib.get_close_matches(args[0], c.terms(), n=5, cutoff=0.5)
    hint = _say("did_you_mean", lang, terms=" ".join(close)) if close else ""
    return _say("nothing", lang, given=args[0], hint=hint)


def _reader() -> Lang:
    return language_of(os.environ.get("LIUREN_LANG") or "ja")


def _parse(argv: Sequence[str]) -> tuple[list[str], Lang | None] | int:
    """The terms of the command line and the --lang asked for, or the exit status when it was
    --help or a usage error (said in the --lang given anywhere on the line, else $LIUREN_LANG's)."""
    args: list[str] = []
    lang: Lang | None = None
    options = True
    first: tuple[str, dict[str, str]] | None = None  # the first --help or usage error, said at the end
    rest = iter(argv)
    for a in rest:
        if options and (a == "--lang" or a.startswith("--lang=")):
            given = a.partition("=")[2] if "=" in a else next(rest, "")
            chosen = next((x for x in LANGS if x == given), None)
            if chosen is None:
                first = first or (("bad_lang", {"given": given}) if given else ("no_lang", {}))
            else:
                lang = chosen
        elif options and a == "--":
            options = False
        elif options and a in ("-h", "--help"):
            first = first or ("help", {})
        elif options and a.startswith("-") and len(a) > 1:
            first = first or ("unknown_option", {"option": a})
        else:
            args.append(a)
    reader = lang or _reader()
    if first is not None and first[0] == "help":
        print(help_text(reader))
        return 0
    if first is not None:
        say(_say(first[0], reader, langs=", ".join(LANGS), **first[1]))
        return 2
    if len(args) not in (1, 2) or not all(a.strip() for a in args):
        say(_say("see_help", reader, usage=usage(reader)))
        return 2
    return args, lang


def main(argv: Sequence[str] | None = None) -> int:
    parsed = _parse(list(sys.argv[1:] if argv is None else argv))
    if isinstance(parsed, int):
        return parsed
    args, lang = parsed
    return lookup(args, lang if lang is not None else _reader())


def lookup(args: Sequence[str], lang: Lang = "ja") -> int:
    """Print what the 《心印賦》 has for the terms ``args`` (one term, or a general and a branch) to a
    reader of ``lang``; 0 when something was found, 1 (and why, on stderr) when nothing was."""
    c = corpus()
    exact, others = find(c, args)
    if not exact and not others:
        say(not_found(c, args, lang))
        return 1
    # the exact matches in full; what merely mentions the term in full only when nothing was exact
    shown = exact or others
    branch = args[1].strip() if len(args) == 2 else None
    print("\n\n".join(format_unit(u, branch, lang) for u in shown))
    if branch is not None:
        opening = c.general(args[0])
        if opening is not None and opening.general is not None and branch in opening.excludes:
            print("\n" + _say("excludes", lang, general=term(opening.general, lang), id=opening.id,
                              branch=branch, excludes="".join(opening.excludes)))
    if exact and others:
        print("\n" + _say("also", lang, count=len(others), ids=" ".join(u.id for u in others)))
    return 0


def console() -> int:
    """``python -m texts``: ``main`` on the process's own arguments."""
    try:
        return main()
    except BrokenPipeError:
        # the reader stopped reading (python -m texts 貴人 | head): say nothing more, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
