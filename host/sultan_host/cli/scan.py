"""``scan`` and ``stats``: which deals of a range are winnable, and how often each policy wins.

    python3 tools/sultan_cli.py scan --deals 1-100000               # seed: deals canonical autoplay wins
    python3 tools/sultan_cli.py scan --deals 1-500 --rules classic  # classic: deals the solver wins
    python3 tools/sultan_cli.py stats --rules seed --deals 1-100000
    python3 tools/sultan_cli.py stats --rules classic --deals 1-2000 --budget 20000

Both spread the deals over ``--jobs`` processes (default: every core; never more
than the chunks of work, nor more than ``JOBS_PER_CORE`` a core) in chunks, and draw
a progress bar on stderr when stderr is a terminal.  The classic solver's
``--budget`` is at most ``MAX_BUDGET`` nodes a deal: its memo takes about 165 bytes
a node, so a worker stays under about 350 MB (the seed rules have no solver: ``--budget``
is refused there).  Bad arguments exit with status 2 and one line, like every other command
(``sultan_host.args``).

A range is streamed: its chunks are made one at a time as the pool takes them, so memory does
not grow with the range's length (``stats --deals 1-999999999`` runs in a few tens of MB).
Ctrl-C or SIGTERM stops a run quietly (``sultan_host.cli.main``): the workers ignore SIGINT,
the parent terminates them, and one line says how many deals were done.
"""

import json
import math
import os
import signal
import sys
import time

from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, RULES_NAMES, RULES_SEED, Game

from sultan_host.analysis import solver as classic_solver
from sultan_host.args import Once, UsageError, deal_range, whole

CHUNK = 500  # deals per job handed to a worker (seed); classic chunks are smaller
CLASSIC_CHUNK = 20
JOBS_PER_CORE = 2  # the work is all CPU: more processes than this only cost memory
MAX_BUDGET = 2000000  # solver nodes a deal: ~165 bytes each in the memo, ~350 MB a worker
Z95 = 1.959963984540054


# ------------------------------------------------------------------ workers
def seed_chunk(lo, hi):
    """[(deal, won, placed)] for seed deals lo..hi under the canonical policy."""
    g = Game(deal=lo)
    out = []
    for n in range(lo, hi + 1):
        g.new_deal(n)
        out.append((n, g.autoplay() == engine.WON, g.placed))
    return out


def classic_hint_chunk(lo, hi):
    """[(deal, won, placed)] for classic deals lo..hi under the hint policy."""
    g = Game(deal=lo, rules=RULES_CLASSIC)
    out = []
    for n in range(lo, hi + 1):
        g.new_deal(n)
        out.append((n, g.autoplay() == engine.WON, g.placed))
    return out


def classic_solve_chunk(lo, hi, budget):
    """[(deal, status, best placed, nodes, hint won, hint placed)] for classic deals lo..hi."""
    hint = classic_hint_chunk(lo, hi)
    out = []
    for (n, hint_won, hint_placed) in hint:
        if hint_won:  # the hint policy's win is a proof already
            out.append((n, classic_solver.WON, 95, 0, True, hint_placed))
            continue
        r = classic_solver.solve(n, budget)
        out.append((n, r.status, max(r.best, hint_placed), r.nodes, False, hint_placed))
    return out


def _call(job):
    fn, args = job
    return fn(*args)


