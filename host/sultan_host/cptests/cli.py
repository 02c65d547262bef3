"""``python -m sultan_host.cptests``: CircuitPython's tests/basics and tests/float on the SAMD51 images.

    python -m sultan_host.cptests [--boards pybadge,pygamer] [--cp 10] [--only REGEX] [--out DIR]
        [--sim-s 60] [--cpu-s 120] [--pico] [--quiet]

Every image of the boards in vendor-local/<board>/, oldest first; each test in a fresh copy of the booted
machine, judged as run-tests.py judges it.  Prints the counts, each failure and crash with why, the
times; writes DIR/results.json.  A bad argument or no tests: one line, exit 2.  Exit 0 even with failures:
the figures are the product.  --pico: each test that failed or crashed runs again on the Pico's
CircuitPython of the same major in tools/emulate, and the report says whether it fails the same way there
(a build option).
"""

import os
import re
import sys
import tempfile
import time

from sultan_host.args import ToolParser, real_in
from sultan_host.board.sources import ROOT
from sultan_host.cptests import runner, source

POSITIVE = real_in(0, 1e6, lo_open=True)


def parse(argv):
    p = ToolParser("cptests", prog="python -m sultan_host.cptests", description=__doc__.splitlines()[0])
    p.add_argument("--boards", default=",".join(runner.BOARDS), help="comma-separated (pybadge,pygamer)")
    p.add_argument("--cp", type=int, help="only images of this CircuitPython major (9, 10)")
    p.add_argument("--only", help="a regex searched in each test's path, e.g. 'basics/list' or 'float/'")
    p.add_argument("--out", default=os.path.join(ROOT, "build", "cptests", "results"), help="results' folder")
    p.add_argument("--sim-s", type=POSITIVE, default=runner.SIM_S, help="a test's simulated-time limit")
    p.add_argument("--cpu-s", type=POSITIVE, default=runner.CPU_S, help="a test's host CPU-time limit")
    p.add_argument("--pico", action="store_true", help="run what did not pass on the Pico's too")
    p.add_argument("--quiet", action="store_true", help="only the summary")
    a = p.parse_args(argv)
    a.boards = tuple(b for b in a.boards.split(",") if b)
    unknown = [b for b in a.boards if b not in runner.BOARDS]
    if unknown or not a.boards:
        p.error("--boards: %s: not among %s" % (",".join(unknown) or "none", ",".join(runner.BOARDS)))
    if a.only:
        try:
            re.compile(a.only)
        except re.error as err:
            p.error("--only %r: %s" % (a.only[:40], err))
    return a


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    from sultan_host.cptests import judge, report

    started = time.time()

    def log(text):
        if not a.quiet:
            sys.stderr.write("[cptests %.0fs] %s\n" % (time.time() - started, text))
    try:
        root = source.locate()
    except source.NoTests as err:
        sys.stderr.write("cptests: %s\n" % err)
        return 2
    found = runner.images(a.boards, cp=a.cp)
    if not found:
        sys.stderr.write("cptests: no %s UF2 in %s/{%s}/\n" % (
            "CircuitPython %d" % a.cp if a.cp else "CircuitPython", runner.VENDOR, ",".join(a.boards)))
        return 2
    tests = source.tests(root, a.only)
    if not tests:
        sys.stderr.write("cptests: no test matches --only %r\n" % a.only)
        return 2
    expected = judge.Expected(root)
    runs = []
    with tempfile.TemporaryDirectory(prefix="cptests-") as empty:
        for image in found:
            suite = runner.Suite(image, root, expected, empty, log=log, sim_s=a.sim_s, cpu_s=a.cpu_s)
            runs.append(suite.run(tests))
            path = report.write(runs, a.out)   # after each image: a long run keeps what it has
    if a.pico:
        from sultan_host.cptests import pico

        pico.annotate(runs, root, expected, log)
        path = report.write(runs, a.out)
    print("CircuitPython %s tests (%d) in %s, %.0f s in all" % (
        source.TAG, len(tests), root, time.time() - started))
    for line in report.summary_lines(runs):
        print(line)
    print("results: %s" % os.path.relpath(path, ROOT))
    return 0

