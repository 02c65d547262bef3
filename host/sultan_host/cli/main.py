#!/usr/bin/env python3
"""Sultan on the command line: play or analyse deals headlessly.

    python3 tools/sultan_cli.py play --deal 7 --auto --json
    python3 tools/sultan_cli.py play --deals 1-1000 --auto --json     # one JSON line per deal
    python3 tools/sultan_cli.py play --order "6D 3C ... 5D" --auto --stop-at-pass-end --json

A thin shell over ``sultan.rules.engine.Game``.  Bad arguments exit with status 2 and
one line on stderr, never a traceback.
"""

import argparse
import json
import sys

from sultan.rules import cards
from sultan.rules.engine import MAX_DEAL, RULES_NAMES, Game

from sultan_host.snapshot import snapshot


class UsageError(Exception):
    """A bad command-line argument: reported in one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_deal(text):
    try:
        n = int(text)
    except ValueError:
        raise UsageError("deal must be a whole number, not %r" % text) from None
    if not 1 <= n <= MAX_DEAL:
        raise UsageError("deal must be 1..%d, not %d" % (MAX_DEAL, n))
    return n


def parse_range(text):
    """``A-B`` -> (A, B) with 1 <= A <= B <= MAX_DEAL."""
    a, sep, b = text.partition("-")
    if not sep:
        raise UsageError("deal range must look like A-B, not %r" % text)
    lo, hi = parse_deal(a), parse_deal(b)
    if lo > hi:
        raise UsageError("deal range %s is empty (A must not exceed B)" % text)
    return lo, hi


def parse_order(text):
    """95 card names, stock top first -> bytes; UsageError on anything else."""
    words = text.replace(",", " ").split()
    try:
        order = bytes(cards.parse(w) for w in words)
    except ValueError as err:
        raise UsageError(str(err)) from None
    from sultan.rules.order import stock_order_error

    err = stock_order_error(order)
    if err:
        raise UsageError("bad --order: " + err)
    return order


def build_parser():
    p = Parser(prog="sultan_cli.py", description="Play or analyse Sultan deals headlessly.")
    sub = p.add_subparsers(dest="command", parser_class=Parser)
    sub.required = True
    play = sub.add_parser("play", help="deal a game (or a range of them) and optionally autoplay it")
    src = play.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=str, help="deal number 1..999999999")
    src.add_argument("--deals", type=str, help="range A-B: one JSON line per deal")
    src.add_argument("--order", type=str, help="the 95 non-layout cards, stock top first, e.g. 'TH 2C ...'")
    play.add_argument("--auto", action="store_true", help="play the canonical policy to the end")
    play.add_argument("--stop-at-pass-end", action="store_true",
                      help="with --auto: stop when pass 1 has nothing left to do, before any redeal")
    play.add_argument("--json", action="store_true", help="print the state as JSON")
    play.add_argument("--rules", choices=RULES_NAMES, default="seed",
                      help="seed (default: divan refilled from the stock) or classic (PySolFC's Sultan)")
    from sultan_host.cli import scan as sultan_scan

    sultan_scan.add_parsers(sub)
    from sultan_host.cli import saves as sultan_save_cli

    sultan_save_cli.add_play_option(play)
    sultan_save_cli.add_parsers(sub)
    return p


def describe(snap):
    """A short human-readable summary of a snapshot."""
    return "deal %s: %s, pass %d, placed %d/95, missed %d, moves %d" % (
        snap["deal"] or "(order)", snap["status"], snap["pass"], snap["placed"], snap["missed"],
        snap["moves"])


def emit(game, as_json, out):
    snap = snapshot(game)
    out.write((json.dumps(snap) if as_json else describe(snap)) + "\n")


def play(args, out):
    if args.stop_at_pass_end and not args.auto:
        raise UsageError("--stop-at-pass-end needs --auto")
    rules = RULES_NAMES.index(args.rules)
    if args.save and args.deals:
        raise UsageError("--save needs --deal or --order, not --deals")
    if args.deals:
        lo, hi = parse_range(args.deals)
        game = Game(deal=lo, rules=rules)
        for n in range(lo, hi + 1):
            game.new_deal(n)
            if args.auto:
                game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
            emit(game, args.json, out)
        return 0
    if args.order:
        game = Game(order=parse_order(args.order), rules=rules)
    else:
        game = Game(deal=parse_deal(args.deal), rules=rules)
    if args.auto:
        game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
    if args.save:
        save_to(args.save, game)
    emit(game, args.json, out)
    return 0


def save_to(path, game):
    """play --save FILE: tools/sultan_save_cli.py."""
    from sultan_host.cli import saves as sultan_save_cli

    sultan_save_cli.save_game(path, game, UsageError)


def resume(args, out):
    """resume FILE: tools/sultan_save_cli.py."""
    from sultan_host.cli import saves as sultan_save_cli

    return sultan_save_cli.resume(args, out, emit, UsageError)


def analyse(args, out):
    """scan and stats: tools/sultan_scan.py."""
    from sultan_host.cli import scan as sultan_scan

    return sultan_scan.run(args, out, parse_range, UsageError)


COMMANDS = {"play": play, "scan": analyse, "stats": analyse, "resume": resume}


def main(argv=None, out=None):
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args, out)
    except UsageError as err:
        sys.stderr.write("sultan_cli.py: error: %s\n" % err)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

