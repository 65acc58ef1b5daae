"""The 《心印賦》 (大六壬指南 巻一) with its annotation and translation, as units a chart can query.

    >>> from texts import corpus
    >>> corpus().general_on("貴人", "子").original
    '解紛（子）必囑事於童僕，'
"""

from texts.corpus import (
    BRANCHES,
    GENERALS,
    KINDS,
    Corpus,
    CorpusError,
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
    "Corpus",
    "CorpusError",
    "Unit",
    "canonical_general",
    "corpus",
    "load",
    "normalize",
]
