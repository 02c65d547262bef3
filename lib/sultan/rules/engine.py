# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The rules of Sultan: actions with refusals, undo/redo; and the canonical player.

Every player action returns a reason code (``OK`` or one of the ``R_*``
refusals; their words are in ``sultan.ui.words``) and never raises for a
legal-looking request; a refused action changes nothing.  Once a game is set
up, the per-move path (turn, play, redeal, undo, redo, hint, step, autoplay)
allocates nothing and keeps every integer below 2**30.

Two classes: ``Rules`` keeps the rules, the refusals, the move log and undo/redo
(the cards and their raw moves are ``sultan.rules.table``'s); ``Game`` puts the
canonical player on top (what to do next: the hint, and ``step``/``autoplay``
that follow it, from ``sultan.rules.hint``, imported at the first of them).

Usage::

    from sultan.rules.engine import Game
    g = Game(deal=7)
    g.autoplay()
    print(g.status(), g.placed)
"""

from sultan import const
from sultan.rules import (  # noqa: F401  (re-exported: the engine's public names)
    A_PARK,
    A_PLAY,
    A_REDEAL,
    A_TURN,
    KIND,
    LOST,
    MAX_ACTIONS,
    NO_SAFE_MOVE,
    OK,
    PLAYING,
    WON,
    cards,
    rng,
)
from sultan.rules.table import (  # noqa: F401  (re-exported: the engine's public names)
    DIVAN_SLOTS,
    F_BASE,
    F_PARTNER,
    F_REFILL,
    F_SUIT,
    FOUNDATIONS,
    PASSES,
    TALON,
    Table,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only (MicroPython has no typing): the classic search's type
    from sultan.rules.lookahead import Lookahead

RULES_SEED = const(0)  # divan refilled from the stock; redeals shuffle
RULES_CLASSIC = const(1)  # PySolFC's: the player parks talon cards in the divan; redeals don't shuffle
RULES_NAMES = ("seed", "classic")

STATUS_NAMES = ("playing", "won", "lost")  # by status: PLAYING, WON, LOST

MAX_DEAL = const(999999999)

# Why an action was refused (OK, 0, says it was done).
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

_F_MISSED = const(0x10)  # a turn made while something could be played


def hint_kind(hint):
    return hint >> 8


def hint_place(hint):
    return (hint >> 4) & 15


def hint_foundation(hint):
    return hint & 15


class Rules(Table):
    """The rules on the cards (``Table``): set-up, actions with refusals, the move log, undo/redo.

    ``Game`` (below) adds the canonical player; make a ``Game``.
    """

    def __init__(self, deal=None, order=None, rules=RULES_SEED):
        Table.__init__(self)
        self._set_rules(rules)
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
        if not self.refill:
            # Classic rules: parking talon cards in the empty divan slots could uncover
            # a playable talon card (the foundations don't change meanwhile).
            free = 0
            for i in range(DIVAN_SLOTS):
                if not self.divan[i]:
                    free += 1
            i = self.talon_count - 2
            while free and i >= 0:
                if self.where[self.talon[i]]:
                    return PLAYING
                free -= 1
                i -= 1
        return LOST

    def free_slot(self):
        """The first empty divan slot, or -1."""
        for i in range(DIVAN_SLOTS):
            if not self.divan[i]:
                return i
        return -1

    def can_redo(self):
        return self.moves < self.log_end

    # ----------------------------------------------------------------- actions
    def turn(self):
        """Turn the stock's top card onto the talon."""
        if not self.stock_count:
            return R_STOCK_EMPTY
        if self.moves >= MAX_ACTIONS:
            return R_LOG_FULL
        self.run(A_TURN << 8, _F_MISSED if self.any_playable() else 0)
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
        self.run(A_PLAY << 8 | place << 4 | f)
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
        self._do_redeal()
        return OK

    def undo(self):
        """Take back the last action in effect."""
        if not self.moves:
            return R_NOTHING_TO_UNDO
        self.moves -= 1
        i = 2 * self.moves
        kind = self.log[i]
        arg = self.log[i + 1]
        k = kind & KIND
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
        end = self.log_end
        self.act(self.logged(self.moves))  # records the same two bytes again
        self.log_end = end
        return OK

    def logged(self, i):
        """The packed action (``kind << 8 | second log byte``) of move-log entry ``i``."""
        return (self.log[2 * i] & KIND) << 8 | self.log[2 * i + 1]

    def act(self, action):
        """Do a packed action (a hint, or ``kind << 8 | second log byte``) with its public action.

        Returns that action's reason code (``R_BAD_PLACE`` for an unknown kind).
        ``step``, ``redo`` and a save's replay all go through here.
        """
        k = action >> 8
        if k == A_PLAY:
            return self.play((action >> 4) & 15, action & 15)
        if k == A_TURN:
            return self.turn()
        if k == A_PARK:
            return self.park((action >> 4) & 15)
        if k == A_REDEAL:
            return self.redeal()
        return R_BAD_PLACE


class Game(Rules):
    """One game of Sultan: the rules (``Rules``), and the canonical player on top --
    ``sure_play`` here, ``hint``, ``safe_hint``, ``step`` and ``autoplay`` from
    ``sultan.rules.hint`` (see there for the policy of each ruleset).

    ``Game(deal=N)`` deals numbered deal N (1 .. 999,999,999);
    ``Game(order=cards)`` deals the 95 given card bytes, stock top first.

    Classic rules: ``lookahead`` is the hint's search (``sultan.rules.lookahead``), made
    when the game is set up, so a seed game's heap never pays for it and no hint allocates;
    its ``verdict`` tells what the last hint knew of its move (see its module).
    """

    lookahead: "Lookahead | None" = None  # seed games never make one (a class default: no heap a game)

    def _start(self):
        if not self.refill and self.lookahead is None:
            # Classic rules: set-up, not the first hint, loads the hint's search (so that no
            # move allocates); a seed game never loads it.
            from sultan.rules.lookahead import Lookahead

            self.lookahead = Lookahead()
        Rules._start(self)

    def sure_play(self):
        """A play that cannot spoil anything, packed, or 0 (no search, so it is quick).

        The first divan card that fits; else the talon top if it fits (classic
        rules: only when its suit's other foundation is not behind).
        """
        where = self.where
        for i in range(DIVAN_SLOTS):
            c = self.divan[i]
            if c and where[c]:
                return A_PLAY << 8 | i << 4 | (where[c] - 1)
        tc = self.talon_count
        if tc:
            c = self.talon[tc - 1]
            w = where[c]
            if w and (self.refill or self.top[F_PARTNER[w - 1]] % 13 >= (c & 15) - 1):
                return A_PLAY << 8 | TALON << 4 | (w - 1)
        return 0

    # The player's policy lives in sultan.rules.hint, imported at the first hint (a board
    # running the seed rules needs it only when the player asks the menu for one).
    def hint(self):
        """The canonical policy's next action, packed (see ``hint_kind``); 0 if none is left."""
        return _player().hint(self)

    def safe_hint(self):
        """The hint if it keeps the deal winnable, else ``NO_SAFE_MOVE``; 0 if no move is left."""
        return _player().safe_hint(self)

    def step(self):
        """One action of the canonical policy; returns the hint done, 0 if none."""
        return _player().step(self)

    def autoplay(self, stop_at_pass_end=False):
        """Play the canonical policy to the end (or to where it would redeal); returns the status."""
        return _player().autoplay(self, stop_at_pass_end)


_hint = None  # sultan.rules.hint once imported


def _player():
    """The module ``sultan.rules.hint``, imported once (an import statement run on every hint
    would allocate: 32 bytes a call on MicroPython)."""
    global _hint
    if _hint is None:
        from sultan.rules import hint

        _hint = hint
    return _hint
