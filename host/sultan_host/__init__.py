"""Sultan on the host: everything that never goes onto the board.

By job: ``cli`` (``sultan play|scan|stats|resume``), ``analysis`` (the classic
solver, surveys of deal ranges, the winnable tables), ``desktop`` (the headless
display, the simulator, screenshots), ``bench`` (engine, save and screen figures,
and ``bench.device``, the benchmark on CircuitPython in the emulator); beside them
``game`` (``from sultan_host.game import Game``: the engine with ``snapshot()``),
the file store, the JSON snapshot, the progress bar and the scripted keys the tools
and tests drive the game with.  The device package ``sultan`` (in ``lib/``) imports
nothing from here.
"""
