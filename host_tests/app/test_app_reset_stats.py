"""The menu's Reset statistics (the last item): a first A asks, in the player's language; a second A
erases the statistics, which the store writes at once into its own region of the NVM and nowhere
else; any other key keeps them."""

import random

import pytest
from sultan import app
from sultan.rules.engine import Game
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import Store
from sultan.ui.menu import M_RESET, MENU_ORDER
from sultan.ui.switches import S_MOTION_OFF, S_RUSSIAN
from sultan_host import scripted
from sultan_host.desktop.headless import HeadlessDisplay

OTHERS = bytes(random.Random(5).randrange(256) for _ in range(6 * 1024))  # another program's bytes


def a_board_with_statistics(russian=False):
    """An 8 KB microcontroller.nvm (the PyBadge's: the game's 2 KB, then another program's), holding a
    save with two games' statistics and a game in play."""
    nvm = bytearray(b"\xff" * 2048) + bytearray(OTHERS)
    st = Store(NvmRegion(nvm, 0, 2048, every_write_erases=True))
    for deal in (3, 4):
        g = Game(deal=deal)
        st.new_game(g)
        for _ in range(5):
            g.step()
            st.save(g)
    st.new_game(Game(deal=5))
    st.settings = S_MOTION_OFF | (S_RUSSIAN if russian else 0)
    st.flush()
    assert st.stats.get(0)["played"] == 2
    return nvm


def play(nvm, script):
    store = Store(NvmRegion(nvm, 0, 2048, every_write_erases=True))
    ctrl = app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(script), console=lambda _: None,
                   store=store, idle=0)
    again = Store(NvmRegion(nvm, 0, 2048, every_write_erases=True))
    game = again.load()
    return again, game, ctrl


@pytest.mark.parametrize("russian", [False, True])
def test_a_second_a_erases_the_statistics_and_only_them(russian):
    assert MENU_ORDER[-2] == M_RESET  # SELECT UP UP reaches it from the top (Rules stays last)
    nvm = a_board_with_statistics(russian)
    before = bytes(nvm)
    _store, _game, ctrl = play(nvm, "SELECT UP UP A")  # asked, in the player's language
    assert ctrl.message == ("ещё A: стереть статистику" if russian else "A again: erase statistics")
    assert bytes(nvm) == before
    store, game, ctrl = play(nvm, "SELECT UP UP A A")
    assert ctrl.message == ("статистика стёрта" if russian else "statistics erased")
    assert store.stats.rows == [] and store.stats.get(0)["played"] == 0
    assert game is not None and game.deal == 5  # the game in play stays
    assert bytes(nvm[2048:]) == OTHERS  # another program's bytes untouched


@pytest.mark.parametrize("script", ["SELECT UP UP A B", "SELECT UP UP A UP A", "SELECT UP UP A SELECT",
                                    "SELECT UP UP B"])
def test_anything_but_a_second_a_keeps_them(script):
    nvm = a_board_with_statistics()
    before = bytes(nvm)
    store, _game, _ctrl = play(nvm, script)
    assert store.stats.get(0)["played"] == 2
    assert bytes(nvm[2048:]) == OTHERS
    if script != "SELECT UP UP A UP A":  # (UP A there switches the language: a settings write)
        assert bytes(nvm) == before
