"""The PyBadge harness: the game's CIRCUITPY on the real CircuitPython 9.1.1 PyBadge UF2 in the SAMD51
emulator (package ``samd51``), driven by the same ``--keys`` words as the Pico's ``tools/emulate``.

    python -m sultan_host.pybadge --uf2 FW.uf2 --deal 7 --keys "RIGHT A" --out build/emulate --report r.json

Modules: ``steps`` (the words, through tools/emulate/lib/keys.js), ``image`` (firmware and flash image),
``machine`` (a board across power cycles), ``runner`` (the steps against it), ``report``, ``cli``.
"""
