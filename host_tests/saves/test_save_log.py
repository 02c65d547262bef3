"""Saves as a log in erased flash: the Pico's NVM written as the RP2040 port writes it
(program-only into erased bytes, else erase + program the 4 KB sector), cut at every byte and at
seeded moments of each flash operation; saves of the two-slot layout; the PyBadge (erase every time)."""

import random
import sys

import pytest
from runners import run_micropython
from sultan.rules import engine
from sultan.rules.engine import Game
from sultan.saves import reader
from sultan.saves.nvm import NvmRegion
from sultan.saves.stats import get
from sultan.saves.store import DAMAGED, Store
from sultan_host.bench.mash import state
from sultan_host.bench.ports import ERASE, Rp2040Nvm, Samd51Nvm, apply, busy_ms

LAST, BEFORE, FRESH_DAMAGED, NO_SAVE = "last write", "the one before", "fresh, damage message", "no save"


NO_SAVE_LOOK = (None, [], None)
# the outcomes a cut inside an erase (and the programming after it) may have
ERASE_CLASSES = (LAST, BEFORE, FRESH_DAMAGED, NO_SAVE)


class Recording:
    """Mixin: the port's NVM, remembering each write's bytes before it and its flash operations."""

    def __setitem__(self, key, data):
        self.last = (bytes(self.mem), self.plan(key.start, data))
        super().__setitem__(key, data)


class Pico(Recording, Rp2040Nvm):
    pass


class Badge(Recording, Samd51Nvm):
    pass


def pico_store(nvm):
    return Store(NvmRegion(nvm, 0, 4096, True), max_pending=10**6)


def badge_store(nvm):
    return Store(NvmRegion(nvm, 0, 2048, False, True), max_pending=10**6)


def look(mem, kind=Rp2040Nvm, make=pico_store):
    """What a board boots into over NVM bytes ``mem``: (state or None, statistics rows, message)."""
    st = make(kind(data=mem))
    g = st.load()
    assert st.fault is None, st.fault  # damage is found by checks, never by an exception
    return state(g) if g is not None else None, [tuple(r) for r in st.stats.rows], st.message


def classify(got, before, after, mem=None):
    """The outcome class of a boot (``look``); ``mem``: the NVM it booted over, which must be all
    erased for "no save" (an erase cut at its very end: told from a new board's NVM by nothing)."""
    if got == NO_SAVE_LOOK and mem is not None:
        assert mem.count(0xFF) == len(mem), "no save over bytes that are not all erased"
    if got == after:
        return LAST
    if got == before:
        return BEFORE
    if got[0] is None and got[2] == DAMAGED:
        return FRESH_DAMAGED
    if got == NO_SAVE_LOOK:
        return NO_SAVE
    return "other: %r" % (got,)


def writes_until(nvm, st, g, erase):
    """Play ``g`` on, one write at a time, until a write does (``erase``) or does not erase."""
    for _ in range(400):
        for _ in range(3):
            g.step()
        st.save(g)
        st.flush()
        if any(op[0] == ERASE for op in nvm.last[1]) == erase:
            return
        if g.status() != engine.PLAYING:
            g.new_deal(g.deal + 1)
    raise AssertionError("no such write")


def a_write(kind, erase, deal=31, make=pico_store):
    """(NVM bytes before, flash operations, state before, state after) of a Pico write that does
    or does not erase, some way into a game (its statistics non-empty: a lost game counted)."""
    nvm = kind()
    st = make(nvm)
    st.load()
    g = Game(deal=deal)
    st.save(g)
    g.autoplay()
    st.save(g)  # decided: counted
    g.new_deal(deal + 1)
    st.save(g)
    st.flush()
    writes_until(nvm, st, g, erase)
    if erase and not kind.every_write_erases:  # one more round: the records before the erase are a game's
        writes_until(nvm, st, g, False)
        writes_until(nvm, st, g, True)
    mem, plan = nvm.last
    before = look(mem, kind, make)
    after = look(bytes(nvm.mem), kind, make)
    assert before != after and before[0] is not None
    return mem, plan, before, after


# ------------------------------------------------------------------ the Pico: an append


def test_the_log_appends_into_erased_bytes_without_an_erase():
    nvm = Pico()
    st = pico_store(nvm)
    assert st.load() is None and st.end is not None
    g = Game(deal=4)
    ends = []
    for _ in range(6):
        for _ in range(5):
            g.step()
        st.save(g)
        st.flush()
        ends.append(st.end)
        assert state(pico_store(Rp2040Nvm(data=nvm.mem)).load()) == state(g)
    assert nvm.erases == 0 and nvm.writes == 6
    assert ends == sorted(ends) and nvm.mem[ends[-1]:] == b"\xff" * (4096 - ends[-1])
    # the records lie one after another from 0, each a whole record
    at = 0
    for _ in range(6):
        rec = reader.decode(memoryview(nvm.mem)[at:])
        assert rec is not None
        at += rec.log_at + 2 * rec.log_end + 4
    assert at == ends[-1]


