"""Each part owns its state: read from the sources' syntax trees.

Over every module of ``lib/`` and ``firmware/``:

- no module reads a private name (``_x``) of another object: only of ``self``, ``cls`` or a
  module (``screen._tiles``, ``ctrl._refused`` are reaches; ``self._menu()``, ``sultan._clock``
  are not);
- no module assigns (or deletes) an attribute of an object other than ``self``: a part asks
  another through its methods (``ctrl.mode = ...`` from the menu, ``screen.flyer = f`` from
  motion are reaches).  The platform's objects are the exception: displayio's TileGrids and
  the display, digitalio's pins have properties for an API (``tg.hidden = True``), in the few
  modules that drive them (``PLATFORM``).

On the host (``host/`` and ``tools/``) no module reaches a library's private parts -- a private
module imported, another object's private name read or written, a library class's private method
overridden or its private field used by a subclass -- outside its one adapter module (``ADAPTERS``),
which has a test of its own that fails the day the library changes under it.

``python host_tests/house/test_reaches.py`` prints every reach found and their count.
"""

import ast
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # the repository
TOPS = (os.path.join(ROOT, "lib"), os.path.join(ROOT, "firmware"))

# Properties of the platform's objects (displayio, digitalio) written where they are driven:
# {module path under its top: {attribute}}.  Our own objects' fields are never here.
PLATFORM = {
    "sultan/ui/widgets.py": {"x", "y", "hidden"},  # place(): shows, hides and moves a TileGrid
    "sultan/ui/build.py": {"x", "hidden", "root_group"},  # parked(); the display's root Group
    "sultan/ui/screen.py": {"hidden"},  # a new sprite, hidden
    "sultan/ui/motion.py": {"hidden"},  # the flyer hidden at a slide's end
    "sultan/ui/cascade.py": {"x", "y", "hidden"},  # the trail's copies, a frame each (no tuple made)
    "sultan/starting.py": {"auto_refresh"},  # the display's
    "sultan/app.py": {"brightness"},  # the display's backlight, dimmed while no key comes
    "sultan/ui/sound.py": {"direction", "value"},  # digitalio: the NeoPixel pin, the speaker's enable
}


def modules():
    """(path under its top, absolute path) of every .py file of lib/ and firmware/."""
    for top in TOPS:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fn in sorted(filenames):
                if fn.endswith(".py"):
                    path = os.path.join(dirpath, fn)
                    yield os.path.relpath(path, top).replace(os.sep, "/"), path


def private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_names(tree):
    """The names a module binds by ``import`` (modules; ``from a import b`` may be one too: b's
    name counts when it is lower case, as modules are named here and classes are not)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.add((a.asname or a.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                name = a.asname or a.name
                if name[:1].islower():
                    out.add(name)
    return out


def root(node):
    """The Name an attribute chain starts from (``a`` of ``a.b.c``), or None."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def reaches(rel, text):
    """[(line, what)] of the module's reaches into other objects."""
    tree = ast.parse(text)
    mods = module_names(tree)
    allowed = PLATFORM.get(rel, set())
    # Base._method(self, ...): a class's own method, as its base class has it
    base_calls = {id(n.func) for n in ast.walk(tree)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and isinstance(n.func.value, ast.Name) and n.func.value.id[:1].isupper()
                  and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "self"}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            obj = node.value
            own = isinstance(obj, ast.Name) and (obj.id in ("self", "cls") or id(node) in base_calls)
            is_module = isinstance(obj, (ast.Name, ast.Attribute)) and root(obj) in mods and (
                isinstance(obj, ast.Name) or root(obj) == "sultan")
            where = ast.unparse(node)
            if isinstance(node.ctx, ast.Load):
                if private(node.attr) and not own and not is_module:
                    out.append((node.lineno, "reads " + where))
            elif not (isinstance(obj, ast.Name) and obj.id == "self") and node.attr not in allowed:
                verb = "deletes " if isinstance(node.ctx, ast.Del) else "assigns "
                out.append((node.lineno, verb + where))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id in ("setattr", "delattr"):
                target = node.args[0]
                if not (isinstance(target, ast.Name) and target.id == "self"):
                    out.append((node.lineno, node.func.id + " on " + ast.unparse(target)))
    return sorted(out)


