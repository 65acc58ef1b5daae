"""The bot keeps no word of its own that the texts already say: a line the texts have (the line
for a question that named no matter, say) is read from them, so the two cannot drift apart."""

from __future__ import annotations

import re

from bot.core.words import TEXTS
from texts.words import LANGS, words

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
LITERAL_MIN = 8  # characters a texts' word says besides its placeholders, in every language, to be compared


def filled(template: str) -> re.Pattern[str]:
    """What ``template`` reads with any values in its placeholders."""
    parts = re.split(r"(\{[^{}]*\})", template)
    return re.compile("".join(".+?" if PLACEHOLDER.fullmatch(p) else re.escape(p) for p in parts), re.S)


def test_no_word_of_the_bot_repeats_a_word_of_the_texts() -> None:
    loaded = words()
    keys = list(loaded["ja"])
    bot = [k for k in keys if k.startswith("bot.")]
    shared = [k for k in keys if not k.startswith("bot.")
              and all(len(PLACEHOLDER.sub("", loaded[lang][k])) >= LITERAL_MIN for lang in LANGS)]
    assert len(bot) > 200 and len(shared) > 150
    repeated = []
    for key in shared:
        patterns = {lang: filled(loaded[lang][key]) for lang in LANGS}
        repeated += [(own, key) for own in bot if all(patterns[lang].fullmatch(loaded[lang][own]) for lang in LANGS)]
    assert not repeated, f"the bot's own words say what the texts' words say: {repeated}"


def test_the_bots_words_are_all_in_its_own_file() -> None:
    """The start reads bot.toml alone (bot.core.words): every ``bot.`` word is there, none elsewhere."""
    for lang in LANGS:
        assert {k: by_lang[lang] for k, by_lang in TEXTS.items()} == {
            k.removeprefix("bot."): v for k, v in words()[lang].items() if k.startswith("bot.")}

