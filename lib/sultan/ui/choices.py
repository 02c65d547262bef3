# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""What choosing a menu item does (``choose``): apart from ``sultan.ui.menu`` so that the menu's
first open loads only what showing it needs.  The controller imports it at the first choice, or
in a pause while the menu is up (``Controller.idle``), and keeps it."""

from sultan import forget
from sultan.rules import engine
from sultan.rules.table import TALON
from sultan.ui import words
from sultan.ui.lines import (
    MENU_TEXT_AUTO_OFF,
    MENU_TEXT_AUTO_ON,
    MENU_TEXT_COLOURS_FOUR,
    MENU_TEXT_COLOURS_TWO,
    MENU_TEXT_DIM_OFF,
    MENU_TEXT_DIM_ON,
    MENU_TEXT_HINT_PARK,
    MENU_TEXT_HINT_PLAY,
    MENU_TEXT_HINT_REDEAL,
    MENU_TEXT_HINT_TURN,
    MENU_TEXT_LANGUAGE,
    MENU_TEXT_LIGHTS_OFF,
    MENU_TEXT_LIGHTS_ON,
    MENU_TEXT_MOTION_OFF,
    MENU_TEXT_MOTION_ON,
    MENU_TEXT_NO_MOVES,
    MENU_TEXT_NO_SAFE_MOVE,
    MENU_TEXT_NO_WINNABLE,
    MENU_TEXT_RESET_DONE,
    MENU_TEXT_RULES_NEXT,
    MENU_TEXT_RULES_NOW,
    MENU_TEXT_RULES_SAME,
    MENU_TEXT_SOUND_OFF,
    MENU_TEXT_SOUND_ON,
)
from sultan.ui.menu import (
    M_AUTO,
    M_CHOOSE,
    M_COLOURS,
    M_DIM,
    M_HINT,
    M_LANGUAGE,
    M_LIGHTS,
    M_MOTION,
    M_NEW,
    M_REDO,
    M_RESET,
    M_RESTART,
    M_RULES,
    M_RULESET,
    M_SOUND,
    M_STATS,
    M_UNDO,
    M_WINNABLE,
)
from sultan.ui.modes import DEAL, RULES_PAGE, STATS_PAGE
from sultan.ui.switches import (
    S_DIM_OFF,
    S_FOUR_COLOUR,
    S_LIGHTS_OFF,
    S_MOTION_OFF,
    S_RULES,
    S_RULES_SHIFT,
    S_SOUND_OFF,
)


def _pick_winnable(r, rules):
    """A deal from the winnable table of ``rules`` picked by the int ``r`` (0: no table)."""
    try:
        from sultan.rules import winnable

        return winnable.random_deal(r, rules)
    except (ImportError, OSError, ValueError, MemoryError):
        return 0
    finally:
        forget("sultan.rules.winnable")


def _edit_deal(ctrl):
    """Open the digit editor at this deal's number (the controller forgets it when it closes)."""
    from sultan.ui.deal_editor import DealEditor

    ctrl.open(DEAL, DealEditor(ctrl.game.deal or 1))


def _tell(ctrl, i, c1=0, c2=0, hint=0):
    """Say line ``i`` of ``words.MENU_TEXT`` (ringing ``hint``'s places)."""
    ctrl.say(words.menu_text()[i], c1, c2, hint)


def _flip(ctrl, bit):
    """Turn over the switch of ``ctrl.settings()`` bit ``bit`` (S_SOUND_OFF ...)."""
    ctrl.apply_settings(ctrl.settings() ^ bit)


