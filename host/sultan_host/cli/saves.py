"""Saves on the command line: ``play ... --save FILE`` and ``resume FILE`` for tools/sultan_cli.py.

    python3 tools/sultan_cli.py play --deal 7 --auto --stop-at-pass-end --save game.sav
    python3 tools/sultan_cli.py resume game.sav --json            # the same JSON as play
    python3 tools/sultan_cli.py resume game.sav --auto --json     # play on, and save back

FILE is the same two-slot file the desktop simulator keeps (``sultan_host.filesave``),
with the statistics.  A FILE that holds no valid save: exit 2, one line
("save data corrupt"), and FILE is left as it was.
"""

import os

from sultan.saves.store import Store

from sultan_host.filesave import FileRegion


def add_play_option(play):
    play.add_argument("--save", metavar="FILE",
                      help="save the game (and the statistics) in FILE, as the simulator does")


def add_parsers(sub):
    r = sub.add_parser("resume", help="load a game saved with play --save (or by the simulator)")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--auto", action="store_true", help="play the canonical policy on, and save back")
    r.add_argument("--stop-at-pass-end", action="store_true",
                   help="with --auto: stop when the pass has nothing left to do, before any redeal")
    r.add_argument("--json", action="store_true", help="print the state as JSON")
    return r


def save_game(path, game, usage_error):
    """Write ``game`` into ``path`` as a new game of that file (its statistics kept)."""
    store = Store(FileRegion(path))
    store.load(repair=False)  # the statistics already there, if any
    store.new_game(game)
    if not store.flush() and store.error is not None:
        raise usage_error("cannot write %s: %s" % (path, store.error))


def resume(args, out, emit, usage_error):
    if args.stop_at_pass_end and not args.auto:
        raise usage_error("--stop-at-pass-end needs --auto")
    if not os.path.exists(args.file):
        raise usage_error("no such save file: %s" % args.file)
    store = Store(FileRegion(args.file))
    game = store.load(repair=False)
    if game is None:
        raise usage_error("save data corrupt" if store.message else "no game saved in %s" % args.file)
    if args.auto:
        game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
        store.save(game)
        if not store.flush() and store.error is not None:
            raise usage_error("cannot write %s: %s" % (args.file, store.error))
    emit(game, args.json, out)
    return 0
