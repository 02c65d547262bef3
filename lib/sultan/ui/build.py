# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The screen's start: the layout's sums and every displayio object the game shows, made once,
in named steps.

``layout(width, height)`` is the ``sultan.ui.layout.Layout`` of a display.
``screen(display)`` reads the sprite and glyph sheets into Bitmaps, builds the felt,
the 17 cards, the counts, the status and message lines, the rings and the panel, hangs them
on the display and returns the ``sultan.ui.screen.Screen`` holding them.  The game's start
(``sultan.starting``) imports this module for that and forgets it at once: none of this code
is wanted again, and on CircuitPython a module's bytecode is heap (about 3 KB here).
"""

import displayio
import vectorio

from sultan import const, data_path
from sultan.ui import sprites
from sultan.ui.layout import (
    CARD_H,
    CARD_W,
    COUNT_COLS,
    GLYPH_H,
    GLYPH_W,
    LINE_H,
    PARK,
    RING,
    STOCK,
    SULTAN_PLACE,
    TALON,
    TEXT_H,
    Layout,
    cell_of,
)
from sultan.ui.screen import CHIPS  # (folded on the board: the screen's module comes with the Screen)
from sultan.ui.sprites import CARD_COLS, CARD_ROWS, CARD_TILES
from sultan.ui.textgrid import TextLine
from sultan.ui.widgets import Panel, Ring

try:
    import bitmaptools
except ImportError:  # a port without bitmaptools: read pixel by pixel
    bitmaptools = None

TEXT = const(0xFFFFFF)  # the colours of the text and the rings (public: the tests look for them)
MESSAGE = const(0xFFE070)
CURSOR = const(0xFFE000)
SELECTED = const(0x00B8FF)
HINT = const(0xFF40E0)

_OUTER = const(0)  # a ring's bands: 2 pixels outside the card (hint, cursor) ...
_INNER = const(1)  # ... or a pixel outside and the card's edge, which no glyph touches (selection)
_BAND = const(2)  # a band's width
_MARKER = ">"  # the menu's marker


# ------------------------------------------------------------ the layout's sums
_PYRAMID_GAP = const(2)
_DIVAN_GAP = const(6)  # between a divan column and the pyramid
_STOCK_GAP = const(6)  # between the right divan column and the stock
_TRAY_PAD = const(2)  # a divan tray's rim round its cards (less where the text bands are near)
# The panel (menus, pages, the won/lost panel, the digit editor) is drawn at the table's scale, in a
# frame of PANEL_W x PANEL_H virtual pixels at the middle of the virtual screen: all of a 160x128
# screen, and on 320x240 all of it at 2x, its text the status line's size (legible on a 2.8" panel).
# Opening or closing a panel redraws every pixel under it, 6-9 us each on the Pico (tools/emulate,
# 2026-12-01): the panel is only as big as what it shows (Layout.panel_rect).
PANEL_W = const(160)
PANEL_H = const(128)
_MENU_LINES = const(5)  # the menu's window: 5 lines keep a new deal chosen from it under 150 ms at 160x128
_PANEL_LINES = const(8)  # the tallest page (test_words.py checks): a 9th line at 2x cost 32 ms each way


def layout(width, height):
    """The ``Layout`` of a ``width`` x ``height`` display."""
    s = min(width // 160, height // 120)
    scale = s if s > 1 else 1
    vw = width // scale
    vh = height // scale
    col_x = _columns(vw)
    row_y = _rows(vh)
    text_cols = vw // GLYPH_W
    pad = (TEXT_H - GLYPH_H) // 2
    panel_frame, panel_lines, panel_cols, panel_x_max = _panel(scale, vw, vh)
    # the two card counts: the stock's on its back, the talon's in the corner under it
    count_w = COUNT_COLS * GLYPH_W
    col, row = cell_of(STOCK)
    x, y = col_x[col], row_y[row]
    stock_count_xy = (x + (CARD_W - count_w) // 2, y + (CARD_H - GLYPH_H) // 2)
    col, row = cell_of(TALON)
    x, y = col_x[col], row_y[row]
    talon_count_xy = (x + (CARD_W - count_w) // 2, y + row_y[1] - row_y[0] + 1)  # a row's pitch down
    return Layout(scale=scale, vw=vw, vh=vh, col_x=col_x, row_y=row_y, text_cols=text_cols,
                  status_xy=(0, pad), message_xy=(0, vh - TEXT_H + pad),
                  panel_frame=panel_frame, panel_lines=panel_lines, panel_cols=panel_cols,
                  panel_x_max=panel_x_max, menu_lines=min(panel_lines, _MENU_LINES),
                  stock_count_xy=stock_count_xy, talon_count_xy=talon_count_xy)


def _columns(vw):
    """Columns: divan | pyramid (3) | divan | stock and talon, centred: their x."""
    px = CARD_W + _PYRAMID_GAP
    total = 6 * CARD_W + 2 * _PYRAMID_GAP + 2 * _DIVAN_GAP + _STOCK_GAP
    x = (vw - total) // 2
    pyramid = x + CARD_W + _DIVAN_GAP
    right = pyramid + 3 * px - _PYRAMID_GAP + _DIVAN_GAP
    return x, pyramid, pyramid + px, pyramid + 2 * px, right, right + CARD_W + _STOCK_GAP


def _rows(vh):
    """Three rows of cards between the two text bands, 3 pixels apart (2 when tight): their y."""
    free = vh - 2 * TEXT_H - 3 * CARD_H
    gr = 2 if free < 12 else 3
    top = (free - 2 * gr) // 2
    y0 = TEXT_H + (top if top > 0 else 0)
    return y0, y0 + CARD_H + gr, y0 + 2 * (CARD_H + gr)


def _panel(scale, vw, vh):
    """The panel's (frame, lines, columns, left edge at most).

    A text line per line of content, as wide as the widest (Layout.panel_rect), so opening or
    closing it redraws no more than it shows; in its frame (see PANEL_W)."""
    fw = min(PANEL_W, vw)
    fh = min(PANEL_H, vh)
    frame = ((vw - fw) // 2, (vh - fh) // 2, fw, fh)  # virtual pixels
    lines = min((fh - 2 * TEXT_H) // LINE_H, _PANEL_LINES)
    if scale > 1:
        # On CircuitPython a scaled TileGrid reaching past the display's right edge is repainted
        # whole at every refresh (a menu step at 320x240: 32,480 pixels, 190 ms; within the screen,
        # 480 pixels, 14 ms): the lines end inside it.  And every panel stands at x 0: a line
        # hidden and shown again at another x is drawn twice (the lost panel after a page: 500 ms).
        return frame, lines, fw // GLYPH_W, 0
    # the lines reach past the frame's right edge from any column (at 1x that costs nothing)
    return frame, lines, fw // GLYPH_W + 1, fw


def tray_rect(lay, side):
    """(x, y, w, h) of the tray under divan column ``side`` (0 left, 1 right) of ``lay``."""
    x = lay.col_x[0 if side == 0 else 4] - _TRAY_PAD
    y = max(TEXT_H, lay.row_y[0] - _TRAY_PAD)
    bottom = min(lay.vh - TEXT_H, lay.row_y[2] + CARD_H + _TRAY_PAD)
    return x, y, CARD_W + 2 * _TRAY_PAD, bottom - y


# ------------------------------------------------------------ the sheets
def read_bitmap(name):
    """The Bitmap stored in data file ``name`` (in sultan/ui, beside the sprites module)."""
    with open(data_path(globals().get("__file__"), "sultan/ui", name), "rb") as f:
        head = f.read(sprites.HEADER)
        if len(head) != sprites.HEADER or head[0:2] != b"SB":
            raise ValueError("not a bitmap file: " + name)
        depth = head[2]
        w = head[4] | head[5] << 8
        h = head[6] | head[7] << 8
        bmp = displayio.Bitmap(w, h, 1 << depth)
        if head[3]:  # a Bitmap's own memory (the build's "sheets in the Bitmap's own memory"):
            buf = memoryview(bmp)  # one read, no unpacking
            if f.readinto(buf) != len(buf):
                raise ValueError("short bitmap file: " + name)
            if head[3] != _layout():  # the 9.x build on 9.0 or 9.1, whose words run the other way
                _reverse_words(buf)
        elif bitmaptools is not None:
            bitmaptools.readinto(bmp, f, depth, 1, True)
        else:
            _read_pixels(bmp, f, depth)
    return bmp


def _layout():
    """How this CircuitPython keeps a Bitmap's rows: 1, in the file's byte order (9.2 on), or 2, each
    32-bit word's bytes reversed (8.x to 9.1): its first pixel's bit shows which."""
    probe = displayio.Bitmap(8, 1, 2)
    probe[0, 0] = 1
    return 1 if memoryview(probe)[0] else 2


def _reverse_words(buf):
    for i in range(0, len(buf), 4):
        a = buf[i]
        buf[i] = buf[i + 3]
        buf[i + 3] = a
        a = buf[i + 1]
        buf[i + 1] = buf[i + 2]
        buf[i + 2] = a


def _read_pixels(bmp, f, depth):
    per = 8 // depth
    mask = (1 << depth) - 1
    for y in range(bmp.height):
        row = f.read((bmp.width + per - 1) // per)
        for x in range(bmp.width):
            bmp[x, y] = row[x // per] >> (8 - depth - depth * (x % per)) & mask


def sheet():
    """The sprite sheet (one Bitmap) and its Palette."""
    bmp = read_bitmap(sprites.SHEET_FILE)
    colors = sprites.COLORS
    pal = displayio.Palette(sprites.CLUB + 1)
    for i in range(len(colors)):
        pal[i] = colors[i]
    pal.make_transparent(sprites.CLEAR)
    pal[sprites.DIAMOND] = colors[sprites.RED]  # two colours: the screen sets these for four
    pal[sprites.CLUB] = colors[sprites.INK]
    return bmp, pal


def _fill(bmp, x1, y1, x2, y2, value):
    if bitmaptools is not None:
        bitmaptools.fill_region(bmp, x1, y1, x2, y2, value)
        return
    for y in range(y1, y2):
        for x in range(x1, x2):
            bmp[x, y] = value


def frame_bitmap(w, h):
    """A ring bitmap for highlights: value 1 = outer 2 px, value 2 = next 2 px, 0 inside."""
    bmp = displayio.Bitmap(w, h, 3)
    _fill(bmp, 0, 0, w, h, 1)
    _fill(bmp, 2, 2, w - 2, h - 2, 2)
    _fill(bmp, 4, 4, w - 4, h - 4, 0)
    return bmp


def palette(ink, paper):
    """A text palette: ``paper`` (0xRRGGBB) for 0, ``ink`` for 1; text lines may share one.  Made at
    the start only, so here and not with ``TextLine``: this module's code goes after the start."""
    pal = displayio.Palette(2)
    pal[0] = paper
    pal[1] = ink
    return pal


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


