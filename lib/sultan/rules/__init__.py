# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The rules: cards, the deal generator, the table, the game and its canonical player.

Pure Python over bytearrays; imports nothing from ``sultan.ui`` or ``sultan.saves``
and nothing of displayio, so the same files run on CPython, MicroPython and CircuitPython.
"""

from sultan import const

# The numbers of an action, here at the rules' base so that each module can import them: the
# engine re-exports them; the player (sultan.rules.hint), which the engine imports, and the save
# record read them here.  The kinds: in the move log (kind | flags, place << 4 | foundation) and
# in a hint or packed action (kind << 8 | place << 4 | foundation; 0 = no move left).
OK = const(0)  # an action done (the engine's R_* codes say why one was refused)

A_TURN = const(1)
A_PLAY = const(2)
A_REDEAL = const(3)
A_PARK = const(4)  # classic rules: talon top to an empty divan slot

KIND = const(0x0F)  # a move log entry's first byte: its kind in these bits, the rest are flags

MAX_ACTIONS = const(400)  # the move log's size; a seed-rules game needs at most 364

NO_SAFE_MOVE = const(0xF00)  # safe_hint(): the game goes on, but no move was found that keeps it winnable

# The game's status.
PLAYING = const(0)
WON = const(1)
LOST = const(2)
