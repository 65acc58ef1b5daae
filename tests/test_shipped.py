"""texts.shipped: a kept parse is taken only for the very bytes it was parsed from."""

from __future__ import annotations

import datetime
import marshal
import os
import sys
import tomllib
from pathlib import Path

import pytest

import texts
from texts import shipped
from texts.words import WordsError, read_file

SHIPPED = sorted(Path(texts.__file__).parent.rglob("*.toml"))


@pytest.fixture
def writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Kept parses go under a prefix of this test's own (the tree's __pycache__ is left alone), and
    are written even where the environment says PYTHONDONTWRITEBYTECODE."""
    prefix = tmp_path / "prefix"
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return prefix


def _plant(path: Path, data: object) -> None:
    """A kept parse for ``path``'s present bytes that says ``data``: what load returns if it takes it."""
    kept = shipped.cache_path(path)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(marshal.dumps((shipped._FORMAT, path.read_bytes(), data)))


def test_every_shipped_file_loads_as_tomllib_parses_it_kept_or_not(writes: Path) -> None:
    assert len(SHIPPED) > 50  # the corpus, its notes, the matters, 4 languages' words, translations
    assert shipped.keep_all() == len(SHIPPED)
    for path in SHIPPED:
        kept = shipped.cache_path(path)
        assert kept.is_file() and kept.is_relative_to(writes), path
        assert shipped.load(path) == tomllib.loads(path.read_text(encoding="utf-8")), path


def test_a_kept_parse_is_taken_for_the_same_bytes_and_only_for_them(writes: Path, tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text('x = "one"\n', encoding="utf-8")
    assert shipped.load(path) == {"x": "one"}
    _plant(path, {"x": "planted"})
    assert shipped.load(path) == {"x": "planted"}  # the kept parse is what a second load returns
    # Other bytes of the same length and the same mtime: parsed afresh, and kept anew.
    stat = path.stat()
    path.write_text('x = "two"\n', encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert shipped.load(path) == {"x": "two"}
    assert marshal.loads(shipped.cache_path(path).read_bytes())[2] == {"x": "two"}


@pytest.mark.parametrize("blob", [b"", b"not marshal", marshal.dumps(("old", b"", {})), marshal.dumps(7)])
def test_a_kept_file_not_ours_is_parsed_past_and_replaced(writes: Path, tmp_path: Path, blob: bytes) -> None:
    path = tmp_path / "a.toml"
    path.write_text("n = 1\n", encoding="utf-8")
    kept = shipped.cache_path(path)
    kept.parent.mkdir(parents=True)
    kept.write_bytes(blob)
    assert shipped.load(path) == {"n": 1}
    assert marshal.loads(kept.read_bytes()) == (shipped._FORMAT, b"n = 1\n", {"n": 1})


def test_nothing_is_written_when_bytecode_is_not_written(
    writes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "a.toml"
    path.write_text("n = 1\n", encoding="utf-8")
    assert shipped.load(path) == {"n": 1}
    assert not writes.exists()


def test_the_trees_own_pycache_without_a_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "a.toml"
    path.write_text("n = 1\n", encoding="utf-8")
    assert shipped.load(path) == {"n": 1}
    assert shipped.cache_path(path).parent == tmp_path / "__pycache__"
    assert shipped.cache_path(path).is_file()


def test_a_folder_that_cannot_be_written_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(sys, "pycache_prefix", str(blocker))  # a file: no folder can be made under it
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "a.toml"
    path.write_text("n = 1\n", encoding="utf-8")
    assert shipped.load(path) == {"n": 1}
    assert sorted(tmp_path.iterdir()) == sorted([blocker, path])  # no part file left behind


def test_a_bad_file_raises_and_nothing_is_kept(writes: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("x = \n", encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError):
        shipped.load(path)
    assert not shipped.cache_path(path).exists()
    with pytest.raises(WordsError, match=r"bad\.toml"):  # the callers' errors still name the file
        read_file(path)
    path.write_bytes(b'x = "\xff"\n')
    with pytest.raises(UnicodeDecodeError):
        shipped.load(path)


def test_a_value_marshal_cannot_hold_is_parsed_every_time(writes: Path, tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    path.write_text("when = 2026-12-01\n", encoding="utf-8")
    assert shipped.load(path) == {"when": datetime.date(2026, 12, 1)}
    assert not shipped.cache_path(path).exists()
    assert shipped.keep_all(tmp_path) == 0
