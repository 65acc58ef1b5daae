"""天地盤: the heaven plate turned over the fixed earth plate (¶43, docs/rules.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

from .symbols import BRANCHES, Branch


@dataclass(frozen=True, slots=True)
class Plate:
    """The 天地盤 for one offset ``k = (月将 − 時支) mod 12``.

    ``up(b)`` is the 天盤 branch standing over 地盤 ``b``; ``down(h)`` is the 地盤 branch under
    天盤 ``h``. ``offset`` 0 is 伏吟 (every branch at home), 6 is 反吟 (every branch on its clash).
    """

    offset: int

    def up(self, ground: Branch) -> Branch:
        return BRANCHES[(int(ground) + self.offset) % 12]  # int: not Branch's own + (a call)

    def down(self, heaven: Branch) -> Branch:
        return BRANCHES[(int(heaven) - self.offset) % 12]

    @property
    def heaven(self) -> tuple[Branch, ...]:
        """The 天盤 branch over each 地盤 branch, indexed 子 … 亥."""
        return tuple(BRANCHES[(g + self.offset) % 12] for g in range(12))


PLATES: tuple[Plate, ...] = tuple(Plate(k) for k in range(12))


def plate_for(yuejiang: Branch, hour: Branch) -> Plate:
    """Put the 月将 over the hour branch (以月將加占時之上, ¶43)."""
    return PLATES[(int(yuejiang) - int(hour)) % 12]  # int: not Branch's own - (a call)
