"""Screenshot tests on a headless framebuffer display, at 160x128 and 320x240.

Each scenario asserts real properties of the pixels (glyphs drawn from the
sprite bit strings, where the cursor is, which region changed) and then
compares with a small reference PNG in host_tests/reference/.  Regenerate them
with ``SULTAN_REGEN=1 .venv/bin/python -m pytest host_tests/test_screen.py``.
On any failure the actual PNG is written to host_tests/_failures/.
"""

import contextlib

import numpy as np
import pytest
from screen_rig import (
    Rig,
    changed_mask,
    color,
    glyph_errors,
    outside,
    reference_diff,
    save_failure,
    screen_rect,
)
from sultan.rules import engine
from sultan.ui import keys, sprites
from sultan.ui.controller import OVER
from sultan.ui.menu import M_CHOOSE, M_HINT, M_RULES
from sultan.ui.layout import CARD_H, CARD_W, F0, SULTAN_PLACE, TALON, TEXT_H
from sultan.ui.screen import CURSOR, HINT, SELECTED
from sultan_host.scripted import route
from sultan_host.snapshot import snapshot
from test_controller import menu_keys, script_for

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


def rgb(c):
    from sultan_host.desktop.headless import rgb565

    return rgb565(c)


def card_face_errors(rig, fb, origin, card, top_only=False):
    """Errors in the rank and small-suit glyphs (and the big suit) of ``card`` drawn at ``origin``."""
    rank = card & 15
    suit = card >> 4
    ink = sprites.RED if suit in (1, 2) else sprites.INK
    bad = glyph_errors(rig, fb, origin, sprites.RANKS[rank - 1], 1 if rank == 10 else 2, 1, ink)
    bad += glyph_errors(rig, fb, origin, sprites.SUITS[suit], sprites.TILE_W + 2, 1, ink)
    if not top_only:
        # The big suit: the same bit string at twice the size, sampled at every other pixel.
        h = len(sprites.SUITS[suit].split())
        x0, y0 = origin
        oy = sprites.TILE_H + (20 - 2 * h) // 2
        for j, row in enumerate(sprites.SUITS[suit].split()):
            for i, ch in enumerate(row):
                got = rig.virtual(fb, x0 + 4 + 2 * i, y0 + oy + 2 * j)
                want = color(ink) if ch == "#" else color(sprites.FACE)
                if got != want:
                    bad.append(("big", i, j))
    return bad


def ring_pixels(rig, fb, c):
    """Virtual bounding box (x1, y1, x2, y2) of the pixels of colour ``c``, or None."""
    ys, xs = np.nonzero(fb == rgb(c))
    if not len(xs):
        return None
    s = rig.scale
    return xs.min() // s, ys.min() // s, xs.max() // s + 1, ys.max() // s + 1


def ring_box(rig, place):
    x, y, w, h = rig.layout.ring_rect(place)
    return x, y, x + w, y + h


def message_rect(rig):
    return (0, rig.layout.message_xy[1], rig.layout.vw, TEXT_H)


def status_rect(rig):
    return (0, 0, rig.layout.vw, TEXT_H)


def ring(rig, place):
    return rig.layout.ring_rect(place)


@pytest.fixture(params=SIZES)
def rig(request):
    return Rig(request.param, deal=7)


def test_fresh_deal(rig):
    fb = rig.fb()
    g = rig.game
    with shot(rig, "fresh"):
        assert rig.display.width * rig.display.height == fb.size
        for slot in range(6):
            assert card_face_errors(rig, fb, rig.layout.place_xy(slot), g.divan[slot]) == [], slot
        for f in range(8):
            origin = rig.layout.place_xy(F0 + f)
            assert card_face_errors(rig, fb, origin, g.foundation_card(f)) == [], f
        # The sultan: gold, a red K and the crown.
        sx, sy = rig.layout.place_xy(SULTAN_PLACE)
        assert rig.virtual(fb, sx + 10, sy + 5) == color(sprites.GOLD)
        assert glyph_errors(rig, fb, (sx, sy), sprites.RANKS[12], 2, 1, sprites.RED,
                            sprites.GOLD) == []
        # The stock shows its back, the talon an empty place.
        x, y, w, h = rig.card_rect(7)
        stock = rig.region(fb, (x, y, w, h))
        assert (stock == color(sprites.BACK)).sum() > stock.size // 4
        tx, ty = rig.layout.place_xy(TALON)
        assert rig.virtual(fb, tx, ty + 15) == color(sprites.SLOT)
        assert rig.virtual(fb, tx + 11, ty + 15) == color(sprites.FELT)
        # The cursor ring is round divan slot 0 and nothing else is yellow.
        assert ring_pixels(rig, fb, CURSOR) == ring_box(rig, 0)
        assert ring_pixels(rig, fb, SELECTED) is None
        # Red and black really differ.
        assert color(sprites.RED) != color(sprites.INK)
        # Status line: text in the top row, nothing but felt and text there.
        top = rig.region(fb, status_rect(rig))
        assert (top == rgb(0xFFFFFF)).sum() > 50


