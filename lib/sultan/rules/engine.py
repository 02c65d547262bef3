"""The rules of Sultan: actions with refusals, undo/redo, the canonical policy.

Every player action returns a reason code (``OK`` or one of the ``R_*``
refusals; their words are in ``sultan.ui.words``) and never raises for a
legal-looking request; a refused action changes nothing.  Once a game is set
up, the per-move path (turn, play, redeal, undo, redo, hint, step, autoplay)
allocates nothing and keeps every integer below 2**30.

Usage::

    from sultan.rules.engine import Game
    g = Game(deal=7)
    g.autoplay()
    print(g.status(), g.placed)
"""

from sultan import const
from sultan.rules import cards, rng
from sultan.rules.table import (  # noqa: F401  (re-exported: the engine's public names)
    DIVAN_SLOTS,
    F_BASE,
    F_REFILL,
    F_SUIT,
    FOUNDATIONS,
    PASSES,
    TALON,
    Table,
)

RULES_SEED = const(0)  # divan refilled from the stock; redeals shuffle
RULES_CLASSIC = const(1)  # PySolFC's: the player parks talon cards in the divan; redeals don't shuffle
RULES_NAMES = ("seed", "classic")
# Classic hint: park a talon card when no more cards must reach its foundation
# first than there are empty divan slots (+2 on the last pass, when nothing
# comes round again).  Measured: 66 % won against 50 % for a fixed distance 2.
PARK_LAST_PASS_BONUS = const(2)

PLAYING = const(0)
WON = const(1)
LOST = const(2)
STATUS_NAMES = ("playing", "won", "lost")

MAX_ACTIONS = const(400)  # a seed-rules game needs at most 364
MAX_DEAL = const(999999999)

# Reason codes returned by actions.
OK = const(0)
R_BAD_PLACE = const(1)
R_EMPTY = const(2)
R_NO_FIT = const(3)
R_FOUNDATION_DONE = const(4)
R_FITS_NOWHERE = const(5)
R_STOCK_EMPTY = const(6)
R_STOCK_NOT_EMPTY = const(7)
R_NO_REDEAL_LEFT = const(8)
R_NOTHING_TO_UNDO = const(9)
R_NOTHING_TO_REDO = const(10)
R_GAME_OVER = const(11)
R_LOG_FULL = const(12)
R_NOT_THESE_RULES = const(13)
R_SLOT_TAKEN = const(14)
R_TALON_EMPTY = const(15)  # classic rules: a redeal with no talon to turn over (PySolFC refuses it)

# Action kinds, used in the move log and in hints.  A hint is packed as
# kind << 8 | place << 4 | foundation (0 = no move left).
A_TURN = const(1)
A_PLAY = const(2)
A_REDEAL = const(3)
A_PARK = const(4)  # classic rules: talon top to an empty divan slot
_KIND = const(0x0F)
_F_MISSED = const(0x10)  # a turn made while something could be played


def hint_kind(hint):
    return hint >> 8


def hint_place(hint):
    return (hint >> 4) & 15


def hint_foundation(hint):
    return hint & 15


