"""Screenshot tests on a headless framebuffer display, at 160x128 and 320x240.

Each scenario asserts real properties of the pixels (card and text glyphs drawn from their
bit strings, where the cursor is, which region changed, what each refresh redrew) and then
compares with a small reference PNG in host_tests/reference/.  Regenerate them with
``SULTAN_REGEN=1 .venv/bin/python -m pytest host_tests/ui/test_screen.py`` (and look at them).
On any failure the actual PNG is written to host_tests/_failures/.

The headless display books refreshes as CircuitPython does (see its docstring), so the
dirty areas checked here are the device's.
"""

import contextlib
import os

import numpy as np
import pytest
from play_keys import menu_keys, script_for
from screen_rig import (
    Rig,
    changed_mask,
    color,
    glyph_errors,
    outside,
    panel_rect,
    panel_text,
    reference_diff,
    save_failure,
    screen_rect,
)
from sultan.rules import engine
from sultan.ui import build, keys, pages, screen, sprites, textgrid, words
from sultan.ui.build import CURSOR, HINT, MESSAGE, SELECTED, TEXT
from sultan.ui.layout import CARD_H, CARD_W, F0, GLYPH_H, GLYPH_W, SULTAN_PLACE, TALON, TEXT_H
from sultan.ui.menu import M_CHOOSE, M_HINT, M_RULES
from sultan.ui.modes import OVER, PLAY, RULES_PAGE, STATS_PAGE
from sultan_host.desktop import font, sheets
from sultan_host.scripted import route

SIZES = ("160x128", "320x240")


@contextlib.contextmanager
def shot(rig, name):
    """Save the actual screen under host_tests/_failures/ if the block fails."""
    try:
        yield
    except BaseException:
        save_failure("%s-%s" % (name, rig.size), rig.image())
        raise
    err = reference_diff("%s-%s" % (name, rig.size), rig.image())
    assert err is None, err


def pitch(xs):
    """The step between a layout's card columns (``col_x``) or rows (``row_y``)."""
    return xs[2] - xs[1]


def rgb(c):
    from sultan_host.desktop.headless import rgb565

    return rgb565(c)


def card_face_errors(rig, fb, origin, card, top_only=False):
    """Errors in the rank and small-suit glyphs (and the big suit) of ``card`` drawn at ``origin``."""
    rank = card & 15
    suit = card >> 4
    ink = sprites.RED if suit in (1, 2) else sprites.INK
    bad = glyph_errors(rig, fb, origin, sheets.RANKS[rank - 1], 1 if rank == 10 else 2, 1, ink)
    bad += glyph_errors(rig, fb, origin, sheets.SUITS[suit], sprites.TILE_W + 2, 1, ink)
    if not top_only:
        # The big suit: the same bit string at twice the size, sampled at every other pixel.
        h = len(sheets.SUITS[suit].split())
        x0, y0 = origin
        oy = sprites.TILE_H + (20 - 2 * h) // 2
        for j, row in enumerate(sheets.SUITS[suit].split()):
            for i, ch in enumerate(row):
                got = rig.virtual(fb, x0 + 4 + 2 * i, y0 + oy + 2 * j)
                want = color(ink) if ch == "#" else color(sprites.FACE)
                if got != want:
                    bad.append(("big", i, j))
    return bad


def text_errors(rig, fb, xy, text, ink, paper):
    """Pixels of ``text`` drawn from virtual ``xy`` that differ from the font's bit strings."""
    x0, y0 = xy
    bad = []
    for n, ch in enumerate(text):
        for j, row in enumerate(font.rows(ch)):
            for i, bit in enumerate(row):
                got = rig.virtual(fb, x0 + n * GLYPH_W + i, y0 + j)
                if got != rgb(ink if bit == "#" else paper):
                    bad.append((n, ch, i, j))
    return bad


def ring_pixels(rig, fb, c, rect=None):
    """Virtual bounding box (x1, y1, x2, y2) of the pixels of colour ``c`` (in ``rect``), or None."""
    if rect is not None:
        x, y, w, h = rect
        mask = np.zeros(fb.shape, dtype=bool)
        s = rig.scale
        mask[y * s:(y + h) * s, x * s:(x + w) * s] = True
        ys, xs = np.nonzero((fb == rgb(c)) & mask)
    else:
        ys, xs = np.nonzero(fb == rgb(c))
    if not len(xs):
        return None
    s = rig.scale
    return xs.min() // s, ys.min() // s, xs.max() // s + 1, ys.max() // s + 1


def ring_box(rig, place):
    x, y, w, h = rig.layout.ring_rect(place)
    return x, y, x + w, y + h


