#!/usr/bin/env python3
"""Save figures: writes and erases per game, bytes per save, power cuts, torn-write cases, save/load time.

    python3 host/sultan_host/bench/save.py            # some minutes (the power cuts replay a save each)
    python3 host/sultan_host/bench/save.py --deals 50 --quick

Writes per game are counted with the store's real policy (``sultan.saves.store.Store``)
three ways: at autoplay pace (a save after every action, no pauses), with a
model of a human player (think times between actions; the app's loop calls
``idle()``, so a pause of ``idle_ms`` writes what is pending), and, for
comparison, the naive policy of one write per action.

Erases per game and power cuts are counted on models of the two boards' NVM as their
CircuitPython ports write it (``sultan_host.bench.ports``), for each layout: the Pico's
two slots in 2 KB (the layout before the log), the Pico's log over its 4 KB sector, the
PyBadge's two slots.  A power cut is put at moments spread evenly over each write's flash
time (erase and page programs), so each class's share is of the time the flash is busy.
"""

import argparse
import random
import sys
import time

from sultan.rules import engine
from sultan.rules.engine import Game
from sultan.saves import record as save
from sultan.saves.memory import MemoryRegion
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import DAMAGED, Store

from sultan_host.bench.mash import state
from sultan_host.bench.ports import Rp2040Nvm, Samd51Nvm, apply, busy_ms

ENDURANCE = 10000  # erase cycles we plan with (flash blocks are rated 10k..100k)
# name: (the port's NVM, region size, writing erased bytes costs no erase, endurance in erase cycles)
LAYOUTS = (
    ("Pico, two slots in 2 KB (before)", Rp2040Nvm, 2048, False, 100000),  # W25Q16JV: 100k cycles min
    ("Pico, log over 4 KB", Rp2040Nvm, 4096, True, 100000),
    ("PyBadge, two slots in 2 KB", Samd51Nvm, 2048, False, 10000),  # SAMD5x: 10k cycles min
)
CLASSES = ("last write", "the one before", "fresh, damage message", "no save (all erased)", "other")


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
        off = st.last  # the slot the last write went to
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


class Traced:
    """Mixin: a port's NVM remembering every write: (bytes before, flash operations)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.trace = []
        self.sizes = []

    def __setitem__(self, key, data):
        if self.trace is not None:
            self.trace.append((bytes(self.mem), self.plan(key.start, data)))
        self.sizes.append(len(data))
        super().__setitem__(key, data)


def layout_store(layout, nvm):
    _name, _kind, size, erase_free, _endurance = layout
    return Store(NvmRegion(nvm, 0, size, erase_free))


def erases_per_game(layout, deals, think=None, trace=False):
    """(erases a game, writes a game, mean bytes handed to the NVM a write, flash ms a write, the NVM)."""
    nvm = type("T", (Traced, layout[1]), {})()
    if not trace:
        nvm.trace = None
    store = layout_store(layout, nvm)
    store.load()
    g = Game(deal=1)
    rnd = random.Random(1)
    for d in deals:
        play_game(store, g, d, rnd, think)
        store.flush()
    n = len(deals)
    return nvm.erases / n, nvm.writes / n, sum(nvm.sizes) / len(nvm.sizes), nvm.busy_ms / nvm.writes, nvm


def boot(layout, mem):
    """What a board boots into over NVM bytes ``mem``: (state or None, statistics rows, message)."""
    st = layout_store(layout, layout[1](data=mem))
    g = st.load()
    if st.fault is not None:
        return ("fault", st.fault)
    return state(g) if g is not None else None, [tuple(r) for r in st.stats.rows], st.message


def cut_shares(layout, deals, per_write=20):
    """{class: share of the flash's busy time}: a power cut at moments spread over every write."""
    nvm = erases_per_game(layout, deals, trace=True)[4]
    rnd = random.Random(2)
    weight = dict.fromkeys(CLASSES, 0.0)
    after = boot(layout, nvm.trace[0][0])
    for k, (mem, plan) in enumerate(nvm.trace):
        before = after
        after = boot(layout, nvm.trace[k + 1][0] if k + 1 < len(nvm.trace) else nvm.mem)
        total = busy_ms(plan)
        for j in range(per_write):
            cut = apply(mem, plan, total * (j + 0.5) / per_write, rnd)
            got = boot(layout, cut)
            if got == after:
                c = CLASSES[0]
            elif got == before:
                c = CLASSES[1]
            elif got[0] is None and got[2] == DAMAGED:
                c = CLASSES[2]
            elif got == (None, [], None) and cut.count(0xFF) == len(cut):
                c = CLASSES[3]
            else:
                c = CLASSES[4]
            weight[c] += total / per_write
    whole = sum(weight.values())
    return {c: w / whole for c, w in weight.items()}, whole / len(nvm.trace)


def layouts(deals, cut_deals):
    """The erase and power-cut figures of each layout, printed."""
    worst = 0
    for layout in LAYOUTS:
        name, _kind, _size, _free, endurance = layout
        auto = erases_per_game(layout, deals)
        human = erases_per_game(layout, deals, think=human_think)
        print("%s:" % name)
        print("  erases per game: %.2f at autoplay pace (%.1f writes), %.2f human (%.1f writes)" % (
            auto[0], auto[1], human[0], human[1]))
        print("  games before %d erase cycles: %d at autoplay pace, %d human" % (
            endurance, endurance / auto[0], endurance / human[0]))
        print("  bytes handed to the NVM a write: %.0f; flash busy a write: %.1f ms" % (auto[2], auto[3]))
        shares, busy = cut_shares(layout, cut_deals)
        print("  power cut at a moment the flash is busy (%d deals, %.1f ms busy a write): %s" % (
            len(cut_deals), busy, ", ".join("%s %.1f%%" % (c, 100 * v) for c, v in shares.items())))
        lost = shares[CLASSES[2]] + shares[CLASSES[3]]
        print("  flash busy %.0f ms a game (autoplay pace), of which a cut loses the save in %.0f ms" % (
            auto[1] * auto[3], auto[1] * auto[3] * lost))
        worst = max(worst, shares["other"])
    return worst


def timing():
    g = Game(deal=7)
    for _ in range(250):
        g.step()
    st = Store(MemoryRegion(), max_pending=1)
    st.save(g)
    t = time.perf_counter()
    for _ in range(200):  # the record's write itself (Slots.write), as each save that writes makes it
        st.write(st.stats, st.game_no, st.recorded, g, st.settings)
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
    other = layouts(deals, range(1, 4 if args.quick else 11))
    return 1 if failures or other else 0


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
