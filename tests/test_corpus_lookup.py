"""Lookups fold simplified, traditional and Japanese forms, from an index built
once at load; ``python -m texts --help``."""

from __future__ import annotations

import importlib
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import texts
from engine.symbols import Branch
from engine.terms import General
from texts.cli.lookup import find
from texts.cli.lookup import main as cli_main
from texts.corpus import canonical_general, corpus
from texts.corpus.normalize import normalize

if TYPE_CHECKING:
    from testkit.discord_standin import DiscordStandIn
    from tests.conftest import StartBot

C = corpus()
corpus_module = importlib.import_module("texts.corpus.book")  # the module whose look-ups normalise
normalize_module = importlib.import_module("texts.corpus.normalize")
SEED = (Path(texts.__file__).parent / "seed" / "000_bc2579445fc12f06.txt").read_text(encoding="utf-8").split("\n")

# (simplified, traditional, Japanese): the issue's six, and the forms of the seed
FORMS = [
    ("贵人", "貴人", "貴人"),
    ("青龙", "青龍", "青竜"),
    ("三传", "三傳", "三伝"),
    ("发用", "發用", "発用"),
    ("腾蛇", "騰蛇", "騰蛇"),
    ("八专", "八專", "八専"),
    ("遥克", "遙克", "遥剋"),
    ("涉害", "涉害", "渉害"),
    ("弹射", "彈射", "弾射"),
]


@pytest.mark.parametrize(("simplified", "traditional", "japanese"), FORMS)
def test_the_three_forms_find_the_same_units(simplified: str, traditional: str, japanese: str) -> None:
    assert normalize(simplified) == normalize(traditional) == normalize(japanese)
    found = C.search(traditional)
    assert found and C.search(simplified) == found == C.search(japanese)
    assert find(C, [simplified]) == find(C, [traditional]) == find(C, [japanese])


def test_the_simplified_names_of_the_issue_are_found_where_the_seed_has_them() -> None:
    # the seed itself never writes a simplified form: what is found is found by folding
    seed = "\n".join(SEED)
    for simplified, traditional, _ in FORMS[:6]:
        assert simplified not in seed
        assert any(traditional in u.original for u in C.search(simplified)), simplified


def test_named_lookups_take_any_form_and_the_engines_values() -> None:
    assert C.method("八专") is C.method("八専") is C.method("八專") is not None
    assert C.pattern("龙首") is C.pattern("龍首") is C.pattern("竜首") is not None
    assert C.general("腾蛇") is C.general("騰蛇") is C.general(General.騰蛇) is not None
    assert C.general_on("青龙", "子") is C.general_on(General.青龍, Branch.子) is C.general_on("青竜", "子")
    assert canonical_general("贵人") is canonical_general("天乙") is General.貴人
    assert canonical_general("青龙") is General.青龍 and str(canonical_general("青竜")) == "青龍"
    assert canonical_general("子") is None and canonical_general(3) is None
    assert C.general_on("貴人", "十") is None and C.general_on("貴神", "子") is None


def test_the_bots_lookup_finds_simplified_terms() -> None:
    # /lookup (bot/commands.py) answers with corpus().search(term.strip()) and suggests corpus().terms()
    assert corpus().search(" 贵人 ") == corpus().search("貴人") != ()
    assert corpus().search("发用") == corpus().search("發用") != ()


async def test_the_bots_lookup_command_answers_a_simplified_term(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=lambda: datetime(2026, 11, 29, 5, 0, tzinfo=UTC))
    simplified = await standin.slash("lookup", {"term": "腾蛇"}, locale="zh-CN")
    traditional = await standin.slash("lookup", {"term": "騰蛇"}, locale="zh-CN")
    fields = [[f["value"] for f in e["fields"]] for e in simplified.embeds]
    assert fields and fields[0] and fields == [[f["value"] for f in e["fields"]] for e in traditional.embeds]
    assert fields[0][0] == C.search("騰蛇")[0].original.strip()


def test_suggestions_take_any_form() -> None:
    assert C.suggest("腾")[0] == "騰蛇" and C.suggest("騰") == C.suggest("腾")
    assert "青龍" in C.suggest("青龙") and "三交" in C.suggest("三")
    found = C.suggest("元")
    assert found and len(found) <= 25 and all("元" in t for t in found)
    assert C.suggest("入", limit=3) == C.suggest("入")[:3] and len(C.suggest("入", limit=3)) == 3


def test_the_cli_finds_simplified_terms(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["腾蛇"]) == 0
    assert capsys.readouterr().out.startswith("[general.騰蛇] 天将")
    assert cli_main(["青龙", "子"]) == 0
    assert "入海（子）" in capsys.readouterr().out


def test_folding_is_character_by_character_so_every_substring_is_found() -> None:
    # normalize(a + b) == normalize(a) + normalize(b): a span of the text always finds its unit
    for u in C.units:
        for text in (u.original, u.translation):
            folded = normalize(text)
            for i in range(0, len(text) - 2, 7):
                span = text[i : i + 3]
                if not span.strip() or any(ch.isspace() for ch in span):
                    continue
                assert normalize(span) in folded, (u.id, span)
                assert u in C.search(span), (u.id, span)


def test_the_domain_table_joins_what_it_lists() -> None:
    for variant, form in normalize_module._DOMAIN:
        assert normalize(variant) == normalize(form), (variant, form)
    # what OpenCC alone leaves apart, the table joins (why each pair is there)
    for a, b in (("尅", "剋"), ("劔", "劍"), ("妝", "粧"), ("戶", "戸"), ("鬥", "闘"), ("篷", "蓬")):
        assert normalize(a) == normalize(b), (a, b)
    # and distinct characters stay distinct
    for a, b in (("己", "巳"), ("已", "巳"), ("子", "午"), ("剋", "刑"), ("傳", "轉")):
        assert normalize(a) != normalize(b), (a, b)


def test_keys_are_normalised_once_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # a lookup normalises what it is asked (and, with a 課 suffix, the name without it), nothing else
    calls: list[str] = []
    real = corpus_module.normalize

    def counting(term: str) -> str:
        calls.append(term)
        return str(real(term))

    monkeypatch.setattr(corpus_module, "normalize", counting)
    c = corpus()
    for name, ask in (("重審", c.method), ("蒿矢課", c.method), ("龍首", c.pattern), ("騰蛇", c.general)):
        calls.clear()
        assert ask(name) is not None
        assert len(calls) <= 2, (name, calls)
    calls.clear()
    assert c.general_on("青竜", "子") is not None and c.general_on(General.貴人, Branch.子) is not None
    assert len(calls) <= 1, calls
    calls.clear()
    assert c.search("贵人") and calls == ["贵人"]


# ---------------------------------------------------------------------------------------------
# python -m texts --help, and options it does not know
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_usage_and_exits_0(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main([flag]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("使い方: python -m texts") and "--help" in out and "贵人" in out and not err


def test_help_wins_over_terms_and_an_unknown_option_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["貴人", "--help"]) == 0 and capsys.readouterr().out.startswith("使い方:")
    assert cli_main(["--verbose", "貴人"]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "知らないオプション「--verbose」" in err and "--help" in err
    assert cli_main(["--", "-x"]) == 1  # after --, a term may start with '-': searched, not found
    assert "《心印賦》に「-x」に当たるものはない" in capsys.readouterr().err


def test_python_dash_m_texts_help() -> None:
    done = subprocess.run([sys.executable, "-m", "texts", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("使い方: python -m texts") and not done.stderr
    done = subprocess.run([sys.executable, "-m", "texts", "--nope"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and not done.stdout
