# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The menu: its items, their labels in the language in use, and what choosing one does.

The controller imports it when the menu is first wanted (``Controller.open(MENU)``: SELECT,
or a caller choosing an item) and keeps it as ``Controller.menu``: it is opened often.  Items
are numbers (M_*); a menu shows ``items``, a tuple of them in ``MENU_ORDER``'s order, the sound
and light switches only where the board has them.  Labels come from
``sultan.ui.words.menu_items()``.  ``Menu.view`` gives the lines the screen draws.
"""

from sultan import const, forget
from sultan.rules import engine
from sultan.rules.table import TALON
from sultan.ui import keys, words
from sultan.ui.lines import (
    MENU_TEXT_AUTO_OFF,
    MENU_TEXT_AUTO_ON,
    MENU_TEXT_COLOURS_FOUR,
    MENU_TEXT_COLOURS_TWO,
    MENU_TEXT_DIM_OFF,
    MENU_TEXT_DIM_ON,
    MENU_TEXT_HINT_PARK,
    MENU_TEXT_HINT_PLAY,
    MENU_TEXT_HINT_REDEAL,
    MENU_TEXT_HINT_TURN,
    MENU_TEXT_LANGUAGE,
    MENU_TEXT_LIGHTS_OFF,
    MENU_TEXT_LIGHTS_ON,
    MENU_TEXT_MOTION_OFF,
    MENU_TEXT_MOTION_ON,
    MENU_TEXT_NO_MOVES,
    MENU_TEXT_NO_SAFE_MOVE,
    MENU_TEXT_NO_WINNABLE,
    MENU_TEXT_OFF,
    MENU_TEXT_ON,
    MENU_TEXT_RESET_DONE,
    MENU_TEXT_RESET_SURE,
    MENU_TEXT_RULES_NEXT,
    MENU_TEXT_RULES_NOW,
    MENU_TEXT_RULES_SAME,
    MENU_TEXT_SOUND_OFF,
    MENU_TEXT_SOUND_ON,
)
from sultan.ui.modes import DEAL, MENU, PLAY, RULES_PAGE, STATS_PAGE
from sultan.ui.switches import (
    S_DIM_OFF,
    S_FOUR_COLOUR,
    S_LIGHTS_OFF,
    S_MOTION_OFF,
    S_RULES,
    S_RULES_SHIFT,
    S_SOUND_OFF,
)

MORE_ABOVE = "^"  # the scroll marks, at the menu's right edge
MORE_BELOW = "v"
MENU_INDENT = " "  # between the marker and a label

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
M_LANGUAGE = const(13)
M_MOTION = const(14)
M_COLOURS = const(15)
M_DIM = const(16)
M_RESET = const(17)
MENU_ORDER = (M_NEW, M_WINNABLE, M_CHOOSE, M_RESTART, M_UNDO, M_REDO, M_HINT, M_AUTO, M_RULESET, M_STATS,
              M_MOTION, M_COLOURS, M_SOUND, M_LIGHTS, M_DIM, M_LANGUAGE, M_RESET, M_RULES)


def _pick_winnable(r, rules):
    """A deal from the winnable table of ``rules`` picked by the int ``r`` (0: no table)."""
    try:
        from sultan.rules import winnable

        return winnable.random_deal(r, rules)
    except (ImportError, OSError, ValueError, MemoryError):
        return 0
    finally:
        forget("sultan.rules.winnable")


def _edit_deal(ctrl):
    """Open the digit editor at this deal's number (the controller forgets it when it closes)."""
    from sultan.ui.deal_editor import DealEditor

    ctrl.open(DEAL, DealEditor(ctrl.game.deal or 1))


def _tell(ctrl, i, c1=0, c2=0, hint=0):
    """Say line ``i`` of ``words.MENU_TEXT`` (ringing ``hint``'s places)."""
    ctrl.say(words.menu_text()[i], c1, c2, hint)


def _flip(ctrl, bit):
    """Turn over the switch of ``ctrl.settings()`` bit ``bit`` (S_SOUND_OFF ...)."""
    ctrl.apply_settings(ctrl.settings() ^ bit)


