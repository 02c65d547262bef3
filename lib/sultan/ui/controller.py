"""Button presses to engine actions, plus the cursor, selection and menus.

Knows nothing of displayio or pins: ``Controller.press(key)`` changes the game
and the controller's own state (``cursor``, ``selected``, ``mode``, ``message``
...), and the screen draws whatever that state is.

Controls (key numbers from ``sultan.keys``): the D-pad walks the cursor over
the places (``layout.GRID``, wrapping, skipping gaps); A on a divan card or the
talon selects it, A on it again sends it home, A on a foundation plays the
selected card there, A on the stock turns a card (or redeals); B cancels a
selection, else undoes; START turns from anywhere; SELECT opens the menu.

For the main loop: ``event`` names what the last key did, for ``sultan.ui.sound``
("place", "refuse", "redeal", "win", "lose", "deal" or ""); ``settings()``
packs the menu's switches into the save record's bits (``apply_settings``
unpacks them); ``stats`` is the store's ``sultan.stats.Stats`` (or None).
"""

from sultan import const
from sultan.rules import engine
from sultan.ui import keys
from sultan.ui.layout import COLS, F0, GRID, NONE, ROWS, STOCK, SULTAN_PLACE, TALON
from sultan.ui.words import REFUSALS

PLAY = const(0)
MENU = const(1)
DEAL = const(2)
RULES_PAGE = const(3)
OVER = const(4)
STATS_PAGE = const(5)

# Menu items by number (M_*); a controller's menu is ``items``, a tuple of these numbers.
MENU_ITEMS = ("New random deal", "Choose deal number", "Restart deal", "Undo", "Redo",
              "Hint", "Autoplay", "Rules", "Winnable deal", "Ruleset", "Statistics", "Sound", "Lights")
M_NEW = const(0)
M_CHOOSE = const(1)
M_RESTART = const(2)
M_UNDO = const(3)
M_REDO = const(4)
M_HINT = const(5)
M_AUTO = const(6)
M_RULES = const(7)
M_WINNABLE = const(8)
M_RULESET = const(9)
M_STATS = const(10)
M_SOUND = const(11)
M_LIGHTS = const(12)
MENU_ORDER = (M_NEW, M_WINNABLE, M_CHOOSE, M_RESTART, M_UNDO, M_REDO, M_HINT, M_AUTO, M_RULESET, M_STATS,
        M_SOUND, M_LIGHTS, M_RULES)

# settings() bits (saved in the record's flags byte, see sultan.saves.record)
S_SOUND_OFF = const(1)
S_LIGHTS_OFF = const(2)
S_RULES_SHIFT = const(2)  # bits 2-3: the ruleset of the next deal

DIGITS = const(9)

# Direction keys as (dcol, drow).
_STEP = {keys.RIGHT: (1, 0), keys.LEFT: (-1, 0), keys.DOWN: (0, 1), keys.UP: (0, -1)}


def stops(place):
    """True for a place the cursor can rest on."""
    return place != NONE and place != SULTAN_PLACE


def move(place, key):
    """Where the cursor goes from ``place`` on a direction key (wraps, skips gaps)."""
    dc, dr = _STEP[key]
    i = GRID.index(place)
    col = i % COLS
    row = i // COLS
    for _ in range(COLS + ROWS):
        col = (col + dc) % COLS
        row = (row + dr) % ROWS
        p = GRID[row * COLS + col]
        if stops(p):
            return p
    return place


def settings_rules(bits):
    """The next deal's ruleset in ``settings()`` bits (an unknown one reads as seed)."""
    rules = bits >> S_RULES_SHIFT & 3
    return rules if rules < len(engine.RULES_NAMES) else engine.RULES_SEED


def _winnable(deal, rules):
    """True if ``deal`` is in the shipped table of known-winnable deals of ``rules``."""
    if not deal:
        return False
    try:
        from sultan.rules import winnable

        return winnable.is_winnable(deal, rules)
    except (ImportError, OSError, ValueError, MemoryError):  # no table on this build: no mark
        return False


