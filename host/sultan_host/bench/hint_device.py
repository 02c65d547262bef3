"""The classic hint on emulated CircuitPython (the Pico in tools/emulate): time per hint and heap.

    .venv/bin/python -m sultan_host.bench.hint_device [--firmware CP.uf2] [--bootrom vendor-local/bootrom.js]
        [--games 1,2,6,7,10] [--first 40]

Builds the CIRCUITPY tree for the firmware's CircuitPython (``sultan_host.board``,
our package compiled to .mpy as on a board), replaces ``code.py`` with a benchmark, and boots
it in the RP2040 emulator (``tools/emulate/emulate.js``, simulated time).  The benchmark plays
whole classic games by the hints (``--games``) and the first real choice of more deals
(``--first``: from a fresh deal every game is still to be played out, the slowest hints), timing
each hint that looked ahead with ``supervisor.ticks_ms``; and it reads ``gc.mem_free`` before
and after the engine's import and a classic game's set-up (which loads the lookahead).  It
prints figures and asserts nothing (the target: 300 ms a hint).
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

from sultan_host.board.tree import build
from sultan_host.board.wokwi import circuitpython_version
from sultan_host.paths import LIB

ROOT = os.path.dirname(LIB)
TOOLS = os.path.join(ROOT, "tools")
# The engine's heap on the board (mem_free; sultan_host.bench.engine's MP_SCRIPT measures the same
# steps on the MicroPython VM with mem_alloc): each script runs where the other cannot.
CODE = """
import gc
import supervisor
gc.collect()
f0 = gc.mem_free()
from sultan.rules.engine import Game, RULES_CLASSIC, WON
gc.collect()
f1 = gc.mem_free()
g = Game(deal=1)
gc.collect()
f2 = gc.mem_free()
g.new_deal(1, rules=RULES_CLASSIC)
gc.collect()
f3 = gc.mem_free()
print("SULTAN MEM engine=%d seed_game=%d lookahead=%d" % (f0 - f1, f1 - f2, f2 - f3))
look = g.lookahead
for n in GAMES:
    g.new_deal(n)
    worst = total = k = 0
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    while True:
        t = supervisor.ticks_ms()
        h = g.hint()
        dt = (supervisor.ticks_ms() - t) & 0x1FFFFFFF  # ticks_ms wraps at 2**29
        if not h:
            break
        if look.verdict != 3:  # it looked ahead (lookahead.OBVIOUS: it did not)
            k += 1
            total += dt
            worst = max(worst, dt)
        g.act(h)
    a = gc.mem_alloc() - a
    gc.enable()
    print("SULTAN GAME deal=%d won=%d choices=%d worst_ms=%d mean_ms=%d alloc=%d" % (
        n, g.status() == WON, k, worst, total // max(1, k), a))
for n in range(1, FIRST + 1):
    g.new_deal(n)
    while True:
        h = g.sure_play()
        if not h:
            t = supervisor.ticks_ms()
            h = g.hint()
            dt = (supervisor.ticks_ms() - t) & 0x1FFFFFFF
            if look.verdict != 3:
                print("SULTAN FIRST deal=%d ms=%d rollouts=%d" % (n, dt, look.rollouts))
                break
        g.act(h)
print("SULTAN READY")
"""


def image(firmware, games, first, work):
    """A UF2 of ``firmware`` with our package and the benchmark as code.py; returns its path."""
    version = circuitpython_version(firmware)
    tree = os.path.join(work, "CIRCUITPY")
    build(version[0], tree, quiet=True)
    with open(os.path.join(tree, "code.py"), "w") as f:
        f.write("GAMES = %r\nFIRST = %d\n" % (tuple(games), first) + CODE)
    out = os.path.join(work, "hint.uf2")
    folder2uf2 = os.path.join(os.path.dirname(sys.executable), "folder2uf2")
    cmd = [folder2uf2 if os.path.exists(folder2uf2) else "folder2uf2", "--board", "raspberry_pi_pico",
           "--flash-offset", "0x100000", "--combine", firmware, "--no-extra-files", "-o", out, tree]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out, "%d.%d.%d" % version


def run(firmware, bootrom, games, first):
    """The benchmark's SULTAN lines from the emulator."""
    with tempfile.TemporaryDirectory() as work:
        uf2, version = image(firmware, games, first, work)
        scenario = os.path.join(work, "hint.yaml")
        with open(scenario, "w") as f:
            f.write("name: hint\nversion: 1\nsteps:\n  - wait-serial: 'SULTAN READY'\n")
        log = os.path.join(work, "serial.log")
        cmd = ["node", os.path.join(TOOLS, "emulate", "emulate.js"), "--firmware", uf2, "--bootrom", bootrom,
               "--out", work, "--quiet", "--no-shots", "--timeout-s", "3000", "--scenario", scenario,
               "--serial-log", log]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
        if proc.returncode != 0:
            raise SystemExit("emulator failed: %s\n%s" % (proc.stderr[-800:], text[-800:]))
    # (the first line starts after the console's title escape)
    return version, [ln[ln.index("SULTAN "):] for ln in text.splitlines() if "SULTAN " in ln]


def report(version, lines):
    fields = [dict(re.findall(r"(\w+)=(\d+)", ln)) for ln in lines]
    mem = next(f for ln, f in zip(lines, fields, strict=True) if ln.startswith("SULTAN MEM"))
    print("CircuitPython %s on the emulated Pico (simulated time)" % version)
    print("heap: engine import %s bytes, a seed game %s, a classic game's set-up loads the lookahead: %s"
          % (mem["engine"], mem["seed_game"], mem["lookahead"]))
    worst = 0
    for ln, f in zip(lines, fields, strict=True):
        if ln.startswith("SULTAN GAME"):
            worst = max(worst, int(f["worst_ms"]))
            print("deal %s followed by the hints: %s, %s hints that looked ahead, %s ms mean, %s ms worst, "
                  "%s bytes allocated" % (f["deal"], "won" if f["won"] == "1" else "lost", f["choices"],
                                          f["mean_ms"], f["worst_ms"], f["alloc"]))
    first = [int(f["ms"]) for ln, f in zip(lines, fields, strict=True) if ln.startswith("SULTAN FIRST")]
    if first:
        print("first real choice of deals 1-%d: %d ms mean, %d ms worst"
              % (len(first), sum(first) / len(first), max(first)))
        worst = max(worst, max(first))
    print("slowest hint: %d ms (target 300)" % worst)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--firmware", default=None,
                   help="a Pico CircuitPython UF2 (default: the newest 9.x in vendor-local)")
    p.add_argument("--bootrom", default=os.path.join(ROOT, "vendor-local", "bootrom.js"))
    p.add_argument("--games", default="1,2,6,7,10", help="deals played to the end by the hints")
    p.add_argument("--first", type=int, default=40, help="deals timed at their first real choice")
    args = p.parse_args(argv)
    firmware = args.firmware or (sorted(glob.glob(os.path.join(
        ROOT, "vendor-local", "adafruit-circuitpython-raspberry_pi_pico-*-9.*.uf2"))) or [None])[-1]
    if not firmware or not os.path.exists(args.bootrom):
        raise SystemExit("need a Pico CircuitPython UF2 (--firmware) and the RP2040 bootrom (--bootrom)")
    games = [int(x) for x in args.games.split(",") if x]
    version, lines = run(firmware, args.bootrom, games, args.first)
    report(version, lines)


if __name__ == "__main__":
    main()
