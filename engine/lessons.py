"""四課: the four lessons read off the plate from the day stem and day branch (¶47, docs/rules.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

from .plate import Plate
from .symbols import Branch, Element, Pillar, Stem
from .terms import Relation


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: ``upper`` stands over ``lower``; ``relation`` is 剋, 賊 or ``None``."""

    number: int
    upper: Branch
    lower: Stem | Branch
    relation: Relation | None

    @property
    def lower_element(self) -> Element:
        return self.lower.element

    @property
    def ground(self) -> Branch:
        """Where the lower stands on the 地盤: a stem counts at its 寄宮 (¶39)."""
        return self.lower.lodging if isinstance(self.lower, Stem) else self.lower

    def __str__(self) -> str:
        return f"{self.upper}/{self.lower}"


def relation(upper: Branch, lower: Stem | Branch) -> Relation | None:
    """剋 when the upper overcomes the lower, 賊 when the lower overcomes the upper, else ``None``."""
    if upper.element.overcomes(lower.element):
        return Relation.剋
    if lower.element.overcomes(upper.element):
        return Relation.賊
    return None


def four_lessons(day: Pillar, plate: Plate) -> tuple[Lesson, Lesson, Lesson, Lesson]:
    """Lessons 1–4: the stem (seen at its 寄宮) and the branch, each with the one above it."""
    upper1 = plate.up(day.stem.lodging)
    upper2 = plate.up(upper1)
    upper3 = plate.up(day.branch)
    upper4 = plate.up(upper3)
    return (
        Lesson(1, upper1, day.stem, relation(upper1, day.stem)),
        Lesson(2, upper2, upper1, relation(upper2, upper1)),
        Lesson(3, upper3, day.branch, relation(upper3, day.branch)),
        Lesson(4, upper4, upper3, relation(upper4, upper3)),
    )


def is_incomplete(lessons: tuple[Lesson, ...]) -> bool:
    """不備: two lessons are the same (same upper over the same place).

    The stem is compared at its 寄宮, so 甲 lodged at 寅 and the branch 寅 are one place; this
    also keeps IntEnum equality (Stem.甲 == Branch.子 == 0) out of the comparison.
    """
    pairs = {(int(lesson.upper), int(lesson.ground)) for lesson in lessons}
    return len(pairs) < len(lessons)
