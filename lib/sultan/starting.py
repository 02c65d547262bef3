# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The game's start: the saved game (or a new deal), the controller, the screen, the first frame.

``sultan.app.start`` imports this module for that and forgets it at once: a board starts once,
and on CircuitPython a module's code is heap.
"""

from sultan import forget
from sultan.rules import engine
from sultan.ui import words
from sultan.ui.actions import random_deal_number
from sultan.ui.controller import Controller, settings_rules
from sultan.ui.lines import TEXT_SAVE_DAMAGED


def start(display, deal, store, rand_deal, sound, Silent):
    """Build the game, controller and screen; first frame drawn. Returns (ctrl, screen).

    As ``sultan.app.start``, whose work this is (here this code goes once it is done); ``Silent``
    is ``sultan.app.Silent``, handed over: app imports this module, so this one cannot import app."""
    if store is None:
        from sultan.nostore import NoStore  # only then: a board with a store never holds its code
        store = NoStore()
    # the menu's Sound and Lights switches: a Sound's, not a Silent's (a subclass may say switches = True)
    has_sound = sound is not None and getattr(sound, "switches", not isinstance(sound, Silent))
    sound = Silent() if sound is None else sound
    try:
        game = store.load()
    except Exception as e:  # a bad save must never stop the game
        print("SULTAN save not loaded:", e)
        game = None
    if game is None:
        if deal is None:
            deal = (rand_deal or random_deal_number)()
        game = engine.Game(deal=deal, rules=settings_rules(store.settings))  # the ruleset last chosen
    ctrl = Controller(game, rand_deal, has_sound, store.stats, store.settings)
    sound.set_sound(ctrl.sound_on)
    sound.set_lights(ctrl.lights_on)
    display.auto_refresh = False  # before the screen exists: no half-built frame is ever shown
    from sultan.ui import build  # the screen's making, once: then its code goes

    screen = build.screen(display)
    forget("sultan.ui.build")
    text = store.take_message()  # damage found at load
    if text:
        if ctrl.lang != words.EN:
            text = words.TEXT[TEXT_SAVE_DAMAGED]  # the store's news is in English
        elif len(text) > screen.cols:
            text = store.short_message
        ctrl.say(text)
    screen.update(ctrl)
    display.refresh()  # one refresh: the screen keeps what starts hidden off the screen, so the
    # first key redraws only what it changes (see sultan.ui.screen)
    return ctrl, screen
