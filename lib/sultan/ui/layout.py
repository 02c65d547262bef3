# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Where things go on the screen, for 160x128 (PyBadge) and 320x240 (ILI9341).

Pure geometry, no displayio: the screen and the controller share it.  The
board is laid out on a 160-pixel-wide "virtual" screen and drawn at an integer
``scale`` (2 on a 320x240 display), so the big screen gets big cards::

    status line: deal, pass, placed, missed
    |d0| [F0][F1][F2] |d3| [stock]
    |d1| [F3][SU][F4] |d4| [talon]
    |d2| [F5][F6][F7] |d5|  count
    message line

The divan's two columns stand on trays (``tray_rect``), apart from the pyramid;
the talon's card count sits in the empty corner under it.  Text is a grid of
GLYPH_W x GLYPH_H glyph cells: 26 columns at 160 pixels.

Places have one code each: divan slots 0..5, TALON 6, STOCK 7, foundation f
is 8 + f, the sultan 16.  ``GRID`` is the 6x3 cell map the cursor walks.
"""

from sultan import const
from sultan.rules.table import TALON  # noqa: F401  (the talon's place code is the rules' own)
from sultan.ui.sprites import CARD_H, CARD_W  # noqa: F401  (a card is as big as its sprite)

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

GLYPH_W = const(6)  # a text cell: 5x7 letters, a column and descender rows of space
GLYPH_H = const(10)
TEXT_H = const(12)  # the status and message bands: a glyph row and a pixel above and below
LINE_H = GLYPH_H  # line pitch of the panel's text
COUNT_COLS = const(2)  # the stock's and the talon's card counts: 2 digits
RING = const(2)  # highlight ring width outside a card
PARK = const(-256)  # x of a hidden object never shown yet: wholly off the screen


def cell_of(place):
    """(col, row) of a place code."""
    for i in range(len(GRID)):
        if GRID[i] == place:
            return i % COLS, i // COLS
    raise ValueError("no such place %r" % (place,))


class Layout:
    """Geometry for a display (all in virtual pixels): the figures ``sultan.ui.build.layout``
    works out for its size (and gives to the constructor by name), and where a place, its ring
    or a panel goes."""

    def __init__(self, *, scale, vw, vh, col_x, row_y, text_cols, status_xy, message_xy,
                 panel_frame, panel_lines, panel_cols, panel_x_max, menu_lines,
                 stock_count_xy, talon_count_xy):
        self.scale = scale  # real pixels a virtual one
        self.vw = vw  # the virtual screen
        self.vh = vh
        self.col_x = col_x  # the six card columns' x
        self.row_y = row_y  # the three card rows' y
        self.text_cols = text_cols  # the status and message lines' columns
        self.status_xy = status_xy
        self.message_xy = message_xy
        self.panel_frame = panel_frame  # (x, y, w, h), virtual: the panel stands in it
        self.panel_lines = panel_lines
        self.panel_cols = panel_cols
        self.panel_x_max = panel_x_max  # a panel's left edge at most (see sultan.ui.build._panel)
        self.menu_lines = menu_lines
        self.stock_count_xy = stock_count_xy
        self.talon_count_xy = talon_count_xy

    def panel_rect(self, width):
        """(x, y) in the panel's frame of a panel whose text is ``width`` columns wide: against
        the frame's right edge (the text lines run on past it), a column for the menu's marker
        on the left and one of margin on the right; its lines from below the frame's top text
        band down, each line always on the same row, so a panel that changes shape redraws
        each row once."""
        fx, fy, fw, fh = self.panel_frame
        x = min(max(fw - (width + 2) * GLYPH_W, 0), self.panel_x_max)
        area = fh - 2 * TEXT_H
        return x + fx, fy + TEXT_H + (area - self.panel_lines * LINE_H) // 2

    def place_xy(self, place):
        """Top-left virtual pixel of the card at ``place``."""
        col, row = cell_of(place)
        return self.col_x[col], self.row_y[row]

    def ring_rect(self, place):
        """(x, y, w, h) of the highlight ring around ``place``."""
        x, y = self.place_xy(place)
        return x - RING, y - RING, CARD_W + 2 * RING, CARD_H + 2 * RING