def test_an_append_cut_at_every_byte_loads_the_last_write_or_the_one_before():
    mem, plan, before, after = a_write(Pico, erase=False)
    final = apply(mem, plan)
    changed = [i for i in range(4096) if final[i] != mem[i]]
    lo, hi = changed[0], changed[-1] + 1
    seen = set()
    for cut in range(lo, hi + 1):  # bytes programmed in address order up to the cut
        got = classify(look(final[:cut] + mem[cut:]), before, after)
        assert got in (LAST, BEFORE), "cut at byte %d of %d..%d: %s" % (cut, lo, hi, got)
        seen.add(got)
    assert seen == {LAST, BEFORE}


def test_an_append_cut_at_seeded_moments_of_its_page_programs_loads_the_last_write_or_the_one_before():
    mem, plan, before, after = a_write(Pico, erase=False, deal=33)
    assert all(op[0] != ERASE for op in plan) and busy_ms(plan) < 2
    rnd = random.Random(5)
    total = busy_ms(plan)
    for k in range(120):
        got = classify(look(apply(mem, plan, total * (k + 0.5) / 120, rnd)), before, after)
        assert got in (LAST, BEFORE), (k, got)


# ------------------------------------------------------------------ the Pico: a rewrite


def test_a_full_log_is_rewritten_in_one_erase_the_newest_record_first():
    mem, plan, before, after = a_write(Pico, erase=True)
    assert [op[0] for op in plan].count(ERASE) == 1
    final = apply(mem, plan)
    first = reader.decode(memoryview(final))
    second = reader.decode(memoryview(final)[first.log_at + 2 * first.log_end + 4:])
    assert second.seq == first.seq + 1  # the record kept, then the new one
    end = first.log_at + 2 * first.log_end + 4 + second.log_at + 2 * second.log_end + 4
    assert final[end:] == b"\xff" * (4096 - end)  # erased after the two: room for the next appends


def test_a_rewrite_cut_at_every_byte_of_its_programming_never_half_loads():
    mem, plan, before, after = a_write(Pico, erase=True)
    final = apply(mem, plan)
    end = max(i for i in range(4096) if final[i] != 0xFF) + 1
    seen = set()
    for cut in range(0, end + 1):  # erased, then programmed in address order up to the cut
        got = classify(look(final[:cut] + b"\xff" * (4096 - cut)), before, after)
        if cut == 0:  # erased, nothing programmed: a new board's NVM (told apart by nothing)
            assert got == NO_SAVE
        else:
            assert got in (LAST, BEFORE, FRESH_DAMAGED), "cut at byte %d: %s" % (cut, got)
        seen.add(got)
    assert seen == {LAST, BEFORE, FRESH_DAMAGED, NO_SAVE}


def test_a_rewrite_cut_inside_its_erase_is_a_fresh_game_with_the_message_or_the_one_before():
    mem, plan, before, after = a_write(Pico, erase=True, deal=35)
    erase = plan[:1]
    rnd = random.Random(7)
    seen = set()
    for k in range(60):
        progress = (k + 0.5) / 60
        cut = apply(mem, erase, 45 * progress, rnd)
        got = classify(look(cut), before, after, cut)
        assert got in (BEFORE, FRESH_DAMAGED, NO_SAVE), (progress, got)
        seen.add(got)
    assert FRESH_DAMAGED in seen


def record_states(mem):
    """The states of the records laid one after another from 0 in NVM bytes ``mem``."""
    out = []
    at = 0
    while True:
        rec = reader.decode(memoryview(mem)[at:])
        if rec is None:
            return out
        if rec.has_game:
            out.append(state(reader.restore(rec, memoryview(mem)[at:])))
        at += rec.log_at + 2 * rec.log_end + 4


@pytest.mark.parametrize("deal", [31, 35])
def test_a_cut_as_an_erase_begins_may_leave_an_older_record_whole_never_half_loaded(deal):
    """An erase takes the sector's bits to 1 a few at a time: a cut in its first moments can kill the
    newest record and leave an older (smaller) one whole.  That older state comes back, whole: the
    one window where a cut gives a state older than the one before (docs/saves.md, Power cuts)."""
    mem, plan, before, after = a_write(Pico, erase=True, deal=deal)
    olders = record_states(mem)
    rnd = random.Random(1)
    seen = set()
    for k in range(400):
        progress = 0.02 * (k + 0.5) / 400  # the first 2% of the erase
        cut = apply(mem, plan[:1], 45 * progress, rnd)
        got = classify(look(cut), before, after, cut)
        if got.startswith("other"):
            assert look(cut)[0] in olders and look(cut)[2] is None, (progress, got)
            got = "older, whole"
        assert got in (BEFORE, FRESH_DAMAGED, NO_SAVE, "older, whole"), (progress, got)
        seen.add(got)
    assert "older, whole" in seen and FRESH_DAMAGED in seen  # the window is real, and reported


