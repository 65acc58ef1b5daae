"""What `pip install liuren` installs and what the sdist carries.

- the core install (engine and texts: casting, the corpus, the reading, the ``liuren`` command) needs
  neither the bot's packages (discord.py, aiohttp, platformdirs) nor PostgreSQL's driver nor Pillow:
  with them made unimportable, a subprocess casts, reads and looks up; ``--png`` names the extra;
- pyproject.toml: the dependencies and extras say that too, the licence is a PEP 639 expression with
  its files, the typed packages ship ``py.typed``, every data file the code reads is installed;
- MANIFEST.in puts the whole tree in the sdist (tests, testkit, docs, data), so its suite runs;
- the links an install carries (``liuren cast --help``, the unit's ``Documentation=``) point at the
  project's published URL, at pages that exist.

Building the sdist and running its suite needs setuptools ≥ 77 from the index: .ci/run does that.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT: dict[str, Any] = PYPROJECT["project"]
EXTRAS: dict[str, list[str]] = PROJECT["optional-dependencies"]

# Import names of the packages the core install must do without, by the extra that brings each.
OPTIONAL = {"discord": "bot", "aiohttp": "bot", "platformdirs": "bot", "PIL": "picture", "isal": "picture",
            "psycopg": "postgres", "psycopg_pool": "postgres", "fontTools": "test", "mcp": "mcp", "mcp_types": "mcp"}

# Run in a fresh interpreter: these packages cannot be imported (as if not installed), then the
# core work, then which of them got imported anyway.
BLOCKED_RUN = """
import importlib.abc, sys
BLOCKED = {blocked!r}

class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Absent())
{body}
print("LOADED", sorted({{m.split(".")[0] for m in sys.modules}} & BLOCKED))
"""


def run_blocked(body: str, *, blocked: set[str] | None = None) -> subprocess.CompletedProcess[str]:
    code = BLOCKED_RUN.format(blocked=set(OPTIONAL) if blocked is None else blocked, body=body)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LIUREN_TZ": "Asia/Tokyo"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_core_casts_reads_and_looks_up_without_the_optional_packages() -> None:
    body = """
