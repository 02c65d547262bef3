"""The game screen on displayio: built once, in named steps, then updated in place.

``Screen(display)`` makes every displayio object the game ever shows and sets
``display.root_group``: the felt, the divan's two trays, 17 cards (2x3 TileGrids over
the sprite sheet), the stock's and talon's card counts, the status and message lines, the
highlight rings and the panel for menus and pages.  All text is ``TextLine``s: a TileGrid
of glyph cells each.  ``update(ctrl)`` then only rewrites tiles, moves rings and
hides or shows, touching nothing that did not change, so each refresh sends only the
changed areas.  It never calls ``display.refresh()``: the main loop does, once per key.

Hidden things wait off the screen (``layout.PARK``) until they are first shown:
CircuitPython records a TileGrid hidden at its first refresh as drawn where it stands, and
repaints that area at the next refresh -- with the panel, most of the screen (0.8 s at
320x240 on the Pico).  Off the screen, that repaint is clipped to nothing.

Every pixel a refresh redraws costs 5.5-7 us on the Pico (tools/emulate), so the panel is
only as big as what it shows: a line per line of content, as wide as the widest, against
the right edge (``Layout.panel_rect``).  The rings lie under it and stay as they are while
it is up, so opening or closing it redraws nothing else but the message line.
"""

import displayio

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

TEXT = 0xFFFFFF
MESSAGE = 0xFFE070
CURSOR = 0xFFE000
SELECTED = 0x00B8FF
HINT = 0xFF40E0

CARD_TILES = 6  # a card: 2x3 sprite tiles
CHIP_COLS = 4  # a card in the message line ("%c"): drawn over 4 text columns
CHIPS = 2  # at most two cards in a message
PLACES = SULTAN_PLACE + 1
FOUNDATIONS = 8
BACK_SHOWN = 255  # _show_card's card byte for a face-down card (the stock)
UNKNOWN = -1
MORE_ABOVE = "^"  # the menu's scroll marks, at its right edge
MORE_BELOW = "v"
MARKER_COL = " "  # a panel line's first column: the menu's marker goes there
MENU_INDENT = " "  # between the marker and a menu label
MARKER = ">"


