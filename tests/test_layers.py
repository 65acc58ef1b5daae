"""Data flows one way: instant → chart (engine) → matched texts (texts) → embed (bot); and inside
bot/, a core that knows no feature, one store, and features that lean on both (docs/architecture.md)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each package may import from the project's own packages.
ALLOWED = {"engine": {"engine"}, "texts": {"texts", "engine"}, "bot": {"bot", "engine", "texts"}}

# Inside bot/: the features, and the other features each may import (nothing else).
FEATURES = {
    "study": {"casebook"},  # /cast and /chart record a case and show it with the case's buttons
    "settings": {"casebook"},  # /profile delete offers the casebook's "delete my cases" button
    "daily": set(),
    "casebook": set(),
    "quiz": set(),
    "verify": set(),
}
ENTRY_POINTS = {"bot/__init__.py", "bot/__main__.py", "bot/health.py"}  # the process edges, above everything
MAX_LINES = 400
# Imports inside a function, each for an optional dependency or one loaded at first use (never to
# dodge a circle: the circle check counts them too): the PostgreSQL driver needs psycopg, the
# [postgres] extra; the sealing cipher's bindings (cryptography) load with the first
# seal or unseal, or once the bot is READY, not before READY; /verify's checker, /case export's
# writers and /case record's tallies with the first use of each, not before READY; platformdirs
# only where LIUREN_DB names no file (or a PostgreSQL server's sync state wants a folder).
OPTIONAL_IMPORTS = {
    ("bot/store/__init__.py", "open_store"), ("bot/store/sealing.py", "_aesgcm"), ("bot/verify/cog.py", "verify"),
    ("bot/casebook/cog.py", "export"), ("bot/casebook/cog.py", "record"), ("bot/store/location.py", "_user_folder"),
}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once for all the checks (each used to parse every file again)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def project_imports(path: Path) -> set[str]:
    """Top-level project packages a module imports (relative imports stay in its own package)."""
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & set(ALLOWED)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def bot_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / "bot").rglob("*.py"))}


def imported_modules(path: Path) -> set[str]:
    """Every bot module `path` imports, anywhere in it (functions and TYPE_CHECKING blocks count),
    relative imports resolved; ``from bot.x import y`` counts as bot.x.y when that is a module."""
    known = bot_modules()
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "bot"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.split(".")[0] == "bot":
                target = node.module
            else:
                continue
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known}
    return {m for m in found if m in known and m != here}


def layer(module: str) -> str:
    """core, store, a feature's name, or the module itself for the entry points."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else module


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_downstream(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert modules
    for module in modules:
        wrong = project_imports(module) - ALLOWED[package]
        assert not wrong, f"{module.relative_to(ROOT)} imports {sorted(wrong)}"


def test_engine_does_no_io() -> None:
    """The engine is pure: no file, network or environment access outside its command line."""
    io_modules = {"os", "socket", "sqlite3", "urllib", "http", "asyncio", "subprocess", "pathlib", "io"}
    for module in sorted((ROOT / "engine").rglob("*.py")):
        if module.name in ("cli.py", "bench.py", "__main__.py"):
            continue  # the command line and the benchmark are the I/O edges
        tree = parsed(module)
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
        assert not names & io_modules, f"{module.name} imports {sorted(names & io_modules)}"
        assert "open(" not in module.read_text(encoding="utf-8"), module.name


# The texts' I/O edges, by package or module: the terminal apps (cli/), the study site's builder
# and its links' quoting (urllib.parse), the parses of the shipped data kept beside it (shipped.py),
# the loaders of the data files and fonts, the picture's PNG encoder and golden images, and the
# default zone read from LIUREN_TZ. Everything else does no I/O.
TEXTS_EDGES = (
    "cli/", "site/build.py", "site/paths.py", "shipped.py", "when.py",
    "words/__init__.py", "corpus/book.py", "corpus/notes.py", "corpus/translations.py", "matters/recognise.py",
    "picture/fonts.py", "picture/raster.py", "picture/golden.py",
)


def texts_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / "texts").rglob("*.py"))}


def texts_imports(path: Path) -> set[str]:
    """Every texts module ``path`` imports, anywhere in it; ``from texts.x import y`` counts as
    texts.x.y when that is a module, and a package's import of its own modules is not counted."""
    known = texts_modules()
    here = module_name(path)
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "texts"}
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "texts":
            assert node.module is not None
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known}
        assert not (isinstance(node, ast.ImportFrom) and node.level), f"{here}: texts imports are absolute"
    return {m for m in found if m in known and m != here and m != "texts"}


def test_the_texts_core_does_no_io() -> None:
    io_modules = {"os", "socket", "sqlite3", "urllib", "http", "asyncio", "subprocess", "pathlib", "io", "tomllib",
                  "shutil"}
    for module in sorted((ROOT / "texts").rglob("*.py")):
        where = module.relative_to(ROOT / "texts").as_posix()
        if where.startswith(TEXTS_EDGES) or where == "__main__.py":
            continue
        tree = parsed(module)
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
        assert not names & io_modules, f"texts/{where} imports {sorted(names & io_modules)}"
        assert "open(" not in module.read_text(encoding="utf-8"), where


