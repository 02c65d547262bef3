"""Sultan on the host: everything that never goes onto the board.

By job: ``cli`` (``sultan play|scan|stats|resume``), ``analysis`` (the classic
solver, the winnable tables), ``desktop`` (the headless display, the simulator,
screenshots), ``bench`` (engine, save and screen figures); beside them the file
store, the JSON snapshot and the scripted keys the tools and tests drive the
game with.  The device package ``sultan`` (in ``lib/``) imports nothing from here.
"""
