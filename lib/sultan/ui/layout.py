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
GLYPH_W = const(6)  # a text cell: 5x7 letters, a column and descender rows of space
GLYPH_H = const(10)
TEXT_H = const(12)  # the status and message bands: a glyph row and a pixel above and below
LINE_H = GLYPH_H  # line pitch of the panel's text
COUNT_COLS = const(2)  # the stock's and the talon's card counts: 2 digits
RING = const(2)  # highlight ring width outside a card
_PYRAMID_GAP = const(2)
_DIVAN_GAP = const(6)  # between a divan column and the pyramid
_STOCK_GAP = const(6)  # between the right divan column and the stock
_TRAY_PAD = const(2)  # a divan tray's rim round its cards (less where the text bands are near)
PARK = const(-256)  # x of a hidden object never shown yet: wholly off the screen
# The panel (menus, pages, the won/lost panel, the digit editor) is drawn unscaled, in a frame of
# PANEL_W x PANEL_H real pixels at the middle of the screen: all of a 160x128 screen, and on
# 320x240 the same box of the same pixels.  Opening or closing a panel redraws every pixel under
# it, 6-9 us each on the Pico (tools/emulate, 2026-12-01): scaled, a 9-line page took 340 ms.
PANEL_W = const(160)
PANEL_H = const(128)
_MENU_LINES = const(5)  # the menu's window: 5 lines keep a new deal chosen from it under 150 ms at 160x128
_PANEL_LINES = const(9)  # the tallest page (host_tests/test_words.py checks they fit)


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
        self._columns(vw)
        self._rows(vh)
        self._text(vw, vh)

    def _columns(self, vw):
        """Columns: divan | pyramid (3) | divan | stock and talon, centred."""
        px = CARD_W + _PYRAMID_GAP
        total = 6 * CARD_W + 2 * _PYRAMID_GAP + 2 * _DIVAN_GAP + _STOCK_GAP
        x = (vw - total) // 2
        pyramid = x + CARD_W + _DIVAN_GAP
        right = pyramid + 3 * px - _PYRAMID_GAP + _DIVAN_GAP
        self.col_x = (x, pyramid, pyramid + px, pyramid + 2 * px, right, right + CARD_W + _STOCK_GAP)
        self.pitch_x = px

    def _rows(self, vh):
        """Three rows of cards between the two text bands, 3 pixels apart (2 when tight)."""
        free = vh - 2 * TEXT_H - 3 * CARD_H
        gr = 2 if free < 12 else 3
        top = (free - 2 * gr) // 2
        y0 = TEXT_H + (top if top > 0 else 0)
        self.row_y = (y0, y0 + CARD_H + gr, y0 + 2 * (CARD_H + gr))
        self.pitch_y = CARD_H + gr

    def _text(self, vw, vh):
        """The text grids: status and message lines, the panel, the two card counts."""
        self.text_cols = vw // GLYPH_W
        pad = (TEXT_H - GLYPH_H) // 2
        self.status_xy = (0, pad)
        self.message_xy = (0, vh - TEXT_H + pad)
        # The panel: a text line per line of content, as wide as the widest (panel_rect), so
        # opening or closing it redraws no more than it shows; in its frame (see PANEL_W).
        fw = min(PANEL_W, self.width)
        fh = min(PANEL_H, self.height)
        self.panel_frame = ((self.width - fw) // 2, (self.height - fh) // 2, fw, fh)  # real pixels
        self.panel_lines = min((fh - 2 * TEXT_H) // LINE_H, _PANEL_LINES)
        self.panel_cols = fw // GLYPH_W + 1  # reaches past the frame's right edge from any column
        self.menu_lines = min(self.panel_lines, _MENU_LINES)
        count_w = COUNT_COLS * GLYPH_W
        x, y = self.place_xy(STOCK)
        self.stock_count_xy = (x + (CARD_W - count_w) // 2, y + (CARD_H - GLYPH_H) // 2)
        x, y = self.place_xy(TALON)
        self.talon_count_xy = (x + (CARD_W - count_w) // 2, y + self.pitch_y + 1)

    def panel_rect(self, width):
        """(x, y) in the panel's frame of a panel whose text is ``width`` columns wide: against
        the frame's right edge (the text lines run on past it), a column for the menu's marker
        on the left and one of margin on the right; its lines from below the frame's top text
        band down, each line always on the same row, so a panel that changes shape redraws
        each row once."""
        fw, fh = self.panel_frame[2:]
        x = fw - (width + 2) * GLYPH_W
        area = fh - 2 * TEXT_H
        return (x if x > 0 else 0), TEXT_H + (area - self.panel_lines * LINE_H) // 2

    def tray_rect(self, side):
        """(x, y, w, h) of the tray under divan column ``side`` (0 left, 1 right)."""
        x = self.col_x[0 if side == 0 else 4] - _TRAY_PAD
        y = max(TEXT_H, self.row_y[0] - _TRAY_PAD)
        bottom = min(self.vh - TEXT_H, self.row_y[2] + CARD_H + _TRAY_PAD)
        return x, y, CARD_W + 2 * _TRAY_PAD, bottom - y

    def place_xy(self, place):
        """Top-left virtual pixel of the card at ``place``."""
        col, row = cell_of(place)
        return self.col_x[col], self.row_y[row]

    def ring_rect(self, place):
        """(x, y, w, h) of the highlight ring around ``place``."""
        x, y = self.place_xy(place)
        return x - RING, y - RING, CARD_W + 2 * RING, CARD_H + 2 * RING
