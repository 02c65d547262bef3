"""Copy build/CIRCUITPY onto a mounted CIRCUITPY drive, writing only what changed.

    python tools/deploy_circuitpy.py [--to MOUNTPOINT] [--from build/CIRCUITPY] [--dry-run]

(``python -m sultan_host.board.deploy`` the same.)

Without --to the drive is found by its volume name, CIRCUITPY (findmnt on Linux, /Volumes on
macOS, the drive letters on Windows).  A file is written only when its bytes differ.  A stale
twin is removed: engine.py left on the drive would shadow a new engine.mpy (CircuitPython tries
.py first), and the reverse after a PY_ONLY build.  A build for another CircuitPython than the one
in the drive's boot_out.txt is refused (8 reads .mpy v5, 9 and 10 read v6).  code.py is written
last, so the auto-reload it triggers finds the libraries already in place.  Other files on the
drive are left alone.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

from sultan_host.board.cli import ArgParser
from sultan_host.board.sources import DEFAULT_OUT

LABEL = "CIRCUITPY"


def find_drives(label=LABEL):
    """Mount points of volumes named ``label``."""
    found = []
    if sys.platform.startswith("win"):
        import ctypes
        import string

        for letter in string.ascii_uppercase:
            root = letter + ":\\"
            name = ctypes.create_unicode_buffer(261)
            if ctypes.windll.kernel32.GetVolumeInformationW(root, name, 261, None, None, None, None, 0):
                if name.value == label:
                    found.append(root)
        return found
    try:
        out = subprocess.run(["findmnt", "-rn", "-o", "TARGET,LABEL"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split(" ")
            if len(parts) == 2 and parts[1] == label:
                found.append(parts[0].replace("\\x20", " "))
    except OSError:
        pass
    for pattern in ("/Volumes/" + label, "/media/*/" + label, "/run/media/*/" + label, "/media/" + label):
        found.extend(p for p in glob.glob(pattern) if os.path.isdir(p))
    return sorted(set(found))


def plan(src, dst):
    """(writes, removals): relative paths to copy from src, and stale twins to delete on dst."""
    writes = []
    removals = []
    for dirpath, _dirs, files in os.walk(src):
        for fn in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, fn), src)
            target = os.path.join(dst, rel)
            with open(os.path.join(src, rel), "rb") as f:
                data = f.read()
            same = False
            if os.path.isfile(target) and os.path.getsize(target) == len(data):
                with open(target, "rb") as f:
                    same = f.read() == data
            if not same:
                writes.append(rel)
            stem, ext = os.path.splitext(rel)
            twin = {".py": ".mpy", ".mpy": ".py"}.get(ext)
            if twin and rel != "code.py" and os.path.exists(os.path.join(dst, stem + twin)):
                removals.append(stem + twin)
    writes.sort(key=lambda r: (r == "code.py", r))  # code.py last
    return writes, sorted(removals)


def drive_version(dst):
    """(major, minor, patch) of the CircuitPython that wrote the drive's boot_out.txt, or None."""
    try:
        with open(os.path.join(dst, "boot_out.txt"), encoding="utf-8", errors="replace") as f:
            head = f.read(200)
    except OSError:
        return None
    m = re.search(r"CircuitPython (\d+)\.(\d+)\.(\d+)", head)
    return tuple(int(x) for x in m.groups()) if m else None


def build_target(src):
    """The CircuitPython major the build in ``src`` was made for (its manifest), or None."""
    try:
        with open(src.rstrip("/\\") + ".json") as f:
            return json.load(f).get("circuitpython")
    except (OSError, ValueError):
        return None


def mismatch(src, dst):
    """Why the build in ``src`` does not fit the board behind ``dst``, or None."""
    version = drive_version(dst)
    target = build_target(src)
    if version is None or target is None or version[0] == target:
        return None
    if version[0] >= 9 and target >= 9:  # 9 and 10 read the same .mpy version
        return None
    return "the drive runs CircuitPython %d.%d.%d but the build is for %d: make deploy CP=%d" % (
        version + (target, version[0]))


def deploy(src, dst, dry_run=False, say=print):
    writes, removals = plan(src, dst)
    for rel in removals:
        say("remove %s" % rel)
        if not dry_run:
            os.remove(os.path.join(dst, rel))
    for rel in writes:
        say("write  %s" % rel)
        if not dry_run:
            target = os.path.join(dst, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(src, rel), target)
    if not dry_run and hasattr(os, "sync"):
        os.sync()
    say("%s: %d written, %d removed, the rest unchanged" % (dst, len(writes), len(removals)))
    return writes, removals


def main(argv=None):
    ap = ArgParser(prog="deploy", description=__doc__.split("\n\n")[0])
    ap.add_argument("--to", default=os.environ.get("CIRCUITPY") or None, help="the drive's mount point")
    ap.add_argument("--from", dest="src", default=DEFAULT_OUT)
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args(argv)
    if not args.src or not os.path.isdir(args.src) and os.path.lexists(args.src):
        ap.error("--from %.200s: not a directory" % args.src)
    if args.to is not None and not os.path.isdir(args.to):
        ap.error("--to %.200s: not a directory" % args.to)
    if not os.path.isfile(os.path.join(args.src, "code.py")):
        print("deploy: %s has no code.py: run make build first" % args.src, file=sys.stderr)
        return 1
    dst = args.to
    if dst is None:
        drives = find_drives()
        if len(drives) != 1:
            print(
                "deploy: %s; name it: make deploy CIRCUITPY=/path/to/CIRCUITPY"
                % (
                    "no drive named CIRCUITPY is mounted"
                    if not drives
                    else "several CIRCUITPY drives: " + ", ".join(drives)
                ),
                file=sys.stderr,
            )
            return 1
        dst = drives[0]
    if not os.path.isdir(dst):
        print("deploy: %s is not a directory" % dst, file=sys.stderr)
        return 1
    why = mismatch(args.src, dst)
    if why:
        print("deploy: " + why, file=sys.stderr)
        return 1
    deploy(args.src, dst, args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
