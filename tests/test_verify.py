"""Quotations of the 《心印賦》 judged (texts/corpus/verify.py, citations.py) and `liuren verify`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from texts.cli import main
from texts.cli import verify as cli_verify
from texts.corpus import citations
from texts.corpus.citations import check_citations
from texts.corpus.verify import QuoteError, verify_quote

RIGHT = "元首象天，重審法地。象天者先喜而後憂"  # ¶139
CHANGED = "元首象天，重審法地。象天者先喜而後喜"
SIMPLIFIED = "元首象天，重审法地。象天者先喜而后忧"
INVENTED = "天下無難事，只怕有心人"
JAPANESE = "「元首課」は天に象を取り、「重審課」は地に法を取る"  # the seed's Japanese, ¶141
MIXED = (f"「{RIGHT}」（¶139）と言い、また「{RIGHT}」（¶51）、『{CHANGED}』、“{SIMPLIFIED}”、"
         f"「{INVENTED}」、そして『{JAPANESE}』。See also ¶175 and ¶9999.")


def test_the_five_kinds_of_quotation() -> None:
    right = verify_quote(RIGHT, 139)
    assert (right.verdict, right.source, right.paragraphs, right.units) == (
        "verbatim", "original", (139,), ("pattern.元首重審",))
    wrong = verify_quote(RIGHT, 51)
    assert (wrong.verdict, wrong.paragraphs, wrong.claimed) == ("elsewhere", (139,), 51)
    changed = verify_quote(CHANGED, 139)
    assert changed.verdict == "altered" and changed.diff is not None
    assert changed.diff.marked_quote.endswith("而後【喜】") and changed.diff.marked_passage.endswith("而後【憂】")
    assert changed.paragraphs == (139,)
    simplified = verify_quote(SIMPLIFIED, 139)
    assert (simplified.verdict, simplified.passage) == ("verbatim", "元首象天，重審法地。象天者先喜而後憂")
    assert verify_quote(INVENTED).verdict == "absent"
    japanese = verify_quote(JAPANESE)
    assert (japanese.verdict, japanese.source, japanese.paragraphs) == ("translation", "translation-ja", (141,))


def test_a_text_mixing_all_of_them() -> None:
    report = check_citations(MIXED)
    verdicts = [(q.judgement.verdict, q.judgement.claimed) for q in report.quotes]
    assert verdicts == [("verbatim", 139), ("elsewhere", 51), ("altered", None), ("verbatim", None),
                        ("absent", None), ("translation", None)]
    assert [(r.paragraph, r.exists) for r in report.references] == [(175, True), (9999, False)]
    for q in report.quotes:  # each span is the quotation with its marks
        assert MIXED[q.start + 1 : q.end - 1] == q.judgement.quote


def test_bounds_are_errors_with_one_clear_line() -> None:
    with pytest.raises(QuoteError, match="at most 100000"):
        check_citations("「" + "天" * 5_000_000 + "」")
    with pytest.raises(QuoteError, match="empty"):
        verify_quote("，。 ")
    with pytest.raises(QuoteError, match="at most 2000"):
        verify_quote("天" * 2001)
    assert cli_verify.MAX_TEXT == citations.MAX_TEXT  # --help says the limit the check applies
    many = "".join(f"「{RIGHT}」" for _ in range(citations.MAX_QUOTES + 5))
    report = check_citations(many)
    assert len(report.quotes) == citations.MAX_QUOTES and report.unchecked == 5


def test_the_cli_gives_the_same_judgements(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", RIGHT, "--paragraph", "139", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["judgement"]["verdict"] == "verbatim"
    assert main(["verify", CHANGED, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Altered: the closest passage is ¶139") and "而後【憂】" in out
    draft = tmp_path / "draft.txt"
    draft.write_text(MIXED, encoding="utf-8")
    assert main(["verify", "--file", str(draft), "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert [q["verdict"] for q in got["quotes"]] == [q.judgement.verdict for q in check_citations(MIXED).quotes]
    big = tmp_path / "big.txt"
    big.write_text("天" * 5_000_000, encoding="utf-8")
    assert main(["verify", "--file", str(big)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most 100000" in err
    assert main(["verify", "--file", str(tmp_path / "none.txt"), "--lang", "en"]) == 2
    assert "cannot read" in capsys.readouterr().err