# sultan.forget drops a lazily imported module from its package (a module object, found in
# sys.modules): the one attribute deleted from outside, by design.
# memtrace (the emulator image's heap trace, never on a player's board) wraps the import
# statement to weigh each import.
DELIBERATE = {("sultan/__init__.py", "delattr on parent"), ("memtrace.py", "assigns builtins.__import__")}


def found():
    out = []
    for rel, path in modules():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, what in reaches(rel, text):
            if (rel, what) not in DELIBERATE:
                out.append("%s:%d: %s" % (rel, line, what))
    return out


def test_no_module_reaches_into_another_objects_state():
    assert {"sultan/app.py", "code.py"} <= {rel for rel, _path in modules()}  # the walk sees the device code
    bad = found()
    assert not bad, "%d reaches:\n" % len(bad) + "\n".join(bad)


def test_the_check_sees_a_reach():
    """The walker itself: each kind of reach is found, and what is allowed is not."""
    text = (
        "import sultan.ui.sound\n"
        "from sultan.ui import words\n"
        "class A:\n"
        "    def f(self, screen, ctrl):\n"
        "        self._own = screen._tiles\n"  # a private read
        "        ctrl.mode = 1\n"  # a field written
        "        ctrl.n += 1\n"
        "        del screen.flyer\n"
        "        setattr(screen, 'flyer', 1)\n"
        "        words._cache, sultan.ui.sound._x, self._y, Base._start(self)\n"  # allowed
        "        screen.hidden = True\n"  # a platform property, but not in this module
    )
    got = [what for _line, what in reaches("sultan/x.py", text)]
    assert got == ["reads screen._tiles", "assigns ctrl.mode", "assigns ctrl.n", "deletes screen.flyer",
                   "setattr on screen", "assigns screen.hidden"]
    assert reaches("sultan/ui/widgets.py", "def place(obj):\n    obj.hidden = True\n") == []


# ------------------------------------------------------------------ the host
HOST_TOPS = ("host", "tools")
OURS = ("sultan", "sultan_host", "samd51", "host_shim")  # ours: their private names are ours to share
# The one module a library's private parts may be used in: {path: the library}.
ADAPTERS = {"host/sultan_host/desktop/blinka_adapter.py": "adafruit-blinka-displayio"}
# Private by name only: documented API (os._exit: exit without cleanup, in a child or a signal handler).
DOCUMENTED = {"_exit"}
# {(path, what is reached)}, read or written.
HOST_DELIBERATE = {
    # the C module signal wraps: importing signal costs enum's import before the early handler is set
    ("host/sultan_host/stop.py", "_signal"),
    # Unicorn's handle and its binding's slot for a callback's error: the SAMD51 machine's, left to its rework
    ("host/samd51/bus.py", "uc._uch"),
    ("host/samd51/bus.py", "uc._hook_exception"),
    ("host/samd51/native.py", "uc._uch"),
}


