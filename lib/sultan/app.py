"""The main loop: keys in, engine actions, one display refresh per handled key.

Used unchanged by ``firmware/code.py`` (with ``keypad.ShiftRegisterKeys``), by
the desktop simulator (pygame keys) and by the tests (``keys.ScriptedKeys``).

Serial lines (the Wokwi scenarios and the emulator wait on them)::

    SULTAN READY board=<board_id> deal=<n> mem_free=<bytes>
    SULTAN key=<name> placed=<n> pass=<p> status=<playing|won|lost>

Persistence hook: ``store`` may be any object with ``load()`` (a Game or None)
and ``save(game)``; ``save`` is called after each key that changed the game.
A ``sultan.store.Store`` (``sultan.nvmsave.open_store()`` on the device,
``sultan.filesave.open_store(path)`` on the desktop) also gets ``idle()`` while
no key comes, ``flush()`` at the end, and its damage message is shown once.
"""

import gc
import time

from sultan import engine
from sultan.controller import Controller, _random_deal
from sultan.keys import NAMES
from sultan.screen import Screen


def mem_free():
    """``gc.mem_free()`` where the port has it (CircuitPython), else 0."""
    f = getattr(gc, "mem_free", None)
    return f() if f else 0


def start(display, deal=None, store=None, rand_deal=None):
    """Build the game, controller and screen; first frame drawn. Returns (ctrl, screen)."""
    game = None
    if store is not None:
        try:
            game = store.load()
        except Exception as e:  # a bad save must never stop the game
            print("SULTAN save not loaded:", e)
            game = None
    if game is None:
        if deal is None:
            deal = (rand_deal or _random_deal)()
        game = engine.Game(deal=deal)
    gc.collect()
    ctrl = Controller(game, rand_deal)
    display.auto_refresh = False  # before the screen exists: no half-built frame is ever shown
    screen = Screen(display)
    take = getattr(store, "take_message", None)  # sultan.store.Store: damage found at load
    if take is not None and store.message:
        text = take()
        ctrl.say(text if len(text) <= screen.cols else getattr(store, "short_message", text))
    gc.collect()
    screen.update(ctrl)
    display.refresh()
    return ctrl, screen


def run(display, keys, board_id="unknown", deal=None, console=print, frames=None, store=None,
        rand_deal=None, idle=0.005):
    """Play until ``frames`` loop turns have passed (None: for ever) or ``keys`` is exhausted.

    ``keys`` is anything with ``.events.get()`` (``keypad`` or ``sultan.keys.ScriptedKeys``);
    it may set ``exhausted`` to end the loop (a script ran out, the window closed).
    Returns the Controller.
    """
    ctrl, screen = start(display, deal, store, rand_deal)
    g = ctrl.game
    console("SULTAN READY board=%s deal=%d mem_free=%d" % (board_id, g.deal, mem_free()))
    saved = ctrl.changes
    n = 0
    events = keys.events
    while frames is None or n < frames:
        n += 1
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
        screen.update(ctrl)
        display.refresh()
        if store is not None and ctrl.changes != saved:
            saved = ctrl.changes
            try:
                store.save(ctrl.game)
            except Exception as e:  # a full or read-only drive must not stop the game
                print("SULTAN save failed:", e)
        g = ctrl.game
        console("SULTAN key=%s placed=%d pass=%d status=%s"
                % (NAMES[k], g.placed, g.pass_no, engine.STATUS_NAMES[g.status()]))
    if store is not None and hasattr(store, "flush"):
        store.flush()
    return ctrl
