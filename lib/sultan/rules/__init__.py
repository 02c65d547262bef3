"""The rules: cards, the deal generator, the table, the game and its canonical player.

Pure Python over bytearrays; imports nothing from ``sultan.ui`` or ``sultan.saves``
and nothing of displayio, so the same files run on CPython, MicroPython and CircuitPython.
"""
