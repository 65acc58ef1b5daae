"""The documentation cannot silently rot: links, code references, glossary identifiers, commands.

- every relative link in README.md and docs/*.md names a file that exists (and a heading, if it
  has a ``#fragment``);
- every ``engine/x.py: name`` reference in docs/*.md names a real attribute of that module;
- every identifier in docs/glossary.md resolves in the module its row names, and the glossary
  covers every member of the domain's enums;
- docs/rules.md documents every field of ``School``, and the counts it states hold;
- docs/usage.md documents every slash command the bot registers, and no other;
- the README starts with the virtual environment, then the two commands CI runs, verbatim;
- nothing cites RULES.md (a file outside the repository), and every ``docs/rules.md §N`` names
  a section that exists.

The examples in docs/*.md and in the engine's and the texts' docstrings run as doctests
(pyproject.toml: ``--doctest-modules --doctest-glob=*.md``).
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import unicodedata
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted([ROOT / "README.md", *DOCS.glob("*.md")])
INSTALL = 'pip install -e ".[bot]" && python -m bot'  # the bot is the [bot] extra
TEST = 'pip install -e ".[test]" && python -m pytest -q'

# [text](target) and ![alt](target), not inside inline code; <img src="…"> too.
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMG = re.compile(r"<img\s[^>]*src=\"([^\"]+)\"")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
# `engine/transmissions.py: three_transmissions`, `engine/symbols.py: Branch.clash`
CODE_REF = re.compile(r"`((?:engine|texts|bot)/[\w/]+\.py): ([\w.]+)`")
IDENTIFIER = re.compile(r"`([^`]+)`")


def prose(text: str) -> str:
    """The page without fenced code blocks (examples may show link-like text that is not a link)."""
    return FENCE.sub("", text)


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = INLINE_CODE.sub(lambda m: m.group(0)[1:-1], heading.strip()).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        if line.startswith("#"):
            base = slug(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    text = INLINE_CODE.sub("", prose(path.read_text(encoding="utf-8")))
    return LINK.findall(text) + IMG.findall(text)


def module_of(path: str) -> ModuleType:
    return importlib.import_module(path.removesuffix(".py").replace("/", "."))


def resolve(module: ModuleType, dotted: str) -> Any:
    """``module.a.b``; a dataclass field without a class attribute counts as the last part."""
    value: Any = module
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        if hasattr(value, part):
            value = getattr(value, part)
        elif (
            i == len(parts) - 1 and isinstance(value, type) and dataclasses.is_dataclass(value)
            and part in {f.name for f in dataclasses.fields(value)}
        ):
            return value
        else:
            raise AttributeError(f"{dotted}: {value!r} has no attribute {part!r}")
    return value


def test_pages_exist() -> None:
    for name in ("rules.md", "glossary.md", "library.md", "calendar.md", "usage.md"):
        assert (DOCS / name).is_file(), name


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_point_at_files_and_headings(page: Path) -> None:
    broken: list[str] = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …
            continue
        where, _, fragment = target.partition("#")
        file = (page.parent / where).resolve() if where else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {page_id(file)}")
    assert not broken, f"{page_id(page)}: " + "; ".join(broken)


def test_link_check_sees_links() -> None:
    """The link pattern finds the README's links, so the test above cannot pass by finding none."""
    found = links(ROOT / "README.md")
    assert "docs/rules.md" in found and "docs/glossary.md" in found and "LICENSE" in found


def test_slug_follows_github() -> None:
    assert slug(" 4.1 伏吟 (k = 0; ¶75)") == "41-伏吟-k--0-75"
    assert slug(" School options") == "school-options"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=page_id)
def test_code_references_name_real_attributes(page: Path) -> None:
    missing: list[str] = []
    for path, name in CODE_REF.findall(page.read_text(encoding="utf-8")):
        try:
            resolve(module_of(path), name)
        except (ImportError, AttributeError) as error:
            missing.append(f"{path}: {name} ({error})")
    assert not missing, f"{page_id(page)} names code that does not exist: " + "; ".join(missing)