class Menu:
    """Which line is marked, and the items' labels and actions on a ``Controller``."""

    def __init__(self, sound):
        self.items = tuple(m for m in MENU_ORDER if sound or (m != M_SOUND and m != M_LIGHTS))
        self.index = 0  # the marked line (the menu opens where it was left)
        self.top = 0  # the first line on show (``show`` scrolls it)
        self.page_top = 0  # the first line on show of the page opened (UP and DOWN scroll it)
        self.sure = False  # Reset statistics asked once: the next A erases, any other key keeps them

    def at(self, item):
        """Where item ``item`` (an M_* number) is in ``items``; -1 if not there."""
        items = self.items
        for i in range(len(items)):
            if items[i] == item:
                return i
        return -1

    def label(self, ctrl, i):
        """The text of line ``i``: the item's name, and a switch's state."""
        m = self.items[i]
        text = words.menu_items()[m]
        if m == M_AUTO:
            on = ctrl.autoplay
        elif m == M_SOUND:
            on = ctrl.sound_on
        elif m == M_LIGHTS:
            on = ctrl.lights_on
        elif m == M_MOTION:
            on = ctrl.motion_on
        elif m == M_COLOURS:
            on = ctrl.four_colour
        elif m == M_DIM:
            on = ctrl.dim_on
        elif m == M_RULESET:
            return text + ": " + words.ruleset_name(ctrl.rules)
        else:
            return text
        return text + words.menu_text()[MENU_TEXT_ON if on else MENU_TEXT_OFF]

    def press(self, ctrl, key):
        """A key while the menu is up: UP/DOWN move (wrapping), A chooses, B or SELECT closes.  While
        a page it opened is up (Rules, Statistics): UP/DOWN scroll it, B or SELECT close it."""
        if ctrl.mode != MENU:
            if key == keys.DOWN:  # (page_view stops it at the page's end)
                self.page_top += 1
            elif key == keys.UP and self.page_top:
                self.page_top -= 1
            elif key == keys.B or key == keys.SELECT:
                self.page_top = 0
                ctrl.open(PLAY)
            return
        n = len(self.items)
        sure, self.sure = self.sure, False
        if key == keys.DOWN:
            self.index = (self.index + 1) % n
        elif key == keys.UP:
            self.index = (self.index - 1) % n
        elif key == keys.B or key == keys.SELECT:
            ctrl.open(PLAY)
        elif key == keys.A and self.items[self.index] == M_RESET and not sure:
            self.sure = True  # the menu stays up: a second A erases
            _tell(ctrl, MENU_TEXT_RESET_SURE)
        elif key == keys.A:
            ctrl.choose(self.items[self.index])

    def page_view(self, lines, n):
        """The at most ``n`` of a page's ``lines`` on show: from ``page_top``, scrolled no further
        than the page's last line at the bottom."""
        top = self.page_top = min(self.page_top, max(len(lines) - n, 0))
        return lines[top:top + n]

    def choose(self, ctrl, item):
        """Do item ``item`` (an M_* number) on ``ctrl``, whose menu has just closed."""
        if item == M_NEW:
            ctrl.new_deal(ctrl.rand_deal())
        elif item == M_WINNABLE:
            d = _pick_winnable(ctrl.rand_deal(), ctrl.rules)  # 0: no table
            if d:
                ctrl.new_deal(d, winnable=True)  # picked from the table
            else:
                _tell(ctrl, MENU_TEXT_NO_WINNABLE)
        elif item == M_CHOOSE:
            _edit_deal(ctrl)
        elif item == M_RESTART:
            ctrl.restart()
        elif item == M_UNDO:
            ctrl.undo()
        elif item == M_REDO:
            ctrl.undo(redo=True)
        elif item == M_HINT:
            self._hint(ctrl)
        elif item == M_AUTO:
            _tell(ctrl, MENU_TEXT_AUTO_OFF if ctrl.autoplay else MENU_TEXT_AUTO_ON)
            ctrl.set_autoplay(not ctrl.autoplay)
        elif item == M_RULESET:
            self._next_ruleset(ctrl)
        elif item == M_STATS:
            ctrl.open(STATS_PAGE)
        elif item == M_SOUND:
            _flip(ctrl, S_SOUND_OFF)
            _tell(ctrl, MENU_TEXT_SOUND_ON if ctrl.sound_on else MENU_TEXT_SOUND_OFF)
        elif item == M_LIGHTS:
            _flip(ctrl, S_LIGHTS_OFF)
            _tell(ctrl, MENU_TEXT_LIGHTS_ON if ctrl.lights_on else MENU_TEXT_LIGHTS_OFF)
        elif item == M_MOTION:
            _flip(ctrl, S_MOTION_OFF)
            _tell(ctrl, MENU_TEXT_MOTION_ON if ctrl.motion_on else MENU_TEXT_MOTION_OFF)
        elif item == M_COLOURS:
            _flip(ctrl, S_FOUR_COLOUR)
            # an ace of diamonds and of clubs show the colours
            _tell(ctrl, MENU_TEXT_COLOURS_FOUR if ctrl.four_colour else MENU_TEXT_COLOURS_TWO, 0x21, 0x31)
        elif item == M_DIM:
            _flip(ctrl, S_DIM_OFF)
            _tell(ctrl, MENU_TEXT_DIM_ON if ctrl.dim_on else MENU_TEXT_DIM_OFF)
        elif item == M_LANGUAGE:
            ctrl.set_language(words.EN if ctrl.lang == words.RU else words.RU)
            _tell(ctrl, MENU_TEXT_LANGUAGE)
        elif item == M_RULES:
            ctrl.open(RULES_PAGE)
        elif item == M_RESET:
            if ctrl.stats is not None:
                ctrl.stats.reset()  # the game's own records only: the store writes one with none
            _tell(ctrl, MENU_TEXT_RESET_DONE)

    def _next_ruleset(self, ctrl):
        """The next ruleset for new deals; a deal not yet touched is dealt again under it at once."""
        g = ctrl.game
        rules = (ctrl.rules + 1) % len(engine.RULES_NAMES)
        ctrl.apply_settings(ctrl.settings() & ~S_RULES | rules << S_RULES_SHIFT)
        name = words.ruleset_name(ctrl.rules)
        if not g.log_end and g.deal and g.rules != ctrl.rules:
            ctrl.new_deal(g.deal)  # nothing played yet: this deal, under the new rules
            ctrl.say(words.menu_text()[MENU_TEXT_RULES_NOW] % (name, g.deal))
        elif g.rules == ctrl.rules:
            ctrl.say(words.menu_text()[MENU_TEXT_RULES_SAME] % name)
        else:
            ctrl.say(words.menu_text()[MENU_TEXT_RULES_NEXT] % name)

    def _hint(self, ctrl):
        """Put the engine's hint on show: the message says it, the screen rings its places.

        Only a move known to keep the deal winnable (``Game.safe_hint``: under classic rules, as
        far as the lookahead sees); else the message says none was found, and nothing is ringed.
        """
        g = ctrl.game
        h = g.safe_hint()
        if h == engine.NO_SAFE_MOVE:
            _tell(ctrl, MENU_TEXT_NO_SAFE_MOVE)
            return
        k = engine.hint_kind(h)
        if k == engine.A_PLAY:
            _tell(ctrl, MENU_TEXT_HINT_PLAY, g.card_at(engine.hint_place(h)),
                  g.foundation_card(engine.hint_foundation(h)), h)
        elif k == engine.A_TURN:
            _tell(ctrl, MENU_TEXT_HINT_TURN, hint=h)
        elif k == engine.A_REDEAL:
            _tell(ctrl, MENU_TEXT_HINT_REDEAL, hint=h)
        elif k == engine.A_PARK:
            _tell(ctrl, MENU_TEXT_HINT_PARK, g.card_at(TALON), hint=h)
        else:
            _tell(ctrl, MENU_TEXT_NO_MOVES, hint=h)

    def view(self, ctrl, rows, cols):
        """The menu as the screen shows it: (its lines, the marked line's row), a window of at most
        ``rows`` lines that follows the marked line, on a screen ``cols`` text columns wide.

        A taller menu than the window (``Layout.menu_lines``) scrolls; "^" / "v" at the right
        say more lies above / below.  It is as wide as the widest page it leads to, so opening
        one moves nothing (see ``Panel.show``).
        """
        n = len(self.items)
        i = self.index
        top = self.top = min(max(self.top, i - rows + 1), i, max(n - rows, 0))
        end = min(top + rows, n)
        w = cols - 1 - len(MENU_INDENT) - len(MORE_ABOVE)  # a page's widest line
        lines = []
        for k in range(top, end):
            more = " "
            if k == top and top > 0:
                more = MORE_ABOVE
            elif k == end - 1 and end < n:
                more = MORE_BELOW
            label = self.label(ctrl, k)
            if len(label) > w:
                label = label[:w]
            # one new str a line (on CircuitPython each costs a walk over the interned strings)
            lines.append("%s%s%*s" % (MENU_INDENT, label, w - len(label) + 1, more))
        return lines, i - top
