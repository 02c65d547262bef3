"""Saves on the command line: ``play ... --save FILE`` and ``resume FILE``.

    python3 tools/sultan_cli.py play --deal 7 --auto --stop-at-pass-end --save game.sav
    python3 tools/sultan_cli.py resume game.sav --json            # the same JSON as play
    python3 tools/sultan_cli.py resume game.sav --auto --json     # play on, and save back

FILE is the same two-slot file the desktop simulator keeps (``sultan_host.filesave``),
with the statistics.  ``--save`` writes only a missing or empty FILE or a readable save
of ours (``filesave.check_save_file``): anything else exits 2 and is left as it was.
``resume`` refuses what ``--save`` refuses, in one line with exit 2, FILE left as it was:
"not a Sultan save" (a text file, zeros, a file bigger than a save), "save data corrupt" (a save
of ours in which nothing reads), "cannot read FILE: permission denied", "made by a newer Sultan"
(a newer save format); ``resume --auto`` and ``--save`` refuse a read-only FILE too (by its mode:
root as well).  An empty or erased FILE is "no game saved".  A FILE whose newest record is damaged
resumes the one before it, with a note on stderr (``filesave.newer_lost``).
"""

import json
import os
import stat
import sys

from sultan.rules.engine import RULES_NAMES
from sultan.saves.store import Store

from sultan_host.args import UsageError, clip
from sultan_host.cli.report import emit
from sultan_host.filesave import Damaged, FileRegion, check_save_file, resume_note, why
from sultan_host.snapshot import stats_summary


def add_parsers(sub):
    r = sub.add_parser("resume", help="load a game saved with play --save (or by the simulator)")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--auto", action="store_true", help="play the canonical policy on, and save back")
    r.add_argument("--stop-at-pass-end", action="store_true",
                   help="with --auto: stop when the pass has nothing left to do, before any redeal")
    r.add_argument("--json", action="store_true", help="print the state as JSON")
    return r


def check(path, new=False):
    """UsageError unless a save may be written at ``path`` (see ``filesave.check_save_file``), and,
    unless ``new``, unless it holds no game in progress (a new game counts that one lost)."""
    try:
        check_save_file(path)
    except ValueError as e:
        raise UsageError(str(e)) from None
    left = in_progress(path)
    if left and not new:
        raise UsageError("%s holds a game in progress (%s): --new replaces it and records it as a loss"
                         % (clip(path), left))


def in_progress(path):
    """What a new game in save ``path`` would count as lost ("deal 8, seed rules, 12 moves, 3 placed"),
    or None: no game, one not begun, or one decided."""
    store = Store(FileRegion(path, make_dirs=False))
    game = store.load(repair=False)
    if game is None or game.log_end == 0 or store.recorded == store.game_no:
        return None
    return "deal %s, %s rules, %d moves, %d placed" % (
        game.deal or "(order)", RULES_NAMES[game.rules], game.moves, game.placed)


def save_game(path, game, new=False):
    """Write ``game`` into ``path`` as a new game of that file (its statistics kept); ``new``: a game in
    progress there is counted lost (said on stderr), else refused (``check``)."""
    check(path, new)
    left = in_progress(path)
    store = Store(FileRegion(path, make_dirs=False))
    store.load(repair=False)  # the statistics already there, if any
    store.new_game(game)
    if not store.flush() and store.error is not None:
        raise UsageError(write_error(path, store.error))
    if left:
        sys.stderr.write("play: the game in progress in %s (%s) was recorded as a loss\n"
                         % (clip(path), left))


def write_error(path, err):
    """The line a failed write ends with: the user's file and the reason, nothing else."""
    return "cannot write %s: %s" % (clip(path), why(err) if isinstance(err, OSError) else err)


def readable(path, write=False):
    """UsageError unless ``path`` is a save that may be read (and written back, ``write``)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UsageError("no such save file: %s" % clip(path)) from None
    except OSError as e:  # a directory on the way we may not search, a symlink loop
        raise UsageError("cannot use %s: %s" % (clip(path), why(e))) from None
    if not stat.S_ISREG(mode):  # a directory, a FIFO, a device: never opened
        raise UsageError("not a save file: %s" % clip(path))
    try:
        check_save_file(path, write=write)  # what --save would refuse is neither read nor written back
    except Damaged as e:
        raise UsageError("save data corrupt in %s%s: left alone" % (clip(path), e.detail)) from None
    except ValueError as e:
        raise UsageError(str(e)) from None


def save_stats(path, as_json, out):
    """``stats --save FILE``: the statistics in save ``path``, every ruleset, as JSON or text; the
    file is only read."""
    readable(path)
    store = Store(FileRegion(path, make_dirs=False))
    store.load(repair=False)
    if store.message and not store.seq:
        raise UsageError("save data corrupt in %s: left alone" % clip(path))
    if as_json:
        rules = {}
        for r in range(len(RULES_NAMES)):
            d = store.stats.get(r)
            del d["rules"]
            d["fewest_moves"] = d["fewest_moves"] or None  # no win yet
            rules[RULES_NAMES[r]] = d
        out.write(json.dumps({"save": path, "rules": rules}) + "\n")
        return 0
    for r in range(len(RULES_NAMES)):
        out.write("%s rules: %s\n" % (RULES_NAMES[r], "; ".join(stats_summary(store.stats, r))))
    return 0


def run(args, out):
    """The ``resume`` command."""
    if args.stop_at_pass_end and not args.auto:
        raise UsageError("--stop-at-pass-end needs --auto")
    path = args.file
    readable(path, args.auto)
    store = Store(FileRegion(path, make_dirs=False))
    game = store.load(repair=False)
    if game is None:
        raise UsageError("save data corrupt in %s: left alone" % clip(path) if store.message
                         else "no game saved in %s" % clip(path))
    note = resume_note(store, clip(path))
    if note:  # a newer record was (or may have been) there and could not be used
        sys.stderr.write("resume: %s\n" % note)
    if args.auto:
        game.autoplay(stop_at_pass_end=args.stop_at_pass_end)
        store.save(game)
        if not store.flush() and store.error is not None:
            raise UsageError(write_error(path, store.error))
    emit(game, args.json, out)
    return 0
