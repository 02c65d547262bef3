"""Tiny shims so the same source runs on CPython, MicroPython and CircuitPython."""

try:
    from micropython import const  # noqa: F401  (MicroPython, CircuitPython)
except ImportError:  # CPython

    def const(value):
        """CPython stand-in for ``micropython.const``: the value itself."""
        return value
