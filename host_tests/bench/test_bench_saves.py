"""The device benchmark's save plans, on the host: aimed power cuts and erases a game (no emulator)."""

from sultan.rules import engine
from sultan.saves.store import Store
from sultan_host.bench import powercut, wear


def test_cut_offsets_alternate_between_an_append_and_a_whole_sector_write():
    """Long cuts (anywhere in a 4 KB rewrite: 45 ms erase + 16 page programs) alternate with short
    ones (inside an append's single page program, 0.4 ms), the first long: a torn append makes the
    next write a rewrite, so the cut after it lands in the erase or its programs."""
    kinds = ("first write",) + ("checkpoint", "pass end", "settings", "decided") * 3
    for seed in range(5):
        trials = powercut.plan(kinds, seed)
        short = [t.offset_ms for t in trials[1::2]]
        long_ = [t.offset_ms for t in trials[0::2]]
        assert all(0 <= ms < 0.4 for ms in short), short
        assert all(0 <= ms <= 52.0 for ms in long_) and max(long_) > 0.4, long_
    assert [t.offset_ms for t in powercut.plan(kinds, 3)] == [t.offset_ms for t in powercut.plan(kinds, 3)]


def test_a_cut_is_whole_sector_only_inside_a_write_that_erased():
    nvm = {"addr": 0xFF000, "len": 4096}
    ops = [{"op": "program", "addr": 0xFF000, "start_ms": 10.0, "end_ms": 10.4},  # an append
           {"op": "erase4k", "addr": 0xFF000, "start_ms": 500.0, "end_ms": 545.0},  # a rewrite
           {"op": "program", "addr": 0xFF000, "start_ms": 545.1, "end_ms": 545.5},
           {"op": "program", "addr": 0x10000, "start_ms": 546.0, "end_ms": 546.4}]  # CIRCUITPY's
    assert not powercut.whole_sector({"at_ms": 10.2, "during": "program"}, ops, nvm)
    assert powercut.whole_sector({"at_ms": 520.0, "during": "erase4k"}, ops, nvm)
    assert powercut.whole_sector({"at_ms": 545.3, "during": "program"}, ops, nvm)
    assert not powercut.whole_sector({"at_ms": 700.0, "during": None}, ops, nvm)


def test_the_erasing_region_counts_a_write_over_programmed_bytes():
    r = wear.ErasingRegion()
    r.write(0, b"\x01\x02")  # erased bytes: programmed, no erase
    r.write(2, b"\x03")
    assert (r.writes, r.erases) == (2, 0)
    r.write(1, b"\x02\x03\x04")  # over programmed bytes, even the same values: the port erases
    assert (r.writes, r.erases) == (3, 1)
    assert bytes(r.data[:4]) == b"\x01\x02\x03\x04"


def test_the_wear_plan_plays_each_game_to_its_end_and_counts_the_logs_rewrites():
    """The host's figures follow its store: every game decided (the statistics say so), the log
    rewritten (one erase each) about once a game, and a human's pauses let idle writes in."""
    fast, f = wear.plan(3, human=False)
    slow, h = wear.plan(3, human=True)
    assert [w for w in slow if not w.startswith("WAIT:")] == [w for w in fast if not w.startswith("WAIT:")]
    assert f["keys"] == h["keys"] > 3 * 50 and f["games"] == 3
    assert 1 <= f["erases"] <= 4 and 1 <= h["erases"] <= 4, (f, h)
    assert f["idle_writes"] <= 1 < h["idle_writes"]
    assert h["writes"] > f["writes"]
    # the same keys on a plain store: three games played, and decided
    menu = powercut.Menu()
    store = Store(wear.ErasingRegion())
    store.load(menu.ctrl.game)
    for w in fast:
        if not w.startswith("WAIT:"):
            menu.press(w)
            store.save(menu.ctrl.game)
    assert menu.ctrl.game.status() != engine.PLAYING
    figures = store.stats.get(menu.ctrl.game.rules)
    assert figures["played"] == 3


def test_the_save_timing_writes_a_whole_record_each_time():
    """bench.save's timing writes through the store's public write: each write a record holding the log."""
    from sultan_host.bench import save

    log_end, per_write, t_save, t_load = save.timing()
    assert log_end > 200 and per_write >= 2 * log_end and t_save > 0 and t_load > 0
