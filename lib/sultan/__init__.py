"""Sultan ("Пирамида султана"), a two-deck patience for CircuitPython handhelds.

Three parts: the rules (``sultan.rules``), pure Python over bytearrays that runs unchanged on
CPython, MicroPython and CircuitPython; the screen and controls (``sultan.ui``) on top
of them, knowing nothing of pins; the saves (``sultan.saves``).  ``sultan.app`` joins them.
"""

try:
    from micropython import const  # noqa: F401  (MicroPython, CircuitPython)
except ImportError:  # CPython

    def const(value):
        """CPython stand-in for ``micropython.const``: the value itself."""
        return value
