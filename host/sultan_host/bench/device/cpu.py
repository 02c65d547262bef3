"""``python -m sultan_host.bench.device.cpu [--pystone PATH]``: the samd51 emulator's time model against
published SAMD51 figures, on the PyBadge's own CircuitPython; writes ``## PyBadge time model`` into
docs/pybadge-figures.md.

A code.py times a ``for _ in range(N): pass`` loop at module level and in a function, and, given a
pystone.py of CPython 3 (``Lib/test/pystone.py`` up to 3.6; not in git), 5000 pystone passes. No
figure for CircuitPython 9 turned up; the published ones are of 5.x on the same chip at 120 MHz.
"""

import os
import re
import shutil
import sys
from datetime import date

from sultan_host.bench.device import pbfigures, pybadge, tables
from sultan_host.bench.device.main import ArgParser

HEADING = "## PyBadge time model"
LOOPS = 200_000
PASSES = 5000
# (key, what, published figure, its unit, where): each of a SAMD51 at 120 MHz
PUBLISHED = (
    ("module", "`for _ in range(N): pass`, module level", 4.784, "us",
     "ItsyBitsy M4, 5.3.0 (circuitpython#2929)"),
    ("function", "the same in a function", 1.8765, "us", "Feather M4, 5.0.0-beta.0 (circuitpython#1933)"),
    ("pystone", "pystone 1.1, %d passes" % PASSES, 1521.6, "/s",
     "Metro M4, 5.0.0-beta.1 (circuitpython#2297)"),
)
CODE = """import time
import usb_cdc
while not usb_cdc.console.connected:
    time.sleep(0.01)
N = %d
def in_function(n):
    for _ in range(n):
        pass
t = time.monotonic_ns()
for _ in range(N):
    pass
print("SULTAN CPU module=%%d" %% ((time.monotonic_ns() - t) // N))
t = time.monotonic_ns()
in_function(N)
print("SULTAN CPU function=%%d" %% ((time.monotonic_ns() - t) // N))
try:
    import pystone
    print("SULTAN CPU pystone=%%d" %% pystone.pystones(%d)[1])
except ImportError:
    pass
print("SULTAN BARE cpu")  # the harness's --ready-only stops here
"""


def pystone_module(path):
    """The text of ``path`` (CPython's pystone.py) with its timer on ``time.monotonic_ns``; None when it is
    not a pystone for Python 3."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^from time import (\w+)( as (\w+))?$", text, re.M)
    if "def pystones(" not in text or not m:
        return None
    try:
        compile(text, path, "exec")
    except SyntaxError:
        return None   # Python 2's
    name = m.group(3) or m.group(1)
    timer = "from time import monotonic_ns as _ns\n\n\ndef %s():\n    return _ns() / 1e9\n" % name
    return text[:m.start()] + timer + text[m.end():]


def tree(out, pystone_text):
    path = os.path.join(out, "CIRCUITPY")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    with open(os.path.join(path, "code.py"), "w") as f:
        f.write(CODE % (LOOPS, PASSES))
    if pystone_text:
        with open(os.path.join(path, "pystone.py"), "w") as f:
            f.write(pystone_text)
    return path


def figures(lines):
    """{key: figure} from the run's lines: us an iteration for the loops, passes a second for pystone."""
    out = {}
    for ln in lines:
        m = re.match(r"SULTAN CPU (\w+)=(\d+)", ln)
        if m:
            n = int(m.group(2))
            out[m.group(1)] = n if m.group(1) == "pystone" else n / 1000.0
    return out


def table(found):
    """The rows: each benchmark here and published, and the time it takes here over the published time."""
    rows = ["| benchmark | here | published | time here / there |", "|---|---|---|---|"]
    for key, what, value, unit, where in PUBLISHED:
        if key not in found:
            continue
        here = found[key]
        cell = "%.2f us" % here if unit == "us" else "{:,}/s".format(int(here))
        pub = "%.2f us" % value if unit == "us" else "{:,}/s".format(int(value))
        ratio = here / value if unit == "us" else value / here
        rows.append("| %s | %s | %s, %s | %.2f |" % (what, cell, pub, where, ratio))
    return rows


def main(argv=None):
    ap = ArgParser(prog="python -m sultan_host.bench.device.cpu", description=__doc__.splitlines()[0])
    ap.add_argument("--pystone", help="CPython 3's Lib/test/pystone.py (up to 3.6), to run 5000 passes too")
    ap.add_argument("--out", default=os.path.join(tables.ROOT, "build", "bench-cpu"))
    ap.add_argument("--figures", default=os.path.join(os.path.dirname(tables.FIGURES), pbfigures.PAGE),
                    help="the page the section goes into ('' for none)")
    args = ap.parse_args(argv)
    column = pybadge.default_column()
    if column is None or pybadge.missing():
        ap.error(pybadge.missing())
    text = None
    if args.pystone:
        if not os.path.isfile(args.pystone):
            ap.error("--pystone %s: no such file" % args.pystone[:200])
        text = pystone_module(args.pystone)
        if text is None:
            ap.error("--pystone %s: not a Python 3 pystone.py" % args.pystone[:200])
    data, rc, err, _ = pybadge.run(args.out, column, "--tree", tree(args.out, text), "--ready-only",
                                   "--timeout-s", "900")
    found = figures(ln["text"] for ln in data.get("lines", []))
    if rc != 0 or not found:
        sys.stderr.write("bench-cpu: the run failed: %s\n" % (data.get("error") or err)[-400:])
        return 1
    rows = table(found)
    print("\n".join(rows))
    if args.figures:
        caption = "the [time model](samd51.md#time) against SAMD51s at 120 MHz on CircuitPython 5"
        lines = tables.section(HEADING, date.today().isoformat(), [column[1]], caption, rows)
        tables.write_figures(args.figures, {HEADING: lines}, head=pbfigures.HEAD)
        print("(written into %s)" % args.figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
