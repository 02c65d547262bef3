"""The PyBadge's firmware and its CIRCUITPY: ``make build CP=9``'s tree, with the emulator's test options
in settings.toml (the Pico image's, sultan_host.board.wokwi.test_settings), laid into the 2 MB QSPI flash.

The firmware is never in git: PYBADGE_UF2=..., else the newest CircuitPython UF2 in vendor-local/pybadge/
(.ci/run links ../shared/firmware/pybadge there).
"""

import glob
import os

from sultan_host.board.sources import ROOT

VENDOR = os.path.join(ROOT, "vendor-local", "pybadge")
UF2_GLOB = "adafruit-circuitpython-pybadge-*.uf2"
CP = 9  # 9.1.1's .mpy format is the one CP=9 writes
NVM_ADDR = 0x7E000  # microcontroller.nvm: the SAMD51J19A's last 8 KB block (CIRCUITPY_INTERNAL_NVM_SIZE)
NVM_LEN = 8192


def firmware():
    """The UF2 to boot, or None: PYBADGE_UF2 if set (None if that file is missing), else vendor-local's."""
    path = os.environ.get("PYBADGE_UF2")
    if path:
        return path if os.path.isfile(path) else None
    found = sorted(glob.glob(os.path.join(VENDOR, UF2_GLOB)))
    return found[-1] if found else None


def missing():
    """Why the PyBadge can't be emulated here (one line), or None."""
    if firmware() is None:
        given = os.environ.get("PYBADGE_UF2")
        if given:
            return "PYBADGE_UF2=%s: no such file" % given
        return ("no PyBadge CircuitPython UF2 in vendor-local/pybadge/: link ../shared/firmware/pybadge "
                "there (or set PYBADGE_UF2)")
    try:
        import unicorn  # noqa: F401  (the SAMD51 emulator's CPU)
    except ImportError:
        return "no unicorn in this Python (pip install -r requirements.txt)"
    return None


def settings(deal=None, memtrace=False):
    """settings.toml entries for the run: the Pico's test options at the PyBadge's own 160x128 (no window)."""
    from sultan_host.board.wokwi import test_settings

    entries, extra = test_settings(None, deal, memtrace)
    assert not extra  # only a window needs an extra profile, and the PyBadge is its own size
    return entries


def build_tree(out, deal=None, memtrace=False, quiet=True):
    """``out`` as the CIRCUITPY tree for CircuitPython 9 with the run's settings.toml."""
    from sultan_host.board.tree import build

    return build(CP, out, quiet=quiet, settings=settings(deal, memtrace))


def flash_image(tree):
    """The 2 MB chip holding ``tree`` as CIRCUITPY (samd51.fatimage)."""
    from samd51 import fatimage

    return fatimage.flash_image(tree)