def message_rect(rig):
    return (0, rig.layout.vh - TEXT_H, rig.layout.vw, TEXT_H)


def status_rect(rig):
    return (0, 0, rig.layout.vw, TEXT_H)


def ring(rig, place):
    return rig.layout.ring_rect(place)


def count_rect(rig, xy):
    return xy + (2 * GLYPH_W, GLYPH_H)


@pytest.fixture(params=SIZES)
def rig(request):
    return Rig(request.param, deal=7)


def test_fresh_deal(rig):
    fb = rig.fb()
    g = rig.game
    lay = rig.layout
    with shot(rig, "fresh"):
        assert rig.display.width * rig.display.height == fb.size
        for slot in range(6):
            assert card_face_errors(rig, fb, lay.place_xy(slot), g.divan[slot]) == [], slot
        for f in range(8):
            assert card_face_errors(rig, fb, lay.place_xy(F0 + f), g.foundation_card(f)) == [], f
        # The sultan: gold, a red K and the crown.
        sx, sy = lay.place_xy(SULTAN_PLACE)
        assert rig.virtual(fb, sx + 10, sy + 5) == color(sprites.GOLD)
        assert glyph_errors(rig, fb, (sx, sy), sheets.RANKS[12], 2, 1, sprites.RED, sprites.GOLD) == []
        # The stock shows its back and its count; the talon an empty place (outline only).
        x, y, w, h = rig.card_rect(7)
        stock = rig.region(fb, (x, y, w, h))
        assert (stock == color(sprites.BACK)).sum() > stock.size // 4
        count = "%2d" % g.stock_count
        assert text_errors(rig, fb, lay.stock_count_xy, count, TEXT, sprites.COLORS[sprites.BACK]) == []
        tx, ty = lay.place_xy(TALON)
        assert rig.virtual(fb, tx, ty + 15) == color(sprites.SLOT)
        assert rig.virtual(fb, tx + 11, ty + 15) == color(sprites.FELT)
        # The cursor ring is round divan slot 0 and nothing else is yellow.
        assert ring_pixels(rig, fb, CURSOR) == ring_box(rig, 0)
        assert ring_pixels(rig, fb, SELECTED) is None
        assert color(sprites.RED) != color(sprites.INK)
        # The status line, drawn with our glyphs; the key help in the message line.
        felt = sprites.COLORS[sprites.FELT]
        assert text_errors(rig, fb, lay.status_xy, words.status_text(g, lay.text_cols), TEXT, felt) == []
        assert rig.screen.message.text == words.HELP[PLAY] != ""
        assert text_errors(rig, fb, lay.message_xy, words.HELP[PLAY], MESSAGE, felt) == []


def test_cards_that_travel_fly_over_the_cards_and_the_counts_under_the_text(rig):
    """screen.FLYING is the board's layer after the 17 cards and the two counts, as build hangs them:
    a sprite goes there, hidden; the flyer is made once; drawing shows any card byte."""
    s = rig.screen
    board = s.board
    assert board[screen.FLYING - 1] is s.talon_count.grid and board[screen.FLYING] is s.status.grid
    assert [board[p] for p in range(SULTAN_PLACE + 1)] == s.cards
    n = len(board)
    from sultan.ui import motion

    f = motion.flyer(s)
    assert motion.flyer(s) is f and len(board) == n + 1 and board[screen.FLYING] is f and f.hidden
    faces = ((sprites.BACK_CARD, sprites.T_BACK), (sprites.SULTAN_CARD, sprites.T_SULTAN),
             (0, sprites.T_EMPTY))
    for card, first in faces:
        s.draw(f, card)
        assert [f[i] for i in range(sprites.CARD_TILES)] == [first + i for i in range(sprites.CARD_TILES)]
    s.draw(f, rig.game.divan[0])
    assert [f[i] for i in range(sprites.CARD_TILES)] == [s.cards[0][i] for i in range(sprites.CARD_TILES)]
    trail = motion.sprite(s)
    assert trail is not f and board[screen.FLYING] is trail and board[screen.FLYING + 1] is f