# Inside texts/: what each part may import of the others (docs/architecture.md draws it). shipped,
# memo and when are the ground (memo, the one cache mechanism, is open to every layer); words sits
# on them, the classical text on words.
TEXTS_GROUND = {"texts.shipped", "texts.memo", "texts.when"}
TEXTS_BELOW = {
    "texts.words": TEXTS_GROUND - {"texts.when"},
    "texts.corpus": (TEXTS_GROUND - {"texts.when"}) | {"texts.words"},
}
# The modules of reading/ and matters/ that write sentences: the only ones there that reach words.
SENTENCE_MODULES = {"texts.reading.sentences", "texts.matters.sentences", "texts.matters.phrases"}


def part(module: str) -> str:
    """texts.words, texts.corpus, texts.picture … for a module of that package; the module itself
    for those directly under texts/ (texts.memo, texts.render …)."""
    return ".".join(module.split(".")[:2])


def test_the_texts_parts_import_only_what_they_stand_on() -> None:
    for name, path in texts_modules().items():
        imported = texts_imports(path)
        outside = {part(m) for m in imported} - {part(name)}
        if name in TEXTS_GROUND:
            assert not imported, f"{name} imports {sorted(imported)}: it is the ground of texts/"
        for below, allowed in TEXTS_BELOW.items():
            if part(name) == below:
                assert outside <= allowed, f"{name} imports {sorted(outside - allowed)}"
        if part(name) in ("texts.reading", "texts.matters") and name not in SENTENCE_MODULES:
            assert "texts.words" not in outside, f"{name} writes no sentence: it imports no words"
        if part(name) == "texts.picture":
            assert not outside & {"texts.reading", "texts.matters"}, f"{name}: the picture draws a chart, not a reading"
        if part(name) in ("texts.reading", "texts.matters"):
            assert "texts.picture" not in outside, f"{name}: a reading draws nothing"
        if part(name) != "texts.cli" and name != "texts.__main__":  # python -m texts is the lookup's edge
            assert "texts.cli" not in outside, f"{name} imports the terminal apps"


def test_texts_modules_are_small_with_no_name_prefix_families() -> None:
    """No module over MAX_LINES; none named with an underscore (a prefix family stands in for a
    package); the classical charts are listed by engine/classical.py alone."""
    listing = re.compile(r"cast_classical\([^)]*\+ ?k\b[^)]*\)\s*(for\b|$)", re.M)  # in a loop over the plates k
    for path in sorted((ROOT / "texts").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_LINES, f"{where}: over {MAX_LINES} lines"
        assert "_" not in path.stem.strip("_"), f"{where}: a name prefix where a package would say it"
        assert not listing.search(text), f"{where} lists classical charts: use engine.classical"


def test_bot_has_no_import_circle() -> None:
    """Counting every import: at module level, in functions and under TYPE_CHECKING."""
    graph = {name: imported_modules(path) for name, path in bot_modules().items()}
    # A package's __init__ re-exporting its own modules is not a circle through them.
    graph = {m: {t for t in targets if not m.startswith(t + ".")} for m, targets in graph.items()}
    state: dict[str, int] = {}
    trail: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        trail.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                raise AssertionError("import circle: " + " → ".join([*trail[trail.index(nxt):], nxt]))
            if nxt not in state:
                visit(nxt)
        trail.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_no_import_inside_a_function_in_bot() -> None:
    """Imports sit at the top of a module (or under TYPE_CHECKING), never inside a function (but
    for the listed optional dependencies)."""
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if (str(path.relative_to(ROOT)), node.name) in OPTIONAL_IMPORTS:
                    continue
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.relative_to(ROOT)}:{inner[0].lineno} imports inside {node.name}()"


def test_bot_layers() -> None:
    """core imports no feature, no reply and no store internals; store imports only itself (and
    engine); reply imports core, the store's front, texts and engine; a feature imports those and
    reply, and only the features listed."""
    for name, path in bot_modules().items():
        if str(path.relative_to(ROOT)) in ENTRY_POINTS:
            continue
        here = layer(name)
        for target in imported_modules(path):
            there = layer(target)
            where = f"{name} imports {target}"
            if here == "store":
                assert there == "store", where
            elif there == "store":
                assert target == "bot.store" or here == "store", f"{where}: use bot.store's front (open_store, values)"
            elif here == "core":
                assert there == "core", where
            elif here == "reply":
                assert there in {"core", "reply"}, where
            elif here in FEATURES:
                assert there in {"core", "reply", here} | FEATURES[here], where
            else:
                raise AssertionError(f"{name}: a module outside core, reply, store and the features")
    for path in sorted((ROOT / "bot" / "store").rglob("*.py")):
        imported = project_imports(path)
        assert imported <= {"bot", "engine"}, f"{path.relative_to(ROOT)} imports {sorted(imported)}"
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|from) discord", text, re.M), path.name


