"""Wokwi images of the game for the Raspberry Pi Pico (ILI9341 + 74HC165, see diagram.json).

    python tools/wokwi_image.py uf2 --circuitpython CP.uf2 [--out build/wokwi/sultan.uf2]
    python tools/wokwi_image.py web [--out build/wokwi-web]

(``python -m sultan_host.board.wokwi`` the same.)

``uf2``: reads the CircuitPython version out of the given Pico UF2, builds build/CIRCUITPY for
that major (``sultan_host.board.tree``), and lays it as a FAT filesystem at flash offset 0x100000
after the firmware with PyPI ``folder2uf2 --board raspberry_pi_pico --combine`` -- one UF2, the file
wokwi.toml names, that both the Wokwi CLI and tools/emulate boot.

Test options of ``uf2`` (the emulator and the device benchmark; they write a ``settings.toml``):
``--size WxH`` drives the ILI9341 as a WxH window through the test profile
tools/emulate/profile_pico_window.py (160x128: the PyBadge layout), ``--deal N`` starts deal N
(when no save is loaded), ``--memtrace`` has code.py print ``gc.mem_free()`` after each stage and
import, and ``--bare`` writes a bare code.py instead of the game (the start-up baseline).

``web``: a folder for a wokwi.com CircuitPython project: diagram.json, code.py, the Pico profile,
our package as .py, all at the project's top level.  No requirements.txt: the game imports no
library, and wokwi.com would install the bundle of the day, whose versions may not load
(displayio-layout 3.x on 8.2.7).
"""

import os
import re
import shutil
import subprocess
import sys

from sultan_host.board.cli import ArgParser, check_checkout, check_mpy_cross, check_out
from sultan_host.board.compiler import CP_VERSIONS
from sultan_host.board.libraries import board_libraries
from sultan_host.board.sources import FIRMWARE, LIB, ROOT, BuildError, package_files
from sultan_host.board.tree import build

FLASH_BASE = 0x10000000
FS_OFFSET = 0x100000  # the Pico's CIRCUITPY starts 1 MB into flash
PICO_BOARD = "raspberry_pi_pico"
EMULATE = os.path.join(ROOT, "tools", "emulate")
WINDOW_PROFILE = "profile_pico_window"  # the emulator's test profile (tools/emulate)
MAX_DEAL = 999_999_999
# What a bare code.py prints (the start-up baseline of sultan_host.bench.device): its heap, and
# how long after its start it printed. It waits for the USB host's DTR itself: CircuitPython drops console
# output until then, and on a board with a display supervisor.runtime.serial_connected is True as soon as
# the display's terminal runs (9.1.1's serial_connected()).
BARE_CODE = (
    "import supervisor\n"
    "t0 = supervisor.ticks_ms()\n"
    "import gc\n"
    "gc.collect()\n"
    "free, used = gc.mem_free(), gc.mem_alloc()\n"
    "import usb_cdc\n"
    "while not usb_cdc.console.connected:\n"
    "    pass\n"
    'print("SULTAN BARE heap=%d mem_free=%d waited_ms=%d" % (free + used, free, '
    "(supervisor.ticks_ms() - t0) & 0x3FFFFFFF))\n"
)


def parse_size(text):
    """(width, height) of 'WxH' within the 320x240 landscape panel, or ValueError."""
    m = re.fullmatch(r"([0-9]{2,3})x([0-9]{2,3})", text or "")
    if not m:
        raise ValueError("want WIDTHxHEIGHT, e.g. 160x128")
    w, h = int(m.group(1)), int(m.group(2))
    if not (16 <= w <= 320 and 16 <= h <= 240):
        raise ValueError("the window must fit the 320x240 panel")
    return w, h


def parse_deal(text):
    if not re.fullmatch(r"[0-9]{1,9}", text or "") or not 1 <= int(text) <= MAX_DEAL:
        raise ValueError("want a deal number 1..%d" % MAX_DEAL)
    return int(text)


