"""The device benchmark (``python -m sultan_host.bench.device``, ``make bench-device``): the Wokwi build
on real CircuitPython in the RP2040 emulator (tools/emulate), one table.

    python -m sultan_host.bench.device [--bootrom vendor-local/bootrom.js] [--firmware CP.uf2 ...]
        [--sizes 320x240,160x128] [--deal 7] [--soak N] [--cuts N] [--seed S] [--jobs 2]
        [--out build/bench-device] [--only anim] [--figures docs/figures.md] [--boards pico,pybadge]

For each CircuitPython UF2 (default: the newest 10.x, 9.x and 8.x Pico UF2s in vendor-local/) and each size
(160x128 through the emulator's test profile, see tools/wokwi_image.py --size), it boots the game on
deal ``--deal`` and plays one fixed key plan, then prints one table of:

* ``mem_free`` at ``SULTAN READY``, and the whole heap (a bare code.py's ``mem_free + mem_alloc``);
* start-up: from a bare code.py's serial line to the game's ``SULTAN READY``, both on the same
  firmware and counted from reset in simulated time (the firmware's own boot cancels out);
* per key kind, from the keypad scan that latches the press (keypad scans every 20 ms: a real
  thumb adds 0-20 ms; a PyGamer stick direction, which the 74HC165 does not carry, from its push)
  to the key's ``SULTAN key=`` line, written after the display refresh:
  min / median / max in simulated ms, and the median RAMWR pixels the ILI9341 received.

The key plan is made on the host by the game's own Controller (lib/sultan), which also names each
key's kind (cursor move, turn, select, play, menu open/scroll/close, page open/close, digit editor,
redeal, new deal, won/lost panel) and predicts each ``SULTAN key=`` line; a device line that differs
is reported.  The stock is emptied for the redeal by a burst of START presses, left out of the figures.
``--soak N`` adds a run of N seeded random keys on each firmware at 320x240 (the tightest heap) that
must end with no MemoryError and every key answered.  Each animation's frame rate comes from the
game's ``SULTAN anim=`` lines, of the key plan's run and of a second run on each firmware at each size
(``anim_plan``: deal 322 -- the hint's card, a player's move, its undo and redo, turns, the restart's
deal, then autoplay until the game is won and 3 s of its cascade); ``--only anim`` runs only that
and prints only the animations' table.  ``--cuts N`` adds N power cuts aimed inside each kind of save
(``sultan_host.bench.powercut``: the first write, a checkpoint, a pass's end, a settings change, a
lost game's record), spread over the firmwares at 160x128, and one table of what each boot showed.

``--boards``: the badges' columns (``pybadge``, ``pygamer``: a column each image found, the PyBadge's 9.1.1
and 10.2.1, the PyGamer's 10.2.1, in the samd51 emulator, ``python -m sultan_host.pybadge``) come after the
Pico's, with their own plans for their longer menu (Sound and Lights), the same figures, the animations and
``--soak``; by default those whose firmware is here.  Their figures go into sections of their own
(``pbfigures``: against the goals, a column an image; ``pbsaves``: each image's erase window a save and
its share of a played hour, and, with ``--boards`` naming the board, ``--cuts`` aimed at its saves), so that a
run of the badges alone leaves the Pico's sections as they were.

``--wear N`` adds N games at autoplay's pace and at a human's (``sultan_host.bench.wear``): the flash's
erases a game.  The key plan's table and the animations' go into ``--figures`` (docs/figures.md), each
as a section with its date and firmware, when the run had no error.

It prints figures; it asserts nothing about them.  Everything runs in simulated time: wall-clock
speed (about 1/2 to 1/8 of real time) does not change a figure.

Its parts: ``plan`` (the key plans, made on the host by the game's Controller), ``emulator`` (a run of
tools/emulate), ``tables`` (the tables and docs/figures.md), ``saves`` (the power cuts and the wear),
``pybadge``, ``pbfigures`` and ``pbsaves`` (the badges' runs and sections), ``main`` (the arguments and
the runs).
"""
