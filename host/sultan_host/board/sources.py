"""What goes onto the board: where the checkout's device sources are, which of them, and the names
their modules are imported by.

The build needs a checkout (firmware/ is in no wheel): the one this package lies in
(host/sultan_host/board/), unless ``SULTAN_CHECKOUT`` names another when the package is first
imported.  The tools/ scripts set it to their own checkout, so that a copy of the project (a fresh
clone using another clone's .venv) builds its own sources into its own build/.
"""

import os

ROOT = os.environ.get("SULTAN_CHECKOUT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)
FIRMWARE = os.path.join(ROOT, "firmware")
LIB = os.path.join(ROOT, "lib")
# The lib/sultan modules the board never imports (the build leaves them out): the RAM region, a
# save's store for the host's tests and tools.
HOST_ONLY_MODULES = ("sultan.saves.memory",)
HOST_ONLY_FILES = tuple(os.path.join(*m.split(".")) + ".py" for m in HOST_ONLY_MODULES)  # under lib/
DEFAULT_OUT = os.path.join(ROOT, "build", "CIRCUITPY")


class BuildError(Exception):
    pass


def device_sources():
    """Paths of the .py files that go onto the device: firmware/ and lib/sultan/."""
    if not os.path.isdir(FIRMWARE):
        raise BuildError("no %s: the board build runs from a checkout of the project" % FIRMWARE)
    out = [os.path.join(FIRMWARE, f) for f in sorted(os.listdir(FIRMWARE)) if f.endswith(".py")]
    return out + [path for path, rel in package_files() if rel.endswith(".py")]


def package_files():
    """[(path, path relative to ROOT)] of the files of lib/sultan that go onto the device, in the
    build's order (folders sorted, host-only files and bytecode left out)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(LIB, "sultan")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            path = os.path.join(dirpath, fn)
            if os.path.relpath(path, LIB) not in HOST_ONLY_FILES and not fn.endswith((".pyc", ".mpy")):
                out.append((path, os.path.relpath(path, ROOT)))
    return out


def source_module(path):
    """The dotted module name of a device source: lib/sultan/ui/screen.py is sultan.ui.screen,
    firmware/launch.py (or any other folder's) launch."""
    rel = os.path.relpath(path, LIB) if path.startswith(LIB + os.sep) else os.path.basename(path)
    name = rel[:-3].replace(os.sep, ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


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
