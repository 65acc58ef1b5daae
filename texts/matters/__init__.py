"""The matter asked (docs/rules.md §9): the question recognised (recognise.py), the table of what
the seed says for each matter (table.py), the lines it quotes (quotes.py), the chart read for it as
values (values.py), and, on top, its words (phrases.py) and sentences (sentences.py).

The reading's names, ``answer`` and ``MatterSection`` (values.py), its sentences' ``Item``,
``items`` and ``unrecognised`` (sentences.py), and ``matter_named`` (phrases.py, the ``matter``
option's reading of a name), load with their module when first asked for
(``texts.matters.answer``): a bot starts, and reads a chart with no matter asked, without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from texts.deferred import deferred_names

if TYPE_CHECKING:
    from texts.matters.phrases import matter_named
    from texts.matters.sentences import Item, items, unrecognised
    from texts.matters.values import MatterSection, answer

__all__ = ["Item", "MatterSection", "answer", "items", "matter_named", "unrecognised"]

# Where each name lives: its module is imported when the name is first asked for (PEP 562).
_HOME = {**dict.fromkeys(("MatterSection", "answer"), "texts.matters.values"),
         **dict.fromkeys(("Item", "items", "unrecognised"), "texts.matters.sentences"),
         "matter_named": "texts.matters.phrases"}


__getattr__ = deferred_names(__name__, _HOME)
