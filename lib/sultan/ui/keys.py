# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The eight buttons and their names.

Key numbers are the PyBadge's (``keypad.ShiftRegisterKeys``, 8 keys):
0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.

A key source is anything with ``.events.get()`` returning ``None`` or an object
with ``.key_number`` and ``.pressed`` (a ``keypad.Event``, say).  Nothing here
touches pins: the firmware's board profile builds the real ``keypad`` object;
the host's ``sultan_host.scripted`` plays scripts of keys for tests and tools.
"""

from sultan import const

B = const(0)
A = const(1)
START = const(2)
SELECT = const(3)
RIGHT = const(4)
DOWN = const(5)
UP = const(6)
LEFT = const(7)

NAMES = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")
