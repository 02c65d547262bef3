"""Same pixels: every screen on real CircuitPython equals the host's, in RGB565 (issue 10, goal 4).

The Wokwi image runs in tools/emulate on each CircuitPython found (8.2.7 and 9.2.8), at 320x240
and as the PyBadge's 160x128 (the ILI9341 driven as a window); after each key the emulator's
screenshot is compared with ``sultan_host.desktop.screenshot.render`` after the same keys on the
same deal: the table, the menu (scrolled), the digit editor, the Rules and Statistics pages, both
languages, and the won and lost panels.  The emulator photographs a key at its ``SULTAN key=`` line,
said after the key's animation and its own frame: so each screenshot is an animation's last frame
(turns, undo, redo, autoplay's step, the hint's card, a player's move, the restart's deal; the won
panel after seconds of cascade).  Needs the firmware files (see test_firmware_emulator.py); skipped
without them (CI requires them).
"""

import pytest
from sultan.rules import engine
from sultan.ui import keys, words
from sultan.ui.controller import Controller
from sultan.ui.menu import (
    M_AUTO,
    M_CHOOSE,
    M_COLOURS,
    M_HINT,
    M_LANGUAGE,
    M_REDO,
    M_RESTART,
    M_RULES,
    M_STATS,
)
from sultan.ui.modes import OVER
from sultan_host.board import compare_png
from sultan_host.scripted import route
from test_firmware_emulator import FIRMWARES, check_lights, emulate, image
from test_firmware_emulator import pytestmark as _needs_firmware

pytestmark = [_needs_firmware, pytest.mark.slow]

SIZES = ((160, 128), (320, 240))
TABLE = "RIGHT A START START DOWN RIGHT A A LEFT B"
WON_DEAL = 322  # with autoplay on, START wins it in 121 presses (lost: 126 for deal 101)
LOST_DEAL = 101
CASCADE_WAIT_MS = 3000  # the won game's cascade runs this long (simulated) before the key that ends it


class Plan:
    """Key names for the emulator, worked out by the game's own Controller on the host."""

    def __init__(self, deal, sound=False):
        # English; ``sound``: the board's menu has the Sound and Lights switches (the PyBadge's has)
        self.ctrl = Controller(engine.Game(deal=deal), rand_deal=lambda: 1, sound=sound, settings=0)
        self.words = []

    def press(self, *names, burst=False):
        for name in names:
            self.ctrl.press(keys.NAMES.index(name))
            self.words.append(name + ("*1!" if burst else ""))
        return self

    def choose(self, item):
        """Open the menu, walk to ``item`` the short way (the menu opens where it was left; UP and
        DOWN wrap) and press A."""
        c = self.ctrl
        self.press("SELECT")
        n = len(c.menu.items)
        down = (c.menu.at(item) - c.menu.index) % n
        self.press(*(["DOWN"] * down if 2 * down <= n else ["UP"] * (n - down)))
        return self.press("A")

    def keys(self):
        """The --keys words; bursts of one key merged ("START*120!")."""
        out = []
        for w in self.words:
            if out and w.endswith("!") and out[-1].endswith("!") and out[-1].split("*")[0] == w.split("*")[0]:
                name, n = out[-1][:-1].split("*")
                out[-1] = "%s*%d!" % (name, int(n) + 1)
            else:
                out.append(w)
        return " ".join(out)


def screens_plan(sound=False):
    """Deal 7 with every animation but the cascade (its end is over_plan's): each photographed
    key's screen is its animation's last frame -- turns and an undo (TABLE), a redo, a turn with
    autoplay's step after it, an undo of that step, the hint's card, a player's move, and the
    restart's deal.  ``sound``: for a board that can sound and light (its menu is longer)."""
    p = Plan(7, sound)
    p.press(*TABLE.split())  # two turns slide to the talon; B slides the second back to the stock
    p.choose(M_REDO).press("START", "START", "START")  # the redo and three turns slide
    p.choose(M_AUTO).press("START")  # autoplay on: a turn, then the card it sends home
    p.press("B")  # that card slides back
    p.choose(M_HINT)  # it is the hint: it slides to its foundation and vanishes there
    p.press(*(keys.NAMES[k] for k in route(p.ctrl.cursor, engine.hint_place(p.ctrl.hint))))
    p.press("A", "A")  # the player's move: it slides home
    p.choose(M_COLOURS).press("RIGHT").choose(M_COLOURS)  # four colours (the table, a move), then two
    p.press("SELECT", "UP", "UP", "B")  # the menu, scrolled
    p.choose(M_CHOOSE).press("UP", "RIGHT", "UP", "B")  # the digit editor, cancelled
    p.choose(M_RULES).press("B")
    p.choose(M_STATS).press("B")
    p.choose(M_LANGUAGE).press("SELECT", "DOWN", "B")  # Russian: the status line, the menu
    p.choose(M_RULES).press("B")
    p.choose(M_RESTART)  # the deal dealt again from the stock: its last frame
    p.ctrl.set_language(words.EN)
    return p