def test_settings(size=None, deal=None, memtrace=False):
    """(settings.toml entries, extra files) for the emulator's test options."""
    settings, extra = {}, []
    if size is not None and tuple(size) != (320, 240):
        settings["SULTAN_PROFILE"] = WINDOW_PROFILE
        settings["SULTAN_SIZE"] = "%dx%d" % tuple(size)
        extra.append((WINDOW_PROFILE + ".py", os.path.join(EMULATE, WINDOW_PROFILE + ".py")))
    if deal is not None:
        settings["SULTAN_DEAL"] = str(deal)
    if memtrace:
        settings["SULTAN_MEMTRACE"] = "1"
    return settings, extra


def uf2_blocks(data):
    """Yield (flash address, payload) of each UF2 block."""
    import struct

    for off in range(0, len(data) - 511, 512):
        m0, m1, _flags, addr, size = struct.unpack_from("<IIIII", data, off)
        if m0 == 0x0A324655 and m1 == 0x9E5D5157:
            yield addr, data[off + 32 : off + 32 + size]


def circuitpython_version(uf2_path):
    """(major, minor, patch) of the CircuitPython in a UF2, from its banner string."""
    with open(uf2_path, "rb") as f:
        data = f.read()
    blocks = sorted(uf2_blocks(data))
    if not blocks:
        raise SystemExit("%s: not a UF2 file" % uf2_path)
    image = b"".join(p for _a, p in blocks)
    m = re.search(rb"Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)", image)
    if not m:
        raise SystemExit("%s: no 'Adafruit CircuitPython X.Y.Z' banner found: not CircuitPython?" % uf2_path)
    if blocks[-1][0] >= FLASH_BASE + FS_OFFSET:
        raise SystemExit(
            "%s reaches into the filesystem at 0x%x: give the plain firmware UF2" % (uf2_path, FS_OFFSET)
        )
    return tuple(int(x) for x in m.groups())


def make_uf2(circuitpython_uf2, out, py_only=False, mpy_cross=None, tree=None, quiet=False,
             size=None, deal=None, memtrace=False, bare=False):
    version = circuitpython_version(circuitpython_uf2)
    cp = version[0]
    if cp not in CP_VERSIONS:
        raise SystemExit(
            "CircuitPython %d.%d.%d is not a supported target (%s)"
            % (version + (CP_VERSIONS,))
        )
    if not quiet:
        print("firmware: CircuitPython %d.%d.%d" % version)
    tree = tree or os.path.join(ROOT, "build", "CIRCUITPY")
    if bare:
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        with open(os.path.join(tree, "code.py"), "w") as f:
            f.write(BARE_CODE)
    else:
        settings, extra = test_settings(size, deal, memtrace)
        try:
            build(
                cp, tree, py_only=py_only, mpy_cross=mpy_cross, quiet=quiet,
                extra_files=extra, settings=settings,
            )
        except BuildError as e:
            raise SystemExit("build: %s" % e) from e
    lay_uf2(circuitpython_uf2, tree, out, quiet)
    if not quiet:
        print("wrote %s (boot it with the Wokwi CLI or: make emulate)" % os.path.relpath(out, ROOT))
    return version


def lay_uf2(circuitpython_uf2, tree, out, quiet=False):
    """One UF2: the firmware, then ``tree`` as the FAT filesystem at flash offset 0x100000."""
    if os.path.exists(out) and not os.stat(out).st_mode & 0o222:  # the saves' rule: root too
        raise SystemExit("%s is read-only: left alone" % out)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    folder2uf2 = os.path.join(os.path.dirname(sys.executable), "folder2uf2")
    cmd = [
        folder2uf2 if os.path.exists(folder2uf2) else "folder2uf2",
        "--board",
        PICO_BOARD,
        "--flash-offset",
        hex(FS_OFFSET),
        "--combine",
        circuitpython_uf2,
        "--no-extra-files",
        "--volume-id",
        "0x53554c54",
        "-o",
        out,
        tree,
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL if quiet else None)


def diagram_circuitpython(diagram=None):
    """(major, 'X.Y.Z') of the CircuitPython the diagram's Pico runs on wokwi.com ("env")."""
    import json

    with open(diagram or os.path.join(ROOT, "diagram.json")) as f:
        parts = json.load(f)["parts"]
    env = next(p.get("attrs", {}).get("env", "") for p in parts if p["type"] == "wokwi-pi-pico")
    m = re.fullmatch(r"circuitpython-((\d+)\.\d+\.\d+)", env)
    if not m:
        raise SystemExit("diagram.json: the Pico's env %r names no CircuitPython version" % env)
    return int(m.group(2)), m.group(1)


