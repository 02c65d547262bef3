"""The game screen on displayio: built once, then updated in place.

``Screen(display)`` makes every displayio object the game ever shows (cards are
TileGrids over the sprite sheet, text is ``bitmap_label``, the pyramid is a
``GridLayout``) and sets ``display.root_group``.  ``update(ctrl)`` then only
rewrites tiles, moves highlight rings, changes label text and hides or shows
the overlay panel, touching nothing that did not change, so each refresh
sends only the changed areas.  It never calls ``display.refresh()``: the main
loop does, once per handled key.
"""

import displayio
import terminalio
from adafruit_display_text import bitmap_label
from adafruit_displayio_layout.layouts.grid_layout import GridLayout

from sultan.rules import engine
from sultan.ui import sprites, words
from sultan.ui.controller import DEAL, MENU, PLAY, RULES_PAGE, STATS_PAGE
from sultan.ui.layout import CARD_H, CARD_W, F0, LINE_H, NONE, RING, STOCK, SULTAN_PLACE, TALON, Layout

TEXT = 0xFFFFFF
MESSAGE = 0xFFE070
CURSOR = 0xFFE000
SELECTED = 0x00B8FF
HINT = 0xFF40E0


def pad(text, n):
    """``text`` cut or padded with spaces to exactly ``n`` characters."""
    if len(text) >= n:
        return text[:n]
    return text + " " * (n - len(text))


