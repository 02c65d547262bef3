# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Sultan ("Пирамида султана"), a two-deck patience for CircuitPython handhelds.

Three parts: the rules (``sultan.rules``), pure Python over bytearrays that runs unchanged on
CPython, MicroPython and CircuitPython; the screen and controls (``sultan.ui``) on top
of them, knowing nothing of pins; the saves (``sultan.saves``).  ``sultan.app`` joins them.
"""

# The one version of the game: pyproject.toml reads it (setuptools, without importing), and the READY
# line, the Statistics page and the bundle's name say it.  One short string on the board.
__version__ = "0.4.1"

try:
    from micropython import const  # noqa: F401  (MicroPython, CircuitPython)
except ImportError:  # CPython

    def const(value):
        """CPython stand-in for ``micropython.const``: the value itself."""
        return value


def data_path(module_file, folder, name):
    """Where data file ``name`` lives: beside the module whose ``__file__`` is ``module_file``.

    A module frozen into the firmware has no ``__file__`` (pass None): its data stays on
    CIRCUITPY, in ``/lib/<folder>``.
    """
    if module_file is None:
        return "/lib/" + folder + "/" + name
    i = module_file.rfind("/")
    return (module_file[:i] if i >= 0 else ".") + "/" + name


def forget(name):
    """Drop the module ``name`` (imported on demand) from ``sys.modules`` and from its package, so
    that the next collection frees its code; it is imported again when next wanted."""
    import sys

    sys.modules.pop(name, None)
    i = name.rfind(".")
    parent = sys.modules.get(name[:i])
    if parent is not None and hasattr(parent, name[i + 1:]):
        delattr(parent, name[i + 1:])


# ------------------------------------------------------------------ the tick clock
# One millisecond clock for the saves and the sound, here in the package every part already loads:
# 640 bytes of heap on the MicroPython VM where adafruit_ticks 1.1.7 costs 1,056 (and a file to ship).
# supervisor.ticks_ms wraps at 2**29; time.ticks_ms (MicroPython) and time.monotonic
# (CPython) are taken modulo 2**29 alike, and differences go through ticks_diff.
TICKS_MASK = const(0x1FFFFFFF)
_TICKS_HALF = const(0x10000000)


def tick_clock():
    """The board's millisecond counter, as a function (mask its values with TICKS_MASK)."""
    try:
        import supervisor

        return supervisor.ticks_ms
    except (ImportError, AttributeError):
        pass
    import time

    if hasattr(time, "ticks_ms"):
        return time.ticks_ms
    return lambda: int(time.monotonic() * 1000)


_clock = None


def ticks_ms():
    """Milliseconds now, modulo 2**29."""
    global _clock
    if _clock is None:
        _clock = tick_clock()
    return _clock() & TICKS_MASK


def ticks_diff(now, then):
    """``now - then`` for ticks that wrap at 2**29 (right while they are less than 2**28 apart)."""
    d = (now - then) & TICKS_MASK
    return d - (TICKS_MASK + 1) if d >= _TICKS_HALF else d
