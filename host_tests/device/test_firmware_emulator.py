"""The game on real CircuitPython: the Wokwi image booted on rp2040js by tools/emulate.

Needs the Pico's CircuitPython UF2s and the RP2040 bootrom, which are never in git: give them in
CIRCUITPYTHON_UF2 (one file) and RP2040_BOOTROM, or put them in vendor-local/ (see docs/emulator.md):
every CircuitPython major found there (8.2.7, 9.2.8 and 10.2.1) is run.  Without them the tests
skip with one reason; CI links them from ../shared/firmware and requires them (SULTAN_EMULATOR=required).
"""

import glob
import os
import re
import shutil
import subprocess

import pytest
from runners import emulate_deps
from sultan_host.board import wokwi as wokwi_image

ROOT = wokwi_image.ROOT
EMULATE = os.path.join(ROOT, "tools", "emulate")


def firmwares():
    """{version: path} of the Pico CircuitPython UF2s to run: the newest of each major."""
    path = os.environ.get("CIRCUITPYTHON_UF2")
    if path:
        files = [path] if os.path.isfile(path) else []
    else:
        files = sorted(
            glob.glob(os.path.join(ROOT, "vendor-local", "adafruit-circuitpython-raspberry_pi_pico-*.uf2"))
        )
    found = {}
    for f in files:
        try:
            version = wokwi_image.circuitpython_version(f)
        except SystemExit:
            continue
        if found.get(version[0], ((0,), None))[0] < version:
            found[version[0]] = (version, f)
    return {"%d.%d.%d" % v: f for v, f in sorted(found.values(), reverse=True)}


def find_bootrom():
    path = os.environ.get("RP2040_BOOTROM")
    if path:
        return path if os.path.isfile(path) else None
    hits = sorted(glob.glob(os.path.join(ROOT, "vendor-local", "bootrom*.bin")))
    hits += sorted(glob.glob(os.path.join(ROOT, "vendor-local", "bootrom*.js")))
    return hits[0] if hits else None


FIRMWARES = firmwares()
BOOTROM = find_bootrom()
NEWEST = next(iter(FIRMWARES), None)


def missing():
    """Why the emulator can't run here (None: it can)."""
    if not FIRMWARES or not BOOTROM:
        return ("no CircuitPython firmware: link ../shared/firmware/* into vendor-local/ "
                "(or set CIRCUITPYTHON_UF2 and RP2040_BOOTROM), see docs/emulator.md")
    if not shutil.which("node"):
        return "no node (Node.js 20) on PATH for tools/emulate"
    return None


WHY = missing()
# CI fills vendor-local/ from ../shared/firmware and sets SULTAN_EMULATOR=required: there a missing
# firmware fails instead of skipping, so a green CI always ran the game on real CircuitPython.
if WHY and os.environ.get("SULTAN_EMULATOR") == "required":
    raise pytest.UsageError("SULTAN_EMULATOR=required but " + WHY)
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")


def emulator_ready():
    err = emulate_deps()
    if err and os.environ.get("SULTAN_EMULATOR") == "required":
        pytest.fail(err)
    if err:
        pytest.skip(err)


_images = {}


def image(tmp_path_factory, version, size=None, deal=None):
    """The Wokwi image for CircuitPython ``version`` (built once per option set)."""
    key = (version, size, deal)
    if key not in _images:
        emulator_ready()
        tmp = tmp_path_factory.mktemp("wokwi")
        out = tmp / "sultan.uf2"
        wokwi_image.make_uf2(
            FIRMWARES[version], str(out), tree=str(tmp / "CIRCUITPY"), quiet=True, size=size, deal=deal
        )
        _images[key] = str(out)
    return _images[key]


def emulate(image, *args):
    return subprocess.run(
        ["node", os.path.join(EMULATE, "emulate.js"), "--firmware", image, "--bootrom", BOOTROM]
        + ["--timeout-s", "3000"]  # wall time: a safety net only (a loaded machine runs slowly)
        + list(args),
        capture_output=True,
        text=True,
        timeout=3300,
    )


@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_game_runs_on_circuitpython(tmp_path, tmp_path_factory, version):
    from PIL import Image

    shots = tmp_path / "shots"
    proc = emulate(
        image(tmp_path_factory, version),
        "--scenario",
        os.path.join(ROOT, "wokwi", "scenario.yaml"),
        "--out",
        str(shots),
    )
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    assert "CircuitPython %s" % version in out or "| %s" % version in out, out[:500]
    ready = re.search(r"SULTAN READY board=raspberry_pi_pico deal=(\d+) mem_free=(\d+)", out, re.M)
    assert ready, out[-2000:]
    assert int(ready.group(2)) > 20000, "less than 20 KB free after start-up"
    keys = re.findall(r"^SULTAN key=(\w+) placed=\d+ pass=\d+ status=(\w+)", out, re.M)
    # the Wokwi scenario: select, move on, turn
    assert [k for k, _s in keys] == ["A", "RIGHT", "START"] and all(s == "playing" for _k, s in keys)
    assert "Traceback" not in out
    pictures = {}
    for name in ("01-ready.png", "02-selected.png", "03-turned.png"):
        img = Image.open(shots / name).convert("RGB")
        assert img.size == (320, 240)
        colours = img.getcolors(320 * 240)
        assert len(colours) > 4, "%s: a blank screen" % name
        pictures[name] = img
    # the cursor moved and a card was turned: the pictures differ
    assert pictures["01-ready.png"].tobytes() != pictures["02-selected.png"].tobytes()
    assert pictures["02-selected.png"].tobytes() != pictures["03-turned.png"].tobytes()


