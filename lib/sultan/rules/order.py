# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Checking a stock order given by the player (``Game(order=...)``, an order game's save).

Set-up only, so ``Game.new_order`` imports it when first needed.
"""

from sultan.rules import cards


def stock_order_error(order):
    """None if ``order`` is exactly the 95 non-layout cards, else a reason string."""
    if len(order) != cards.STOCK_SIZE:
        return "need %d cards, got %d" % (cards.STOCK_SIZE, len(order))
    want = bytearray(64)
    for c in cards.STOCK_PACK:
        want[c] += 1
    for c in order:
        if not cards.is_card(c):
            return "not a card: %r" % (c,)
        if want[c] == 0:
            return "one %s too many (two decks minus the layout)" % cards.name(c)
        want[c] -= 1
    return None