def test_cursor_moves_and_only_rings_change(rig):
    before, after = rig.press("RIGHT")
    with shot(rig, "cursor"):
        assert ring_pixels(rig, after, CURSOR) == ring_box(rig, F0)
        mask = changed_mask(before, after)
        assert mask.sum() > 0
        assert outside(mask, rig, [ring(rig, 0), ring(rig, F0)]) == 0
        assert mask.sum() <= 0.10 * mask.size


def test_selection(rig):
    g = rig.game
    card = g.divan[0]
    before, after = rig.press("A")
    with shot(rig, "selected"):
        assert rig.ctrl.selected == 0
        x, y = rig.layout.place_xy(0)
        # The selection mark sits on the card's own edge, the cursor ring outside it.
        assert ring_pixels(rig, after, SELECTED) == (x, y, x + CARD_W, y + CARD_H)
        assert ring_pixels(rig, after, CURSOR) == ring_box(rig, 0)
        # "<card> selected": the card is drawn in the message line with the sprites.
        mx, my = rig.layout.message_xy
        assert card_face_errors(rig, after, (mx + 1, my + 1), card, top_only=True) == []
        mask = changed_mask(before, after)
        assert outside(mask, rig, [ring(rig, 0), message_rect(rig)]) == 0


def test_refused_move(rig):
    g = rig.game
    slot = next(i for i in range(6) if g.divan[i] and not g.where[g.divan[i]])
    card = g.divan[slot]
    f = next(f for f in range(8) if g.need[f])
    snap = snapshot(g)
    rig.press(route(0, slot) + [keys.A] + route(slot, F0 + f))
    before, after = rig.press("A")
    with shot(rig, "refused"):
        assert snapshot(g) == snap
        assert rig.ctrl.message == "%c does not fit on %c"
        mx, my = rig.layout.message_xy
        assert card_face_errors(rig, after, (mx + 1, my + 1), card, top_only=True) == []
        col2 = 4 + len(" does not fit on ")
        other = g.foundation_card(f)
        assert card_face_errors(rig, after, (mx + 1 + 6 * col2, my + 1), other, top_only=True) == []
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
        allowed = [ring(rig, p), ring(rig, F0 + f), ring(rig, 7), status_rect(rig), message_rect(rig)]
        assert outside(mask, rig, allowed) == 0
        assert mask.sum() <= 0.10 * mask.size


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
    lay = rig.layout
    panel = rig.region(fb, (0, lay.panel_y, lay.vw, lay.panel_tiles[1] * 10))
    return (panel == color(sprites.PANEL)).mean(), (panel == rgb(0xFFFFFF)).sum()


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
        assert "YOU WON" in rig.screen.overlay_text.text
        assert "placed   95 of 95" in rig.screen.overlay_text.text
        assert ring_pixels(rig, fb, CURSOR) is None


def test_lost_screen(rig):
    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.LOST)
    rig.ctrl.new_deal(deal)
    _finish(rig, deal, engine.LOST)
    fb = rig.fb()
    with shot(rig, "lost"):
        share, text = _panel_share(rig, fb)
        assert share > 0.6 and text > 100
        assert "NO MOVES LEFT" in rig.screen.overlay_text.text
        assert "placed   %d of 95" % rig.game.placed in rig.screen.overlay_text.text
    # B undoes the last move: back to the table, the panel gone.
    rig.press("B")
    with shot(rig, "lost-undone"):
        share, _ = _panel_share(rig, rig.fb())
        assert share < 0.1
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


def test_empty_stock_shows_redeals_left(rig):
    g = rig.game
    g.autoplay(stop_at_pass_end=True)  # pass 1 played out: the stock is empty
    assert g.stock_count == 0 and g.pass_no == 1
    rig.ctrl.cursor = 7
    rig.redraw()
    with shot(rig, "stock-empty"):
        assert rig.screen.stock_label.text == "R2"
        x, y, w, h = rig.card_rect(7)
        stock = rig.region(rig.fb(), (x, y, w, h))
        # The empty place's outline, with the small blue "R2" box in it.
        assert rig.virtual(rig.fb(), x, y + 3) == color(sprites.SLOT)
        assert 0 < (stock == color(sprites.BACK)).sum() < stock.size // 4
    rig.press("A")  # redeal
    assert g.pass_no == 2 and g.stock_count > 0
    assert rig.screen.stock_label.text == "%2d" % g.stock_count


