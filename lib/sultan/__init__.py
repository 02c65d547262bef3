"""Sultan ("Пирамида султана"), a two-deck patience for CircuitPython handhelds.

The engine (``sultan.engine``) is pure Python over bytearrays and runs unchanged on
CPython, MicroPython and CircuitPython.  The screen and the controller sit on top
of it; they know nothing of pins.
"""

try:
    from micropython import const  # noqa: F401  (MicroPython, CircuitPython)
except ImportError:  # CPython

    def const(value):
        """CPython stand-in for ``micropython.const``: the value itself."""
        return value
