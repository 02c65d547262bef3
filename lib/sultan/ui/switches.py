# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The bits of ``Controller.settings()``: the menu's switches, the next deal's ruleset and the
language, saved in the record's flags byte (``sultan.saves.record``); every default is 0.

Numbers only, so the menu turns a switch over without importing the controller (which imports
the menu); as with ``sultan.ui.modes``, the board build folds them into each reader, so this
module is never imported on the board.
"""

from sultan import const

S_SOUND_OFF = const(1)
S_LIGHTS_OFF = const(2)
S_RULES_SHIFT = const(2)  # bits 2-3: the ruleset of the next deal
S_RULES = const(12)
S_RUSSIAN = const(16)  # the language: 0 English, 1 Russian
S_MOTION_OFF = const(32)  # cards that travel (sultan.ui.motion): on unless this bit is set
S_FOUR_COLOUR = const(64)  # diamonds and clubs in colours of their own (sultan.ui.sprites.FOUR_COLOURS)
S_DIM_OFF = const(128)  # the screen stays lit while no key comes (sultan.app dims it unless this is set)