def test_menu_marker_moves_alone(rig):
    rig.press("SELECT")
    before, after = rig.press("DOWN DOWN DOWN")
    with shot(rig, "menu"):
        lay = rig.layout
        box = ring_pixels(rig, after, CURSOR)  # the ">" is drawn in the cursor's yellow
        assert box is not None
        top = lay.panel_y + 3 + 10 * 3
        assert top <= box[1] and box[3] <= top + 12 and box[0] >= 4 and box[2] <= 10
        mask = changed_mask(before, after)
        assert mask.sum() > 0
        assert outside(mask, rig, [(4, lay.panel_y, 6, lay.panel_lines * 10 + 6)]) == 0
        assert "Autoplay: off" in rig.screen.overlay_text.text


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
    monkeypatch.setattr(displayio, "Group", None)  # any new Group would fail loudly
    # The deal editor (cancelled), the rules page, a hint; the menu remembers its last line.
    rig.press(menu_keys(rig.ctrl, M_CHOOSE) + [keys.UP, keys.RIGHT, keys.B])
    rig.press(menu_keys(rig.ctrl, M_RULES, up=True) + [keys.A])
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
    """The menu is taller than the panel: the window follows the marker, wrapping both ways."""
    from sultan.ui.controller import Controller

    for sound in (False, True):
        rig = Rig(size, deal=7)
        rig.ctrl = Controller(rig.game, sound=sound)  # the badge's menu has the sound switches
        rows = rig.layout.panel_lines
        n = len(rig.ctrl.items)
        assert n > rows  # it must scroll at both sizes
        rig.press("SELECT")
        lay = rig.layout
        for step in range(2 * n + 1):
            i = rig.ctrl.menu_index
            text = rig.screen.overlay_text.text.split("\n")
            top = rig.screen.menu_top
            assert top <= i < top + rows
            # the marker's line shows the item the cursor is on, and the ">" is drawn beside it
            assert text[i - top].strip().rstrip("^v").strip() == rig.ctrl.menu_label(i)
            box = ring_pixels(rig, rig.fb(), CURSOR)
            y = lay.panel_y + 3 + 10 * (i - top)
            assert box is not None and y <= box[1] and box[3] <= y + 12
            # the ">" is a label laid out like the text (font, line spacing, place): on a port whose
            # font has another line pitch (CircuitPython's terminalio) it still sits on its line
            marker = rig.screen.marker
            assert marker.text.split("\n") == [">" if k == i - top else " " for k in range(rows)]
            assert marker.line_spacing == rig.screen.overlay_text.line_spacing
            assert marker.anchored_position == rig.screen.overlay_text.anchored_position
            assert text[0].endswith("^") == (top > 0)
            assert text[rows - 1].endswith("v") == (top + rows < n)
            rig.press("DOWN" if step < n else "UP")
        assert rig.ctrl.menu_index == n - 1  # n downs wrapped to the top, then up wrapped round


def test_winnable_deal_has_a_star_and_classic_says_so(rig):
    from sultan.rules import winnable
    from sultan.ui.words import status_text

    deal = winnable.random_deal(5, 0)
    rig.ctrl.new_deal(deal)
    rig.redraw()
    fb = rig.fb()
    assert rig.ctrl.winnable and rig.screen.status.text.startswith("  #%d " % deal)
    # the star: gold on the felt in the status line's first two columns, nowhere else on that line
    star = rig.region(fb, (0, 0, 12, TEXT_H))
    assert (star == color(sprites.GOLD)).sum() == sprites.STAR.count("#") * rig.scale ** 2  # all of the star
    assert (rig.region(fb, (12, 0, rig.layout.vw - 12, TEXT_H)) == color(sprites.GOLD)).sum() == 0
    rig.ctrl.new_deal(9999, engine.RULES_CLASSIC)
    rig.redraw()
    assert not rig.ctrl.winnable
    assert (rig.region(rig.fb(), (0, 0, 12, TEXT_H)) == color(sprites.GOLD)).sum() == 0
    assert rig.screen.status.text == "#9999 classic p1/3 0/95 m0"
    # the status line fits its 26 columns whatever the figures
    g = engine.Game(deal=999999999, rules=engine.RULES_CLASSIC)
    for rules in (0, 1):
        g.new_deal(999999999, rules=rules)
        g.missed = 999
        for w in (False, True):
            s = status_text(g, 26, w)
            assert len(s) <= 26 and "#999999999" in s and "m999" in s and s.startswith("  #") == w


def test_rules_and_statistics_pages_fit_the_panel(rig):
    from sultan.saves.stats import Stats
    from sultan.ui.words import RULES_TEXT, stats_lines

    for lines in RULES_TEXT:
        assert len(lines) <= rig.layout.panel_lines
        assert max(len(ln) for ln in lines) <= rig.screen.overlay_cols
    st = Stats()
    for i in range(12345):
        st.record(0, i % 7 == 0, i % 96)
    rig.ctrl.stats = st
    rig.ctrl.mode = 5  # STATS
    rig.redraw()
    text = rig.screen.overlay_text.text
    assert "STATISTICS: seed rules" in text and "played   12345" in text and "won      1764 (14%)" in text
    assert "best     95 of 95 placed" in text and "best streak 1" in text
    st.rows[0][1:7] = [0xFFFFFF, 0xFFFFFF, 0, 95, 0xFFFFFF, 0xFFFFFF]  # the largest figures a record holds
    for rules in (0, 1):
        lines = stats_lines(st, rules)
        assert len(lines) <= rig.layout.panel_lines
        assert max(len(ln) for ln in lines) <= rig.screen.overlay_cols
    assert stats_lines(st, 0)[3] == "won      16777215 (100%)"
    assert stats_lines(None, 0)[2] == "not kept: no save store"