# ------------------------------------------------------------ the steps
def parked(obj):
    """``obj`` hidden off the screen until it is first shown (why: see sultan.ui.screen's docstring)."""
    obj.x = PARK
    obj.hidden = True
    return obj



def screen(display):
    """The game's ``sultan.ui.screen.Screen`` for ``display``, every object made and hung on the
    display's root."""
    from sultan.ui.screen import Screen

    lay = layout(display.width, display.height)
    art, art_palette = sheet()
    glyphs = read_bitmap(sprites.GLYPH_FILE)
    root = displayio.Group()  # the vectorio shapes, in real pixels, then the board
    board = displayio.Group(scale=lay.scale)  # the rest, in virtual pixels
    felt(root, lay)
    root.append(board)
    card_grids = cards(board, art, art_palette, lay)
    on_felt = palette(TEXT, sprites.COLORS[sprites.FELT])  # white on the felt: the talon's count, the status
    stock_count, talon_count = counts(board, glyphs, on_felt)
    status, message, chips, star = lines(board, art, art_palette, glyphs, lay, on_felt)
    hint_rings = rings(board)
    the_panel = panel(board, glyphs, lay)
    display.root_group = root
    return Screen(lay, art, art_palette, board, card_grids, stock_count, talon_count,
                  status, message, chips, star, hint_rings, the_panel)


