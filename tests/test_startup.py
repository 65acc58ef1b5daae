"""What a start does before READY: the words and modules the first interactions need, and not the
ones a feature loads with its first use (docs/performance.md, "A new chart's reply, and start-up")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What a start imports: the process, then the features its setup_hook loads.
START = """
import importlib, json, sys
import bot.__main__
from bot.core.host import EXTENSIONS
from texts import words
for name in EXTENSIONS:
    importlib.import_module(name)
print(json.dumps({"words": sorted(words._LOADED), "modules": sorted(sys.modules)}))
"""
# Loaded with the first use of their feature, not at start.
AT_FIRST_USE = (
    "texts.corpus.verify", "texts.corpus.verdicts", "difflib",  # /verify
    "bot.casebook.export", "csv", "zipfile", "bot.casebook.tally",  # /case export, /case record
    "texts.quiz.values", "texts.quiz.questions", "texts.quiz.sentences",  # a quiz's questions
    "platformdirs",  # the user's folders, when LIUREN_DB names no file
    "texts.matters.values", "texts.matters.sentences",  # the first /cast with a question or a matter
    "texts.matters.phrases", "texts.matters.table",  # … and the matter option's reading of a name
    "bot.store.quiz_values", "bot.store.schedule_values",  # the first quiz read, the daily posts' first read
    "bot.daily.delivery", "bot.daily.schedule",  # the daily posts' service, made once READY
)


def started() -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", START], cwd=ROOT, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_the_start_reads_no_language_whole() -> None:
    """The bot's own file of words in the four languages (the command sync's), not the other files:
    those are read with the first reply in a language."""
    assert started()["words"] == ["english.names"]  # the glosses of the command menus' names


def test_the_start_leaves_what_a_feature_loads_at_first_use() -> None:
    modules = set(started()["modules"])
    assert "bot.verify.cog" in modules and "texts.matters.recognise" in modules  # the start itself ran
    assert not modules & set(AT_FIRST_USE), sorted(modules & set(AT_FIRST_USE))


def test_the_configured_zone_is_checked_without_importlib_resources() -> None:
    """The start checks LIUREN_TZ against tzdata's list (engine.calendar.zone), read through the
    package's loader: importlib.resources is imported by the first full listing (autocomplete)."""
    code = ("import sys; from engine.calendar import zone; zone('Asia/Tokyo'); "
            "print('importlib.resources' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False"]


def test_the_matters_package_gives_every_name_it_lists_from_its_module() -> None:
    """texts.matters loads its reading and sentences when a name is first asked for: each name of
    ``__all__`` is there, and is its module's own (a name forgotten would fail only where used)."""
    import texts.matters as matters
    from texts.matters import phrases, sentences, values

    for name in matters.__all__:
        homes = [m for m in (phrases, sentences, values) if name in vars(m)]
        assert homes and getattr(matters, name) is getattr(homes[0], name), name
    with pytest.raises(AttributeError):
        _ = matters.nothing_of_the_kind

