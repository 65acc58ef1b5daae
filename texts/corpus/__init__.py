"""The 《心印賦》 (大六壬指南 巻一) as data: its units (units.py), the book they make (book.py), the
folding of scripts a look-up needs (normalize.py, scripts.py), the project's translations of it
(translations.py) and the editor's notes in the reader's language (notes.py).

    >>> from texts.corpus import corpus
    >>> corpus().general_on("貴人", "子").original
    '解紛（子）必囑事於童僕，'
"""

from texts.corpus.book import DATA, Corpus, canonical_general, corpus, load, parse
from texts.corpus.units import BROKEN, KINDS, NOTE_KINDS, CorpusError, Note, Unit, validate_unit

__all__ = [
    "BROKEN",
    "DATA",
    "KINDS",
    "NOTE_KINDS",
    "Corpus",
    "CorpusError",
    "Note",
    "Unit",
    "canonical_general",
    "corpus",
    "load",
    "parse",
    "validate_unit",
]