def test_a_rewrite_cut_at_seeded_moments_never_half_loads():
    mem, plan, before, after = a_write(Pico, erase=True, deal=37)
    rnd = random.Random(9)
    total = busy_ms(plan)
    for k in range(200):
        cut = apply(mem, plan, total * (k + 0.5) / 200, rnd)
        got = classify(look(cut), before, after, cut)
        assert got in ERASE_CLASSES, (k, got)


# ------------------------------------------------------------------ saves of the two-slot layout


def two_slot_bytes(writes):
    """A Pico NVM as the two-slot layout left it (2 KB used), after ``writes`` writes; the game."""
    nvm = Rp2040Nvm()
    st = Store(NvmRegion(nvm, 0, 2048, False), max_pending=10**6)
    st.load()
    g = Game(deal=44)
    for _ in range(writes):
        for _ in range(7):
            g.step()
        st.save(g)
        st.flush()
    return bytes(nvm.mem), g


@pytest.mark.parametrize("writes", [1, 2, 3])
def test_a_two_slot_save_loads_and_the_first_write_moves_it_to_the_log(writes):
    mem, g = two_slot_bytes(writes)
    nvm = Pico(data=mem)
    st = pico_store(nvm)
    assert state(st.load(Game(deal=1))) == state(g) and st.message is None
    for n in range(8):
        g.step()
        st.save(g)
        st.flush()
        ops = [op[0] for op in nvm.last[1]]
        if n == 0 and writes > 1:  # slot 1 in use: nothing erased to append to: rewritten
            assert ERASE in ops
        else:  # a lone slot 0 is the log's first record already
            assert ERASE not in ops
        assert state(pico_store(Rp2040Nvm(data=nvm.mem)).load()) == state(g)


def test_the_first_write_after_a_two_slot_save_cut_anywhere_never_half_loads():
    mem, g = two_slot_bytes(3)
    before = look(mem)
    nvm = Pico(data=mem)
    st = pico_store(nvm)
    st.load(Game(deal=1))
    g.step()
    st.save(g)
    st.flush()
    mem0, plan = nvm.last
    after = look(bytes(nvm.mem))
    rnd = random.Random(3)
    total = busy_ms(plan)
    for k in range(100):
        cut = apply(mem0, plan, total * (k + 0.5) / 100, rnd)
        got = classify(look(cut), before, after, cut)
        assert got in ERASE_CLASSES, (k, got)


def old_firmware_reads(mem):
    """The two-slot reader of earlier firmware: a record at 0 or 1024 of the first 2 KB, the newer wins."""
    recs = []
    for at in (0, 1024):
        rec = reader.decode(memoryview(mem)[at:at + 1024])
        if rec is not None:
            recs.append((rec.seq, at, rec))
    if not recs:
        return None
    seq, at, rec = max(recs)
    return reader.restore(rec, memoryview(mem)[at:at + 1024])


def test_a_downgrade_reads_an_older_state_of_the_log_never_damage():
    """Earlier firmware finds the log's first record at 0 (the one kept by the last rewrite, or the
    log's first): a state some writes old, whole; never a half-loaded game."""
    nvm = Pico()
    st = pico_store(nvm)
    st.load()
    g = Game(deal=52)
    states = []
    for _ in range(30):
        for _ in range(4):
            g.step()
        st.save(g)
        st.flush()
        states.append(state(g))
        old = old_firmware_reads(bytes(nvm.mem))
        assert old is not None and state(old) in states


# ------------------------------------------------------------------ the PyBadge; small regions


def test_the_pybadge_writes_each_record_into_both_slots_with_one_erase():
    nvm = Badge()
    st = badge_store(nvm)
    assert st.load() is None and st.end is None and st.mirror
    g = Game(deal=8)
    for k in range(5):
        for _ in range(6):
            g.step()
        st.save(g)
        st.flush()
        n = get(nvm.mem, 8, 2)
        assert nvm.mem[0:n] == nvm.mem[1024:1024 + n] and get(nvm.mem, 4, 4) == k + 1
        assert nvm.erases == k + 1
    assert nvm.mem[2048:] == b"\xff" * 6144
    assert state(badge_store(Samd51Nvm(data=nvm.mem)).load()) == state(g)


