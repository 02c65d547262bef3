"""The sprite sheet: card faces, backs and suit symbols as one Bitmap + Palette.

Every glyph is our own: compact bit strings below ("#" ink, "." none, rows
split by spaces) painted once at start-up into a single ``displayio.Bitmap``
of 11x10 tiles.  A card is a 2x3 ``TileGrid`` over the sheet (22x30 pixels):

    [rank ][suit ]      rank in red or black, small suit symbol
    [ big suit    ]     the suit again, twice the size
    [             ]

so turning a card over or changing it is six tile writes, no pixel drawing.
The device's built-in font has no spade/heart/diamond/club, hence all this.
"""

import displayio

from sultan import const

try:
    import bitmaptools
except ImportError:  # very old CircuitPython: fill by hand
    bitmaptools = None

TILE_W = const(11)
TILE_H = const(10)
CARD_W = const(22)  # 2 tiles
CARD_H = const(30)  # 3 tiles
SHEET_COLS = const(8)
SHEET_ROWS = const(9)

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
COLORS = (0x0B5A2A, 0xFFFFFF, 0x000000, 0xD80000, 0x1838A8, 0x7090F0, 0xF0C030, 0x3C9C58, 0x10203C)

# Tile numbers.
T_FELT = const(0)
T_PANEL = const(1)
T_STAR = const(2)  # a gold star on the felt: the status line's mark of a known-winnable deal
T_RANK_BLACK = const(8)  # + rank - 1
T_RANK_RED = const(21)  # + rank - 1
T_SUIT = const(34)  # + suit (small symbol, top right of a card)
T_BIG = const(38)  # + 4 * suit + 0..3 (the big symbol's 2x2 tiles)
T_BACK = const(54)  # 6 tiles, card order TL TR ML MR BL BR
T_EMPTY = const(60)  # 6 tiles: an empty place
T_SULTAN = const(66)  # 6 tiles: the sultan, K of hearts on gold

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


