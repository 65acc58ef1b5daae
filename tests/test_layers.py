"""Data flows one way: instant → chart (engine) → matched texts (texts) → embed (bot)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each package may import from the project's own packages.
ALLOWED = {"engine": {"engine"}, "texts": {"texts", "engine"}, "bot": {"bot", "engine", "texts"}}


def project_imports(path: Path) -> set[str]:
    """Top-level project packages a module imports (relative imports stay in its own package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & set(ALLOWED)


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
    for module in sorted((ROOT / "engine").glob("*.py")):
        if module.name in ("cli.py", "bench.py", "__main__.py"):
            continue  # the command line and the benchmark are the I/O edges
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
        assert not names & io_modules, f"{module.name} imports {sorted(names & io_modules)}"
        assert "open(" not in module.read_text(encoding="utf-8"), module.name
