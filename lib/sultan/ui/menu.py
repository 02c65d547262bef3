# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The menu: its items, their labels in the language in use, and which line is marked.

The controller imports it in the pause after the first key (``Controller.idle``), or when the
menu is wanted before that (``Controller.open(MENU)``), and keeps it as ``Controller.menu``.  Items
are numbers (M_*); a menu shows ``items``, a tuple of them in ``MENU_ORDER``'s order, the sound
and light switches only where the board has them.  Labels come from
``sultan.ui.words.menu_items()``.  ``Menu.view`` gives the lines the screen draws.  What
choosing an item does is ``sultan.ui.choices``, loaded later: the first open need not wait for it.
"""

from sultan import const
from sultan.ui import keys, words
from sultan.ui.lines import MENU_TEXT_OFF, MENU_TEXT_ON, MENU_TEXT_RESET_SURE
from sultan.ui.modes import MENU, PLAY

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


class Menu:
    """Which line is marked, and the items' labels on a ``Controller``."""

    def __init__(self, sound):
        self.items = tuple(m for m in MENU_ORDER if sound or (m != M_SOUND and m != M_LIGHTS))
        self.index = 0  # the marked line (the menu opens where it was left)
        self.top = 0  # the first line on show (``show`` scrolls it)
        self.page_top = 0  # the first line on show of the page opened (UP and DOWN scroll it)
        self.sure = False  # Reset statistics asked once: the next A erases, any other key keeps them
        words.menu_items()  # the labels, read with it (in the controller's pause) and not at the
        # first open: the words file and 18 strs took 10 ms on the PyBadge's 9.1.1

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
            ctrl.say(words.menu_text()[MENU_TEXT_RESET_SURE])
        elif key == keys.A:
            ctrl.choose(self.items[self.index])

    def page_view(self, lines, n):
        """The at most ``n`` of a page's ``lines`` on show: from ``page_top``, scrolled no further
        than the page's last line at the bottom."""
        top = self.page_top = min(self.page_top, max(len(lines) - n, 0))
        return lines[top:top + n]

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
