# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""A won game's cascade: the foundations' cards leap off their piles one after another and
bounce along the bottom of the screen, leaving a trail, in the spirit of Windows' Solitaire.

``sultan.ui.motion`` imports this module at a win (never before: no heap at READY) and forgets it
when the cascade ends.  It runs in the main loop's idle passes, a frame each (``frame``), until a
key; that key brings the won panel (``stop``).  The win tune and the lights play on meanwhile:
the loop keeps calling ``sound.update``.

Objects: a trail of ``TRAIL`` TileGrids over the sprite sheet, made at the win and let go at the
end -- never one a frame.  A frame moves the oldest of them to where the card now is (each copy
lies over the one before, but the first over the last: no reordering of the Group) and writes
its six tiles: displayio repaints its old and new areas, about 1,300 pixels at 160x128.  The
card's path is worked out in virtual pixels (fixed point, 8ths), frame by frame, from a
generator seeded by the deal: the same on every board.
"""

from sultan import const
from sultan.rules.table import F_BASE, F_SUIT, FOUNDATIONS
from sultan.ui.layout import CARD_H, CARD_W, F0

TRAIL = const(10)  # copies of the card on the screen at once: the newest and its trail
_FIX = const(8)  # the path's fixed point: 8ths of a virtual pixel
_GRAVITY = const(4)  # 0.5 pixel a frame, each frame
_QUEEN = const(12)
_KING = const(13)


class Cascade:
    """The trail, the card in the air and what is left on each pile."""

    def __init__(self, screen, g, sprite):
        """The cascade of the won game ``g`` on ``screen``; ``sprite(screen)`` makes a card TileGrid
        (``sultan.ui.motion.sprite``)."""
        self.screen = screen
        self.g = g
        lay = screen.layout
        self.floor = (lay.vh - CARD_H) * _FIX
        self.right = lay.vw * _FIX
        self.seed = g.deal or 1
        self.trail = []
        for _ in range(TRAIL):  # over the cards and the counts, under the text and the rings
            self.trail.append(sprite(screen))
        self.next = 0  # the trail's oldest copy: the next to move
        self.ranks = bytearray(FOUNDATIONS)  # each pile's cards still on it (its top card's rank)
        self.pile = -1
        self.card = 0
        self.deal_piles()
        self.launch()

    def deal_piles(self):
        for f in range(FOUNDATIONS):  # a king's pile: K, A .. Q (13); the heart pile: A .. Q (12)
            self.ranks[f] = _QUEEN + (1 if F_BASE[f] == _KING else 0)

    def random(self, n):
        """0 .. n-1 from the cascade's own generator (a 30-bit LCG)."""
        self.seed = (self.seed * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.seed >> 12) % n

    def top(self, f):
        """The card byte on top of pile ``f`` (0: none left)."""
        n = self.ranks[f]
        if not n:
            return 0
        suit = F_SUIT[f] << 4
        if F_BASE[f] == _KING:  # K at the bottom, then A .. Q
            return suit | (_KING if n == 1 else n - 1)
        return suit | n  # the heart pile: A .. Q

    def launch(self):
        """The next pile's top card leaps off it."""
        s = self.screen
        for _ in range(FOUNDATIONS + 1):
            self.pile = (self.pile + 1) % FOUNDATIONS
            if self.ranks[self.pile]:
                break
        else:
            self.deal_piles()  # every card thrown: the piles again, and on
            for f in range(FOUNDATIONS):
                s.show_card(F0 + f, self.top(f))
        f = self.pile
        self.card = self.top(f)
        self.ranks[f] -= 1
        s.show_card(F0 + f, self.top(f))
        x, y = s.layout.place_xy(F0 + f)
        self.x = x * _FIX
        self.y = y * _FIX
        speed = 2 * _FIX + self.random(3 * _FIX)
        self.vx = speed if self.random(2) else -speed
        self.vy = -self.random(5 * _FIX)

    def frame(self):
        """One step of the card's path, a copy of it left there."""
        self.vy += _GRAVITY
        self.x += self.vx
        self.y += self.vy
        if self.y > self.floor:
            self.y = self.floor
            self.vy = -self.vy * 3 // 4
        tg = self.trail[self.next]  # the copies in turn: each over the one before, but the first
        self.next = (self.next + 1) % TRAIL  # over the last (moving it on top would cost a Group's
        self.screen.draw(tg, self.card)  # remove and insert, and its old area again)
        tg.x = self.x // _FIX
        tg.y = self.y // _FIX
        tg.hidden = False
        if self.x < -CARD_W * _FIX or self.x > self.right:
            self.launch()

    def stop(self, g):
        """The trail taken off the board (its heap let go), the piles as the game has them."""
        s = self.screen
        for tg in self.trail:
            s.board.remove(tg)
        self.trail = []
        for f in range(FOUNDATIONS):
            s.show_card(F0 + f, g.foundation_card(f))
