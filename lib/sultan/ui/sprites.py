# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The sprite sheet (card faces, backs, suit symbols) and the glyph sheet, read from data files.

Both are our own drawings, made on the host by ``sultan_host.desktop.sheets`` from bit
strings and packed into ``sprites.dat`` and ``glyphs.dat`` beside this module: at start the
board reads each straight into one ``displayio.Bitmap`` (``sultan.ui.build``, with
``bitmaptools.readinto``), so no drawing code or glyph data is bytecode in its heap, and
start-up paints nothing.  What stays here is what the screen needs while it runs: the
numbers of the tiles and colours, and ``face_tiles``.

The sprite sheet is 11x10 tiles.  A card is a 2x3 ``TileGrid`` over it (22x30 pixels)::

    [rank ][suit ]      rank in red or black, small suit symbol (in DIAMOND or CLUB's
                        colour for those suits)
    [ big suit    ]     the suit again, twice the size
    [             ]

so turning a card over or changing it is six tile writes, no pixel drawing.  Corners and
an empty place's inside are CLEAR (transparent): the felt or a divan tray shows through.

A data file is an 8-byte header -- b"SB", bits per pixel, 0, width and height (2 bytes
each, little-endian) -- then the rows, each padded to a whole byte, first pixel in the
most significant bits.  On CIRCUITPY for CircuitPython 8 and 9 the build writes the rows as
that firmware's Bitmap keeps them in memory and sets the header's byte 3 to 1: the board then
reads a sheet in one ``readinto`` (see the build's pass that writes them,
sultan_host.board.sheets).
"""

from sultan import const

TILE_W = const(11)
TILE_H = const(10)
CARD_W = const(22)  # 2 tiles (sultan.ui.layout places cards of this size)
CARD_H = const(30)  # 3 tiles
CARD_COLS = const(2)  # a card's TileGrid: 2x3 tiles
CARD_ROWS = const(3)
CARD_TILES = const(6)
SHEET_COLS = const(8)
SHEET_ROWS = const(9)
SHEET_FILE = "sprites.dat"
GLYPH_FILE = "glyphs.dat"
HEADER = const(8)

# Palette indices.
FELT = const(0)
FACE = const(1)
INK = const(2)
RED = const(3)
BACK = const(4)
BACK_LIGHT = const(5)
GOLD = const(6)
SLOT = const(7)
PANEL = const(8)
TRAY = const(9)
CLEAR = const(10)  # transparent
DIAMOND = const(11)  # the diamonds' and clubs' suit symbols: COLORS[RED] and [INK], as hearts and
CLUB = const(12)  # spades, unless the four-colour deck is on (BLUE and GREEN: the screen sets them)
COLORS = (0x0B5A2A, 0xFFFFFF, 0x000000, 0xD80000, 0x1838A8, 0x7090F0, 0xF0C030, 0x3C9C58, 0x10203C,
          0x74284A, 0x000000)  # by index up to CLEAR
BLUE = const(0x1858D8)  # the four-colour deck's diamonds
GREEN = const(0x10882C)  # and clubs

# Tile numbers.
T_FELT = const(0)
T_STAR = const(2)  # a gold star on the felt: the status line's mark of a known-winnable deal
T_RANK_BLACK = const(8)  # + rank - 1
T_RANK_RED = const(21)  # + rank - 1
T_SUIT = const(34)  # + suit (small symbol, top right of a card)
T_BIG = const(38)  # + 4 * suit + 0..3 (the big symbol's 2x2 tiles)
T_BACK = const(54)  # 6 tiles, card order TL TR ML MR BL BR
T_EMPTY = const(60)  # 6 tiles: an empty place
T_SULTAN = const(66)  # 6 tiles: the sultan, K of hearts on gold

# Card bytes beside the real cards (suit << 4 | rank, 0 an empty place) that a place can show.
BACK_CARD = const(255)  # face down: the stock
SULTAN_CARD = const(253)  # the sultan's gold face


def face_tiles(card, out):
    """Write the six tile numbers of ``card`` (0 = empty place, ``BACK_CARD``, ``SULTAN_CARD``)
    into ``out``; returns ``out``."""
    if not card or card >= SULTAN_CARD:
        first = T_EMPTY if not card else T_BACK if card == BACK_CARD else T_SULTAN
        for i in range(CARD_TILES):
            out[i] = first + i
        return out
    suit = card >> 4
    rank = card & 15
    red = suit == 1 or suit == 2
    out[0] = (T_RANK_RED if red else T_RANK_BLACK) + rank - 1
    out[1] = T_SUIT + suit
    b = T_BIG + 4 * suit
    out[2] = b
    out[3] = b + 1
    out[4] = b + 2
    out[5] = b + 3
    return out
