"""The layout's sums, done once: ``layout(width, height)`` is the ``sultan.ui.layout.Layout``
of a display.  ``sultan.ui.screen`` imports this module for it and forgets it once the screen
is made: on the board a module's code is heap, and these sums never run again.
"""

from sultan import const
from sultan.ui.layout import (
    CARD_H,
    CARD_W,
    COUNT_COLS,
    GLYPH_H,
    GLYPH_W,
    LINE_H,
    STOCK,
    TALON,
    TEXT_H,
    Layout,
)

_PYRAMID_GAP = const(2)
_DIVAN_GAP = const(6)  # between a divan column and the pyramid
_STOCK_GAP = const(6)  # between the right divan column and the stock
_TRAY_PAD = const(2)  # a divan tray's rim round its cards (less where the text bands are near)
# The panel (menus, pages, the won/lost panel, the digit editor) is drawn unscaled, in a frame of
# PANEL_W x PANEL_H real pixels at the middle of the screen: all of a 160x128 screen, and on
# 320x240 the same box of the same pixels.  Opening or closing a panel redraws every pixel under
# it, 6-9 us each on the Pico (tools/emulate, 2026-12-01): scaled, a 9-line page took 340 ms.
PANEL_W = const(160)
PANEL_H = const(128)
_MENU_LINES = const(5)  # the menu's window: 5 lines keep a new deal chosen from it under 150 ms at 160x128
_PANEL_LINES = const(9)  # the tallest page (host_tests/test_words.py checks they fit)


def layout(width, height):
    """The ``Layout`` of a ``width`` x ``height`` display."""
    lay = Layout()
    s = min(width // 160, height // 120)
    lay.scale = s if s > 1 else 1
    lay.width = width
    lay.height = height
    lay.vw = width // lay.scale
    lay.vh = height // lay.scale
    _columns(lay, lay.vw)
    _rows(lay, lay.vh)
    _text(lay, lay.vw, lay.vh)
    return lay


def _columns(lay, vw):
    """Columns: divan | pyramid (3) | divan | stock and talon, centred."""
    px = CARD_W + _PYRAMID_GAP
    total = 6 * CARD_W + 2 * _PYRAMID_GAP + 2 * _DIVAN_GAP + _STOCK_GAP
    x = (vw - total) // 2
    pyramid = x + CARD_W + _DIVAN_GAP
    right = pyramid + 3 * px - _PYRAMID_GAP + _DIVAN_GAP
    lay.col_x = (x, pyramid, pyramid + px, pyramid + 2 * px, right, right + CARD_W + _STOCK_GAP)
    lay.pitch_x = px


def _rows(lay, vh):
    """Three rows of cards between the two text bands, 3 pixels apart (2 when tight)."""
    free = vh - 2 * TEXT_H - 3 * CARD_H
    gr = 2 if free < 12 else 3
    top = (free - 2 * gr) // 2
    y0 = TEXT_H + (top if top > 0 else 0)
    lay.row_y = (y0, y0 + CARD_H + gr, y0 + 2 * (CARD_H + gr))
    lay.pitch_y = CARD_H + gr


def _text(lay, vw, vh):
    """The text grids: status and message lines, the panel, the two card counts."""
    lay.text_cols = vw // GLYPH_W
    pad = (TEXT_H - GLYPH_H) // 2
    lay.status_xy = (0, pad)
    lay.message_xy = (0, vh - TEXT_H + pad)
    # The panel: a text line per line of content, as wide as the widest (Layout.panel_rect), so
    # opening or closing it redraws no more than it shows; in its frame (see PANEL_W).
    fw = min(PANEL_W, lay.width)
    fh = min(PANEL_H, lay.height)
    lay.panel_frame = ((lay.width - fw) // 2, (lay.height - fh) // 2, fw, fh)  # real pixels
    lay.panel_lines = min((fh - 2 * TEXT_H) // LINE_H, _PANEL_LINES)
    lay.panel_cols = fw // GLYPH_W + 1  # reaches past the frame's right edge from any column
    lay.menu_lines = min(lay.panel_lines, _MENU_LINES)
    count_w = COUNT_COLS * GLYPH_W
    x, y = lay.place_xy(STOCK)
    lay.stock_count_xy = (x + (CARD_W - count_w) // 2, y + (CARD_H - GLYPH_H) // 2)
    x, y = lay.place_xy(TALON)
    lay.talon_count_xy = (x + (CARD_W - count_w) // 2, y + lay.pitch_y + 1)


def tray_rect(lay, side):
    """(x, y, w, h) of the tray under divan column ``side`` (0 left, 1 right) of ``lay``."""
    x = lay.col_x[0 if side == 0 else 4] - _TRAY_PAD
    y = max(TEXT_H, lay.row_y[0] - _TRAY_PAD)
    bottom = min(lay.vh - TEXT_H, lay.row_y[2] + CARD_H + _TRAY_PAD)
    return x, y, CARD_W + 2 * _TRAY_PAD, bottom - y
