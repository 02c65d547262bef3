# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Statistics per ruleset: games played, won, lost, best cards placed, streaks, fewest moves to a win.

A game counts once, when it is decided: won, lost, or abandoned (a new game
started after at least one action counts as played and lost).  The figures are
saved inside every save record (see ``sultan.saves.record``), so they survive power
cuts under the same two-slot rule as the game.

Plain lists of small ints; runs on CPython, MicroPython and CircuitPython.  Reading rows back
is ``sultan.saves.reader.stats_rows``' (imported at power-on only: not in a board's heap after).
"""

from sultan import const

MAX_ROWS = const(4)  # rulesets kept (the engine has one, room for more)
ROW_BYTES = const(19)  # rules 1, played 3, won 3, lost 3, best placed 1, streak 3, best streak 3, fewest 2
ROW_BYTES_1 = const(17)  # a format-1 record's rows: no fewest moves
CAP = const(0xFFFFFF)  # counters are 3 bytes in the save record

# Row fields, in order.
RULES = const(0)
PLAYED = const(1)
WON = const(2)
LOST = const(3)
BEST_PLACED = const(4)
STREAK = const(5)
BEST_STREAK = const(6)
FEWEST = const(7)  # the fewest moves (Game.moves) to a win; 0: no win known
FIELDS = ("rules", "played", "won", "lost", "best_placed", "streak", "best_streak", "fewest_moves")


class Stats:
    """The figures of every ruleset played so far."""

    def __init__(self):
        self.rows = []  # [rules, played, won, lost, best_placed, streak, best_streak, fewest]

    def reset(self):
        """Forget every figure (the menu's Reset statistics); the store writes that at its next idle pass."""
        del self.rows[:]

    def row(self, rules, create=False):
        for r in self.rows:
            if r[RULES] == rules:
                return r
        if not create:
            return None
        if len(self.rows) >= MAX_ROWS:  # never happens with the known rulesets
            self.rows.pop(0)
        r = [rules, 0, 0, 0, 0, 0, 0, 0]
        self.rows.append(r)
        return r

    def record(self, rules, won, placed, moves=0):
        """Count one decided game of ``rules``: ``won`` or not, ``placed`` cards, in ``moves``."""
        r = self.row(rules, True)
        r[PLAYED] = min(CAP, r[PLAYED] + 1)
        if won:
            r[WON] = min(CAP, r[WON] + 1)
            r[STREAK] = min(CAP, r[STREAK] + 1)
            if r[STREAK] > r[BEST_STREAK]:
                r[BEST_STREAK] = r[STREAK]
            if moves and (moves < r[FEWEST] or not r[FEWEST]):
                r[FEWEST] = moves  # at most MAX_ACTIONS: fits its 2 bytes
        else:
            r[LOST] = min(CAP, r[LOST] + 1)
            r[STREAK] = 0
        if placed > r[BEST_PLACED]:
            r[BEST_PLACED] = min(255, placed)

    def get(self, rules):
        """A dict of the figures of ``rules`` (all zero if never played)."""
        r = self.row(rules) or [rules, 0, 0, 0, 0, 0, 0, 0]
        d = {}
        for i in range(len(FIELDS)):
            d[FIELDS[i]] = r[i]
        return d

    # ---------------------------------------------------------------- bytes
    def size(self):
        return 1 + ROW_BYTES * len(self.rows)

    def encode(self, buf, i):
        """Write the rows into ``buf`` at ``i``; returns the index after them."""
        buf[i] = len(self.rows)
        i += 1
        for r in self.rows:
            buf[i] = r[RULES]
            i += 1
            for k in (PLAYED, WON, LOST):
                i = put(buf, i, r[k], 3)
            buf[i] = r[BEST_PLACED]
            i += 1
            i = put(buf, i, r[STREAK], 3)
            i = put(buf, i, r[BEST_STREAK], 3)
            i = put(buf, i, r[FEWEST], 2)
        return i


def put(buf, i, value, n):
    """Write ``value`` little-endian in ``n`` bytes at ``buf[i]``; returns ``i + n``."""
    for _ in range(n):
        buf[i] = value & 0xFF
        value >>= 8
        i += 1
    return i


def get(data, i, n):
    """The little-endian ``n``-byte value at ``data[i]`` (n <= 3: always below 2**30)."""
    v = 0
    for k in range(n - 1, -1, -1):
        v = v << 8 | data[i + k]
    return v
