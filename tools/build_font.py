"""Build the CJK font subset the chart picture draws with (texts/fonts/).

The picture (texts/picture/) must not depend on a system font, so the project ships a subset of
Noto Sans CJK JP (SIL Open Font License 1.1), Regular and Bold, holding only the glyphs the
renderer may draw: every character of the picture's label files and of the ``term.*`` words in
every language, plus the domain characters (stems, branches, the generals, 課名, 六親) and
printable ASCII for dates and zone names — exactly ``texts.picture.layout.drawable_characters()``.
It also writes the licence text next to the fonts.

Run it after changing any ``texts/locales/*/picture.toml`` (the tests fail with the missing
characters named until you do)::

    apt-get update && apt-get install -y fonts-noto-cjk     # the source fonts (Debian)
    pip install -e ".[gen]"                                  # fontTools
    python tools/build_font.py                               # writes texts/fonts/*.otf and OFL.txt
    python tools/build_font.py --check                       # exit 1 if the shipped subset lacks a glyph

``--source DIR`` points at another directory holding NotoSansCJK-{Regular,Bold}.ttc.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fontTools import subset  # type: ignore[import-untyped]  # noqa: E402
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]  # noqa: E402

from texts.picture.fonts import FONT_DIR, FONT_FILES, LICENCE_FILE, Weight  # noqa: E402
from texts.picture.shapes import drawable_characters  # noqa: E402

DEBIAN_FONTS = Path("/usr/share/fonts/opentype/noto")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
SOURCES: dict[Weight, str] = {"regular": "NotoSansCJK-Regular.ttc", "bold": "NotoSansCJK-Bold.ttc"}
JP_INDEX = 0  # face 0 of the Noto Sans CJK collections is "Noto Sans CJK JP"


def subset_font(source: Path, characters: str, target: Path) -> int:
    """Write the JP face of ``source`` cut down to ``characters``; returns the file's size."""
    collection = TTCollection(str(source), lazy=False)
    font: TTFont = collection.fonts[JP_INDEX]
    options = subset.Options()
    options.layout_features = []  # Pillow's basic layout applies none; kerning of CJK is nil
    options.hinting = False  # drawn at ≥ 28 px (2×), where hints change nothing visible
    options.desubroutinize = True  # plain charstrings compress better in the wheel
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright, names and licence
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(c) for c in characters}))
    subsetter.subset(font)
    font.save(str(target))
    return target.stat().st_size


def licence_text(font_path: Path) -> str:
    """The copyright of the font (from its name table) and the OFL 1.1 from Debian's copyright file."""
    font = TTFont(str(font_path))
    notice = font["name"].getDebugName(0) or "Copyright 2014-2021 Adobe (http://www.adobe.com/)"
    lines = DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    # The licence paragraph is the "License: SIL-1.1" line followed by the indented text.
    start = next(i + 1 for i, line in enumerate(lines[:-1])
                 if line == "License: SIL-1.1" and lines[i + 1].startswith(" "))
    body: list[str] = []
    for line in lines[start:]:
        if not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    return (
        "texts/fonts/*.otf are subsets of Noto Sans CJK JP (Regular, Bold), made by tools/build_font.py\n"
        "from Debian's fonts-noto-cjk (https://github.com/googlefonts/noto-cjk).\n\n"
        f"{notice}\n\n" + "\n".join(body).strip() + "\n"
    )


def missing_characters() -> dict[str, str]:
    """Characters the renderer may draw that a shipped font file lacks, by file."""
    wanted = drawable_characters()
    out: dict[str, str] = {}
    for name in FONT_FILES.values():
        cmap = TTFont(str(FONT_DIR / name))["cmap"].getBestCmap()
        lacking = "".join(sorted(c for c in wanted if ord(c) not in cmap))
        if lacking:
            out[name] = lacking
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEBIAN_FONTS, help="directory of NotoSansCJK-*.ttc")
    parser.add_argument("--check", action="store_true", help="only check the shipped subset covers every glyph")
    args = parser.parse_args(argv)
    if args.check:
        lacking = missing_characters()
        for name, chars in lacking.items():
            print(f"{name} lacks {chars!r}: run python tools/build_font.py", file=sys.stderr)
        return 1 if lacking else 0
    characters = "".join(sorted(drawable_characters()))
    FONT_DIR.mkdir(parents=True, exist_ok=True)
    total = 0
    for weight, source_name in SOURCES.items():
        source = args.source / source_name
        if not source.exists():
            print(f"{source} not found: apt-get install -y fonts-noto-cjk, or give --source DIR", file=sys.stderr)
            return 2
        size = subset_font(source, characters, FONT_DIR / FONT_FILES[weight])
        total += size
        print(f"{FONT_FILES[weight]}: {len(characters)} characters, {size / 1024:.0f} KiB")
    (FONT_DIR / LICENCE_FILE).write_text(licence_text(FONT_DIR / FONT_FILES["regular"]), encoding="utf-8")
    print(f"total {total / 1024:.0f} KiB in {FONT_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
