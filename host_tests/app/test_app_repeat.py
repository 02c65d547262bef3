"""Held arrows repeat in the main loop (``sultan.app.run``): after keys.REPEAT_DELAY_MS, then every
keys.REPEAT_MS, each repeat a key like any other with its ``SULTAN key=`` line; A, B, START and
SELECT never repeat.  A clock of our own: each pass of the loop is 5 ms."""

import pytest
from sultan import app
from sultan.nostore import NoStore
from sultan.ui import keys
from sultan.ui.controller import S_MOTION_OFF
from sultan.ui.modes import PLAY
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.scripted import Event

PASS_MS = 5


class Held:
    """A keypad whose events are ``[(ms, key, pressed)]``; each ``get`` is one pass of PASS_MS."""

    def __init__(self, timeline, clock):
        self.timeline = sorted(timeline)
        self.clock = clock
        self.events = self
        self.exhausted = False

    def get(self):
        self.clock[0] += PASS_MS
        if self.timeline and self.timeline[0][0] <= self.clock[0]:
            _t, k, pressed = self.timeline.pop(0)
            return Event(k, pressed)
        if not self.timeline:
            self.exhausted = True
        return None


class MotionOff(NoStore):
    settings = S_MOTION_OFF


def run_held(monkeypatch, timeline, then=300):
    clock = [0]
    monkeypatch.setattr(app, "ticks_ms", lambda: clock[0])
    lines = []
    timeline = list(timeline) + [(max(t for t, _k, _p in timeline) + then, keys.B, False)]  # a quiet end
    ctrl = app.run(HeadlessDisplay(160, 128), Held(timeline, clock), deal=7, console=lines.append,
                   store=MotionOff(), idle=0)
    return ctrl, [ln.split()[1] for ln in lines[1:]]


def hold(k, ms, at=100):
    return [(at, k, True), (at + ms, k, False)]


def test_a_held_right_of_1_2_s_moves_on_after_400_ms_then_every_100_ms(monkeypatch):
    ctrl, said = run_held(monkeypatch, hold(keys.RIGHT, 1200))
    # the press, then 400, 500 ... 1100 ms after it (1200: released first)
    assert said == ["key=RIGHT"] * (1 + 8), said
    plain, one = run_held(monkeypatch, hold(keys.RIGHT, 150))  # a tap: one move
    assert one == ["key=RIGHT"]
    assert ctrl.cursor != plain.cursor


@pytest.mark.parametrize("k", [keys.A, keys.B, keys.START, keys.SELECT])
def test_a_b_start_and_select_never_repeat(monkeypatch, k):
    _ctrl, said = run_held(monkeypatch, hold(k, 1500))
    assert said == ["key=" + keys.NAMES[k]]


def test_another_key_ends_a_repeat_and_the_menu_and_deal_editor_take_repeats(monkeypatch):
    # RIGHT held; A pressed at 700 ms (RIGHT still down): the repeat stops there
    ctrl, said = run_held(monkeypatch, hold(keys.RIGHT, 1500) + [(800, keys.A, True), (850, keys.A, False)])
    assert said[:4] == ["key=RIGHT"] * 4 and said[4] == "key=A" and said[5:] == [], said
    # the menu scrolls on a held DOWN: 1 + 6 repeats in 1 s
    menu = [(50, keys.SELECT, True), (60, keys.SELECT, False)]
    ctrl, said = run_held(monkeypatch, menu + hold(keys.DOWN, 1000))
    assert said == ["key=SELECT"] + ["key=DOWN"] * 7, said
    assert ctrl.mode != PLAY


def test_a_held_key_that_wakes_the_dark_screen_is_not_played_nor_repeated(monkeypatch):
    _ctrl, said = run_held(monkeypatch, hold(keys.RIGHT, 1000, at=app.OFF_MS + 1000))
    assert said == [], said


def test_the_deal_editor_steps_a_digit_on_a_held_up(monkeypatch):
    from play_keys import menu_keys
    from sultan.rules import engine
    from sultan.ui.controller import Controller
    from sultan.ui.menu import M_CHOOSE

    walk = menu_keys(Controller(engine.Game(deal=7)), M_CHOOSE)  # SELECT, DOWNs, A: the editor opens
    timeline = [(20 + 20 * i + d, k, d == 0) for i, k in enumerate(walk) for d in (0, 10)]
    ctrl, said = run_held(monkeypatch, timeline + hold(keys.UP, 1000, at=500))
    assert said[len(walk):] == ["key=UP"] * 7, said
    assert ctrl.editor.number() == 4  # the last digit 7, stepped up seven times: 14 -> 4