def _worker_start():
    """In each worker: Ctrl-C is the parent's to handle (it terminates the pool), and SIGTERM,
    which ``Pool.terminate`` sends, ends the worker without a word."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def spans(lo, hi, chunk):
    """The chunks (a, b) of lo..hi, made one at a time."""
    a = lo
    while a <= hi:
        b = min(a + chunk - 1, hi)
        yield a, b
        a = b + 1


# ------------------------------------------------------------------ driver
class Progress:
    """A one-line bar on ``stream``, only when it is a terminal (and ``bar``).

    The latest one made is ``Progress.last``: an interrupted run says how far it got from it.
    """

    last = None

    def __init__(self, total, stream=None, label="deals", bar=True):
        Progress.last = self
        self.stream = stream or sys.stderr
        self.on = bar and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.total = total
        self.done = 0
        self.label = label
        self.t0 = time.time()
        self.last = 0.0

    def add(self, n):
        self.done += n
        if not self.on:
            return
        now = time.time()
        if now - self.last < 0.1 and self.done < self.total:
            return
        self.last = now
        frac = self.done / self.total if self.total else 1.0
        width = 30
        full = int(frac * width)
        el = now - self.t0
        eta = el / frac - el if frac > 0 else 0.0
        self.stream.write("\r[%s%s] %3d%% %d/%d %s  %.0f s, %.0f s left " % (
            "#" * full, "." * (width - full), int(frac * 100), self.done, self.total, self.label, el, eta))
        self.stream.flush()

    def close(self):
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def run_chunks(fn, lo, hi, jobs, chunk, extra=(), progress=True):
    """Yield the results of ``fn(a, b, *extra)`` over lo..hi in chunks, in deal order.

    The chunks are made as the pool takes them (``imap`` over a generator: its feeder blocks
    on the full pipe to the workers), so nothing grows with the range's length."""
    n_spans = (hi - lo) // chunk + 1
    jobs = min(jobs, n_spans, JOBS_PER_CORE * (os.cpu_count() or 1))
    bar = Progress(hi - lo + 1, bar=progress)
    try:
        if jobs <= 1 or n_spans == 1:
            for a, b in spans(lo, hi, chunk):
                res = fn(a, b, *extra)
                bar.add(b - a + 1)
                yield from res
        else:
            import multiprocessing

            extra = tuple(extra)
            with multiprocessing.Pool(jobs, initializer=_worker_start) as pool:  # terminated on leaving
                for res in pool.imap(_call, ((fn, (a, b) + extra) for a, b in spans(lo, hi, chunk))):
                    bar.add(len(res))
                    yield from res
    finally:
        bar.close()


def wilson(k, n, z=Z95):
    """The Wilson score interval (low, high) for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z / den * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(name, won, n, placed_total, **extra):
    lo, hi = wilson(won, n)
    d = {"policy": name, "deals": n, "won": won, "win_rate": won / n if n else 0.0,
         "ci95": [lo, hi], "mean_placed": placed_total / n if n else 0.0}
    d.update(extra)
    return d


def seed_stats(lo, hi, jobs, progress=True):
    won = placed = 0
    for _n, w, p in run_chunks(seed_chunk, lo, hi, jobs, CHUNK, progress=progress):
        won += w
        placed += p
    return [summary("canonical", won, hi - lo + 1, placed)]


def classic_stats(lo, hi, jobs, budget, progress=True):
    hint_won = hint_placed = won = lost = unknown = placed = nodes = 0
    for _n, status, best, nd, hw, hp in run_chunks(classic_solve_chunk, lo, hi, jobs, CLASSIC_CHUNK,
                                                    (budget,), progress=progress):
        hint_won += hw
        hint_placed += hp
        won += status == classic_solver.WON
        lost += status == classic_solver.LOST
        unknown += status == classic_solver.UNKNOWN
        placed += best
        nodes += nd
    n = hi - lo + 1
    # With unknowns, the true rate lies between "all unknowns lost" and "all won".
    # The hint's share of the deals proven winnable (by the solver or by the hint itself).
    return [
        summary("hint", hint_won, n, hint_placed, proven_winnable=won,
                share_of_winnable=hint_won / won if won else 0.0,
                ci95_of_winnable=list(wilson(hint_won, won))),
        summary("solver", won, n, placed, lost=lost, unknown=unknown, budget=budget,
                ci95_unknown_won=list(wilson(won + unknown, n)), nodes=nodes),
    ]


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


def winnable(rules, lo, hi, jobs, budget=classic_solver.DEFAULT_BUDGET, progress=True):
    """Yield the winnable deals of lo..hi (seed: canonical autoplay wins; classic: the solver does)."""
    if rules == RULES_SEED:
        for n, w, _p in run_chunks(seed_chunk, lo, hi, jobs, CHUNK, progress=progress):
            if w:
                yield n
    else:
        for n, status, *_rest in run_chunks(classic_solve_chunk, lo, hi, jobs, CLASSIC_CHUNK, (budget,),
                                            progress=progress):
            if status == classic_solver.WON:
                yield n


# ------------------------------------------------------------------ commands
def add_parsers(sub):
    """Add the ``scan`` and ``stats`` commands to the CLI's subparsers."""
    for name, text in (("scan", "list the winnable deals of a range"),
                       ("stats", "win rate (95%% Wilson interval) and mean cards placed over a range")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--deals", action=Once, required=True, help="range A-B")
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


def run(args, out):
    """The ``scan`` and ``stats`` commands."""
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
