"""The bundle as a player gets it, on real CircuitPython.

``make bundle``'s zip is unzipped; for each Pico firmware found (8.2.7, 9.2.8, 10.2.1, as
test_firmware_emulator.py finds them) the folder of its major is copied, by a plain file copy and
nothing else, into a fresh CIRCUITPY folder, laid behind that firmware as one UF2 (folder2uf2, as
``sultan_host.board.wokwi`` lays it) and booted in tools/emulate: no settings.toml, no test profile, a
random deal at the Pico profile's 320x240.  It must reach ``SULTAN READY`` with the bundle's version
and answer a short key plan.  One boot a major, four keys, no screenshots: CI's time.  Without the
firmware it skips with the device tests' one reason (SULTAN_EMULATOR=required makes that a failure).

The folder of each badge image's major also boots on it in the samd51 emulator (``python -m
sultan_host.pybadge --tree``): the 9.x folder on the PyBadge's 9.1.1, the 10.x folder on the PyBadge's and
the PyGamer's 10.2.1, copied the same way (skipped without their firmware, with one reason).
"""

import filecmp
import os
import re
import shutil
import zipfile

import pytest
import sultan
from sultan_host.board import bundle
from sultan_host.board import wokwi as wokwi_image
from test_firmware_emulator import FIRMWARES, emulate, emulator_ready
from test_firmware_emulator import pytestmark as _needs_firmware
from test_pybadge_emulator import IMAGES, Badge

pytestmark = _needs_firmware

KEYS = ("RIGHT", "A", "START", "B")


@pytest.fixture(scope="module")
def unzipped(tmp_path_factory):
    """The folder the bundle's zip was unzipped into."""
    tmp = tmp_path_factory.mktemp("bundle")
    path = bundle.make_bundle(str(tmp / "dist"), str(tmp / "work"), quiet=True)
    out = tmp / "unzipped"
    with zipfile.ZipFile(path) as z:
        z.extractall(out)
    return out


def same_tree(a, b):
    """The folders hold the same files with the same bytes."""
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _match, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(os.path.join(a, d), os.path.join(b, d))
                                               for d in cmp.common_dirs)


@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_the_bundle_folder_copied_onto_a_fresh_drive_plays(tmp_path, unzipped, version):
    emulator_ready()
    folder = unzipped / "Sultan" / bundle.folder(int(version.split(".")[0]))
    drive = tmp_path / "CIRCUITPY"
    shutil.copytree(folder, drive)  # what the player does: the folder's contents onto the drive
    assert same_tree(folder, drive)
    image = str(tmp_path / "sultan.uf2")
    wokwi_image.lay_uf2(FIRMWARES[version], str(drive), image, quiet=True)
    proc = emulate(image, "--keys", " ".join(KEYS), "--no-shots", "--out", str(tmp_path / "out"))
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    assert "CircuitPython %s" % version in out or "| %s" % version in out, out[:500]
    ready = re.search(r"SULTAN READY board=raspberry_pi_pico deal=\d+ mem_free=(\d+) version=(\S+) save=0",
                      out)
    assert ready, out[-2000:]
    assert ready.group(2) == sultan.__version__
    assert int(ready.group(1)) > 20000, "less than 20 KB free after start-up"
    played = re.findall(r"^SULTAN key=(\w+) placed=\d+ pass=\d+ status=(\w+)", out, re.M)
    assert [k for k, _s in played] == list(KEYS), out[-2000:]
    assert all(s == "playing" for _k, s in played)
    assert "Traceback" not in out and "MemoryError" not in out, out[-2000:]
    print("\n%s: %s" % (version, ready.group(0)))


@pytest.mark.parametrize("image", IMAGES or [None], ids=lambda i: repr(Badge(*i)) if i else "none")
def test_the_bundle_folder_copied_onto_a_fresh_drive_plays_on_the_badge(tmp_path, unzipped, image):
    from test_pybadge_emulator import WHY, Run

    if WHY:
        pytest.skip(WHY)
    badge = Badge(*image)
    folder = unzipped / "Sultan" / bundle.folder(badge.version[0])
    drive = tmp_path / "CIRCUITPY"
    shutil.copytree(folder, drive)
    assert same_tree(folder, drive)
    run = Run(tmp_path, badge, str(drive), "--keys", " ".join(KEYS), "--no-shots").ok()
    ready = run.report["ready"][0]["text"]
    m = re.match(r"SULTAN READY board=%s deal=\d+ mem_free=(\d+) version=(\S+) save=0$" % badge.board, ready)
    assert m and m.group(2) == sultan.__version__ and int(m.group(1)) > 20000, ready
    texts = [ln["text"] for ln in run.report["lines"]]
    played = [t.split()[1] for t in texts if t.startswith("SULTAN key=")]
    assert played == ["key=" + k for k in KEYS], texts[-10:]
    assert not any("Traceback" in t or "MemoryError" in t for t in texts)
    print("\n%s: %s" % (badge.label, ready))