def _tile_origin(t):
    return (t % SHEET_COLS) * TILE_W, (t // SHEET_COLS) * TILE_H


def _fill(bmp, t, value):
    x, y = _tile_origin(t)
    if bitmaptools is not None:
        bitmaptools.fill_region(bmp, x, y, x + TILE_W, y + TILE_H, value)
    else:
        for j in range(y, y + TILE_H):
            for i in range(x, x + TILE_W):
                bmp[i, j] = value


def _put(bmp, tiles, cx, cy, value):
    """Set pixel (cx, cy) of a card (22x30) whose six tiles are ``tiles``."""
    t = tiles[(cy // TILE_H) * 2 + cx // TILE_W]
    x, y = _tile_origin(t)
    bmp[x + cx % TILE_W, y + cy % TILE_H] = value


def _glyph(bmp, tiles, rows, cx, cy, value, scale=1):
    """Paint a bit-string glyph at card position (cx, cy)."""
    y = cy
    for row in rows.split():
        for _s in range(scale):
            x = cx
            for ch in row:
                if ch == "#":
                    for k in range(scale):
                        _put(bmp, tiles, x + k, y, value)
                x += scale
            y += 1


def _card(bmp, tiles, bg, border=-1):
    """Fill a card's six tiles with ``bg``, round its corners, optional border."""
    for t in tiles:
        if t is not None:
            _fill(bmp, t, bg)
    if border >= 0:
        for cx in range(CARD_W):
            _put(bmp, tiles, cx, 0, border)
            _put(bmp, tiles, cx, CARD_H - 1, border)
        for cy in range(CARD_H):
            _put(bmp, tiles, 0, cy, border)
            _put(bmp, tiles, CARD_W - 1, cy, border)
    for cx, cy in ((0, 0), (CARD_W - 1, 0), (0, CARD_H - 1), (CARD_W - 1, CARD_H - 1)):
        _put(bmp, tiles, cx, cy, FELT)


def _six(first):
    return (first, first + 1, first + 2, first + 3, first + 4, first + 5)


def build_sheet():
    """The sheet (one Bitmap) and its Palette."""
    bmp = displayio.Bitmap(SHEET_COLS * TILE_W, SHEET_ROWS * TILE_H, len(COLORS))
    pal = displayio.Palette(len(COLORS))
    for i in range(len(COLORS)):
        pal[i] = COLORS[i]
    _fill(bmp, T_PANEL, PANEL)
    _fill(bmp, T_STAR, FELT)
    _glyph(bmp, (T_STAR, None, None, None, None, None), STAR, 1, 1, GOLD)
    # Ranks: top-left tile of a face, rounded top-left corner.
    for rank in range(1, 14):
        rows = RANKS[rank - 1]
        cx = 1 if rank == 10 else 2
        for base, ink in ((T_RANK_BLACK, INK), (T_RANK_RED, RED)):
            t = base + rank - 1
            tiles = (t, None, None, None, None, None)
            _fill(bmp, t, FACE)
            _put(bmp, tiles, 0, 0, FELT)
            _glyph(bmp, tiles, rows, cx, 1, ink)
    for suit in range(4):
        ink = RED if suit == 1 or suit == 2 else INK
        t = T_SUIT + suit
        tiles = (None, t, None, None, None, None)
        _fill(bmp, t, FACE)
        _put(bmp, tiles, CARD_W - 1, 0, FELT)
        _glyph(bmp, tiles, SUITS[suit], TILE_W + 2, 1, ink)
        b = T_BIG + 4 * suit
        tiles = (None, None, b, b + 1, b + 2, b + 3)
        for t in tiles[2:]:
            _fill(bmp, t, FACE)
        _put(bmp, tiles, 0, CARD_H - 1, FELT)
        _put(bmp, tiles, CARD_W - 1, CARD_H - 1, FELT)
        h = len(SUITS[suit].split())
        _glyph(bmp, tiles, SUITS[suit], 4, TILE_H + (20 - 2 * h) // 2, ink, 2)
    # The back: a blue lattice in a white edge.
    tiles = _six(T_BACK)
    _card(bmp, tiles, BACK, FACE)
    for cy in range(2, CARD_H - 2):
        for cx in range(2, CARD_W - 2):
            if (cx + cy) % 4 == 0 or (cx - cy) % 4 == 0:
                _put(bmp, tiles, cx, cy, BACK_LIGHT)
    # An empty place: a lighter outline on the felt.
    tiles = _six(T_EMPTY)
    _card(bmp, tiles, FELT, SLOT)
    # The sultan: K of hearts with a crown, on gold.
    tiles = _six(T_SULTAN)
    _card(bmp, tiles, GOLD)
    _glyph(bmp, tiles, RANKS[12], 2, 1, RED)
    _glyph(bmp, tiles, CROWN, TILE_W + 2, 2, RED)
    _glyph(bmp, tiles, SUITS[1], 4, TILE_H + 3, RED, 2)
    return bmp, pal


def face_tiles(card, out):
    """Write the six tile numbers of ``card`` (0 = empty place) into ``out``."""
    if not card:
        for i in range(6):
            out[i] = T_EMPTY + i
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


def frame_bitmap(w, h):
    """A ring bitmap for highlights: value 1 = outer 2 px, value 2 = next 2 px, 0 inside."""
    bmp = displayio.Bitmap(w, h, 3)
    for y in range(h):
        for x in range(w):
            d = min(x, y, w - 1 - x, h - 1 - y)
            if d < 2:
                bmp[x, y] = 1
            elif d < 4:
                bmp[x, y] = 2
    return bmp


def frame_palette(outer, inner):
    """A palette for ``frame_bitmap``: None = transparent."""
    pal = displayio.Palette(3)
    pal.make_transparent(0)
    for i, c in ((1, outer), (2, inner)):
        if c is None:
            pal[i] = 0
            pal.make_transparent(i)
        else:
            pal[i] = c
    return pal
