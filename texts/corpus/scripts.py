"""Which characters belong to which reader's script: the check that keeps Japanese forms out of
Chinese and English output.

Japanese writes a few hundred characters in forms of its own (shinjitai: 伝 焼 渉 専 戸 内 …) that
Chinese traditional writes otherwise (傳 燒 涉 專 戶 內); simplified Chinese has forms of its own
again (传 烧 涉 专 户 内). The project writes every CJK string in the reader's script:

- ``ja``: the project's canonical Japanese forms (anything goes);
- ``zh-TW``: traditional forms, no kana and no Japanese-only character;
- ``zh-CN``: simplified forms, no kana, no Japanese-only and no traditional-only character;
- ``en``: CJK only in the forms of the classical original (traditional), no kana.

The Japanese-only characters are OpenCC's Japanese → traditional table (``jp2t``: every shinjitai
it turns into another form), less the characters Chinese traditional writes the same way
(OpenCC also turns 為 into 爲 and 即 into 卽: old forms, not the standard ones), plus the
shinjitai OpenCC leaves alone (内 戸 …). Quotations of the seed are shown as written and are not
checked here; the callers leave them out.

    >>> foreign("名為焼身", "zh-TW"), foreign("名为烧身", "zh-CN"), foreign("貴人", "zh-CN")
    ('焼', '', '貴')
    >>> foreign("Named 燒身 (¶51)", "en"), foreign("伏吟・自任", "en")
    ('', '・')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from texts.memo import remember
from texts.words import Lang

if TYPE_CHECKING:
    import opencc

# Characters OpenCC's jp2t changes although Chinese traditional (Taiwan's standard forms, the
# forms of the seed's original) writes them just so: they are not Japanese-only.
_TRADITIONAL_TOO = frozenset("為並即痴偽秘台余欠予弁虫缶亘晃萌凜桝槙沪")
# Shinjitai OpenCC's jp2t leaves unchanged, with their traditional forms.
_JAPANESE_EXTRA: dict[str, str] = {
    "内": "內", "戸": "戶", "呉": "吳", "娯": "娛", "悦": "悅", "鋭": "銳", "税": "稅", "姫": "姬",
    "劔": "劍", "絶": "絕",
}  # fmt: skip


@remember()
def _converters() -> tuple[opencc.OpenCC, opencc.OpenCC]:
    import opencc  # loaded by the first conversion, not by every process that imports the corpus

    return opencc.OpenCC("jp2t.json"), opencc.OpenCC("t2s.json")


def is_cjk(ch: str) -> bool:
    """A CJK ideograph (the unified blocks and the compatibility block)."""
    code = ord(ch)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3FFFF


def is_kana(ch: str) -> bool:
    """Hiragana or katakana, the katakana middle dot (・) and the prolonged-sound mark included."""
    return 0x3040 <= ord(ch) <= 0x30FF or 0x31F0 <= ord(ch) <= 0x31FF or 0xFF66 <= ord(ch) <= 0xFF9F


@remember()
def traditional(ch: str) -> str:
    """The traditional form of a Japanese-only character (焼 → 燒, 内 → 內); other characters as they are."""
    if ch in _JAPANESE_EXTRA:
        return _JAPANESE_EXTRA[ch]
    if ch in _TRADITIONAL_TOO or not is_cjk(ch):
        return ch
    jp2t, _ = _converters()
    form: str = jp2t.convert(ch)
    return form


def simplified(text: str) -> str:
    """``text`` (the seed's traditional or Japanese forms) in simplified Chinese: 日遙克神 → 日遥克神."""
    _, t2s = _converters()
    form: str = t2s.convert("".join(traditional(ch) for ch in text))
    return form


def japanese_only(ch: str) -> bool:
    """A Japanese form that Chinese traditional writes otherwise (伝 焼 渉 内 戸 …)."""
    return traditional(ch) != ch


@remember()
def simplified_ok(ch: str) -> bool:
    """Simplified Chinese writes ``ch`` as it is (its traditional form simplifies back to it)."""
    if not is_cjk(ch):
        return True
    _, t2s = _converters()
    return bool(t2s.convert(traditional(ch)) == ch)


@remember()
def foreign_char(ch: str, lang: Lang) -> bool:
    """``ch`` is not in ``lang``'s script."""
    if lang == "ja":
        return False
    if is_kana(ch):
        return True
    if lang == "zh-CN":
        return not simplified_ok(ch)
    return japanese_only(ch)


def foreign(text: str, lang: Lang) -> str:
    """The characters of ``text`` that are not in ``lang``'s script, each once, in order."""
    return "".join(dict.fromkeys(ch for ch in text if foreign_char(ch, lang)))


def japanese_only_characters() -> frozenset[str]:
    """Every Japanese-only character of the CJK unified block (for tests and the glossary check)."""
    return frozenset(ch for ch in map(chr, range(0x4E00, 0xA000)) if japanese_only(ch))
