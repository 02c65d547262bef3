"""Same pixels: every screen on real CircuitPython equals the host's, in RGB565.

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
from play_keys import LOST_DEAL, WON_DEAL, over_plan, screens_plan
from sultan_host.board import compare_png
from test_firmware_emulator import FIRMWARES, check_lights, emulate, image
from test_firmware_emulator import pytestmark as _needs_firmware

pytestmark = [_needs_firmware, pytest.mark.slow]

SIZES = ((160, 128), (320, 240))


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
