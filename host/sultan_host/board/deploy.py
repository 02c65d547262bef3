"""Copy build/CIRCUITPY onto a mounted CIRCUITPY drive, writing only what changed.

    python tools/deploy_circuitpy.py [--to MOUNTPOINT] [--from build/CIRCUITPY] [--dry-run] [--force]

(``python -m sultan_host.board.deploy`` the same.)

Without --to the drive is found by its volume name, CIRCUITPY (findmnt on Linux, /Volumes on
macOS, the drive letters on Windows).  A file is written only when its bytes differ.  A stale
twin is removed: engine.py left on the drive would shadow a new engine.mpy (CircuitPython tries
.py first), and the reverse after a PY_ONLY build.  A build for another CircuitPython than the one
in the drive's boot_out.txt is refused (8 reads .mpy v5, 9 and 10 read v6).  code.py is written
last, so the auto-reload it triggers finds the libraries already in place.  Other files on the
drive are left alone.

Only a board's drive is written: a folder whose boot_out.txt CircuitPython wrote, or one this tool
deployed to before (its marker, ``.sultan-deploy.json``, holds the hash of the code.py it wrote).
A code.py it did not write (another program, or one edited since) is replaced only with --force,
and then kept beside it as code.py.bak (code.py.bak2 ... if that is taken).

The drive's settings.toml is the user's (it may hold their Wi-Fi credentials): never written.  A test
build (``make wokwi DEAL=5``, ``make emulate SIZE=...``: its manifest lists settings) is refused
whole, so its settings never reach a drive.  A file the drive marks read-only is never replaced (by
its mode, as the saves' rule: root too).
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from sultan_host.board.cli import ArgParser
from sultan_host.board.sources import DEFAULT_OUT

LABEL = "CIRCUITPY"
MARKER = ".sultan-deploy.json"  # on the drive: what this tool wrote there
SETTINGS = "settings.toml"
BOOT_OUT = re.compile(r"Adafruit CircuitPython \d+\.\d+")  # how boot_out.txt begins on every board


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
            if rel == SETTINGS:
                continue  # the user's: never ours to write
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


def is_board(dst):
    """True if CircuitPython wrote ``dst``'s boot_out.txt (its first line says so)."""
    try:
        with open(os.path.join(dst, "boot_out.txt"), "rb") as f:
            head = f.read(200).decode("utf-8", "replace")
    except OSError:
        return False
    return BOOT_OUT.match(head) is not None


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def marker(dst):
    """What this tool wrote on ``dst`` the last time (``{"code.py": sha256}``), or None if never."""
    try:
        with open(os.path.join(dst, MARKER)) as f:
            mark = json.load(f)
    except (OSError, ValueError):
        return None
    return mark if isinstance(mark, dict) else None


def refusal(dst, writes, force=False):
    """Why ``dst`` must not be written, or None: not a board's drive nor one deployed to before, or
    (unless ``force``) a code.py there that this tool did not write."""
    mark = marker(dst)
    if mark is None and not is_board(dst):
        return ("%s is not a CircuitPython drive (no boot_out.txt from CircuitPython) and was never deployed "
                "to: nothing written" % dst)
    code = os.path.join(dst, "code.py")
    ours = digest(code) == (mark or {}).get("code.py") if os.path.isfile(code) else True
    if "code.py" in writes and not (ours or force):
        return ("%s holds a code.py this tool did not write: nothing written (--force replaces it, keeping a "
                "copy as code.py.bak; make deploy FORCE=1)" % dst)
    return None


def backup(dst, say=print, dry_run=False):
    """Copy the drive's foreign code.py to the first free code.py.bak, code.py.bak2 ...; its name."""
    n = 1
    while True:
        name = "code.py.bak" + ("" if n == 1 else str(n))
        if not os.path.lexists(os.path.join(dst, name)):
            break
        n += 1
    say("keep   code.py as %s" % name)
    if not dry_run:
        shutil.copyfile(os.path.join(dst, "code.py"), os.path.join(dst, name))
    return name


def build_manifest(src):
    """The manifest of the build in ``src`` (``sultan_host.board.tree.manifest``), or {}."""
    try:
        with open(src.rstrip("/\\") + ".json") as f:
            mark = json.load(f)
    except (OSError, ValueError):
        return {}
    return mark if isinstance(mark, dict) else {}


def build_target(src):
    """The CircuitPython major the build in ``src`` was made for (its manifest), or None."""
    return build_manifest(src).get("circuitpython")


def test_build(src):
    """Why the build in ``src`` is no player's (the emulator's test settings in it), or None."""
    settings = build_manifest(src).get("settings") or {}
    if not settings:
        return None
    return ("%s is a test build (%s): make build, then deploy (a drive's settings.toml is never written)"
            % (src, ", ".join("%s=%s" % kv for kv in sorted(settings.items()))))


def read_only(dst, writes, removals):
    """The first file on ``dst`` to be replaced or removed whose mode says read-only, or None."""
    for rel in list(writes) + list(removals):
        try:
            mode = os.stat(os.path.join(dst, rel)).st_mode
        except OSError:
            continue
        if not mode & 0o222:
            return rel
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


def deploy(src, dst, dry_run=False, say=print, force=False):
    """Write what changed from ``src`` onto ``dst`` (see ``refusal``: ValueError if it must not)."""
    why = test_build(src)
    if why:
        raise ValueError(why)
    writes, removals = plan(src, dst)
    why = refusal(dst, writes, force)
    if why:
        raise ValueError(why)
    ro = read_only(dst, writes, removals)
    if ro:
        raise ValueError("%s is read-only on %s: nothing written" % (ro, dst))
    code = os.path.join(dst, "code.py")
    mark = marker(dst) or {}
    if "code.py" in writes and os.path.isfile(code) and digest(code) != mark.get("code.py"):
        backup(dst, say, dry_run)  # --force: the code.py we did not write is kept
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
    if not dry_run:
        with open(os.path.join(dst, MARKER), "w") as f:
            json.dump({"code.py": digest(code)}, f)
    if not dry_run and hasattr(os, "sync"):
        os.sync()
    say("%s: %d written, %d removed, the rest unchanged" % (dst, len(writes), len(removals)))
    return writes, removals


def main(argv=None):
    ap = ArgParser(prog="deploy", description=__doc__.split("\n\n")[0])
    ap.add_argument("--to", default=os.environ.get("CIRCUITPY") or None, help="the drive's mount point")
    ap.add_argument("--from", dest="src", default=DEFAULT_OUT)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--force", action="store_true",
                    help="replace a code.py this tool did not write (kept as code.py.bak)")
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
    try:
        deploy(args.src, dst, args.dry_run, force=args.force)
    except ValueError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
