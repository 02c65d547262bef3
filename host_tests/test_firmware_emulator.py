"""The game on real CircuitPython: the Wokwi image booted on rp2040js by tools/emulate.

Needs the Pico's CircuitPython UF2 and the RP2040 bootrom, which are never in git: give them in
CIRCUITPYTHON_UF2 and RP2040_BOOTROM (or put them in vendor-local/, see README).  Without them the
test is skipped (as in CI).
"""

import glob
import os
import re
import shutil
import subprocess

import pytest
import wokwi_image  # tools/ is on sys.path (conftest)

ROOT = wokwi_image.ROOT
EMULATE = os.path.join(ROOT, "tools", "emulate")


def find(env, patterns):
    path = os.environ.get(env)
    if path:
        return path if os.path.isfile(path) else None
    for pattern in patterns:
        hits = sorted(glob.glob(os.path.join(ROOT, "vendor-local", pattern)))
        if hits:
            return hits[-1]
    return None


UF2 = find("CIRCUITPYTHON_UF2", ["adafruit-circuitpython-raspberry_pi_pico-*.uf2"])
BOOTROM = find("RP2040_BOOTROM", ["bootrom*.bin", "bootrom*.js"])

pytestmark = pytest.mark.skipif(
    not (UF2 and BOOTROM and shutil.which("node")),
    reason="needs the Pico CircuitPython UF2 (CIRCUITPYTHON_UF2) and the RP2040 bootrom (RP2040_BOOTROM)",
)


def emulator_ready():
    if not os.path.isdir(os.path.join(EMULATE, "node_modules", "rp2040js")):
        proc = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=EMULATE,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            pytest.skip("npm ci in tools/emulate failed: " + proc.stderr[-500:])


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    emulator_ready()
    tmp = tmp_path_factory.mktemp("wokwi")
    out = tmp / "sultan.uf2"
    wokwi_image.make_uf2(UF2, str(out), tree=str(tmp / "CIRCUITPY"), quiet=True)
    return str(out)


def emulate(image, *args):
    return subprocess.run(
        ["node", os.path.join(EMULATE, "emulate.js"), "--firmware", image, "--bootrom", BOOTROM]
        + ["--timeout-s", "600"]
        + list(args),
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_game_runs_on_circuitpython(tmp_path, image):
    from PIL import Image

    shots = tmp_path / "shots"
    proc = emulate(image, "--scenario", os.path.join(ROOT, "wokwi", "scenario.yaml"), "--out", str(shots))
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    ready = re.search(r"SULTAN READY board=raspberry_pi_pico deal=(\d+) mem_free=(\d+)", out, re.M)
    assert ready, out[-2000:]
    assert int(ready.group(2)) > 20000, "less than 20 KB free after start-up"
    keys = re.findall(r"^SULTAN key=(\w+) placed=\d+ pass=\d+ status=(\w+)", out, re.M)
    assert [k for k, _s in keys] == ["RIGHT", "A", "START"] and all(s == "playing" for _k, s in keys)
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


def test_game_runs_with_no_usb_host(tmp_path, image):
    """The game waits for nothing: with no USB host at all it still draws and answers the buttons."""
    from PIL import Image

    shots = tmp_path / "shots"
    proc = emulate(image, "--no-usb", "--keys", "START", "--out", str(shots))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ready = Image.open(shots / "00-ready.png").convert("RGB")
    turned = Image.open(shots / "01-START.png").convert("RGB")
    assert len(ready.getcolors(320 * 240)) > 4, "nothing drawn without a USB host"
    assert ready.tobytes() != turned.tobytes(), "START changed nothing without a USB host"
