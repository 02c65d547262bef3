#!/usr/bin/env python3
"""Wokwi images of the game for the Raspberry Pi Pico (ILI9341 + 74HC165, see diagram.json).

    python tools/wokwi_image.py uf2 --circuitpython CP.uf2 [--out build/wokwi/sultan.uf2]
    python tools/wokwi_image.py web [--out build/wokwi-web]

``uf2``: reads the CircuitPython version out of the given Pico UF2, builds build/CIRCUITPY for
that major (tools/build_circuitpy.py), and lays it as a FAT filesystem at flash offset 0x100000
after the firmware with PyPI ``folder2uf2 --board raspberry_pi_pico --combine`` -- one UF2, the file
wokwi.toml names, that both the Wokwi CLI and tools/emulate boot.

``web``: a folder for a wokwi.com CircuitPython project: diagram.json, code.py, the Pico profile,
our package as .py, and a requirements.txt naming the Adafruit libraries (Wokwi installs those
from the CircuitPython bundle into /lib).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_circuitpy  # noqa: E402

ROOT = build_circuitpy.ROOT
FLASH_BASE = 0x10000000
FS_OFFSET = 0x100000  # the Pico's CIRCUITPY starts 1 MB into flash
PICO_BOARD = "raspberry_pi_pico"
# Adafruit bundle names of the libraries the Pico build imports (for wokwi.com's requirements.txt)
BUNDLE_NAMES = ("adafruit_display_text", "adafruit_displayio_layout", "adafruit_ili9341")


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


def make_uf2(circuitpython_uf2, out, py_only=False, mpy_cross=None, tree=None, quiet=False):
    version = circuitpython_version(circuitpython_uf2)
    cp = version[0]
    if cp not in build_circuitpy.CP_VERSIONS:
        raise SystemExit(
            "CircuitPython %d.%d.%d is not a supported target (%s)"
            % (version + (build_circuitpy.CP_VERSIONS,))
        )
    print("firmware: CircuitPython %d.%d.%d" % version)
    tree = tree or os.path.join(ROOT, "build", "CIRCUITPY")
    try:
        build_circuitpy.build(cp, tree, py_only=py_only, mpy_cross=mpy_cross, quiet=quiet)
    except build_circuitpy.BuildError as e:
        raise SystemExit("build: %s" % e) from e
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
    print("wrote %s (boot it with the Wokwi CLI or: make emulate)" % os.path.relpath(out, ROOT))


def make_web(out):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    shutil.copy(os.path.join(ROOT, "diagram.json"), out)
    fw = os.path.join(ROOT, "firmware")
    shutil.copy(os.path.join(fw, "code.py"), out)
    shutil.copy(os.path.join(fw, "profile_pico_ili9341.py"), out)
    shutil.copytree(
        os.path.join(ROOT, "lib", "sultan"),
        os.path.join(out, "sultan"),
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    with open(os.path.join(out, "requirements.txt"), "w") as f:
        f.write("# Adafruit CircuitPython bundle libraries; Wokwi installs them into /lib\n")
        f.write("\n".join(BUNDLE_NAMES) + "\n")
    print(
        "wrote %s: upload its files to a wokwi.com Raspberry Pi Pico CircuitPython project"
        % os.path.relpath(out, ROOT)
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("uf2", help="CircuitPython UF2 + our CIRCUITPY as one UF2")
    u.add_argument("--circuitpython", required=True, help="the Pico's CircuitPython .uf2")
    u.add_argument("--out", default=os.path.join(ROOT, "build", "wokwi", "sultan.uf2"))
    u.add_argument("--py-only", action="store_true")
    u.add_argument("--mpy-cross", default=os.environ.get("MPY_CROSS") or None)
    w = sub.add_parser("web", help="a folder for a wokwi.com project")
    w.add_argument("--out", default=os.path.join(ROOT, "build", "wokwi-web"))
    args = ap.parse_args(argv)
    if args.cmd == "uf2":
        make_uf2(args.circuitpython, args.out, args.py_only, args.mpy_cross)
    else:
        make_web(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