def _sprites(art, art_palette, width, height, tile, x=0, y=0):
    return displayio.TileGrid(art, pixel_shader=art_palette, width=width, height=height,
                              tile_width=sprites.TILE_W, tile_height=sprites.TILE_H,
                              default_tile=tile, x=x, y=y)


def _fill_palette(color):
    """A one-colour palette: sprite sheet colour ``color``."""
    pal = displayio.Palette(1)
    pal[0] = sprites.COLORS[color]
    return pal


def _rectangle(pal, rect, scale):
    """A vectorio rectangle in ``pal``'s colour over virtual ``rect`` (x, y, w, h), in real pixels."""
    x, y, w, h = rect
    return vectorio.Rectangle(pixel_shader=pal, width=w * scale, height=h * scale, x=x * scale, y=y * scale)


def felt(root, lay):
    """The felt and the divan's trays: vectorio rectangles, which displayio draws at an eighth
    of a TileGrid's cost a pixel (0.6 us against 4.6 on the Pico: the first refresh, and
    every panel closed, redraw them).  In real pixels, outside the scaled board: Blinka
    does not scale a vectorio shape with its Group, CircuitPython does."""
    root.append(_rectangle(_fill_palette(sprites.FELT), (0, 0, lay.vw, lay.vh), lay.scale))
    tray = _fill_palette(sprites.TRAY)  # the two trays share it
    for side in (0, 1):
        root.append(_rectangle(tray, tray_rect(lay, side), lay.scale))


