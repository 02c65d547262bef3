"""The game screen on displayio: built once, in named steps, then updated in place.

``Screen(display)`` makes every displayio object the game ever shows and sets
``display.root_group``: the felt, the divan's two trays, 17 cards (2x3 TileGrids over
the sprite sheet), the stock's and talon's card counts, the status and message lines, the
highlight rings and the panel for menus and pages.  All text is ``TextLine``s: a TileGrid
of glyph cells each.  ``update(ctrl)`` then only rewrites tiles, moves rings and hides
or shows, touching nothing that did not change, so each refresh sends only the changed
areas.  It never calls ``display.refresh()``: the main loop does, once per key.

Every pixel a refresh sends costs 5.5-8 us on the Pico (measured in tools/emulate), so:

- a ring is four 2-pixel bars, not a frame round the card: moving it redraws the bars,
  not the cards inside;
- the panel is only as big as what it shows (``Panel``), and its lines never move while
  it is up;
- hidden things wait off the screen (``layout.PARK``) until they are first shown:
  CircuitPython books a TileGrid hidden at its first refresh as drawn where it stands, and
  repaints that area at the next refresh -- with a panel, most of the screen.  Off the
  screen, that repaint is clipped to nothing, and start-up needs one refresh.
"""

import displayio
import vectorio

from sultan import const
from sultan.rules import engine
from sultan.rules.cards import STOCK_SIZE
from sultan.ui import sprites, words
from sultan.ui.controller import DEAL, MENU, PLAY, RULES_PAGE, STATS_PAGE
from sultan.ui.layout import (
    CARD_H,
    CARD_W,
    COUNT_COLS,
    F0,
    GLYPH_W,
    LINE_H,
    NONE,
    PARK,
    RING,
    STOCK,
    SULTAN_PLACE,
    TALON,
    Layout,
)
from sultan.ui.textgrid import TextLine, palette

TEXT = const(0xFFFFFF)  # colours (public: the tests look for them)
MESSAGE = const(0xFFE070)
CURSOR = const(0xFFE000)
SELECTED = const(0x00B8FF)
HINT = const(0xFF40E0)

# (private consts: compiled into the code, no names in the board's heap)
_CARD_COLS = const(2)  # a card: 2x3 sprite tiles
_CARD_ROWS = const(3)
_CARD_TILES = const(6)
_CHIP_COLS = const(4)  # a card in a message ("%c"): its rank and suit tiles over 4 text columns
_CHIPS = const(2)  # at most two cards in a message
_FOUNDATIONS = const(8)
_BACK_SHOWN = const(255)  # _show_card's card byte for a face-down card (the stock)
_UNKNOWN = const(-1)
_OUTER = const(0)  # a ring's bands: 2 pixels outside the card (hint, cursor) ...
_INNER = const(1)  # ... or 2 pixels on its edge (selection)
_BAND = const(2)  # a band's width
_BARS = const(4)  # a ring's bars: top, bottom, left, right
CHIP = "%c"
MORE_ABOVE = "^"  # the menu's scroll marks, at its right edge
MORE_BELOW = "v"
MARKER_COL = " "  # a panel line's first column: the menu's marker goes there
MENU_INDENT = " "  # between the marker and a menu label
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
    """``obj`` hidden off the screen until it is first shown (see the module's doc)."""
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
        self.menu_top = 0  # the first menu line on show (the menu scrolls when it is taller)
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

    def menu(self, ctrl):
        """Show the menu: a window that follows the cursor.

        A taller menu than the window (``Layout.menu_lines``) scrolls; "^" / "v" at the right
        say more lies above / below.  It is as wide as the widest page it leads to, so opening
        one moves nothing (see ``show``).
        """
        n = len(ctrl.items)
        rows = self.layout.menu_lines
        i = ctrl.menu_index
        top = min(max(self.menu_top, i - rows + 1), i, max(n - rows, 0))
        self.menu_top = top
        end = min(top + rows, n)
        w = self.layout.text_cols - 1 - len(MENU_INDENT) - len(MORE_ABOVE)  # a page's widest line
        lines = []
        for k in range(top, end):
            more = " "
            if k == top and top > 0:
                more = MORE_ABOVE
            elif k == end - 1 and end < n:
                more = MORE_BELOW
            label = ctrl.menu_label(k)[:w]
            lines.append(MENU_INDENT + label + " " * (w - len(label)) + more)
        self.show(lines, i - top)


def _rectangle(color, rect, scale):
    """A vectorio rectangle over virtual ``rect`` (x, y, w, h), in real pixels."""
    x, y, w, h = rect
    pal = displayio.Palette(1)
    pal[0] = sprites.COLORS[color]
    return vectorio.Rectangle(pixel_shader=pal, width=w * scale, height=h * scale, x=x * scale, y=y * scale)


