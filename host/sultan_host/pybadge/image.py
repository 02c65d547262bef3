"""The badges' firmware and their CIRCUITPY: ``make build CP=<the image's major>``'s tree, with the emulator's
test options in settings.toml (the Pico image's, sultan_host.board.wokwi.test_settings), laid into the flash.

The firmware is never in git: PYBADGE_UF2= / PYGAMER_UF2=..., else the UF2 of the asked CircuitPython major
in vendor-local/<board>/ (.ci/run links ../shared/firmware/<board> there) or, in a fresh clone, in
../shared/firmware/<board>/ itself: the newest by version number (never by how names sort: "9.1.1" > "10.2.1"
as text).
"""

import glob
import os
import re

from sultan_host.board.sources import ROOT

BOARDS = ("pybadge", "pygamer")
ENV = {"pybadge": "PYBADGE_UF2", "pygamer": "PYGAMER_UF2"}
VENDOR = os.path.join(ROOT, "vendor-local")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "firmware")  # beside the checkout
NVM_ADDR = 0x7E000  # microcontroller.nvm: the SAMD51J19A's last 8 KB block (CIRCUITPY_INTERNAL_NVM_SIZE)
NVM_LEN = 8192
_VERSION = re.compile(r"-(\d+)\.(\d+)\.(\d+)\.uf2$")


def found(board="pybadge"):
    """The UF2s for ``board``: [(version tuple, path)], oldest first by version number; a version in
    vendor-local/ is taken from there, else from ../shared/firmware/."""
    out = {}
    for folder in (SHARED, VENDOR):
        for path in glob.glob(os.path.join(folder, board, "adafruit-circuitpython-%s-*.uf2" % board)):
            m = _VERSION.search(path)
            if m:
                out[tuple(int(x) for x in m.groups())] = path
    return sorted(out.items())


def firmware(board="pybadge", cp=None):
    """The UF2 to boot, or None: $PYBADGE_UF2 / $PYGAMER_UF2 if set (None if that file is missing), else
    vendor-local's newest of CircuitPython ``cp``.x (any major if None)."""
    given = os.environ.get(ENV[board])
    if given:
        return given if os.path.isfile(given) else None
    fit = [path for version, path in found(board) if cp is None or version[0] == cp]
    return fit[-1] if fit else None


def images():
    """Every (board, UF2) to test on: each board's newest image of each CircuitPython major found."""
    out = []
    for board in BOARDS:
        given = os.environ.get(ENV[board])
        if given:
            out += [(board, given)] if os.path.isfile(given) else []
            continue
        majors = sorted({version[0] for version, _ in found(board)})
        out += [(board, firmware(board, cp)) for cp in majors]
    return out


def missing(board="pybadge", cp=None):
    """Why ``board`` (on CircuitPython ``cp``.x) can't be emulated here (one line), or None."""
    if firmware(board, cp) is None:
        given = os.environ.get(ENV[board])
        if given:
            return "%s=%s: no such file" % (ENV[board], given)
        which = "CircuitPython %d.x" % cp if cp is not None else "CircuitPython"
        return ("no %s %s UF2 in vendor-local/%s/ or ../shared/firmware/%s/ (or set %s)"
                % (board, which, board, board, ENV[board]))
    try:
        import unicorn  # noqa: F401  (the SAMD51 emulator's CPU)
    except ImportError:
        return "no unicorn in this Python (pip install -r requirements.txt)"
    return None


def version_of(uf2):
    """(major, minor, patch) of the CircuitPython in ``uf2``: its name's (Adafruit's "...-10.2.1.uf2"), else
    its banner's."""
    m = _VERSION.search(uf2)
    if m is None:
        from sultan_host.board.wokwi import uf2_blocks

        with open(uf2, "rb") as f:
            data = b"".join(p for _a, p in sorted(uf2_blocks(f.read())))
        m = re.search(rb"Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)", data)
    if m is None:
        raise ValueError("%s: no CircuitPython version in its name or in it" % uf2)
    return tuple(int(x) for x in m.groups())


def label(board, uf2):
    """A column's or a test's name: "PyBadge 10.2.1"."""
    return "%s %s" % ({"pybadge": "PyBadge", "pygamer": "PyGamer"}[board], "%d.%d.%d" % version_of(uf2))


def settings(deal=None, memtrace=False):
    """settings.toml entries for the run: the Pico's test options at the badges' own 160x128 (no window)."""
    from sultan_host.board.wokwi import test_settings

    entries, extra = test_settings(None, deal, memtrace)
    assert not extra  # only a window needs an extra profile, and the badges are their own size
    return entries


def build_tree(out, cp, deal=None, memtrace=False, quiet=True):
    """``out`` as the CIRCUITPY tree for CircuitPython ``cp`` with the run's settings.toml."""
    from sultan_host.board.tree import build

    return build(cp, out, quiet=quiet, settings=settings(deal, memtrace))


def flash_image(tree, board):
    """``board``'s whole QSPI chip with ``tree`` as CIRCUITPY, the volume as big as CircuitPython makes it
    on that chip (the chip less its scratch sector: the PyGamer's near 8 MB, the PyBadge's near 2 MB)."""
    from samd51 import fatimage

    return fatimage.flash_image(tree, flash_size=fatimage.board_flash_size(board))
