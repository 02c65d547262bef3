"""The store wired into the app loop: resume at power-on, the damage message once, saves on keys."""

from headless_display import HeadlessDisplay
from mash import state
from sultan import app, keys
from sultan.filesave import open_store
from sultan.store import DAMAGED, DAMAGED_SHORT, MemoryRegion, Store


def run(store, script, deal=7):
    return app.run(HeadlessDisplay(160, 128), keys.ScriptedKeys(script), board_id="test", deal=deal,
                   console=lambda *a: None, rand_deal=lambda: 1, idle=0, store=store)


def test_the_game_comes_back_after_power_off_with_its_statistics(tmp_path):
    path = str(tmp_path / "save.bin")
    ctrl = run(open_store(path), "START START START A B START " * 5, deal=7)
    played = state(ctrl.game)
    assert ctrl.game.moves > 5
    again = run(open_store(path), "")  # power on again: no key pressed
    assert state(again.game) == played and again.message == ""


def test_damaged_save_data_is_reported_once_then_replaced(tmp_path):
    path = tmp_path / "save.bin"
    path.write_bytes(b"\x13" * 2048)
    ctrl, screen = app.start(HeadlessDisplay(160, 128), deal=9, store=open_store(str(path)),
                             rand_deal=lambda: 1)
    # the whole sentence where the message line holds it, else its short form: never clipped
    assert ctrl.message in (DAMAGED, DAMAGED_SHORT) and len(ctrl.message) <= screen.cols
    assert ctrl.game.deal == 9 and ctrl.game.moves == 0
    ctrl, _ = app.start(HeadlessDisplay(160, 128), deal=9, store=open_store(str(path)), rand_deal=lambda: 1)
    assert ctrl.message not in (DAMAGED, DAMAGED_SHORT)


def test_every_key_that_changes_the_game_reaches_the_store_and_the_end_flushes():
    region = MemoryRegion()
    store = Store(region)
    ctrl = run(store, "START " * 40 + "B B B")  # many turns, then undos
    assert store.pending == 0
    assert state(Store(region).load()) == state(ctrl.game)


def test_the_simulator_resumes_from_its_save_file(tmp_path):
    import os
    import subprocess
    import sys

    sim = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "sim.py")
    f = str(tmp_path / "sim.bin")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")

    def ready(*args):
        r = subprocess.run([sys.executable, sim, "--frames", "40", "--save", f, *args], env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()[0]

    first = ready("--keys", "START START A")
    assert ready() == first  # same deal comes back
    st = open_store(f)
    assert st.load().moves >= 2
