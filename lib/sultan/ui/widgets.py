# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The screen's pieces that stay live: ``place`` to show and hide, ``Ring`` (a highlight round
a card) and ``Panel`` (menus and pages).

``sultan.ui.build`` makes them once at start; ``sultan.ui.screen`` moves and rewrites them.
"""

from sultan import const
from sultan.ui.layout import LINE_H, NONE, PARK

_UNKNOWN = const(-1)
_BARS = const(4)  # a ring's bars: top, bottom, left, right
_MARKER_COLS = const(1)  # a panel line's first column, left blank: the menu's marker goes there


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


class Ring:
    """A highlight round a card: four bars (TileGrids: top, bottom, left, right) at ``offsets``
    from the ring's corner (``sultan.ui.build.ring`` cuts them from the frame bitmap)."""

    def __init__(self, offsets, bars):
        self.offsets = offsets
        self.bars = bars
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

    def __init__(self, layout, lines, marker):
        self.layout = layout
        self.lines = lines  # TextLines (sultan.ui.build.panel makes them)
        self.marker = marker  # the menu's ">"
        self.x = None  # the panel's left edge while it is up

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
                line.write(lines[i], _MARKER_COLS)
                place(line.grid, (x, y + i * LINE_H))
            else:
                _park(line.grid)
        if at >= 0:
            place(self.marker.grid, (x, y + at * LINE_H))
        else:
            _park(self.marker.grid)


def _park(grid):
    """Hide a panel's TileGrid off the screen.  CircuitPython books a TileGrid hidden through a
    refresh as drawn where it stands, and one shown again at another x repaints that place too:
    the lost panel after lines last shown at x 0 redrew 3,120 pixels of the table more (23 ms on
    the PyGamer).  Off the screen, that repaint is clipped to nothing."""
    if not grid.hidden:
        grid.hidden = True
        grid.x = PARK
