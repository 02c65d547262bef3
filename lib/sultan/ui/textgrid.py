"""Text as a grid of glyph tiles: one ``TileGrid`` over the glyph sheet per line of text.

The glyph sheet (``sprites.GLYPH_FILE``, read once) holds a 6x10 cell per character:
printable ASCII, then Cyrillic А..я, then ``EXTRA`` (``sultan_host.desktop.sheets.CHARS``
lists them in tile order); a character it lacks shows as "?".  Changing text rewrites only
the cells whose character changed, so displayio redraws just those (no line bitmap
re-rendered, no font library in the heap), and the pixels are the same on Blinka and on
CircuitPython: the glyphs are ours, not a port's font.
"""

import displayio

from sultan import const
from sultan.ui.layout import GLYPH_H, GLYPH_W

ASCII_FIRST = const(32)  # " ", tile 0
ASCII_END = const(127)
CYRILLIC_FIRST = const(0x410)  # А
CYRILLIC_END = const(0x450)  # after я
CYRILLIC_TILE = const(95)
EXTRA = "Ёё«»—…"
EXTRA_TILE = const(159)
SPACE = const(0)
UNKNOWN = const(31)  # "?"

def tile(ch):
    """The glyph tile of character ``ch``."""
    c = ord(ch)
    if ASCII_FIRST <= c < ASCII_END:
        return c - ASCII_FIRST
    if CYRILLIC_FIRST <= c < CYRILLIC_END:
        return c - CYRILLIC_FIRST + CYRILLIC_TILE
    i = EXTRA.find(ch)
    return EXTRA_TILE + i if i >= 0 else UNKNOWN


def palette(ink, paper):
    """A text palette: ``paper`` (0xRRGGBB) for 0, ``ink`` for 1; text grids may share one."""
    pal = displayio.Palette(2)
    pal[0] = paper
    pal[1] = ink
    return pal


class TextLine:
    """A line of ``cols`` glyph cells at virtual (x, y), coloured by a ``palette()``.

    ``grid`` is its TileGrid, to put in a Group; ``text`` the text on show.
    """

    def __init__(self, glyphs, pal, cols, x=0, y=0):
        self.grid = displayio.TileGrid(glyphs, pixel_shader=pal, width=cols, height=1,
                                       tile_width=GLYPH_W, tile_height=GLYPH_H, default_tile=SPACE,
                                       x=x, y=y)
        self.cols = cols
        self.text = ""

    def write(self, text):
        """Show ``text``, cut or padded with spaces to the width."""
        if self.text == text:
            return
        self.text = text
        grid = self.grid
        i = 0
        end = self.cols
        for ch in text:
            if i == end:
                break
            t = tile(ch)
            if grid[i] != t:
                grid[i] = t
            i += 1
        while i < end:
            if grid[i] != SPACE:
                grid[i] = SPACE
            i += 1
