"""The quiz's levels: what a round may be asked at (the bot's /quiz lists them in its command, so
they load without the questions' values)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Level"]


class Level(StrEnum):
    """How hard a round is; each level draws charts of its own topics."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