def test_game_runs_with_no_usb_host(tmp_path, tmp_path_factory):
    """The game waits for nothing: with no USB host at all it still draws and answers the buttons."""
    from PIL import Image

    shots = tmp_path / "shots"
    proc = emulate(image(tmp_path_factory, NEWEST), "--no-usb", "--keys", "START", "--out", str(shots))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ready = Image.open(shots / "00-ready.png").convert("RGB")
    turned = Image.open(shots / "01-START.png").convert("RGB")
    assert len(ready.getcolors(320 * 240)) > 4, "nothing drawn without a USB host"
    assert ready.tobytes() != turned.tobytes(), "START changed nothing without a USB host"


SOAK_KEYS = 300
SOAK_SEED = 11


@pytest.mark.slow
@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_a_seeded_soak_answers_every_key(tmp_path, tmp_path_factory, version):
    """300 seeded random keys (moves, menus, pages, new deals, redeals): every key is answered with
    its line, and the console shows no exception and no MemoryError (tools/emulate fails the run on
    either, and on a key with no line).  The newest firmware at 320x240, the tightest heap; the
    others at 160x128, which draws a quarter of the pixels (CI's time)."""
    report = tmp_path / "soak.json"
    size = None if version == NEWEST else (160, 128)
    window = ["--window", "160x128"] if size else []
    proc = emulate(image(tmp_path_factory, version, size=size, deal=7), *window,
                   "--random-keys", str(SOAK_KEYS), "--seed", str(SOAK_SEED), "--no-shots", "--quiet",
                   "--report", str(report), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    import json

    keys = json.loads(report.read_text())["keys"]
    assert len(keys) == SOAK_KEYS
    unanswered = [k["name"] for k in keys if k["line"] is None]
    assert not unanswered, unanswered[:10]
    assert "MemoryError" not in proc.stdout and "Traceback" not in proc.stdout


def win_lights(n=5):
    """The NeoPixel frames the host's ``sultan.ui.sound.Sound`` shows for a win, as [[r, g, b], ...]
    each: the sweep's steps (SWEEP_COLOURS in turn, a step every SWEEP_STEP_MS), then dark."""
    from sultan.ui import sound

    frames = []

    class Strip(list):
        auto_write = False

        def show(self):
            frames.append([list(p) for p in self])

    now = [0]
    s = sound.Sound(pixels=Strip([(0, 0, 0)] * n), clock=lambda: now[0])
    s.event("win")
    while s.busy():
        now[0] += sound.SWEEP_STEP_MS
        s.update()
    return frames


def check_lights(report, won):
    """The NeoPixel frames tools/emulate decoded in a run (its --report): a won game's are the host's
    win sweep, in order, ending dark; a lost one's none (the lights are a win's)."""
    import json

    frames = json.loads(report.read_text())["neopixels"]
    got = [f["pixels"] for f in frames]
    want = win_lights() if won else []
    assert got == want, "NeoPixel frames: %d seen, %d wanted; first differing: %s" % (
        len(got), len(want),
        next(((i, g, w) for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w), None))


# Every screen of a key plan (the table, the menu, the digit editor, the pages, both languages, the
# won/lost panels), at both sizes: host_tests/device/test_screen_emulator.py; saves: test_saves_emulator.py.


BUNDLE_TODAY = (  # what wokwi.com's bundle would install for the old requirements.txt: the newest releases
    "adafruit-circuitpython-display-text",
    "adafruit-circuitpython-displayio-layout",
    "adafruit-circuitpython-ili9341",
)


def newest_wheels(dest):
    """The newest PyPI wheels of BUNDLE_TODAY (pip download); [] when PyPI cannot be reached."""
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps"]
        + ["--only-binary=:all:", "-d", str(dest)]
        + list(BUNDLE_TODAY),
        capture_output=True,
        text=True,
    )
    return sorted(glob.glob(os.path.join(str(dest), "*.whl"))) if proc.returncode == 0 else []


def test_wokwi_web_export_runs_as_exported(tmp_path):
    """make wokwi-web's folder, exactly as written, as the CIRCUITPY of the diagram's CircuitPython,
    with today's newest bundle libraries in /lib as wokwi.com might add them (the old requirements.txt
    named adafruit_ili9341): the export imports none of them (the Pico profile drives the ILI9341
    itself; a pinned library would ship top level, first on sys.path), and the game plays."""
    cp, version = wokwi_image.diagram_circuitpython()
    if version not in FIRMWARES:
        pytest.skip("no CircuitPython %s UF2 (the diagram's env)" % version)
    emulator_ready()
    tree = tmp_path / "CIRCUITPY"
    files = wokwi_image.make_web(str(tree), quiet=True)
    assert "code.py" in files
    wheels = newest_wheels(tmp_path / "wheels")
    import sultan_host.board as build_circuitpy
    for wheel in wheels:
        for rel, data in build_circuitpy.wheel_sources(wheel).items():
            dst = tree / "lib" / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
    out = tmp_path / "web.uf2"
    wokwi_image.lay_uf2(FIRMWARES[version], str(tree), str(out), quiet=True)
    proc = emulate(
        str(out), "--scenario", os.path.join(ROOT, "wokwi", "scenario.yaml"), "--out", str(tmp_path)
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert re.search(r"SULTAN READY board=raspberry_pi_pico", proc.stdout)
    assert len(re.findall(r"^SULTAN key=", proc.stdout, re.M)) == 3
