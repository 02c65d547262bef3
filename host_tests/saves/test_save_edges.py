"""Saves at the edges: a quiet first boot, a damaged newer slot over a good older one,
sequence numbers that wrap, and the store's two halves (``Slots`` and ``Store``)."""

import pytest
from helpers import slot_next, spoil_last_move, two_slots
from sultan.rules.engine import Game
from sultan.saves import reader, record
from sultan.saves.memory import MemoryRegion
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import DAMAGED, Slots, Store
from sultan_host.bench.mash import state
from sultan_host.filesave import FileRegion, open_store


def played(deal, steps):
    g = Game(deal=deal)
    for _ in range(steps):
        g.step()
    return g


# ------------------------------------------------------------ a quiet first boot


def test_an_erased_region_is_no_save_and_quiet():
    """A new board's NVM reads all 0xFF: no game, no message, and nothing written (no wear)."""
    nvm = bytearray(b"\xff" * 8192)
    st = Store(NvmRegion(nvm))
    assert st.load() is None and st.message is None and st.fault is None
    assert st.writes == 0 and nvm == b"\xff" * 8192
    assert Store(MemoryRegion(data=b"\xff" * 2048)).load() is None  # the same bytes anywhere


def test_a_missing_or_empty_file_is_no_save(tmp_path):
    missing = open_store(str(tmp_path / "none.bin"))
    assert missing.load() is None and missing.message is None
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    st = open_store(str(empty))
    assert st.load() is None and st.message is None
    assert empty.read_bytes() == b""  # a look is not a write


@pytest.mark.parametrize("data", [b"SU", b"SU\x01", b"\x00", b"garbage" * 10, b"\x00" * 2048,
                                  b"\xff" * 1024 + b"\x13" * 1024])
def test_real_damage_still_says_so(tmp_path, data):
    """Garbage, a truncated record, zeros, an erased slot beside a garbled one: the message stays."""
    f = tmp_path / "s.bin"
    f.write_bytes(data)
    st = open_store(str(f))
    assert st.load() is None and st.message == DAMAGED
    nvm = bytearray(data + b"\xff" * (8192 - len(data)))
    st = Store(NvmRegion(nvm))
    assert st.load() is None and st.message == DAMAGED


def test_a_bad_crc_is_damage():
    st = Store(MemoryRegion())
    st.save(played(3, 20))
    st.flush()
    data = bytearray(st.region.data)
    data[30] ^= 0x40
    again = Store(MemoryRegion(data=data))
    assert again.load() is None and again.message == DAMAGED


# ------------------------------------------------- a damaged newer slot, an older good one


def test_a_newer_slot_that_does_not_replay_gives_way_to_the_older_with_the_message():
    region, older, newest = two_slots()
    assert state(Store(MemoryRegion(data=bytes(region.data))).load()) == newest
    spoil_last_move(region, 1024)
    st = Store(region)
    got = st.load()
    assert got is not None and state(got) == older and st.message == DAMAGED
    # repaired at once: over the damaged slot, the good one kept; the next power-on is quiet
    again = Store(region)
    assert state(again.load()) == older and again.message is None
    assert reader.decode(region.read(0, 1024)).seq == 1 and reader.decode(region.read(1024, 1024)).seq == 3


def test_a_read_only_look_does_not_repair():
    region, _, _ = two_slots()
    spoil_last_move(region, 1024)
    snapshot = bytes(region.data)
    st = Store(region)
    assert st.load(repair=False) is not None and st.message == DAMAGED
    assert slot_next(st) == 1  # the next write goes over the damaged newest, not the good older one
    assert bytes(region.data) == snapshot


def test_both_slots_failing_to_replay_is_a_fresh_start_with_the_message():
    region, _, _ = two_slots()
    spoil_last_move(region, 0)
    spoil_last_move(region, 1024)
    mine = Game(deal=5)
    st = Store(region)
    assert st.load(mine) is None and st.message == DAMAGED
    assert state(mine) == state(Game(deal=1))  # never half-loaded


# ------------------------------------------------------------ sequence numbers that wrap


def record_bytes(seq, game):
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, seq, Store(None).stats, 1, 0, game)
    return bytes(buf[:n]) + b"\xff" * (record.SLOT_MAX - n)


@pytest.mark.parametrize("old_seq, new_seq", [(1, 2), (record.SEQ_MAX - 1, record.SEQ_MAX),
                                              (record.SEQ_MAX, 1), (record.SEQ_MAX - 3, 2)])