from texts.cli import main
for argv in (["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--reading"],
             ["cast", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo", "--reading", "--lang", "zh-CN"],
             ["cast", "--at", "下午2点", "--json"],
             ["lookup", "贵人", "子"],
             ["verify", "元首象天，重审法地", "--paragraph", "139"]):
    assert main(argv) == 0, argv
"""
    done = run_blocked(body)
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout
    assert "課名" in done.stdout and "课名" in done.stdout and "解紛" in done.stdout  # the charts and a passage


def test_the_picture_without_pillow_is_an_error_naming_the_extra() -> None:
    body = """
from texts.cli import main
assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--png", "-"]) == 2
"""
    done = run_blocked(body)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "liuren[picture]" in done.stderr and "Pillow" in done.stderr


@pytest.mark.parametrize("package", ["engine", "texts"])
def test_every_core_module_imports_without_the_optional_packages(package: str) -> None:
    """Every module of the engine and the texts but the picture's own imports with the optional
    packages absent, and imports none of them (the picture needs Pillow: the [picture] extra)."""
    named = (".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
             for p in (ROOT / package).rglob("*.py"))
    # The picture's painting, and the study site and the command that draw with its fonts, need Pillow.
    drawing = ("texts.picture.", "texts.site", "texts.cli.picture")
    # The picture's words and layout, and what the bot asks before it draws (a kept picture, its
    # key): Pillow is loaded by the first drawing.
    pure = ("texts.picture.alt", "texts.picture.draw", "texts.picture.layout", "texts.picture.shapes")
    served = ("texts.cli.mcp",)  # the MCP server: the [mcp] extra's SDK (texts/cli/serve.py imports it to serve)
    modules = sorted(m for m in named if (not m.startswith(drawing) or m in pure) and m not in served)
    assert len(modules) > 10
    done = run_blocked(f"import importlib\nfor m in {modules!r}:\n    importlib.import_module(m)\n")
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout


def test_the_blocking_is_real() -> None:
    """The check above can fail: a blocked package cannot be imported in the subprocess."""
    done = run_blocked("import PIL", blocked={"PIL"})
    assert done.returncode != 0 and "No module named 'PIL'" in done.stderr


def test_dependencies_are_the_cores_and_each_extra_brings_its_part() -> None:
    core = requirement_names(PROJECT["dependencies"])
    assert core == {"opencc", "python-dateutil", "tzdata"}
    assert {"discord.py", "platformdirs", "liuren"} <= requirement_names(EXTRAS["bot"])
    assert "liuren[picture]" in EXTRAS["bot"]  # the bot posts the picture with every reply
    assert requirement_names(EXTRAS["picture"]) == {"pillow", "isal"}  # isal: the PNG's deflate
    assert requirement_names(EXTRAS["postgres"]) == {"psycopg", "psycopg-pool"}
    # the suite tests everything, so `pip install -e ".[test]"` (the README's command) installs it all
    assert "liuren[bot,postgres]" in EXTRAS["test"]
    assert "liuren[mcp]" in EXTRAS["test"] and requirement_names(EXTRAS["mcp"]) == {"mcp"}  # liuren mcp's SDK
    for module, extra in OPTIONAL.items():
        assert extra in EXTRAS, (module, extra)


def test_licence_is_a_pep_639_expression_with_its_files() -> None:
    assert PROJECT["license"] == "MIT AND OFL-1.1"  # the code, and the Noto Sans CJK subsets in texts/fonts/
    for pattern in PROJECT["license-files"]:
        assert list(ROOT.glob(pattern)), pattern
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639: the expression only
    assert "Typing :: Typed" in PROJECT["classifiers"]
    build = PYPROJECT["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools>=(\d+)", r) and int(r.split(">=")[1]) >= 77 for r in build), build


@pytest.mark.parametrize("package", ["engine", "texts"])
def test_typed_packages_ship_py_typed(package: str) -> None:
    assert (ROOT / package / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"][package]


DATA_SUFFIXES = {".toml", ".json", ".otf", ".txt", ".csv", ".png"}


@pytest.mark.parametrize("package", ["engine", "texts", "bot"])
def test_every_data_file_the_packages_hold_is_installed(package: str) -> None:
    """A data file inside a package is matched by a package-data pattern, so the wheel has it (the
    seed text in texts/seed/ is the corpus's test fixture, not read at run time)."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"].get(package, [])
    missing = []
    for path in (ROOT / package).rglob("*"):
        relative = path.relative_to(ROOT / package).as_posix()
        if path.suffix not in DATA_SUFFIXES or relative.startswith("seed/") or "__pycache__" in relative:
            continue
        if not any(fnmatch.fnmatch(relative, p) and relative.count("/") == p.count("/") for p in patterns):
            missing.append(relative)
    assert not missing, f"add to [tool.setuptools.package-data] {package}: {missing}"


def test_the_sdist_is_the_whole_tree() -> None:
    """Every top-level folder and file of the source tree is in MANIFEST.in (or made by a build)."""
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    named = set(re.findall(r"^(?:graft|include) (.+)$", manifest, re.M))
    included = {part.split("/")[0] for line in named for part in line.split()}
    made = {".git", "build", "dist", "data", ".gitignore"}
    # A virtual environment in the checkout is the reader's, whatever its name (.venv, env, venv311…).
    present = {p.name for p in ROOT.iterdir() if not p.name.endswith((".egg-info", "_cache")) and p.name not in made
               and not (p / "pyvenv.cfg").is_file()}
    auto = {"README.md", "LICENSE", "pyproject.toml", "MANIFEST.in", "PKG-INFO", "setup.cfg"}  # setuptools' own
    assert present - auto <= included, sorted(present - auto - included)
    for needed in ("tests", "testkit", "docs", "bench", "tools", "engine", "texts", "bot"):
        assert needed in included, needed


URLS: dict[str, str] = PROJECT.get("urls", {})
# The address the project used while it had no public home: nothing may link to it.
PLACEHOLDER = re.compile(r"liuren-project\b")


def test_no_link_points_at_a_placeholder_home() -> None:
    """What an install carries and prints (the code, the data, the deploy files, pyproject's URLs)
    and what the docs tell a reader link to no placeholder home."""
    found = []
    for folder in ("engine", "texts", "bot", "deploy", "docs", ".github"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".toml", ".service", ".md", ".yml", ".html", ".js"):
                found += [path.relative_to(ROOT).as_posix() for _ in PLACEHOLDER.finditer(path.read_text("utf-8"))]
    for name in ("pyproject.toml", "README.md", "Dockerfile", "compose.yaml"):
        found += [name for _ in PLACEHOLDER.finditer((ROOT / name).read_text(encoding="utf-8"))]
    assert found == []


def test_project_urls_when_given_are_named() -> None:
    if not URLS:  # no public home yet: pyproject names none rather than a placeholder
        return
    assert {"Homepage", "Documentation", "Repository", "Issues"} <= set(URLS)
    assert all(u.startswith("https://") for u in URLS.values())
    assert URLS["Documentation"].startswith(URLS["Repository"])


def published(url: str) -> Path:
    """The file of this tree that a published URL of the repository shows."""
    prefix = URLS["Repository"] + "/blob/main/"
    assert url.startswith(prefix), f"{url} is not under {prefix}"
    return ROOT / url.removeprefix(prefix).split("#")[0]


def test_the_units_documentation_agrees_with_the_project_urls() -> None:
    """With a public home the unit's Documentation= is its admin guide; without one, the unit
    names no address (its comment names docs/admin.md)."""
    unit = (ROOT / "deploy" / "liuren-bot.service").read_text(encoding="utf-8")
    found = re.findall(r"^Documentation=(.+)$", unit, re.M)
    if not URLS:
        assert found == [] and "docs/admin.md" in unit
        return
    assert found, "the unit names no Documentation="
    urls = found[0].split()
    assert all(not u.startswith("file:") for u in urls)  # a file no pip install creates
    assert any(published(u).name == "admin.md" and published(u).is_file() for u in urls), urls


def test_cli_help_links_the_sites_rules_only_when_the_site_has_an_address(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from texts.cli import main
    from texts.site.reference import SECTIONS

    assert "school-options" in SECTIONS  # the anchor the link names
    monkeypatch.delenv("LIUREN_SITE_URL", raising=False)
    with pytest.raises(SystemExit):
        main(["cast", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "school options" in help_text and "http" not in help_text
    monkeypatch.setenv("LIUREN_SITE_URL", "https://example.org/liuren/")
    with pytest.raises(SystemExit):
        main(["cast", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "https://example.org/liuren/en/rules.html#school-options" in help_text


def test_the_bots_first_run_text_names_its_permissions_not_a_placeholder() -> None:
    done = run_blocked("import bot.__main__ as m\nprint(m.NO_TOKEN_HELP)", blocked=set())
    assert done.returncode == 0, done.stderr
    assert "http" not in done.stdout.replace("https://discord.com/developers/applications", "")
    for permission in ("View Channels", "Send Messages", "Embed Links", "Read Message History", "Attach Files"):
        assert permission in " ".join(done.stdout.split()), permission


DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")


def stages() -> list[str]:
    return re.split(r"^(?=FROM )", DOCKERFILE, flags=re.M)[1:]


def test_the_image_installs_the_bot_with_both_stores_and_places_in_a_build_stage() -> None:
    build = next(s for s in stages() if re.match(r"FROM \S+ AS build\b", s))
    installed = re.search(r'pip --python (\S+)/bin/python install "\.\[([\w,]+)\]"', build)
    assert installed is not None, build
    # compose.yaml runs it on PostgreSQL; /cast place: resolves names through the place extra
    assert set(installed[2].split(",")) == {"bot", "postgres", "place"}
    assert installed[1] == "/opt/liuren"


def test_the_final_stage_carries_no_dead_layer() -> None:
    """What the last stage copies is the built environment, and no layer copies something a later
    one deletes (a 19 MB layer of wheels once did)."""
    final = stages()[-1]
    copies = re.findall(r"^COPY (.+)$", final, re.M)
    assert copies == ["--from=build /opt/liuren /opt/liuren"], copies
    assert not re.search(r"^RUN .*\brm -rf?\b", final, re.M)
    assert "/opt/liuren/bin" in re.search(r"^ENV PATH=(\S+)", final, re.M)[1]  # type: ignore[index]
    # every stage starts from the one pinned base
    assert [re.match(r"FROM (\S+)", s)[1] for s in stages()][1:] == ["base", "base"]  # type: ignore[index]


def test_compose_repeats_the_images_healthcheck_for_oci_builders() -> None:
    image = re.search(r'^HEALTHCHECK (.*) CMD (\[.*\])$', DOCKERFILE, re.M)
    assert image is not None
    services = {m[1]: m.start() for m in re.finditer(r"^  (\w+):$", COMPOSE, re.M)}  # the services' own lines
    bot = COMPOSE[services["bot"] : services["db"]]
    check = re.search(r"^    healthcheck:\n      test: (\[.*\])$", bot, re.M)
    assert check is not None, "the bot service has no healthcheck"
    assert check[1] == '["CMD", ' + image[2][1:]
    for option in ("interval", "timeout", "start-period", "retries"):
        value = re.search(rf"--{option}=(\S+)", image[1])
        assert value is not None and f"{option.replace('-', '_')}: {value[1]}" in bot, option


def test_the_units_install_steps_create_etc_liuren_before_writing_into_it() -> None:
    steps = (ROOT / "deploy" / "liuren-bot.service").read_text(encoding="utf-8").split("[Unit]")[0]
    made = steps.index("install -d") if "install -d" in steps else steps.index("mkdir")
    assert made < steps.index("/etc/liuren/bot.env")
    assert "/etc/liuren" in steps[made : steps.index("\n", made)]
    assert re.search(r'pip install "liuren\[bot(,postgres)?\]"', steps)  # the bot is an extra


@pytest.mark.slow  # over a second on the project's machine
def test_the_bot_on_sqlite_runs_without_the_postgres_extra() -> None:
    """`liuren[bot]` alone: the bot starts (no token: the chart for now) and opens its SQLite store;
    a postgresql:// LIUREN_DB is refused in one line naming the extra."""
    body = """
import asyncio, os, sys, tempfile
from bot.__main__ import main
from bot.store import StoreError, open_store
os.environ.pop("DISCORD_TOKEN", None)
sys.argv = ["liuren-bot"]
assert main() == 0

async def stores():
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(os.path.join(folder, "bot.sqlite3"))
        await store.close()
    try:
        await open_store("postgresql://nobody@127.0.0.1:9/x")
    except StoreError as error:
        print("REFUSED", error)
asyncio.run(stores())
"""
    done = run_blocked(body, blocked={"psycopg", "psycopg_pool"})
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout
    assert "REFUSED LIUREN_DB is a PostgreSQL URL" in done.stdout
    assert 'pip install ".[bot,postgres]" in a checkout' in done.stdout and "liuren[" not in done.stdout


def test_the_bot_without_its_extra_says_which_to_install() -> None:
    done = run_blocked("import bot.__main__", blocked={"discord", "aiohttp"})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert 'pip install ".[bot]" in a checkout' in done.stderr and "liuren[" not in done.stderr


def test_every_published_url_in_the_code_names_a_file_of_this_tree() -> None:
    """What the code and the deploy files link to of the repository (the docs an install lacks)
    exists here; with no public home, they link to none."""
    if not URLS:
        return
    pattern = re.compile(re.escape(URLS["Repository"]) + r"/blob/main/[\w./-]+(?:#[\w-]+)?")
    found: list[tuple[str, str]] = []
    for folder in ("engine", "texts", "bot", "deploy"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".toml", ".service") and "__pycache__" not in path.parts:
                where = path.relative_to(ROOT).as_posix()
                found += [(url.rstrip("."), where) for url in pattern.findall(path.read_text(encoding="utf-8"))]
    missing = [(url, where) for url, where in found if not published(url).is_file()]
    assert not missing, missing


def installed(target: Path) -> None:
    """Copy into ``target`` what a wheel installs of the engine and the texts: their modules and the
    data [tool.setuptools.package-data] names (nothing else of the checkout, no docs/)."""
    data: dict[str, list[str]] = PYPROJECT["tool"]["setuptools"]["package-data"]
    for package in ("engine", "texts"):
        for path in sorted((ROOT / package).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(ROOT)
            keep = path.suffix == ".py"
            for owner, patterns in data.items():
                base = Path(*owner.split("."))
                if relative.is_relative_to(base):
                    inner = relative.relative_to(base).as_posix()
                    keep = keep or any(fnmatch.fnmatch(inner, p) and inner.count("/") == p.count("/")
                                       for p in patterns)
            if keep:
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / relative).write_bytes(path.read_bytes())


@pytest.mark.slow  # builds a day of the study site in a subprocess
def test_the_site_builds_from_what_the_wheel_installs(tmp_path: Path) -> None:
    """`liuren site build` from an install, far from any checkout: its glossary and rules pages come
    from the installed words, not from the source tree's docs/."""
    site_packages = tmp_path / "site-packages"
    installed(site_packages)
    assert not (site_packages / "docs").exists()
    code = "import sys; from texts.cli import main; sys.exit(main(sys.argv[1:]))"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LIUREN_SITE_URL")}
    done = subprocess.run([sys.executable, "-c", code, "site", "build", str(tmp_path / "out"), "--lang", "en",
                           "--only-days", "甲子", "--workers", "1"], cwd=tmp_path,
                          env={**env, "PYTHONPATH": str(site_packages), "PYTHONSAFEPATH": "1"},
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    for page in ("en/glossary.html", "en/rules.html", "en/index.html", "assets/style.css"):
        assert (tmp_path / "out" / page).is_file(), page


def test_the_release_workflow_publishes_by_trusted_publishing_with_attestations() -> None:
    """On a tag: the sdist and the wheel built once, then uploaded by pypa/gh-action-pypi-publish
    with PEP 740 attestations, on an OIDC identity only the publishing job holds (no stored token)."""
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert re.search(r"^on:\n  push:\n    tags: \[\"v\*\"\]$", workflow, re.M)
    assert re.search(r"^\s+run: python -m build$", workflow, re.M)  # both the sdist and the wheel
    jobs = workflow.split("\n  publish:\n")
    assert len(jobs) == 2 and "id-token: write" not in jobs[0] and "id-token: write" in jobs[1]
    assert re.search(r"uses: pypa/gh-action-pypi-publish@release/v1\n\s+with:\n\s+attestations: true", jobs[1])
    assert "password" not in workflow and "secrets." not in workflow and "PYPI_TOKEN" not in workflow
    assert "site build" in jobs[0]  # the wheel is tried where no checkout is
