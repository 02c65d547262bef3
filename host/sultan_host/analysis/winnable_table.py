#!/usr/bin/env python3
"""Make the winnable-deal tables shipped in lib/sultan (``make winnable``).

    python3 -m sultan_host.analysis.winnable_table                    # both tables
    python3 -m sultan_host.analysis.winnable_table --rules seed --count 3000
    python3 -m sultan_host.analysis.winnable_table --check            # is each file's fingerprint current?

Seed rules: the first ``--count`` deals (from 1 up) that canonical autoplay
wins.  Classic rules: the first ``--count`` deals the classic solver (or the
hint policy) wins.  The file format is described in ``lib/sultan/rules/winnable.py``;
its fingerprint is a CRC-32 of what the generator and the rules make of a few
deals, so a changed generator or rule makes ``host_tests/rules/test_winnable.py``
fail until the tables are made again with this command.
"""

import argparse
import os
import re
import struct
import sys
import time
import zlib

from sultan.rules import engine, winnable
from sultan.rules.engine import RULES_CLASSIC, RULES_NAMES, RULES_SEED, TALON, Game

from sultan_host.analysis import solver as classic_solver
from sultan_host.analysis import survey
from sultan_host.paths import LIB

DEFAULT_COUNT = (3000, 2000)  # entries, by rules
FP_DEALS = (1, 2, 3, 1000, 65536, 16777215, 999999999)


def _simple_policy(g):
    """Play any fitting divan card, else the talon top, else turn, else redeal (no parking)."""
    while True:
        for i in range(6):
            if g.play_auto(i) == engine.OK:
                break
        else:
            if g.play_auto(TALON) == engine.OK:
                continue
            if g.turn() == engine.OK:
                continue
            if g.redeal() == engine.OK:
                continue
            return


def fingerprint(rules):
    """CRC-32 of the deals' cards and of a fixed policy's games under ``rules``."""
    data = bytearray([winnable.VERSION, rules])
    for n in FP_DEALS:
        g = Game(deal=n, rules=rules)
        data += bytes(g.divan) + bytes(g.stock[: g.stock_count])
    for n in range(1, 41):
        g = Game(deal=n, rules=rules)
        if rules == RULES_SEED:
            g.autoplay()
        else:
            _simple_policy(g)
        data += struct.pack("<BHB", g.placed, g.moves, g.pass_no)
        data += bytes(g.divan) + bytes(g.talon[: g.talon_count]) + bytes(g.stock[: g.stock_count])
    return zlib.crc32(bytes(data)) & 0xFFFFFFFF


def encode(rules, deals, fp=None):
    """The table file's bytes for ascending ``deals``."""
    deals = sorted(set(deals))
    width = 3 if not deals or deals[-1] < 1 << 24 else 4
    head = winnable.MAGIC + bytes((winnable.VERSION, rules, width, 0))
    head += struct.pack("<II", len(deals), fingerprint(rules) if fp is None else fp)
    return head + b"".join(n.to_bytes(width, "little") for n in deals)


def read_all(path):
    """(rules, width, fingerprint, [deals]) of a table file (host side, whole file)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:4] == winnable.MAGIC, "bad magic"
    rules, width = data[5], data[6]
    count, fp = struct.unpack("<II", data[8:16])
    body = data[16:]
    assert len(body) == count * width, "size does not match the count"
    deals = [int.from_bytes(body[i:i + width], "little") for i in range(0, len(body), width)]
    return rules, width, fp, deals


def collect(rules, count, jobs, budget):
    """The first ``count`` winnable deals from 1 up."""
    found = []
    lo = 1
    block = 100000 if rules == RULES_SEED else 1000
    while len(found) < count:
        hi = lo + block - 1
        sys.stderr.write("%s: deals %d-%d (%d found so far)\n" % (RULES_NAMES[rules], lo, hi, len(found)))
        found.extend(survey.winnable(rules, lo, hi, jobs, budget))
        lo = hi + 1
    return found[:count]


LAST_NAMES = ("LAST_SEED", "LAST_CLASSIC")  # sultan.rules.winnable's, by rules number


def write_last(rules, deal, src=None):
    """Write ``deal`` as the highest deal of ``rules``' table into ``src`` (sultan/rules/winnable.py:
    its ``LAST_SEED = const(n)`` line, or ``LAST_CLASSIC``'s)."""
    src = src or winnable.__file__
    with open(src, encoding="utf-8") as f:
        text = f.read()
    line = re.compile(r"^%s = const\(\d+\)$" % LAST_NAMES[rules], re.M)
    if len(line.findall(text)) != 1:
        raise SystemExit("%s: no single %s line to update" % (src, LAST_NAMES[rules]))
    with open(src, "w", encoding="utf-8") as f:
        f.write(line.sub("%s = const(%d)" % (LAST_NAMES[rules], deal), text))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", choices=RULES_NAMES + ("all",), default="all")
    p.add_argument("--count", type=int, default=None, help="entries (default: 3000 seed, 2000 classic)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--budget", type=int, default=classic_solver.DEFAULT_BUDGET,
                   help="classic solver: nodes per deal")
    p.add_argument("--check", action="store_true", help="only check the fingerprints of the existing files")
    args = p.parse_args(argv)
    which = (RULES_SEED, RULES_CLASSIC) if args.rules == "all" else (RULES_NAMES.index(args.rules),)
    status = 0
    for rules in which:
        path = winnable.table_path(rules)
        if args.check:
            _r, _w, fp, deals = read_all(path)
            ok = fp == fingerprint(rules) and deals[-1] == getattr(winnable, LAST_NAMES[rules])
            print("%s: %d deals, fingerprint %08x %s" % (path, len(deals), fp, "current" if ok else "STALE"))
            status |= not ok
            continue
        t0 = time.time()
        deals = collect(rules, args.count or DEFAULT_COUNT[rules], args.jobs, args.budget)
        data = encode(rules, deals)
        with open(path, "wb") as f:
            f.write(data)
        write_last(rules, deals[-1])
        print("%s: %d deals (%d-%d), %d bytes, %.0f s" % (
            os.path.relpath(path, os.path.dirname(LIB)),
            len(deals), deals[0], deals[-1], len(data), time.time() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main())
