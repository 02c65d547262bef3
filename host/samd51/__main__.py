"""``python -m samd51 --uf2 FILE [--instructions N] [--flash IMG] [--bootloader BIN] [--board NAME]``

Boots a firmware and prints where it went: the log (unmodelled accesses first seen, in order), the
figures (cycles, simulated ms, host seconds, cycles per host second), a histogram of where time went and
the last PC.
"""

import argparse
import collections
import os
import sys
import time


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage block
        sys.stderr.write("samd51: %s\n" % message)
        sys.exit(2)


def _args(argv):
    p = _Parser(prog="python -m samd51", description=__doc__.splitlines()[0])
    p.add_argument("--uf2", required=True, help="the firmware (UF2)")
    p.add_argument("--instructions", type=int, default=50_000_000,
                   help="cycles to run (the time model's: docs/samd51.md); default 50M")
    p.add_argument("--flash", help="an image of the board's QSPI flash (CIRCUITPY), no larger than the chip")
    p.add_argument("--bootloader", help="the 16 KB UF2 bootloader to run first (optional)")
    p.add_argument("--board", default="pybadge", help="the board (samd51/boards/NAME.py); default pybadge")
    p.add_argument("--top", type=int, default=15, help="lines of the PC histogram")
    p.add_argument("--quiet", action="store_true", help="no log lines while running")
    p.add_argument("--serial", action="store_true",
                   help="a USB host enumerates the board and prints its CDC serial output (kind 'serial')")
    args = p.parse_args(argv)
    for path in (args.uf2, args.flash, args.bootloader):
        if path is not None and not os.path.isfile(path):
            p.error("no such file: %s" % path)
    if args.instructions <= 0:
        p.error("--instructions must be positive")
    return args


def _board(name):
    from . import boards
    try:
        return boards.load(name)
    except LookupError as err:
        sys.stderr.write("samd51: %s\n" % err)
        sys.exit(2)


class Histogram:
    """Cycles by 256-byte region of code: the C block counter's, else counted in the Python block hook."""

    def __init__(self, mcu):
        self.counts = collections.Counter()
        self.mcu = mcu
        if mcu.native is None:
            mcu.profile = self

    def add(self, address, halfwords):
        self.counts[address & ~0xFF] += halfwords

    def totals(self):
        return (self.mcu.native.histogram() if self.mcu.native else self.counts).values()

    def lines(self, top):
        counts = collections.Counter(self.mcu.native.histogram()) if self.mcu.native else self.counts
        total = sum(counts.values()) or 1
        for region, n in counts.most_common(top):
            where = "outside flash" if region is None else "0x%08X" % region
            yield "  %-13s  %5.1f %%  %d" % (where, 100.0 * n / total, n)


def _usb_host(mcu):
    from .usbhost import UsbHost  # only --serial needs it
    return UsbHost(mcu, on_serial=lambda data: mcu.log("serial", repr(bytes(data))[2:-1]))


def _mcu_class():
    try:
        from .mcu import Mcu  # needs Unicorn: after --help and the arguments' checks
    except ImportError as err:
        if err.name != "unicorn":
            raise
        sys.stderr.write("samd51: needs Unicorn 2.1.4 (pip install 'sultan[emulator]', or make)\n")
        sys.exit(2)
    return Mcu


def main(argv=None):
    args = _args(sys.argv[1:] if argv is None else argv)
    Mcu = _mcu_class()
    board = _board(args.board)
    mcu = Mcu(board=board, verbose=not args.quiet)
    try:
        mcu.load_uf2(args.uf2)
    except ValueError as err:
        sys.stderr.write("samd51: %s\n" % err)
        return 2
    if args.bootloader:
        mcu.load_bin(0, open(args.bootloader, "rb").read())
    if args.flash:
        try:
            mcu.board.load_flash(open(args.flash, "rb").read())
        except ValueError as err:
            sys.stderr.write("samd51: --flash: %s\n" % err)
            return 2
    hist = Histogram(mcu)
    if args.serial:
        _usb_host(mcu)
    mcu.reset()
    started = time.time()
    reason = mcu.run(cycles=args.instructions)
    spent = time.time() - started
    print("stopped: %s" % reason)
    print("last pc: 0x%08X" % mcu.pc())
    print("cycles: %d  simulated: %.3f ms  host: %.2f s  %.2f M cycles/s  exceptions: %d  WFI: %d" % (
        mcu.cycles, mcu.now_ns() / 1e6, spent, mcu.cycles / spent / 1e6, mcu.nvic.entries, mcu.sleeps))
    t = mcu.timing.figures()
    print("CMCC %s: %d hits, %d misses at %d wait states; %d taken branches" % (
        "on" if t["cache_on"] else "off", t["hits"], t["misses"], t["wait_states"], t["taken"]))
    print("unmodelled registers touched: %d" % len(mcu.unmodelled_seen))
    for (name, offset), (ns, op, size, _value, _pc) in mcu.unmodelled_seen.items():
        print("  %8.3f ms  %s+0x%03X %s%d" % (ns / 1e6, name, offset, op, size * 8))
    print("where the executed cycles went (256-byte regions; %d cycles passed in WFI or skipped polls):" % (
        mcu.cycles - sum(hist.totals())))
    for line in hist.lines(args.top):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
