"""The screen's pieces that stay live: ``place``/``parked`` to show and hide, ``Ring`` (a
highlight round a card) and ``Panel`` (menus and pages), with the colours they are drawn in.

``sultan.ui.build`` makes them once at start; ``sultan.ui.screen`` moves and rewrites them.
"""

import displayio

from sultan import const
from sultan.ui import sprites
from sultan.ui.layout import LINE_H, NONE, PARK
from sultan.ui.textgrid import TextLine, palette

TEXT = const(0xFFFFFF)  # colours (public: the tests look for them)
MESSAGE = const(0xFFE070)
CURSOR = const(0xFFE000)
SELECTED = const(0x00B8FF)
HINT = const(0xFF40E0)

_UNKNOWN = const(-1)
OUTER = const(0)  # a ring's bands: 2 pixels outside the card (hint, cursor) ...
INNER = const(1)  # ... or 2 pixels on its edge (selection)
_BAND = const(2)  # a band's width
_BARS = const(4)  # a ring's bars: top, bottom, left, right
MARKER_COL = " "  # a panel line's first column: the menu's marker goes there
MARKER = ">"


def place(obj, xy, shown=True):
    """Show ``obj`` with its top-left at virtual ``xy``, or hide it (where it is)."""
    if not shown:
        if not obj.hidden:
            obj.hidden = True
        return
    x, y = xy
    if obj.x != x:
        obj.x = x
    if obj.y != y:
        obj.y = y
    if obj.hidden:
        obj.hidden = False


def parked(obj):
    """``obj`` hidden off the screen until it is first shown (why: see sultan.ui.screen)."""
    obj.x = PARK
    obj.hidden = True
    return obj


class Ring:
    """A highlight round a card: four bars cut from the frame bitmap, in one band of it."""

    def __init__(self, frame, pal, band):
        w, h = frame.width, frame.height
        o = _BAND * band
        self.offsets = ((0, o), (0, h - _BAND - o), (o, 0), (w - _BAND - o, 0))
        across = (w, _BAND, band, h // _BAND - 1 - band)
        down = (_BAND, h, band, w // _BAND - 1 - band)
        self.bars = []
        for tw, th, first, last in (across, down):
            for t in (first, last):
                self.bars.append(parked(displayio.TileGrid(frame, pixel_shader=pal, tile_width=tw,
                                                           tile_height=th, default_tile=t)))
        self.at = NONE

    def show(self, layout, where):
        """Ring place ``where`` (NONE: none)."""
        if where == self.at:
            return
        self.at = where
        x, y = layout.ring_rect(where)[:2] if where != NONE else (0, 0)
        for i in range(_BARS):
            dx, dy = self.offsets[i]
            place(self.bars[i], (x + dx, y + dy), where != NONE)


class Panel:
    """Menus and pages: a text line per line of content and the menu's ">" -- only as big as
    what it shows (``Layout.panel_rect``), so opening or closing it redraws no more."""

    def __init__(self, glyphs, layout):
        self.layout = layout
        pal = palette(TEXT, sprites.COLORS[sprites.PANEL])
        self.lines = [TextLine(glyphs, pal, layout.panel_cols) for _ in range(layout.panel_lines)]
        self.marker = TextLine(glyphs, palette(CURSOR, sprites.COLORS[sprites.PANEL]), 1)
        self.marker.write(MARKER)
        self.menu_top = 0  # the first menu line on show (sultan.ui.menu.show scrolls it)
        self.x = None  # the panel's left edge while it is up

    def grids(self):
        return [line.grid for line in self.lines] + [self.marker.grid]

    def show(self, lines, at=_UNKNOWN, width=0):
        """Show ``lines`` (none: hide), at least ``width`` columns wide, the marker beside line
        ``at`` (_UNKNOWN: no marker).

        Lines stay on their rows, and while the panel is up it never narrows: a TileGrid that
        moves on a scaled display redraws where it was and where it is, the overlap twice
        (displayio weighs the area against the TileGrid's unscaled size)."""
        n = len(lines)
        for line in lines:
            width = max(width, len(line))
        x, y = self.layout.panel_rect(width)
        if n and self.x is not None and self.x < x:
            x = self.x
        self.x = x if n else None
        for i in range(len(self.lines)):
            line = self.lines[i]
            if i < n:
                line.write(MARKER_COL + lines[i])
            place(line.grid, (x, y + i * LINE_H), i < n)
        place(self.marker.grid, (x, y + at * LINE_H), at >= 0)
