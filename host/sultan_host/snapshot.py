"""Host views of the device's state: a game as the CLI's JSON dict, statistics as short lines."""

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


def stats_summary(stats, rules):
    """Three short lines of ``stats`` (a sultan.saves.stats.Stats) for ``rules``."""
    from sultan.saves.stats import BEST_PLACED, BEST_STREAK, FEWEST, LOST, PLAYED, STREAK, WON

    r = stats.row(rules) or [rules, 0, 0, 0, 0, 0, 0, 0]
    pct = (100 * r[WON] // r[PLAYED]) if r[PLAYED] else 0
    return (
        "played %d  won %d (%d%%)" % (r[PLAYED], r[WON], pct),
        "lost %d  best placed %d" % (r[LOST], r[BEST_PLACED]),
        "streak %d  best %d  fewest moves %s" % (r[STREAK], r[BEST_STREAK], r[FEWEST] or "-"),
    )