class Screen:
    """Every display object of the game, and how to bring them up to date."""

    def __init__(self, display):
        self.display = display
        self.layout = Layout(display.width, display.height)
        self.cols = self.layout.text_cols
        self.sheet, self.palette = sprites.build_sheet()
        self.glyphs = sprites.read_bitmap(sprites.GLYPH_FILE)
        self.root = displayio.Group(scale=self.layout.scale)
        self._tiles = bytearray(CARD_TILES)
        self.fresh = True  # the key help is on show until the first key
        self._build_felt()
        self._build_trays()
        self._build_cards()
        self._build_counts()
        self._build_lines()
        self._build_rings()
        self._build_panel()
        display.root_group = self.root

    # ------------------------------------------------------------ building
    def _add(self, tg, hidden=False):
        """Put ``tg`` on top; a hidden one waits off the screen (see the module's doc)."""
        if hidden:
            tg.x = PARK
            tg.hidden = True
        self.root.append(tg)
        return tg

    def _sprites(self, width, height, tile, x=0, y=0):
        return displayio.TileGrid(self.sheet, pixel_shader=self.palette, width=width, height=height,
                                  tile_width=sprites.TILE_W, tile_height=sprites.TILE_H,
                                  default_tile=tile, x=x, y=y)

    def _build_felt(self):
        lay = self.layout
        tw, th = sprites.TILE_W, sprites.TILE_H
        self._add(self._sprites((lay.vw + tw - 1) // tw, (lay.vh + th - 1) // th, sprites.T_FELT))

    def _build_trays(self):
        """The divan's trays: three 2-pixel-high tiles (top rim, middle, bottom rim) each."""
        x, y, w, h = self.layout.tray_rect(0)
        bmp = sprites.tray_bitmap(w)
        pal = displayio.Palette(2)
        pal.make_transparent(0)
        pal[1] = sprites.COLORS[sprites.TRAY]
        rim = bmp.height // 3
        for side in (0, 1):
            x, y, w, h = self.layout.tray_rect(side)
            tg = self._add(displayio.TileGrid(bmp, pixel_shader=pal, width=1, height=h // rim,
                                              tile_width=w, tile_height=rim, default_tile=1, x=x, y=y))
            tg[0] = 0
            tg[h // rim - 1] = 2

    def _build_cards(self):
        """One 2x3 TileGrid per place; the sultan's face never changes."""
        self.cards = []
        for place in range(PLACES):
            x, y = self.layout.place_xy(place)
            self.cards.append(self._add(self._sprites(2, 3, sprites.T_EMPTY, x, y)))
        sultan = self.cards[SULTAN_PLACE]
        for i in range(CARD_TILES):
            sultan[i] = sprites.T_SULTAN + i
        self.shown = [UNKNOWN] * PLACES  # card byte on show (0 empty, BACK_SHOWN face down)

    def _build_counts(self):
        glyphs = self.glyphs
        self.stock_count = self._line(TextLine(glyphs, palette(TEXT, _color(sprites.BACK)), COUNT_COLS), True)
        self.talon_count = self._line(TextLine(glyphs, palette(TEXT, _color(sprites.FELT)), COUNT_COLS), True)

    def _build_lines(self):
        """Status and message lines; chips draw cards in the message, a star marks a winnable deal."""
        felt = _color(sprites.FELT)
        x, y = self.layout.status_xy
        self.status = self._line(TextLine(self.glyphs, palette(TEXT, felt), self.cols, x, y))
        x, y = self.layout.message_xy
        self.message = self._line(TextLine(self.glyphs, palette(MESSAGE, felt), self.cols, x, y))
        self.chips = [self._add(self._sprites(2, 1, sprites.T_EMPTY), True) for _ in range(CHIPS)]
        self.chip_state = [None] * CHIPS
        self.star = self._add(self._sprites(1, 1, sprites.T_STAR), True)

    def _build_panel(self):
        """The panel, on top: as many text lines as it can show, and the menu's marker, one cell."""
        lay = self.layout
        pal = palette(TEXT, _color(sprites.PANEL))
        self.panel = [self._line(TextLine(self.glyphs, pal, lay.panel_cols), True)
                      for _ in range(lay.panel_lines)]
        self.marker = self._line(TextLine(self.glyphs, palette(CURSOR, _color(sprites.PANEL)), 1), True)
        self.marker.write(MARKER)
        self.menu_top = 0  # the first menu line on show (the menu scrolls when it is taller)

    def _build_rings(self):
        """Highlight rings on top: hint (two), selection, cursor -- one bitmap, four palettes."""
        self.ring_bitmap = sprites.frame_bitmap(CARD_W + 2 * RING, CARD_H + 2 * RING)
        hint = sprites.frame_palette(HINT, None)
        self.rings = []
        for pal in (hint, hint, sprites.frame_palette(None, SELECTED), sprites.frame_palette(CURSOR, None)):
            self.rings.append(self._add(displayio.TileGrid(self.ring_bitmap, pixel_shader=pal), True))
        self.ring_at = [NONE] * len(self.rings)

    def _line(self, line, hidden=False):
        self._add(line.grid, hidden)
        return line

    # ------------------------------------------------------------- updating
    def update(self, ctrl):
        """Make the screen show ``ctrl`` (a ``sultan.ui.controller.Controller``)."""
        g = ctrl.game
        playing = ctrl.mode == PLAY
        self._show_cards(g)
        self._show_counts(g)
        self._show_rings(ctrl)
        self.status.write(words.status_text(g, self.cols, ctrl.winnable))
        self._place(self.star, self.layout.status_xy, ctrl.winnable)
        text = ctrl.message
        if not text:
            text = words.keys_help() if self.fresh and playing else words.HELP[ctrl.mode]
        self._show_message(text, ctrl.message_cards)
        self._show_panel(ctrl)
        self.fresh = False

    def _place(self, obj, xy, shown=True):
        """Show ``obj`` with its top-left at virtual ``xy``, or hide it."""
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

    def _show_cards(self, g):
        for place in range(TALON + 1):
            self._show_card(place, g.card_at(place))
        for f in range(FOUNDATIONS):
            self._show_card(F0 + f, g.foundation_card(f))
        self._show_card(STOCK, BACK_SHOWN if g.stock_count else 0)

    def _show_card(self, place, card):
        if self.shown[place] == card:
            return
        self.shown[place] = card
        tg = self.cards[place]
        t = self._tiles
        if card == BACK_SHOWN:
            for i in range(CARD_TILES):
                t[i] = sprites.T_BACK + i
        else:
            sprites.face_tiles(card, t)
        for i in range(CARD_TILES):
            tg[i] = t[i]

    def _show_counts(self, g):
        """The stock's count on its back (once empty: "R1"/"R2" while a redeal is left) and the
        talon's under it."""
        left = 0
        if not g.stock_count and g.placed < STOCK_SIZE and (g.refill or g.talon_count):
            left = engine.PASSES - g.pass_no
        text = "%2d" % g.stock_count if g.stock_count else "R%d" % left if left else ""
        self.stock_count.write(text)
        self._place(self.stock_count.grid, self.layout.stock_count_xy, text)
        self.talon_count.write("%2d" % g.talon_count if g.talon_count else "")
        self._place(self.talon_count.grid, self.layout.talon_count_xy, g.talon_count)

    def _show_rings(self, ctrl):
        """Rings: hint source and target, selection, cursor (left as they are under a panel)."""
        h0 = h1 = NONE
        h = ctrl.hint
        if h:
            k = engine.hint_kind(h)
            if k == engine.A_PLAY:
                h0 = engine.hint_place(h)
                h1 = F0 + engine.hint_foundation(h)
            elif k == engine.A_PARK:
                h0 = TALON
                h1 = engine.hint_place(h)
            else:
                h0 = STOCK
        for i, place in enumerate((h0, h1, ctrl.selected, ctrl.cursor)):
            if self.ring_at[i] != place:
                self.ring_at[i] = place
                self._place(self.rings[i], self.layout.ring_rect(place)[:2] if place != NONE else None,
                            place != NONE)

    def _show_message(self, text, cards):
        """The message line; each "%c" becomes a small card (rank and suit tiles)."""
        out = ""
        n = 0
        i = text.find("%c")
        while i >= 0 and n < CHIPS:
            out += text[:i]
            self._chip(n, len(out), cards[n])
            out += " " * CHIP_COLS
            n += 1
            text = text[i + 2:]
            i = text.find("%c")
        while n < CHIPS:
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
        self._place(tg, (x + GLYPH_W * col + 1, y), state is not None)

    def _show_panel(self, ctrl):
        """Menu, digit editor, Rules and Statistics pages, won/lost: the panel's lines."""
        mode = ctrl.mode
        g = ctrl.game
        at = UNKNOWN
        lines = ()
        if mode == MENU:
            lines, at = self._menu_lines(ctrl)
        elif mode == DEAL:
            lines = words.deal_lines("".join(str(d) for d in ctrl.digits), ctrl.digit_pos)
        elif mode == RULES_PAGE:
            lines = words.rules_lines(g.rules)
        elif mode == STATS_PAGE:
            lines = words.stats_lines(ctrl.stats, g.rules)
        elif mode != PLAY:
            lines = words.over_lines(g)
        n = len(lines)
        width = 0
        for line in lines:
            width = max(width, len(line))
        x, y = self.layout.panel_rect(n, width)
        for i in range(len(self.panel)):
            line = self.panel[i]
            if i < n:
                line.write(MARKER_COL + lines[i])
            self._place(line.grid, (x, y + i * LINE_H), i < n)
        self._place(self.marker.grid, (x, y + at * LINE_H), at >= 0)

    def _menu_lines(self, ctrl):
        """The menu's lines on show and the marker's line: a window that follows the cursor.

        A taller menu than the window (``Layout.menu_lines``) scrolls; "^" / "v" at the right
        say more lies above / below.  Every label is padded to the longest, so the panel keeps
        its width while the menu is up.
        """
        n = len(ctrl.items)
        rows = self.layout.menu_lines
        i = ctrl.menu_index
        top = min(max(self.menu_top, i - rows + 1), i, max(n - rows, 0))
        self.menu_top = top
        end = min(top + rows, n)
        w = 0
        for k in range(n):
            w = max(w, len(ctrl.menu_label(k)))
        lines = []
        for k in range(top, end):
            more = " "
            if k == top and top > 0:
                more = MORE_ABOVE
            elif k == end - 1 and end < n:
                more = MORE_BELOW
            label = ctrl.menu_label(k)
            lines.append(MENU_INDENT + label + " " * (w + 1 - len(label)) + more)
        return lines, i - top


def _color(index):
    return sprites.COLORS[index]