def test_the_divan_stands_on_trays(rig):
    """The divan's columns are set apart from the pyramid: a tray under each, none under the pyramid."""
    rig.ctrl.cursor = 7  # the cursor's ring off the divan
    rig.redraw()
    fb = rig.fb()
    lay = rig.layout
    tray = color(sprites.TRAY)
    for side, slots in ((0, (0, 1, 2)), (1, (3, 4, 5))):
        x, y, w, h = build.tray_rect(lay, side)
        for slot in slots:
            cx, cy = lay.place_xy(slot)
            assert rig.virtual(fb, cx - 1, cy + CARD_H // 2) == tray  # the rim beside each card
            assert rig.virtual(fb, cx + CARD_W, cy + CARD_H // 2) == tray
        assert rig.virtual(fb, x, y) == tray and rig.virtual(fb, x + w - 1, y + h - 1) == tray
        assert rig.virtual(fb, x - 1, y) != tray and rig.virtual(fb, x + w, y + h - 1) != tray
    # between the trays and the pyramid: bare felt
    px, py = lay.place_xy(F0)
    assert rig.virtual(fb, px - 2, py + 5) == color(sprites.FELT)
    # a card's rounded corner shows the tray, not the felt
    cx, cy = lay.place_xy(1)
    assert rig.virtual(fb, cx, cy) == tray
    assert (rig.region(fb, (px, py, 3 * pitch(lay.col_x), 3 * pitch(lay.row_y))) == tray).sum() == 0


def test_key_help_stays_whenever_no_message_stands(rig):
    help_ = words.HELP[PLAY]
    assert rig.screen.message.text == help_ and len(help_) <= rig.layout.text_cols
    felt = sprites.COLORS[sprites.FELT]
    for key in ("RIGHT", "LEFT", "START", "START", "START", "START", "DOWN", "UP"):
        rig.press(key)  # moves and a few turns
        assert rig.ctrl.message == "" and rig.screen.message.text == help_, key
    rig.press("B")  # a message stands for a key ...
    assert rig.ctrl.message != "" and rig.screen.message.text == rig.ctrl.message != help_
    rig.press("RIGHT")  # ... then the help is back, drawn
    assert rig.screen.message.text == help_
    assert text_errors(rig, rig.fb(), rig.layout.message_xy, help_, MESSAGE, felt) == []


def test_the_rules_page_scrolls_and_closes_on_b_or_select(rig):
    rig.press(menu_keys(rig.ctrl, M_RULES, up=True))
    assert rig.ctrl.mode == RULES_PAGE
    page = pages.rules_lines(rig.game.rules)
    n = rig.layout.panel_lines
    assert len(page) > n  # more than the panel holds: the keys come after the rules
    assert panel_text(rig.screen) == list(page[:n])
    rig.press("UP")  # at the top already
    assert panel_text(rig.screen) == list(page[:n])
    rig.press("DOWN")
    assert rig.ctrl.mode == RULES_PAGE and panel_text(rig.screen) == list(page[1:n + 1])
    rig.press(" ".join(["DOWN"] * len(page)))  # stops at the page's end
    assert panel_text(rig.screen) == list(page[-n:])
    rig.press("UP")
    assert panel_text(rig.screen) == list(page[-n - 1:-1])
    for key in ("A", "START", "LEFT", "RIGHT"):
        rig.press(key)
        assert rig.ctrl.mode == RULES_PAGE, key
    rig.press("B")
    assert rig.ctrl.mode == PLAY and rig.game.moves == 0 and panel_text(rig.screen) == []
    rig.press(menu_keys(rig.ctrl, M_RULES, up=True))
    assert panel_text(rig.screen) == list(page[:n])  # opened again: from its top
    rig.press("SELECT")
    assert rig.ctrl.mode == PLAY and panel_text(rig.screen) == []


def test_a_pages_help_keeps_the_menus_b_close_in_its_cells(rig):
    rig.press("SELECT")
    menu_help = rig.screen.message.text
    rig.press("UP")  # the menu's last item, Rules
    rig.press("A")
    assert rig.ctrl.mode == RULES_PAGE and rig.screen.message.text == words.HELP[RULES_PAGE]
    # the same "B: close" in the same cells: opening a page rewrites only the cells before it
    cut = menu_help.find("B:")
    assert cut > 0
    for page_help in (words.HELP[RULES_PAGE], words.HELP[STATS_PAGE]):
        assert page_help[cut:] == menu_help[cut:], page_help


def test_cursor_moves_and_only_rings_change(rig):
    rig.press("RIGHT")  # onto F0 (the key help stays on the bottom line: nothing else changes)
    before, after = rig.press("RIGHT")
    with shot(rig, "cursor"):
        assert ring_pixels(rig, after, CURSOR) == ring_box(rig, F0 + 1)
        mask = changed_mask(before, after)
        assert mask.sum() > 0
        assert outside(mask, rig, [ring(rig, F0), ring(rig, F0 + 1)]) == 0
        assert mask.sum() <= 0.10 * mask.size
        # the refresh redrew the two rings' union and nothing else
        x, y, w, h = ring(rig, F0)
        s = rig.scale
        assert rig.display.refreshed_pixels() <= (w + pitch(rig.layout.col_x)) * h * s * s


def test_selection(rig):
    before, after = rig.press("A")
    with shot(rig, "selected"):
        assert rig.ctrl.selected == 0
        x, y = rig.layout.place_xy(0)
        # The selection mark: the card's own edge and a pixel outside, over the cursor ring.
        assert ring_pixels(rig, after, SELECTED) == (x - 1, y - 1, x + CARD_W + 1, y + CARD_H + 1)
        assert ring_pixels(rig, after, CURSOR) == ring_box(rig, 0)
        # the mark says it all: no message, no card drawn in the message line, the key help stays
        assert rig.ctrl.message == "" and rig.screen.message.text == words.HELP[rig.ctrl.mode]
        assert all(chip.hidden for chip in rig.screen.chips)
        mask = changed_mask(before, after)
        assert outside(mask, rig, [ring(rig, 0)]) == 0


def test_selection_leaves_every_face_legible(rig):
    """Every face (52 of the 104 cards), selected and not: the selection touches no pixel of the
    rank and suit glyphs -- nothing inside the card's one-pixel edge changes, and the edge holds
    no ink -- and it still shows, a pixel outside the card and on its edge."""
    rig.press("A RIGHT")  # card 0 selected, the cursor on the next place
    assert rig.ctrl.selected == 0 and rig.ctrl.cursor != 0
    sc, lay = rig.screen, rig.layout
    selection = sc.rings[2]
    x, y = lay.place_xy(0)
    card_rect = (x, y, CARD_W, CARD_H)
    inside = (x + 1, y + 1, CARD_W - 2, CARD_H - 2)
    faces = 0
    for suit in range(4):
        for rank in range(1, 14):
            card = suit << 4 | rank
            sc.show_card(0, card)
            selection.show(lay, -1)
            rig.display.refresh()
            off = rig.fb()
            selection.show(lay, 0)
            rig.display.refresh()
            on = rig.fb()
            assert card_face_errors(rig, on, (x, y), card) == [], card
            assert (rig.region(on, inside) == rig.region(off, inside)).all(), card
            # the glyphs' pixels: neither the face nor what shows round the card's corners
            was, now = rig.region(off, card_rect), rig.region(on, card_rect)
            ink = (was != color(sprites.FACE)) & (was != rig.virtual(off, x - 1, y + CARD_H // 2))
            assert ink.sum() > 0 and (now[ink] == was[ink]).all(), card
            assert ring_pixels(rig, on, SELECTED) == (x - 1, y - 1, x + CARD_W + 1, y + CARD_H + 1)
            assert ring_pixels(rig, off, SELECTED) is None
            faces += 1
    assert faces == 52


def test_refused_move(rig):
    g = rig.game
    slot = next(i for i in range(6) if g.divan[i] and not g.where[g.divan[i]])
    card = g.divan[slot]
    f = next(f for f in range(8) if g.need[f])
    rig.press(route(0, slot) + [keys.A] + route(slot, F0 + f))
    before, after = rig.press("A")
    with shot(rig, "refused"):
        assert rig.ctrl.message == words.refusals()[engine.R_NO_FIT]
        mx, my = rig.layout.message_xy
        assert card_face_errors(rig, after, (mx + 1, my), card, top_only=True) == []
        col2 = rig.ctrl.message.find("%c", 1) + 2  # the first card takes 4 columns, "%c" 2
        other = g.foundation_card(f)
        assert card_face_errors(rig, after, (mx + 1 + GLYPH_W * col2, my), other, top_only=True) == []
        # Only the message line changed: the cards stayed as they were.
        mask = changed_mask(before, after)
        assert mask.sum() > 0
        assert outside(mask, rig, [message_rect(rig)]) == 0


def _until_a_play(rig):
    """Turn stock cards until the canonical hint is a play; returns the hint."""
    for _ in range(30):
        h = rig.game.hint()
        if engine.hint_kind(h) == engine.A_PLAY:
            return h
        rig.press("START")
    raise AssertionError("no play in sight")


def test_play_changes_little(rig):
    g = rig.game
    h = _until_a_play(rig)
    p = engine.hint_place(h)
    f = engine.hint_foundation(h)
    rig.press(route(rig.ctrl.cursor, p))
    before, after = rig.press("A A")
    with shot(rig, "played"):
        assert g.placed == 1
        assert card_face_errors(rig, after, rig.layout.place_xy(F0 + f), g.foundation_card(f)) == []
        if g.card_at(p):
            assert card_face_errors(rig, after, rig.layout.place_xy(p), g.card_at(p)) == []
        mask = changed_mask(before, after)
        allowed = [ring(rig, p), ring(rig, F0 + f), ring(rig, 7), status_rect(rig), message_rect(rig),
                   count_rect(rig, rig.layout.talon_count_xy)]
        assert outside(mask, rig, allowed) == 0
        assert mask.sum() <= 0.10 * mask.size


def test_the_talon_shows_its_count(rig):
    g = rig.game
    lay = rig.layout
    assert rig.screen.talon_count.grid.hidden  # empty talon: no count
    rig.press("START START START")
    assert g.talon_count == 3
    felt = sprites.COLORS[sprites.FELT]
    assert text_errors(rig, rig.fb(), lay.talon_count_xy, " 3", TEXT, felt) == []
    # it sits in the corner under the talon, clear of every card
    x, y = lay.talon_count_xy
    tx, ty = lay.place_xy(TALON)
    assert y >= ty + CARD_H and tx <= x and x + 2 * GLYPH_W <= tx + CARD_W
    assert "%2d" % g.stock_count == rig.screen.stock_count.text


def test_hint_rings(rig):
    h = _until_a_play(rig)
    rig.press(menu_keys(rig.ctrl, M_HINT, up=True))
    with shot(rig, "hint"):
        assert rig.ctrl.hint == h
        box = ring_pixels(rig, rig.fb(), HINT)
        a = ring_box(rig, engine.hint_place(h))
        b = ring_box(rig, F0 + engine.hint_foundation(h))
        assert box == (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _panel_share(rig, fb):
    """(share of the panel's pixels in its paper colour, white pixels in it)."""
    panel = rig.frame.region(fb, panel_rect(rig))
    return (panel == color(sprites.PANEL)).mean(), (panel == rgb(TEXT)).sum()


def _finish(rig, deal, want):
    for k in script_for(deal, 1):
        rig.ctrl.press(k)
    rig.redraw()
    assert rig.game.status() == want
    assert rig.ctrl.mode == OVER


def test_won_screen(rig):
    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.WON)
    rig.ctrl.new_deal(deal)
    _finish(rig, deal, engine.WON)
    fb = rig.fb()
    with shot(rig, "won"):
        share, text = _panel_share(rig, fb)
        assert share > 0.6 and text > 100
        assert panel_text(rig.screen) == list(pages.over_lines(rig.game))
        assert rig.screen.panel.marker.grid.hidden


def test_lost_screen(rig):
    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.LOST)
    rig.ctrl.new_deal(deal)
    _finish(rig, deal, engine.LOST)
    fb = rig.fb()
    with shot(rig, "lost"):
        share, text = _panel_share(rig, fb)
        assert share > 0.6 and text > 100
        assert panel_text(rig.screen) == list(pages.over_lines(rig.game))
        # the panel is as wide as its widest line (and a column each side), against the right edge
        x, y, w, h = panel_rect(rig)
        widest = max(len(line) for line in pages.over_lines(rig.game))
        lay = rig.layout  # (at 2x every panel is its lines' full width at x 0: see build._panel)
        assert w == (lay.panel_cols * GLYPH_W if lay.scale > 1 else min(rig.frame.w, (widest + 2) * GLYPH_W))
        assert h == len(pages.over_lines(rig.game)) * GLYPH_H
        for line, want in zip(rig.screen.panel.lines, pages.over_lines(rig.game), strict=False):
            assert text_errors(rig.frame, fb, (x + GLYPH_W, line.grid.y), want, TEXT,
                               sprites.COLORS[sprites.PANEL]) == []
    # B undoes the last move: back to the table, the panel gone.
    rig.press("B")
    with shot(rig, "lost-undone"):
        assert panel_rect(rig) is None
        assert ring_pixels(rig, rig.fb(), CURSOR) is not None
        assert rig.ctrl.message == "undone"


def test_layouts_fill_the_screen():
    for size in SIZES:
        rig = Rig(size, deal=7)
        lay = rig.layout
        # Bigger cards on the bigger screen, and the board spans the width.
        assert lay.scale == (2 if size == "320x240" else 1)
        x, y, w, h = screen_rect(lay, 7)
        assert x + w > rig.display.width * 0.9
        assert screen_rect(lay, 0)[0] < rig.display.width * 0.05
        # No two places overlap, and each sits inside the screen.
        rects = [screen_rect(lay, p) for p in list(range(8)) + list(range(F0, SULTAN_PLACE + 1))]
        for i, a in enumerate(rects):
            assert 0 <= a[0] and a[0] + a[2] <= rig.display.width
            assert TEXT_H * lay.scale <= a[1] and a[1] + a[3] <= rig.display.height - TEXT_H * lay.scale
            for b in rects[i + 1:]:
                apart_x = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
                assert apart_x or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
        # 26 text columns at 160 pixels; the panel's lines and the menu's window fit the card area
        assert lay.text_cols == 26
        assert lay.panel_lines * GLYPH_H <= lay.panel_frame[3] - 2 * TEXT_H
        assert 5 <= lay.menu_lines <= lay.panel_lines


def test_empty_stock_shows_redeals_left(rig):
    g = rig.game
    g.autoplay(stop_at_pass_end=True)  # pass 1 played out: the stock is empty
    assert g.stock_count == 0 and g.pass_no == 1
    rig.ctrl.cursor = 7
    rig.redraw()
    felt = sprites.COLORS[sprites.FELT]
    with shot(rig, "stock-empty"):
        # "↻2" on the stock (a mark both languages share), and the bottom line says it in words
        assert rig.screen.stock_count.text == "\u21bb2"
        back = sprites.COLORS[sprites.BACK]
        assert text_errors(rig, rig.fb(), rig.layout.stock_count_xy, "\u21bb2", TEXT, back) == []
        help_ = words.redeals_left(2)
        assert "2" in help_ and help_.startswith("START") and len(help_) <= rig.layout.text_cols
        assert rig.screen.message.text == help_
        assert text_errors(rig, rig.fb(), rig.layout.message_xy, help_, MESSAGE, felt) == []
        x, y, w, h = rig.card_rect(7)
        stock = rig.region(rig.fb(), (x, y, w, h))
        # The empty place's outline, with the small blue box of the mark in it.
        assert rig.virtual(rig.fb(), x, y + 3) == color(sprites.SLOT)
        assert 0 < (stock == color(sprites.BACK)).sum() < stock.size // 4
    rig.press("SELECT")  # the menu's own help, not the stock's
    assert rig.screen.message.text == words.HELP[rig.ctrl.mode] != help_
    rig.press("B")
    assert rig.screen.message.text == help_
    rig.press("A")  # redeal
    assert g.pass_no == 2 and g.stock_count > 0
    assert rig.screen.stock_count.text == "%2d" % g.stock_count
    assert rig.screen.message.text == words.HELP[PLAY]


def test_the_last_redeal_and_none_left(rig):
    g = rig.game
    for left in (2, 1):
        g.autoplay(stop_at_pass_end=True)
        assert not g.stock_count and g.placed < 95  # deal 7 plays on to its last pass
        rig.redraw()
        assert rig.screen.stock_count.text == "\u21bb%d" % left
        assert rig.screen.message.text == words.redeals_left(left)
        rig.press("START")
    g.autoplay(stop_at_pass_end=True)
    rig.redraw()
    assert rig.screen.stock_count.text == ""  # no redeal left: no mark, and the plain key help
    assert rig.screen.message.text in (words.HELP[rig.ctrl.mode], rig.ctrl.message)


def test_menu_marker_moves_alone(rig):
    rig.press("SELECT")
    before, after = rig.press("DOWN DOWN DOWN")
    with shot(rig, "menu"):
        x, y, w, h = panel_rect(rig)
        frame = rig.frame
        box = ring_pixels(frame, frame.crop(after), CURSOR, (x, y, w, h))  # the ">": the cursor's yellow
        top = y + GLYPH_H * 3
        assert box is not None and top <= box[1] and box[3] <= top + GLYPH_H
        assert x <= box[0] and box[2] <= x + GLYPH_W
        mask = changed_mask(before, after)
        assert mask.sum() > 0 and frame.crop(mask).sum() == mask.sum()  # all of it in the frame
        assert outside(frame.crop(mask), frame, [(x, y, GLYPH_W, h)]) == 0
        assert rig.ctrl.menu.label(rig.ctrl, rig.ctrl.menu.index) in panel_text(rig.screen)[3]


def test_opening_and_closing_the_menu_redraws_only_the_panel(rig):
    """A panel redraws no more than it covers (plus the message line's key help)."""
    lay = rig.layout
    s = rig.scale
    rig.press("RIGHT")
    rect = None
    for key in ("SELECT", "B"):
        rig.press(key)
        rect = panel_rect(rig) or rect
        x, y, w, h = rect
        allowed = (w * h + lay.vw * TEXT_H) * s * s  # the panel, at the table's scale, and the message line
        assert rig.display.sent_pixels() <= allowed, (key, rig.display.last_areas)
        # at 320x240 that is under 40,000 pixels: ~250 ms on the Pico (goal: 300)
        assert rig.display.sent_pixels() <= 40000


def test_nothing_is_built_after_start(monkeypatch):
    """Every displayio object exists from the start: a whole game, menus and panels create none."""
    import displayio

    rig = Rig("160x128", deal=42)
    made = []

    class CountingBitmap(displayio.Bitmap):
        def __init__(self, *a, **k):
            made.append("Bitmap")
            super().__init__(*a, **k)

    class CountingTileGrid(displayio.TileGrid):
        def __init__(self, *a, **k):
            made.append("TileGrid")
            super().__init__(*a, **k)

    monkeypatch.setattr(displayio, "Bitmap", CountingBitmap)
    monkeypatch.setattr(displayio, "TileGrid", CountingTileGrid)
    monkeypatch.setattr(displayio, "Palette", None)  # any new Palette or Group would fail loudly
    monkeypatch.setattr(displayio, "Group", None)
    # The deal editor (cancelled), the rules page, a hint; the menu remembers its last line.
    rig.press(menu_keys(rig.ctrl, M_CHOOSE) + [keys.UP, keys.RIGHT, keys.B])
    rig.press(menu_keys(rig.ctrl, M_RULES, up=True) + [keys.B])
    rig.press(menu_keys(rig.ctrl, M_HINT))
    assert rig.ctrl.hint and rig.game.deal == 42 and rig.game.moves == 0
    for k in script_for(42, 2):
        rig.press([k])
    assert rig.ctrl.mode == OVER
    rig.press("SELECT B B START A")  # menu over the panel, undo, replay, new deal
    assert made == []


@pytest.mark.parametrize("size", SIZES)
def test_random_presses_keep_the_cursor_on_screen(size):
    """Random buttons: in play the yellow ring is always exactly round the cursor's place."""
    import random

    rig = Rig(size, deal=11)
    r = random.Random(size)
    seen = set()
    n = 400 if size == "160x128" else 100  # the big screen renders four times the pixels
    for _ in range(n):
        k = r.choice((keys.RIGHT, keys.LEFT, keys.UP, keys.DOWN, keys.RIGHT, keys.DOWN, keys.A, keys.A,
                      keys.B, keys.START, keys.SELECT))
        _, after = rig.press([k])
        if rig.ctrl.mode == OVER:
            rig.press("B")
            continue
        if rig.ctrl.mode != 0:  # a menu or page is up: close it
            rig.press("B")
            after = rig.fb()
        assert rig.ctrl.mode == 0
        assert panel_rect(rig) is None
        box = ring_pixels(rig, after, CURSOR)
        try:
            assert box == ring_box(rig, rig.ctrl.cursor)
        except AssertionError:
            save_failure("random-%s" % size, rig.image())
            raise
        seen.add(rig.ctrl.cursor)
    if n == 400:
        assert len(seen) == 16  # every place was visited


@pytest.mark.parametrize("size", SIZES)
def test_the_menu_scrolls_and_its_cursor_never_dead_ends(size):
    """The menu is taller than its window: the window follows the marker, wrapping both ways."""
    from sultan.ui.controller import Controller

    for sound in (False, True):
        rig = Rig(size, deal=7)
        rig.ctrl = Controller(rig.game, sound=sound)  # the badge's menu has the sound switches
        rows = rig.layout.menu_lines
        rig.press("SELECT")
        n = len(rig.ctrl.menu.items)
        assert n > rows  # it must scroll at both sizes
        for step in range(2 * n + 1):
            i = rig.ctrl.menu.index
            text = panel_text(rig.screen)
            top = rig.ctrl.menu.top
            assert len(text) == rows and top <= i < top + rows
            # the marker's line shows the item the cursor is on, and the ">" is drawn beside it
            assert text[i - top].strip().rstrip("^v").strip() == rig.ctrl.menu.label(rig.ctrl, i)
            x, y, w, h = panel_rect(rig)
            box = ring_pixels(rig.frame, rig.frame.crop(rig.fb()), CURSOR, (x, y, w, h))
            y = y + GLYPH_H * (i - top)
            assert box is not None and y <= box[1] and box[3] <= y + GLYPH_H
            assert text[0].endswith("^") == (top > 0)
            assert text[rows - 1].endswith("v") == (top + rows < n)
            assert len({len(line) for line in text}) == 1  # one width for every line
            rig.press("DOWN" if step < n else "UP")
        assert rig.ctrl.menu.index == n - 1  # n downs wrapped to the top, then up wrapped round


def test_winnable_deal_has_a_star_and_classic_says_so(rig):
    from sultan.rules import winnable

    deal = winnable.random_deal(5, 0)
    rig.ctrl.new_deal(deal)
    rig.redraw()
    fb = rig.fb()
    assert rig.ctrl.winnable and rig.screen.status.text.startswith("  #%d " % deal)
    # the star: gold on the felt in the status line's first two columns, nowhere else on that line
    star = rig.region(fb, (0, 0, 12, TEXT_H))
    assert (star == color(sprites.GOLD)).sum() == sheets.STAR.count("#") * rig.scale ** 2  # all of the star
    assert (rig.region(fb, (12, 0, rig.layout.vw - 12, TEXT_H)) == color(sprites.GOLD)).sum() == 0
    rig.ctrl.new_deal(9999, engine.RULES_CLASSIC)
    rig.redraw()
    assert not rig.ctrl.winnable
    assert (rig.region(rig.fb(), (0, 0, 12, TEXT_H)) == color(sprites.GOLD)).sum() == 0
    assert rig.screen.status.text == words.status_text(rig.game, 26)


@pytest.mark.parametrize("lang", (words.EN, words.RU))
def test_pages_fit_the_panel_and_every_character_has_a_glyph(lang):
    """In both languages: each page and menu fits the panel, and no character shows as "?"."""
    from sultan.saves.stats import Stats

    words.use(lang)
    try:
        for size in SIZES:
            rig = Rig(size, deal=7)
            st = Stats()
            st.row(0, True)[1:7] = [0xFFFFFF, 0xFFFFFF, 0, 95, 0xFFFFFF, 0xFFFFFF]  # the largest figures
            rig.ctrl.stats = st
            shown = [pages.stats_lines(st, 0),
                     pages.stats_lines(None, 0), pages.over_lines(rig.game),
                     pages.deal_lines("123456789", 8)]
            for lines in shown:
                assert len(lines) <= rig.layout.panel_lines
            for lines in shown + [pages.rules_lines(0), pages.rules_lines(1)]:  # the Rules pages scroll
                assert max(len(ln) for ln in lines) <= rig.layout.text_cols - 1
            rig.ctrl.mode = STATS_PAGE
            rig.redraw()
            assert panel_text(rig.screen) == list(pages.stats_lines(st, 0))
    finally:
        words.use(words.EN)


def test_every_word_has_a_glyph():
    """Every character of both languages' word files is in the glyph sheet."""
    here = os.path.dirname(words.__file__)
    for name in words.FILES:
        with open(os.path.join(here, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.startswith("#"):
                    continue
                text = line.rstrip("\r\n")
                missing = {ch for ch in text if textgrid.tile(ch) == textgrid.UNKNOWN and ch != "?"}
                assert not missing, (name, n, missing)


def test_the_sheets_on_disk_are_what_the_host_draws():
    """lib/sultan/ui/*.dat are current (remake them: python -m sultan_host.desktop.sheets)."""
    for name, data in sheets.files().items():
        with open(os.path.join(sheets.HERE, name), "rb") as f:
            assert f.read() == data, name
    assert sheets.main(["--check"]) == 0


def test_a_text_change_redraws_only_the_cells_that_change(rig):
    """Glyph tiles: one character changed is one cell redrawn, not the line."""
    rig.press("RIGHT")
    rig.ctrl.say("deal 12345")
    rig.redraw()
    rig.ctrl.say("deal 12346")
    rig.redraw()
    s = rig.scale
    assert len(rig.display.last_areas) == 1
    x1, y1, x2, y2 = rig.display.last_areas[0]
    assert (x2 - x1, y2 - y1) == (GLYPH_W * s, GLYPH_H * s)
    assert x1 == (rig.layout.message_xy[0] + 9 * GLYPH_W) * s


def test_glyphs_cover_the_character_set():
    assert len(sheets.CHARS) <= 255  # one byte a tile on CircuitPython and Blinka
    for ch in sheets.CHARS:
        assert textgrid.tile(ch) == sheets.CHARS.index(ch)
        assert len(font.rows(ch)) == GLYPH_H
    assert textgrid.tile("\u2603") == textgrid.UNKNOWN


def test_text_line_cells_follow_every_write():
    """``TextLine.write`` decodes UTF-8 itself and skips cells it knows are blank: after any
    sequence of writes each cell holds its character's glyph (``tile``), the rest are blank."""
    import random

    import displayio

    glyphs = displayio.Bitmap(GLYPH_W * (len(sheets.CHARS) + 1), GLYPH_H, 2)
    line = textgrid.TextLine(glyphs, build.palette(0xFFFFFF, 0), 12)
    pool = ["", "A", "Deal 123456 pass 2", "Сдача 5 — «Пирамида»…", "Ёё ok", "snow \u2603 \U0001F0A1 x",
            "~\x7f\t", "цепочка длиннее строки", "ab"]
    rng = random.Random(5)
    for _ in range(300):
        text = rng.choice(pool)[: rng.randrange(25)]
        line.write(text)
        want = [textgrid.tile(ch) for ch in text[:12]]
        want += [textgrid.tile(" ")] * (12 - len(want))
        assert [line.grid[i] for i in range(12)] == want, text
