"""The editor's metadata on the corpus, checked against the seed and the engine.

- ``unreachable``: derived here twice, independently of the data: by casting every classical chart
  with the engine (both 貴人 tables, 晝 and 夜), and by the arithmetic of docs/rules.md §5.
- ``names_by_branch``: read back from the seed's （子） markers and the unmarked names.
- emendations and [sic] notes: the broken characters are found in the seed itself; the verbatim
  text keeps them and the display form marks every one.
- aliases 入林/失路: the CLI and the lookups find 玄武 on 寅/辰 by them.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import texts
from engine import cast_classical
from engine.school import School
from engine.symbols import BRANCHES, PILLARS, Branch
from engine.terms import GENERALS, General
from texts import shipped
from texts.cli.lookup import main as cli_main
from texts.corpus import BROKEN, DATA, CorpusError, corpus, parse
from texts.corpus.normalize import normalize

SEED = (Path(texts.__file__).parent / "seed" / "000_bc2579445fc12f06.txt").read_text(encoding="utf-8").split("\n")
C = corpus()
corpus_module = importlib.import_module("texts.corpus.units")  # the module whose docstring is the schema
CHARS = "子丑寅卯辰巳午未申酉戌亥"


def line(n: int) -> str:
    return SEED[n - 1]


def pairs_with_a_line() -> set[tuple[str, str]]:
    """(general, branch) of every name line (tests/test_texts.py checks these against the seed)."""
    return {(str(g), b) for g in GENERALS for b in CHARS if C.general_on(g, b) is not None}


def marked_unreachable() -> dict[tuple[str, str], str]:
    return {(str(u.general), b): reason for u in C.units for b, reason in u.unreachable}


# ---------------------------------------------------------------------------------------------
# unreachable pairs
# ---------------------------------------------------------------------------------------------


def pairs_cast_by_the_engine() -> set[tuple[str, str]]:
    """Every (general, 地盤 branch) any classical chart puts together: 60 days × 12 plate offsets,
    at a 晝 hour (午) and a 夜 hour (子), under both 貴人 tables."""
    seen: set[tuple[str, str]] = set()
    for table in ("甲牛", "甲羊"):
        school = School(noble_table=table)
        for day in PILLARS:
            for hour in (Branch.午, Branch.子):
                for k in range(12):
                    chart = cast_classical(day, hour + k, hour, school=school)
                    seen.update((str(g), BRANCHES[i].name) for i, g in enumerate(chart.generals.by_ground))
    return seen


def pairs_by_rules_5() -> set[tuple[str, str]]:
    """docs/rules.md §5 by hand: 貴人 stands on any 地盤 p; from 亥子丑寅卯辰 the i-th general is on p+i, else p−i."""
    clockwise = {CHARS.index(c) for c in "亥子丑寅卯辰"}
    return {
        (str(g), CHARS[(p + i if p in clockwise else p - i) % 12])
        for i, g in enumerate(GENERALS)
        for p in range(12)
    }


def test_the_engine_and_rules_5_agree_on_where_each_general_can_stand() -> None:
    assert pairs_cast_by_the_engine() == pairs_by_rules_5()


def test_unreachable_marks_exactly_the_35_lines_no_chart_reaches() -> None:
    reached = pairs_cast_by_the_engine()
    never = {pair for pair in pairs_with_a_line() if pair not in reached}
    assert len(never) == 35  # docs/rules.md §7: 35 of the 130 general-on-branch lines
    assert set(marked_unreachable()) == never
    assert ("白虎", "亥") in reached and C.general_on("白虎", "亥") is None  # reachable, and no line
    for g, b in pairs_with_a_line():
        u = C.general_on(g, b)
        assert u is not None and u.reachable(b) == ((g, b) in reached), (g, b)
        assert u.reachable(Branch[b]) == u.reachable(b)  # the engine's Branch works as well


def test_the_seeds_buxia_notes_are_among_the_unreachable_and_liuhe_on_chou_too() -> None:
    # ¶95 （不加戌亥）, ¶99 （不加酉戌亥子）, ¶103 （不加申酉戌亥子）: docs/rules.md §7 reads them as "can never stand"
    marked = marked_unreachable()
    for g, n in (("騰蛇", 95), ("朱雀", 99), ("六合", 103)):
        excludes = re.search(f"（不加([{CHARS}]+)）", line(n))
        assert excludes is not None
        assert {b for b in excludes.group(1)} <= {b for (h, b) in marked if h == g}, g
    assert ("六合", "丑") in marked and "丑" not in "申酉戌亥子"


def test_each_reason_names_the_rule_the_general_and_the_branch() -> None:
    for (g, b), reason in marked_unreachable().items():
        assert f"no chart puts {g} on {b}" in reason and "¶87" in reason and "docs/rules.md §5" in reason
        run = re.search(r"stands only on ([子丑寅卯辰巳午未申酉戌亥]+)", reason)
        assert run is not None and b not in run.group(1)
        assert {c for c in run.group(1)} == {h for (x, h) in pairs_by_rules_5() if x == g}


def test_cli_shows_an_unreachable_line_with_its_reason() -> None:
    done = subprocess.run([sys.executable, "-m", "texts", "騰蛇", "亥"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "掩目（亥）則無憂無患，" in done.stdout  # the line itself is still shown
    assert "亥には到達不能（" in done.stdout and "亥には到達不能：騰蛇を亥に置く盤はない" in done.stdout
    done = subprocess.run([sys.executable, "-m", "texts", "騰蛇", "子"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "墜水（子）" in done.stdout and "到達不能" not in done.stdout


# ---------------------------------------------------------------------------------------------
# one name per branch
# ---------------------------------------------------------------------------------------------

UNMARKED = {  # the seed's words naming a branch without a （子） marker (tests/test_texts.py)
    ("貴人", "巳"): "巳午受貢", ("貴人", "午"): "巳午受貢", ("貴人", "辰"): "辰戌懷怒", ("貴人", "戌"): "辰戌懷怒",
    ("玄武", "寅"): "愛寅兮", ("玄武", "辰"): "愁辰兮", ("太常", "亥"): "亥為徵召", ("太常", "酉"): "酉作券書",
}


def seed_names() -> dict[tuple[str, str], str]:
    """(general, branch) → the classical words just before its （…） marker (normalised), or the
    unmarked words that name it."""
    found: dict[tuple[str, str], str] = {}
    for u in C.units:
        if u.kind != "general-on-branch":
            continue
        for m in re.finditer(f"（([{CHARS}]+)）", u.original):
            for b in m.group(1):
                found[str(u.general), b] = normalize(u.original[: m.start()])
    for pair, words in UNMARKED.items():
        found[pair] = normalize(words)
    return found


def test_names_by_branch_follow_the_seeds_markers() -> None:
    names = seed_names()
    assert len(names) == 130
    for (g, b), before in names.items():
        u = C.general_on(g, b)
        assert u is not None
        name = u.name_on(b)
        assert name is not None and name in u.names, (g, b)
        if (g, b) in UNMARKED:
            assert normalize(name) in before, (g, b, name)
        else:  # the name stands right before the marker
            assert before.endswith(normalize(name)), (g, b, name, before)


def test_two_names_for_two_branches_name_one_each() -> None:
    u = C.general_on("六合", "午")
    assert u is not None and u is C.general_on("六合", Branch.卯)
    assert (u.name_on("午"), u.name_on(Branch.卯), u.name_on("子")) == ("升堂", "入室", None)
    shared = C.general_on("白虎", "卯")  # 臨門（卯酉）: one name for both
    assert shared is not None and shared.name_on("卯") == shared.name_on("酉") == "臨門"
    multi = [u for u in C.units if len(set(dict(u.names_by_branch).values())) > 1]
    assert multi and all(len(u.branches) == len(u.names) for u in multi)


# ---------------------------------------------------------------------------------------------
# broken characters and slips
# ---------------------------------------------------------------------------------------------


def broken_runs() -> list[tuple[int, str]]:
    """(seed line, run of U+FFFD) for every place the seed lost a character."""
    return [(n, m.group(0)) for n in range(1, len(SEED) + 1) for m in re.finditer(f"{BROKEN}+", line(n))]


def test_the_seed_has_four_broken_characters() -> None:
    assert [n for n, _ in broken_runs()] == [89, 93, 125, 165]


def test_every_broken_character_is_kept_and_marked_in_the_display() -> None:
    for n, run in broken_runs():
        units = [u for u in C.units if u.translation_line == n and run in u.translation]
        assert len(units) == 1, n
        u = units[0]
        assert u.translation in line(n) and run in u.translation  # the verbatim text keeps the fault
        (note,) = u.notes_of("emendation")
        assert note.at == run and note.field == "translation" and note.says
        assert u.display_translation == u.translation.replace(run, f"〔{note.read}〕")
    for u in C.units:
        assert BROKEN not in u.display_original + u.display_translation, u.id
        if not u.notes_of("emendation") and not u.notes_of("sic"):
            assert (u.display_original, u.display_translation) == (u.original, u.translation), u.id


def test_the_emendations_read_what_the_context_gives() -> None:
    read = {n: u.notes_of("emendation")[0].read for n, _ in broken_runs()
            for u in C.units if u.translation_line == n and BROKEN in u.translation}
    assert read[165] in C.get("pattern.天獄").original  # ¶163 天獄憂刑罪責: the verse's own 憂
    assert read[165] == "憂"
    after = line(125)[line(125).index(BROKEN * 3) + 3 :]
    assert after.startswith("でに") and read[125] == "す"  # すでに: nothing else ends in でに here
    assert line(89).endswith(BROKEN * 2) and read[89] == "。"  # the paragraph's last character
    assert read[93] == "。"  # between two sentences: 怒を含む | 在下の者は


def test_sic_notes_mark_the_two_slips_of_the_translation() -> None:
    slip = C.get("method.昴星")
    (sic,) = slip.notes_of("sic")
    assert "遥剣" in line(69) and "無遙克" in line(67)  # the classical line has 剋, not 剣
    assert (sic.at, normalize(sic.read)) == ("遥剣", normalize("遙克"))
    assert "遥剣〔ママ〕" in slip.display_translation and "遥剣" in slip.translation
    punish = C.get("method.伏吟")
    (sic,) = punish.notes_of("sic")
    assert "仍取刑為末傳" in line(75) and "末伝はなお剋される支を取る" in line(77)
    assert sic.at == "剋される" and "刑" in sic.read and "剋" not in sic.read
    assert "剋される〔ママ〕支" in punish.display_translation
    # The editor marks the original's three slips (¶143 岡濟 日遙克時, ¶147 轉篷) and the translation's
    # reading of the （不加…） openings (¶97 ¶101 ¶105) the same way: tests/test_reading_trust.py
    assert [u.id for u in C.units if u.notes_of("sic")] == [
        "method.昴星", "method.伏吟", "general.騰蛇", "general.朱雀", "general.六合", "pattern.遙剋",
        "pattern.別責", "pattern.虎視転蓬",
    ]


def test_cli_shows_the_display_text_and_the_note(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["天獄"]) == 0
    out = capsys.readouterr().out
    assert "刑罰・罪責の〔憂〕がある" in out and BROKEN not in out and "を〔憂〕と補う" in out


# ---------------------------------------------------------------------------------------------
# aliases 入林 / 失路
# ---------------------------------------------------------------------------------------------


def test_aliases_find_xuanwu_on_yin_and_chen() -> None:
    on_yin, on_chen = C.general_on("玄武", "寅"), C.general_on("玄武", "辰")
    assert on_yin is not None and on_chen is not None
    assert on_yin.aliases == ("入林",) and on_chen.aliases == ("失路",)
    assert "入林" in on_yin.original and "失路" in on_chen.original  # the verse's own words
    assert C.named("入林") == (C.general_on("騰蛇", "未"), on_yin)  # ¶95 入林（未）, then ¶123
    assert C.named("失路") == (on_chen,) and "失路" in C.terms()


def test_cli_lists_xuanwu_as_an_exact_match_for_its_alias(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["失路"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[general.玄武.辰]") and "別名失路" in out
    assert cli_main(["入林"]) == 0
    out = capsys.readouterr().out
    exact = out.split("\nほかに")[0]
    assert "[general.玄武.寅]" in exact and "[general.騰蛇.未]" in exact


# ---------------------------------------------------------------------------------------------
# the schema is validated at load
# ---------------------------------------------------------------------------------------------


def raw() -> dict[str, Any]:
    """A fresh parse of the corpus to break (the kept one when there is one: test_shipped
    checks it is what tomllib parses)."""
    return shipped.load(DATA)


def with_unit(unit_id: str, **changes: Any) -> dict[str, Any]:
    data = raw()
    table = next(t for t in data["unit"] if t["id"] == unit_id)
    for name, value in changes.items():
        if value is None:
            del table[name]
        else:
            table[name] = value
    return data


EMENDATION = {"kind": "emendation", "field": "translation", "at": BROKEN * 3, "read": "す", "says": "context"}


@pytest.mark.parametrize(
    ("unit_id", "changes", "message"),
    [
        ("general.玄武.申戌", {"notes": None}, "broken characters (U+FFFD) no emendation note covers"),
        ("general.玄武.申戌", {"notes": [{**EMENDATION, "at": "賊"}]}, "must be broken characters"),
        ("general.玄武.申戌", {"notes": [{**EMENDATION, "says": " "}]}, "must say why"),
        ("general.玄武.申戌", {"notes": [{**EMENDATION, "kind": "typo"}]}, "note kind 'typo' is not one of"),
        ("general.玄武.申戌", {"notes": [{**EMENDATION, "where": "x"}]}, "unknown note field(s) ['where']"),
        ("general.玄武.申戌", {"notes": [{**EMENDATION, "read": ""}]}, "needs 'at'"),
        ("method.昴星", {"notes": [{"kind": "sic", "at": "遥剣剣", "read": "x", "says": "s"}]}, "exactly once"),
        ("method.昴星", {"notes": [{"kind": "sic", "at": "遥剣", "read": "遥剣", "says": "s"}]}, "'read' ≠ 'at'"),
        ("general.玄武.寅", {"notes": None}, "alias '入林' needs a note of kind 'alias'"),
        ("general.玄武.寅", {"aliases": ["愛寅"], "notes": [{"kind": "alias", "field": "original", "at": "愛寅",
                                                            "read": "愛寅", "says": "s"}]}, "not already keys"),
        ("general.六合.午卯", {"names_by_branch": {"午": "升堂"}}, "must name each of the branches ['午', '卯']"),
        ("general.六合.午卯", {"names_by_branch": {"午": "升堂", "卯": "升堂"}}, "must use exactly the names"),
        ("general.六合.午卯", {"names_by_branch": None}, "must name each of the branches"),
        ("general.騰蛇.亥", {"unreachable": {"子": "r"}}, "unreachable branch 子 is not one of"),
        ("general.騰蛇.亥", {"unreachable": {"亥": ""}}, "unreachable 亥 needs a reason"),
        ("method.蒿矢", {"unreachable": {"亥": "r"}}, "only general-on-branch units have"),
        ("general.騰蛇.亥", {"unreachable": "亥"}, "field 'unreachable' must be a dict"),
    ],
)
def test_bad_metadata_is_reported_by_unit(unit_id: str, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(CorpusError) as e:
        parse(with_unit(unit_id, **changes))
    assert f"unit {unit_id!r}" in str(e.value) and message in str(e.value), str(e.value)


def test_the_schema_is_documented_where_the_data_is() -> None:
    head = DATA.read_text(encoding="utf-8").split("\n[[unit]]\n")[0]
    for name in ("names_by_branch", "aliases", "[unit.unreachable]", "[[unit.notes]]", "emendation", "sic"):
        assert name in head, name
    for name in ("names_by_branch", "unreachable", "aliases", "notes", "emendation", "sic", "display"):
        assert name in (corpus_module.__doc__ or ""), name


def test_general_is_the_engines_value() -> None:
    for u in C.units:
        if u.kind in ("general", "general-on-branch"):
            assert isinstance(u.general, General) and u.keys[0] == str(u.general)
