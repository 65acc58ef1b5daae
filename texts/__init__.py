"""The 《心印賦》 (大六壬指南 巻一) with its annotation and translation, as units a chart can query.

    >>> from texts import corpus
    >>> corpus().general_on("貴人", "子").original
    '解紛（子）必囑事於童僕，'

``BRANCHES`` and ``GENERALS`` are the engine's (``engine.symbols``, ``engine.terms``), re-exported
here so that older imports keep working; ``str()`` of each member is its character(s).
"""

from engine.symbols import BRANCHES
from engine.terms import GENERALS
from texts.corpus import (
    KINDS,
    NOTE_KINDS,
    Corpus,
    CorpusError,
    Note,
    Unit,
    canonical_general,
    corpus,
    load,
)
from texts.normalize import normalize

__all__ = [
    "BRANCHES",
    "GENERALS",
    "KINDS",
    "NOTE_KINDS",
    "Corpus",
    "CorpusError",
    "Note",
    "Unit",
    "canonical_general",
    "corpus",
    "load",
    "normalize",
]
