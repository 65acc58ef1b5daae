"""The font the chart picture draws with: a subset of Noto Sans CJK JP shipped in texts/fonts/.

Built by tools/build_font.py; loaded from the package's own files, never from the system.
"""

from __future__ import annotations

from importlib import resources
from io import BytesIO
from typing import Literal

from PIL import ImageFont

from texts import shipped
from texts.memo import remember

Weight = Literal["regular", "bold"]
FONT_DIR = shipped.ROOT / "fonts"
FONT_FILES: dict[Weight, str] = {
    "regular": "NotoSansCJKjp-Regular.subset.otf",
    "bold": "NotoSansCJKjp-Bold.subset.otf",
}
LICENCE_FILE = "OFL.txt"


@remember()
def font_bytes(weight: Weight) -> bytes:
    """The font file's bytes, read once from the installed package."""
    return (resources.files("texts") / "fonts" / FONT_FILES[weight]).read_bytes()


@remember()
def font(weight: Weight, size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels (a handful of sizes are used, so all stay cached)."""
    return ImageFont.truetype(BytesIO(font_bytes(weight)), size)


@remember()
def cmap(weight: Weight) -> frozenset[int]:
    """Code points the shipped font has a glyph for."""
    # Only the tests and the build tool ask, so fontTools is a test/gen dependency, not a run-time one.
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    return frozenset(TTFont(BytesIO(font_bytes(weight)))["cmap"].getBestCmap())