def cards(board, art, art_palette, lay):
    """One 2x3 TileGrid per place, on ``board``; the sultan's face never changes."""
    grids = []
    for p in range(SULTAN_PLACE + 1):
        x, y = lay.place_xy(p)
        tg = _sprites(art, art_palette, CARD_COLS, CARD_ROWS, sprites.T_EMPTY, x, y)
        board.append(tg)
        grids.append(tg)
    sultan = grids[SULTAN_PLACE]
    for i in range(CARD_TILES):
        sultan[i] = sprites.T_SULTAN + i
    return grids


def counts(board, glyphs, on_felt):
    """The stock's and the talon's card counts, parked until first shown."""
    stock_count = TextLine(glyphs, palette(TEXT, sprites.COLORS[sprites.BACK]), COUNT_COLS)
    talon_count = TextLine(glyphs, on_felt, COUNT_COLS)
    board.append(parked(stock_count.grid))
    board.append(parked(talon_count.grid))
    return stock_count, talon_count


def lines(board, art, art_palette, glyphs, lay, on_felt):
    """Status and message lines; chips draw cards in the message, a star marks a winnable deal."""
    felt_color = sprites.COLORS[sprites.FELT]
    x, y = lay.status_xy
    status = TextLine(glyphs, on_felt, lay.text_cols, x, y)
    x, y = lay.message_xy
    message = TextLine(glyphs, palette(MESSAGE, felt_color), lay.text_cols, x, y)
    board.append(status.grid)
    board.append(message.grid)
    chips = [parked(_sprites(art, art_palette, CARD_COLS, 1, sprites.T_EMPTY)) for _ in range(CHIPS)]
    for chip in chips:
        board.append(chip)
    star = parked(_sprites(art, art_palette, 1, 1, sprites.T_STAR))
    board.append(star)
    return status, message, chips, star


def rings(board):
    """Rings: hint (two), selection, cursor -- bars of one frame bitmap, in three palettes."""
    frame = frame_bitmap(CARD_W + 2 * RING, CARD_H + 2 * RING)
    hint = frame_palette(HINT, None)
    selection = ring(frame, frame_palette(None, SELECTED), _INNER)
    cursor = ring(frame, frame_palette(CURSOR, None), _OUTER)
    out = [ring(frame, hint, _OUTER), ring(frame, hint, _OUTER), cursor, selection]
    for r in out:  # the selection over the cursor: its pixel outside the card shows
        for bar in r.bars:
            board.append(bar)
    out[2:] = selection, cursor
    return out


def ring(frame, pal, band):
    """A ``Ring``: four bars cut from ``frame`` (``frame_bitmap``) in ``band``, parked.  The inner
    band's bars stand a pixel out: the card's top and bottom rows and outer columns are bare face
    (its glyphs start a pixel in), so a selected card's rank and suit read as they do unselected."""
    w, h = frame.width, frame.height
    o = band  # _OUTER: on the frame's outer 2 pixels; _INNER: a pixel in, on the card's edge
    offsets = ((0, o), (0, h - _BAND - o), (o, 0), (w - _BAND - o, 0))
    across = (w, _BAND, band, h // _BAND - 1 - band)
    down = (_BAND, h, band, w // _BAND - 1 - band)
    bars = []
    for tw, th, first, last in (across, down):
        for t in (first, last):
            bars.append(parked(displayio.TileGrid(frame, pixel_shader=pal, tile_width=tw, tile_height=th,
                                                  default_tile=t)))
    return Ring(offsets, bars)


def panel(board, glyphs, lay):
    """The panel, on top of everything on the board, at the table's scale (see PANEL_W).  Not a
    scaled Group of its own: on CircuitPython a TileGrid moved in one (the menu's ">") repainted
    the whole panel, 32,480 pixels at 320x240, where on the board it repaints its own 480."""
    paper = sprites.COLORS[sprites.PANEL]
    pal = palette(TEXT, paper)
    text = [TextLine(glyphs, pal, lay.panel_cols) for _ in range(lay.panel_lines)]
    marker = TextLine(glyphs, palette(CURSOR, paper), 1)
    marker.write(_MARKER)
    for line in text + [marker]:
        board.append(parked(line.grid))
    return Panel(lay, text, marker)
