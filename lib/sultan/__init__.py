"""Sultan ("Пирамида султана"), a two-deck patience for CircuitPython handhelds.

The engine (``sultan.engine``) is pure Python over bytearrays and runs unchanged on
CPython, MicroPython and CircuitPython.  The screen (``sultan.view``) and the
controller (``sultan.controller``) sit on top of it; they know nothing of pins.
"""

__version__ = "0.1.0"
