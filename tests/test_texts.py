"""The 《心印賦》 corpus against the seed it was cut from (texts/seed/000_bc2579445fc12f06.txt).

Every expectation here is derived from the seed text or from docs/rules.md, not from the corpus data.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import texts
from engine.terms import GENERALS as ENGINE_GENERALS
from texts import shipped
from texts.cli.lookup import main as cli_main
from texts.corpus import DATA, Corpus, CorpusError, Unit, corpus, load, parse
from texts.corpus.normalize import normalize

SEED_PATH = Path(texts.__file__).parent / "seed" / "000_bc2579445fc12f06.txt"
SEED = SEED_PATH.read_text(encoding="utf-8").split("\n")
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
# the generals as the corpus names them (the engine's General values; str() is the name)
GENERALS = tuple(str(g) for g in ENGINE_GENERALS)


def line(n: int) -> str:
    """Seed line n (1-based, as "¶n")."""
    return SEED[n - 1]


def nonblank(first: int, last: int) -> list[int]:
    return [n for n in range(first, last + 1) if line(n)]


C = corpus()

# ---------------------------------------------------------------------------------------------
# the seed copy itself
# ---------------------------------------------------------------------------------------------


def test_seed_copy_is_the_shared_seed() -> None:
    assert len(SEED) == 177 and line(39).startswith("六壬如人") and line(177).startswith("三伝が巳・酉・丑")
    shared = Path("/work/shared/seed/000_bc2579445fc12f06.txt")
    if shared.exists():
        assert shared.read_bytes() == SEED_PATH.read_bytes()


# ---------------------------------------------------------------------------------------------
# verbatim and complete
# ---------------------------------------------------------------------------------------------


def test_every_original_and_translation_is_verbatim_on_its_line() -> None:
    for u in C.units:
        if u.original:
            assert u.original_line is not None and u.original in line(u.original_line), u.id
        if u.translation:
            assert u.translation_line is not None and u.translation in line(u.translation_line), u.id


def test_units_partition_every_seed_line() -> None:
    # Strict coverage: the texts a line's units take from it, in corpus order, spell the line
    # exactly — nothing left out, nothing taken twice, nothing out of order. Front matter included.
    parts: dict[int, list[str]] = defaultdict(list)
    for u in C.units:
        if u.original_line is not None:
            parts[u.original_line].append(u.original)
        if u.translation_line is not None:
            parts[u.translation_line].append(u.translation)
    for n in nonblank(1, len(SEED)):
        assert "".join(parts[n]) == line(n), f"¶{n} is not exactly covered"
    assert all(line(n) for n in parts), "a unit cites a blank line"


def test_a_translation_is_the_next_paragraph_of_its_original() -> None:
    for u in C.units:
        if u.original_line is not None and u.translation_line is not None:
            assert u.translation_line == u.original_line + 2 and line(u.original_line + 1) == "", u.id
        if u.original_line is not None and u.original_line >= 39:
            assert (u.original_line - 39) % 4 == 0, u.id  # classical paragraphs: ¶39, ¶43, …
        if u.translation_line is not None and u.translation_line >= 39:
            assert (u.translation_line - 41) % 4 == 0, u.id


def test_only_the_translation_note_of_93_lacks_an_original_and_only_the_title_a_translation() -> None:
    # ¶93 opens with a sentence of the translator's own (「天乙貴人」が十二地支に落ちると…) that
    # translates no classical words; ¶1 (the title) has no translation.
    assert [u.id for u in C.units if not u.original] == ["general.貴人.note"]
    assert [u.lines for u in C.units if not u.translation] == [(1,)]


def test_kinds_follow_the_parts_of_the_book() -> None:
    for u in C.units:
        first = u.lines[0]
        if first < 39:
            assert u.kind == "front-matter", u.id
        elif first <= 83:
            assert u.kind in ("procedure", "method"), u.id
        elif first <= 135:
            assert u.kind in ("general", "general-on-branch"), u.id
        else:
            assert u.kind == "pattern", u.id


def test_terms_keep_the_seed_forms() -> None:
    # classical lines write 傳 將 專, the Japanese ones 伝 将 専 (checked on the seed, then the units)
    for u in C.units:
        if u.lines[0] >= 39:
            assert not set("伝将専") & set(u.original), u.id
            assert not set("傳將專") & set(u.translation), u.id
    rule = C.get("method.賊剋")  # ¶51 須求三傳以為發用 / ¶53 「三伝」を求めて発用とする
    assert "三傳" in rule.original and "三伝" in rule.translation


# ---------------------------------------------------------------------------------------------
# the generals and their name lines (¶87–¶135)
# ---------------------------------------------------------------------------------------------

NAME_LINES = {  # seed line of each general's name line
    91: "貴人", 95: "騰蛇", 99: "朱雀", 103: "六合", 107: "勾陳", 111: "青龍",
    115: "天后", 119: "太陰", 123: "玄武", 127: "太常", 131: "白虎", 135: "天空",
}
# branches the seed names without a "（子）" marker, with the words that name them
UNMARKED = {
    ("貴人", "巳"): "巳午受貢",  # ¶91
    ("貴人", "午"): "巳午受貢",
    ("貴人", "辰"): "辰戌懷怒",
    ("貴人", "戌"): "辰戌懷怒",
    ("玄武", "寅"): "愛寅兮",  # ¶123
    ("玄武", "辰"): "愁辰兮",
    ("太常", "亥"): "亥為徵召",  # ¶127
    ("太常", "酉"): "酉作券書",
}
EXCLUDES = {  # ¶95 （不加戌亥）, ¶99 （不加酉戌亥子）, ¶103 （不加申酉戌亥子）
    "騰蛇": "戌亥", "朱雀": "酉戌亥子", "六合": "申酉戌亥子",
}


def named_pairs() -> dict[tuple[str, str], str]:
    """(general, branch) → the seed words that name it, read from the seed itself."""
    pairs: dict[tuple[str, str], str] = {}
    for n, g in NAME_LINES.items():
        for m in re.finditer(f"（([{BRANCHES}]+)）", line(n)):
            for b in m.group(1):
                assert (g, b) not in pairs, (g, b)
                pairs[g, b] = m.group(0)
    for (g, b), words in UNMARKED.items():
        n = next(k for k, v in NAME_LINES.items() if v == g)
        assert words in line(n) and (g, b) not in pairs
        pairs[g, b] = words
    return pairs


def test_the_seed_names_130_pairs_white_tiger_lacks_si_and_hai_heavenly_void_has_none() -> None:
    pairs = named_pairs()
    per_general = {g: "".join(b for b in BRANCHES if (g, b) in pairs) for g in GENERALS}
    assert per_general["白虎"] == "子丑寅卯辰午未申酉戌"
    assert per_general["天空"] == ""
    assert all(per_general[g] == BRANCHES for g in GENERALS if g not in ("白虎", "天空"))
    assert len(pairs) == 130


def test_every_named_pair_has_its_unit_and_no_other_pair_does() -> None:
    pairs = named_pairs()
    for g in GENERALS:
        for b in BRANCHES:
            u = C.general_on(g, b)
            if (g, b) not in pairs:
                assert u is None, (g, b)
                continue
            assert u is not None, (g, b)
            assert u.kind == "general-on-branch" and str(u.general) == g and b in u.branches
            assert pairs[g, b] in u.original, (g, b, u.original)
            assert u.original_line == next(k for k, v in NAME_LINES.items() if v == g)


def test_one_clause_for_two_branches_serves_both() -> None:
    both = C.general_on("貴人", "巳")
    assert both is not None and both is C.general_on("貴人", "午")
    assert both.original == "巳午受貢兮君喜臣歡，" and both.branches == ("巳", "午")
    assert "受貢" in both.keys and "巳・午に臨むのを「受貢」" in both.translation


def test_the_example_of_the_issue() -> None:
    u = C.general_on("貴人", "子")
    assert u is not None and u.id == "general.貴人.子"
    assert u.original == "解紛（子）必囑事於童僕，"
    assert u.translation == "貴人が子に臨むのを「解紛」といい、事を童僕に託して行うのが宜しい。"
    assert u.lines == (91, 93) and "解紛" in u.keys


def test_the_names_are_the_keys_the_translation_quotes() -> None:
    for u in C.units:
        if u.kind != "general-on-branch":
            continue
        names = u.keys[1 + len(u.branches) :]
        assert names, u.id
        quoted = re.findall(r"臨むのを「([^」]+)」", u.translation)
        if names in (("徵召",), ("券書",)):  # ¶127 亥為徵召, 酉作券書: no 「」 in ¶129
            assert not quoted and names[0] in u.original
        else:
            assert list(names) == quoted, u.id  # every name the translation gives, in its order


def test_openings_and_their_excluded_branches() -> None:
    for g in GENERALS:
        u = C.general(g)
        assert u is not None and u.kind == "general" and u.id == f"general.{g}", g
        assert u.excludes == tuple(EXCLUDES.get(g, "")), g
        assert ("（不加" in u.original) == (g in EXCLUDES)
        if g == "貴人":  # ¶91 has no opening; 天乙居中 (¶87) is 貴人's own line: 天乙乃貴人也
            assert u.original.startswith("天乙居中，後六前五。") and u.original_line == 87
        elif g == "天空":
            assert u.original == line(135)
        else:  # the opening is the first words of the general's name line
            n = next(k for k, v in NAME_LINES.items() if v == g)
            assert line(n).startswith(u.original) and g in u.original
    but = C.general("騰蛇")
    assert but is not None and but.original == "但見騰蛇，驚疑擾亂。（不加戌亥）"


# ---------------------------------------------------------------------------------------------
# methods (docs/rules.md §4) and named patterns (docs/rules.md §7)
# ---------------------------------------------------------------------------------------------

METHODS = (
    "伏吟", "自任", "自信", "反吟", "無依", "八専", "重審", "元首", "比用", "知一",
    "渉害", "見機", "察微", "綴瑕", "遙剋", "蒿矢", "弾射", "昴星", "別責",
)
METHODS_WITHOUT_A_RULE_LINE = ("自任", "自信", "綴瑕")
PATTERNS = (
    "元首", "重審", "知一", "見機", "察微", "蒿矢", "弾射", "昴星", "別責", "八専", "伏吟", "自任",
    "自信", "反吟", "無依", "冬蛇掩目", "虎視転蓬", "帷簿", "龍首", "龍戦", "官爵", "富貴", "斫輪",
    "鋳印", "高蓋乗軒", "蕪淫", "淫女", "三交", "九醜", "斬関", "遊子", "天獄", "天網", "玄胎",
    "贅婿", "無禄", "絶嗣", "励徳", "乱首", "稼穡", "曲直", "従革", "炎上", "潤下",
)
PATTERNS_WITHOUT_A_VERSE = ("察微", "昴星")
# the seed's word for a method where it is not the docs/rules.md name: ¶63 calls 遙剋 "遙嗔" in its verse
SEED_WORD = {"遙剋": "遙嗔"}


def test_methods_without_a_rule_line_are_absent_from_the_rules_part_of_the_seed() -> None:
    rules_part = "".join(line(n) for n in range(39, 89))  # ¶39–¶85: the casting rules
    whole = "\n".join(SEED)
    assert "綴瑕" not in whole and "復等" not in whole  # 綴瑕 is docs/rules.md' own name, not the seed's
    for name in ("自任", "自信"):  # named only in ¶147/¶149 (伏吟任信), a pattern verse
        assert name not in rules_part
        assert [n for n in range(1, len(SEED) + 1) if name in line(n)] == [147, 149]
    for name in METHODS_WITHOUT_A_RULE_LINE:
        assert C.method(name) is None, name


def test_every_other_method_has_its_rule_unit() -> None:
    for name in METHODS:
        if name in METHODS_WITHOUT_A_RULE_LINE:
            continue
        u = C.method(name)
        assert u is not None and u.kind == "method", name
        assert u.original_line is not None and 51 <= u.original_line <= 83, name
        assert name in u.keys, name  # keyed in the docs/rules.md form
        word = SEED_WORD.get(name, name)
        assert normalize(word) in normalize(u.original + u.translation), name


def test_patterns_without_a_verse_are_absent_from_the_pattern_part_of_the_seed() -> None:
    pattern_part = [line(n) for n in range(139, len(SEED) + 1)]
    assert not any("察微" in t for t in pattern_part)  # 察微 is named only at ¶59/¶61
    # 昴星 appears there only as the condition of 冬蛇掩目 and 虎視転蓬 (¶147 昴星卦有騰蛇/白虎發用)
    hits = sum(t.count("昴星") for t in pattern_part)
    conditions = ("昴星卦有騰蛇發用", "昴星卦有白虎發用", "昴星課であって騰蛇", "昴星課であって白虎")
    assert hits == sum(t.count(c) for t in pattern_part for c in conditions) == 4
    for name in PATTERNS_WITHOUT_A_VERSE:
        assert C.pattern(name) is None, name


def test_every_other_pattern_has_its_verse_and_annotation() -> None:
    for name in PATTERNS:
        if name in PATTERNS_WITHOUT_A_VERSE:
            continue
        u = C.pattern(name)
        assert u is not None and u.kind == "pattern", name
        assert u.original_line is not None and 139 <= u.original_line <= 175, name
        assert name in u.keys, name
        assert normalize(name) in normalize(u.original), name
        verse, mark, note = u.original.partition("○")
        assert verse and mark and note, name  # the verse, then its annotation


def test_names_sharing_one_passage_point_to_it() -> None:
    assert C.pattern("蒿矢") is C.pattern("弾射") is C.pattern("遙剋")
    assert C.pattern("元首") is C.pattern("重審")
    assert C.pattern("斫輪") is C.pattern("鋳印")
    assert C.pattern("八専") is C.pattern("帷簿")
    assert C.pattern("伏吟") is C.pattern("自任") is C.pattern("自信")
    assert C.pattern("反吟") is C.pattern("無依")


def test_method_and_pattern_of_one_name_are_different_passages() -> None:
    rule, meaning = C.method("元首"), C.pattern("元首")
    assert rule is not None and meaning is not None
    assert "名曰元首課" in rule.original and meaning.original.startswith("元首象天")


# ---------------------------------------------------------------------------------------------
# lookups
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [("三伝", "三傳"), ("八専", "八專"), ("遙剋", "遥克"), ("青竜", "青龍"), ("渉害", "涉害"),
     ("月将", "月將"), ("弾射", "彈射"), ("九醜", "九丑"), ("懸劔", "懸劍")],
)
def test_normalize_folds_the_seed_forms(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)
    assert C.search(a) == C.search(b) != ()


def test_lookups_accept_either_form() -> None:
    assert C.method("八專") is C.method("八専") is not None
    assert C.method("遙克") is C.method("遙剋") is not None
    assert C.method("蒿矢課") is C.method("蒿矢")
    assert C.pattern("龍戰") is C.pattern("竜戦") is C.pattern("龍戦") is not None
    assert C.general("青竜") is C.general("青龍") is not None
    assert C.general("天乙") is C.general("貴人")
    assert C.general_on("青竜", "子") is C.general_on("青龍", "子") is not None
    assert C.general("子") is None and C.method("龍首") is None and C.pattern("重審課") is not None


def test_general_on_accepts_a_branch_enum() -> None:
    from engine.symbols import Branch

    assert C.general_on("貴人", Branch.子) is C.general_on("貴人", "子") is not None


def test_search_finds_terms_and_names() -> None:
    assert [u.id for u in C.search("解紛")] == ["general.貴人.子"]
    hits = {u.id for u in C.search("蒿矢")}
    assert {"method.蒿矢", "pattern.遙剋"} <= hits
    assert all("蒿矢" in u.original + u.translation for u in C.search("蒿矢"))
    assert C.search("") == () and C.search("  ") == ()
    升堂 = {u.id for u in C.search("升堂")}
    assert {"general.貴人.丑", "general.六合.午卯", "general.勾陳.辰", "general.玄武.丑"} <= 升堂


def test_terms_cover_every_name_the_seed_has_once() -> None:
    terms = C.terms()
    assert len(terms) == len(set(terms))
    for name in (*METHODS, *PATTERNS, *GENERALS, "天乙", "解紛", "受貢", "井欄"):
        assert (name in terms) == (name != "綴瑕"), name  # 綴瑕 is not in the seed at all
    assert not set(BRANCHES) & set(terms)


def test_paragraph_returns_a_lines_units_in_order() -> None:
    units = C.paragraph(51)
    assert "".join(u.original for u in units) == line(51)
    assert "".join(u.translation for u in units) == line(53)


# ---------------------------------------------------------------------------------------------
# the package: immutable units, one load, errors that name the unit
# ---------------------------------------------------------------------------------------------


def test_units_are_immutable() -> None:
    u = C.units[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.id = "x"  # type: ignore[misc]
    assert not hasattr(u, "__dict__")
    for u in C.units:
        for f in ("lines", "keys", "branches", "excludes", "names_by_branch", "unreachable", "aliases", "notes"):
            assert isinstance(getattr(u, f), tuple), (u.id, f)
        hash(u)  # units are values: usable as keys and in sets
    assert isinstance(C.units, tuple)


def test_corpus_is_loaded_once() -> None:
    assert corpus() is corpus()
    assert load() == corpus()


def raw() -> dict[str, Any]:
    """A fresh parse of the corpus to break (the kept parse when there is one: each case
    had parsed the 400 KB file twice with tomllib; test_shipped checks the two agree)."""
    return shipped.load(DATA)


def broken(index: int, **changes: Any) -> dict[str, Any]:
    data = raw()
    data["unit"][index].update(changes)
    return data


def unit_index(unit_id: str) -> int:
    return next(i for i, t in enumerate(raw()["unit"]) if t["id"] == unit_id)


@pytest.mark.parametrize(
    ("unit_id", "changes", "message"),
    [
        ("general.貴人.子", {"kind": "general-on-brunch"}, "kind 'general-on-brunch' is not one of"),
        ("general.貴人.子", {"branches": ["丒"]}, "branches ['丒'] must be distinct branches"),
        ("method.弾射", {"id": "method.蒿矢"}, "duplicate id"),
        ("general.貴人.子", {"orignal": "x"}, "unknown field 'orignal'"),
        ("general.貴人.子", {"lines": [91]}, "must give one seed line per non-empty text"),
        ("general.貴人.子", {"general": "貴神"}, "general '貴神' is not one of"),
        ("method.蒿矢", {"keys": []}, "keys [] must be non-empty"),
        ("method.蒿矢", {"lines": "63"}, "field 'lines' must be a list"),
        ("method.蒿矢", {"original": "", "translation": "", "lines": []}, "both empty"),
        ("method.蒿矢", {"branches": ["子"]}, "only general-on-branch units have branches"),
        ("general.騰蛇", {"excludes": ["戌", "戌"]}, "excludes ['戌', '戌'] must be distinct"),
    ],
)
def test_a_bad_unit_is_reported_by_id(unit_id: str, changes: dict[str, Any], message: str) -> None:
    data = broken(unit_index(unit_id), **changes)
    with pytest.raises(CorpusError) as e:
        parse(data)
    reported = changes.get("id", unit_id)
    assert f"unit {reported!r}" in str(e.value) and message in str(e.value)


def test_two_units_for_one_pair_are_reported() -> None:
    data = raw()
    i = unit_index("general.貴人.丑")
    data["unit"][i].update(id="general.貴人.丑子", branches=["丑", "子"], keys=["貴人", "丑", "子", "升堂"],
                           names_by_branch={"丑": "升堂", "子": "升堂"})
    with pytest.raises(CorpusError, match=r"unit 'general\.貴人\.丑子': 貴人 on 子 is already 'general\.貴人\.子'"):
        parse(data)


def test_a_missing_field_and_bad_toml_are_reported(tmp_path: Path) -> None:
    data = raw()
    del data["unit"][unit_index("pattern.龍首")]["translation"]
    with pytest.raises(CorpusError, match=r"unit 'pattern\.龍首': missing field 'translation'"):
        parse(data)
    bad = tmp_path / "bad.toml"
    bad.write_text('[[unit]]\nid = "method.x\n', encoding="utf-8")
    with pytest.raises(CorpusError, match=r"bad\.toml: not valid TOML"):
        load(bad)


def test_a_corpus_without_an_opening_for_a_general_is_rejected() -> None:
    data = raw()
    data["unit"] = [t for t in data["unit"] if t["id"] != "general.天空"]
    with pytest.raises(CorpusError, match=r"no opening unit 'general\.天空'"):
        parse(data)


def test_seed_lines_of_a_unit() -> None:
    u = Unit("method.x", "method", "原文", "訳文", (1, 3), ("x",))
    assert (u.original_line, u.translation_line) == (1, 3)
    note = C.get("general.貴人.note")
    assert (note.original_line, note.translation_line) == (None, 93)
    title = C.get("front.title")
    assert (title.original_line, title.translation_line) == (1, None)


def test_a_corpus_of_a_few_units_is_rejected_for_its_missing_generals() -> None:
    with pytest.raises(CorpusError, match="no opening unit 'general\\.貴人'"):
        Corpus(tuple(u for u in C.units if u.kind == "pattern"))


# ---------------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------------


def test_cli_general_and_branch(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["貴人", "子"]) == 0
    out = capsys.readouterr().out
    assert "general.貴人.子" in out and "¶91" in out and "¶93" in out
    assert out.index("解紛（子）必囑事於童僕，") < out.index("貴人が子に臨むのを「解紛」")


def test_cli_notes_an_excluded_branch(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["六合", "子"]) == 0
    out = capsys.readouterr().out
    assert "反目（子）" in out and "は子を除く：不加申酉戌亥子" in out  # ¶103 （不加申酉戌亥子）
    assert cli_main(["六合", "寅"]) == 0 and "を除く：" not in capsys.readouterr().out


def test_cli_term(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["蒿矢"]) == 0
    out = capsys.readouterr().out
    assert "method.蒿矢" in out and "pattern.遙剋" in out and "曰蒿矢課" in out


@pytest.mark.parametrize(
    ("args", "hint"),
    [(["白虎", "巳"], "白虎が巳に臨む句がない"), (["天空", "子"], "天空の支ごとの名の句がない"),
     (["蒿失"], "もしかして：蒿矢"), (["貴神", "子"], "は天将ではない"), (["貴人", "十"], "は地支ではない")],
)
def test_cli_no_match_says_why(args: list[str], hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(args) == 1
    assert hint in capsys.readouterr().err


def test_cli_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main([]) == 2 and "使い方" in capsys.readouterr().err


def test_python_dash_m_texts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "texts", "貴人", "子"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "解紛（子）" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "texts", "ない言葉"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and "《心印賦》に「ない言葉」に当たるものはない" in done.stderr


# ---------------------------------------------------------------------------------------------
# ids are stable: a change here is a change the bot and saved references see
# ---------------------------------------------------------------------------------------------

IDS = (
    "front.title", "front.authors", "front.contents", "front.周元曙序.1", "front.周元曙序.2",
    "front.周元曙序.3", "front.周元曙序.題", "front.程起鸞序.1", "front.程起鸞序.2", "front.程起鸞序.題",
    "procedure.日辰", "procedure.月将", "procedure.四課", "method.賊剋", "method.重審", "method.元首",
    "method.重審元首", "procedure.相因", "method.比用渉害", "method.比用", "method.知一", "method.渉害",
    "method.見機", "method.察微", "method.渉害.中末", "method.遙剋", "method.蒿矢", "method.弾射",
    "method.遙剋.比用", "method.昴星", "method.別責", "method.伏吟反吟", "method.伏吟", "procedure.三刑",
    "method.反吟", "method.無依", "method.八専", "general.貴人", "general.貴人.note", "general.貴人.子",
    "general.貴人.丑", "general.貴人.寅", "general.貴人.卯", "general.貴人.巳午", "general.貴人.辰戌",
    "general.貴人.申", "general.貴人.未", "general.貴人.亥", "general.貴人.酉", "general.騰蛇",
    "general.騰蛇.亥", "general.騰蛇.丑", "general.騰蛇.寅酉", "general.騰蛇.巳午", "general.騰蛇.未",
    "general.騰蛇.子", "general.騰蛇.卯申", "general.騰蛇.戌辰", "general.朱雀", "general.朱雀.子",
    "general.朱雀.丑", "general.朱雀.寅卯", "general.朱雀.辰戌", "general.朱雀.申午", "general.朱雀.未亥",
    "general.朱雀.酉", "general.朱雀.巳", "general.六合", "general.六合.亥", "general.六合.巳",
    "general.六合.子", "general.六合.酉", "general.六合.寅申", "general.六合.辰戌", "general.六合.午卯",
    "general.六合.未丑", "general.勾陳", "general.勾陳.丑子", "general.勾陳.寅", "general.勾陳.巳",
    "general.勾陳.卯", "general.勾陳.酉", "general.勾陳.辰", "general.勾陳.午", "general.勾陳.未戌",
    "general.勾陳.申亥", "general.青龍", "general.青龍.未丑", "general.青龍.戌", "general.青龍.辰",
    "general.青龍.寅卯", "general.青龍.申酉", "general.青龍.巳午", "general.青龍.子亥", "general.天后",
    "general.天后.子亥", "general.天后.酉卯", "general.天后.戌午", "general.天后.巳辰",
    "general.天后.寅申", "general.天后.丑未", "general.太陰", "general.太陰.子", "general.太陰.丑",
    "general.太陰.戌", "general.太陰.辰", "general.太陰.寅午", "general.太陰.亥巳", "general.太陰.酉未",
    "general.太陰.卯申", "general.玄武", "general.玄武.子", "general.玄武.丑", "general.玄武.寅",
    "general.玄武.辰", "general.玄武.卯", "general.玄武.巳", "general.玄武.亥", "general.玄武.未",
    "general.玄武.午酉", "general.玄武.申戌", "general.太常", "general.太常.子", "general.太常.寅",
    "general.太常.卯", "general.太常.戌", "general.太常.申丑", "general.太常.巳未", "general.太常.午",
    "general.太常.辰", "general.太常.亥", "general.太常.酉", "general.白虎", "general.白虎.子",
    "general.白虎.午", "general.白虎.卯酉", "general.白虎.丑未", "general.白虎.寅", "general.白虎.戌",
    "general.白虎.申", "general.白虎.辰", "general.天空", "pattern.卦名", "pattern.元首重審",
    "pattern.知一", "pattern.見機", "pattern.遙剋", "pattern.別責", "pattern.冬蛇掩目", "pattern.虎視転蓬",
    "pattern.伏吟", "pattern.反吟", "pattern.八専", "pattern.龍首", "pattern.龍戦", "pattern.官爵",
    "pattern.富貴", "pattern.斫輪鋳印", "pattern.高蓋乗軒", "pattern.蕪淫", "pattern.淫女", "pattern.三交",
    "pattern.九醜", "pattern.斬関", "pattern.遊子", "pattern.天獄", "pattern.天網", "pattern.玄胎",
    "pattern.贅婿", "pattern.無禄", "pattern.絶嗣", "pattern.励徳", "pattern.乱首", "pattern.稼穡",
    "pattern.曲直", "pattern.従革", "pattern.炎上", "pattern.潤下",
)


def test_ids_are_unique_and_stable() -> None:
    ids = tuple(u.id for u in C.units)
    assert len(set(ids)) == len(ids)
    assert ids == IDS
