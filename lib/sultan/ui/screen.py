# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The game screen on displayio: built once, in named steps (``sultan.ui.build``), then
updated in place.

``sultan.ui.build.screen(display)`` makes every displayio object the game ever shows, sets
``display.root_group`` and returns the ``Screen`` holding them: the felt, the divan's two
trays, 17 cards (2x3 TileGrids over the sprite sheet), the stock's and talon's card counts,
the status and message lines, the highlight rings and the panel for menus and pages.  All
text is ``TextLine``s: a TileGrid of glyph cells each.  ``update(ctrl)`` then only rewrites
tiles, moves rings and hides or shows, touching nothing that did not change, so each refresh
sends only the changed areas.  It never calls ``display.refresh()``: the main loop does, once per key.

Every pixel a refresh sends costs 5.5-8 us on the Pico (measured in tools/emulate), so:

- a ring is four 2-pixel bars, not a frame round the card: moving it redraws the bars,
  not the cards inside;
- the panel is only as big as what it shows (``sultan.ui.widgets.Panel``), and its lines
  never move while it is up;
- hidden things wait off the screen (``layout.PARK``) until they are first shown:
  CircuitPython books a TileGrid hidden at its first refresh as drawn where it stands, and
  repaints that area at the next refresh -- with a panel, most of the screen.  Off the
  screen, that repaint is clipped to nothing, and start-up needs one refresh.
