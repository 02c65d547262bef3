"""Words for the engine: refusal reasons, the JSON snapshot, order checks.

Kept apart from ``sultan.engine`` so the device loads them only when needed.
"""

from sultan import cards
from sultan.engine import FOUNDATIONS, RULES_NAMES, STATUS_NAMES

REASONS = (
    "ok",
    "no such place",
    "there is no card there",
    "that card does not fit on that foundation",
    "that foundation is complete",
    "that card fits on no foundation",
    "the stock is empty",
    "redeal only when the stock is empty",
    "no redeal left",
    "nothing to undo",
    "nothing to redo",
    "the game is over",
    "move log is full",
    "not under these rules",
    "that divan slot is taken",
)


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


def snapshot(game):
    """A dict of the whole visible state of ``game`` (see README, "CLI")."""
    name = cards.name
    return {
        "deal": game.deal,
        "rules": RULES_NAMES[game.rules],
        "status": STATUS_NAMES[game.status()],
        "pass": game.pass_no,
        "foundations": [name(game.foundation_card(f)) for f in range(FOUNDATIONS)],
        "divan": [name(c) if c else None for c in game.divan],
        "talon": [name(game.talon[i]) for i in range(game.talon_count)],
        "stock": [name(game.stock[i]) for i in range(game.stock_count - 1, -1, -1)],
        "placed": game.placed,
        "missed": game.missed,
        "moves": game.moves,
    }