def choose(ctrl, item):
    """Do item ``item`` (an M_* number) on ``ctrl``, whose menu has just closed."""
    if item == M_NEW:
        ctrl.new_deal(ctrl.rand_deal())
    elif item == M_WINNABLE:
        d = _pick_winnable(ctrl.rand_deal(), ctrl.rules)  # 0: no table
        if d:
            ctrl.new_deal(d, winnable=True)  # picked from the table
        else:
            _tell(ctrl, MENU_TEXT_NO_WINNABLE)
    elif item == M_CHOOSE:
        _edit_deal(ctrl)
    elif item == M_RESTART:
        ctrl.restart()
    elif item == M_UNDO:
        ctrl.undo()
    elif item == M_REDO:
        ctrl.undo(redo=True)
    elif item == M_HINT:
        _hint(ctrl)
    elif item == M_AUTO:
        _tell(ctrl, MENU_TEXT_AUTO_OFF if ctrl.autoplay else MENU_TEXT_AUTO_ON)
        ctrl.set_autoplay(not ctrl.autoplay)
    elif item == M_RULESET:
        _next_ruleset(ctrl)
    elif item == M_STATS:
        ctrl.open(STATS_PAGE)
    elif item == M_SOUND:
        _flip(ctrl, S_SOUND_OFF)
        _tell(ctrl, MENU_TEXT_SOUND_ON if ctrl.sound_on else MENU_TEXT_SOUND_OFF)
    elif item == M_LIGHTS:
        _flip(ctrl, S_LIGHTS_OFF)
        _tell(ctrl, MENU_TEXT_LIGHTS_ON if ctrl.lights_on else MENU_TEXT_LIGHTS_OFF)
    elif item == M_MOTION:
        _flip(ctrl, S_MOTION_OFF)
        _tell(ctrl, MENU_TEXT_MOTION_ON if ctrl.motion_on else MENU_TEXT_MOTION_OFF)
    elif item == M_COLOURS:
        _flip(ctrl, S_FOUR_COLOUR)
        # an ace of diamonds and of clubs show the colours
        _tell(ctrl, MENU_TEXT_COLOURS_FOUR if ctrl.four_colour else MENU_TEXT_COLOURS_TWO, 0x21, 0x31)
    elif item == M_DIM:
        _flip(ctrl, S_DIM_OFF)
        _tell(ctrl, MENU_TEXT_DIM_ON if ctrl.dim_on else MENU_TEXT_DIM_OFF)
    elif item == M_LANGUAGE:
        ctrl.set_language(words.EN if ctrl.lang == words.RU else words.RU)
        _tell(ctrl, MENU_TEXT_LANGUAGE)
    elif item == M_RULES:
        ctrl.open(RULES_PAGE)
    elif item == M_RESET:
        if ctrl.stats is not None:
            ctrl.stats.reset()  # the game's own records only: the store writes one with none
        _tell(ctrl, MENU_TEXT_RESET_DONE)


def _next_ruleset(ctrl):
    """The next ruleset for new deals; a deal not yet touched is dealt again under it at once."""
    g = ctrl.game
    rules = (ctrl.rules + 1) % len(engine.RULES_NAMES)
    ctrl.apply_settings(ctrl.settings() & ~S_RULES | rules << S_RULES_SHIFT)
    name = words.ruleset_name(ctrl.rules)
    if not g.log_end and g.deal and g.rules != ctrl.rules:
        ctrl.new_deal(g.deal)  # nothing played yet: this deal, under the new rules
        ctrl.say(words.menu_text()[MENU_TEXT_RULES_NOW] % (name, g.deal))
    elif g.rules == ctrl.rules:
        ctrl.say(words.menu_text()[MENU_TEXT_RULES_SAME] % name)
    else:
        ctrl.say(words.menu_text()[MENU_TEXT_RULES_NEXT] % name)


def _hint(ctrl):
    """Put the engine's hint on show: the message says it, the screen rings its places.

    Only a move known to keep the deal winnable (``Game.safe_hint``: under classic rules, as
    far as the lookahead sees); else the message says none was found, and nothing is ringed.
    """
    g = ctrl.game
    h = g.safe_hint()
    if h == engine.NO_SAFE_MOVE:
        _tell(ctrl, MENU_TEXT_NO_SAFE_MOVE)
        return
    k = engine.hint_kind(h)
    if k == engine.A_PLAY:
        _tell(ctrl, MENU_TEXT_HINT_PLAY, g.card_at(engine.hint_place(h)),
              g.foundation_card(engine.hint_foundation(h)), h)
    elif k == engine.A_TURN:
        _tell(ctrl, MENU_TEXT_HINT_TURN, hint=h)
    elif k == engine.A_REDEAL:
        _tell(ctrl, MENU_TEXT_HINT_REDEAL, hint=h)
    elif k == engine.A_PARK:
        _tell(ctrl, MENU_TEXT_HINT_PARK, g.card_at(TALON), hint=h)
    else:
        _tell(ctrl, MENU_TEXT_NO_MOVES, hint=h)
