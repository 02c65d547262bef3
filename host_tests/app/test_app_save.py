"""The store wired into the app loop: resume at power-on, the damage message once, saves on keys."""

from runners import ROOT
from sultan import app
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import DAMAGED, DAMAGED_SHORT, Store
from sultan.ui import keys
from sultan_host import scripted
from sultan_host.bench.mash import state
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.filesave import open_store


def run(store, script, deal=7):
    return app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(script), board_id="test", deal=deal,
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

    sim = os.path.join(ROOT, "tools", "sim.py")
    f = str(tmp_path / "sim.bin")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")

    def ready(*args):
        r = subprocess.run([sys.executable, sim, "--frames", "40", "--save", f, *args], env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()[0]

    first = ready("--keys", "START START A")
    assert first.endswith(" save=0")  # a new file: no save yet
    again = ready()
    assert again.split(" save=")[0] == first.split(" save=")[0]  # same deal comes back
    assert int(again.split(" save=")[1]) >= 1  # from the save the first run wrote
    st = open_store(f)
    assert st.load().moves >= 2


OVER_MODE = 4  # sultan.ui.modes.OVER


def _menu(ctrl_like, item):
    """Key names that open the menu and choose ``item`` on a controller in ``ctrl_like``'s state."""
    from play_keys import menu_keys

    return " ".join(keys.NAMES[k] for k in menu_keys(ctrl_like, item)) + " "


def test_settings_and_the_chosen_ruleset_survive_power_off(tmp_path):
    from sultan.rules import engine
    from sultan.ui.controller import Controller
    from sultan.ui.menu import M_LIGHTS, M_NEW, M_RULESET, M_SOUND

    path = str(tmp_path / "save.bin")
    twin = Controller(engine.Game(deal=7), sound=True)
    script = ""
    for item in (M_SOUND, M_LIGHTS):
        script += _menu(twin, item)
        for k in scripted.parse_keys(_menu(twin, item)):
            twin.press(k)
    script += "START "  # a begun seed game: classic is chosen for the next deal only
    script += _menu(twin, M_RULESET)
    sound = _FakeSound()
    ctrl = app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(script), board_id="test", deal=7,
                   console=lambda *a: None, rand_deal=lambda: 1, idle=0, store=open_store(path), sound=sound)
    assert (ctrl.sound_on, ctrl.lights_on, ctrl.rules) == (False, False, engine.RULES_CLASSIC)
    assert ctrl.game.rules == engine.RULES_SEED and ctrl.game.moves == 1
    assert (sound.on, sound.lights) == (False, False)
    # Power on again: the seed game comes back, the switches and the next deal's rules with it.
    sound = _FakeSound()
    again_keys = scripted.ScriptedKeys(_menu(again_ctrl(), M_NEW))
    again = app.run(HeadlessDisplay(160, 128), again_keys, board_id="test",
                    deal=7, console=lambda *a: None, rand_deal=lambda: 4, idle=0, store=open_store(path),
                    sound=sound)
    assert (again.sound_on, again.lights_on, again.rules) == (False, False, engine.RULES_CLASSIC)
    assert (sound.on, sound.lights) == (False, False)
    assert again.game.deal == 4 and again.game.rules == engine.RULES_CLASSIC  # the new deal: classic
    # ... and once more: the classic game resumes; the abandoned seed game counts under seed.
    st = open_store(path)
    back = st.load()
    assert back.rules == engine.RULES_CLASSIC and back.deal == 4
    assert st.stats.get(engine.RULES_SEED)["played"] == 1
    assert st.stats.get(engine.RULES_CLASSIC)["played"] == 0


def again_ctrl():
    from sultan.rules import engine
    from sultan.ui.controller import Controller

    return Controller(engine.Game(deal=7), sound=True)


class _FakeSound:
    on = lights = None

    def event(self, name):
        pass

    def update(self, idle=True):
        pass

    def set_sound(self, on):
        self.on = on

    def set_lights(self, on):
        self.lights = on


def test_a_fresh_start_deals_the_ruleset_last_chosen(tmp_path):
    """A store holding statistics and settings but no game (a small NVM): the new deal uses the rules."""
    from sultan.rules import engine

    region = MemoryRegion()
    st = Store(region)
    g = engine.Game(deal=3)
    st.set_settings(engine.RULES_CLASSIC << 2, g)
    st.flush()
    st2 = Store(region)
    assert st2.load().rules == engine.RULES_SEED and st2.settings == engine.RULES_CLASSIC << 2
    st2._write(None)  # the statistics and settings only
    ctrl, _ = app.start(HeadlessDisplay(160, 128), deal=9, store=Store(region), rand_deal=lambda: 1)
    assert ctrl.game.deal == 9 and ctrl.game.rules == engine.RULES_CLASSIC == ctrl.rules


def test_new_game_keeps_the_statistics_and_the_page_shows_them(tmp_path):
    from sultan.rules import engine
    from sultan.ui.menu import M_NEW, M_STATS
    from sultan.ui.modes import STATS_PAGE

    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.WON)
    from play_keys import script_for

    region = MemoryRegion()
    play = " ".join(keys.NAMES[k] for k in script_for(deal, 1))
    ctrl = run(Store(region), play, deal=deal)
    assert ctrl.game.status() == engine.WON
    twin = again_ctrl()
    twin.mode = OVER_MODE  # OVER: SELECT opens the menu from the won panel too
    script = _menu(twin, M_NEW) + "START " + _menu(twin, M_STATS)
    store = Store(region)
    ctrl, screen = app.start(HeadlessDisplay(160, 128), deal=7, store=store, rand_deal=lambda: 5)
    assert ctrl.mode == OVER_MODE and ctrl.stats is store.stats
    for k in scripted.parse_keys(script):  # as the main loop does it
        ctrl.press(k)
        screen.update(ctrl)
        store.save(ctrl.game)
    assert ctrl.mode == STATS_PAGE and ctrl.game.deal == 5 and ctrl.game.moves == 1
    assert ctrl.stats is store.stats
    assert store.stats.get(0)["won"] == 1 and store.stats.get(0)["played"] == 1
    # the page's lines
    text = "\n".join(line.text + " " for line in screen.panel.lines if not line.grid.hidden)
    assert "STATISTICS: seed rules" in text and "played   1 " in text and "won      1 (100%)" in text
    assert "streak   1 " in text and "best streak 1 " in text
    store.flush()
    back = Store(region)
    assert back.load().deal == 5 and back.stats.get(0)["won"] == 1  # kept across the new game