"""

from sultan import const
from sultan.rules import engine
from sultan.rules.cards import STOCK_SIZE
from sultan.rules.table import FOUNDATIONS
from sultan.ui import sprites, words
from sultan.ui.layout import F0, GLYPH_W, NONE, STOCK, SULTAN_PLACE, TALON
from sultan.ui.modes import MENU, PLAY
from sultan.ui.sprites import BACK_CARD, BLUE, CARD_TILES, CLUB, DIAMOND, GREEN
from sultan.ui.widgets import place

CHIPS = const(2)  # at most two cards in a message (sultan.ui.build makes them)
# The board Group's layers (sultan.ui.build hangs them in this order): the 17 cards, the two
# counts, then the sprites that travel (``sprite``), under the text, the rings and the panel.
FLYING = const(19)
# (private consts: compiled into the code, no names in the board's heap)
_CHIP_COLS = const(4)  # a card in a message ("%c"): its rank and suit tiles over 4 text columns
_UNKNOWN = const(254)  # show_card's "nothing drawn yet": no card byte is 254
CHIP = "%c"


class Screen:
    """Every display object of the game, and how to bring them up to date."""

    def __init__(self, layout, sheet, palette, board, cards, stock_count, talon_count,
                 status, message, chips, star, rings, panel):
        """The objects ``sultan.ui.build.screen(display)`` made (the way to get a Screen)."""
        self.layout = layout  # a sultan.ui.layout.Layout
        self.cols = layout.text_cols
        self.sheet = sheet  # the sprite sheet (displayio.Bitmap) and its Palette
        self.palette = palette
        self.board = board  # the scaled Group every TileGrid is on (after the felt, in display.root_group)
        self.cards = cards  # a 2x3 TileGrid a place
        self.stock_count = stock_count  # TextLines
        self.talon_count = talon_count
        self.status = status
        self.message = message
        self.chips = chips  # TileGrids drawing the cards of a message
        self.star = star  # the winnable deal's mark (a TileGrid)
        self.rings = rings  # sultan.ui.widgets.Ring: hint, hint, selection, cursor
        self.panel = panel  # sultan.ui.widgets.Panel
        self._tiles = bytearray(CARD_TILES)
        self.shown = bytearray(SULTAN_PLACE + 1)  # card byte on show (see sprites.face_tiles)
        for p in range(SULTAN_PLACE + 1):
            self.shown[p] = _UNKNOWN
        self.chip_state = [None] * CHIPS

    # ------------------------------------------------------------- updating
    def update(self, ctrl, cards=True):
        """Make the screen show ``ctrl`` (a ``sultan.ui.controller.Controller``); its cards too
        unless ``cards`` is False (``sultan.ui.motion`` deals them)."""
        g = ctrl.game
        pal = self.palette
        if (pal[DIAMOND] == BLUE) != ctrl.four_colour:  # the menu's switch: both suits' entries
            pal[DIAMOND] = BLUE if ctrl.four_colour else sprites.COLORS[sprites.RED]
            pal[CLUB] = GREEN if ctrl.four_colour else sprites.COLORS[sprites.INK]
        if cards:
            self._show_cards(g)
        left = self.show_counts(g)
        self.show_rings(ctrl)
        self.status.write(words.status_text(g, self.cols, ctrl.winnable))
        place(self.star, self.layout.status_xy, ctrl.winnable)
        text = ctrl.message
        if not text:  # the key help whenever no message stands (the stock empty: its redeals left)
            text = words.redeals_left(left) if left and ctrl.mode == PLAY else words.HELP[ctrl.mode]
        self._show_message(text, ctrl.message_cards)
        self.show_panel(ctrl)

    def _show_cards(self, g):
        for p in range(TALON + 1):
            self.show_card(p, g.card_at(p))
        for f in range(FOUNDATIONS):
            self.show_card(F0 + f, g.foundation_card(f))
        self.show_card(STOCK, BACK_CARD if g.stock_count else 0)

    def show_card(self, p, card):
        """Place ``p`` shows card byte ``card`` (see ``sprites.face_tiles``)."""
        if self.shown[p] != card:
            self.shown[p] = card
            self.draw(self.cards[p], card)

    def draw(self, tg, card):
        """Card TileGrid ``tg`` (a place's, or a ``sultan.ui.motion.sprite``) shows card byte ``card``."""
        t = sprites.face_tiles(card, self._tiles)
        for i in range(CARD_TILES):  # only the tiles that differ: a card on its own suit's pile
            if tg[i] != t[i]:  # changes the rank's tile alone, a sixth of the card
                tg[i] = t[i]

    def show_counts(self, g):
        """The stock's count on its back (once empty: "↻2"/"↻1" while a redeal is left) and the
        talon's under it; returns the redeals left (0 while the stock holds cards)."""
        left = 0
        if not g.stock_count and g.placed < STOCK_SIZE and (g.refill or g.talon_count):
            left = engine.PASSES - g.pass_no
        text = "%2d" % g.stock_count if g.stock_count else "\u21bb%d" % left if left else ""
        self.stock_count.write(text)
        place(self.stock_count.grid, self.layout.stock_count_xy, text)
        self.talon_count.write("%2d" % g.talon_count if g.talon_count else "")
        place(self.talon_count.grid, self.layout.talon_count_xy, g.talon_count)
        return left

    def show_rings(self, ctrl):
        """Rings: hint source and target, selection, cursor; none while a panel is up (their
        bars are cheap to hide, and a ring's edge would peek out beside a panel).  The hint's
        two rings' places (``Ring.at``) say its move (sultan.ui.motion reads them)."""
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
        while i >= 0 and n < CHIPS:
            out += text[:i]
            self._chip(n, len(out), cards[n])
            out += " " * _CHIP_COLS
            n += 1
            text = text[i + 2:]
            i = text.find(CHIP)
        while n < CHIPS:
            self._chip(n, -1, 0)
            n += 1
        text = out + text
        self.message.write(text)
        # No message: the line is hidden, not drawn blank.  Under it is bare felt, which
        # displayio paints for less a pixel than a TileGrid (see build.felt): the key after
        # a message clears it faster.
        place(self.message.grid, self.layout.message_xy, text != "")

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

    def show_panel(self, ctrl, up=True):
        """Menu, digit editor, Rules and Statistics pages, won/lost: the panel's lines; with ``up``
        False none, until the next ``update`` (the table seen while cards travel, the won panel
        held back by the cascade).  True if a panel was up before (one method for both: a
        method's code is heap on the board)."""
        was = self.panel.x is not None
        mode = ctrl.mode if up else PLAY
        lines = ()
        at = -1
        if mode == MENU:  # the menu and the pages say what they show; the screen draws it
            lines, at = ctrl.menu.view(ctrl, self.layout.menu_lines, self.cols)
        elif mode != PLAY:
            from sultan.ui import pages  # at the first page shown (see there)

            lines = pages.lines(ctrl, len(self.panel.lines))
        self.panel.show(lines, at)
        return was
