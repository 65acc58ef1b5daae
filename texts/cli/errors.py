r"""What the terminal apps say on stderr: always one line, whatever the arguments held.

A message that quotes an argument would otherwise carry its newlines and other control characters
into the terminal: a two-line error, or a line a terminal rewrites. Each is written as its escape.

    >>> print(one_line("unrecognized arguments: 2026\n"))
    unrecognized arguments: 2026\n
    >>> print(one_line("甲子\t乙丑\u2028丙寅　丁卯"))
    甲子\t乙丑\u2028丙寅　丁卯
"""

from __future__ import annotations

import sys
import unicodedata

__all__ = ["one_line", "say"]

_BREAKS = frozenset({"Zl", "Zp"})  # the line and paragraph separators; other spaces stay as they are


def one_line(message: str) -> str:
    """``message`` with every control, format, surrogate or line/paragraph separator character
    written as its escape (``\\n``, ``\\u2028`` …); anything else unchanged."""
    return "".join(c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   if unicodedata.category(c)[0] == "C" or unicodedata.category(c) in _BREAKS else c
                   for c in message)


def say(message: str) -> None:
    """``message`` on stderr, as one line."""
    print(one_line(message), file=sys.stderr)
