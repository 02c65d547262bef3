"""Where the samd51 tests find the PyBadge's CircuitPython UF2 (never in git), and what a test module does
without it: skip with the one reason every PyBadge test gives (``sultan_host.pybadge.image.missing``), or
fail when SULTAN_EMULATOR=required (CI)."""

import os

import pytest
from sultan_host.pybadge import image


def firmware():
    return image.firmware()


def missing():
    """The skip mark for a module whose UF2 is missing (a UsageError when it is required)."""
    why = image.missing()
    if os.environ.get("SULTAN_EMULATOR") == "required":
        raise pytest.UsageError("SULTAN_EMULATOR=required but " + why)
    return pytest.mark.skip(reason=why)
