"""``make bundle``: dist/sultan-<version>.zip, what a CircuitPython user installs.

From a fresh clone it makes the zip, and two fresh clones make the same bytes.  Inside: Sultan/README.txt
and one folder a CircuitPython major, each the board build of that major file for file, with the
launcher's metadata.json and an icon drawn from our own sprite sheet.  host_tests/device/
test_bundle_emulator.py boots the folders on real CircuitPython."""

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest
import sultan
from clones import clone, make
from runners import ROOT
from sultan.ui import keys, sprites
from sultan_host.board import bundle
from sultan_host.board.compiler import CP_VERSIONS, MPY_VERSION
from sultan_host.board.tree import build

VERSION = sultan.__version__


@pytest.fixture(scope="module")
def zipped(tmp_path_factory):
    """(path, bytes) of the bundle made from this checkout."""
    tmp = tmp_path_factory.mktemp("bundle")
    path = bundle.make_bundle(str(tmp / "dist"), str(tmp / "work"), quiet=True)
    with open(path, "rb") as f:
        return path, f.read()


def members(data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.infolist(), {i.filename: z.read(i) for i in z.infolist()}


def test_make_bundle_in_two_fresh_clones_gives_the_same_bytes(tmp_path, zipped):
    made = []
    for name in ("one", "two"):
        project = clone(str(tmp_path / name))
        r = make(project, "bundle")
        assert r.returncode == 0, r.stdout + r.stderr
        path = os.path.join(project, "dist", "sultan-%s.zip" % VERSION)
        assert os.listdir(os.path.join(project, "dist")) == [os.path.basename(path)], r.stdout
        with open(path, "rb") as f:
            made.append(f.read())
    assert made[0] == made[1]
    assert made[0] == zipped[1]  # and the working tree's own, built elsewhere
    print("\nbundle: %s, %d bytes, sha256 %s" % (os.path.basename(zipped[0]), len(made[0]),
                                                 hashlib.sha256(made[0]).hexdigest()))


def test_the_zip_holds_one_top_folder_a_readme_and_a_folder_a_major(zipped):
    infos, files = members(zipped[1])
    assert os.path.basename(zipped[0]) == "sultan-%s.zip" % VERSION
    assert all(n.startswith("Sultan/") for n in files)
    top = sorted({n.split("/")[1] for n in files if n.count("/") >= 1 and n != "Sultan/"})
    assert top == sorted(["LICENSE.txt", "README.txt", "diagram.json"]
                         + ["CircuitPython %d.x" % cp for cp in CP_VERSIONS])
    for cp in CP_VERSIONS:
        base = "Sultan/CircuitPython %d.x/" % cp
        for rel in ("code.py", "launch.mpy", "profile_pybadge.mpy", "profile_pygamer.mpy",
                    "profile_pico_ili9341.mpy", "lib/sultan/__init__.mpy", "lib/sultan/app.mpy",
                    "lib/sultan/ui/sprites.dat", "lib/sultan/ui/words_en.txt", "metadata.json", "icon.bmp"):
            assert base + rel in files, base + rel
        # no build manifest, no test settings: only what a player's drive wants
        extra = [n for n in files if n.startswith(base) and n.endswith((".json", ".toml"))]
        assert extra == [base + "metadata.json"], extra


def test_the_zip_is_laid_out_to_give_the_same_bytes(zipped):
    """Fixed times and modes, folders before their files, each folder's files in sorted order."""
    infos, _files = members(zipped[1])
    assert [i.filename for i in infos[:4]] == ["Sultan/", "Sultan/LICENSE.txt", "Sultan/README.txt",
                                               "Sultan/diagram.json"]
    for i in infos:
        assert i.date_time == (1980, 1, 1, 0, 0, 0), i.filename
        assert i.create_system == 3
        mode = i.external_attr >> 16
        assert mode == (0o40755 if i.is_dir() else 0o100644), (i.filename, oct(mode))
        assert i.compress_type == (zipfile.ZIP_STORED if i.is_dir() else zipfile.ZIP_DEFLATED)
    names = [i.filename for i in infos]
    assert len(names) == len(set(names))
    for cp in CP_VERSIONS:
        base = "Sultan/CircuitPython %d.x/" % cp
        mine = [n for n in names if n.startswith(base)]
        dirs = [n for n in mine if n.endswith("/")]
        assert mine[:len(dirs)] == sorted(dirs) and mine[len(dirs):] == sorted(mine[len(dirs):])
        for n in mine:
            assert n.rsplit("/", 1)[0] + "/" in dirs or n in dirs, "%s: its folder has no entry" % n


def test_each_folder_is_the_board_build_of_its_major(zipped, tmp_path):
    _infos, files = members(zipped[1])
    for cp in CP_VERSIONS:
        base = "Sultan/CircuitPython %d.x/" % cp
        built = build(cp, str(tmp_path / ("cp%d" % cp)), quiet=True)["files"]
        shipped = {n[len(base):]: hashlib.sha256(d).hexdigest() for n, d in files.items()
                   if n.startswith(base) and not n.endswith("/")}
        launcher = {k: shipped.pop(k, None) for k in ("metadata.json", "icon.bmp")}
        assert all(launcher.values())
        assert shipped == built, cp
        for rel in shipped:
            if rel.endswith(".mpy"):  # CircuitPython's header: "C", then that major's bytecode version
                assert files[base + rel][:2] == b"C" + bytes([MPY_VERSION[cp]]), (cp, rel)
        # the device's sultan.__version__ is this one
        assert VERSION.encode() in files[base + "lib/sultan/__init__.mpy"]


def test_the_licence_is_mit_in_the_checkout_the_package_the_bundle_and_each_device_file(zipped):
    """MIT, the CircuitPython ecosystem's: LICENSE, pyproject's ``license``, the bundle's LICENSE.txt, and
    the SPDX lines atop each file that goes onto a board, as Adafruit's libraries carry them."""
    import tomllib

    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        licence = f.read()
    assert licence.startswith(b"MIT License\n") and b"Permission is hereby granted, free of charge" in licence
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        assert tomllib.load(f)["project"]["license"] == {"text": "MIT"}
    files = members(zipped[1])[1]
    assert files["Sultan/LICENSE.txt"] == licence
    assert "MIT (LICENSE.txt)" in files["Sultan/README.txt"].decode("ascii")
    sources = [os.path.join(d, f) for top in ("firmware", os.path.join("lib", "sultan"))
               for d, _dirs, names in os.walk(os.path.join(ROOT, top)) for f in names if f.endswith(".py")]
    assert len(sources) > 40
    for path in sources:
        with open(path, encoding="utf-8") as f:
            head = f.read(200).splitlines()[:2]
        assert head == ["# SPDX-FileCopyrightText: 2026 the Sultan authors",
                        "# SPDX-License-Identifier: MIT"], path


def test_the_readme_says_how_to_install_play_and_keep_the_save(zipped):
    text = members(zipped[1])[1]["Sultan/README.txt"].decode("ascii")
    assert text.startswith("Sultan %s" % VERSION)
    for cp in CP_VERSIONS:
        assert "%d.x" % cp in text
    for needed in ("PyBadge", "PyGamer", "Raspberry Pi Pico", "boot_out.txt", "onto CIRCUITPY",
                   "No library is needed", "circup", "microcontroller.nvm", "survives a reset",
                   "Statistics", "version=", "D-pad"):
        assert needed in text, needed
    for name in keys.NAMES:
        if name not in ("UP", "DOWN", "LEFT", "RIGHT"):  # the D-pad
            assert "\n  %s " % name in text, name
    assert max(len(line) for line in text.splitlines()) <= 79


def test_the_readme_lists_every_menu_item_and_switch_and_says_when_the_screen_dims(zipped):
    """Every label of the menu (the Russian one's ASCII spelling aside), the screen's 30 s and 2 minutes
    as sultan.app counts them, the in-game reset of the statistics instead of a REPL wipe."""
    from sultan import app
    from sultan.ui import words

    text = members(zipped[1])[1]["Sultan/README.txt"].decode("ascii")
    flat = " ".join(text.split())
    words.use(words.EN)
    for label in words.menu_items():
        label = label.replace("\u042f\u0437\u044b\u043a", "Yazyk")
        assert label in flat, label
    assert app.DIM_MS == 30000 and "for 30 s the screen dims" in flat
    assert app.OFF_MS == 120000 and "after 2 minutes it goes dark" in flat
    assert "Any key lights it again; that key is not played" in flat
    assert "choose Reset statistics in the menu and press A again" in flat
    assert "microcontroller.nvm[" not in text  # no REPL wipe of other programs' bytes


def test_the_zip_carries_the_picos_wiring_as_a_pin_table_and_diagram_json(zipped):
    import json as _json

    files = members(zipped[1])[1]
    with open(os.path.join(ROOT, "diagram.json"), "rb") as f:
        assert files["Sultan/diagram.json"] == f.read()
    text = files["Sultan/README.txt"].decode("ascii")
    table = text[text.index("Pico wiring"):text.index("The version")]
    links = {tuple(c[:2]) for c in _json.loads(files["Sultan/diagram.json"])["connections"]}
    for pico, part in (("GP18", "lcd1:SCK"), ("GP19", "lcd1:MOSI"), ("GP16", "lcd1:MISO"),
                       ("GP17", "lcd1:CS"), ("GP21", "lcd1:D/C"), ("GP20", "lcd1:RST"), ("GP13", "lcd1:LED"),
                       ("GP11", "sr1:PL"), ("GP10", "sr1:CP"), ("GP12", "sr1:Q7")):
        assert ("pico:" + pico, part) in links  # the table says what the diagram wires
        assert "%s %s" % (part.split(":")[1].replace("LED", "LED (backlight)"), pico) in table, part
    for d, name in enumerate(("LEFT", "UP", "DOWN", "RIGHT", "SELECT", "START", "A", "B")):
        assert "D%d %s" % (d, name) in table


def test_the_launcher_files_name_the_game_and_picture_our_sultan_card(zipped):
    from PIL import Image
    from sultan_host.desktop.sheets import sprite_sheet

    files = members(zipped[1])[1]
    base = "Sultan/CircuitPython 10.x/"
    assert json.loads(files[base + "metadata.json"]) == {"title": "Sultan", "icon": "icon.bmp"}
    im = Image.open(io.BytesIO(files[base + "icon.bmp"]))
    assert im.format == "BMP" and im.mode == "P" and im.size == (64, 64)
    rgb = im.convert("RGB")
    sheet = sprite_sheet()  # the card as the sheets module draws it, not as the bundle read it

    def card(cx, cy):
        t = sprites.T_SULTAN + (cy // sprites.TILE_H) * 2 + cx // sprites.TILE_W
        x = (t % sprites.SHEET_COLS) * sprites.TILE_W + cx % sprites.TILE_W
        y = (t // sprites.SHEET_COLS) * sprites.TILE_H + cy % sprites.TILE_H
        p = sheet[y][x]
        return sprites.COLORS[sprites.FELT if p == sprites.CLEAR else p]

    x0, y0 = (64 - 2 * sprites.CARD_W) // 2, (64 - 2 * sprites.CARD_H) // 2
    for y in range(64):
        for x in range(64):
            inside = 0 <= x - x0 < 2 * sprites.CARD_W and 0 <= y - y0 < 2 * sprites.CARD_H
            want = card((x - x0) // 2, (y - y0) // 2) if inside else sprites.COLORS[sprites.FELT]
            assert rgb.getpixel((x, y)) == (want >> 16, want >> 8 & 255, want & 255), (x, y)
    assert len(rgb.getcolors()) >= 3  # felt, gold, red: a picture, not a fill
    assert files["Sultan/CircuitPython 8.x/icon.bmp"] == files[base + "icon.bmp"]


def run_bundle(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "sultan_host.board.bundle"] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_a_bad_out_is_refused_in_one_line(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("mine")
    r = run_bundle("--out", str(f))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a directory" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and f.read_text() == "mine"
    r = run_bundle("--bogus")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr


def test_a_file_of_the_zips_name_that_is_no_bundle_is_left_alone(tmp_path):
    dist = tmp_path / "dist"
    dist.mkdir()
    theirs = dist / ("sultan-%s.zip" % VERSION)
    theirs.write_bytes(b"someone else's")
    r = run_bundle("--out", str(dist))
    assert r.returncode == 1 and "not a Sultan bundle" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert theirs.read_bytes() == b"someone else's"
    with zipfile.ZipFile(theirs, "w") as z:
        z.writestr("other/file.txt", "x")
    before = theirs.read_bytes()
    r = run_bundle("--out", str(dist))
    assert r.returncode == 1 and theirs.read_bytes() == before
