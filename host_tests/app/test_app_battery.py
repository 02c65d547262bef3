"""The battery: the backlight dims after 30 s without a key and goes off after 2 minutes,
with the lights off and the pending save written; the next key lights it again and is not played; the
menu's switch keeps the screen lit.  A clock of our own stands in for the board's ticks."""

from sultan import app
from sultan.nostore import NoStore
from sultan.ui import keys
from sultan.ui.controller import S_DIM_OFF, S_MOTION_OFF
from sultan.ui.layout import NONE
from sultan.ui.menu import M_DIM
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.scripted import Event

PASS_MS = 500  # the stand-in clock moves this much on each pass that finds no key


class Backlit(HeadlessDisplay):
    """A headless display with a backlight: each ``brightness`` set is logged with the clock."""

    def __init__(self, clock):
        self.clock = clock
        self.levels = []
        HeadlessDisplay.__init__(self, 160, 128)
        self.levels = []  # (not the display's own at its making)

    @property
    def brightness(self):
        return self.levels[-1][1] if self.levels else 1.0

    @brightness.setter
    def brightness(self, level):
        self.levels.append((self.clock.now, level))


class TimedKeys:
    """Presses (each released on the next pass) at given times on the stand-in clock, which moves PASS_MS on
    each pass that finds no key."""

    exhausted = False

    def __init__(self, plan, end_ms):
        self.now = 0
        self.plan = list(plan)  # [(at ms, key number)], in order
        self.end_ms = end_ms
        self.events = self

    up = None  # the key pressed last pass, released on this one (a held arrow would repeat for ever)

    def get(self):
        if self.up is not None:
            key, self.up = self.up, None
            return Event(key, False)
        if self.plan and self.now >= self.plan[0][0]:
            self.up = self.plan.pop(0)[1]
            return Event(self.up, True)
        self.now += PASS_MS
        self.exhausted = not self.plan and self.now >= self.end_ms
        return None


class Lights(app.Silent):
    def __init__(self):
        app.Silent.__init__(self)
        self.lights = []

    def set_lights(self, on):
        self.lights.append(on)


class Flushes(NoStore):
    def __init__(self, settings=0):
        self.settings = settings
        self.flushes = []
        self.clock = None

    def flush(self):
        self.flushes.append(self.clock.now)
        return True


def play(monkeypatch, plan, end_ms, settings=0):
    clock = TimedKeys(plan, end_ms)
    monkeypatch.setattr(app, "ticks_ms", lambda: clock.now)
    clock.sleeps = []  # (clock, seconds) of each idle pass's sleep
    monkeypatch.setattr(app.time, "sleep", lambda s: clock.sleeps.append((clock.now, s)))
    display = Backlit(clock)
    sound = Lights()
    store = Flushes(settings | S_MOTION_OFF)  # (an animation would read the stand-in clock's keys)
    store.clock = clock
    lines = []
    ctrl = app.run(display, clock, board_id="testboard", deal=7, console=lines.append, store=store,
                   idle=0.005, sound=sound)
    return display, sound, store, lines, ctrl


def test_dims_then_goes_off_then_a_key_wakes_it_unplayed(monkeypatch):
    plan = [(1000, keys.START), (200_000, keys.A), (201_000, keys.RIGHT)]
    display, sound, store, lines, ctrl = play(monkeypatch, plan, 205_000)
    # START at 1 s: dimmed 30 s after it, off 2 minutes after it, lit again by A at 200 s
    assert display.levels == [(31_000, 0.2), (121_000, 0.0), (200_000, 1.0)]
    assert sound.lights[-2:] == [False, True]  # off with the screen, on again (the switch's) at the wake
    assert store.flushes[0] == 121_000  # the pending save written as the screen went off
    played = [ln.split()[1] for ln in lines[1:]]
    assert played == ["key=START", "key=RIGHT"]  # A only woke the screen
    assert ctrl.selected == NONE  # A on the cursor's card would have selected it
    # idle passes sleep 5 ms while the screen is lit (a key is answered as soon as ever), 20 ms once dimmed
    passes = [(t, s) for t, s in display.clock.sleeps if s in (0.005, 0.02)]
    assert {s for t, s in passes if t < 31_000 or t > 200_000} == {0.005}
    assert {s for t, s in passes if 31_000 <= t <= 200_000} == {0.02}


def test_a_key_while_dimmed_wakes_it_unplayed(monkeypatch):
    display, _sound, store, lines, _ctrl = play(monkeypatch, [(40_000, keys.A), (41_000, keys.B)], 45_000)
    assert display.levels == [(30_000, 0.2), (40_000, 1.0)]
    assert store.flushes == [45_000]  # only the loop's end: the screen never went off
    assert [ln.split()[1] for ln in lines[1:]] == ["key=B"]


def test_the_menu_switch_keeps_the_screen_lit_and_is_saved(monkeypatch):
    display, _sound, _store, lines, ctrl = play(monkeypatch, [(200_000, keys.A)], 205_000, settings=S_DIM_OFF)
    assert display.levels == [] and not ctrl.dim_on
    assert [ln.split()[1] for ln in lines[1:]] == ["key=A"]
    ctrl.choose(M_DIM)  # the menu's item turns it on again: the bit leaves the settings
    assert ctrl.dim_on and not ctrl.settings() & S_DIM_OFF
    ctrl.choose(M_DIM)
    assert ctrl.settings() & S_DIM_OFF and ctrl.message == "stays lit"
