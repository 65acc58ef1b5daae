"""The notes a reading states, as far as they can be made once: each enum's (name, member) value
pairs, and the notes whose values are few, built from them at import (texts/reading/match.py takes
them from here).
"""

from __future__ import annotations

from engine.facts import vigour
from engine.symbols import Branch, Stem
from engine.terms import General, Kin, Method, PatternName, Position, Seat, Vigour
from texts.reading.values import Note, pairs

# A note's (name, value) pairs for the values that are members of one enum, made once: the notes of
# every reading share them, so a reading makes, weighs and frees fewer objects, and a note kept by
# ``say`` holds the very pairs a new equal note holds. One table per enum (equal IntEnums of two
# enums, Branch.子 == Stem.甲, must not find each other's pair).
POSITION, BRANCH, GROUND = pairs("position", Position), pairs("branch", Branch), pairs("ground", Branch)
GENERAL, KIN, STEM = pairs("general", General), pairs("kin", Kin), pairs("stem", Stem)
SEAT, UPPER = pairs("seat", Seat), pairs("upper", Branch)
MONTH, VIGOUR = pairs("month", Branch), pairs("vigour", Vigour)
NAME, METHOD = pairs("name", PatternName), pairs("method", Method)

# The notes whose values are few, made once from those pairs: a reading takes them from here rather
# than making them again, and ``say`` then finds its kept sentence for the very same note (no
# comparison of two equal notes). By member (IntEnums are their numbers: a tuple indexed by them).
STANDS_ON = tuple(tuple((Note("stands_on", (GENERAL[g], GROUND[b])),) for b in Branch) for g in General)
EXCLUDED = tuple(tuple(Note("excluded", (GENERAL[g], GROUND[b])) for b in Branch) for g in General)
NO_LINE_SKY = tuple((Note("no_line_天空", (GROUND[b],)),) for b in Branch)
KIN_NOTES = tuple(tuple(Note("kin", (BRANCH[b], KIN[k])) for k in Kin) for b in Branch)
VIGOUR_NOTES = tuple(
    tuple(Note("vigour", (BRANCH[b], MONTH[m], VIGOUR[vigour(b, m)])) for m in Branch) for b in Branch
)
VOID_NOTES = tuple(Note("void", (BRANCH[b],)) for b in Branch)
HIDDEN_NOTES = tuple(tuple(Note("hidden_stem", (BRANCH[b], STEM[s])) for s in Stem) for b in Branch)
PATTERN_NOTES = {n: Note("pattern", (NAME[n],)) for n in PatternName}
NAME_NOTES = {m: (Note("name", (METHOD[m],)),) for m in Method}
METHOD_NOTES = {m: (Note("method", (METHOD[m],)),) for m in Method}
NOBLE_OPENING = Note("noble_opening")
STEM_SEAT, BRANCH_SEAT = SEAT[Seat.干上神], SEAT[Seat.支上神]
