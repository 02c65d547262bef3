#!/usr/bin/env python3
"""Engine benchmark: prints figures (it asserts nothing; `make bench` runs it).

- whole autoplayed games per second on CPython (one core) and on the MicroPython VM
- bytes of game state and of the move log
- MicroPython heap after importing the engine, and after import + one game
- heap bytes allocated per move on MicroPython (gc disabled, a whole game autoplayed)
- the classic hint: time per hint that looked ahead, on CPython and on the
  MicroPython VM (mean and worst), its fixed buffers, the heap a classic game's set-up
  adds (the lookahead loaded), bytes allocated by hints, and classic games won by them
  (the Pico's figures: ``python -m sultan_host.bench.hint_device``, in the emulator)

    .venv/bin/python -m sultan_host.bench.engine [--games N] [--mp-games N] [--hint-games N]
"""

import argparse
import os
import subprocess
import sys
import time

from sultan.rules import lookahead, rollout
from sultan.rules.engine import RULES_CLASSIC, WON, Game

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
g.hint()  # the player's code (sultan.rules.hint) loads at the first hint, once: not a move's cost

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


MP_HINT_SCRIPT = """
import gc, time
from sultan.rules.engine import Game, RULES_CLASSIC, WON
g = Game(deal=1)
gc.collect()
m0 = gc.mem_alloc()
g.new_deal(1, rules=RULES_CLASSIC)
gc.collect()
print("lookahead_heap", gc.mem_alloc() - m0)
look = g.lookahead
g.hint()  # the player's code (sultan.rules.hint) loads at the first hint, once: not a hint's cost
def measure(g, n, acc):
    g.new_deal(n)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    while True:
        t = time.ticks_us()
        h = g.hint()
        dt = time.ticks_diff(time.ticks_us(), t)
        if not h:
            break
        if look.verdict != 3:  # it looked ahead (lookahead.OBVIOUS: it did not)
            acc[0] += 1
            acc[1] += dt
            acc[2] = max(acc[2], dt)
        g.act(h)
    acc[3] += gc.mem_alloc() - a
    gc.enable()
    acc[4] += g.status() == WON
acc = [0, 0, 0, 0, 0]
for n in range(1, %d + 1):
    measure(g, n, acc)
print("hints", acc[0])
print("hint_mean_ms", acc[1] / max(1, acc[0]) / 1000)
print("hint_worst_ms", acc[2] / 1000)
print("hint_alloc", acc[3])
print("hint_won", acc[4])
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


def bench_micropython(n, script=MP_SCRIPT):
    env = dict(os.environ, MICROPYPATH=LIB)
    out = subprocess.run([micropython(), "-X", "heapsize=64K", "-c", script % n],
                         env=env, capture_output=True, text=True, check=True).stdout
    return dict((k, float(v)) for k, v in (line.split() for line in out.splitlines()))


def bench_hint_cpython(n):
    """Classic deals 1..n followed by the hints: (hints that looked ahead, mean s, worst s, won, games/s)."""
    g = Game(deal=1, rules=RULES_CLASSIC)
    look = g.lookahead
    count = won = 0
    total = worst = 0.0
    t0 = time.perf_counter()
    for d in range(1, n + 1):
        g.new_deal(d)
        while True:
            t = time.perf_counter()
            h = g.hint()
            dt = time.perf_counter() - t
            if not h:
                break
            if look.verdict != lookahead.OBVIOUS:
                count += 1
                total += dt
                worst = max(worst, dt)
            g.act(h)
        won += g.status() == WON
    return count, total / max(1, count), worst, won, n / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5000, help="CPython games (default 5000)")
    p.add_argument("--mp-games", type=int, default=300, help="MicroPython games (default 300)")
    p.add_argument("--hint-games", type=int, default=200,
                   help="classic games followed by the hints (default 200)")
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
    count, mean, worst, won, rate = bench_hint_cpython(args.hint_games)
    print("classic hint, CPython: %d games followed by the hints, %d won, %.0f games/s;"
          % (args.hint_games, won, rate))
    print("  %d hints looked ahead: %.2f ms mean, %.2f ms worst" % (count, 1000 * mean, 1000 * worst))
    print("classic hint: fixed buffers %d bytes (the model and its copy; limit 8 KB), at most %d games"
          " played out a hint" % (rollout.MEMORY, lookahead.ROLLOUTS))
    n = min(args.hint_games, 100)
    mp = bench_micropython(n, MP_HINT_SCRIPT)
    print("classic hint, MicroPython VM: %d games, %d won; %d hints looked ahead: %.2f ms mean,"
          % (n, mp["hint_won"], mp["hints"], mp["hint_mean_ms"]))
    print("  %.2f ms worst (target 50); %d bytes allocated by them (gc off)"
          % (mp["hint_worst_ms"], mp["hint_alloc"]))
    print("  a classic game's set-up adds %d bytes of heap (the lookahead's modules and buffers, 64-bit VM)"
          % mp["lookahead_heap"])

if __name__ == "__main__":
    main()
