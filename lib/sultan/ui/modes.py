# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The controller's modes: what the keys drive and the screen shows (``Controller.mode``).

Numbers only, so the screen, the menu and the motion read them without importing the
controller; the board build folds them into each reader (host/sultan_host/board/fold.py), so
this module is never imported on the board.  Each mode's key help is its line of the words
files' [help] section, in this order (host_tests/ui/test_words.py checks the keys).
"""

from sultan import const

PLAY = const(0)
MENU = const(1)
DEAL = const(2)
RULES_PAGE = const(3)
OVER = const(4)
STATS_PAGE = const(5)
