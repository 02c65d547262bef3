"""wokwi/scenario.yaml's pictures show what they are named: its keys, played on the host from a fresh
start of any deal, leave a card selected when 02-selected.png is taken, and one more card turned at
03-turned.png."""

import os

import pytest
from runners import ROOT
from sultan.rules.engine import Game
from sultan.ui import keys
from sultan.ui.controller import Controller
from sultan.ui.modes import PLAY

BUTTONS = {"btn" + n.capitalize(): getattr(keys, n) for n in keys.NAMES}


def steps():
    """("press", part) and ("shot", file) in the scenario's order (its few YAML shapes, read by line)."""
    out, part = [], None
    with open(os.path.join(ROOT, "wokwi", "scenario.yaml"), encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition(": ")
            if key == "part-id":
                part = value
            elif key == "value" and value == "1":
                out.append(("press", part))
            elif key == "save-to":
                out.append(("shot", value))
    return out


@pytest.mark.parametrize("deal", [1, 7, 8, 123456])
def test_each_screenshot_shows_its_name(deal):
    ctrl = Controller(Game(deal=deal))
    shots = {}
    for kind, what in steps():
        if kind == "press":
            ctrl.press(BUTTONS[what])
        else:
            shots[what] = (ctrl.selected, ctrl.game.talon_count, ctrl.message, ctrl.mode)
    assert list(shots) == ["01-ready.png", "02-selected.png", "03-turned.png"]
    assert shots["01-ready.png"][0] < 0 and shots["02-selected.png"][0] >= 0  # nothing, then a card selected
    assert shots["02-selected.png"][3] == PLAY and not shots["02-selected.png"][2]  # no refusal said
    assert shots["03-turned.png"][1] == shots["02-selected.png"][1] + 1  # START turned one card
