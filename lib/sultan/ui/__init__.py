# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The screen and controls: layout, sprites, text, the screen, the controller and menu, keys, sound.

Knows the rules (``sultan.rules``) but no pins: the board profiles hand it a display and keys.
"""
