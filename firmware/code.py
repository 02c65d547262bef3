"""Sultan on a CircuitPython board: pick the board profile, build the display and keys, play.

Everything that knows about pins lives in one ``profile_*.py`` per board, next to this file on
CIRCUITPY (with ``make_sound()`` where the board has a speaker and NeoPixels).  The game itself is
``sultan.app.run`` (the same code the desktop simulator runs).
"""

import gc

import board

# board.board_id -> the profile module that knows its pins
PROFILES = {
    "pybadge": "profile_pybadge",  # PyBadge and PyBadge LC
    "edgebadge": "profile_pybadge",  # the same buttons and screen
    "pygamer": "profile_pygamer",
    "raspberry_pi_pico": "profile_pico_ili9341",  # the Wokwi board: ILI9341 + 74HC165
}


def open_store():  # -> sultan.store.Store | None
    """The save store in microcontroller.nvm (sultan.nvmsave); None if it cannot be had."""
    try:
        from sultan import nvmsave
    except ImportError as e:
        print("SULTAN no saves:", e)
        return None
    try:
        return nvmsave.open_store()
    except Exception as e:  # saves are a comfort: never a reason not to play
        print("SULTAN no saves:", e)
        return None


def make_sound(profile):  # -> sultan.sound.Sound | None
    """The profile's speaker and NeoPixels (``make_sound()``, badges only); None without them."""
    make = getattr(profile, "make_sound", None)
    if make is None:
        return None
    try:
        return make()
    except Exception as e:  # a silent game is still a game
        print("SULTAN no sound:", e)
        return None


def main() -> None:
    board_id = board.board_id
    name = PROFILES.get(board_id)
    if name is None:
        raise RuntimeError("no Sultan profile for board %r; have %s" % (board_id, ", ".join(PROFILES)))
    profile = __import__(name)
    gc.collect()
    display = profile.make_display()
    gc.collect()
    keys = profile.make_keys()
    gc.collect()
    store = open_store()
    gc.collect()
    sound = make_sound(profile)
    gc.collect()
    from sultan import app

    gc.collect()
    app.run(display, keys, board_id=board_id, store=store, sound=sound)


main()
