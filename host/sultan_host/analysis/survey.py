"""Surveys of a range of deals: which are winnable, and how often each policy wins.

The work behind the CLI's ``scan`` and ``stats`` (``sultan_host.cli.scan``) and the winnable tables
(``sultan_host.analysis.winnable_table``).  The deals are spread over ``jobs`` processes (never more
than the chunks of work, nor more than ``JOBS_PER_CORE`` a core) in chunks, with a progress bar on
stderr when it is a terminal (``sultan_host.progress``).

A range is streamed: its chunks are made one at a time as the pool takes them, so memory does
not grow with the range's length (``stats --deals 1-999999999`` runs in a few tens of MB).
The workers ignore SIGINT and the parent terminates them (``sultan_host.cli.main`` stops quietly).
"""

import math
import os
import signal

from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, RULES_SEED, Game

from sultan_host.analysis import solver as classic_solver
from sultan_host.progress import Progress

CHUNK = 500  # deals per job handed to a worker (seed); classic chunks are smaller
CLASSIC_CHUNK = 20
JOBS_PER_CORE = 2  # the work is all CPU: more processes than this only cost memory
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
