"""The main loop (serial lines, one refresh per key, the store hook) and the screen tools."""

import os
import subprocess
import sys

from PIL import Image
from runners import ROOT
from sultan import app
from sultan.nostore import NoStore
from sultan.rules import engine
from sultan.ui import keys
from sultan.ui.controller import S_MOTION_OFF
from sultan_host import scripted
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.snapshot import snapshot

PY = sys.executable


def run_app(script, deal=7, store=None, size=(160, 128)):
    lines = []
    d = HeadlessDisplay(*size)
    ctrl = app.run(d, scripted.ScriptedKeys(script), board_id="testboard", deal=deal,
                   console=lines.append, store=store, idle=0)
    return d, ctrl, lines


class MotionOff(NoStore):
    settings = S_MOTION_OFF


def test_serial_lines_and_one_refresh_per_key():
    d, ctrl, lines = run_app("RIGHT START A B", store=MotionOff())
    assert lines[0].startswith("SULTAN READY board=testboard deal=7 mem_free=")
    assert lines[1:] == [
        "SULTAN key=RIGHT placed=0 pass=1 status=playing",
        "SULTAN key=START placed=0 pass=1 status=playing",
        "SULTAN key=A placed=0 pass=1 status=playing",
        "SULTAN key=B placed=0 pass=1 status=playing",
    ]
    assert d.refreshes == 1 + 4  # start-up's one, then one per press (releases draw nothing)
    assert d.auto_refresh is False
    assert d.root_group is not None
    assert ctrl.game.talon_count == 0 and ctrl.game.can_redo() and ctrl.message == "undone"


def test_the_first_key_redraws_only_what_it_changes():
    """The first key is as cheap as the second: the screen keeps what starts hidden off the screen, so
    displayio (booking a hidden TileGrid as drawn at its first refresh, as CircuitPython does and the
    headless display models) has nothing to repaint after start-up's one refresh."""
    for size in ((160, 128), (320, 240)):
        d = HeadlessDisplay(*size)
        ctrl, screen = app.start(d, deal=7, rand_deal=lambda: 1)
        sent = []
        for k in (keys.RIGHT, keys.RIGHT):
            ctrl.press(k)
            screen.update(ctrl)
            d.refresh()
            sent.append(d.refreshed_pixels())
        assert 0 < sent[0] <= 0.2 * size[0] * size[1], (size, sent)
        help_line = size[0] * 12 * screen.layout.scale  # the first key also takes the key help away
        assert sent[0] <= 1.5 * sent[1] + help_line, (size, sent)


class FakeSound:
    def __init__(self):
        self.events = []
        self.updates = 0
        self.sound_on = self.lights_on = None

    def event(self, name):
        self.events.append(name)

    def update(self, idle=True):
        self.updates += 1

    def set_sound(self, on):
        self.sound_on = on

    def set_lights(self, on):
        self.lights_on = on


def test_sound_hears_each_outcome_and_updates_every_pass():
    from play_keys import menu_keys, script_for

    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.WON)
    script = [keys.NAMES[k] for k in script_for(deal, 1)]
    snd = FakeSound()
    lines = []
    d = HeadlessDisplay(160, 128)
    ctrl = app.run(d, scripted.ScriptedKeys(" ".join(script)), deal=deal, console=lines.append, idle=0,
                   sound=snd)
    ref = engine.Game(deal=deal)
    ref.autoplay()
    assert ctrl.game.status() == engine.WON
    assert snd.events.count("place") == 94 and snd.events[-1] == "win"  # the last play is the win
    assert snd.events.count("redeal") == ref.pass_no - 1
    assert set(snd.events) <= {"place", "redeal", "win"}
    assert snd.updates >= 2 * len(script)  # presses and releases: every pass of the loop
    assert snd.sound_on is True and snd.lights_on is True
    # A refusal, a new deal and the two switches, all from keys.
    from sultan.ui.controller import Controller
    from sultan.ui.menu import M_LIGHTS, M_NEW, M_SOUND

    ctrl = Controller(engine.Game(deal=7), sound=True)
    script = ["A", "RIGHT", "A"]  # select a divan card, A on a foundation it does not fit
    script += [keys.NAMES[k] for k in menu_keys(ctrl, M_SOUND)]
    snd = FakeSound()
    ctrl = app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(" ".join(script)), deal=7,
                   console=lines.append, idle=0, sound=snd)
    assert "refuse" in snd.events and snd.sound_on is False and snd.lights_on is True
    twin = Controller(engine.Game(deal=7), sound=True, rand_deal=lambda: 5)  # where the menu will be
    first = menu_keys(twin, M_LIGHTS)
    for k in first:
        twin.press(k)
    script = [keys.NAMES[k] for k in first + menu_keys(twin, M_NEW)]
    snd = FakeSound()
    ctrl = app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(" ".join(script)), deal=7,
                   console=lines.append, idle=0, sound=snd, rand_deal=lambda: 5)
    assert snd.lights_on is False and snd.events == ["deal"] and ctrl.game.deal == 5


def test_a_sound_made_later_has_no_switches_in_the_menu_unless_its_class_says_so():
    class Switched(app.Silent):
        switches = True

    for sound, shown in ((FakeSound(), True), (Switched(FakeSound), True), (app.Silent(FakeSound), False),
                         (app.Silent(), False), (None, False)):
        ctrl, _screen = app.start(HeadlessDisplay(160, 128), deal=7, sound=sound)
        assert ctrl.has_sound is shown, sound


