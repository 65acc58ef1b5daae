"""The chart drawn: what it is made of (shapes.py), where each part goes (layout.py), its texts as
pixels (glyphs.py, with the font of fonts.py), painted and encoded as PNG (raster.py), or written as
SVG (svg.py); its description for a screen reader (alt.py); the picture a reply attaches, kept per
時 (draw.py); and the golden images the tests compare with (golden.py).

shapes, layout and alt need no imaging library, nor does draw until it draws; the rest need
Pillow (the ``picture`` extra).
"""
