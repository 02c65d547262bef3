"""``scan`` and ``stats``: which deals of a range are winnable, and how often each policy wins.

    python3 tools/sultan_cli.py scan --deals 1-100000               # seed: deals canonical autoplay wins
    python3 tools/sultan_cli.py scan --deals 1-500 --rules classic  # classic: deals the solver wins
    python3 tools/sultan_cli.py stats --rules seed --deals 1-100000
    python3 tools/sultan_cli.py stats --rules classic --deals 1-2000 --budget 20000
    python3 tools/sultan_cli.py stats --save game.sav --json        # a save's own statistics

``stats --save FILE`` reads FILE (a save of ``play --save``, ``resume`` or the simulator) and
says its statistics per ruleset -- played, won, lost, best placed, the current and best winning
streak, the fewest moves to a win -- and writes nothing (``sultan_host.cli.saves.save_stats``).

Both spread the deals over ``--jobs`` processes (default: every core; never more
than the chunks of work, nor more than ``JOBS_PER_CORE`` a core: ``sultan_host.analysis.survey``
does the work), and draw a progress bar on stderr when stderr is a terminal.  The classic solver's
``--budget`` is at most ``MAX_BUDGET`` nodes a deal: its memo takes about 165 bytes
a node, so a worker stays under about 350 MB (the seed rules have no solver: ``--budget``
is refused there).  Bad arguments exit with status 2 and one line, like every other command
(``sultan_host.args``).

A range is streamed, so memory does not grow with its length.  Ctrl-C or SIGTERM stops a run
quietly (``sultan_host.cli.main``): the workers ignore SIGINT, the parent terminates them, and one
line says how many deals were done.
"""

import json
import os
import time

from sultan.rules.engine import RULES_NAMES, RULES_SEED

from sultan_host.analysis import solver as classic_solver
from sultan_host.analysis.survey import JOBS_PER_CORE, classic_stats, seed_stats, winnable
from sultan_host.args import Once, UsageError, deal_range, whole
from sultan_host.cli.saves import save_stats

MAX_BUDGET = 2000000  # solver nodes a deal: ~165 bytes each in the memo, ~350 MB a worker


def format_stats(rules, lo, hi, rows, seconds):
    out = ["%s rules, deals %d-%d (%d deals), %.1f s" % (rules, lo, hi, hi - lo + 1, seconds),
           "%-10s %8s %9s  %-17s %11s" % ("policy", "won", "win rate", "95% CI (Wilson)", "mean placed")]
    for r in rows:
        out.append("%-10s %8d %8.2f%%  %6.2f%% - %6.2f%% %11.1f" % (
            r["policy"], r["won"], 100 * r["win_rate"], 100 * r["ci95"][0], 100 * r["ci95"][1],
            r["mean_placed"]))
        if "proven_winnable" in r:
            out.append("%-10s of the %d deals proven winnable: %.2f%% (%.2f%% - %.2f%%)" % (
                "", r["proven_winnable"], 100 * r["share_of_winnable"], 100 * r["ci95_of_winnable"][0],
                100 * r["ci95_of_winnable"][1]))
        if "unknown" in r:
            out.append("%-10s lost %d, unknown %d (budget %d nodes); unknowns as won: %.2f%% - %.2f%%" % (
                "", r["lost"], r["unknown"], r["budget"], 100 * r["ci95_unknown_won"][0],
                100 * r["ci95_unknown_won"][1]))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ commands
def add_parsers(sub):
    """Add the ``scan`` and ``stats`` commands to the CLI's subparsers."""
    for name, text in (("scan", "list the winnable deals of a range"),
                       ("stats", "win rate (95%% Wilson interval) and mean cards placed over a range")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--deals", action=Once, required=name == "scan", help="range A-B")
        p.add_argument("--rules", action=Once, choices=RULES_NAMES, default="seed",
                       help="seed (canonical autoplay) or classic (hint policy and solver)")
        p.add_argument("--jobs", action=Once, default=None,
                       help="worker processes (default: every core; at most the chunks of work and %d a core)"
                       % JOBS_PER_CORE)
        p.add_argument("--budget", action=Once, default=None,
                       help="classic solver (--rules classic only): nodes per deal, 1..%d (default %d; "
                            "~165 bytes a node)"
                       % (MAX_BUDGET, classic_solver.DEFAULT_BUDGET))
        if name == "stats":
            p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
            p.add_argument("--save", action=Once, metavar="FILE",
                           help="instead of --deals: the statistics in save FILE (streaks, fewest moves)")


def run(args, out):
    """The ``scan`` and ``stats`` commands."""
    if getattr(args, "save", None) is not None:
        if args.deals is not None:
            raise UsageError("--save reads a save's statistics: give --deals or --save, not both")
        return save_stats(args.save, args.json, out)
    if args.deals is None:
        raise UsageError("stats needs --deals A-B (a range to play) or --save FILE (a save's statistics)")
    lo, hi = deal_range(args.deals)
    jobs = (os.cpu_count() or 1) if args.jobs is None else whole(args.jobs, "--jobs", 1, 10**6)
    budget = classic_solver.DEFAULT_BUDGET if args.budget is None else whole(
        args.budget, "--budget", 1, MAX_BUDGET)
    rules = RULES_NAMES.index(args.rules)
    if rules == RULES_SEED and args.budget is not None:
        raise UsageError("--budget is the classic solver's: the seed rules have none (use --rules classic)")
    if args.command == "scan":
        for n in winnable(rules, lo, hi, jobs, budget):
            out.write("%d\n" % n)
        return 0
    t0 = time.time()
    if rules == RULES_SEED:
        rows = seed_stats(lo, hi, jobs)
    else:
        rows = classic_stats(lo, hi, jobs, budget)
    dt = time.time() - t0
    if args.json:
        out.write(json.dumps({"rules": args.rules, "deals": [lo, hi], "seconds": round(dt, 1),
                              "policies": rows}) + "\n")
    else:
        out.write(format_stats(args.rules, lo, hi, rows, dt))
    return 0
