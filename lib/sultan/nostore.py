# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The store ``sultan.app`` uses when it is given none: nothing is loaded or kept.

In a module of its own, imported only when there is no store: a board with one (its NVM) never
holds this code.  Also the interface a store offers the app: subclass it.
"""


class NoStore:
    """The store when there is none: nothing is loaded or kept."""

    settings = 0  # the menu's switches, as Controller.settings() packs them
    stats = None  # a sultan.saves.stats.Stats where statistics are kept
    message = None  # damage found at load, shown once
    short_message = None

    def load(self):
        return None

    def save(self, game):
        pass

    def idle(self):
        pass

    def flush(self):
        return True

    def set_settings(self, bits, game):
        pass

    def take_message(self):
        return None
