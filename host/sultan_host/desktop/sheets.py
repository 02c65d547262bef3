"""Draw the device's two sheets and pack them into the data files it reads (host only).

    python -m sultan_host.desktop.sheets            # rewrite lib/sultan/ui/{sprites,glyphs}.dat
    python -m sultan_host.desktop.sheets --check    # exit 1 if either file is out of date

Every picture is our own: the card art below and the letters in ``sultan_host.desktop.font``,
as bit strings ("#" ink, "." none, rows split by spaces).  ``sultan.ui.sprites`` reads the
files into Bitmaps at start (its docstring has the file format); ``host_tests/ui/test_screen.py``
checks the files are what this module draws, and checks pixels on the screen against these
same bit strings.
"""

import argparse
import os
import sys

from sultan.ui import sprites, textgrid
from sultan.ui.sprites import (
    BACK,
    BACK_LIGHT,
    CARD_H,
    CARD_W,
    CLEAR,
    CLUB,
    DIAMOND,
    FACE,
    FELT,
    GOLD,
    INK,
    RED,
    SHEET_COLS,
    SHEET_ROWS,
    SLOT,
    T_BACK,
    T_BIG,
    T_EMPTY,
    T_FELT,
    T_RANK_BLACK,
    T_RANK_RED,
    T_STAR,
    T_SUIT,
    T_SULTAN,
    TILE_H,
    TILE_W,
)

from sultan_host.desktop import font

# 6x8 rank glyphs, A..K ("10" is 9 wide).
RANKS = (
    "..##.. .####. ##..## ##..## ###### ##..## ##..## ##..##",
    ".####. ##..## ....## ...##. ..##.. .##... ##.... ######",
    ".####. ##..## ....## ..###. ....## ....## ##..## .####.",
    "...##. ..###. .####. ##.##. ###### ...##. ...##. ...##.",
    "###### ##.... #####. ....## ....## ....## ##..## .####.",
    "..###. .##... ##.... #####. ##..## ##..## ##..## .####.",
    "###### ....## ...##. ...##. ..##.. ..##.. .##... .##...",
    ".####. ##..## ##..## .####. ##..## ##..## ##..## .####.",
    ".####. ##..## ##..## ##..## .##### ....## ...##. .###..",
    ".##..###. ###.##.## .##.##.## .##.##.## .##.##.## .##.##.## .##.##.## .##..###.",
    "..#### ....## ....## ....## ....## ##..## ##..## .####.",
    ".####. ##..## ##..## ##..## ##..## ##.### .####. ....##",
    "##..## ##.##. ####.. ###... ####.. ##.##. ##..## ##..##",
)
# 7-wide suit symbols: spades, hearts, diamonds, clubs.
SUITS = (
    "...#... ..###.. .#####. ####### ####### .##.##. ...#... ..###..",
    ".##.##. ####### ####### ####### .#####. ..###.. ...#...",
    "...#... ..###.. .#####. ####### .#####. ..###.. ...#...",
    "..###.. ..###.. ##.#.## ####### ##.#.## ...#... ..###..",
)
CROWN = "#..#..# #..#..# ##.#.## ####### ####### #######"
STAR = "....#.... ...###... ...###... ######### .#######. ..#####.. .###.###. ##.....##"

HERE = os.path.dirname(os.path.abspath(sprites.__file__))
# Every character with a glyph, in tile order (``textgrid.tile`` maps them so).
CHARS = ("".join(chr(c) for c in range(textgrid.ASCII_FIRST, textgrid.ASCII_END))
         + "".join(chr(c) for c in range(textgrid.CYRILLIC_FIRST, textgrid.CYRILLIC_END)) + textgrid.EXTRA)
GLYPHS_PER_ROW = 16


