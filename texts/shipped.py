"""The shipped TOML data, parsed once per content and kept the way Python keeps bytecode.

``load(path)`` gives what ``tomllib.loads`` gives for the file's text. The parse is kept beside the
file, in ``__pycache__`` (or under ``sys.pycache_prefix``), together with the bytes it was parsed
from: a later load that reads the same bytes takes the kept parse (``marshal``, an order of magnitude
faster than ``tomllib``: docs/performance.md), and any other bytes are parsed afresh. What is kept
is only the parse: the callers check the data at every load.

Nothing is written where ``sys.dont_write_bytecode`` is set (``PYTHONDONTWRITEBYTECODE``) or the
folder cannot be written; a kept file that cannot be read is parsed past. ``keep_all()`` keeps
every shipped file's parse, as ``compileall`` compiles the modules (the image's build runs it).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.toml").write_text('x = "1"\\n[t]\\ny = [1, 2]', encoding="utf-8")
    >>> load(folder / "a.toml")
    {'x': '1', 't': {'y': [1, 2]}}
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "cache_path", "keep_all", "load"]

ROOT = Path(__file__).parent  # the texts package: its data files (corpus.toml, locales/, fonts/ …) sit here

_FORMAT = 1  # what a kept file holds: (_FORMAT, the source's bytes, the parse); bumped when that changes


def cache_path(path: Path) -> Path:
    """Where the parse of ``path`` is kept: its folder's ``__pycache__``, or the same absolute
    folder under ``sys.pycache_prefix`` when one is set (as importlib places bytecode)."""
    name = f"{path.name}.{sys.implementation.cache_tag}.marshal"
    prefix = sys.pycache_prefix
    if prefix:
        folder = path.parent.absolute()
        return Path(prefix, *folder.parts[1:], name)
    return path.parent / "__pycache__" / name


def load(path: Path) -> dict[str, Any]:
    """The TOML document at ``path``; ``OSError`` if it cannot be read, ``ValueError`` if it is not
    UTF-8 (``UnicodeDecodeError``) or not TOML (``tomllib.TOMLDecodeError``); a failed parse is never kept."""
    raw = path.read_bytes()
    kept = cache_path(path)
    try:
        form, source, data = marshal.loads(kept.read_bytes())
        if form == _FORMAT and source == raw and isinstance(data, dict):
            return data
    except (OSError, ValueError, EOFError, TypeError):  # none kept yet, or not one of ours
        pass
    data = _parse(raw)
    if not sys.dont_write_bytecode:
        _keep(kept, raw, data)
    return data


def _parse(raw: bytes) -> dict[str, Any]:
    import tomllib  # imported when a file is parsed, not by a start that finds its parses kept

    return tomllib.loads(raw.decode("utf-8"))


def _keep(kept: Path, raw: bytes, data: dict[str, Any]) -> bool:
    try:
        blob = marshal.dumps((_FORMAT, raw, data))
    except ValueError:  # a value marshal cannot hold (a TOML date): that file is parsed every time
        return False
    part = kept.with_name(f"{kept.name}.{os.getpid()}.part")  # written whole, then renamed over
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(blob)
        os.replace(part, kept)
    except OSError:  # a read-only install: parsed at each start, as before
        with contextlib.suppress(OSError):
            part.unlink()
        return False
    return True


def keep_all(root: Path = ROOT) -> int:
    """Parse and keep every TOML file under ``root`` (the package's data by default), even where
    ``sys.dont_write_bytecode`` is set; returns how many were kept (not those marshal cannot hold,
    nor any where the folder cannot be written)."""
    count = 0
    for path in sorted(root.rglob("*.toml")):
        raw = path.read_bytes()
        count += _keep(cache_path(path), raw, _parse(raw))
    return count
