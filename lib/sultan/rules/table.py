# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Where the cards are: the stock, talon, divan and foundations as bytearrays.

``Table`` holds the state and the raw moves (with their exact inverses, for
undo); it checks no rules.  Each raw move also writes itself into the move log
(two bytes an action), so the public actions, redo and autoplay all record the
same way; turns and plays all go through ``run``.  ``sultan.rules.engine.Rules``
adds the rules, refusals and undo on top, and ``Game`` the canonical player.

``refill`` (seed rules) refills an emptied divan slot from the stock and makes a
redeal shuffle talon and divan together; without it (classic rules) slots stay
empty until a talon card is parked there, and a redeal turns the talon over as
it lies, leaving the divan alone.

Places: divan slots 0..5 (0-2 the left column top to bottom, 3-5 the right
column), ``TALON`` (6) for the talon's top card.  Foundations 0..7 in layout
order (see ``cards.LAYOUT``); the sultan is not a foundation.
"""

from sultan import const
from sultan.rules import A_PARK, A_PLAY, A_REDEAL, A_TURN, MAX_ACTIONS, cards, rng

DIVAN_SLOTS = const(6)
TALON = const(6)  # the "place" index of the talon's top card
FOUNDATIONS = const(8)
PASSES = const(3)  # the first pass plus at most two redeals

# Foundation suits and starting ranks, in layout order.
F_SUIT = bytes(c >> 4 for c in cards.LAYOUT)
F_BASE = bytes(c & 15 for c in cards.LAYOUT)
F_PARTNER = bytes((2, 6, 0, 4, 3, 7, 1, 5))  # the other foundation of the same suit

F_REFILL = const(0x20)  # flag: a divan play whose slot was refilled from the stock


class Table:
    """The cards of one game, in preallocated buffers (about 480 bytes); ``refill``: see the module."""

    def __init__(self):
        self.refill = True
        self.stock = bytearray(cards.STOCK_SIZE)  # stock[stock_count - 1] is the top
        # A talon buffer a pass (a redeal leaves the old one untouched: undo copies nothing); top last.
        self.talons = [bytearray(cards.STOCK_SIZE) for _ in range(PASSES)]
        self.talon = self.talons[0]
        self.divan = bytearray(DIVAN_SLOTS)  # 0 = empty slot
        self.top = bytearray(FOUNDATIONS)  # rank of each foundation's top card
        self.need = bytearray(FOUNDATIONS)  # the card each foundation takes next, 0 if done
        self.where = bytearray(64)  # card -> 1 + lowest foundation taking it, 0 if none
        self.saved_divan = bytearray(DIVAN_SLOTS * (PASSES - 1))  # divan before each redeal
        self.saved_talon = bytearray(PASSES - 1)  # talon count before each redeal
        self.rng_before = [0, 0]  # generator state before each redeal
        self.rng = 1  # the game's generator state (see sultan.rules.rng)
        self.stock_count = 0
        self.talon_count = 0
        self.pass_no = 1
        self.placed = 0
        self.missed = 0
        self.log = bytearray(2 * MAX_ACTIONS)  # 2 bytes an action: kind|flags, place<<4|f
        self.moves = 0  # actions in effect (undo lowers it)
        self.log_end = 0  # actions recorded; moves..log_end can be redone

    def _lay_out(self):
        """Fresh foundations and the divan dealt from a full stock."""
        where = self.where
        need = self.need
        for c in range(64):
            where[c] = 0
        for f in range(FOUNDATIONS):
            need[f] = 0
        for f in range(FOUNDATIONS):
            self._set_top(f, F_BASE[f])
        self.stock_count = cards.STOCK_SIZE
        self.talon = self.talons[0]
        self.talon_count = 0
        self.pass_no = 1
        self.placed = 0
        self.missed = 0
        self._lay_divan()

    def _lay_divan(self):
        for i in range(DIVAN_SLOTS):
            if self.stock_count:
                self.stock_count -= 1
                self.divan[i] = self.stock[self.stock_count]
            else:
                self.divan[i] = 0

    def _set_top(self, f, rank):
        # Only the two foundations of a suit can want the same card, so the
        # card -> foundation index is kept in O(1): look at f and its partner.
        need = self.need
        where = self.where
        p = F_PARTNER[f]
        old = need[f]
        new = 0 if rank == cards.QUEEN else (F_SUIT[f] << 4 | (rank % 13 + 1))
        self.top[f] = rank
        need[f] = new
        if old:
            where[old] = p + 1 if need[p] == old else 0
        if new:
            where[new] = (p if p < f else f) + 1 if need[p] == new else f + 1

    # ----------------------------------------------------------------- queries
    def card_at(self, place):
        """The card byte at divan slot 0..5 or TALON (its top), 0 if none."""
        if 0 <= place < DIVAN_SLOTS:
            return self.divan[place]
        if place == TALON and self.talon_count:
            return self.talon[self.talon_count - 1]
        return 0

    def target(self, place):
        """The lowest foundation that takes the card at ``place``, or -1."""
        c = self.card_at(place)
        return self.where[c] - 1 if c else -1

    def foundation_card(self, f):
        """The card byte on top of foundation ``f``."""
        return F_SUIT[f] << 4 | self.top[f]

    def any_playable(self):
        where = self.where
        for i in range(DIVAN_SLOTS):
            c = self.divan[i]
            if c and where[c]:
                return True
        return self.talon_count > 0 and where[self.talon[self.talon_count - 1]] > 0

    # ------------------------------------------------------------ raw moves
    def _undo_turn(self, flags):
        self.talon_count -= 1
        self.stock[self.stock_count] = self.talon[self.talon_count]
        self.stock_count += 1
        if flags:
            self.missed -= 1

    def run(self, action, flags=0):
        """Turn or play, recorded: one packed ``action`` (a turn, with ``flags``, or a play), or
        with ``action`` 0 the cascade: the first divan slot 0..5 whose card fits, else the talon
        top if it fits, else a turn, until the stock is out.  The one place where cards move from
        the stock to the talon and onto the foundations, and seed autoplay's hot loop (locals;
        the turns run on while the new top fits nowhere; the divan is scanned after plays only)."""
        stock = self.stock
        talon = self.talon
        divan = self.divan
        where = self.where
        log = self.log
        sc = self.stock_count
        tc = self.talon_count
        i = 2 * self.moves
        placed = self.placed
        refill = self.refill
        scan = True
        turn = action >> 8 == A_TURN
        turned = A_TURN | flags
        place = (action >> 4) & 15
        f = action & 15
        end = 2 * MAX_ACTIONS
        while i < end:
            if not action:  # the cascade's next move
                if scan:
                    place = 0
                    while place < DIVAN_SLOTS and not where[divan[place]]:
                        place += 1
                    scan = place < DIVAN_SLOTS
                if scan:
                    f = where[divan[place]] - 1
                elif tc and where[talon[tc - 1]]:
                    place = TALON
                    f = where[talon[tc - 1]] - 1
                elif sc:
                    turn = True
                else:
                    break
            if turn:
                while True:
                    sc -= 1
                    c = stock[sc]
                    talon[tc] = c
                    tc += 1
                    log[i] = turned
                    log[i + 1] = 0
                    i += 2
                    if action or not sc or where[c] or i >= end:
                        break
                if action:
                    break
                turn = False
                continue
            entry = A_PLAY
            if place == TALON:
                tc -= 1
                self._set_top(f, talon[tc] & 15)
            else:
                self._set_top(f, divan[place] & 15)
                if sc and refill:
                    sc -= 1
                    divan[place] = stock[sc]
                    entry = A_PLAY | F_REFILL
                else:
                    divan[place] = 0
            placed += 1
            log[i] = entry
            log[i + 1] = place << 4 | f
            i += 2
            if action:
                break
            scan = True
        self.stock_count = sc
        self.talon_count = tc
        self.placed = placed
        self.moves = self.log_end = i >> 1
        if flags:
            self.missed += 1

    def _undo_play(self, place, f, kind):
        rank = self.top[f]
        card = F_SUIT[f] << 4 | rank
        self._set_top(f, rank - 1 if rank > 1 else cards.KING)
        self.placed -= 1
        if place == TALON:
            self.talon[self.talon_count] = card
            self.talon_count += 1
        else:
            if kind & F_REFILL:
                self.stock[self.stock_count] = self.divan[place]
                self.stock_count += 1
            self.divan[place] = card

    def _do_redeal(self):
        # Gather: the divan's cards go on after the talon's, in the talon
        # buffer of the pass that ends (its first talon_count bytes are kept).
        k = self.pass_no - 1
        m = self.moves
        self.log[2 * m] = A_REDEAL
        self.log[2 * m + 1] = k
        self.moves = self.log_end = m + 1
        gathered = self.talon
        n = self.talon_count
        self.saved_talon[k] = n
        self.rng_before[k] = self.rng
        if self.refill:
            for i in range(DIVAN_SLOTS):
                c = self.divan[i]
                self.saved_divan[k * DIVAN_SLOTS + i] = c
                if c:
                    gathered[n] = c
                    n += 1
            self.rng = rng.shuffle(self.stock, gathered, n, self.rng)
        else:
            # turned over: the talon's bottom card becomes the stock's top
            for i in range(n):
                self.stock[n - 1 - i] = gathered[i]
            for i in range(DIVAN_SLOTS):
                self.saved_divan[k * DIVAN_SLOTS + i] = self.divan[i]
        self.stock_count = n
        self.pass_no += 1
        self.talon = self.talons[k + 1]
        self.talon_count = 0
        if self.refill:
            self._lay_divan()

    def _do_park(self, slot):
        self.talon_count -= 1
        self.divan[slot] = self.talon[self.talon_count]
        m = self.moves
        self.log[2 * m] = A_PARK
        self.log[2 * m + 1] = slot << 4
        self.moves = self.log_end = m + 1

    def _undo_park(self, slot):
        self.talon[self.talon_count] = self.divan[slot]
        self.talon_count += 1
        self.divan[slot] = 0

    def _undo_redeal(self, k):
        self.talon = self.talons[k]
        self.talon_count = self.saved_talon[k]
        for i in range(DIVAN_SLOTS):
            self.divan[i] = self.saved_divan[k * DIVAN_SLOTS + i]
        self.stock_count = 0
        self.rng = self.rng_before[k]
        self.pass_no -= 1