class Game(Table):
    """One game of Sultan.

    ``Game(deal=N)`` deals numbered deal N (1 .. 999,999,999);
    ``Game(order=cards)`` deals the 95 given card bytes, stock top first.
    """

    def __init__(self, deal=None, order=None, rules=RULES_SEED):
        Table.__init__(self)
        self._set_rules(rules)
        self.log = bytearray(2 * MAX_ACTIONS)  # 2 bytes an action: kind|flags, place<<4|f
        self.moves = 0  # actions in effect (undo lowers it)
        self.log_end = 0  # actions recorded; moves..log_end can be redone
        self.deal = 0
        if order is not None:
            self.new_order(order)
        else:
            self.new_deal(1 if deal is None else deal)

    # ----------------------------------------------------------------- set-up
    def _set_rules(self, rules):
        if rules != RULES_SEED and rules != RULES_CLASSIC:
            raise ValueError("unknown rules %r" % (rules,))
        self.rules = rules
        self.refill = rules == RULES_SEED

    def new_deal(self, deal, rules=None):
        """Start numbered deal ``deal`` in place (no new buffers), optionally under other rules."""
        if not (isinstance(deal, int) and 1 <= deal <= MAX_DEAL):
            raise ValueError("deal must be 1..999999999, not %r" % (deal,))
        if rules is not None:
            self._set_rules(rules)
        self.rng = rng.shuffle(self.stock, cards.STOCK_PACK, cards.STOCK_SIZE, rng.seed(deal))
        self.deal = deal
        self._start()

    def new_order(self, order, rules=None):
        """Start a game whose stock is ``order`` (95 card bytes, top first)."""
        from sultan.rules.order import stock_order_error  # set-up only: loaded on demand

        err = stock_order_error(order)
        if err:
            raise ValueError(err)
        if rules is not None:
            self._set_rules(rules)
        h = 0
        n = cards.STOCK_SIZE
        for i in range(n):
            c = order[i]
            self.stock[n - 1 - i] = c
            h = (h * 61 + c) % 1000003
        self.rng = rng.seed(h + 1)  # redeals of a given order are repeatable too
        self.deal = 0
        self._start()

    def _start(self):
        self._lay_out()
        self.moves = 0
        self.log_end = 0

    # ----------------------------------------------------------------- queries
    def status(self):
        """PLAYING, WON or LOST."""
        if self.placed == cards.STOCK_SIZE:
            return WON
        if self.stock_count or self.any_playable():
            return PLAYING
        if self.pass_no < PASSES and (self.refill or self.talon_count):
            return PLAYING  # a redeal is left (classic: only worth it with a talon)
        return PLAYING if self._park_uncovers() else LOST

    def _park_uncovers(self):
        # Classic rules: parking talon cards in the empty divan slots could
        # uncover a playable talon card (the foundations don't change meanwhile).
        if self.refill:
            return False
        free = 0
        for i in range(DIVAN_SLOTS):
            if not self.divan[i]:
                free += 1
        i = self.talon_count - 2
        while free and i >= 0:
            if self.where[self.talon[i]]:
                return True
            free -= 1
            i -= 1
        return False

    def free_slot(self):
        """The first empty divan slot, or -1."""
        for i in range(DIVAN_SLOTS):
            if not self.divan[i]:
                return i
        return -1

    def distance(self, card):
        """How many cards its foundations need before ``card`` fits (0 = fits now, 99 = never)."""
        best = 99
        suit = card >> 4
        rank = card & 15
        for f in range(FOUNDATIONS):
            need = self.need[f]
            if need and need >> 4 == suit and rank >= need & 15 and rank - (need & 15) < best:
                best = rank - (need & 15)
        return best

    def can_undo(self):
        return self.moves > 0

    def can_redo(self):
        return self.moves < self.log_end

    def hint(self):
        """The canonical policy's next action, packed (see ``hint_kind``); 0 if none.

        First playable divan slot 0..5 (lowest foundation), else the talon top,
        else turn a stock card, else redeal if allowed.
        """
        where = self.where
        for i in range(DIVAN_SLOTS):
            c = self.divan[i]
            if c and where[c]:
                return A_PLAY << 8 | i << 4 | (where[c] - 1)
        if self.talon_count:
            w = where[self.talon[self.talon_count - 1]]
            if w:
                return A_PLAY << 8 | TALON << 4 | (w - 1)
        if not self.refill and self.talon_count:
            # classic: keep a soon-needed talon card from being buried by the next turn
            slot = -1
            free = 0
            for i in range(DIVAN_SLOTS - 1, -1, -1):
                if not self.divan[i]:
                    slot = i
                    free += 1
            if free:
                if self.pass_no == PASSES:
                    free += PARK_LAST_PASS_BONUS
                if (self.distance(self.talon[self.talon_count - 1]) <= free
                        or not self.stock_count and self._park_uncovers()):
                    return A_PARK << 8 | slot << 4
        if self.stock_count:
            return A_TURN << 8
        if self.pass_no < PASSES and self.placed < cards.STOCK_SIZE and (self.refill or self.talon_count):
            return A_REDEAL << 8
        return 0

    # ----------------------------------------------------------------- actions
    def turn(self):
        """Turn the stock's top card onto the talon."""
        if not self.stock_count:
            return R_STOCK_EMPTY
        if self.moves >= MAX_ACTIONS:
            return R_LOG_FULL
        flags = _F_MISSED if self.any_playable() else 0
        self._do_turn(flags)
        self._record(A_TURN | flags, 0)
        return OK

    def play(self, place, f):
        """Play the card at ``place`` (divan slot or TALON) to foundation ``f``."""
        if not (0 <= place <= TALON and 0 <= f < FOUNDATIONS):
            return R_BAD_PLACE
        c = self.card_at(place)
        if not c:
            return R_EMPTY
        need = self.need[f]
        if need != c:
            return R_FOUNDATION_DONE if need == 0 else R_NO_FIT
        if self.moves >= MAX_ACTIONS:
            return R_LOG_FULL
        flags = self._do_play(place, f)
        self._record(A_PLAY | flags, place << 4 | f)
        return OK

    def park(self, slot):
        """Classic rules: move the talon's top card into empty divan slot ``slot``."""
        if self.refill:
            return R_NOT_THESE_RULES
        if not 0 <= slot < DIVAN_SLOTS:
            return R_BAD_PLACE
        if self.divan[slot]:
            return R_SLOT_TAKEN
        if not self.talon_count:
            return R_EMPTY
        if self.moves >= MAX_ACTIONS:
            return R_LOG_FULL
        self._do_park(slot)
        self._record(A_PARK, slot << 4)
        return OK

    def play_auto(self, place):
        """Play the card at ``place`` to the lowest foundation that takes it."""
        if not 0 <= place <= TALON:
            return R_BAD_PLACE
        c = self.card_at(place)
        if not c:
            return R_EMPTY
        w = self.where[c]
        if not w:
            return R_FITS_NOWHERE
        return self.play(place, w - 1)

    def redeal(self):
        """Gather talon and divan, shuffle them into a new stock, lay the divan.

        Classic rules: turn the talon over into the stock, unshuffled; refused
        with an empty talon, as PySolFC's ``WasteTalonStack`` refuses it.
        """
        if self.placed == cards.STOCK_SIZE:
            return R_GAME_OVER
        if self.stock_count:
            return R_STOCK_NOT_EMPTY
        if self.pass_no >= PASSES:
            return R_NO_REDEAL_LEFT
        if not self.refill and not self.talon_count:
            return R_TALON_EMPTY
        if self.moves >= MAX_ACTIONS:
            return R_LOG_FULL
        k = self.pass_no - 1
        self._do_redeal()
        self._record(A_REDEAL, k)
        return OK

    def undo(self):
        """Take back the last action in effect."""
        if not self.moves:
            return R_NOTHING_TO_UNDO
        self.moves -= 1
        i = 2 * self.moves
        kind = self.log[i]
        arg = self.log[i + 1]
        k = kind & _KIND
        if k == A_TURN:
            self._undo_turn(kind & _F_MISSED)
        elif k == A_PLAY:
            self._undo_play(arg >> 4, arg & 15, kind)
        elif k == A_PARK:
            self._undo_park(arg >> 4)
        else:
            self._undo_redeal(arg)
        return OK

    def redo(self):
        """Repeat the last undone action exactly (a redeal reshuffles the same way)."""
        if self.moves >= self.log_end:
            return R_NOTHING_TO_REDO
        i = 2 * self.moves
        kind = self.log[i]
        arg = self.log[i + 1]
        k = kind & _KIND
        if k == A_TURN:
            self._do_turn(kind & _F_MISSED)
        elif k == A_PLAY:
            self._do_play(arg >> 4, arg & 15)
        elif k == A_PARK:
            self._do_park(arg >> 4)
        else:
            self._do_redeal()
        self.moves += 1
        return OK

    def step(self):
        """One action of the canonical policy; returns the hint done, 0 if none."""
        h = self.hint()
        k = h >> 8
        if k == A_PLAY:
            self.play((h >> 4) & 15, h & 15)
        elif k == A_TURN:
            self.turn()
        elif k == A_REDEAL:
            self.redeal()
        elif k == A_PARK:
            self.park((h >> 4) & 15)
        return h

    def autoplay(self, stop_at_pass_end=False):
        """Play the canonical policy to the end; returns the status.

        With ``stop_at_pass_end`` it stops where the policy would redeal.  The
        moves are the ones ``step()`` would make, recorded for undo alike; this
        loop only keeps the counters in locals because it runs a lot.
        """
        if not self.refill:
            return self._autoplay_steps(stop_at_pass_end)
        divan = self.divan
        stock = self.stock
        where = self.where
        log = self.log
        end = 2 * MAX_ACTIONS
        while True:
            talon = self.talon  # a redeal moves on to the next pass's buffer
            sc = self.stock_count
            tc = self.talon_count
            li = 2 * self.moves  # the next log entry's index
            placed = self.placed
            scan = True  # the divan may hold a playable card (false after a fruitless scan until a play)
            while li < end:
                c = 0
                if scan:
                    for i in range(DIVAN_SLOTS):
                        c = divan[i]
                        if c and where[c]:
                            break
                        c = 0
                    scan = c != 0
                if c:
                    f = where[c] - 1
                    self._set_top(f, c & 15)
                    if sc:
                        sc -= 1
                        divan[i] = stock[sc]
                        log[li] = A_PLAY | F_REFILL
                    else:
                        divan[i] = 0
                        log[li] = A_PLAY
                    log[li + 1] = i << 4 | f
                elif tc and where[talon[tc - 1]]:
                    c = talon[tc - 1]
                    f = where[c] - 1
                    self._set_top(f, c & 15)
                    tc -= 1
                    log[li] = A_PLAY
                    log[li + 1] = TALON << 4 | f
                    scan = True
                elif sc:
                    # Nothing is playable before a turn, so only the new talon
                    # top can change that: turn on while it fits nowhere.
                    while True:
                        sc -= 1
                        c = stock[sc]
                        talon[tc] = c
                        tc += 1
                        log[li] = A_TURN
                        log[li + 1] = 0
                        li += 2
                        if not sc or where[c] or li >= end:
                            break
                    continue
                else:
                    break
                placed += 1
                li += 2
            mv = li >> 1
            self.placed = placed
            self.stock_count = sc
            self.talon_count = tc
            self.moves = mv
            self.log_end = mv
            if stop_at_pass_end or mv >= MAX_ACTIONS or self.redeal() != OK:
                return self.status()

    def _autoplay_steps(self, stop_at_pass_end):
        # The general loop (classic rules): one canonical step at a time.
        while self.moves < MAX_ACTIONS:
            h = self.hint()
            if not h or (stop_at_pass_end and h >> 8 == A_REDEAL):
                break
            self.step()
        return self.status()

    # ---------------------------------------------------------------- the log
    def _record(self, kind, arg):
        i = 2 * self.moves
        self.log[i] = kind
        self.log[i + 1] = arg
        self.moves += 1
        self.log_end = self.moves
