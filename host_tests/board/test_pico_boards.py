"""Every Pico loads the Pico profile (launch.PROFILES): the Pico W, Pico 2 and Pico 2 W wired as the Pico.
Only the RP2040 Pico runs in tools/emulate (docs/firmware.md says where the others stand)."""

import ast
import os

from runners import ROOT

PICOS = ("raspberry_pi_pico", "raspberry_pi_pico_w", "raspberry_pi_pico2", "raspberry_pi_pico2_w")


def profiles():
    with open(os.path.join(ROOT, "firmware", "launch.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "PROFILES":
            return ast.literal_eval(node.value)
    raise AssertionError("launch.py has no PROFILES")


def test_every_pico_board_id_loads_the_pico_profile():
    got = profiles()
    assert {b: got.get(b) for b in PICOS} == {b: "profile_pico_ili9341" for b in PICOS}


def test_the_pico_profile_keeps_off_the_pico_ws_radio_pins():
    """The CYW43 of the W boards takes GPIO 23, 24, 25 and 29: the profile's pins are elsewhere."""
    with open(os.path.join(ROOT, "firmware", "profile_pico_ili9341.py"), encoding="utf-8") as f:
        src = f.read()
    pins = {int(n.attr[2:]) for n in ast.walk(ast.parse(src))
            if isinstance(n, ast.Attribute) and n.attr.startswith("GP") and n.attr[2:].isdigit()}
    assert len(pins) >= 10 and not pins & {23, 24, 25, 29}, sorted(pins)


def test_the_docs_say_which_picos_the_emulator_proves():
    with open(os.path.join(ROOT, "docs", "firmware.md"), encoding="utf-8") as f:
        text = f.read()
    for b in PICOS:
        assert "`%s`" % b in text, b
    assert "only the RP2040 Pico" in text