def test_bot_modules_are_small_and_typed_without_escapes() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_LINES, f"{path.relative_to(ROOT)}: over {MAX_LINES} lines"
        assert "type: ignore" not in text, f"{path.relative_to(ROOT)} silences the type checker"


def test_each_store_operation_is_written_once() -> None:
    """Every public operation of the store is defined once, in bot/store/store.py or in a group of
    operations the Store inherits (bot/store/quizzes.py); the drivers define only the driver
    interface (bot/store/driver.py)."""
    def methods(path: Path) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for node in parsed(path).body:
            if isinstance(node, ast.ClassDef):
                out[node.name] = [n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                                  and not n.name.startswith("_")]
        return out

    store = ROOT / "bot" / "store"
    groups = ("store.py", "quizzes.py", "calls.py")
    operations = [name for group in groups for names in methods(store / group).values() for name in names]
    interface = set(methods(store / "driver.py")["Driver"])
    assert len(operations) >= 40 and len(set(operations)) == len(operations)
    for path in sorted(store.glob("*.py")):
        if path.name in groups:
            continue
        for cls, defined in methods(path).items():
            again = set(defined) & set(operations) - {"close", "location"}  # plumbing, not operations
            assert not again, f"{path.name}:{cls} implements store operations again: {sorted(again)}"
            if path.name in ("sqlite.py", "postgres.py") and cls.endswith("Driver"):  # not their helpers
                extra = set(defined) - interface - {"open", "run", "path"}  # opening, and SQLite's own thread
                assert not extra, f"{path.name}:{cls} goes beyond the driver interface: {sorted(extra)}"


def test_one_definition_of_each_shared_helper_in_bot() -> None:
    """One text() and language_of() (bot/core/words.py, the only bot module reaching texts' own
    words), one school_json (the store's), no chart_name of the bot's own (texts.words.explain's)."""
    homes = {"text": "bot/core/words.py", "language_of": "bot/core/words.py", "school_json": "bot/store/forms.py",
             "school_from_json": "bot/store/forms.py", "gloss": "bot/core/words.py", "clip": "bot/core/user_text.py",
             "parse_zone": "bot/core/zones.py", "chart_name": None}
    defined: dict[str, list[str]] = {name: [] for name in homes}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in homes:
                defined[node.name].append(where)
            if isinstance(node, ast.ImportFrom) and node.module in ("texts.words", "texts"):
                reached = {a.name for a in node.names} & {"text", "language_of", "words"}
                assert not reached or where == "bot/core/words.py", f"{where} imports texts' {sorted(reached)}"
    for name, home in homes.items():
        assert defined[name] == ([home] if home else []), f"{name} defined in {defined[name]}"


def test_stored_values_are_decoded_by_the_store_only() -> None:
    """A case's, a server's and a profile's stored school, zone, instant and language are decoded
    in bot/store's row decoders: no module above the store parses them again (a schedule's ``row``
    is validated by bot.daily.schedule.plan_of)."""
    parsers = {"school_from_json", "as_lang", "parse_zone", "zone", "fromisoformat", "loads"}
    stored = {"instant", "zone", "timezone", "school", "language"}
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        if where.startswith("bot/store/"):
            continue
        for node in ast.walk(parsed(path)):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name == "school_from_json" or (name in parsers and any(
                isinstance(a, ast.Attribute) and a.attr in stored
                and not (isinstance(a.value, ast.Name) and a.value.id == "row") for a in node.args
            )):
                found.append(f"{where}:{node.lineno} {name}")
    assert not found, f"stored values parsed above the store: {found}"


def test_the_stores_languages_are_the_texts_languages() -> None:
    """The store declares the reply languages it keeps (it may not import the texts): the same four."""
    from bot.store import LANGUAGES
    from texts.words import LANGS

    assert LANGUAGES == LANGS


# The MCP SDK is the [mcp] extra: one module of the terminal apps imports it, and only the command
# that serves imports that module, so every other start of `liuren` (and the bot) runs without it.
MCP_SDK = {"mcp", "mcp_types", "pydantic"}
MCP_HOME = "texts/cli/mcp.py"
MCP_CALLER = "texts/cli/serve.py"


def test_only_the_cli_reaches_the_mcp_sdk() -> None:
    for package in ALLOWED:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            tree = parsed(path)
            names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            names |= {n.module.split(".")[0] for n in ast.walk(tree)
                      if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
            if where != MCP_HOME:
                assert not names & MCP_SDK, f"{where} imports the MCP SDK {sorted(names & MCP_SDK)}"
            reaches = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            reaches |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
            reaches |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                        for a in n.names}
            if where != MCP_CALLER:
                assert "texts.cli.mcp" not in reaches, f"{where} imports texts.cli.mcp: only {MCP_CALLER} does"
