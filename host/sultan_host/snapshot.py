"""The whole visible state of a game as a dict: what the CLI prints as JSON (see docs/cli.md)."""

from sultan.rules import cards
from sultan.rules.engine import FOUNDATIONS, RULES_NAMES, STATUS_NAMES


def snapshot(game):
    """A dict of the whole visible state of ``game``."""
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
