# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The deal-number editor of the menu's "Choose deal number": nine digits, one of them changing.

The controller imports it when the editor opens and forgets it when the editor closes, so
the board's heap holds it only while it is on screen.  UP/DOWN change the digit (wrapping
9 -> 0), LEFT/RIGHT move along the digits (wrapping), A or START deal the number, B or
SELECT cancel.  Its panel text is ``sultan.ui.pages.deal_lines``.
"""

from sultan import const
from sultan.ui import keys
from sultan.ui.lines import TEXT_DEAL_RANGE
from sultan.ui.modes import PLAY

DIGITS = const(9)


class DealEditor:
    """``digits`` (a bytearray of DIGITS digits, most significant first) and ``pos``, the one changing."""

    def __init__(self, deal):
        self.digits = bytearray(DIGITS)
        for i in range(DIGITS - 1, -1, -1):
            self.digits[i] = deal % 10
            deal //= 10
        self.pos = DIGITS - 1

    def number(self):
        """The deal number the digits spell."""
        n = 0
        for d in self.digits:
            n = n * 10 + d
        return n

    def press(self, ctrl, key):
        """A key while the editor is up, on the controller ``ctrl``."""
        p = self.pos
        d = self.digits
        if key == keys.UP:
            d[p] = (d[p] + 1) % 10
        elif key == keys.DOWN:
            d[p] = (d[p] + 9) % 10
        elif key == keys.LEFT:
            self.pos = (p - 1) % DIGITS
        elif key == keys.RIGHT:
            self.pos = (p + 1) % DIGITS
        elif key == keys.B or key == keys.SELECT:
            ctrl.open(PLAY)
        elif key == keys.A or key == keys.START:
            n = self.number()
            if n < 1:
                ctrl.tell(TEXT_DEAL_RANGE)
            else:
                ctrl.new_deal(n)