def make_web(out, quiet=False):
    """The wokwi.com project folder; returns {file in it: where it came from}."""
    cp, version = diagram_circuitpython()
    if cp not in CP_VERSIONS:
        raise SystemExit("diagram.json runs CircuitPython %s: not a supported target" % version)
    try:
        board_libraries(cp)  # none: a library would have to ship beside code.py (wokwi.com's come first)
    except BuildError as e:
        raise SystemExit("wokwi-web: %s" % e) from e
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    files = {}

    def put(rel, src):
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        files[rel.replace(os.sep, "/")] = src

    put("diagram.json", os.path.join(ROOT, "diagram.json"))
    for fn in ("code.py", "launch.py", "profile_pico_ili9341.py"):
        put(fn, os.path.join(FIRMWARE, fn))
    for src, _rel in package_files():  # lib/sultan/... as sultan/... at the top level
        put(os.path.relpath(src, LIB), src)
    if not quiet:
        print(
            "wrote %s (%d files for CircuitPython %s): upload them to a wokwi.com "
            "Raspberry Pi Pico CircuitPython project" % (os.path.relpath(out, ROOT), len(files), version)
        )
    return files


def main(argv=None):
    ap = ArgParser(prog="wokwi_image", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=ArgParser)
    u = sub.add_parser("uf2", help="CircuitPython UF2 + our CIRCUITPY as one UF2")
    u.add_argument("--circuitpython", required=True, help="the Pico's CircuitPython .uf2")
    u.add_argument("--out", default=os.path.join(ROOT, "build", "wokwi", "sultan.uf2"))
    u.add_argument("--tree", default=None, help="where the CIRCUITPY tree is built (build/CIRCUITPY)")
    u.add_argument("--py-only", action="store_true")
    u.add_argument("--mpy-cross", default=os.environ.get("MPY_CROSS") or None)
    u.add_argument("--size", default=None, help="test: drive the ILI9341 as a WxH window (160x128)")
    u.add_argument("--deal", default=None, help="test: start this deal (when no save is loaded)")
    u.add_argument("--memtrace", action="store_true", help="test: print gc.mem_free() after each stage")
    u.add_argument("--bare", action="store_true", help="a bare code.py instead of the game")
    u.add_argument("--quiet", action="store_true")
    w = sub.add_parser("web", help="a folder for a wokwi.com project")
    w.add_argument("--out", default=os.path.join(ROOT, "build", "wokwi-web"))
    args = ap.parse_args(argv)
    check_checkout(ap)
    if not args.out:
        ap.error("--out: empty path")
    if args.cmd == "web":
        earlier = os.path.isdir(args.out) and (
            not os.listdir(args.out) or os.path.isfile(os.path.join(args.out, "code.py"))
        )
        if os.path.lexists(args.out) and not earlier:
            ap.error("--out %.200s: not an earlier wokwi-web folder; it would be replaced" % args.out)
        make_web(args.out)
        return 0
    size = deal = None
    try:
        if args.size is not None:
            size = parse_size(args.size)
    except ValueError as e:
        ap.error("--size %.20s: %s" % (args.size, e))
    try:
        if args.deal is not None:
            deal = parse_deal(args.deal)
    except ValueError as e:
        ap.error("--deal %.20s: %s" % (args.deal, e))
    if os.path.isdir(args.out):
        ap.error("--out %.200s: a directory, want the .uf2 to write" % args.out)
    check_mpy_cross(ap, args.mpy_cross)
    if args.tree is not None:
        check_out(ap, args.tree)
    if not os.path.isfile(args.circuitpython):
        ap.error("--circuitpython %.200s: no such file" % args.circuitpython)
    try:
        circuitpython_version(args.circuitpython)
    except SystemExit as e:
        ap.error("--circuitpython %s" % e)
    make_uf2(
        args.circuitpython, args.out, args.py_only, args.mpy_cross, tree=args.tree, quiet=args.quiet,
        size=size, deal=deal, memtrace=args.memtrace, bare=args.bare,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
