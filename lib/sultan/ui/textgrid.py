# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
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
EXTRA = "Ёё«»—…↻"
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


class TextLine:
    """A line of ``cols`` glyph cells at virtual (x, y), coloured by a two-colour palette
    (``sultan.ui.build.palette``).

    ``grid`` is its TileGrid, to put in a Group; ``text`` the text on show.
    """

    def __init__(self, glyphs, pal, cols, x=0, y=0):
        self.grid = displayio.TileGrid(glyphs, pixel_shader=pal, width=cols, height=1,
                                       tile_width=GLYPH_W, tile_height=GLYPH_H, default_tile=SPACE,
                                       x=x, y=y)
        self.cols = cols
        self.text = ""

    def write(self, text, lead=0):
        """Show ``text`` after ``lead`` blank cells (a line always written with the same lead),
        cut or padded with spaces to the width.  The panel's lines leave their first cell to the
        menu's marker: a lead, not a " " + text, as on CircuitPython each new str costs a walk
        over the interned strings (0.2 ms on the PyBadge's 9.1.1).

        It walks the UTF-8 bytes of ``text``, not its characters: on the Pico a str's
        characters and a call each cost more than the bytes' ints (a 26-column line took 3.3 ms
        in English and 3.8 in Russian, now 2.1 and 3.0).  The cells past both the old text and
        the new are blank already, and are not read.
        """
        old = self.text
        if old == text:
            return
        self.text = text
        grid = self.grid
        end = self.cols
        i = lead
        c = 0  # the code point of a character of 2 to 4 bytes, as its bytes come
        more = 0  # its bytes still to come
        for b in text.encode():
            if b < 0x80:
                t = b - ASCII_FIRST if ASCII_FIRST <= b < ASCII_END else UNKNOWN
            elif b >= 0xC0:  # a lead byte
                more = 1 if b < 0xE0 else 2 if b < 0xF0 else 3
                c = b & (0x3F >> more)
                continue
            else:
                c = c << 6 | b & 0x3F
                more -= 1
                if more:
                    continue
                t = c - CYRILLIC_FIRST + CYRILLIC_TILE if CYRILLIC_FIRST <= c < CYRILLIC_END else tile(chr(c))
            if i == end:
                break
            if grid[i] != t:
                grid[i] = t
            i += 1
        end = min(end, lead + len(old))
        while i < end:
            if grid[i] != SPACE:
                grid[i] = SPACE
            i += 1
