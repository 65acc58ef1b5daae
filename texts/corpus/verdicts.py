"""The judgements of texts/corpus/verify.py and citations.py as JSON (versioned, the same for the
CLI's ``--json`` and the MCP tools' structured output) and as lines in the reader's language.

    >>> from texts.corpus.verify import verify_quote
    >>> print(judgement_text(verify_quote("元首象天，重審法地", 51), "en"))
    Verbatim, but not at ¶51: it stands at ¶139 (pattern.元首重審).
    Quoted:  元首象天，重審法地
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from texts.corpus.verify import Judgement
from texts.words import Lang, text

if TYPE_CHECKING:  # a report is only read here: /verify's start need not load the citation checker
    from texts.corpus.citations import Report

SCHEMA = 1  # the version of the JSON below; raised when a field changes meaning or goes away


def judgement_json(j: Judgement) -> dict[str, Any]:
    """A judgement as JSON: quote, verdict, source, passage, units, paragraphs, claimed, diff."""
    diff = None if j.diff is None else {
        "marked_quote": j.diff.marked_quote,
        "marked_passage": j.diff.marked_passage,
        "similarity": j.diff.similarity,
    }
    return {
        "quote": j.quote,
        "verdict": j.verdict,
        "source": j.source,
        "passage": j.passage,
        "units": list(j.units),
        "paragraphs": list(j.paragraphs),
        "claimed": j.claimed,
        "diff": diff,
    }


def verify_json(j: Judgement) -> dict[str, Any]:
    """One quotation's judgement, with the schema's version."""
    return {"schema": SCHEMA, "judgement": judgement_json(j)}


def report_json(report: Report) -> dict[str, Any]:
    """A whole text's report: each quotation (with where it stands in the text) and each lone ¶."""
    return {
        "schema": SCHEMA,
        "quotes": [{"start": q.start, "end": q.end, **judgement_json(q.judgement)} for q in report.quotes],
        "references": [{"start": r.start, "paragraph": r.paragraph, "exists": r.exists} for r in report.references],
        "unchecked": report.unchecked,
    }


def judgement_text(j: Judgement, lang: Lang) -> str:
    """The verdict in ``lang``, then the quotation (and for an altered one the passage), one per line."""
    values = {
        "paragraphs": "/".join(map(str, j.paragraphs)) or "?",
        "units": ", ".join(j.units),
        "claimed": j.claimed,
        "source": text(f"verify.source.{j.source}", lang) if j.source else "",
        "percent": round(100 * j.diff.similarity) if j.diff else 0,
    }
    lines = [text(f"verify.{j.verdict}", lang, **values)]
    if j.diff is not None:
        lines.append(text("verify.quoted", lang, text=j.diff.marked_quote))
        lines.append(text("verify.passage", lang, text=j.diff.marked_passage))
    else:
        lines.append(text("verify.quoted", lang, text=j.quote))
    return "\n".join(lines)


def report_text(report: Report, lang: Lang) -> str:
    """Each quotation's judgement, then each lone ¶ reference, in ``lang``."""
    parts = [judgement_text(q.judgement, lang) for q in report.quotes]
    parts += [
        text("verify.reference_exists" if r.exists else "verify.reference_missing", lang, paragraph=r.paragraph)
        for r in report.references
    ]
    if report.unchecked:
        parts.append(text("verify.unchecked", lang, count=report.unchecked))
    return "\n\n".join(parts) if parts else text("verify.nothing", lang)
