"""The project bundle a CircuitPython user installs: ``dist/sultan-<version>.zip`` (``make bundle``).

    python -m sultan_host.board.bundle [--out DIR]

The zip holds one top folder, ``Sultan/``: the MIT ``LICENSE.txt``, a ``README.txt`` (the boards, how
to install, the controls, where the save lives) and one folder per CircuitPython major,
``CircuitPython 8.x/``, ``9.x/`` and ``10.x/``, each what goes onto CIRCUITPY for that major -- the
board build of ``sultan_host.board.tree`` (code.py, launch and the board profiles, ``lib/sultan`` as
.mpy with its data) -- and the launcher files ``metadata.json`` and ``icon.bmp`` (Fruit Jam OS's
convention; the icon is the game's own sultan card, read from the sprite sheet).  It is the layout of
Adafruit's project bundles.

The same checkout gives the same bytes: the entries in a fixed order (LICENSE.txt, README.txt, then each
major's folder, its files sorted), every timestamp 1980-01-01 00:00, files 0644 and folders 0755, deflate at
level 9 (zlib's output for given input and level: the same on every machine with the same zlib).
The version is ``__version__`` of the checkout's lib/sultan/__init__.py, read without importing it
(the package imported may be another checkout's).  The trees are built in build/bundle/.
"""

import ast
import io
import json
import os
import re
import shutil
import struct
import sys
import zipfile

from sultan_host.board.cli import ArgParser, check_checkout
from sultan_host.board.compiler import CP_VERSIONS
from sultan_host.board.sources import LIB, ROOT, BuildError
from sultan_host.board.tree import build

TOP = "Sultan"
DEFAULT_DIST = os.path.join(ROOT, "dist")
WORK = os.path.join(ROOT, "build", "bundle")
STAMP = (1980, 1, 1, 0, 0, 0)  # the zip format's earliest time: no clock in the bytes
ICON_SIZE = 64
ICON_SCALE = 2  # the 22x30 sultan card at twice its size: 44x60 on the felt
VERSION_RE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")


def folder(cp):
    """The bundle's folder for CircuitPython major ``cp``."""
    return "CircuitPython %d.x" % cp


def zip_name(version):
    return "sultan-%s.zip" % version


def module_values(path, names):
    """{name: value} of the top-level ``NAME = literal`` and ``NAME = const(literal)`` assignments of
    the source file ``path`` (read, never imported)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if name not in names:
                continue
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const" and value.args:
                value = value.args[0]
            out[name] = ast.literal_eval(value)
    missing = sorted(set(names) - set(out))
    if missing:
        raise BuildError("%s: no %s" % (os.path.relpath(path, ROOT), ", ".join(missing)))
    return out


def source_version():
    """``sultan.__version__`` of this checkout (lib/sultan/__init__.py), an X.Y.Z string."""
    version = module_values(os.path.join(LIB, "sultan", "__init__.py"), ("__version__",))["__version__"]
    if not isinstance(version, str) or not VERSION_RE.fullmatch(version):
        raise BuildError("lib/sultan/__init__.py: __version__ %r is not X.Y.Z" % (version,))
    return version


README = """\
%(title)s
%(rule)s

The Sultan's Pyramid: eight foundations round the sultan (the king of hearts)
are built up in suit to the queen from a six-card divan, the talon and a stock
you may go through three times.

Install
-------
1. Put CircuitPython 8.x, 9.x or 10.x on the board: the UF2 from its page,
     PyBadge, PyBadge LC   circuitpython.org/board/pybadge/
     EdgeBadge             circuitpython.org/board/edgebadge/
     PyGamer               circuitpython.org/board/pygamer/
     Raspberry Pi Pico     circuitpython.org/board/raspberry_pi_pico/
     (Pico W, Pico 2, Pico 2 W: raspberry_pi_pico_w, raspberry_pi_pico2,
     raspberry_pi_pico2_w; wired as the Pico below, not yet run)
   Double-click reset (badges) or hold BOOTSEL while plugging in (Pico),
   then drop the UF2 onto the drive that appears.  CIRCUITPY appears.
2. CIRCUITPY/boot_out.txt says the version.  Keep a copy of your own
   code.py if you want it back; if an older Sultan is there, delete
   CIRCUITPY/lib/sultan first.
3. Open the folder for that version, "CircuitPython 9.x" for 9.2, say, and
   copy everything inside it onto CIRCUITPY (code.py, launch.mpy, the
   profile_*.mpy files and lib/), replacing what is there.
