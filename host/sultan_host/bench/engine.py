#!/usr/bin/env python3
"""Engine benchmark: prints figures (it asserts nothing; targets are in the README).

- whole autoplayed games per second on CPython (one core) and on the MicroPython VM
- bytes of game state and of the move log
- MicroPython heap after importing the engine, and after import + one game
- heap bytes allocated per move on MicroPython (gc disabled, a whole game autoplayed)

    .venv/bin/python -m sultan_host.bench.engine [--games N] [--mp-games N]
"""

import argparse
import os
import subprocess
import sys
import time

from sultan.rules.engine import Game

from sultan_host.paths import LIB


def state_bytes(table):
    """Bytes of game state in a ``sultan.rules.table.Table`` (the move log not included)."""
    n = len(table.stock) + len(table.divan) + len(table.top) + len(table.need)
    n += len(table.where) + len(table.saved_divan) + len(table.saved_talon)
    for t in table.talons:
        n += len(t)
    return n


MP_SCRIPT = """
import gc, time
gc.collect()
m0 = gc.mem_alloc()
from sultan.rules.engine import Game
gc.collect()
m1 = gc.mem_alloc()
g = Game(deal=1)
gc.collect()
m2 = gc.mem_alloc()
print("import", m1 - m0)
print("import_game", m2 - m0)

def measure(g, n):
    # in a function: a new module-level name would grow the globals dict
    g.new_deal(n)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    g.autoplay()
    while g.undo() == 0:
        pass
    while g.redo() == 0:
        pass
    while g.undo() == 0:
        pass
    while g.step():
        pass
    a = gc.mem_alloc() - a
    gc.enable()
    return a, 4 * g.moves
allocated = 0
moves = 0
for n in range(1, 21):
    a, m = measure(g, n)
    allocated += a
    moves += m
print("per_move", allocated / moves)
t = time.ticks_ms()
N = %d
for n in range(1, N + 1):
    g.new_deal(n)
    g.autoplay()
print("games_per_s", N * 1000 / max(1, time.ticks_diff(time.ticks_ms(), t)))
"""


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else "micropython"


def bench_cpython(n):
    g = Game(deal=1)
    best = 0.0
    for _ in range(3):  # best of three, to keep other load out of the figure
        t = time.perf_counter()
        for d in range(1, n + 1):
            g.new_deal(d)
            g.autoplay()
        best = max(best, n / (time.perf_counter() - t))
    moves = 0
    for d in range(1, n + 1):
        g.new_deal(d)
        g.autoplay()
        moves += g.moves
    return best, moves / n, g


def bench_micropython(n):
    env = dict(os.environ, MICROPYPATH=LIB)
    out = subprocess.run([micropython(), "-X", "heapsize=64K", "-c", MP_SCRIPT % n],
                         env=env, capture_output=True, text=True, check=True).stdout
    return dict((k, float(v)) for k, v in (line.split() for line in out.splitlines()))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5000, help="CPython games (default 5000)")
    p.add_argument("--mp-games", type=int, default=300, help="MicroPython games (default 300)")
    args = p.parse_args()
    rate, mean_moves, g = bench_cpython(args.games)
    print("CPython %s: %.0f whole games/s on one core (deal + autoplay, %d games, %.0f actions/game)"
          % (sys.version.split()[0], rate, args.games, mean_moves))
    print("game state: %d bytes; move log: %d bytes (2 per action)" % (state_bytes(g), len(g.log)))
    mp = bench_micropython(args.mp_games)
    print("MicroPython VM (-X heapsize=64K): %.0f whole games/s" % mp["games_per_s"])
    print("MicroPython heap after import: %d bytes; after import + one game: %d bytes"
          % (mp["import"], mp["import_game"]))
    print("MicroPython heap allocated per move (autoplay, undo, redo, step; gc off): %.2f bytes"
          % mp["per_move"])


if __name__ == "__main__":
    main()
