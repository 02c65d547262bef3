# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The main loop: keys in, rules actions, one display refresh per handled key.

``sultan.app`` joins the three parts (``sultan.rules``, ``sultan.ui``, ``sultan.saves``);
it is used unchanged by ``firmware/code.py`` (with ``keypad.ShiftRegisterKeys``), by
the desktop simulator (pygame keys) and by the tests (``sultan_host.scripted.ScriptedKeys``).

Serial lines (the Wokwi scenarios and the emulator wait on them)::

    SULTAN READY board=<board_id> deal=<n> mem_free=<bytes> version=<sultan.__version__>
                 save=<sequence number of the save, 0: none>
    SULTAN key=<name> placed=<n> pass=<p> status=<playing|won|lost>

Persistence: ``store`` is a ``sultan.saves.store.Store`` (``sultan.saves.nvm.open_store()``
on the device, ``sultan_host.filesave.open_store(path)`` on the desktop), or any object
with ``sultan.nostore.NoStore``'s methods (subclass it), or None for a ``NoStore()``:
nothing persists (imported only then: a board with a store never holds its code).
``save(game)`` is called after each key that changed the game, ``idle()`` while no key
comes, ``flush()`` at the end; its damage message is shown once (in the player's language),
its ``stats`` feed the menu's statistics page, and its ``settings`` (sound, lights, the next
deal's ruleset, the language) come back at power-on and are handed back with
``set_settings(bits, game)``.

Sound: ``sound`` is a ``sultan.ui.sound.Sound`` (or None for ``Silent()``): it gets
``event(name)`` after each key whose outcome has a sound (``Controller.event``),
``update()`` on every pass of the loop, and the menu's switches.

Battery: after DIM_MS without a key the display's ``brightness`` goes to a fifth, after OFF_MS
to 0 with the lights off and any pending save written (unless the menu's switch keeps the screen
lit, ``Controller.dim_on``); the next key lights it again and is not played.

Idle passes: on CircuitPython 10 each ``time.sleep`` keeps the RP2040 awake for the rest of a 1 ms
tick (0.5 ms on average), so an idle board idles by sleeping seldom.  A lit screen with no key
down, no sound and no cascade sleeps SCAN_MS, then scans the keys itself (``keys.reset()``: an
immediate scan, the keypad's own next one 20 ms later), so a press is seen at the next pass, no
later than the keypad's 20 ms scans and 5 ms polls would see it (``run``'s ``scan``).  Otherwise
a pass sleeps ``idle`` (5 ms), or 20 ms while the screen is dimmed or off (the key that wakes it
is not played).
"""

import gc
import time

from sultan import __version__, const, forget, ticks_diff, ticks_ms
from sultan.rules import engine
from sultan.ui.keys import NAMES, REPEAT_DELAY_MS, REPEAT_MS, REPEATS

SCAN_MS = const(18)  # a quiet pass's sleep before it scans the keys (below keypad's 20 ms interval)
DIM_MS = const(30000)  # no key this long: the backlight at a fifth
OFF_MS = const(120000)  # this long: the backlight and the lights off, the pending save written


def _screen(display, sound, store, ctrl, dark, quiet):
    """The screen's state (0 lit, 1 dimmed, 2 off) after ``quiet`` ms without a key (-1: a key came):
    dimmed after DIM_MS, off after OFF_MS with the lights off and the pending save written, lit again
    by a key; the backlight and the lights set on a change."""
    if quiet < 0:
        dark = 0
    elif dark < 2 and ctrl.dim_on and quiet >= (OFF_MS if dark else DIM_MS):
        dark += 1
        if dark == 2:
            store.flush()
    else:
        return dark
    try:
        display.brightness = 1.0 if not dark else 0.2 if dark == 1 else 0.0
    except Exception:  # no backlight to set (an old display)
        pass
    sound.set_lights(dark < 2 and ctrl.lights_on)
    return dark


def _held(held, ev):
    """(the keys down after ``ev``, ``ev`` or None): a press of a key already down, read right after
    a scan, is that scan's echo of it (``keys.reset`` reports a key held as pressed anew)."""
    bit = 1 << ev.key_number
    if not ev.pressed:
        return held & ~bit, ev
    if held & bit and held & 0x100:
        return held, None
    return held | bit, ev


def _switched(ctrl, sound, store):
    """The menu turned a switch: the sound and lights follow it, the store keeps it; the settings now."""
    settings = ctrl.settings()
    sound.set_sound(ctrl.sound_on)
    sound.set_lights(ctrl.lights_on)
    _save(store.set_settings, settings, ctrl.game)
    return settings


def _save(write, *args):
    try:
        write(*args)
    except Exception as e:  # a full or read-only drive must not stop the game
        print("SULTAN save failed:", e)


def _rest(scan, held, dark, cascade, sound, idle):
    """An idle pass's sleep (the module's "Idle passes"); returns ``held`` (``_held``) after it."""
    if not idle:
        return held
    if scan and not (held or dark or cascade or sound.busy()):
        time.sleep(SCAN_MS / 1000)
        scan()
        return 0x100  # until the queue empties, a press of a key down is this scan's echo
    time.sleep(0.02 if dark and not cascade else idle)
    return held


class Silent:
    """The sound when the board has none: event(name), update(), set_sound(on), set_lights(on).

    ``Silent(make)``: a board's Sound made at its first sound event, not before READY, by ``make()``
    (the board profile's), which gives it, or None (then it stays silent).  The main loop's next
    ``update`` makes it and plays that event, never an animation's (``idle=False``): on the PyBadge
    making it takes about 50 ms, which would hold up the slide's first frame.  From then on it has
    every event and update.  Either way no switches in the menu (the PyBadge's subclass adds them).
    One class, not two: each class and method's code is heap on the board."""

    sound = None  # the Sound once made (a Silent if it could not be)
    pending = None  # the event that makes it

    def __init__(self, make=None):
        self.make = make

    def event(self, name=None):
        if self.sound is not None:
            self.sound.event(name)
        elif self.make is not None:
            self.pending = name

    def update(self, idle=True):
        if self.sound is not None:
            self.sound.update()
        elif self.pending is not None and idle:
            self.sound = self.make() or Silent()
            self.sound.event(self.pending)

    def busy(self):
        return self.sound is not None and self.sound.busy()

    def set_sound(self, on):
        pass

    set_lights = set_sound  # one no-op: each method's code is heap on the board


def start(display, deal=None, store=None, rand_deal=None, sound=None):
    """Build the game, controller and screen; first frame drawn. Returns (ctrl, screen).

    ``store`` and ``sound`` as for ``run`` (None: the null ones).  The work is
    ``sultan.starting.start``'s: imported for it and forgotten, as a board starts once.
    """
    from sultan import starting

    try:
        return starting.start(display, deal, store, rand_deal, sound, Silent)
    finally:
        forget("sultan.starting")


def run(display, keys, board_id="unknown", deal=None, console=print, frames=None, store=None,
        rand_deal=None, idle=0.005, sound=None, scan=None, clock=None):
    """Play ``frames`` passes (None: for ever) or until ``keys`` (``keypad``, ``ScriptedKeys``) is
    ``exhausted``; the Controller.  ``scan``: keys.reset, for idle passes; ``clock``: animations' ms."""
    if store is None:
        from sultan.nostore import NoStore  # only then: a board with a store never holds its code
        store = NoStore()
    sound = Silent() if sound is None else sound
    ctrl, screen = start(display, deal, store, rand_deal, sound)
    gc.collect()  # the heap in use at READY: the start-up's garbage is free memory
    console("SULTAN READY board=%s deal=%d mem_free=%d version=%s save=%d" % (board_id, ctrl.game.deal,
        gc.mem_free() if hasattr(gc, "mem_free") else 0, __version__, getattr(store, "seq", 0)))
    saved, settings, n, events, g = ctrl.changes, ctrl.settings(), 0, keys.events, ctrl.game
    # a key pressed in an animation, a won game's cascade (a frame an idle pass), when the last key came,
    # the screen (0 lit, 1 dimmed, 2 off), with scan the keys down (bit k: key k; 0x100: just scanned),
    pending, cascade, last, dark, held, rep, wait = None, None, ticks_ms(), 0, 0, -1, 0  # a held arrow
    while frames is None or n < frames:
        n += 1
        sound.update()  # ends tones, starts the next note, moves the lights: never waits
        ev, pending = pending or events.get(), None
        if ev is None and rep >= 0 and ticks_diff(ticks_ms(), last) >= wait:
            k, wait, last = rep, REPEAT_MS, ticks_ms()  # the held arrow again: a key like any other
        elif ev is None:
            store.idle()  # writes pending actions once the player pauses
            ctrl.idle()  # reads what the menu did not need to show at once
            if getattr(keys, "exhausted", False):
                break
            if cascade:
                cascade.tick(g)
            dark = _screen(display, sound, store, ctrl, dark, ticks_diff(ticks_ms(), last))
            held = _rest(scan, held & 0xFF, dark, cascade, sound, idle)
            continue
        else:
            held, ev = _held(held, ev) if scan else (held, ev)
            rep = rep if ev is None else -1  # any key event (not a scan's echo) ends a repeat
            if ev is None or not ev.pressed:
                continue
            last = ticks_ms()
            if dark:  # the key that lights the screen again is not played
                dark = _screen(display, sound, store, ctrl, dark, -1)
                continue
            k = ev.key_number
            if not 0 <= k < len(NAMES):
                continue
            rep, wait = k if REPEATS >> k & 1 else -1, REPEAT_DELAY_MS  # (-1: none), its ms after last
        if cascade:
            cascade = cascade.stop(g, console)  # the key that ends it brings the won panel
        else:
            moves = g.moves
            ctrl.press(k)
            if ctrl.event:
                sound.event(ctrl.event)  # returns at once: the tone plays while the screen draws
            if ctrl.motion_on and (g.moves != moves or ctrl.hint or ctrl.event == "deal"):
                from sultan.ui import motion  # cards that travel: at the first key moving one, not at READY
                pending, cascade, up = motion.play(screen, display, ctrl, moves, events, sound, console,
                                                   clock)
                held &= ~up  # the releases the animation read
        screen.update(ctrl)
        if cascade:
            screen.show_panel(ctrl, False)  # the won panel waits for the end of the cascade
        display.refresh()  # then its line, then the saves (the Pico's NVM: 51 ms a record)
        console("SULTAN key=%s placed=%d pass=%d status=%s"
                % (NAMES[k], g.placed, g.pass_no, engine.STATUS_NAMES[g.status()]))
        if ctrl.changes != saved:
            saved = ctrl.changes
            _save(store.save, ctrl.game)
        if ctrl.settings() != settings:
            settings = _switched(ctrl, sound, store)
    store.flush()
    return ctrl
