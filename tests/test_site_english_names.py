"""The study site's English glossary calls the generals, methods, frames and 課体 by the project's
English names (texts/english.toml), as the translation and the bot do, not by their CJK forms."""

from __future__ import annotations

import html

from texts.site.reference import glossary_page, terms
from texts.words import LANGS, english_name, text

NAMED = ("General", "Method", "Frame", "PatternName")  # the groups of texts/english.toml's names


def test_the_english_glossary_names_each_proper_name_in_english() -> None:
    groups = dict(terms("en"))
    assert set(NAMED) <= groups.keys()
    rows = [row for group in NAMED for row in groups[group]]
    assert len(rows) > 50
    for row in rows:
        key = row.anchor.removeprefix("term-")
        english = english_name(key)
        assert english is not None and row.shown == english, key
        assert row.forms[LANGS.index("en")] == english and row.forms[LANGS.index("ja")] != english, key
    page = glossary_page("en").text
    assert f'<th scope="row">{html.escape("the Black Warrior", quote=False)}</th>' in page


def test_other_languages_keep_their_own_forms() -> None:
    for lang in ("ja", "zh-TW", "zh-CN"):
        general = dict(terms(lang))["General"]
        assert [row.shown for row in general] == [text(f"term.General.{row.anchor[5:]}", lang) for row in general]