def test_rules_cite_code_for_every_step() -> None:
    """docs/rules.md keeps naming the implementing function (a rewrite that drops them fails)."""
    refs = CODE_REF.findall((DOCS / "rules.md").read_text(encoding="utf-8"))
    assert len(refs) >= 40
    named = {name for _, name in refs}
    for name in ("three_transmissions", "four_lessons", "plate_for", "yuejiang_at", "place_generals",
                 "facts", "classify", "School"):
        assert name in named, name


def glossary_rows() -> list[tuple[str, list[str], str]]:
    """(term, identifiers, module path) for every table row of the glossary."""
    rows: list[tuple[str, list[str], str]] = []
    for line in (DOCS / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("term", "") or set(cells[0]) <= {"-"}:
            continue
        term, _, _, _, identifiers, module = cells
        rows.append((term, IDENTIFIER.findall(identifiers), module.strip("`")))
    return rows


def test_glossary_has_rows() -> None:
    rows = glossary_rows()
    assert len(rows) >= 120
    assert sum(len(ids) for _, ids, _ in rows) >= 130


def test_glossary_identifiers_resolve() -> None:
    missing: list[str] = []
    for term, identifiers, path in glossary_rows():
        try:
            module = module_of(path)
        except ImportError as error:
            missing.append(f"{term}: module {path} ({error})")
            continue
        for identifier in identifiers:
            try:
                resolve(module, identifier)
            except AttributeError:
                missing.append(f"{term}: {path} has no {identifier}")
    assert not missing, "; ".join(missing)


@pytest.mark.parametrize(
    ("enum_path", "enum_name"),
    [("engine/terms.py", name) for name in ("General", "Method", "Frame", "Relation", "Kin", "Role", "PatternName")],
)
def test_glossary_covers_every_member(enum_path: str, enum_name: str) -> None:
    enum: type[Enum] = getattr(module_of(enum_path), enum_name)
    listed = {i for _, ids, path in glossary_rows() if path == enum_path for i in ids}
    absent = [m.name for m in enum if f"{enum_name}.{m.name}" not in listed]
    assert not absent, f"docs/glossary.md lacks {enum_name}: {' '.join(absent)}"


def test_rules_document_every_school_option() -> None:
    from engine.school import School

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## School options") :]
    absent = [f.name for f in dataclasses.fields(School) if f"`{f.name}`" not in section]
    assert not absent, f"docs/rules.md § School options lacks {absent}"


def test_readme_starts_with_the_venv_then_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert "venv" in lines[0] and "activate" in lines[0]
    assert lines[1:3] == [INSTALL, TEST]


def test_ci_runs_the_readme_test_command() -> None:
    ci = ROOT / ".ci" / "run"
    if not ci.exists():
        pytest.skip(".ci/run is not in this checkout")
    assert TEST in ci.read_text(encoding="utf-8").splitlines()


def test_readme_stays_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 130


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_docs_do_not_point_at_a_file_users_lack(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "RULES.md" not in text and "RULES §" not in text and "shared/" not in text


CITES_RULES = re.compile(r"RULES(?:\.md| §)")


def test_nothing_cites_the_rules_file_users_lack() -> None:
    """Code and docs cite docs/rules.md §N (same section numbers), never RULES.md, which is not in the repository."""
    citing = []
    for folder in ("engine", "texts", "bot", "tests", "tools", "bench", "testkit", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md", ".toml", ".txt") or path == Path(__file__):
                continue
            if CITES_RULES.search(path.read_text(encoding="utf-8", errors="replace")):
                citing.append(str(path.relative_to(ROOT)))
    assert not citing, f"cite docs/rules.md §N instead of RULES (a file users do not have): {sorted(citing)}"


def test_rules_md_counts_hold() -> None:
    """The counts docs/rules.md states in words (§4.2, §7) hold for the engine as it is."""
    from engine import School, cast_classical
    from engine.patterns import detect
    from engine.symbols import PILLARS, Branch

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "17 of the 720 charts" in text and "丁丑 day with the 天盤 nine" in text
    seal: set[tuple[str, int]] = set()
    snake: set[tuple[str, int, bool]] = set()
    no_reliance: set[str] = set()
    for school in (School(), School(shehai_depth_first=True), School(fuyin_repeat_clash=True)):
        for day in PILLARS:
            # Every plate k at the 午 hour (晝) and at the 子 hour (夜): the generals differ only by 晝夜.
            for k, hour in ((k, h) for k in range(12) for h in (Branch.午, Branch.子)):
                if school != School() and hour == Branch.子:
                    continue  # the 三伝 depend on the plate alone
                chart = cast_classical(day, hour + k, hour, school=school)
                t = chart.transmissions
                # ¶155 read literally: 初伝 戌 on 地盤 巳 never occurs (§7).
                assert not (t.initial == Branch.戌 and chart.plate.down(Branch.戌) == Branch.巳), (day, hour)
                if school != School():
                    continue
                names = {str(p.name) for p in detect(chart)}
                if "鋳印" in names:
                    seal.add((str(day), chart.plate.offset))
                if "冬蛇掩目" in names:
                    snake.add((str(day), chart.plate.offset, chart.generals.daytime))
                assert "虎視転蓬" not in names
                if str(t.method) == "無依":
                    no_reliance.add(str(day))
    assert len(seal) == 17 and {k for _, k in seal} == {5}
    assert snake == {("丁丑", 9, True)}
    assert no_reliance == {"丁丑", "己丑", "辛丑", "丁未", "己未", "辛未"}


def test_citations_of_rules_sections_name_real_sections() -> None:
    """``docs/rules.md §4.4`` anywhere in the repository names a numbered section of docs/rules.md."""
    headings = set()
    for line in (DOCS / "rules.md").read_text(encoding="utf-8").splitlines():
        found = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if found:
            headings.add(found.group(1))
    assert {"1", "2", "3", "4", "4.1", "4.7", "5", "6", "7", "8"} <= headings
    wrong = []
    for folder in ("engine", "texts", "bot", "tests", "tools", "bench", "testkit", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md", ".toml"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for section in re.findall(r"rules\.md §(\d+(?:\.\d+)?)", text):
                if section not in headings:
                    wrong.append(f"{path.relative_to(ROOT)}: §{section}")
    assert not wrong, f"docs/rules.md has no such section: {wrong}"


def registered_commands() -> set[str]:
    """The slash commands the bot registers, read from its source: ``cast``, ``daily set`` …"""
    found: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        groups = dict(re.findall(r"(\w+) = app_commands\.Group\(\s*name=\"(\w+)\"", source))
        found.update(re.findall(r"app_commands\.command\(name=\"(\w+)\"", source))
        for variable, name in re.findall(r"@(\w+)\.command\(name=\"(\w+)\"", source):
            if variable != "app_commands":
                found.add(f"{groups[variable]} {name}")
    return found


def test_usage_documents_every_slash_command() -> None:
    registered = registered_commands()
    assert {"cast", "chart", "lookup", "help", "daily set"} <= registered
    text = (DOCS / "usage.md").read_text(encoding="utf-8")
    documented = {f"{name} {sub}".strip() for name, sub in re.findall(r"`/([a-z]+)(?: ([a-z]+)(?![\w:]))?", text)}
    groups = {c.split(" ")[0] for c in registered if " " in c}
    missing = sorted(c for c in registered if c not in documented)
    unknown = sorted(c for c in documented if c not in registered and c.split(" ")[0] not in groups | registered)
    assert not missing, f"docs/usage.md does not document {missing}"
    assert not unknown, f"docs/usage.md documents commands the bot does not have: {unknown}"
