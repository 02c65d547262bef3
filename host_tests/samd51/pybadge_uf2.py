"""Where the samd51 tests find the PyBadge's CircuitPython 9.1.1 UF2 (never in git), and what a test module
does without it: skip with one reason, or fail when SULTAN_EMULATOR=required (CI)."""

import glob
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLACES = (os.path.join(ROOT, "vendor-local", "pybadge"),
          os.path.join(os.path.dirname(ROOT), "shared", "firmware", "pybadge"))
WHY = "no CircuitPython 9.1.1 PyBadge UF2 in vendor-local/pybadge or ../shared/firmware/pybadge"


def firmware():
    for place in PLACES:
        found = sorted(glob.glob(os.path.join(place, "adafruit-circuitpython-pybadge-*-9.1.1.uf2")))
        if found:
            return found[-1]
    return None


def missing():
    """The skip mark for a module whose UF2 is missing (a UsageError when it is required)."""
    if os.environ.get("SULTAN_EMULATOR") == "required":
        raise pytest.UsageError("SULTAN_EMULATOR=required but " + WHY)
    return pytest.mark.skip(reason=WHY)
