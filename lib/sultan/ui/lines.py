# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The place of each keyed line of the words files, by key: ``TEXT_<KEY>`` in ``words.TEXT``,
``MENU_TEXT_<KEY>`` in ``words.MENU_TEXT``.

Generated from words_en.txt by tools/word_lines.py (host/sultan_host/word_lines.py): do not
edit; run it again after changing the files' keys.  The board build folds these numbers into
the code that reads them, so this module is never imported on the board.
"""

from sultan import const

# [text]: lines of words.TEXT
TEXT_RULESET0 = const(0)
TEXT_RULESET1 = const(1)
TEXT_STATUS_LONG = const(2)
TEXT_STATUS_SHORT = const(3)
TEXT_STATUS_TINY = const(4)
TEXT_TAG_LONG = const(5)
TEXT_TAG_SHORT = const(6)
TEXT_SELECT_FIRST = const(7)
TEXT_REDEALS_LEFT = const(8)
TEXT_UNDONE = const(9)
TEXT_REDONE = const(10)
TEXT_RESTARTED = const(11)
TEXT_DEAL = const(12)
TEXT_WINNABLE_DEAL = const(13)
TEXT_DEAL_RANGE = const(14)
TEXT_SAVE_DAMAGED = const(15)
TEXT_REFUSED = const(16)

# [menutext]: lines of words.MENU_TEXT
MENU_TEXT_ON = const(0)
MENU_TEXT_OFF = const(1)
MENU_TEXT_HINT_PLAY = const(2)
MENU_TEXT_HINT_TURN = const(3)
MENU_TEXT_HINT_REDEAL = const(4)
MENU_TEXT_HINT_PARK = const(5)
MENU_TEXT_NO_MOVES = const(6)
MENU_TEXT_NO_SAFE_MOVE = const(7)
MENU_TEXT_NO_WINNABLE = const(8)
MENU_TEXT_AUTO_ON = const(9)
MENU_TEXT_AUTO_OFF = const(10)
MENU_TEXT_SOUND_ON = const(11)
MENU_TEXT_SOUND_OFF = const(12)
MENU_TEXT_LIGHTS_ON = const(13)
MENU_TEXT_LIGHTS_OFF = const(14)
MENU_TEXT_RULES_NOW = const(15)
MENU_TEXT_RULES_SAME = const(16)
MENU_TEXT_RULES_NEXT = const(17)
MENU_TEXT_LANGUAGE = const(18)
MENU_TEXT_MOTION_ON = const(19)
MENU_TEXT_MOTION_OFF = const(20)
MENU_TEXT_COLOURS_FOUR = const(21)
MENU_TEXT_COLOURS_TWO = const(22)
MENU_TEXT_DIM_ON = const(23)
MENU_TEXT_DIM_OFF = const(24)
MENU_TEXT_RESET_SURE = const(25)
MENU_TEXT_RESET_DONE = const(26)
