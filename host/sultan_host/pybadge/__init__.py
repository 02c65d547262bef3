"""The badges' harness: the game's CIRCUITPY on a badge's own CircuitPython UF2 (the PyBadge's 9.1.1 or
10.2.1, the PyGamer's 10.2.1) in the SAMD51 emulator (package ``samd51``), driven by the same ``--keys`` words
as the Pico's ``tools/emulate``.

    python -m sultan_host.pybadge [--board pygamer] [--cp 10] --deal 7 --keys "RIGHT A" --out build/emulate

Modules: ``image`` (which firmware, the flash image), ``machine`` (a board across power cycles), ``runner``
(the steps of ``sultan_host.keywords`` against it), ``console``, ``report``, ``cli``.
"""