@pytest.mark.parametrize("new_in_slot", [0, 1])
def test_the_newer_record_wins_across_the_wrap(old_seq, new_seq, new_in_slot):
    old_game, new_game = played(9, 5), played(9, 25)
    slots = [record_bytes(old_seq, old_game), record_bytes(new_seq, new_game)]
    if new_in_slot == 0:
        slots.reverse()
    st = Store(MemoryRegion(data=slots[0] + slots[1]))
    assert state(st.load()) == state(new_game) and st.message is None
    assert slot_next(st) == 1 - new_in_slot  # the next write goes over the older


def test_writing_across_the_wrap_keeps_loading_the_newest():
    region = MemoryRegion()
    st = Store(region, max_pending=1)
    st.seq = record.SEQ_MAX - 3  # as if the store had been written 2**30 times
    g = Game(deal=14)
    st.save(g)
    for _ in range(6):
        g.step()
        st.save(g)
        assert state(Store(region).load()) == state(g)
    assert 1 <= st.seq <= 4  # it wrapped


# ------------------------------------------------------------ the two halves


def test_slots_read_and_write_records_without_any_policy():
    region = MemoryRegion()
    slots = Slots(region)
    assert slots.read() == (None, None, False)  # erased: no save, not damage
    g = played(6, 12)
    stats = Store(None).stats
    assert slots.write(stats, 1, 0, g, 0b0110) and slots.write(stats, 1, 0, g, 0b0110)
    assert (slots.writes, slots.seq, slot_next(slots)) == (2, 2, 0)
    rec, loaded, damaged = Slots(region).read()
    assert state(loaded) == state(g) and not damaged and rec.seq == 2 and rec.settings == 0b0110
    assert Slots(None).read() == (None, None, False) and not Slots(None).write(stats, 1, 0, g, 0)


def test_the_file_region_of_an_empty_file_reads_as_erased(tmp_path):
    f = tmp_path / "e.bin"
    f.write_bytes(b"")
    r = FileRegion(str(f))
    assert r.read(0, 2048) == b"\xff" * 2048


def test_a_heap_too_full_to_load_is_no_damage_and_the_save_is_never_written_over():
    """MemoryError while reading is not damage: no message, no repair, and this store writes nothing."""
    region = MemoryRegion()
    st = Store(region)
    g = Game(deal=9)
    for _ in range(5):
        g.step()
        st.save(g)
    st.flush()
    before = bytes(region.data)

    class Tight(MemoryRegion):
        def read(self, offset, n):
            raise MemoryError("memory allocation failed")

    starved = Store(Tight(data=before))
    with pytest.raises(MemoryError):
        starved.load()
    assert starved.message is None
    g.step()
    assert not starved.save(g) and not starved.flush()
    assert bytes(starved.region.data) == before
    assert state(Store(MemoryRegion(data=before)).load()) != state(Game(deal=9))  # the save is still there



# ------------------------------------------------------------ the dim switch (the settings' bit 7)


def test_the_dim_switch_is_saved_in_byte_18_and_older_records_load():
    """S_DIM_OFF (128: the screen stays lit) is the settings' bit 7, the first of byte 18 (format 2), which
    a record that never had it leaves 0: it loads with the screen dimming as before."""
    from sultan.saves.stats import Stats
    from sultan.ui.switches import S_DIM_OFF, S_FOUR_COLOUR, S_MOTION_OFF, S_RUSSIAN

    g = played(7, 5)
    for bits in (0, S_MOTION_OFF, S_DIM_OFF, S_DIM_OFF | S_RUSSIAN | S_MOTION_OFF | S_FOUR_COLOUR):
        buf = bytearray(record.SLOT_MAX)
        n = record.encode(buf, 3, Stats(), 1, 0, g, bits)
        assert buf[18] == (1 if bits & S_DIM_OFF else 0)
        assert reader.decode(bytes(buf[:n])).settings == bits
    region = MemoryRegion(data=b"\xff" * 4096)
    st = Store(region)
    st.save(g)
    st.set_settings(S_DIM_OFF, g)
    st.flush()
    st.save(played(7, 6))
    st.flush()
    again = Store(MemoryRegion(data=bytes(region.data)))
    assert state(again.load()) == state(played(7, 6)) and again.settings == S_DIM_OFF
