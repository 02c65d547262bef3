# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Sultan on a CircuitPython board: pick the board profile, build the display and keys, play.

``code.py`` calls ``parts()``, lets this module go and plays.  Everything that knows about
pins lives in one ``profile_*.py`` per board, next to this file on CIRCUITPY (with
``make_sound()`` where the board has a speaker and NeoPixels).  The game itself is
``sultan.app.run`` (the same code the desktop simulator runs).  This module is compiled to
``launch.mpy`` by the build: CircuitPython compiles ``code.py`` from source at every start
(80 ms of it was this launcher, on the Pico), and once the parts are made its code is not
wanted again.
"""

import os

import board

# board.board_id -> the profile module that knows its pins
PROFILES = {
    "pybadge": "profile_pybadge",  # PyBadge and PyBadge LC
    "edgebadge": "profile_pybadge",  # the same buttons and screen
    "pygamer": "profile_pygamer",
    "raspberry_pi_pico": "profile_pico_ili9341",  # the Wokwi board: ILI9341 + 74HC165
    # the same header wired the same way (the W's radio keeps to GPIO 23-25 and 29, which the profile
    # leaves alone); only the RP2040 Pico is run in tools/emulate
    "raspberry_pi_pico_w": "profile_pico_ili9341",
    "raspberry_pi_pico2": "profile_pico_ili9341",
    "raspberry_pi_pico2_w": "profile_pico_ili9341",
}


def open_store():  # -> sultan.saves.store.Store | None
    """The save store in microcontroller.nvm (sultan.saves.nvm); None if it cannot be had."""
    try:
        from sultan.saves import nvm as nvmsave
    except ImportError as e:
        print("SULTAN no saves:", e)
        return None
    try:
        return nvmsave.open_store()
    except Exception as e:  # saves are a comfort: never a reason not to play
        print("SULTAN no saves:", e)
        return None


def make_sound(profile):  # -> sultan.ui.sound.Sound | None
    """The profile's speaker and NeoPixels (``make_sound()``, badges only); None without them."""
    make = getattr(profile, "make_sound", None)
    if make is None:
        return None
    try:
        return make()
    except Exception as e:  # a silent game is still a game
        print("SULTAN no sound:", e)
        return None


def setting(name):  # -> str | None
    """``name`` from CIRCUITPY/settings.toml (CircuitPython 8+); None when unset.

    Test settings, written there by the emulator's image (tools/wokwi_image.py) and by no
    board: SULTAN_PROFILE (a test profile to use instead of the board's), SULTAN_DEAL (the
    deal to start when no save is loaded), SULTAN_MEMTRACE (print ``gc.mem_free()`` after
    each stage and each import)."""
    try:
        value = os.getenv(name)
    except Exception:  # no settings.toml support
        return None
    return None if value is None else str(value)


# Where one_heap runs: the SAMD51 badges (192 KB of RAM), where 1.3-7 KB more mem_free at READY is worth
# 0.15-0.23 s more start-up; the Pico's heap is ample, and its start-up keeps the time.
ONE_HEAP_BOARDS = ("pybadge", "edgebadge", "pygamer")


def one_heap():  # -> object (keep it while the game runs) | None
    """CircuitPython 9 and 10 grow the heap in pieces taken from the system allocator (TLSF) as it
    fills: 8, 16, 32, 64 KB, each with its own tables, and cut where TLSF had room.  One piece of
    all the largest free block, taken before the game's imports, grows the heap once.  The piece
    is made for one tuple as large as fits, so the tuple's id() says where it is; one small object
    left in it past its first block keeps it (the collector gives back a piece with nothing past
    its first block) once the tuple is gone.  Returns that object, or None: on 8.x (one heap that
    never grows), on a board not in ONE_HEAP_BOARDS, or when the piece could not be held."""
    import gc
    import sys

    if sys.implementation.version[0] < 9 or board.board_id not in ONE_HEAP_BOARDS:
        return None
    gc.collect()
    lo, hi = 0, gc.mem_free() // 4  # type: ignore[attr-defined]  # mem_free counts TLSF's largest block
    while hi - lo > 4:  # the largest tuple that fits: the free memory's largest piece
        n = (lo + hi) // 2
        try:
            t = (None,) * n
            lo = n
        except MemoryError:
            hi = n
        t = None
        gc.collect()
    # A tuple of 4k+1 whole 16-byte blocks: 10.x sizes a new piece to a multiple of 4 blocks, so the
    # piece keeps 3 blocks past the tuple (9.x sizes it with room to spare).
    blocks = (23 + 4 * lo) // 16
    blocks -= (blocks - 1) % 4
    try:
        t = (None,) * (4 * blocks - 2)
        end = id(t) + 16 * blocks
        for i in range(gc.mem_free() // 16 + 4):  # type: ignore[attr-defined]
            # 1-block tuples fill the earlier pieces' holes first; the first past the tuple, in its
            # piece's last 3 blocks, keeps it.  The others are left to the collection.
            small = (i, i)
            if end <= id(small) < end + 48:
                t = None
                gc.collect()
                return small
    except MemoryError:
        pass
    return None


def key_scan(keys):  # -> the keys' reset, or None
    """``keys.reset``, which scans at once, for the game's idle passes (``sultan.app.run``'s ``scan``);
    None on CircuitPython 9.1.0 to 9.2.0, whose reset reports the keys not down as released and a
    key down not at all (fixed in 9.2.1)."""
    import sys

    v = tuple(sys.implementation.version[:3])
    return None if (9, 1, 0) <= v < (9, 2, 1) else getattr(keys, "reset", None)


def parts():  # -> (display, keys, board_id, store, sound, deal, scan)
    """What ``sultan.app.run`` plays with on this board: its display and keys, its id, the save
    store and the sound (None where there are none), the test deal (None: a random one) and the
    keys' scan (``key_scan``)."""
    board_id = board.board_id
    trace = setting("SULTAN_MEMTRACE") is not None
    if trace:
        import memtrace  # the test image's heap trace: never loaded otherwise

        free = memtrace.stage("start")
        memtrace.trace_imports()
    name = setting("SULTAN_PROFILE") or PROFILES.get(board_id)
    if name is None:
        raise RuntimeError("no Sultan profile for board %r; have %s" % (board_id, ", ".join(PROFILES)))
    deal = setting("SULTAN_DEAL")
    profile = __import__(name)
    display = profile.make_display()
    if trace:
        free = memtrace.stage("profile+display", free)
    keys = profile.make_keys()
    store = open_store()
    if trace:
        free = memtrace.stage("keys+store", free)
    sound = make_sound(profile)
    if trace:
        memtrace.stage("sound", free)
    return display, keys, board_id, store, sound, int(deal) if deal else None, key_scan(keys)