def test_a_pybadge_erase_cut_that_spares_one_slot_gives_the_newest_record():
    """Either slot left whole by a part-done erase holds the newest record: never an older one."""
    mem, plan, before, after = a_write(Badge, erase=True, make=badge_store)
    for spared in (0, 1024):
        cut = bytearray(b"\xff" * len(mem))
        cut[spared:spared + 1024] = mem[spared:spared + 1024]
        assert classify(look(bytes(cut), Samd51Nvm, badge_store), before, after, cut) == BEFORE


def test_a_pybadge_erase_cut_at_its_first_moments_never_loads_an_older_record():
    mem, plan, before, after = a_write(Badge, erase=True, make=badge_store)
    erase_ms = plan[0][3]
    rnd = random.Random(5)
    seen = set()
    for k in range(200):
        cut = apply(mem, plan, erase_ms * 0.02 * (k + 0.5) / 200, rnd)  # inside its first 2 %
        got = classify(look(cut, Samd51Nvm, badge_store), before, after, cut)
        assert got in (BEFORE, FRESH_DAMAGED), (k, got)
        seen.add(got)
    assert seen == {BEFORE, FRESH_DAMAGED}


def test_a_pybadge_write_cut_at_seeded_moments_never_half_loads():
    mem, plan, before, after = a_write(Badge, erase=True, make=badge_store)
    rnd = random.Random(11)
    total = busy_ms(plan)
    seen = set()
    for k in range(150):
        cut = apply(mem, plan, total * (k + 0.5) / 150, rnd)
        got = classify(look(cut, Samd51Nvm, badge_store), before, after, cut)
        assert got in ERASE_CLASSES, (k, got)
        seen.add(got)
    assert FRESH_DAMAGED in seen


def test_a_region_below_2_kb_keeps_two_slots_even_where_appends_are_free():
    nvm = bytearray(b"\xff" * 1024)
    st = Store(NvmRegion(nvm, 0, 1024, True))
    assert st.end is None and st.slot_size == 512
    g = Game(deal=3)
    st.save(g)
    st.flush()
    g.step()
    st.save(g)
    st.flush()
    assert st.last == 512 and state(Store(NvmRegion(nvm, 0, 1024, True)).load()) == state(g)


def test_open_store_on_the_rp2040_port_takes_the_whole_sector_as_a_log(monkeypatch):
    from sultan.saves import nvm as nvmsave

    class M:
        nvm = bytearray(b"\xff" * 4096)

    monkeypatch.setitem(sys.modules, "microcontroller", M)
    monkeypatch.setattr(sys, "platform", "RP2040")
    st = nvmsave.open_store()
    assert len(st.region) == 4096 and st.end is not None
    M.nvm = bytearray(b"\xff" * 8192)
    monkeypatch.setattr(sys, "platform", "MicroChip SAMD51")
    st = nvmsave.open_store()
    assert len(st.region) == 2048 and st.end is None


# ------------------------------------------------------------------ the same bytes on MicroPython


LOG_GAME = """
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import Store
from sultan.rules.engine import Game
nvm = bytearray(b'\\xff' * 4096)
st = Store(NvmRegion(nvm, 0, 4096, True), 8)
st.load()
g = Game(deal=%d)
while g.step():
    st.save(g)
st.flush()
again = Store(NvmRegion(nvm, 0, 4096, True))
back = again.load()
print(st.writes, back.moves == g.moves, again.message, bytes(nvm).hex())
"""


@pytest.mark.micropython
def test_the_log_on_micropython_writes_the_bytes_cpython_writes(mpy_lib):
    deal = 61
    nvm = bytearray(b"\xff" * 4096)
    st = Store(NvmRegion(nvm, 0, 4096, True), 8)
    st.load()
    g = Game(deal=deal)
    while g.step():
        st.save(g)
    st.flush()
    writes, same, message, mem = run_micropython(LOG_GAME % deal, heap="128K", path=mpy_lib).split()
    assert int(writes) == st.writes > 20 and same == "True" and message == "None"  # rewritten on the way
    assert bytes.fromhex(mem) == bytes(nvm)


def test_the_log_erases_the_pico_about_once_a_game_the_two_slots_at_every_write():
    """The bench's erase figures (docs/saves.md) on ten deals: the claim the log is built for."""
    from sultan_host.bench.save import LAYOUTS, erases_per_game

    slots, log, badge = (erases_per_game(layout, range(1, 11)) for layout in LAYOUTS)
    assert log[1] == slots[1] == badge[1] > 8  # the same writes a game in every layout
    assert slots[0] > 8 and badge[0] == badge[1]  # an erase (nearly) every write
    assert log[0] <= 1.2 and log[3] < slots[3] / 5  # about once a game; the flash far less busy
