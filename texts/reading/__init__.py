"""A chart read as a teacher reads it: the values first (values.py, made by match.py's ``read``),
the sentences on top (sentences.py, the one place a reading's notes become text)."""

from texts.reading.match import read
from texts.reading.values import Entry, Note, Reading, Said, Section

__all__ = ["Entry", "Note", "Reading", "Said", "Section", "read"]