def test_a_silent_makes_its_sound_at_the_first_event_and_only_in_the_main_loop():
    made = []

    def make():
        made.append(FakeSound())
        return made[-1]

    s = app.Silent(make)
    s.update()
    s.update(False)
    assert made == []  # no event yet: nothing made
    s.event("place")
    s.update(False)  # an animation's frame: it waits
    assert made == []
    s.update()  # the main loop's pass: made, and the event played
    assert len(made) == 1 and made[0].events == ["place"]
    s.event("win")
    s.update(False)
    assert made[0].events == ["place", "win"] and made[0].updates == 1  # from now on, every update
    none = app.Silent(lambda: None)  # no sound to make: it stays silent
    none.event("place")
    none.update()
    assert isinstance(none.sound, app.Silent)


def test_frames_limit_returns_without_keys():
    class Never:
        class events:  # noqa: N801 - mimics keypad's attribute
            @staticmethod
            def get():
                return None

    d = HeadlessDisplay(160, 128)
    lines = []
    app.run(d, Never, deal=3, console=lines.append, frames=5, idle=0)
    assert len(lines) == 1 and "deal=3" in lines[0]


def test_store_hook():
    saved = []

    class Store(NoStore):
        def load(self):
            g = engine.Game(deal=99)
            g.turn()
            return g

        def save(self, game):
            saved.append((game.deal, game.moves))

    d, ctrl, lines = run_app("RIGHT START START B", store=Store())
    assert "deal=99" in lines[0]
    assert saved == [(99, 2), (99, 3), (99, 2)]  # cursor moves save nothing


def test_broken_store_does_not_stop_the_game():
    class Store(NoStore):
        def load(self):
            raise OSError("no drive")

        def save(self, game):
            raise OSError("read-only")

    d, ctrl, lines = run_app("START", store=Store(), deal=5)
    assert "deal=5" in lines[0] and ctrl.game.moves == 1


def _tool(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([PY] + args, capture_output=True, text=True, timeout=120, env=e, cwd=ROOT)


def test_screenshot_tool(tmp_path):
    out = tmp_path / "s.png"
    p = _tool(["tools/screenshot.py", "--deal", "7", "--size", "320x240", "--keys", "RIGHT A",
               "--out", str(out)])
    assert p.returncode == 0, p.stderr
    img = Image.open(out)
    assert img.size == (320, 240)
    for bad in (["--deal", "0"], ["--size", "100x100"], ["--keys", "JUMP"], ["--deal", "x"], []):
        p = _tool(["tools/screenshot.py"] + bad + ([] if bad == [] else ["--out", str(out)]))
        assert p.returncode == 2, bad
        assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr


def test_sim_without_display_says_so_and_exits():
    env = {"DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""}
    p = _tool(["tools/sim.py"], env)
    assert p.returncode == 0
    assert p.stdout.count("\n") == 1 and "no display" in p.stdout


def test_sim_headless_screenshot(tmp_path):
    out = tmp_path / "sim.png"
    p = _tool(["tools/sim.py", "--deal", "7", "--frames", "10", "--keys", "RIGHT A",
               "--screenshot", str(out)], {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert p.returncode == 0, p.stderr
    assert "SULTAN READY board=desktop_sim deal=7" in p.stdout
    assert "SULTAN key=A placed=0 pass=1 status=playing" in p.stdout
    img = Image.open(out)
    assert img.size == (640, 512)  # 160x128 at 4x


def test_sim_keyboard_mapping():
    """Pygame key events (posted to the dummy video driver) drive the game; closing the window ends it."""
    code = r"""
import sys
from sultan_host.desktop import sim
from sultan import app
d = sim.make_display(160, 128, 2)
import pygame
src = sim.PygameKeys(d)
for key in (pygame.K_RIGHT, pygame.K_z, pygame.K_x, pygame.K_RETURN, pygame.K_SPACE, pygame.K_LEFT,
            pygame.K_DOWN, pygame.K_UP):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
pygame.event.post(pygame.event.Event(pygame.QUIT))
app.run(d, src, board_id="desktop_sim", deal=7, idle=0)
print("window", d.window.get_size(), pygame.display.get_caption()[0])
import numpy as np
shown = pygame.surfarray.array3d(d.window).transpose(1, 0, 2)
print("shows the display", (shown == np.asarray(d.image().resize((320, 256), 0))).all())
"""
    p = _tool(["-c", code], {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert p.returncode == 0, p.stderr
    keys_seen = [ln.split()[1] for ln in p.stdout.splitlines() if ln.startswith("SULTAN key=")]
    assert keys_seen == ["key=RIGHT", "key=A", "key=B", "key=START", "key=SELECT", "key=LEFT", "key=DOWN",
                         "key=UP"]
    assert "window (320, 256)" in p.stdout and "Z: A" in p.stdout and "Space: SELECT" in p.stdout
    assert "shows the display True" in p.stdout  # the window is the display's framebuffer, scaled


def test_whole_deal_through_the_main_loop_matches_autoplay():
    """The event stream (press + release per key) through app.run, screen and all, plays a deal to its end."""
    from play_keys import script_for

    ref = engine.Game(deal=42)
    ref.autoplay()
    script = [keys.NAMES[k] for k in script_for(42, 2)]
    d, ctrl, lines = run_app(" ".join(script), deal=42, store=MotionOff())
    assert snapshot(ctrl.game) == snapshot(ref)
    assert len(lines) == 1 + len(script) and d.refreshes == 1 + len(script)
    assert lines[-1] == "SULTAN key=%s placed=%d pass=%d status=%s" % (
        script[-1], ref.placed, ref.pass_no, engine.STATUS_NAMES[ref.status()])
