"""The record's format 2: streaks and the fewest moves to a win per ruleset, counted
across wins, losses and abandoned games, kept over a RESET; format-1 records still load."""

from helpers import as_format_1, winning_order
from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, Game
from sultan.saves import record, stats
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import DAMAGED, Store
from sultan_host.bench.mash import state
from sultan_host.bench.powercut import PicoRegion


def win(turns=0):
    """A won game of the seed rules in 95 + ``turns`` moves."""
    g = Game(order=winning_order())
    for _ in range(turns):
        g.turn()
    assert g.autoplay() == engine.WON
    assert g.moves == 95 + turns
    return g


def test_streaks_and_fewest_moves_follow_wins_losses_and_abandons():
    s = stats.Stats()
    s.record(0, True, 95, 120)
    s.record(0, True, 95, 101)
    s.record(0, True, 95, 140)  # more moves than the best: the fewest stays
    assert s.get(0) == {"rules": 0, "played": 3, "won": 3, "lost": 0, "best_placed": 95, "streak": 3,
                        "best_streak": 3, "fewest_moves": 101}
    s.record(0, False, 40)  # lost, or abandoned (the store counts both as lost)
    assert (s.get(0)["streak"], s.get(0)["best_streak"], s.get(0)["fewest_moves"]) == (0, 3, 101)
    s.record(0, True, 95, 99)
    assert (s.get(0)["streak"], s.get(0)["best_streak"], s.get(0)["fewest_moves"]) == (1, 3, 99)
    assert s.get(RULES_CLASSIC)["fewest_moves"] == 0 and s.get(RULES_CLASSIC)["streak"] == 0  # apart


def test_the_store_counts_streaks_across_an_abandoned_game_and_a_loss_and_they_survive_reset():
    region = PicoRegion(data=b"\xff" * 4096)  # the Pico's NVM: RESET keeps it, RAM goes
    st = Store(region)
    st.load()
    for turns in (3, 1):
        g = win(turns)
        st.new_game(g)
        st.save(g)
    assert st.stats.get(0)["streak"] == 2 and st.stats.get(0)["fewest_moves"] == 96
    g = Game(deal=3)
    st.new_game(g)
    g.step()
    st.save(g)
    st.flush()  # the idle write
    after_reset = Store(PicoRegion(data=bytes(region.data)))
    assert state(after_reset.load()) == state(g)
    figures = after_reset.stats.get(0)
    assert (figures["streak"], figures["best_streak"], figures["fewest_moves"]) == (2, 2, 96)
    g2 = Game(deal=4)
    after_reset.new_game(g2)  # abandons deal 3: lost, the streak ends
    g2.autoplay()
    after_reset.save(g2)
    after_reset.flush()
    again = Store(PicoRegion(data=bytes(after_reset.region.data)))
    again.load()
    figures = again.stats.get(0)
    assert (figures["played"], figures["won"], figures["lost"]) == (4, 2, 2)
    assert (figures["streak"], figures["best_streak"], figures["fewest_moves"]) == (0, 2, 96)


def test_a_format_1_record_loads_with_its_streaks_and_no_fewest_moves_and_the_next_write_is_format_2():
    s = stats.Stats()
    s.record(0, True, 95, 100)
    s.record(0, True, 95, 100)
    s.record(0, False, 30)
    s.record(0, True, 95, 100)
    s.record(RULES_CLASSIC, False, 12)
    g = Game(deal=9)
    for _ in range(12):
        g.step()
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 7, s, 6, 5, g, settings=0b110101)
    old = as_format_1(buf, n)
    assert len(old) == n - 1 - 2 * 2 and old[2] == 1
    region = MemoryRegion(data=old + b"\xff" * (2048 - len(old)))
    st = Store(region)
    got = st.load()
    assert st.message is None and state(got) == state(g)
    assert st.settings == 0b110101 and (st.game_no, st.recorded) == (6, 5)
    assert st.stats.get(0) == dict(s.get(0), fewest_moves=0)  # format 1 kept no fewest moves
    assert st.stats.get(0)["streak"] == 1 and st.stats.get(0)["best_streak"] == 2
    assert st.stats.get(RULES_CLASSIC) == dict(s.get(RULES_CLASSIC))
    got.step()
    st.save(got)
    st.flush()
    assert region.data[1024 + 2] == record.VERSION == 2  # the other slot: format 2 from now on
    back = Store(MemoryRegion(data=bytes(region.data)))
    assert state(back.load()) == state(got) and back.stats.rows == st.stats.rows


def test_a_format_1_record_with_a_flag_beyond_its_settings_is_damage():
    g = Game(deal=9)
    g.step()
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 7, stats.Stats(), 1, 0, g, settings=0x40)  # four-colour: format 2's bit 7
    old = bytearray(as_format_1(buf, n))
    assert old[3] & 0x80
    record.crc_into(old, len(old) - 4, old, len(old) - 4)
    st = Store(MemoryRegion(data=bytes(old) + b"\xff" * (2048 - len(old))))
    assert st.load() is None and st.message == DAMAGED


def test_fewest_moves_without_a_win_is_damage():
    s = stats.Stats()
    s.record(0, False, 20)
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 7, s, 1, 1)
    buf[record.HEADER + 1 + 17] = 50  # the row's fewest moves, with no win
    record.crc_into(buf, n - 4, buf, n - 4)
    st = Store(MemoryRegion(data=bytes(buf[:n]) + b"\xff" * (2048 - n)))
    assert st.load() is None and st.message == DAMAGED and st.stats.rows == []
