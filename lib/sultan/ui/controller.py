# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Button presses to engine actions, plus the cursor, the selection and what the screen shows.

Knows nothing of displayio or pins: ``Controller.press(key)`` changes the game and the
controller's own state (``cursor``, ``selected``, ``mode``, ``message`` ...), and the screen
draws whatever that state is, its words from ``sultan.ui.words``.  The actions themselves
(play, turn, undo, new deal ... and what the message line says of them) are its base class,
``sultan.ui.actions.Actions``; here is which key does what in which mode.

Controls (key numbers from ``sultan.ui.keys``): the D-pad walks the cursor over the places
(``layout.GRID``, wrapping, skipping gaps); A on a divan card or the talon selects it, A on it
again sends it home, A on a foundation plays the selected card there, A on the stock turns a
card (or redeals); B cancels a selection, else undoes; START turns from anywhere; SELECT opens
the menu.

Rarely used parts are imported when first wanted: the menu (``sultan.ui.menu``, in the pause
after the first key, and what choosing does, ``sultan.ui.choices``, both then kept),
the digit editor (``sultan.ui.deal_editor``, forgotten when it closes) and the winnable-deal
table (``sultan.rules.winnable``, forgotten after each lookup), so the board's heap holds
them only while they are in use.

For the main loop: ``event`` names what the last key did, for ``sultan.ui.sound`` ("place",
"refuse", "redeal", "win", "lose", "deal" or ""); ``settings()`` packs the menu's switches
and the language into the save record's bits (``apply_settings`` unpacks them: the menu turns
a switch over that way); ``stats`` is the store's ``sultan.saves.stats.Stats`` (or None).
"""

from sultan import forget
from sultan.rules import engine
from sultan.ui import keys, words
from sultan.ui.actions import Actions
from sultan.ui.layout import COLS, F0, GRID, NONE, ROWS, STOCK, SULTAN_PLACE, TALON
from sultan.ui.lines import TEXT_SELECT_FIRST
from sultan.ui.modes import DEAL, MENU, OVER, PLAY
from sultan.ui.switches import (  # noqa: F401  (settings() bits, re-exported)
    S_DIM_OFF,
    S_FOUR_COLOUR,
    S_LIGHTS_OFF,
    S_MOTION_OFF,
    S_RULES_SHIFT,
    S_RUSSIAN,
    S_SOUND_OFF,
)

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


class Controller(Actions):
    """The game as the buttons see it."""

    def __init__(self, game, rand_deal=None, sound=False, stats=None, settings=None):
        Actions.__init__(self, game, rand_deal)
        self.has_sound = sound  # the board can sound and light: the menu shows those switches
        self.stats = stats  # sultan.saves.stats.Stats kept by the save store, None without one
        self.sound_on = True
        self.lights_on = True
        self.motion_on = True
        self.four_colour = False  # diamonds and clubs in colours of their own (the screen's palette)
        self.dim_on = True  # the backlight dims and goes off while no key comes (sultan.app)
        self.lang = words.EN
        self.cursor = 0  # a place code (layout.GRID)
        self.menu = None  # sultan.ui.menu.Menu once wanted (always while the menu or a page is up)
        self.pressed = False  # a key came since start (``idle`` makes the menu after it)
        self.editor = None  # sultan.ui.deal_editor.DealEditor while the digit editor is up (its
        # digits, pos and number(); sultan.ui.choices opens it)
        if settings is None:
            self.set_language(words.EN)
        else:
            self.apply_settings(settings)
        self.check_over()

    # ------------------------------------------------------------ settings
    def settings(self):
        """The menu's switches and the language as a small int (saved with the game)."""
        return ((0 if self.sound_on else S_SOUND_OFF) | (0 if self.lights_on else S_LIGHTS_OFF)
                | self.rules << S_RULES_SHIFT | (S_RUSSIAN if self.lang == words.RU else 0)
                | (0 if self.motion_on else S_MOTION_OFF) | (S_FOUR_COLOUR if self.four_colour else 0)
                | (0 if self.dim_on else S_DIM_OFF))

    def apply_settings(self, bits):
        self.sound_on = not bits & S_SOUND_OFF
        self.lights_on = not bits & S_LIGHTS_OFF
        self.motion_on = not bits & S_MOTION_OFF
        self.four_colour = bits & S_FOUR_COLOUR != 0
        self.dim_on = not bits & S_DIM_OFF
        self.rules = settings_rules(bits)
        self.set_language(words.RU if bits & S_RUSSIAN else words.EN)

    def set_language(self, lang):
        """Show every word in ``lang`` (sultan.ui.words.EN or RU) from now on."""
        if words.LANG != lang or words.TEXT is None:
            words.use(lang)
        self.lang = lang

    # ---------------------------------------------------------------- menu
    def choose(self, item):
        """Do menu item ``item`` (a ``sultan.ui.menu`` M_* number)."""
        self.open(MENU)  # (the menu made, if a caller chooses before it was ever up)
        self.mode = PLAY
        from sultan.ui import choices  # (kept once loaded)

        choices.choose(self, item)
        if self.mode == PLAY:
            self.check_over()

    def open(self, mode, editor=None):
        """Put up the menu, a page (``mode``: ``sultan.ui.modes``) or the digit editor ``editor``
        (DEAL); PLAY closes them: back to the table, or to the won/lost panel (``press`` lets the
        editor go).  The menu is made the first time (``menu``: the screen draws it; it has the keys
        of the pages it opens).  One method for opening and closing: a method's code is heap on the
        board."""
        if mode == PLAY:
            self.mode = PLAY
            self.check_over()
            return
        if self.menu is None:
            from sultan.ui.menu import Menu

            self.menu = Menu(self.has_sound)
        self.mode = mode
        self.editor = editor

    def idle(self):
        """A pause between keys.  While the menu is up, what its first open did not need: its words
        (``words.menu_text``), what choosing does (``sultan.ui.choices``) and the pages' module a
        choice may open (``sultan.ui.pages``: its import took 15 ms of the first page's 92 on the
        PyBadge).  After the first key, the menu itself, so that the first SELECT draws as any other
        (the import and the labels took 30 of its 80 ms on the PyBadge's 9.1.1)."""
        if self.mode == MENU:
            words.menu_text()
            from sultan.ui import choices, pages  # noqa: F401  (kept, as at the first choice and page)
        elif self.menu is None and self.pressed:
            from sultan.ui.menu import Menu

            self.menu = Menu(self.has_sound)

    # -------------------------------------------------------------- keys
    def press(self, key):
        """Handle one key press; returns True (every press redraws)."""
        self.hint = 0
        self.event = ""
        self.pressed = True
        g = self.game
        deal = g.deal
        was = g.status()
        mode = self.mode
        if mode == PLAY:
            self.message = ""
            self._press_play(key)
        elif mode == DEAL:
            self.editor.press(self, key)
        elif mode == OVER:
            self._press_over(key)
        else:  # the menu, or a page it opened: the menu has their keys (made by ``open``)
            self.menu.press(self, key)
        if self.mode != DEAL and self.editor is not None:
            self.editor = None
            forget("sultan.ui.deal_editor")
        now = g.status()
        if now != was and was == engine.PLAYING and g.deal == deal and g.moves:
            self.event = "win" if now == engine.WON else "lose"
        return True

    def _press_play(self, key):
        if key in _STEP:
            self.cursor = move(self.cursor, key)
        elif key == keys.A:
            self._press_a()
        elif key == keys.B:
            if self.selected != NONE:
                self.selected = NONE
            else:
                self.undo()
        elif key == keys.START:
            self.selected = NONE
            self._stock()
        elif key == keys.SELECT:
            self.selected = NONE
            self.open(MENU)
        if self.game.status() != engine.PLAYING:
            self.check_over()

    def _press_a(self):
        g = self.game
        p = self.cursor
        if p == STOCK:
            self.selected = NONE
            self._stock()
        elif p >= F0:
            if self.selected == NONE:
                self.event = "refuse"
                self.tell(TEXT_SELECT_FIRST)
            else:
                self._play(self.selected, p - F0)
        elif p == self.selected:
            self._play(p, -1)
        elif self.selected == TALON and p < TALON and not g.card_at(p) and not g.refill:
            self._park(p)
        elif g.card_at(p):
            self.selected = p  # said by its blue mark alone: a message would cost a select
            # and the play after it 3,000 pixels each at 320x240 (~20 ms on the Pico)
        else:
            self.selected = NONE
            self._refused(engine.R_EMPTY)

    def _press_over(self, key):
        if key == keys.A:
            self.new_deal(self.rand_deal())
        elif key == keys.START:
            self.restart()
        elif key == keys.B:
            self.undo()
        elif key == keys.SELECT:
            self.open(MENU)
