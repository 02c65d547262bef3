#!/usr/bin/env python3
"""Save figures: writes per game, bytes per save, torn-write cases tried, save/load time.

    python3 tools/bench_save.py            # about half a minute
    python3 tools/bench_save.py --deals 50 --quick

Writes per game are counted with the store's real policy (``sultan.saves.store.Store``)
three ways: at autoplay pace (a save after every action, no pauses), with a
model of a human player (think times between actions; the app's loop calls
``idle()``, so a pause of ``idle_ms`` writes what is pending), and, for
comparison, the naive policy of one write per action.
"""

import argparse
import random
import sys
import time

from sultan.rules import engine
from sultan.rules.engine import Game
from sultan.saves import record as save
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import Store

from sultan_host.bench.mash import state

ENDURANCE = 10000  # erase cycles we plan with (flash blocks are rated 10k..100k)


class Counting(MemoryRegion):
    def __init__(self):
        MemoryRegion.__init__(self)
        self.sizes = []

    def write(self, offset, data):
        self.sizes.append(len(data))
        MemoryRegion.write(self, offset, data)


def play_game(store, g, deal, rnd=None, think=None):
    """One deal by the canonical policy, saved as the app saves; returns the actions taken."""
    g.new_deal(deal)
    now = 0
    store.save(g, now)
    n = 0
    while True:
        if think is not None:
            # the player thinks; the main loop calls idle() every 50 ms meanwhile
            pause = think(rnd)
            t = now
            while t + 50 < now + pause:
                t += 50
                store.idle(t)
            now += pause
        if not g.step():
            break
        n += 1
        store.save(g, now)
    if think is not None:
        store.idle(now + 60000)  # the player puts it down
    return n


def human_think(rnd):
    """Milliseconds between two actions: mostly quick, sometimes a long look (lognormal, median 1.5 s)."""
    return int(1500 * rnd.lognormvariate(0, 0.8))


def writes_per_game(deals, **kw):
    region = Counting()
    store = Store(region, **{k: v for k, v in kw.items() if k in ("max_pending", "idle_ms")})
    g = Game(deal=1)
    rnd = random.Random(1)
    actions = 0
    per = []
    for d in deals:
        w = store.writes
        actions += play_game(store, g, d, rnd, kw.get("think"))
        store.flush()
        per.append(store.writes - w)
    return store.writes / len(deals), max(per), actions / len(deals), region.sizes


def torn_cases(deals):
    """Cut the last write of a few games at every byte and flip every bit; count and check."""
    cases = failures = 0
    for d in deals:
        region = Counting()
        st = Store(region, max_pending=10**6)
        g = Game(deal=d)
        st.save(g)
        st.flush()
        for _ in range(40):
            g.step()
            st.save(g)
        st.flush()
        base = bytes(region.data)
        before = state(Store(MemoryRegion(data=base)).load())
        g.autoplay()
        st.save(g)
        st.flush()
        after = state(g)
        off = (st.slot_next ^ 1) * st.slot_size
        data = bytes(region.data[off:off + region.sizes[-1]])
        trials = []
        for cut in range(len(data) + 1):
            r = bytearray(base)
            r[off:off + cut] = data[:cut]
            trials.append(bytes(r))
        for bit in range(8 * len(data)):
            r = bytearray(base)
            r[off:off + len(data)] = data
            r[off + bit // 8] ^= 1 << (bit % 8)
            trials.append(bytes(r))
        for t in trials:
            got = Store(MemoryRegion(data=t)).load()
            cases += 1
            if got is None or state(got) not in (before, after):
                failures += 1
    return cases, failures


def timing():
    g = Game(deal=7)
    for _ in range(250):
        g.step()
    st = Store(MemoryRegion(), max_pending=1)
    st.save(g)
    t = time.perf_counter()
    for _ in range(200):
        st._write(g)
    t_save = (time.perf_counter() - t) / 200
    t = time.perf_counter()
    for _ in range(50):
        Store(st.region).load()
    t_load = (time.perf_counter() - t) / 50
    return g.log_end, st.bytes_written // st.writes, t_save, t_load


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="deals 1..N for the write counts")
    ap.add_argument("--quick", action="store_true", help="fewer torn-write games")
    args = ap.parse_args(argv)
    deals = range(1, args.deals + 1)

    auto = writes_per_game(deals)
    human = writes_per_game(deals, think=human_think)
    naive = writes_per_game(deals, max_pending=1)
    sizes = auto[3] + human[3]
    print("deals: %d (canonical policy), %.0f actions a game on average" % (len(deals), auto[2]))
    print("writes per game, autoplay pace:       %.1f (max %d)" % (auto[0], auto[1]))
    print("writes per game, human pace (idle 10s): %.1f (max %d)" % (human[0], human[1]))
    print("writes per game, one per action:      %.1f (what the policy avoids)" % naive[0])
    print("bytes per save: min %d, mean %.0f, max %d (largest possible record %d, slot %d)" % (
        min(sizes), sum(sizes) / len(sizes), max(sizes), largest_record(), save.SLOT_MAX))
    for name, w in (("autoplay pace", auto[0]), ("human pace", human[0]), ("one per action", naive[0])):
        print("games before %d erase cycles, %s: %d" % (ENDURANCE, name, ENDURANCE / w))
    cases, failures = torn_cases(range(1, 3 if args.quick else 6))
    print("torn-write cases tried: %d (cut at every byte + every single bit flipped), failures: %d" % (
        cases, failures))
    log_end, nbytes, t_save, t_load = timing()
    print("CPython: save %.2f ms, load (replay %d actions) %.2f ms, record %d bytes" % (
        t_save * 1000, log_end, t_load * 1000, nbytes))
    return 1 if failures else 0


def largest_record():
    from sultan.saves.stats import MAX_ROWS, Stats

    s = Stats()
    for r in range(MAX_ROWS):
        s.record(r, True, 95)
    g = Game(deal=1)
    g.log_end = engine.MAX_ACTIONS  # size only
    g.deal = 0
    n = save.record_size(s, g)
    return n


if __name__ == "__main__":
    sys.exit(main())
