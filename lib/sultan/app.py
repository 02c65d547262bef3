"""The main loop: keys in, engine actions, one display refresh per handled key.

Used unchanged by ``firmware/code.py`` (with ``keypad.ShiftRegisterKeys``), by
the desktop simulator (pygame keys) and by the tests (``keys.ScriptedKeys``).

Serial lines (the Wokwi scenarios and the emulator wait on them)::

    SULTAN READY board=<board_id> deal=<n> mem_free=<bytes>
    SULTAN key=<name> placed=<n> pass=<p> status=<playing|won|lost>

Persistence hook: ``store`` may be any object with ``load()`` (a Game or None)
and ``save(game)``; ``save`` is called after each key that changed the game.
A ``sultan.saves.store.Store`` (``sultan.nvmsave.open_store()`` on the device,
``sultan_host.filesave.open_store(path)`` on the desktop) also gets ``idle()`` while
no key comes, ``flush()`` at the end, and its damage message is shown once;
its ``stats`` feed the menu's statistics page and its ``settings`` (sound,
lights, the next deal's ruleset) come back at power-on and are handed back
with ``set_settings(bits, game)`` when the player changes them.

Sound hook: ``sound`` may be a ``sultan.ui.sound.Sound`` (or None): it gets
``event(name)`` after each key whose outcome has a sound (``Controller.event``),
``update()`` on every pass of the loop, and the menu's switches.
"""

import gc
import time

from sultan.rules import engine
from sultan.ui.controller import Controller, _random_deal, settings_rules
from sultan.ui.keys import NAMES
from sultan.ui.screen import Screen


def mem_free():
    """``gc.mem_free()`` where the port has it (CircuitPython), else 0."""
    f = getattr(gc, "mem_free", None)
    return f() if f else 0


def start(display, deal=None, store=None, rand_deal=None, sound=None):
    """Build the game, controller and screen; first frame drawn. Returns (ctrl, screen)."""
    game = None
    settings = 0
    if store is not None:
        try:
            game = store.load()
        except Exception as e:  # a bad save must never stop the game
            print("SULTAN save not loaded:", e)
            game = None
        settings = getattr(store, "settings", 0)
    if game is None:
        if deal is None:
            deal = (rand_deal or _random_deal)()
        game = engine.Game(deal=deal, rules=settings_rules(settings))  # the ruleset last chosen
    gc.collect()
    ctrl = Controller(game, rand_deal, sound is not None, getattr(store, "stats", None), settings)
    if sound is not None:
        sound.set_sound(ctrl.sound_on)
        sound.set_lights(ctrl.lights_on)
    display.auto_refresh = False  # before the screen exists: no half-built frame is ever shown
    screen = Screen(display)
    take = getattr(store, "take_message", None)  # sultan.saves.store.Store: damage found at load
    if take is not None and store.message:
        text = take()
        ctrl.say(text if len(text) <= screen.cols else getattr(store, "short_message", text))
    gc.collect()
    screen.update(ctrl)
    display.refresh()
    # A second refresh while nothing changed: displayio's first refresh after the root
    # group is set leaves the next one a near-full redraw (0.8 s on the Pico at 320x240);
    # done here it is part of start-up and the first key draws only what it changes.
    display.refresh()
    return ctrl, screen


def run(display, keys, board_id="unknown", deal=None, console=print, frames=None, store=None,
        rand_deal=None, idle=0.005, sound=None):
    """Play until ``frames`` loop turns have passed (None: for ever) or ``keys`` is exhausted.

    ``keys`` is anything with ``.events.get()`` (``keypad`` or ``sultan.keys.ScriptedKeys``);
    it may set ``exhausted`` to end the loop (a script ran out, the window closed).
    Returns the Controller.
    """
    ctrl, screen = start(display, deal, store, rand_deal, sound)
    g = ctrl.game
    console("SULTAN READY board=%s deal=%d mem_free=%d" % (board_id, g.deal, mem_free()))
    saved = ctrl.changes
    settings = ctrl.settings()
    set_settings = getattr(store, "set_settings", None)
    n = 0
    events = keys.events
    while frames is None or n < frames:
        n += 1
        if sound is not None:
            sound.update()  # ends tones, starts the next note, moves the lights: never waits
        ev = events.get()
        if ev is None:
            if store is not None and hasattr(store, "idle"):
                store.idle()  # writes pending actions once the player pauses (sultan.store)
            if getattr(keys, "exhausted", False):
                break
            if idle:
                time.sleep(idle)
            continue
        if not ev.pressed:
            continue
        k = ev.key_number
        if not 0 <= k < len(NAMES):
            continue
        ctrl.press(k)
        if sound is not None and ctrl.event:
            sound.event(ctrl.event)  # returns at once: the tone plays while the screen draws
        screen.update(ctrl)
        display.refresh()
        if store is not None and ctrl.changes != saved:
            saved = ctrl.changes
            try:
                store.save(ctrl.game)
            except Exception as e:  # a full or read-only drive must not stop the game
                print("SULTAN save failed:", e)
        if ctrl.settings() != settings:
            settings = ctrl.settings()
            if sound is not None:
                sound.set_sound(ctrl.sound_on)
                sound.set_lights(ctrl.lights_on)
            if set_settings is not None:
                try:
                    set_settings(settings, ctrl.game)
                except Exception as e:
                    print("SULTAN save failed:", e)
        g = ctrl.game
        console("SULTAN key=%s placed=%d pass=%d status=%s"
                % (NAMES[k], g.placed, g.pass_no, engine.STATUS_NAMES[g.status()]))
    if store is not None and hasattr(store, "flush"):
        store.flush()
    return ctrl
