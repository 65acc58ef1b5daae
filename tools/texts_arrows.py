"""Count the import arrows between the modules of texts/, and between its parts (a package, or a
module directly under texts/): the picture of texts/ a newcomer reads.

    python tools/texts_arrows.py [ROOT] [--list]

ROOT is a source tree (default: this one; e.g. an earlier commit's, unpacked with ``git archive``).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def modules(root: Path) -> dict[str, Path]:
    """Every module below ``root``/texts by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted((root / "texts").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def arrows(root: Path) -> set[tuple[str, str]]:
    """(importer, imported) for each texts module importing another, relative imports resolved;
    ``from texts.x import y`` points at texts.x.y when that is a module, else at texts.x."""
    known = modules(root)
    found: set[tuple[str, str]] = set()
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target.startswith("texts") and target != name:
                    found.add((name, target))
    return found


def part(module: str) -> str:
    return ".".join(module.split(".")[:2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--list", action="store_true", help="print the arrows between parts")
    args = parser.parse_args()
    root = Path(args.root)
    found = arrows(root)
    names = modules(root)
    between = {(part(a), part(b)) for a, b in found if part(a) != part(b)}
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in names.values())
    print(f"modules {len(names)}, lines {lines}, arrows between modules {len(found)}")
    print(f"parts {len({part(m) for m in names})}, arrows between parts {len(between)}")
    if args.list:
        print("\n".join(f"{a} -> {b}" for a, b in sorted(between)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