class Screen:
    """Every display object of the game, and how to bring them up to date."""

    def __init__(self, display, font=None):
        self.display = display
        self.font = font or terminalio.FONT
        lay = Layout(display.width, display.height)
        self.layout = lay
        self.sheet, self.palette = sprites.build_sheet()
        self.root = displayio.Group(scale=lay.scale)
        tw, th = sprites.TILE_W, sprites.TILE_H
        # The felt.
        self.root.append(displayio.TileGrid(
            self.sheet, pixel_shader=self.palette, width=(lay.vw + tw - 1) // tw,
            height=(lay.vh + th - 1) // th, tile_width=tw, tile_height=th, default_tile=sprites.T_FELT))
        # Cards: one 2x3 TileGrid per place; the pyramid's nine in a GridLayout.
        self.cards = {}
        self.shown = {}  # place -> card byte on show (-1 unknown, 0 empty, 255 back)
        px, py, pw, ph = lay.pyramid_rect()
        self.pyramid = GridLayout(x=px, y=py, width=pw, height=ph, grid_size=(3, 3))
        for place in range(F0, SULTAN_PLACE + 1):
            tg = self._card_grid()
            col, row = _pyramid_cell(place)
            self.pyramid.add_content(tg, grid_position=(col, row), cell_size=(1, 1))
            self.cards[place] = tg
        self.pyramid.layout_cells()
        self.root.append(self.pyramid)
        sultan = self.cards[SULTAN_PLACE]
        for i in range(6):
            sultan[i] = sprites.T_SULTAN + i
        for place in range(STOCK + 1):
            x, y = lay.place_xy(place)
            tg = self._card_grid(x, y)
            self.cards[place] = tg
            self.root.append(tg)
        for place in self.cards:
            self.shown[place] = -1
        sx, sy = lay.place_xy(STOCK)
        self.stock_label = self._label(2, TEXT, sprites.COLORS[sprites.BACK],
                                       sx + CARD_W // 2 - 6, sy + CARD_H // 2 - 6)
        self.root.append(self.stock_label)
        # Highlight rings: hint (two), selection, cursor -- one bitmap, four palettes.
        self.ring_bitmap = sprites.frame_bitmap(CARD_W + 2 * RING, CARD_H + 2 * RING)
        hint_pal = sprites.frame_palette(HINT, None)
        self.rings = []
        for pal in (hint_pal, hint_pal, sprites.frame_palette(None, SELECTED),
                    sprites.frame_palette(CURSOR, None)):
            tg = displayio.TileGrid(self.ring_bitmap, pixel_shader=pal)
            tg.hidden = True
            self.rings.append(tg)
        self.ring_at = [NONE, NONE, NONE, NONE]
        # Status and message lines; chips draw cards inside the message.
        cols = lay.text_cols
        self.cols = cols
        x, y = lay.status_xy
        felt = sprites.COLORS[sprites.FELT]
        self.status = self._label(cols, TEXT, felt, x, y, lay.vw - 6 * cols)
        x, y = lay.message_xy
        self.message = self._label(cols, MESSAGE, felt, x, y, lay.vw - 6 * cols)
        self.chips = []
        for _ in range(2):
            tg = displayio.TileGrid(self.sheet, pixel_shader=self.palette, width=2, height=1,
                                    tile_width=tw, tile_height=th, x=x, y=y + 1)
            tg.hidden = True
            self.chips.append(tg)
        self.chip_state = [None, None]
        # The star of a known-winnable deal, in the status line's first columns.
        x, y = lay.status_xy
        self.star = displayio.TileGrid(self.sheet, pixel_shader=self.palette, width=1, height=1,
                                       tile_width=tw, tile_height=th, default_tile=sprites.T_STAR,
                                       x=x, y=y + 1)
        self.star.hidden = True
        self.menu_top = 0  # the first menu line on show (the menu scrolls when it is taller)
        # The overlay: menu, deal number, rules, won/lost.
        self.overlay = displayio.Group()
        ptw, pth = lay.panel_tiles
        self.overlay.append(displayio.TileGrid(
            self.sheet, pixel_shader=self.palette, width=ptw, height=pth, tile_width=tw,
            tile_height=th, default_tile=sprites.T_PANEL, x=0, y=lay.panel_y))
        self.overlay_cols = (lay.vw - 8) // 6
        self.overlay_lines = lay.panel_lines
        self.overlay_text = bitmap_label.Label(
            self.font, text=self._block(()), color=TEXT, background_color=sprites.COLORS[sprites.PANEL],
            line_spacing=LINE_H / 12, anchor_point=(0, 0), anchored_position=(4, lay.panel_y + 3))
        self.overlay.append(self.overlay_text)
        # The menu's ">" moves alone, so a menu step redraws one text column, not the panel.  It is
        # a label of one column and as many lines as the panel's text, with the same font and line
        # spacing, so its lines sit on the text's lines on every port (CircuitPython's terminalio
        # font has another line pitch than Blinka's): moving it is changing which line holds ">".
        n = self.overlay_lines
        self.marker_texts = tuple("\n".join(">" if k == i else " " for k in range(n)) for i in range(n))
        self.marker = bitmap_label.Label(
            self.font, text=self.marker_texts[0], color=CURSOR,
            background_color=sprites.COLORS[sprites.PANEL], line_spacing=LINE_H / 12,
            anchor_point=(0, 0), anchored_position=(4, lay.panel_y + 3))
        self.marker.hidden = True
        self.overlay.append(self.marker)
        self.marker_at = -1
        self.overlay.hidden = True
        self.root.append(self.overlay)
        self.root.append(self.status)
        self.root.append(self.message)
        for tg in self.chips:
            self.root.append(tg)
        self.root.append(self.star)
        for tg in self.rings:  # on top: at 320x240 a ring's edge touches the text lines
            self.root.append(tg)
        self.texts = [None, None, None, None]  # text on show: stock count, status, message, overlay
        self._tiles = bytearray(6)
        display.root_group = self.root

    # ------------------------------------------------------------ building
    def _card_grid(self, x=0, y=0):
        return displayio.TileGrid(self.sheet, pixel_shader=self.palette, width=2, height=3,
                                  tile_width=sprites.TILE_W, tile_height=sprites.TILE_H,
                                  default_tile=sprites.T_EMPTY, x=x, y=y)

    def _label(self, cols, color, background, x, y, pad_right=0):
        return bitmap_label.Label(self.font, text=" " * cols, color=color, background_color=background,
                                  padding_right=pad_right, anchor_point=(0, 0), anchored_position=(x, y))

    def _block(self, lines):
        out = []
        for i in range(self.overlay_lines):
            out.append(pad(lines[i] if i < len(lines) else "", self.overlay_cols))
        return "\n".join(out)

    # ------------------------------------------------------------- updating
    def _text(self, i, label, text):
        if self.texts[i] != text:
            self.texts[i] = text
            label.text = text

    def _hide(self, obj, hidden):
        if obj.hidden != hidden:
            obj.hidden = hidden

    def _show_card(self, place, card):
        if self.shown[place] == card:
            return
        self.shown[place] = card
        tg = self.cards[place]
        t = self._tiles
        if card == 255:
            for i in range(6):
                t[i] = sprites.T_BACK + i
        else:
            sprites.face_tiles(card, t)
        for i in range(6):
            tg[i] = t[i]

    def _ring(self, i, place):
        if self.ring_at[i] == place:
            return
        self.ring_at[i] = place
        tg = self.rings[i]
        if place == NONE:
            tg.hidden = True
            return
        x, y, _w, _h = self.layout.ring_rect(place)
        tg.x = x
        tg.y = y
        tg.hidden = False

    def update(self, ctrl):
        """Make the screen show ``ctrl`` (a ``sultan.controller.Controller``)."""
        g = ctrl.game
        for place in range(TALON + 1):
            self._show_card(place, g.card_at(place))
        for f in range(8):
            self._show_card(F0 + f, g.foundation_card(f))
        self._show_card(STOCK, 255 if g.stock_count else 0)
        # The stock's count on its back; once empty, "R1"/"R2" while a redeal is left.
        left = 0
        if not g.stock_count and g.placed < 95 and (g.refill or g.talon_count):
            left = engine.PASSES - g.pass_no
        self._hide(self.stock_label, not (g.stock_count or left))
        if g.stock_count:
            self._text(0, self.stock_label, "%2d" % g.stock_count)
        elif left:
            self._text(0, self.stock_label, "R%d" % left)
        playing = ctrl.mode == PLAY
        # Rings: hint source and target, selection, cursor.
        h0 = h1 = NONE
        h = ctrl.hint
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
        self._ring(0, h0)
        self._ring(1, h1)
        self._ring(2, ctrl.selected if playing else NONE)
        self._ring(3, ctrl.cursor if playing else NONE)
        self._text(1, self.status, pad(words.status_text(g, self.cols, ctrl.winnable), self.cols))
        self._hide(self.star, not ctrl.winnable)
        self._message(ctrl.message or words.HELP[ctrl.mode], ctrl.message_cards)
        self._overlay(ctrl)

    def _message(self, text, cards):
        """The message line; each "%c" becomes a small card (rank and suit tiles)."""
        out = ""
        n = 0
        i = text.find("%c")
        while i >= 0 and n < 2:
            out += text[:i]
            self._chip(n, len(out), cards[n])
            out += "    "
            n += 1
            text = text[i + 2:]
            i = text.find("%c")
        out += text
        while n < 2:
            self._chip(n, -1, 0)
            n += 1
        self._text(2, self.message, pad(out, self.cols))

    def _chip(self, n, col, card):
        state = (col, card) if col >= 0 and card else None
        if self.chip_state[n] == state:
            return
        self.chip_state[n] = state
        tg = self.chips[n]
        if state is None:
            tg.hidden = True
            return
        t = sprites.face_tiles(card, self._tiles)
        tg[0] = t[0]
        tg[1] = t[1]
        tg.x = self.layout.message_xy[0] + 6 * col + 1
        tg.hidden = False

    def _overlay(self, ctrl):
        mode = ctrl.mode
        self._hide(self.overlay, mode == PLAY)
        if mode == PLAY:
            self.marker_at = -2  # re-place the marker when the menu opens again
            return
        g = ctrl.game
        at = -1
        if mode == MENU:
            lines, at = self._menu(ctrl)
        elif mode == DEAL:
            lines = words.deal_lines("".join(str(d) for d in ctrl.digits), ctrl.digit_pos)
        elif mode == RULES_PAGE:
            lines = words.RULES_TEXT[g.rules] if g.rules < len(words.RULES_TEXT) else words.RULES_TEXT[0]
        elif mode == STATS_PAGE:
            lines = words.stats_lines(ctrl.stats, g.rules)
        else:
            lines = words.over_lines(g)
        self._text(3, self.overlay_text, self._block(lines))
        if at != self.marker_at:
            self.marker_at = at
            self.marker.hidden = at < 0
            if at >= 0:
                self.marker.text = self.marker_texts[at]


    def _menu(self, ctrl):
        """The menu's lines on show and the marker's line: a window that follows the cursor.

        A taller menu than the panel scrolls; "^" / "v" at the right edge say more lies
        above / below.
        """
        n = len(ctrl.items)
        rows = self.overlay_lines
        i = ctrl.menu_index
        top = self.menu_top
        if i < top:
            top = i
        elif i >= top + rows:
            top = i - rows + 1
        if top > n - rows:
            top = n - rows
        if top < 0:
            top = 0
        self.menu_top = top
        end = top + rows if top + rows < n else n
        w = self.overlay_cols - 1
        lines = []
        for k in range(top, end):
            more = " "
            if k == top and top > 0:
                more = "^"
            elif k == end - 1 and end < n:
                more = "v"
            lines.append(pad("  " + ctrl.menu_label(k), w) + more)
        return lines, i - top


def _pyramid_cell(place):
    if place == SULTAN_PLACE:
        return 1, 1
    f = place - F0
    return ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2))[f]