def host_reaches(text):
    """[(line, what)] of a host module's reaches into a library's private parts."""
    tree = ast.parse(text)
    origin = {}  # a name bound by an import -> whether it is ours
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                origin[(a.asname or a.name).split(".")[0]] = a.name.split(".")[0] in OURS
                if any(private(p) for p in a.name.split(".")):
                    out.append((node.lineno, "imports " + a.name))
        elif isinstance(node, ast.ImportFrom):
            mine = node.level > 0 or (node.module or "").split(".")[0] in OURS
            for a in node.names:
                origin[a.asname or a.name] = mine
                if private(a.name) and not mine:
                    out.append((node.lineno, "imports %s.%s" % (node.module, a.name)))
            if not mine and any(private(p) for p in node.module.split(".")):
                out.append((node.lineno, "imports " + node.module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in DOCUMENTED:
            obj = node.value
            if not (isinstance(obj, ast.Name) and (obj.id in ("self", "cls") or origin.get(obj.id))):
                verb = "reads " if isinstance(node.ctx, ast.Load) else "writes "
                out.append((node.lineno, verb + ast.unparse(node)))
        elif isinstance(node, ast.ClassDef) and any(origin.get(root(b), True) is False for b in node.bases):
            out += _subclass_reaches(node)
    return sorted(set(out))


def _subclass_reaches(cls):
    """A library class's subclass: the private methods it overrides, its base's private fields it uses."""
    own = {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for n in ast.walk(cls):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
            n, (ast.AugAssign, ast.AnnAssign)) else []
        own |= {t.attr for t in targets if isinstance(t, ast.Attribute) and root(t) == "self"}
    out = [(f.lineno, "overrides %s.%s" % (cls.name, f.name)) for f in cls.body
           if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(f.name)]
    for n in ast.walk(cls):
        if (isinstance(n, ast.Attribute) and private(n.attr) and isinstance(n.value, ast.Name)
                and n.value.id == "self" and n.attr not in own):
            out.append((n.lineno, "uses %s's self.%s" % (cls.name, n.attr)))
    return out


def host_found():
    """["path:line: what"] of the host's reaches, and the adapters (none of theirs are counted)."""
    out = []
    for top in HOST_TOPS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "node_modules"))
            for fn in sorted(filenames):
                if fn.endswith(".py"):
                    path = os.path.join(dirpath, fn)
                    rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                    if rel in ADAPTERS:
                        continue
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                    out += ["%s:%d: %s" % (rel, line, what) for line, what in host_reaches(text)
                            if (rel, what.split(" ")[-1]) not in HOST_DELIBERATE]
    return out


def test_no_host_module_reaches_a_librarys_private_parts_outside_its_adapter():
    bad = host_found()
    assert not bad, "%d reaches (a library's private parts go in its adapter):\n" % len(bad) + "\n".join(bad)


def test_each_adapter_reaches_its_library_and_has_a_test():
    """An adapter still holds the private reaches (else it is no longer needed), and a test imports it."""
    tests = os.path.join(ROOT, "host_tests")
    for rel in ADAPTERS:
        path = os.path.join(ROOT, rel)
        assert host_reaches(open(path, encoding="utf-8").read()), rel
        module = rel[len("host/"):-3].replace("/", ".")
        users = [fn for dirpath, _d, files in os.walk(tests) for fn in files
                 if fn.startswith("test_") and fn.endswith(".py")
                 and "from %s import" % module in open(os.path.join(dirpath, fn), encoding="utf-8").read()]
        assert users, "no test imports " + module


def test_the_host_check_sees_a_reach():
    text = (
        "import _signal\n"
        "import os\n"
        "from displayio._area import Area\n"
        "from busdisplay import BusDisplay\n"
        "from sultan import forget\n"
        "from .periph import Peripheral\n"
        "class D(BusDisplay):\n"
        "    def _refresh_area(self, area):\n"  # a library's private method overridden
        "        self._mine = 1\n"
        "        return self._core, self._mine\n"  # its private field used
        "class P(Peripheral):\n"
        "    def _bits(self):\n"  # our own base: allowed
        "        return self._base\n"
        "def f(bmp, layer):\n"
        "    layer._needs_refresh = False\n"
        "    os._exit(bmp._stride)\n"  # os._exit is documented
    )
    got = [what for _line, what in host_reaches(text)]
    assert got == ["imports _signal", "imports displayio._area", "overrides D._refresh_area",
                   "uses D's self._core", "writes layer._needs_refresh", "reads bmp._stride"]


if __name__ == "__main__":
    print("\n".join(host_found()))
    bad = found()
    print("\n".join(bad))
    print("%d reaches" % len(bad))
    sys.exit(1 if bad else 0)
