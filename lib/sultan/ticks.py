"""One millisecond clock for the saves and the sound: ticks that wrap at 2**29.

``supervisor.ticks_ms`` (CircuitPython) wraps at 2**29; ``time.ticks_ms`` (MicroPython)
and ``time.monotonic`` (CPython) are taken modulo 2**29 alike, so every time stays a
small int and differences are taken with ``ticks_diff``, never with ``-``.

Part of neither the rules nor the screen: ``sultan.saves`` and ``sultan.ui`` both import it.
"""

from sultan import const

MASK = const(0x1FFFFFFF)  # times are taken modulo 2**29
_HALF = const(0x10000000)


def clock():
    """The board's millisecond counter, as a function (its values are masked by the caller)."""
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
        _clock = clock()
    return _clock() & MASK


def ticks_diff(now, then):
    """``now - then`` for ticks that wrap at 2**29 (right while they are less than 2**28 apart)."""
    d = (now - then) & MASK
    return d - (MASK + 1) if d >= _HALF else d
