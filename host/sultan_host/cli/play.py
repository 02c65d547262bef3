"""``play``: deal a game (or a range of them), optionally autoplay it, print it, and save it.

    python3 tools/sultan_cli.py play --deal 7 --auto --json
    python3 tools/sultan_cli.py play --deals 1-1000 --auto --json     # one JSON line per deal
    python3 tools/sultan_cli.py play --order "6D 3C ... 5D" --auto --stop-at-pass-end --json
    python3 tools/sultan_cli.py play --deal 7 --auto --save game.sav  # see cli/saves.py
    python3 tools/sultan_cli.py play --deal 8 --save game.sav --new   # over a game in progress: a loss
"""

from sultan.rules import cards
from sultan.rules.engine import RULES_NAMES, Game
from sultan.rules.order import stock_order_error

from sultan_host.args import Once, UsageError, clip, deal_number, deal_range
from sultan_host.cli import saves
from sultan_host.cli.report import emit
from sultan_host.progress import Progress


def add_parser(sub):
    play = sub.add_parser("play", help="deal a game (or a range of them) and optionally autoplay it")
    src = play.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", action=Once, help="deal number 1..999999999")
    src.add_argument("--deals", action=Once, help="range A-B: one line per deal (a JSON object with --json)")
    src.add_argument("--order", action=Once,
                     help="the 95 non-layout cards, stock top first, e.g. 'TH 2C ...' (10H for TH too)")
    play.add_argument("--auto", action="store_true", help="play the canonical policy to the end")
    play.add_argument("--stop-at-pass-end", action="store_true",
                      help="with --auto: stop when pass 1 has nothing left to do, before any redeal")
    play.add_argument("--json", action="store_true", help="print the state as JSON")
    play.add_argument("--rules", action=Once, choices=RULES_NAMES, default="seed",
                      help="seed (default: divan refilled from the stock) or classic (PySolFC's Sultan)")
    play.add_argument("--save", action=Once, metavar="FILE",
                      help="save the game (and the statistics) in FILE, as the simulator does; FILE must be "
                           "missing, empty or a save of ours")
    play.add_argument("--new", action="store_true",
                      help="with --save: replace a game in progress in FILE, recording it as a loss")
    return play


def card(word):
    """The card byte for a name: rank A23456789TJQK (or 10) and suit SHDC, e.g. TH or 10H."""
    name = "T" + word[2:] if word[:2] == "10" else word
    try:
        return cards.parse(name)
    except ValueError:
        raise UsageError("unknown card %r (want rank A23456789TJQK or 10, then suit SHDC: TH or 10H)"
                         % clip(word)) from None


def parse_order(text):
    """95 card names, stock top first -> bytes; UsageError on anything else."""
    order = bytes(card(w) for w in text.replace(",", " ").split())
    err = stock_order_error(order)
    if err:
        raise UsageError("bad --order: " + err)
    return order


def run(args, out):
    if args.stop_at_pass_end and not args.auto:
        raise UsageError("--stop-at-pass-end needs --auto")
    rules = RULES_NAMES.index(args.rules)
    if args.save is not None:
        if args.deals is not None:
            raise UsageError("--save needs --deal or --order, not --deals")
        saves.check(args.save, args.new)  # before any work: a file we may not write is refused now
    elif args.new:
        raise UsageError("--new needs --save")
    if args.deals is not None:
        lo, hi = deal_range(args.deals)
        done = Progress(hi - lo + 1, bar=False)  # how far an interrupted run got (cli.main says it)
        game = Game(deal=lo, rules=rules)
        for n in range(lo, hi + 1):
            game.new_deal(n)
            if args.auto:
                game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
            emit(game, args.json, out)
            done.add(1)  # a stop that lands between the two leaves one line more than it counts
        return 0
    if args.order is not None:
        game = Game(order=parse_order(args.order), rules=rules)
    else:
        game = Game(deal=deal_number(args.deal), rules=rules)
    if args.auto:
        game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
    if args.save is not None:
        saves.save_game(args.save, game, args.new)
    emit(game, args.json, out)
    return 0
