"""The Adafruit libraries on the board: none today, and a check that it stays so.

The text is the game's own glyph tiles (adafruit_display_text, displayio_layout
and what they required -- bitmap_font, imageload, display_shapes, ticks -- are no longer on the
device), and the Pico profile drives its ILI9341 with its own few commands (adafruit_ili9341 was
1.5.2 for CircuitPython 8, 2.0.4 for 9+).  The build used to download each pinned library's PyPI
wheel and its requirements (``pip download``) and unpack them into lib/; with nothing pinned that
path never ran, and it went.  What stays: the pins (none per major; the manifest's
``libraries``), the check that the device sources import no library the build does not ship,
and ``wheel_sources``, which the emulator test uses to put today's bundle libraries beside a
wokwi.com export.
"""

import ast
import re
import zipfile

from sultan_host.board.sources import BuildError, device_sources

# {CircuitPython major: {PyPI name: version}} of the libraries the board gets: none.
PINS: "dict[int, dict[str, str]]" = {8: {}, 9: {}}
PINS[10] = PINS[9]
# Requirements that exist for CPython (Blinka) or for type checkers only: never on the device.
HOST_ONLY = re.compile(
    r"^(adafruit-blinka.*|adafruit-circuitpython-typing|adafruit-platformdetect|typing.extensions)$"
)


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


def board_libraries(cp):
    """{name: version} of the libraries for CircuitPython ``cp`` (none); BuildError if the device
    sources import one the build does not ship."""
    missing = device_libraries()
    if missing:
        raise BuildError("%s is imported by the device code, but the build ships no libraries "
                         "(the board has none: see sultan_host.board.libraries)" % ", ".join(missing))
    return dict(PINS[cp])


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