def _pick_winnable(r, rules):
    try:
        from sultan.rules import winnable

        return winnable.random_deal(r, rules)
    except (ImportError, OSError, ValueError, MemoryError):
        return 0


def random_deal_number():
    """A deal number drawn at random (1 .. MAX_DEAL)."""
    try:
        import random

        return random.randint(1, engine.MAX_DEAL)
    except ImportError:  # pragma: no cover - every port has random
        import time

        return int(time.monotonic() * 1000) % engine.MAX_DEAL + 1


class Controller:
    """The game as the buttons see it."""

    def __init__(self, game, rand_deal=None, sound=False, stats=None, settings=None):
        self.game = game
        self.rand_deal = rand_deal or random_deal_number
        # The menu: the sound and light switches only where there is something to switch.
        self.items = tuple(m for m in MENU_ORDER if sound or (m != M_SOUND and m != M_LIGHTS))
        self.stats = stats  # sultan.stats.Stats kept by the save store, None without one
        self.rules = game.rules  # the ruleset of the next deal
        self.sound_on = True
        self.lights_on = True
        self.event = ""  # what the last key did, for sultan.ui.sound
        self.winnable = _winnable(game.deal, game.rules)  # looked up once per deal
        self.cursor = 0  # a place code (layout.GRID)
        self.selected = NONE
        self.mode = PLAY
        self.menu_index = 0
        self.digits = bytearray(DIGITS)
        self.digit_pos = DIGITS - 1
        self.autoplay = False
        self.hint = 0  # packed engine hint on show, 0 = none
        self.message = ""
        self.message_cards = [0, 0]
        self.changes = 0  # bumped on every game change (for saves)
        if settings is not None:
            self.apply_settings(settings)
        self._check_over()

    # ------------------------------------------------------------ settings
    def settings(self):
        """The menu's switches as a small int (saved with the game, see sultan.saves.record)."""
        return ((0 if self.sound_on else S_SOUND_OFF) | (0 if self.lights_on else S_LIGHTS_OFF)
                | self.rules << S_RULES_SHIFT)

    def apply_settings(self, bits):
        self.sound_on = not bits & S_SOUND_OFF
        self.lights_on = not bits & S_LIGHTS_OFF
        self.rules = settings_rules(bits)

    def menu_label(self, i):
        """The text of line ``i`` of the menu."""
        m = self.items[i]
        item = MENU_ITEMS[m]
        if m == M_AUTO:
            return item + (": on" if self.autoplay else ": off")
        if m == M_SOUND:
            return item + (": on" if self.sound_on else ": off")
        if m == M_LIGHTS:
            return item + (": on" if self.lights_on else ": off")
        if m == M_RULESET:
            return item + ": " + engine.RULES_NAMES[self.rules]
        return item

    def menu_at(self, item):
        """Where menu item ``item`` (an M_* number) is in ``items``; -1 if not there."""
        for i in range(len(self.items)):
            if self.items[i] == item:
                return i
        return -1

    # ------------------------------------------------------------- messages
    def say(self, text, c1=0, c2=0):
        self.message = text
        self.message_cards[0] = c1
        self.message_cards[1] = c2

    def _refused(self, code, card=0, other=0):
        self.event = "refuse"
        self.say(REFUSALS[code] if code < len(REFUSALS) else "refused (%d)" % code, card, other)

    # -------------------------------------------------------------- actions
    def press(self, key):
        """Handle one key press; returns True (every press redraws)."""
        self.hint = 0
        self.event = ""
        g = self.game
        deal = g.deal
        was = g.status()
        mode = self.mode
        if mode == PLAY:
            self.message = ""
            self._press_play(key)
        elif mode == MENU:
            self._press_menu(key)
        elif mode == DEAL:
            self._press_deal(key)
        elif mode == RULES_PAGE or mode == STATS_PAGE:
            self.mode = PLAY
            self._check_over()  # back to the won/lost panel if the game is over
        else:
            self._press_over(key)
        now = g.status()
        if now != was and was == engine.PLAYING and g.deal == deal and g.moves:
            self.event = "win" if now == engine.WON else "lose"
        return True

    def _press_play(self, key):
        g = self.game
        if key in _STEP:
            self.cursor = move(self.cursor, key)
        elif key == keys.A:
            self._press_a()
        elif key == keys.B:
            if self.selected != NONE:
                self.selected = NONE
            else:
                self._undo()
        elif key == keys.START:
            self.selected = NONE
            self._stock()
        elif key == keys.SELECT:
            self.selected = NONE
            self.mode = MENU
        if g.status() != engine.PLAYING:
            self._check_over()

    def _press_a(self):
        g = self.game
        p = self.cursor
        if p == STOCK:
            self.selected = NONE
            self._stock()
        elif p >= F0:
            if self.selected == NONE:
                self.event = "refuse"
                self.say("select a card first")
            else:
                self._play(self.selected, p - F0)
        elif p == self.selected:
            self._play(p, -1)
        elif self.selected == TALON and p < TALON and not g.card_at(p) and not g.refill:
            self._park(p)
        elif g.card_at(p):
            self.selected = p
            self.say("%c selected", g.card_at(p))
        else:
            self.selected = NONE
            self._refused(engine.R_EMPTY)

    def _play(self, place, f):
        g = self.game
        card = g.card_at(place)
        code = g.play_auto(place) if f < 0 else g.play(place, f)
        if code == engine.OK:
            self.selected = NONE
            self.event = "place"
            self._after_move()
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
            self._after_move()
        else:
            self._refused(code)

    def _stock(self):
        g = self.game
        code = g.turn()
        if code == engine.R_STOCK_EMPTY:
            code = g.redeal()
            if code == engine.OK:
                self.event = "redeal"
                self.say("redeal: pass %d of 3" % g.pass_no)
        if code == engine.OK:
            self._after_move()
        else:
            self._refused(code)

    def _after_move(self):
        self.changes += 1
        if self.autoplay:
            g = self.game
            while engine.hint_kind(g.hint()) == engine.A_PLAY:
                g.step()
                if not self.event:
                    self.event = "place"
        self._check_over()

    def _undo(self):
        code = self.game.undo()
        if code == engine.OK:
            self.changes += 1
            self.selected = NONE
            self.say("undone")
            if self.mode == OVER:
                self.mode = PLAY
        else:
            self._refused(code)

    def _redo(self):
        code = self.game.redo()
        if code == engine.OK:
            self.changes += 1
            self.selected = NONE
            self.say("redone")
            self._check_over()
        else:
            self._refused(code)

    def _check_over(self):
        if self.game.status() != engine.PLAYING:
            self.selected = NONE
            self.mode = OVER

    def show_hint(self):
        """Put the engine's hint on show (the screen rings its places)."""
        g = self.game
        h = g.hint()
        self.hint = h
        k = engine.hint_kind(h)
        if k == engine.A_PLAY:
            self.say("hint: %c onto %c", g.card_at(engine.hint_place(h)),
                     g.foundation_card(engine.hint_foundation(h)))
        elif k == engine.A_TURN:
            self.say("hint: turn a stock card")
        elif k == engine.A_REDEAL:
            self.say("hint: redeal")
        elif k == engine.A_PARK:
            self.say("hint: park %c in the divan", g.card_at(TALON))
        else:
            self.say("no moves left")

    def new_deal(self, deal, rules=None):
        """Deal ``deal`` in place under ``rules`` (None: the ruleset chosen for the next deal)."""
        g = self.game
        if rules is None:
            rules = self.rules
        g.new_deal(deal, rules=rules)
        self.winnable = _winnable(deal, rules)
        self.changes += 1
        self.selected = NONE
        self.mode = PLAY
        self.event = "deal"
        if self.winnable:
            self.say("winnable deal %d" % deal)
        else:
            self.say("deal %d" % deal)
        if self.autoplay:
            self._after_move()
        self._check_over()

    # ---------------------------------------------------------------- menu
    def _press_menu(self, key):
        n = len(self.items)
        if key == keys.DOWN:
            self.menu_index = (self.menu_index + 1) % n
        elif key == keys.UP:
            self.menu_index = (self.menu_index - 1) % n
        elif key == keys.B or key == keys.SELECT:
            self.mode = PLAY
            self._check_over()
        elif key == keys.A:
            self.choose(self.items[self.menu_index])

    def choose(self, item):
        """Do menu item ``item`` (one of the M_* numbers)."""
        self.mode = PLAY
        g = self.game
        if item == M_NEW:
            self.new_deal(self.rand_deal())
        elif item == M_CHOOSE:
            d = g.deal if g.deal else 1
            for i in range(DIGITS - 1, -1, -1):
                self.digits[i] = d % 10
                d //= 10
            self.digit_pos = DIGITS - 1
            self.mode = DEAL
        elif item == M_RESTART:
            if g.deal:
                self.new_deal(g.deal, g.rules)  # the same game again, under its own rules
            else:
                while g.moves:
                    g.undo()
                self.changes += 1
                self.say("restarted")
        elif item == M_UNDO:
            self._undo()
        elif item == M_REDO:
            self._redo()
        elif item == M_HINT:
            self.show_hint()
        elif item == M_AUTO:
            self.autoplay = not self.autoplay
            self.say("autoplay on" if self.autoplay else "autoplay off")
            if self.autoplay:
                self._after_move()
        elif item == M_RULES:
            self.mode = RULES_PAGE
        elif item == M_STATS:
            self.mode = STATS_PAGE
        elif item == M_WINNABLE:
            d = _pick_winnable(self.rand_deal(), self.rules)
            if d:
                self.new_deal(d)
            else:
                self.say("no winnable deals here")
        elif item == M_RULESET:
            self.rules = (self.rules + 1) % len(engine.RULES_NAMES)
            name = engine.RULES_NAMES[self.rules]
            if not g.log_end and g.deal and g.rules != self.rules:
                self.new_deal(g.deal)  # nothing played yet: this deal, under the new rules
                self.say("%s rules: deal %d" % (name, g.deal))
            elif g.rules == self.rules:
                self.say("%s rules" % name)
            else:
                self.say("next deal: %s rules" % name)
        elif item == M_SOUND:
            self.sound_on = not self.sound_on
            self.say("sound on" if self.sound_on else "sound off")
        elif item == M_LIGHTS:
            self.lights_on = not self.lights_on
            self.say("lights on" if self.lights_on else "lights off")
        if self.mode == PLAY:
            self._check_over()

    def deal_number(self):
        n = 0
        for d in self.digits:
            n = n * 10 + d
        return n

    def _press_deal(self, key):
        p = self.digit_pos
        if key == keys.UP:
            self.digits[p] = (self.digits[p] + 1) % 10
        elif key == keys.DOWN:
            self.digits[p] = (self.digits[p] + 9) % 10
        elif key == keys.LEFT:
            self.digit_pos = (p - 1) % DIGITS
        elif key == keys.RIGHT:
            self.digit_pos = (p + 1) % DIGITS
        elif key == keys.B or key == keys.SELECT:
            self.mode = PLAY
            self._check_over()
        elif key == keys.A or key == keys.START:
            n = self.deal_number()
            if n < 1:
                self.say("deal 1 to 999999999")
            else:
                self.new_deal(n)

    def _press_over(self, key):
        if key == keys.A:
            self.new_deal(self.rand_deal())
        elif key == keys.START:
            self.choose(M_RESTART)
        elif key == keys.B:
            self._undo()
        elif key == keys.SELECT:
            self.mode = MENU