class Canvas:
    """A sheet of palette indices, painted tile by tile as the device's Bitmap will be."""

    def __init__(self, w, h, value=0):
        self.w = w
        self.h = h
        self.px = [[value] * w for _ in range(h)]

    def tile_origin(self, t):
        return (t % SHEET_COLS) * TILE_W, (t // SHEET_COLS) * TILE_H

    def fill(self, t, value):
        x, y = self.tile_origin(t)
        for j in range(y, y + TILE_H):
            for i in range(x, x + TILE_W):
                self.px[j][i] = value

    def put(self, tiles, cx, cy, value):
        """Set pixel (cx, cy) of a card (22x30) whose six tiles are ``tiles``."""
        t = tiles[(cy // TILE_H) * 2 + cx // TILE_W]
        x, y = self.tile_origin(t)
        self.px[y + cy % TILE_H][x + cx % TILE_W] = value

    def glyph(self, tiles, rows, cx, cy, value, scale=1):
        """Paint a bit-string glyph at card position (cx, cy)."""
        y = cy
        for row in rows.split():
            for _s in range(scale):
                x = cx
                for ch in row:
                    if ch == "#":
                        for k in range(scale):
                            self.put(tiles, x + k, y, value)
                    x += scale
                y += 1

    def card(self, tiles, bg, border=-1):
        """Fill a card's six tiles with ``bg``, round its corners, optional border."""
        for t in tiles:
            if t is not None:
                self.fill(t, bg)
        if border >= 0:
            for cx in range(CARD_W):
                self.put(tiles, cx, 0, border)
                self.put(tiles, cx, CARD_H - 1, border)
            for cy in range(CARD_H):
                self.put(tiles, 0, cy, border)
                self.put(tiles, CARD_W - 1, cy, border)
        for cx, cy in ((0, 0), (CARD_W - 1, 0), (0, CARD_H - 1), (CARD_W - 1, CARD_H - 1)):
            self.put(tiles, cx, cy, CLEAR)


def _six(first):
    return (first, first + 1, first + 2, first + 3, first + 4, first + 5)


def _faces(c):
    """Rank tiles (top-left of a face), small and big suit tiles."""
    for rank in range(1, 14):
        cx = 1 if rank == 10 else 2
        for base, ink in ((T_RANK_BLACK, INK), (T_RANK_RED, RED)):
            t = base + rank - 1
            tiles = (t, None, None, None, None, None)
            c.fill(t, FACE)
            c.put(tiles, 0, 0, CLEAR)
            c.glyph(tiles, RANKS[rank - 1], cx, 1, ink)
    for suit in range(4):
        ink = (INK, RED, DIAMOND, CLUB)[suit]  # the four-colour deck changes the last two (sprites)
        t = T_SUIT + suit
        tiles = (None, t, None, None, None, None)
        c.fill(t, FACE)
        c.put(tiles, CARD_W - 1, 0, CLEAR)
        c.glyph(tiles, SUITS[suit], TILE_W + 2, 1, ink)
        b = T_BIG + 4 * suit
        tiles = (None, None, b, b + 1, b + 2, b + 3)
        for t in tiles[2:]:
            c.fill(t, FACE)
        c.put(tiles, 0, CARD_H - 1, CLEAR)
        c.put(tiles, CARD_W - 1, CARD_H - 1, CLEAR)
        h = len(SUITS[suit].split())
        c.glyph(tiles, SUITS[suit], 4, TILE_H + (20 - 2 * h) // 2, ink, 2)


def sprite_sheet():
    """The sprite sheet as rows of palette indices."""
    c = Canvas(SHEET_COLS * TILE_W, SHEET_ROWS * TILE_H, FELT)
    c.fill(T_FELT, FELT)
    c.fill(T_STAR, FELT)
    c.glyph((T_STAR, None, None, None, None, None), STAR, 1, 1, GOLD)
    _faces(c)
    # The back: a blue lattice in a white edge.
    tiles = _six(T_BACK)
    c.card(tiles, BACK, FACE)
    for cy in range(2, CARD_H - 2):
        for cx in range(2, CARD_W - 2):
            if (cx + cy) % 4 == 0 or (cx - cy) % 4 == 0:
                c.put(tiles, cx, cy, BACK_LIGHT)
    # An empty place: a lighter outline, clear inside.
    c.card(_six(T_EMPTY), CLEAR, SLOT)
    # The sultan: K of hearts with a crown, on gold.
    tiles = _six(T_SULTAN)
    c.card(tiles, GOLD)
    c.glyph(tiles, RANKS[12], 2, 1, RED)
    c.glyph(tiles, CROWN, TILE_W + 2, 2, RED)
    c.glyph(tiles, SUITS[1], 4, TILE_H + 3, RED, 2)
    return c.px


def glyph_sheet():
    """The glyph sheet as rows of 0 (paper) and 1 (ink), in ``CHARS`` order."""
    chars = CHARS
    rows_of = (len(chars) + GLYPHS_PER_ROW - 1) // GLYPHS_PER_ROW
    w = GLYPHS_PER_ROW * font.CELL_W
    px = [[0] * w for _ in range(rows_of * font.CELL_H)]
    for i, ch in enumerate(chars):
        x0 = (i % GLYPHS_PER_ROW) * font.CELL_W
        y0 = (i // GLYPHS_PER_ROW) * font.CELL_H
        for j, row in enumerate(font.rows(ch)):
            for k, bit in enumerate(row):
                px[y0 + j][x0 + k] = 1 if bit == "#" else 0
    return px


def pack(px, depth):
    """A data file's bytes: the header, then each row packed first pixel high."""
    h = len(px)
    w = len(px[0])
    out = bytearray(b"SB" + bytes((depth, 0, w & 255, w >> 8, h & 255, h >> 8)))
    per = 8 // depth
    for row in px:
        for i in range(0, w, per):
            byte = 0
            for k in range(per):
                v = row[i + k] if i + k < w else 0
                byte |= v << (8 - depth * (k + 1))
            out.append(byte)
    return bytes(out)


def files():
    """{file name: bytes} of the two data files."""
    return {sprites.SHEET_FILE: pack(sprite_sheet(), 4), sprites.GLYPH_FILE: pack(glyph_sheet(), 1)}


def main(argv=None):
    p = argparse.ArgumentParser(description="Draw the sprite and glyph sheets into lib/sultan/ui/*.dat.")
    p.add_argument("--check", action="store_true", help="exit 1 if a file differs from what is drawn")
    a = p.parse_args(argv)
    stale = []
    for name, data in files().items():
        path = os.path.join(HERE, name)
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old == data:
            continue
        stale.append(name)
        if not a.check:
            with open(path, "wb") as f:
                f.write(data)
            print("wrote %s (%d bytes)" % (path, len(data)))
    if a.check and stale:
        print("out of date: %s (python -m sultan_host.desktop.sheets)" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
