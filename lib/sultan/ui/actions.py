# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""What the player's actions do to the game, and what the message line says of each.

``Actions`` is the part of the controller that changes the game: a play, a park, a stock
turn or redeal, undo and redo, a restart, a new deal (with its winnable mark), autoplay
after a move, and the switch to the won/lost panel when the game ends.  Each sets
``message`` (words from ``sultan.ui.words``), ``event`` (for ``sultan.ui.sound``) and bumps
``changes`` (the app saves on that).  ``sultan.ui.controller.Controller`` builds on it: which
key does what in which mode, the cursor, the menu, the digit editor and the settings.

The modes (``self.mode``) are ``sultan.ui.modes``.
"""

from sultan import forget
from sultan.rules import engine
from sultan.rules.winnable import LAST_CLASSIC, LAST_SEED
from sultan.ui import words
from sultan.ui.layout import NONE
from sultan.ui.lines import TEXT_DEAL, TEXT_REDONE, TEXT_RESTARTED, TEXT_UNDONE, TEXT_WINNABLE_DEAL
from sultan.ui.modes import OVER, PLAY


def _is_winnable(deal, rules):
    """True if ``deal`` is in the shipped table of known-winnable deals of ``rules``."""
    if not deal or deal > (LAST_CLASSIC if rules else LAST_SEED):
        return False  # above the table's end: no lookup (see sultan.rules.winnable's LAST_SEED)
    try:
        from sultan.rules import winnable

        return winnable.is_winnable(deal, rules)
    except (ImportError, OSError, ValueError, MemoryError):  # no table on this build: no mark
        return False
    finally:
        forget("sultan.rules.winnable")


def random_deal_number():
    """A deal number drawn at random (1 .. MAX_DEAL)."""
    try:
        import random

        return random.randint(1, engine.MAX_DEAL)
    except ImportError:  # pragma: no cover - every port has random
        import time

        return int(time.monotonic() * 1000) % engine.MAX_DEAL + 1


class Actions:
    """The game, what was last said of it, and the actions on it."""

    def __init__(self, game, rand_deal=None):
        self.game = game
        self.rand_deal = rand_deal or random_deal_number
        self.rules = game.rules  # the ruleset of the next deal
        self.autoplay = False
        self.winnable = _is_winnable(game.deal, game.rules)  # looked up once per deal
        self.selected = NONE  # the place whose card is selected (layout place codes)
        self.mode = PLAY
        self.event = ""  # what the last key did, for sultan.ui.sound
        self.hint = 0  # packed engine hint on show, 0 = none
        self.message = ""
        self.message_cards = [0, 0]
        self.changes = 0  # bumped on every game change (for saves)

    # ------------------------------------------------------------- messages
    def say(self, text, c1=0, c2=0, hint=0):
        """Put ``text`` on the message line, its "%c"s cards ``c1`` and ``c2``; ``hint`` (a packed
        engine hint, 0 none) is the move it speaks of, ringed on the table."""
        self.message = text
        self.message_cards[0] = c1
        self.message_cards[1] = c2
        self.hint = hint

    def tell(self, i, c1=0, c2=0):
        """Say ``words.TEXT[i]``."""
        self.say(words.TEXT[i], c1, c2)

    def _refused(self, code, card=0, other=0):
        self.event = "refuse"
        self.say(words.refusal(code), card, other)

    # -------------------------------------------------------------- actions
    def _play(self, place, f):
        g = self.game
        card = g.card_at(place)
        code = g.play_auto(place) if f < 0 else g.play(place, f)
        if code == engine.OK:
            self.selected = NONE
            self.event = "place"
            self.after_move()
        elif code == engine.R_NO_FIT:
            self._refused(code, card, g.foundation_card(f))
        elif code == engine.R_FOUNDATION_DONE:
            self._refused(code, g.foundation_card(f))
        else:
            self._refused(code, card)

    def _park(self, slot):
        code = self.game.park(slot)
        if code == engine.OK:
            self.selected = NONE
            self.event = "place"
            self.after_move()
        else:
            self._refused(code)

    def _stock(self):
        g = self.game
        code = g.turn()
        if code == engine.R_STOCK_EMPTY:
            code = g.redeal()
            if code == engine.OK:
                self.event = "redeal"  # said by the status line's pass and the stock's new count: a
                # message would cost the first turn after it its clearing (6,240 pixels at 320x240)
        if code == engine.OK:
            self.after_move()
        else:
            self._refused(code)

    def after_move(self):
        """Count a change; with autoplay on, play every card that fits with no choice to make
        (``Game.sure_play``: no search, so a key stays quick under classic rules too)."""
        self.changes += 1
        if self.autoplay:
            g = self.game
            h = g.sure_play()
            while h:
                g.act(h)
                if not self.event:
                    self.event = "place"
                h = g.sure_play()
        self.check_over()

    def undo(self, redo=False):
        """Take the last action back (``redo``: do the last one taken back again; one method for
        both, as a method's code is heap on the board)."""
        code = self.game.redo() if redo else self.game.undo()
        if code == engine.OK:
            self.changes += 1
            self.selected = NONE
            self.tell(TEXT_REDONE if redo else TEXT_UNDONE)
            if redo:
                self.check_over()
            elif self.mode == OVER:
                self.mode = PLAY
        else:
            self._refused(code)

    def set_autoplay(self, on):
        """Autoplay on or off (the menu's switch); turned on, it plays what fits at once."""
        self.autoplay = on
        if on:
            self.after_move()

    def restart(self):
        """The same deal again, under its own rules (an order game: undone to its start)."""
        g = self.game
        if g.deal:
            self.new_deal(g.deal, g.rules, self.winnable)
        else:
            while g.moves:
                g.undo()
            self.changes += 1
            self.tell(TEXT_RESTARTED)

    def check_over(self):
        """To the won/lost panel once the game is over."""
        if self.game.status() != engine.PLAYING:
            self.selected = NONE
            self.mode = OVER

    def new_deal(self, deal, rules=None, winnable=None):
        """Deal ``deal`` in place under ``rules`` (None: the ruleset chosen for the next deal);
        ``winnable`` True if it is known to be in the winnable table (None: look it up)."""
        g = self.game
        if rules is None:
            rules = self.rules
        g.new_deal(deal, rules=rules)
        self.winnable = _is_winnable(deal, rules) if winnable is None else winnable
        self.changes += 1
        self.selected = NONE
        self.mode = PLAY
        self.event = "deal"
        self.say(words.TEXT[TEXT_WINNABLE_DEAL if self.winnable else TEXT_DEAL] % deal)
        if self.autoplay:
            self.after_move()
        self.check_over()
