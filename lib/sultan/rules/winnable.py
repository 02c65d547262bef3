# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Tables of winnable deal numbers, read from flash one entry at a time.

``lib/sultan/rules/winnable_seed.tbl`` lists deals the seed rules' canonical policy
wins (so a player who misses no chance wins them); ``winnable_classic.tbl``
deals the classic solver wins.  Both are made on the host by
``sultan_host.analysis.winnable_table`` (``make winnable``).

File format (little-endian)::

    0   4  magic b"SWIN"
    4   1  format version (1)
    5   1  rules (0 seed, 1 classic)
    6   1  entry width in bytes (3 or 4)
    7   1  reserved (0)
    8   4  count of entries
    12  4  fingerprint: CRC-32 of the generator's and rules' output for a few
           deals (host tests check it against the current engine)
    16  .. count entries, ascending deal numbers, ``width`` bytes each

Nothing loads the whole table: an entry is one seek and one small read, and
``contains`` is a binary search over seeks.  Runs on CPython, MicroPython and
CircuitPython; a missing or foreign file simply means "no table"
(``open_table`` returns None).
"""

from sultan import const, data_path

MAGIC = b"SWIN"
VERSION = const(1)
HEADER = const(16)
NAMES = ("winnable_seed.tbl", "winnable_classic.tbl")  # by rules number
# Each table's highest deal, written here by ``make winnable`` with the tables (host_tests check
# them against the files).  A deal above it needs no lookup, and nearly every random deal is
# above (of 999,999,999): sultan.ui.actions reads these two and imports this module only for a
# deal that may be in a table.  On the board the build folds them into actions' code
# (the build's folding pass, sultan_host.board.fold), so the start and a new deal skip
# this module: 21 ms on the Pico with CircuitPython 8.2.7.
LAST_SEED = const(440847)
LAST_CLASSIC = const(2037)



def table_path(rules=0):
    """Where the table for ``rules`` lives (beside this module)."""
    return data_path(globals().get("__file__"), "sultan/rules", NAMES[rules])


class WinnableTable:
    """An open table file.  ``count``, ``deal(i)``, ``pick(r)``, ``contains(deal)``; ``close()``."""

    def __init__(self, path):
        self.file = open(path, "rb")
        try:
            head = self.file.read(HEADER)
            if len(head) != HEADER or head[0:4] != MAGIC or head[4] != VERSION:
                raise ValueError("not a winnable-deals table")
            self.rules = head[5]
            self.width = head[6]
            if self.width not in (3, 4):
                raise ValueError("bad entry width")
            self.count = int.from_bytes(head[8:12], "little")
            self.fingerprint = int.from_bytes(head[12:16], "little")
        except Exception:
            self.file.close()
            raise
        self._buf = bytearray(self.width)

    def deal(self, i):
        """The ``i``-th deal number (0 <= i < count), ascending."""
        if not 0 <= i < self.count:
            raise IndexError("table index out of range")
        f = self.file
        f.seek(HEADER + i * self.width)
        b = self._buf
        if f.readinto(b) != self.width:
            raise OSError("table file is short")
        n = b[0] | b[1] << 8 | b[2] << 16
        if self.width == 4:
            n |= b[3] << 24
        return n

    def pick(self, r):
        """A deal chosen by the non-negative int ``r`` (pass a random number: a random winnable deal)."""
        return self.deal(r % self.count) if self.count else 0

    def contains(self, deal):
        """True if ``deal`` is in the table (binary search, about log2(count) reads)."""
        lo = 0
        hi = self.count - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            d = self.deal(mid)
            if d == deal:
                return True
            if d < deal:
                lo = mid + 1
            else:
                hi = mid - 1
        return False

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_table(rules=0, path=None):
    """The ``WinnableTable`` for ``rules`` (or the file ``path``), or None if there is none usable."""
    if not 0 <= rules < len(NAMES):
        return None
    try:
        t = WinnableTable(path or table_path(rules))
    except (OSError, ValueError):
        return None
    if t.rules != rules or not t.count:
        t.close()
        return None
    return t


def random_deal(r, rules=0):
    """A winnable deal chosen by the int ``r`` (e.g. from ``random.getrandbits(24)``); 0 if no table."""
    t = open_table(rules)
    if t is None:
        return 0
    try:
        return t.pick(r)
    finally:
        t.close()


def is_winnable(deal, rules=0):
    """True if ``deal`` is in the table of ``rules`` (False without a table)."""
    t = open_table(rules)
    if t is None:
        return False
    try:
        return t.contains(deal)
    finally:
        t.close()
