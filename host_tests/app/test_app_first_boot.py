"""A quiet first boot, through the app: a new board's erased NVM, a missing or empty
save file, start a game and say nothing; real damage still says so, once."""

import pytest
from sultan import app
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import Store
from sultan_host import scripted
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.filesave import open_store


def boot(store, script="", deal=9):
    """Power on with ``store`` and press the keys of ``script``; the Controller."""
    return app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(script), board_id="test", deal=deal,
                   console=lambda *a: None, rand_deal=lambda: 1, idle=0, store=store)


def shown(ctrl):
    """True while the message line says something: at power-on, the damage news
    (``DAMAGED`` or ``DAMAGED_SHORT`` in English, its words in the language in use)."""
    return bool(ctrl.message)


def test_a_new_boards_erased_nvm_boots_quietly_and_then_keeps_the_game():
    nvm = bytearray(b"\xff" * 8192)
    ctrl = boot(Store(NvmRegion(nvm)))
    assert not shown(ctrl) and ctrl.message == "" and ctrl.game.deal == 9 and ctrl.game.moves == 0
    assert nvm == b"\xff" * 8192  # the first boot writes nothing: no erase cycle spent
    played = boot(Store(NvmRegion(nvm)), "START START START")
    assert played.game.moves == 3
    again = boot(Store(NvmRegion(nvm)))  # power on again: the game comes back, still quiet
    assert again.game.moves == 3 and again.message == ""


@pytest.mark.parametrize("empty", [False, True])
def test_a_missing_or_empty_save_file_boots_quietly(tmp_path, empty):
    path = tmp_path / "save.bin"
    if empty:
        path.write_bytes(b"")
    ctrl = boot(open_store(str(path)))
    assert ctrl.message == "" and ctrl.game.deal == 9


@pytest.mark.parametrize("data", [b"\x13" * 2048, b"SU\x01\x01", b"\x00" * 8192])
def test_damage_in_the_nvm_is_still_reported_once(data):
    nvm = bytearray(data + b"\xff" * (8192 - len(data)))
    ctrl = boot(Store(NvmRegion(nvm)))
    assert shown(ctrl) and ctrl.game.deal == 9
    assert not shown(boot(Store(NvmRegion(nvm))))  # replaced at once: the next power-on is quiet
