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

# A held arrow repeats (``sultan.app.run``): a key like any other after REPEAT_DELAY_MS, then every
# REPEAT_MS until any other key event.  400 ms is well beyond a deliberate tap (100-200 ms), so a
# press never repeats by accident; 100 ms, ten places a second, is as fast as the eye follows the
# cursor and still lets go on the place wanted (a cursor move draws in 9-16 ms on the Pico).
REPEAT_DELAY_MS = const(400)
REPEAT_MS = const(100)
REPEATS = const(0xF0)  # the keys that repeat, bit k for key k: RIGHT DOWN UP LEFT; never A B START SELECT