class Screen:
    """Every display object of the game, and how to bring them up to date."""

    def __init__(self, display):
        self.display = display
        self.layout = Layout(display.width, display.height)
        self.cols = self.layout.text_cols
        self.sheet, self.palette = sprites.build_sheet()
        self.glyphs = sprites.read_bitmap(sprites.GLYPH_FILE)
        self.root = displayio.Group()  # the vectorio shapes, in real pixels, then the board
        self.board = displayio.Group(scale=self.layout.scale)  # the rest, in virtual pixels
        self._tiles = bytearray(_CARD_TILES)
        self.fresh = True  # the key help is on show until the first key
        self._build_felt()
        self.root.append(self.board)
        self._build_cards()
        self._build_counts()
        self._build_lines()
        self._build_rings()
        self._build_panel()
        display.root_group = self.root

    # ------------------------------------------------------------ building
    def _add(self, tg):
        self.board.append(tg)
        return tg

    def _sprites(self, width, height, tile, x=0, y=0):
        return displayio.TileGrid(self.sheet, pixel_shader=self.palette, width=width, height=height,
                                  tile_width=sprites.TILE_W, tile_height=sprites.TILE_H,
                                  default_tile=tile, x=x, y=y)

    def _build_felt(self):
        """The felt and the divan's trays: vectorio rectangles, which displayio draws at an eighth
        of a TileGrid's cost a pixel (0.6 us against 4.6 on the Pico: the first refresh, and
        every panel closed, redraw them).  In real pixels, outside the scaled board: Blinka
        does not scale a vectorio shape with its Group, CircuitPython does."""
        lay = self.layout
        self.root.append(_rectangle(sprites.FELT, (0, 0, lay.vw, lay.vh), lay.scale))
        for side in (0, 1):
            self.root.append(_rectangle(sprites.TRAY, lay.tray_rect(side), lay.scale))

    def _build_cards(self):
        """One 2x3 TileGrid per place; the sultan's face never changes."""
        self.cards = []
        for p in range(SULTAN_PLACE + 1):
            x, y = self.layout.place_xy(p)
            self.cards.append(self._add(self._sprites(_CARD_COLS, _CARD_ROWS, sprites.T_EMPTY, x, y)))
        sultan = self.cards[SULTAN_PLACE]
        for i in range(_CARD_TILES):
            sultan[i] = sprites.T_SULTAN + i
        self.shown = [_UNKNOWN] * (SULTAN_PLACE + 1)  # card byte on show (0 empty, _BACK_SHOWN face down)

    def _build_counts(self):
        colors = sprites.COLORS
        self.stock_count = TextLine(self.glyphs, palette(TEXT, colors[sprites.BACK]), COUNT_COLS)
        self.talon_count = TextLine(self.glyphs, palette(TEXT, colors[sprites.FELT]), COUNT_COLS)
        self._add(parked(self.stock_count.grid))
        self._add(parked(self.talon_count.grid))

    def _build_lines(self):
        """Status and message lines; chips draw cards in the message, a star marks a winnable deal."""
        felt = sprites.COLORS[sprites.FELT]
        x, y = self.layout.status_xy
        self.status = TextLine(self.glyphs, palette(TEXT, felt), self.cols, x, y)
        x, y = self.layout.message_xy
        self.message = TextLine(self.glyphs, palette(MESSAGE, felt), self.cols, x, y)
        self._add(self.status.grid)
        self._add(self.message.grid)
        self.chips = [self._add(parked(self._sprites(_CARD_COLS, 1, sprites.T_EMPTY))) for _ in range(_CHIPS)]
        self.chip_state = [None] * _CHIPS
        self.star = self._add(parked(self._sprites(1, 1, sprites.T_STAR)))

    def _build_rings(self):
        """Rings: hint (two), selection, cursor -- bars of one frame bitmap, in three palettes."""
        frame = sprites.frame_bitmap(CARD_W + 2 * RING, CARD_H + 2 * RING)
        hint = sprites.frame_palette(HINT, None)
        self.rings = [Ring(frame, hint, _OUTER), Ring(frame, hint, _OUTER),
                      Ring(frame, sprites.frame_palette(None, SELECTED), _INNER),
                      Ring(frame, sprites.frame_palette(CURSOR, None), _OUTER)]
        for ring in self.rings:
            for bar in ring.bars:
                self._add(bar)

    def _build_panel(self):
        """The panel, on top of everything."""
        self.panel = Panel(self.glyphs, self.layout)
        for grid in self.panel.grids():
            self._add(parked(grid))

    # ------------------------------------------------------------- updating
    def update(self, ctrl):
        """Make the screen show ``ctrl`` (a ``sultan.ui.controller.Controller``)."""
        g = ctrl.game
        self._show_cards(g)
        self._show_counts(g)
        self._show_rings(ctrl)
        self.status.write(words.status_text(g, self.cols, ctrl.winnable))
        place(self.star, self.layout.status_xy, ctrl.winnable)
        text = ctrl.message
        if not text:
            text = words.keys_help() if self.fresh and ctrl.mode == PLAY else words.HELP[ctrl.mode]
        self._show_message(text, ctrl.message_cards)
        self._show_panel(ctrl)
        self.fresh = False

    def _show_cards(self, g):
        for p in range(TALON + 1):
            self._show_card(p, g.card_at(p))
        for f in range(_FOUNDATIONS):
            self._show_card(F0 + f, g.foundation_card(f))
        self._show_card(STOCK, _BACK_SHOWN if g.stock_count else 0)

    def _show_card(self, p, card):
        if self.shown[p] == card:
            return
        self.shown[p] = card
        tg = self.cards[p]
        t = self._tiles
        if card == _BACK_SHOWN:
            for i in range(_CARD_TILES):
                t[i] = sprites.T_BACK + i
        else:
            sprites.face_tiles(card, t)
        for i in range(_CARD_TILES):  # only the tiles that differ: a card on its own suit's pile
            if tg[i] != t[i]:  # changes the rank's tile alone, a sixth of the card
                tg[i] = t[i]

    def _show_counts(self, g):
        """The stock's count on its back (once empty: "R1"/"R2" while a redeal is left) and the
        talon's under it."""
        left = 0
        if not g.stock_count and g.placed < STOCK_SIZE and (g.refill or g.talon_count):
            left = engine.PASSES - g.pass_no
        text = "%2d" % g.stock_count if g.stock_count else words.redeals_left(left) if left else ""
        self.stock_count.write(text)
        place(self.stock_count.grid, self.layout.stock_count_xy, text)
        self.talon_count.write("%2d" % g.talon_count if g.talon_count else "")
        place(self.talon_count.grid, self.layout.talon_count_xy, g.talon_count)

    def _show_rings(self, ctrl):
        """Rings: hint source and target, selection, cursor; none while a panel is up (their
        bars are cheap to hide, and a ring's edge would peek out beside a panel)."""
        h0 = h1 = NONE
        h = ctrl.hint
        playing = ctrl.mode == PLAY
        if h and playing:
            k = engine.hint_kind(h)
            if k == engine.A_PLAY:
                h0 = engine.hint_place(h)
                h1 = F0 + engine.hint_foundation(h)
            elif k == engine.A_PARK:
                h0 = TALON
                h1 = engine.hint_place(h)
            else:
                h0 = STOCK
        lay = self.layout
        hint_from, hint_to, selection, cursor = self.rings
        hint_from.show(lay, h0)
        hint_to.show(lay, h1)
        selection.show(lay, ctrl.selected if playing else NONE)
        cursor.show(lay, ctrl.cursor if playing else NONE)

    def _show_message(self, text, cards):
        """The message line; each "%c" becomes a small card (rank and suit tiles)."""
        out = ""
        n = 0
        i = text.find(CHIP)
        while i >= 0 and n < _CHIPS:
            out += text[:i]
            self._chip(n, len(out), cards[n])
            out += " " * _CHIP_COLS
            n += 1
            text = text[i + 2:]
            i = text.find(CHIP)
        while n < _CHIPS:
            self._chip(n, -1, 0)
            n += 1
        self.message.write(out + text)

    def _chip(self, n, col, card):
        state = (col, card) if col >= 0 and card else None
        if self.chip_state[n] == state:
            return
        self.chip_state[n] = state
        tg = self.chips[n]
        if state is not None:
            t = sprites.face_tiles(card, self._tiles)
            tg[0] = t[0]
            tg[1] = t[1]
        x, y = self.layout.message_xy
        place(tg, (x + GLYPH_W * col + 1, y), state is not None)

    def _show_panel(self, ctrl):
        """Menu, digit editor, Rules and Statistics pages, won/lost: the panel's lines."""
        mode = ctrl.mode
        g = ctrl.game
        if mode == MENU:
            self.panel.menu(ctrl)
            return
        lines = ()
        if mode == DEAL:
            lines = words.deal_lines("".join(str(d) for d in ctrl.digits), ctrl.digit_pos)
        elif mode == RULES_PAGE:
            lines = words.rules_lines(g.rules)
        elif mode == STATS_PAGE:
            lines = words.stats_lines(ctrl.stats, g.rules)
        elif mode != PLAY:
            lines = words.over_lines(g)
        self.panel.show(lines)
