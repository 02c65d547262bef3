"""The arguments of the board build (``make build``, ``tools/build_circuitpy.py``,
``python -m sultan_host.board``)::

    build_circuitpy [--cp 8|9|10] [--py-only] [--mpy-cross PATH] [--out DIR]

Writes ``build/CIRCUITPY/`` (code.py, the board profiles and lib/sultan compiled to .mpy for the
target CircuitPython; ``--py-only`` ships plain .py files instead, code.py always stays .py) and
``build/CIRCUITPY.json``.  A bad argument exits 2 with one line; a failed build exits 1.
"""

import argparse
import os
import sys

from sultan_host.board.compiler import CP_VERSIONS, DEFAULT_CP
from sultan_host.board.sources import DEFAULT_OUT, FIRMWARE, ROOT, BuildError
from sultan_host.board.tree import build

DESCRIPTION = "Build the CIRCUITPY drive: build/CIRCUITPY/ with code.py, the board profiles and lib/."


class ArgParser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line (no usage block) and exits 2."""

    def error(self, message):
        if len(message) > 300:
            message = message[:300] + "..."
        self.exit(2, "%s: %s\n" % (self.prog, message))


def check_checkout(ap):
    """The sources are there: an installed wheel has no firmware/ (and nothing is made beside it)."""
    if not os.path.isdir(FIRMWARE):
        ap.error("%s is no checkout of the project (no firmware/): run the tools/ script of a clone, "
                 "or set SULTAN_CHECKOUT" % ROOT)


def check_out(ap, out):
    """``out`` is replaced whole: refuse anything but a missing, empty or earlier build folder."""
    if not out:
        ap.error("--out: empty path")
    if os.path.lexists(out):
        if not os.path.isdir(out) or os.path.islink(out):
            ap.error("--out %s: not a directory" % out)
        if os.listdir(out) and not os.path.isfile(os.path.join(out, "code.py")):
            ap.error("--out %s: not empty and not a CIRCUITPY build; it would be replaced" % out)
    parent = os.path.dirname(os.path.abspath(out))
    if parent == os.path.dirname(DEFAULT_OUT) and not os.path.lexists(parent):
        os.mkdir(parent)  # the project's own build/: a fresh clone has none yet
    if not os.path.isdir(parent):
        ap.error("--out %s: no folder %s" % (out, parent))


def check_mpy_cross(ap, path):
    if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        ap.error("--mpy-cross %s: not an executable file" % path)


def main(argv=None):
    ap = ArgParser(prog="build_circuitpy", description=DESCRIPTION)
    env_cp = os.environ.get("CP") or str(DEFAULT_CP)
    ap.add_argument("--cp", default=env_cp, help="target CircuitPython major (8, 9, 10)")
    ap.add_argument("--py-only", action="store_true", help="ship .py files, compile nothing")
    ap.add_argument(
        "--mpy-cross",
        default=os.environ.get("MPY_CROSS") or None,
        help="a CircuitPython mpy-cross to use instead",
    )
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    if args.cp not in [str(v) for v in CP_VERSIONS]:
        ap.error("--cp %.20s: want one of %s" % (args.cp, ", ".join(map(str, CP_VERSIONS))))
    check_checkout(ap)
    check_mpy_cross(ap, args.mpy_cross)
    check_out(ap, args.out)
    try:
        build(int(args.cp), args.out, args.py_only, args.mpy_cross)
    except BuildError as e:
        print("build: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
