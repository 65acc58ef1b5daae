"""``liuren verify``: is a quotation of the 《心印賦》 verbatim, and where does it stand?

    liuren verify "元首象天，重審法地" --paragraph 139    one quotation, at the ¶ it claims
    liuren verify --file draft.md --lang en              every quotation and ¶ of a text ('-': stdin)

Exit status: 0 when every quotation is verbatim where it claims to stand (and every lone ¶ exists),
1 when one is not, 2 on bad input (one line on stderr). How a quotation is judged: docs/mcp.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from texts.cli.cast import lang_from
from texts.words import LANGS, Lang, text

if TYPE_CHECKING:  # the corpus is read by the runs that verify, not by every start of `liuren`
    from texts.corpus.citations import Report

MAX_TEXT = 100_000  # texts.corpus.citations.MAX_TEXT, said in --help without importing the corpus


def add_parser(sub: Any) -> None:
    """Add ``verify`` to the ``liuren`` subcommands ``sub``."""
    v = sub.add_parser("verify", help="check a quotation of the 《心印賦》, or every quotation of a text")
    v.add_argument("quote", nargs="?", default=None, help="the quotation (any of 繁/简/日 forms)")
    v.add_argument("--paragraph", type=int, default=None, help="the seed ¶ the quotation claims")
    v.add_argument("--file", help=f"a text to check instead ('-': standard input; at most {MAX_TEXT:,} characters)")
    v.add_argument("--json", action="store_true", help="print the judgements as JSON (docs/mcp.md)")
    v.add_argument("--lang", choices=LANGS, default=None, help="the reader's language (default $LIUREN_LANG, else ja)")


def _read(name: str, lang: Lang) -> str:
    if name == "-":
        return sys.stdin.read(MAX_TEXT + 1)
    try:
        with open(name, encoding="utf-8") as source:
            return source.read(MAX_TEXT + 1)  # one more than allowed: check_citations says it is too long
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ValueError(text("verify.bad_file", lang, file=name, reason=reason)) from None


def _sound(report: Report) -> bool:
    return all(q.judgement.verdict == "verbatim" for q in report.quotes) and all(
        r.exists for r in report.references)


def run(args: argparse.Namespace) -> int:
    """Judge the quotation or the file; a ValueError (QuoteError) for input that cannot be checked."""
    from texts.corpus.citations import check_citations
    from texts.corpus.verdicts import judgement_text, report_json, report_text, verify_json
    from texts.corpus.verify import QuoteError, verify_quote

    lang = lang_from(args)
    if (args.quote is None) == (args.file is None):
        raise QuoteError("give a quotation, or --file with a text to check (not both)")
    if args.file is not None:
        if args.paragraph is not None:
            raise QuoteError("--paragraph goes with a quotation; in a file, write ¶N beside each quotation")
        report = check_citations(_read(args.file, lang))
        print(json.dumps(report_json(report), ensure_ascii=False, indent=2) if args.json else report_text(report, lang))
        return 0 if _sound(report) else 1
    judgement = verify_quote(args.quote, args.paragraph)
    print(json.dumps(verify_json(judgement), ensure_ascii=False, indent=2) if args.json
          else judgement_text(judgement, lang))
    return 0 if judgement.verdict == "verbatim" else 1
