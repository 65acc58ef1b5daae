"""The school options in force, named: every output, the terminal's, the bot's,
the picture's and the site's, names the options that are not the defaults.

A module of its own so the chart's text (texts.render) names them without loading the reading.
"""

from __future__ import annotations

from dataclasses import fields

from engine.school import DEFAULT_SCHOOL, School
from texts.words import Lang, text

__all__ = ["school_line", "school_options"]


# The options with their defaults, in field order (dataclasses.fields builds its tuple at every call).
_DEFAULTS = tuple((f.name, getattr(DEFAULT_SCHOOL, f.name)) for f in fields(School))


def school_options(school: School) -> tuple[str, ...]:
    """The names of ``school``'s options that differ from the defaults (``School`` field names), in field order."""
    if school == DEFAULT_SCHOOL:
        return ()
    return tuple(name for name, default in _DEFAULTS if getattr(school, name) != default)


def school_line(school: School, lang: Lang) -> str | None:
    """One line naming the non-default school options in force, in ``lang``; ``None`` for the defaults.

    >>> school_line(School(noble_table="甲羊"), "en")
    'School options (not the defaults): 貴人 table 甲羊'
    >>> school_line(School(), "ja") is None
    True
    """
    changed = school_options(school)
    if not changed:
        return None
    options = [text(f"school.{name}", lang, value=getattr(school, name)) for name in changed]
    return text("school.line", lang, options=text("list.sep", lang).join(options))
