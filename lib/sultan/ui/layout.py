"""Where things go on the screen, for 160x128 (PyBadge) and 320x240 (ILI9341).

Pure geometry, no displayio: the screen and the controller share it.  The
board is laid out on a 160-pixel-wide "virtual" screen and drawn at an integer
``scale`` (2 on a 320x240 display), so the big screen gets big cards::

    status line: deal, pass, placed, missed
    [d0] [F0][F1][F2] [d3] [stock]
    [d1] [F3][SU][F4] [d4] [talon]
    [d2] [F5][F6][F7] [d5]
    message line

Places have one code each: divan slots 0..5, TALON 6, STOCK 7, foundation f
is 8 + f, the sultan 16.  ``GRID`` is the 6x3 cell map the cursor walks.
"""

from sultan import const
from sultan.rules.table import TALON  # noqa: F401  (the talon's place code is the rules' own)

STOCK = const(7)
F0 = const(8)
SULTAN_PLACE = const(16)
NONE = const(-1)

COLS = const(6)
ROWS = const(3)
# GRID[row * COLS + col] = place code (NONE: the cursor never stops there).
GRID = (
    0, F0 + 0, F0 + 1, F0 + 2, 3, STOCK,
    1, F0 + 3, SULTAN_PLACE, F0 + 4, 4, TALON,
    2, F0 + 5, F0 + 6, F0 + 7, 5, NONE,
)

CARD_W = const(22)
CARD_H = const(30)
TEXT_H = const(12)  # one line of terminalio.FONT
LINE_H = const(10)  # line pitch of the overlay's text (line_spacing 10/12)
RING = const(2)  # highlight ring width outside a card
PYRAMID_GAP = const(2)


def cell_of(place):
    """(col, row) of a place code."""
    for i in range(len(GRID)):
        if GRID[i] == place:
            return i % COLS, i // COLS
    raise ValueError("no such place %r" % (place,))


class Layout:
    """Geometry for a ``width`` x ``height`` display (all in virtual pixels)."""

    def __init__(self, width, height):
        s = min(width // 160, height // 120)
        self.scale = s if s > 1 else 1
        self.width = width
        self.height = height
        vw = width // self.scale
        vh = height // self.scale
        self.vw = vw
        self.vh = vh
        # Columns: divan | pyramid (3) | divan | stock and talon.
        g1 = 5
        g2 = 8
        total = 6 * CARD_W + 2 * PYRAMID_GAP + 2 * g1 + g2
        x = (vw - total) // 2
        px = CARD_W + PYRAMID_GAP
        self.col_x = (x, x + CARD_W + g1, x + CARD_W + g1 + px, x + CARD_W + g1 + 2 * px,
                      x + CARD_W + g1 + 3 * px - PYRAMID_GAP + g1,
                      x + CARD_W + g1 + 3 * px - PYRAMID_GAP + g1 + CARD_W + g2)
        free = vh - 2 * TEXT_H - 3 * CARD_H
        gr = 2 if free < 12 else 3
        top = (free - 2 * gr) // 2
        y0 = TEXT_H + (top if top > 0 else 0)
        self.row_y = (y0, y0 + CARD_H + gr, y0 + 2 * (CARD_H + gr))
        self.pitch_x = px
        self.pitch_y = CARD_H + gr
        self.status_xy = (0, 0)
        self.message_xy = (0, vh - TEXT_H)
        self.text_cols = vw // 6
        # The overlay panel (menus, win/lost, rules) covers the card area; the
        # status and message lines (opaque, full width) are drawn over its edges.
        self.panel_y = TEXT_H
        self.panel_tiles = ((vw + 10) // 11, (vh - 2 * TEXT_H + 9) // 10)
        self.panel_lines = (vh - 2 * TEXT_H - 3) // LINE_H

    def place_xy(self, place):
        """Top-left virtual pixel of the card at ``place``."""
        col, row = cell_of(place)
        return self.col_x[col], self.row_y[row]

    def pyramid_rect(self):
        """(x, y, w, h) of the 3x3 pyramid's grid (cells include the gaps)."""
        return self.col_x[1], self.row_y[0], 3 * self.pitch_x, 3 * self.pitch_y

    def ring_rect(self, place):
        """(x, y, w, h) of the highlight ring around ``place``."""
        x, y = self.place_xy(place)
        return x - RING, y - RING, CARD_W + 2 * RING, CARD_H + 2 * RING