4. The board restarts: after about three seconds on the Pico and four on
   a badge, a fresh deal fills the screen (the sultan in the middle, the
   cursor on the divan's first card) with "A:play B:undo SELECT:menu" at
   the bottom.  The serial console says SULTAN READY.

No library is needed: the game uses only what CircuitPython has built in, and
lib/sultan is in the folder.  circup users: there is nothing to install
(`circup install --auto` reads code.py, whose imports, launch and sultan, are
both in the folder).

Controls
--------
  D-pad          move the cursor (it wraps round and skips the sultan); held,
                 it moves on after 0.4 s, then ten places a second (the menu,
                 the pages and the deal number too)
  A              select a divan card or the talon top; A again sends it home;
                 A on a foundation plays the selected card there (a refusal
                 says why); A on the stock turns a card or redeals
  B              cancel the selection; with nothing selected, undo
  START          turn a stock card (or redeal) from anywhere
  SELECT         the menu (UP/DOWN, A chooses, B closes):
                   New random deal, Winnable deal, Choose deal number,
                   Restart deal, Undo, Redo, Hint, Autoplay (on/off),
                   Ruleset (seed/classic), Statistics, Motion (on/off),
                   Four colours (on/off), Sound (on/off), Lights (on/off),
                   Dim when idle (on/off), Language / Yazyk (English,
                   Russian), Reset statistics, Rules
On the PyGamer the joystick is the D-pad.  Sound and Lights are on the badges
only.  On the empty stock the mark and a number say the redeals left.

The screen
----------
With no key for 30 s the screen dims; after 2 minutes it goes dark and the
lights go out (the game is saved then).  Any key lights it again; that key is
not played.  The menu's "Dim when idle: off" keeps it lit.

The save
--------
The game saves itself -- the game in play, the settings and the statistics --
in the board's microcontroller.nvm, a small piece of flash beside the firmware
and not a file on CIRCUITPY.  It survives a reset, a power cut and a new copy
of the game (an older version's save loads), and copying or erasing files on
the drive does not touch it.  A damaged save is found, said once and
replaced by a new game.  To clear the statistics, choose Reset statistics in
the menu and press A again to confirm: only the game's own records change,
never another program's bytes of microcontroller.nvm.

Pico wiring
-----------
diagram.json beside this file is the project's Wokwi circuit.
  ILI9341 320x240   SCK GP18  MOSI GP19  MISO GP16  CS GP17  D/C GP21
                    RST GP20  LED (backlight) GP13  VCC 3V3  GND
  74HC165           PL GP11  CP GP10  Q7 GP12  CE, DS and GND to GND, VCC 3V3
  buttons           each from 3V3 to its input, with 10k from the input to
                    GND: D0 LEFT  D1 UP  D2 DOWN  D3 RIGHT  D4 SELECT
                    D5 START  D6 A  D7 B
  buzzer            GP15 to GND
  5 NeoPixels       DIN of the first on GP22, each DOUT to the next DIN

The version
-----------
This is Sultan %(version)s: the menu's Statistics page says so on its last
line, and so does the serial console's "SULTAN READY ... version=" line.

metadata.json and icon.bmp name and picture the game for launchers that read
them (Fruit Jam OS's convention); the game itself needs neither.

Licence
-------
MIT (LICENSE.txt): copy it, change it, put it on any board, keeping the
licence with it.
"""


def readme(version):
    title = "Sultan %s: a two-deck patience for CircuitPython handhelds" % version
    return (README % {"version": version, "title": title, "rule": "=" * len(title)}).encode("ascii")


def metadata():
    return (json.dumps({"title": TOP, "icon": "icon.bmp"}, indent=2, sort_keys=True) + "\n").encode("ascii")


def sultan_card():
    """(rows of palette indices of the sultan card, 22x30; the palette as 0xRRGGBB; the transparent
    index): read from the checkout's sprite sheet and sultan/ui/sprites.py's numbers."""
    ui = os.path.join(LIB, "sultan", "ui")
    v = module_values(os.path.join(ui, "sprites.py"), (
        "TILE_W", "TILE_H", "CARD_W", "CARD_H", "SHEET_COLS", "T_SULTAN", "COLORS", "CLEAR", "SHEET_FILE"))
    with open(os.path.join(ui, v["SHEET_FILE"]), "rb") as f:
        data = f.read()
    if data[:2] != b"SB" or data[2] != 4:
        raise BuildError("%s: not a 4-bit SB sheet" % v["SHEET_FILE"])
    w = data[4] | data[5] << 8
    row = (w * 4 + 7) // 8

    def pixel(x, y):
        byte = data[8 + y * row + x // 2]
        return byte >> 4 if x % 2 == 0 else byte & 15

    tw, th = v["TILE_W"], v["TILE_H"]
    rows = []
    for cy in range(v["CARD_H"]):
        line = []
        for cx in range(v["CARD_W"]):
            t = v["T_SULTAN"] + (cy // th) * 2 + cx // tw  # the card's tiles: TL TR ML MR BL BR
            line.append(pixel((t % v["SHEET_COLS"]) * tw + cx % tw, (t // v["SHEET_COLS"]) * th + cy % th))
        rows.append(line)
    return rows, v["COLORS"], v["CLEAR"]


def bmp(rows, palette):
    """A 4-bit indexed BMP (BITMAPINFOHEADER, bottom-up rows padded to 4 bytes) of ``rows``."""
    h, w = len(rows), len(rows[0])
    stride = (w * 4 + 31) // 32 * 4
    pixels = bytearray()
    for line in reversed(rows):
        packed = bytearray((line[i] << 4) | (line[i + 1] if i + 1 < w else 0) for i in range(0, w, 2))
        pixels += packed + bytes(stride - len(packed))
    colours = b"".join(struct.pack("<BBBB", c & 255, c >> 8 & 255, c >> 16, 0) for c in palette)
    offset = 14 + 40 + len(colours)
    head = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 4, 0, len(pixels), 2835, 2835, len(palette), 0)
    return head + info + colours + bytes(pixels)


def icon():
    """icon.bmp: the sultan card at twice its size, centred on the felt (palette index 0)."""
    card, colours, clear = sultan_card()
    felt = 0
    px = [[felt] * ICON_SIZE for _ in range(ICON_SIZE)]
    x0 = (ICON_SIZE - len(card[0]) * ICON_SCALE) // 2
    y0 = (ICON_SIZE - len(card) * ICON_SCALE) // 2
    for cy, line in enumerate(card):
        for cx, p in enumerate(line):
            for dy in range(ICON_SCALE):
                for dx in range(ICON_SCALE):
                    px[y0 + cy * ICON_SCALE + dy][x0 + cx * ICON_SCALE + dx] = felt if p == clear else p
    return bmp(px, list(colours[:16]))


def tree_files(tree):
    """[(path in the tree, bytes)] of every file under ``tree``, sorted by path."""
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        for fn in filenames:
            path = os.path.join(dirpath, fn)
            with open(path, "rb") as f:
                out.append((os.path.relpath(path, tree).replace(os.sep, "/"), f.read()))
    return sorted(out)


def entries(version, work=WORK, quiet=True):
    """[(name in the zip, bytes, or None for a folder)] in the zip's order: builds each major's tree
    in ``work``."""
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        licence = f.read()
    with open(os.path.join(ROOT, "diagram.json"), "rb") as f:
        diagram = f.read()
    out = [(TOP + "/", None), (TOP + "/LICENSE.txt", licence), (TOP + "/README.txt", readme(version)),
           (TOP + "/diagram.json", diagram)]
    launcher = [("icon.bmp", icon()), ("metadata.json", metadata())]
    for cp in CP_VERSIONS:
        tree = os.path.join(work, "cp%d" % cp)
        build(cp, tree, quiet=quiet)
        files = sorted(tree_files(tree) + launcher)
        base = "%s/%s/" % (TOP, folder(cp))
        dirs = {base}
        for rel, _data in files:
            parts = rel.split("/")[:-1]
            dirs.update(base + "/".join(parts[:i]) + "/" for i in range(1, len(parts) + 1))
        out += [(d, None) for d in sorted(dirs)] + [(base + rel, data) for rel, data in files]
    return out


def write_zip(path, items):
    """Write ``items`` (as ``entries`` gives them) into the zip ``path``, by way of a temporary file."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in items:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.create_system = 3  # Unix: the mode below is read
            if data is None:
                info.external_attr = (0o40755 << 16) | 0x10  # a folder (and its MS-DOS flag)
                z.writestr(info, b"")
            else:
                info.external_attr = 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data, compresslevel=9)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def is_bundle(path):
    """``path`` is a zip this module wrote (every entry under ``Sultan/``)."""
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
    except (OSError, zipfile.BadZipFile):
        return False
    return bool(names) and all(n.startswith(TOP + "/") for n in names)


def make_bundle(out_dir=DEFAULT_DIST, work=WORK, quiet=False):
    """Build the bundle into ``out_dir``; returns the zip's path."""
    version = source_version()
    path = os.path.join(out_dir, zip_name(version))
    if os.path.lexists(path) and not is_bundle(path):
        raise BuildError("%s: not a Sultan bundle; it would be replaced" % path)
    if os.path.exists(path) and not os.stat(path).st_mode & 0o222:  # the saves' rule: root too
        raise BuildError("%s is read-only: left alone" % path)
    items = entries(version, work)
    os.makedirs(out_dir, exist_ok=True)
    write_zip(path, items)
    shutil.rmtree(work, ignore_errors=True)
    if not quiet:
        files = [d for _n, d in items if d is not None]
        print("wrote %s: %d files (%d bytes unpacked), %d bytes, for CircuitPython %s"
              % (os.path.relpath(path, ROOT), len(files), sum(map(len, files)), os.path.getsize(path),
                 ", ".join("%d.x" % cp for cp in CP_VERSIONS)))
    return path


def main(argv=None):
    ap = ArgParser(prog="bundle", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=DEFAULT_DIST, help="the folder the zip goes into (dist/)")
    args = ap.parse_args(argv)
    check_checkout(ap)
    if not args.out:
        ap.error("--out: empty path")
    if os.path.lexists(args.out) and not os.path.isdir(args.out):
        ap.error("--out %.200s: not a directory" % args.out)
    try:
        make_bundle(args.out)
    except BuildError as e:
        print("bundle: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
