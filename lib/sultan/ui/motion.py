# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Cards that travel: a played card slides from its place to where it goes, and a new deal is
dealt from the stock.

``sultan.app.run`` imports this module at the first key that moves a card with the menu's
"Motion" on -- never before READY: the board's heap at READY has no room for it -- and calls
``play`` after the controller has done the key.  ``play`` takes the game back to where it was
before the key (``Game.undo``) and forward again one logged action at a time (``Game.redo``),
drawing each: so a player's move, an undo or redo, and every step of autoplay are seen in turn,
and the game ends exactly as the controller left it (the same log bytes).  The hint's move is
shown by its card sliding to its target and vanishing there.  The screen's own ``update`` then
draws the key's last frame (the message, the panel) as it does with motion off.

Each frame moves one TileGrid, the flyer (made at the first slide, then kept, over the cards and
under the text), and changes the tiles of the place it leaves or lands on: displayio repaints the
flyer's old and new areas apart on a scaled display, about 1,300 pixels at 160x128 and 5,300 at
320x240 (5 and 25 ms on the Pico).  A frame shows the card where it will be when the frame is on
the glass (the last frame's cost ahead), so a slide takes ``SLIDE_MS`` at any size and frame rate.

Any key pressed during an animation ends it at once: the rest is played without frames, the key's
last frame follows, and the key is handed back to the main loop (``play`` returns it): no key is
lost.  A key already waiting when an animation starts skips it whole.
"""

from sultan import const, forget, ticks_diff, ticks_ms
from sultan.rules import engine
from sultan.ui.layout import F0, NONE, PARK, STOCK, SULTAN_PLACE, TALON
from sultan.ui.modes import PLAY
from sultan.ui.screen import FLYING
from sultan.ui.sprites import BACK_CARD, CARD_COLS, CARD_ROWS, SULTAN_CARD, T_EMPTY, TILE_H, TILE_W
from sultan.ui.widgets import place

SLIDE_MS = const(100)  # a played card's journey: quick enough not to slow play (<= ~120 ms)
CASCADE_MS = const(40)  # a won game's cascade: 25 frames a second, where the board can draw them
DEAL_MS = const(36)  # each of a new deal's 15 cards from the stock: 540 ms in all (goal: <= 600)
_FIRST_COST = const(20)  # a frame's cost guessed before one is measured (ms)

# The layout's nine cards in the order they are dealt, then the divan's six.
DEAL_ORDER = (F0, F0 + 1, F0 + 2, F0 + 3, SULTAN_PLACE, F0 + 4, F0 + 5, F0 + 6, F0 + 7, 0, 1, 2, 3, 4, 5)

_flyer = None  # (the Screen, its flyer): see ``flyer``


def ends(action):
    """(from, to) places of a packed action (``kind << 8 | second log byte``); None: a redeal."""
    k = action >> 8
    if k == engine.A_PLAY:
        return (action >> 4) & 15, F0 + (action & 15)
    if k == engine.A_TURN:
        return STOCK, TALON
    if k == engine.A_PARK:
        return TALON, (action >> 4) & 15
    return None


def card_at(g, p):
    """The card byte place ``p`` shows for game ``g`` (``BACK_CARD`` for the stock, 0 empty)."""
    if p >= F0:
        return g.foundation_card(p - F0)
    if p == STOCK:
        return BACK_CARD if g.stock_count else 0
    return g.card_at(p)


class Animation:
    """One key's animation: its frames, and the key that cut it short."""

    def __init__(self, screen, display, events, sound, clock=None):
        self.now = ticks_ms if clock is None else clock  # ms, differences by ticks_diff (the GIF: frames')
        self.screen = screen
        self.display = display
        self.events = events
        self.sound = sound
        self.pending = None  # a key press that came during the animation
        self.released = 0  # the keys released during it (bit k: key number k)
        self.frames = 0
        self.cost = _FIRST_COST  # the last frame's cost (ms)
        self.kind = ""  # "slide", "deal" or "hint" once a frame is drawn
        self.start = self.now()
        self.first = self.last = 0  # when the first and the last frame were on the screen
        self.busy = False  # a won game's cascade runs on in the main loop's idle passes (tick)
        self.cascade = None  # sultan.ui.cascade.Cascade once its first frame is drawn
        self.due = -1  # when the cascade's next frame is due (-1: not begun)

    def line(self):
        """The serial line that says it (after the key's line): ``SULTAN anim=<kind> frames=<n>
        first=<ms from the key's animation start to its first frame> ms=<first to last frame>``."""
        return "SULTAN anim=%s frames=%d first=%d ms=%d" % (
            self.kind, self.frames, ticks_diff(self.first, self.start), ticks_diff(self.last, self.first))

    def key(self):
        """True once a key has been pressed (kept in ``pending``); releases are noted in ``released``."""
        if self.pending is not None:
            return True
        self.sound.update(False)  # tones end and notes start on time while the cards travel
        ev = self.events.get()
        while ev is not None:
            if ev.pressed:
                self.pending = ev
                return True
            self.released |= 1 << ev.key_number
            ev = self.events.get()
        return False

    def frame(self):
        t = self.now()
        self.display.refresh()
        self.last = self.now()
        if not self.frames:
            self.first = self.last
        self.frames += 1
        self.cost = ticks_diff(self.last, t)

    def clear(self):
        """The frame of a menu that closes, on its own, before the hint's card travels: at 2x it
        takes about 220 ms (the panel's pixels), which would leave the slide after it one frame (a
        move's or an undo's step has its lift frame for it)."""
        if self.key():
            return
        self.kind = "slide"
        self.frame()
        self.cost = _FIRST_COST

    def slide(self, src, dst, card, ms):
        """``card`` travels from place ``src`` to place ``dst`` in ``ms``; the screen's places
        must already show the rest (``dst`` what it showed before)."""
        if self.key():
            return
        lay = self.screen.layout
        x0, y0 = lay.place_xy(src)
        x1, y1 = lay.place_xy(dst)
        if ms <= 0:
            return
        f = flyer(self.screen)
        self.screen.draw(f, card)
        start = self.now()
        t = 0
        while True:
            t += self.cost  # where the card will be when this frame is on the screen
            if t >= ms:
                break
            place(f, (x0 + (x1 - x0) * t // ms, y0 + (y1 - y0) * t // ms))
            self.frame()
            if self.key():
                break
            t = ticks_diff(self.now(), start)
        f.hidden = True

    def step(self, g, src, dst, land):
        """Show ``g``'s places but ``src`` and ``dst`` (still as before), lift, then show what
        ``src`` leaves, slide ``land`` to ``dst`` and land it (an undo's too: from where it went)."""
        s = self.screen
        show_cards(s, g, src, dst)
        s.show_counts(g)
        self.lift()
        s.show_card(src, card_at(g, src))
        self.slide(src, dst, land, SLIDE_MS)
        s.show_card(dst, land)

    def lift(self):
        """A frame of its own before the slide's clock starts, the card still at its place: the
        rings and the counts change (and a menu closes), the key's answer at once.  The place the
        card leaves is repainted in the slide's first frame, under the card: at 2x both in this
        frame were 6,480 pixels (a play's, 53 ms on 10.2.1), and inside the slide this
        frame left autoplay's steps three frames."""
        if self.key():  # before the frame: the Pico's Sound, made at its first event (31 ms, once),
            return  # delays that key's answer, not the card's departure
        self.kind = "slide"
        self.frame()
        self.cost = _FIRST_COST

    def forward(self, g, start):
        """The actions logged since move ``start``, taken back and played again one by one."""
        end = g.moves
        while g.moves > start:
            g.undo()
        while g.moves < end:
            e = ends(g.logged(g.moves))
            g.redo()
            if e is None:  # a redeal: no card travels
                continue
            src, dst = e
            self.step(g, src, dst, card_at(g, dst))

    def back(self, g):
        """The action just undone, sliding home."""
        e = ends(g.logged(g.moves))
        if e is None:
            return
        src, dst = e
        g.redo()
        card = card_at(g, dst)
        g.undo()
        self.step(g, dst, src, card)

    def deal(self, g):
        """A new deal: each card of the layout and the divan comes from the stock in turn
        (``DEAL_ORDER``), the whole in ``DEAL_ORDER``'s length times ``DEAL_MS``.

        At 160x128 the places are emptied first.  At 320x240 that frame alone would take about
        400 ms (15 places of 2,640 pixels, repainted twice), so there the cards land on what the
        last game left."""
        s = self.screen
        for p in (TALON, STOCK):
            s.show_card(p, card_at(g, p))
        if self.key():
            return
        self.kind = "deal"
        if s.layout.scale == 1:
            for p in DEAL_ORDER:
                s.show_card(p, 0)
        self.frame()  # the status, the message, a menu gone (and the places empty)
        self.cost = _FIRST_COST
        end = self.now()
        for p in DEAL_ORDER:
            end += DEAL_MS
            card = SULTAN_CARD if p == SULTAN_PLACE else card_at(g, p)
            self.slide(STOCK, p, card, ticks_diff(end, self.now()))  # late: fewer frames, or none
            s.show_card(p, card)

    def hint(self, g, menu=False):
        """The hint's card slides from the ring round its place to the one round its target and
        vanishes there: the rings stay to say it (after the menu's closing frame when ``menu``)."""
        rings = self.screen.rings  # show_rings put the hint's on its places
        src = rings[0].at
        dst = rings[1].at
        if dst == NONE:  # a turn or a redeal: no card travels
            return
        if menu:
            self.clear()
        self.kind = "hint"
        self.slide(src, dst, g.card_at(src), SLIDE_MS)


    def tick(self, g):
        """A frame of the won game's cascade, ``CASCADE_MS`` after the last began (the first one
        ``CASCADE_MS`` after the winning key's animation; the main loop's idle passes call it, until
        a key): the frame's own cost is inside the period, not added to it."""
        t = self.now()
        if ticks_diff(t, self.last + CASCADE_MS if self.due < 0 else self.due) < 0:
            return
        self.due = t + CASCADE_MS
        c = self.cascade
        if c is None:
            from sultan.ui.cascade import Cascade

            c = self.cascade = Cascade(self.screen, g, sprite)
            self.kind = "cascade"
            self.frames = 0
            self.start = self.now()
        c.frame()
        self.frame()

    def stop(self, g, console):
        """The cascade ends (a key): its cards leave, the piles are as the game has them; its
        line said.  Returns None (no cascade any more)."""
        self.busy = False
        if self.cascade is not None:
            self.cascade.stop(g)
            self.cascade = None
            forget("sultan.ui.cascade")
            console(self.line())


    def play(self, ctrl, moves, console):
        """The animation of what the last key did to ``ctrl`` (see the module's ``play``)."""
        screen = self.screen
        g = ctrl.game
        menu = screen.show_panel(ctrl, False)  # a menu's choice: the table is seen while the cards travel
        screen.show_rings(ctrl)
        if ctrl.event == "deal":
            if ctrl.mode == PLAY:
                screen.update(ctrl, False)  # the new deal's status and message; its cards come from the stock
            self.deal(g)
        elif g.moves > moves:
            self.forward(g, moves)  # a menu's choice: its step's lift takes the menu away, then the slide
        elif g.moves == moves - 1 and g.moves < g.log_end:
            self.back(g)
        elif ctrl.hint:
            self.hint(g, menu)
        if self.frames:
            console(self.line())
        self.busy = ctrl.event == "win" and self.pending is None


def sprite(screen):
    """A new card TileGrid on ``screen``'s board at ``FLYING``, hidden off the screen (for cards
    that travel: the flyer, the won game's cascade, which takes its own off the board at its end).
    Here, not a Screen method: that would be heap at READY."""
    import displayio  # never before the first animation

    tg = displayio.TileGrid(screen.sheet, pixel_shader=screen.palette, width=CARD_COLS, height=CARD_ROWS,
                            tile_width=TILE_W, tile_height=TILE_H, default_tile=T_EMPTY, x=PARK, y=0)
    tg.hidden = True  # off the screen until first shown
    screen.board.insert(FLYING, tg)
    return tg


def flyer(screen):
    """The sprite a played card slides on over ``screen``'s board: made at the first slide, then
    kept (here: on the Screen its method would be heap at READY)."""
    global _flyer
    if _flyer is None or _flyer[0] is not screen:
        _flyer = (screen, sprite(screen))
    return _flyer[1]


def show_cards(screen, g, a, b):
    """``screen``'s places as ``g`` has them, but places ``a`` and ``b``, left as they were."""
    for p in range(SULTAN_PLACE):
        if p != a and p != b:
            screen.show_card(p, card_at(g, p))


def play(screen, display, ctrl, moves, events, sound, console, clock=None):
    """Animate what the last key did to ``ctrl`` (the game's move count was ``moves`` before it),
    say its line (``console``) if it drew a frame; ``clock`` gives milliseconds (None: ``sultan.ticks_ms``).

    Returns (the key that cut it short or None, the ``Animation`` whose cascade is to run in
    the main loop's idle passes after a win, or None, the keys released meanwhile: bit k for key k)."""
    a = Animation(screen, display, events, sound, clock)
    a.play(ctrl, moves, console)
    return a.pending, (a if a.busy else None), a.released