def over_plan(deal, sound=False):
    """Autoplay on, then START until the game ends; only the last START is photographed, and the
    key after it (a won game's cascade runs until a key).  ``sound``: as screens_plan's."""
    p = Plan(deal, sound)
    p.choose(M_AUTO)
    while p.ctrl.mode != OVER:
        p.press("START", burst=True)
    p.words[-1] = "START"  # a win: the table, its cascade starting after the key's line
    if p.ctrl.game.status() == engine.WON:
        p.words.append("WAIT:%d" % CASCADE_WAIT_MS)  # cards leap off every pile, the first ones gone
    p.press("RIGHT")  # ends the cascade: the won panel (on the lost panel RIGHT does nothing)
    return p


def compare(tmp_path, tmp_path_factory, version, size, deal, plan, extra=()):
    """[(shot, key words so far, description)] of the screens that differ."""
    from PIL import Image
    from sultan.saves.memory import MemoryRegion
    from sultan.saves.store import Store
    from sultan_host.desktop.screenshot import render

    shots = tmp_path / "shots"
    words = plan.keys()
    proc = emulate(image(tmp_path_factory, version, size=size, deal=deal), "--keys", words,
                   "--window", "%dx%d" % size, "--out", str(shots), "--quiet", *extra)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    names = [w.split("*")[0] for w in plan.words]
    photographed = [i for i, w in enumerate(plan.words) if not w.endswith("!") and not w.startswith("WAIT:")]
    found = compare_png.emulator_shots(str(shots))
    assert len(found) == len(photographed) + 1
    differ = []
    for n, (_idx, _key, path) in enumerate(found):
        done = [w for w in names[:photographed[n - 1] + 1] if not w.startswith("WAIT:")] if n else []
        host, _ctrl = render(deal, "%dx%d" % size, " ".join(done), store=Store(MemoryRegion()))
        want = tmp_path / ("host-%03d.png" % n)
        host.save(want)
        r = compare_png.compare(path, str(want), str(tmp_path / ("diff-%03d.png" % n)))
        if r["differ"] != 0:
            differ.append("%s after %d keys: %s" % (path, len(done), compare_png.describe(r)))
        Image.open(path).close()
    return differ


@pytest.mark.parametrize("size", SIZES, ids=["160x128", "320x240"])
@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_every_screen_matches_the_host(tmp_path, tmp_path_factory, version, size):
    differ = compare(tmp_path, tmp_path_factory, version, size, 7, screens_plan())
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("deal, size", ((WON_DEAL, (160, 128)), (LOST_DEAL, (320, 240))), ids=["won", "lost"])
def test_the_won_and_lost_panels_match_the_host(tmp_path, tmp_path_factory, size, deal):
    """The newest firmware; the won panel (after its cascade) at the PyBadge's size, the lost one at
    320x240.  Flash writes are instant here: the plan's bursts of START would otherwise fall into the
    NVM writes, during which CircuitPython holds interrupts off and keypad does not scan (a real board
    misses such presses too); this test is about pixels.  And the NeoPixels' (the same run's --report,
    2.5 s more for the win's sweep to end): the host Sound's win sweep, then dark; none for a loss."""
    version = next(iter(FIRMWARES))
    report = tmp_path / "report.json"
    lights = ("--report", str(report)) + (("--after-ms", "2500") if deal == WON_DEAL else ())
    differ = compare(tmp_path, tmp_path_factory, version, size, deal, over_plan(deal),
                     extra=("--flash-time-scale", "0") + lights)
    assert not differ, "\n".join(differ)
    check_lights(report, won=deal == WON_DEAL)
