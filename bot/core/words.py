"""The bot's words: which language a Discord locale reads, the bot's texts, and the command translator.

The one ``text()`` (the bot's own words, ``bot.*`` keys) and the one ``language_of()`` of the bot.

The words are data: ``texts/locales/<lang>/bot.toml`` (keys ``bot.<key>``), loaded and checked by
``texts.words`` — every key in ja, en, zh-TW and zh-CN with the same placeholders; the start
reads that file alone (the command sync needs it in all four), the other files are read with
the first reply in a language. English is the base of command names and descriptions (what a fr/de/ko client
sees); ja, zh-TW and zh-CN clients get their own. Replies follow the reader's locale (any locale
without words of its own reads English; no locale at all, e.g. a scheduled post, reads Japanese).
Classical lines are never translated here: only the corpus's original (and the seed's own Japanese
translation) is ever quoted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

import discord
from discord import app_commands

from engine.terms import Frame, Method, PatternName
from texts import words as shared
from texts.words import LANGS, Lang

__all__ = ["DISCORD_LOCALE", "GLOSSES", "LANGS", "TEXTS", "Lang", "Translator", "as_lang", "file_words", "gloss",
           "language_of", "ls", "text", "word"]

# The Discord locales given a translation of their own (the English default serves every other one).
_BY_LOCALE: dict[str, Lang] = {"ja": "ja", "zh-TW": "zh-TW", "zh-CN": "zh-CN"}
# The Discord locale whose translations a language reads (English reads the commands' defaults).
DISCORD_LOCALE: Mapping[Lang, str] = MappingProxyType({lang: locale for locale, lang in _BY_LOCALE.items()})
_PREFIX = "bot."


def language_of(locale: discord.Locale | str | None) -> Lang:
    """The language a Discord locale reads: ja, en, zh-TW, zh-CN; any other locale reads English.

    ``None`` (no locale known, e.g. a scheduled post) reads the project's default, Japanese.
    """
    key = locale.value if isinstance(locale, discord.Locale) else locale
    return shared.language_of(key)


def as_lang(value: str | None) -> Lang | None:
    """A stored language choice (``ja``, ``en``, ``zh-TW``, ``zh-CN``) as a Lang; None for anything else."""
    for lang in LANGS:
        if value == lang:
            return lang
    return None


def _texts() -> Mapping[str, Mapping[Lang, str]]:
    """``bot.toml``'s words by key, each in every language (a read-only view of them)."""
    loaded = shared.load_file("bot")
    keys = [k for k in loaded["ja"] if k.startswith(_PREFIX)]
    return MappingProxyType({
        k.removeprefix(_PREFIX): MappingProxyType({lang: loaded[lang][k] for lang in LANGS}) for k in keys
    })


TEXTS: Mapping[str, Mapping[Lang, str]] = _texts()
# The English names of the 課名 words (methods, frames) and the named patterns, as the glossary and
# the translation write them (texts/english.toml): they help an English reader remember a name.
_GLOSSED = (*(m.name for m in Method), *(f.name for f in Frame), *(p.name for p in PatternName))
GLOSSES: Mapping[str, str] = MappingProxyType({  # the glossary's names (texts/english.toml), "the" left off
    k: v.removeprefix("the ") for k in _GLOSSED if (v := shared.english_name(k)) is not None
})


def gloss(name: str) -> str:
    """``name`` with its English gloss, e.g. ``"反吟·重審 (Return Chant · Repeated Examination)"``.

    Parts (split at ``・`` or ``·``) without a gloss are left as they are; a name with no glossed
    part is returned unchanged.
    """
    parts = re.split("[・·]", name)
    glossed = [GLOSSES.get(p, p) for p in parts]
    if glossed == parts:
        return name
    return f"{name} ({' · '.join(glossed)})"


def text(key: str, lang: Lang, /, **values: object) -> str:
    """The bot's word ``key`` in ``lang``, formatted with ``values``; ``KeyError`` for an unknown key."""
    template = TEXTS[key][lang]
    return template.format(**values) if values else template


def word(key: str, lang: Lang, /, **values: object) -> str:
    """A word of the project's shared vocabulary (``texts/locales/<lang>/*.toml`` outside ``bot.``),
    e.g. ``list.sep`` or ``quiz.choice``: the bot reaches texts' words only through here."""
    return shared.text(key, lang, **values)


def file_words(name: str) -> Mapping[Lang, Mapping[str, str]]:
    """The words of one locale file of the texts (``matter``: ``texts/locales/<lang>/matter.toml``) in
    every language, checked, read now and not kept: for what the start builds once from a file
    other than bot.toml (the matter option's choices) without reading every language whole."""
    return shared.load_file(name)


def ls(key: str) -> app_commands.locale_str:
    """A command description whose default (what clients in any other locale see) is English; the
    Translator gives Japanese and Chinese clients their own.

    Command and option names stay the ASCII names everyone types (``/cast when:now``), so
    help texts and docs read the same in every language.
    """
    return app_commands.locale_str(TEXTS[key]["en"], key=key)


class Translator(app_commands.Translator):
    """Gives Discord the localized command names and descriptions from ``TEXTS``."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        # The locale first: the command sync asks for each of Discord's 32, and 29 have no words of their own
        lang = _BY_LOCALE.get(locale.value)
        if lang is None:
            return None
        key = string.extras.get("key")
        if not isinstance(key, str) or key not in TEXTS:
            return None
        translated = TEXTS[key].get(lang)
        if translated is None or translated == string.message:
            return None
        return translated
