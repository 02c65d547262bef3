"""The Wokwi board (diagram.json, wokwi.toml, the scenario) against the facts, and against the Pico profile.

Valid part types and pin names are facts of the Wokwi parts; the Pico profile's pins must be the
ones diagram.json wires, and the scenario may press only buttons that exist, long enough for keypad's
20 ms scan.
"""

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import types

import pytest
from runners import ROOT, emulate_deps

DIAGRAM = os.path.join(ROOT, "diagram.json")
SCENARIO = os.path.join(ROOT, "wokwi", "scenario.yaml")
FIRMWARE = os.path.join(ROOT, "firmware")
PICO_PROFILE = os.path.join(FIRMWARE, "profile_pico_ili9341.py")

PICO_PINS = (
    {"GP%d" % i for i in range(23)}
    | {"GP26", "GP27", "GP28"}
    | {"GND.%d" % i for i in range(1, 9)}
    | {"3V3", "VBUS", "VSYS", "3V3_EN", "ADC_VREF", "RUN"}
)
VALID_PINS = {
    "wokwi-pi-pico": PICO_PINS,
    "wokwi-ili9341": {"VCC", "GND", "CS", "RST", "D/C", "MOSI", "SCK", "LED", "MISO"},
    "wokwi-74hc165": {"PL", "CP", "Q7", "Q7_N", "DS", "CE", "GND", "VCC"} | {"D%d" % i for i in range(8)},
    "wokwi-pushbutton": {"1.l", "2.l", "1.r", "2.r"},
    "wokwi-resistor": {"1", "2"},
    "wokwi-buzzer": {"1", "2"},  # 1 negative, 2 positive (docs.wokwi.com/parts/wokwi-buzzer)
    # chained DOUT to DIN (docs.wokwi.com/parts/wokwi-neopixel)
    "wokwi-neopixel": {"VDD", "DOUT", "VSS", "DIN"},
}
# keypad key numbers as on the PyBadge, and the 74HC165 input each button must drive
KEY_NAMES = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")
BUTTON_INPUT = {"LEFT": 0, "UP": 1, "DOWN": 2, "RIGHT": 3, "SELECT": 4, "START": 5, "A": 6, "B": 7}


def load_diagram():
    with open(DIAGRAM) as f:
        return json.load(f)


class Nets:
    """diagram.json's connections as nets (union-find); each pushbutton side is one conductor."""

    def __init__(self, diagram):
        self.parent = {}
        for conn in diagram["connections"]:
            self.union(conn[0], conn[1])
        for p in diagram["parts"]:
            if p["type"] == "wokwi-pushbutton":
                self.union(p["id"] + ":1.l", p["id"] + ":1.r")
                self.union(p["id"] + ":2.l", p["id"] + ":2.r")

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            x = self.parent[x]
        return x

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)

    def net(self, endpoint):
        root = self.find(endpoint)
        return {k for k in list(self.parent) if self.find(k) == root}

    def pico(self, endpoint):
        """The Pico pins on ``endpoint``'s net."""
        return {m.split(":", 1)[1] for m in self.net(endpoint) if m.startswith("pico:")}


def parts_by_type(diagram, type_):
    return [p for p in diagram["parts"] if p["type"] == type_]


def test_diagram_parts_and_pins_are_valid():
    d = load_diagram()
    ids = {}
    for p in d["parts"]:
        assert p["type"] in VALID_PINS, "unknown part type %s" % p["type"]
        assert p["id"] not in ids, "duplicate part id %s" % p["id"]
        ids[p["id"]] = p["type"]
    assert len(d["connections"]) > 0
    for conn in d["connections"]:
        assert len(conn) == 4 and isinstance(conn[2], str) and isinstance(conn[3], list), conn
        for end in conn[:2]:
            part, _, pin = end.partition(":")
            assert part in ids, "%s: no part %s" % (conn, part)
            assert pin in VALID_PINS[ids[part]], "%s: %s has no pin %r" % (conn, ids[part], pin)


def test_diagram_parts_as_the_issue_says():
    d = load_diagram()
    (pico,) = parts_by_type(d, "wokwi-pi-pico")
    assert pico["id"] == "pico" and pico["attrs"]["env"] == "circuitpython-8.2.7"
    assert len(parts_by_type(d, "wokwi-ili9341")) == 1
    assert len(parts_by_type(d, "wokwi-74hc165")) == 1
    buttons = parts_by_type(d, "wokwi-pushbutton")
    assert sorted(b["attrs"]["label"] for b in buttons) == sorted(KEY_NAMES)
    keys = [b["attrs"]["key"] for b in buttons]
    assert len(set(keys)) == 8 and all(keys)
    assert all(b["attrs"]["bounce"] == "0" for b in buttons)
    resistors = parts_by_type(d, "wokwi-resistor")
    assert len(resistors) == 8 and all(r["attrs"]["value"] == "10000" for r in resistors)
    # what the PyBadge has: a speaker (a buzzer that plays what audiopwmio's PWM averages to) and five
    # NeoPixels
    (buzzer,) = parts_by_type(d, "wokwi-buzzer")
    assert buzzer["attrs"].get("mode") == "accurate"
    assert len(parts_by_type(d, "wokwi-neopixel")) == 5


def neopixel_chain(d, nets):
    """The NeoPixels' ids from the one whose DIN a Pico GPIO drives, each DOUT to the next DIN."""
    ids = {p["id"] for p in parts_by_type(d, "wokwi-neopixel")}
    (first,) = [i for i in ids if any(pin.startswith("GP") for pin in nets.pico(i + ":DIN"))]
    chain = [first]
    while True:
        nxt = [m.split(":")[0] for m in nets.net(chain[-1] + ":DOUT")
               if m.endswith(":DIN") and m.split(":")[0] in ids]
        if len(nxt) != 1 or nxt[0] in chain:
            return chain
        chain.append(nxt[0])


def test_diagram_wiring():
    d = load_diagram()
    nets = Nets(d)
    (lcd,) = parts_by_type(d, "wokwi-ili9341")
    (sr,) = parts_by_type(d, "wokwi-74hc165")
    want_lcd = {"SCK": "GP18", "MOSI": "GP19", "MISO": "GP16", "CS": "GP17", "D/C": "GP21", "RST": "GP20",
                "LED": "GP13"}
    for pin, gp in want_lcd.items():
        assert nets.pico(lcd["id"] + ":" + pin) == {gp}, pin
    assert nets.pico(lcd["id"] + ":VCC") == {"3V3"}
    assert nets.pico(lcd["id"] + ":GND") <= {"GND.%d" % i for i in range(1, 9)}
    for pin, gp in {"PL": "GP11", "CP": "GP10", "Q7": "GP12"}.items():
        assert nets.pico(sr["id"] + ":" + pin) == {gp}, pin
    grounds = {"GND.%d" % i for i in range(1, 9)}
    for pin in ("CE", "DS", "GND"):
        got = nets.pico(sr["id"] + ":" + pin)
        assert got and got <= grounds, pin
    assert nets.pico(sr["id"] + ":VCC") == {"3V3"}
    # each button: one side to 3V3, the other to its 74HC165 input, which has a 10k pull-down to GND
    for b in parts_by_type(d, "wokwi-pushbutton"):
        label = b["attrs"]["label"]
        sides = [nets.net(b["id"] + ":1.l"), nets.net(b["id"] + ":2.l")]
        high = [s for s in sides if "pico:3V3" in s]
        data = [s for s in sides if sr["id"] + ":D%d" % BUTTON_INPUT[label] in s]
        assert len(high) == 1 and len(data) == 1 and high[0] is not data[0], label
        pulls = [m for m in data[0] if m.split(":")[0].startswith("r")]
        assert len(pulls) == 1, "%s: want one pull-down on D%d" % (label, BUTTON_INPUT[label])
        rid, rpin = pulls[0].split(":")
        other = nets.pico(rid + ":" + ("2" if rpin == "1" else "1"))
        assert other and other <= grounds, "%s: pull-down not to GND" % label
        assert not (nets.pico(b["id"] + ":1.l") & nets.pico(b["id"] + ":2.l")), "%s shorted" % label
    # the buzzer between GP15 and GND; five NeoPixels in one chain from GP22, each fed from 3V3 and GND
    (bz,) = parts_by_type(d, "wokwi-buzzer")
    assert nets.pico(bz["id"] + ":2") == {"GP15"}
    assert nets.pico(bz["id"] + ":1") and nets.pico(bz["id"] + ":1") <= grounds
    chain = neopixel_chain(d, nets)
    assert len(chain) == 5 and nets.pico(chain[0] + ":DIN") == {"GP22"}
    assert not nets.pico(chain[-1] + ":DOUT"), "the last NeoPixel's DOUT goes nowhere"
    for px in chain:
        assert nets.pico(px + ":VDD") == {"3V3"}, px
        assert nets.pico(px + ":VSS") and nets.pico(px + ":VSS") <= grounds, px


def profile_pins(path):
    """{name: 'GPn'} of ``name = board.GPn`` assignments in a profile (``a, b = board.GPn, board.GPm``
    too), in its functions too."""
    with open(path) as f:
        tree = ast.parse(f.read())
    pins = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            pairs = zip(target.elts, value.elts)
        else:
            pairs = [(target, value)]
        for name, pin in pairs:
            if (
                isinstance(name, ast.Name)
                and isinstance(pin, ast.Attribute)
                and isinstance(pin.value, ast.Name)
                and pin.value.id == "board"
            ):
                pins[name.id] = pin.attr
    return pins


def test_pico_profile_pins_are_the_diagram_wires():
    d = load_diagram()
    nets = Nets(d)
    lcd = parts_by_type(d, "wokwi-ili9341")[0]["id"]
    sr = parts_by_type(d, "wokwi-74hc165")[0]["id"]
    buzzer = parts_by_type(d, "wokwi-buzzer")[0]["id"]
    where = {
        "sck": lcd + ":SCK",
        "mosi": lcd + ":MOSI",
        "miso": lcd + ":MISO",
        "cs": lcd + ":CS",
        "dc": lcd + ":D/C",
        "rst": lcd + ":RST",
        "led": lcd + ":LED",
        "pl": sr + ":PL",
        "cp": sr + ":CP",
        "q7": sr + ":Q7",
        "buzzer": buzzer + ":2",
        "neopixel": neopixel_chain(d, nets)[0] + ":DIN",
    }
    pins = profile_pins(PICO_PROFILE)
    assert set(pins) == set(where), "profile pins changed: update this test and diagram.json together"
    for name, endpoint in where.items():
        assert nets.pico(endpoint) == {pins[name]}, "%s = board.%s but diagram.json wires %s to %s" % (
            name,
            pins[name],
            endpoint,
            nets.pico(endpoint),
        )


def test_pins_appear_only_in_profiles():
    fw = os.path.join(ROOT, "firmware")
    pin = re.compile(r"\bboard\.(GP\d+|BUTTON_\w+|JOYSTICK_\w+|D\d+|A\d+|SCK|MOSI|MISO|TFT_\w+)\b")
    for fn in os.listdir(fw):
        if fn.endswith(".py") and not fn.startswith("profile_"):
            with open(os.path.join(fw, fn)) as f:
                assert not pin.search(f.read()), "%s names a pin: pins belong in a profile" % fn
    for dirpath, _d, files in os.walk(os.path.join(ROOT, "lib")):
        for fn in files:
            if fn.endswith(".py"):
                with open(os.path.join(dirpath, fn)) as f:
                    assert not pin.search(f.read()), "lib/%s names a pin" % fn


def test_launch_knows_a_profile_per_board():
    with open(os.path.join(ROOT, "firmware", "launch.py")) as f:
        tree = ast.parse(f.read())
    profiles = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "PROFILES":
            profiles = ast.literal_eval(node.value)
    assert profiles and {"pybadge", "raspberry_pi_pico"} <= set(profiles)
    for module in profiles.values():
        assert os.path.isfile(os.path.join(ROOT, "firmware", module + ".py")), module


def stand_in(name, attr):
    """A module ``name`` whose every attribute is ``attr(its name)`` (dunders are not there)."""
    mod = types.ModuleType(name)

    def get(n):
        if n.startswith("__"):
            raise AttributeError(n)
        return attr(n)

    mod.__getattr__ = get
    return mod


def firmware_module(monkeypatch, name):
    """``import name`` from firmware/, the folder that is CIRCUITPY's root on a board, over stand-ins
    for the board's own modules (a pin is its name: ``board.GP15`` is "GP15"); gone after the test."""
    monkeypatch.syspath_prepend(FIRMWARE)
    monkeypatch.setitem(sys.modules, "board", stand_in("board", str))
    for hw in ("busio", "keypad", "busdisplay", "fourwire", "displayio"):
        monkeypatch.setitem(sys.modules, hw, stand_in(hw, lambda n: type(n, (), {})))
    monkeypatch.delitem(sys.modules, name, raising=False)
    mod = importlib.import_module(name)
    monkeypatch.setitem(sys.modules, name, mod)
    return mod


def test_launch_sound_is_optional_and_never_fatal(capsys, monkeypatch):
    """launch hands app.run the profile's make_sound() where there is one; a failing one means silence."""
    with open(os.path.join(ROOT, "firmware", "launch.py")) as f:
        tree = ast.parse(f.read())
    ns = vars(firmware_module(monkeypatch, "launch"))

    class Pico:  # no make_sound
        pass

    class Broken:
        @staticmethod
        def make_sound():
            raise RuntimeError("DAC in use")

    class Badge:
        @staticmethod
        def make_sound():
            return "the Sound"

    assert ns["make_sound"](Pico) is None
    assert ns["make_sound"](Broken) is None and "SULTAN no sound: DAC in use" in capsys.readouterr().out
    assert ns["make_sound"](Badge) == "the Sound"
    parts = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "parts")
    assert "make_sound(profile)" in ast.unparse(parts)
    with open(os.path.join(ROOT, "firmware", "code.py")) as f:
        code = ast.parse(f.read())
    runs = [c for c in ast.walk(code) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "run"]
    assert len(runs) == 1 and "sound" in [k.arg for k in runs[0].keywords]


def test_launch_hands_the_game_the_keys_scan_except_where_reset_reports_no_press(monkeypatch):
    """keypad's reset() scans at once; on 9.1.0 to 9.2.0 it reports the keys not down as released and a
    key down not at all (debounce counters set to pressed; fixed in 9.2.1), so there the passes poll."""
    import types

    key_scan = vars(firmware_module(monkeypatch, "launch"))["key_scan"]

    class Keys:
        def reset(self):
            pass

    keys = Keys()
    for version, scans in (((8, 2, 7), True), ((9, 0, 5), True), ((9, 1, 0), False), ((9, 1, 1), False),
                           ((9, 2, 0), False), ((9, 2, 1), True), ((10, 2, 1), True)):
        monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(version=version))
        assert (key_scan(keys) == keys.reset) is scans, version
    assert key_scan(object()) is None  # keys with no reset: the passes poll
    with open(os.path.join(ROOT, "firmware", "code.py")) as f:
        code = ast.parse(f.read())
    runs = [c for c in ast.walk(code) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "run"]
    assert "scan" in [k.arg for k in runs[0].keywords]


class Heard:
    """A Sound's stand-in that writes down its calls."""

    def __init__(self):
        self.calls = []

    def event(self, name):
        self.calls.append(name)

    def update(self, idle=True):
        self.calls.append("update")

    def set_sound(self, on):
        self.calls.append("sound %s" % on)

    def set_lights(self, on):
        self.calls.append("lights %s" % on)


def test_pico_sound_is_made_at_the_first_event_not_before_ready(monkeypatch, capsys):
    """The Pico's make_sound() gives a sultan.app.Silent (app.start: has_sound False, the menu as the host
    draws it; nothing made before READY); its first event leaves the making of the Sound to the main
    loop's next update(), which plays that event; then the Sound has every event and update.  One that
    can't be had leaves it silent for good."""
    from sultan import app
    from sultan.ui import sound

    ns = vars(firmware_module(monkeypatch, "profile_pico_ili9341"))
    made = []
    monkeypatch.setattr(sound, "wake", lambda *pins: made.append(pins) or Heard())
    s = ns["make_sound"]()
    assert isinstance(s, app.Silent) and not hasattr(s, "switches")
    s.set_sound(False)  # no switches: both stay on
    s.update()
    s.event("place")
    assert made == []  # the key's frame first
    s.update()
    assert made == [("GP15", "GP22")] and s.sound.calls == ["place"]
    s.event("win")
    s.update()
    assert made == [("GP15", "GP22")] and s.sound.calls == ["place", "win", "update"]
    monkeypatch.setattr(sound, "wake", lambda *pins: made.append(pins))  # no Sound to be had
    s = ns["make_sound"]()
    s.event("place")
    s.update()
    s.event("win")
    s.update()
    assert len(made) == 2  # tried once, then silent


def test_pybadge_sound_is_made_at_the_first_event_with_the_switches_it_was_given(monkeypatch, capsys):
    """The PyBadge's make_sound() gives a sultan.app.Silent with switches (the menu shows Sound and
    Lights, as for a Sound): the saved switches reach the Sound when it is made, at the first event
    that would sound or light; with both off nothing is made; a failing one is said, and silence."""
    from sultan import app

    mod = firmware_module(monkeypatch, "profile_pybadge")
    made = []
    monkeypatch.setattr(mod, "sound_now", lambda: made.append(1) or Heard())
    s = mod.make_sound()
    assert isinstance(s, app.Silent) and s.switches
    s.set_sound(False)
    s.set_lights(False)
    s.event("place")
    s.update()
    assert made == []  # both off: a Sound would do nothing
    s.set_lights(True)
    s.event("win")
    assert made == []
    s.update()
    assert made == [1] and s.sound.calls == ["sound False", "lights True", "win"]
    s.set_sound(True)
    s.event("place")
    assert s.sound.calls[3:] == ["sound True", "place"]

    def broken():
        raise RuntimeError("DAC in use")

    monkeypatch.setattr(mod, "sound_now", broken)
    s = mod.make_sound()
    s.event("place")
    s.update()
    s.event("win")
    s.update()
    assert "SULTAN no sound: DAC in use" in capsys.readouterr().out and isinstance(s.sound, app.Silent)
    # in the game: the menu turns the sound off before any event; the refusal then makes the Sound
    monkeypatch.undo()  # the board's own modules again (the profile module is kept)
    from play_keys import menu_keys
    from sultan.rules import engine
    from sultan.ui.controller import Controller
    from sultan.ui.menu import M_SOUND
    from sultan_host.desktop.headless import HeadlessDisplay
    from sultan_host.scripted import ScriptedKeys

    made = []
    monkeypatch.setattr(mod, "sound_now", lambda: made.append(Heard()) or made[-1])
    script = [KEY_NAMES[k] for k in menu_keys(Controller(engine.Game(deal=7), sound=True), M_SOUND)]
    app.run(HeadlessDisplay(160, 128), ScriptedKeys(" ".join(script + ["A", "RIGHT", "A"])), deal=7,
            console=lambda t: None, idle=0, sound=mod.make_sound())
    assert len(made) == 1 and made[0].calls[:3] == ["sound False", "lights True", "refuse"]


def test_wokwi_toml():
    with open(os.path.join(ROOT, "wokwi.toml"), "rb") as f:
        cfg = tomllib.load(f)["wokwi"]
    assert cfg["version"] == 1
    assert isinstance(cfg["rfc2217ServerPort"], int)
    from sultan_host.board import wokwi as wokwi_image

    default_out = os.path.relpath(os.path.join(wokwi_image.ROOT, "build", "wokwi", "sultan.uf2"), ROOT)
    assert cfg["firmware"] == default_out.replace(os.sep, "/")


def node():
    exe = shutil.which("node")
    if not exe:
        pytest.skip("node is not installed")
    return exe


def scenario():
    """The Wokwi scenario as tools/emulate reads it (js-yaml: tools/emulate's npm packages first)."""
    exe = node()
    err = emulate_deps()
    assert err is None, err
    code = (
        "const {parseScenario}=require('./tools/emulate/lib/scenario');"
        "process.stdout.write(JSON.stringify(parseScenario(require('fs').readFileSync(%s,'utf8'))))"
        % json.dumps(SCENARIO)
    )
    out = subprocess.run([exe, "-e", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_scenario_is_valid():
    with open(SCENARIO) as f:
        text = f.read()
    assert re.search(r"^version: 1$", text, re.M) and re.search(r"^steps:$", text, re.M)
    s = scenario()
    assert s["version"] == 1 and s["name"]
    d = load_diagram()
    buttons = {b["id"]: b["attrs"]["label"] for b in parts_by_type(d, "wokwi-pushbutton")}
    lcd = parts_by_type(d, "wokwi-ili9341")[0]["id"]
    steps = s["steps"]
    assert steps[0] == {"wait-serial": "SULTAN READY"}
    held = None  # (button, ms held so far)
    last_release = None
    shots = 0
    for i, step in enumerate(steps):
        ((kind, arg),) = step.items()
        assert kind in ("wait-serial", "set-control", "delay", "take-screenshot"), kind
        if kind == "set-control":
            assert arg["part-id"] in buttons, "no button %s" % arg["part-id"]
            assert arg["control"] == "pressed" and arg["value"] in (0, 1)
            if arg["value"] == 1:
                assert held is None, "step %d: two buttons at once" % i
                held = [arg["part-id"], 0]
            else:
                assert held and held[0] == arg["part-id"], "step %d: release of a button not held" % i
                assert held[1] > 20, "step %d: press shorter than keypad's 20 ms scan" % i
                last_release = buttons[held[0]]
                held = None
        elif kind == "delay":
            m = re.fullmatch(r"(\d+)(ms|s)", arg)
            assert m, "delay needs units: %r" % arg
            if held:
                held[1] += int(m.group(1)) * (1000 if m.group(2) == "s" else 1)
        elif kind == "wait-serial":
            assert arg.startswith("SULTAN ")
            m = re.match(r"SULTAN key=(\w+)", arg)
            if m:
                assert m.group(1) in KEY_NAMES and m.group(1) == last_release, (
                    "step %d waits for a key not pressed" % i
                )
        else:
            assert arg["part-id"] == lcd and arg["save-to"].endswith(".png")
            shots += 1
    assert held is None and shots >= 2


def test_emulator_units():
    """The emulator's models (ILI9341, 74HC165, netlist, scenario parser, PNG, flash) under node's test runner
    (the flash's tests drive rp2040js's SSI: tools/emulate's npm packages first)."""
    err = emulate_deps()
    assert err is None, err
    proc = subprocess.run([node(), "--test", "tools/emulate/test/"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"^# fail 0$", proc.stdout, re.M)


def test_typecheck_catches_a_misspelt_api(tmp_path):
    """The device typecheck fails on a CircuitPython API that does not exist, or a pin the board lacks."""
    from sultan_host.board import typecheck as typecheck_device

    src = open(PICO_PROFILE).read()
    for bad in (
        src.replace("keypad.ShiftRegisterKeys(", "keypad.ShiftRegisterKey("),
        src.replace("board.GP12", "board.GP29"),
        src.replace("key_count=8", "keycount=8"),
    ):
        assert bad != src
        f = tmp_path / "profile_bad.py"
        f.write_text(bad)
        stub = typecheck_device.board_stub_dir("raspberry_pi_pico")
        env = dict(os.environ, MYPYPATH=stub)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                typecheck_device.CONFIG,
                "--cache-dir",
                str(tmp_path / "cache"),
                str(f),
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        assert proc.returncode == 1 and "error:" in proc.stdout, proc.stdout


def test_launch_test_settings(monkeypatch):
    """launch reads the emulator's test settings from settings.toml (os.getenv): a test profile,
    the deal, the memory trace; unset (every real board) changes nothing."""
    with open(os.path.join(ROOT, "firmware", "launch.py")) as f:
        tree = ast.parse(f.read())
    env = {"SULTAN_DEAL": 7, "SULTAN_SIZE": "160x128"}

    class FakeOs:
        @staticmethod
        def getenv(name):
            return env.get(name)

    launch = firmware_module(monkeypatch, "launch")
    monkeypatch.setattr(launch, "os", FakeOs)
    ns = vars(launch)
    assert ns["setting"]("SULTAN_DEAL") == "7" and ns["setting"]("SULTAN_PROFILE") is None
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "parts")
    names = {
        c.args[0].value
        for c in ast.walk(main)
        if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "setting"
    }
    assert names == {"SULTAN_PROFILE", "SULTAN_DEAL", "SULTAN_MEMTRACE"}
    with open(os.path.join(ROOT, "firmware", "code.py")) as f:
        code = ast.parse(f.read())
    run = next(c for c in ast.walk(code) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "run")
    assert "deal" in [k.arg for k in run.keywords]


def test_window_profile_is_a_test_profile_with_no_pins():
    """The emulator's 160x128 window profile lives in tools/emulate, never on a board's build, and takes
    its pins from the Pico profile."""
    path = os.path.join(ROOT, "tools", "emulate", "profile_pico_window.py")
    with open(path) as f:
        src = f.read()
    assert not re.search(r"\bboard\.", src), "pins belong in firmware/profile_*.py"
    assert "import profile_pico_ili9341 as pico" in src and "pico.make_display(width, height)" in src
    assert "def make_display" in src and "make_keys = pico.make_keys" in src
    assert not os.path.exists(os.path.join(ROOT, "firmware", "profile_pico_window.py"))
    for fn in ("code.py", "launch.py"):
        with open(os.path.join(ROOT, "firmware", fn)) as f:
            assert "profile_pico_window" not in f.read()


def test_one_heap_leaves_a_heap_that_never_grows_alone(monkeypatch):
    """CircuitPython 8 (and CPython, MicroPython) have one heap that never grows: one_heap takes
    nothing there, and never asks the collector."""
    ns = vars(firmware_module(monkeypatch, "launch"))

    class Untouched:
        def __getattr__(self, name):
            raise AssertionError("gc." + name + " called")

    monkeypatch.setitem(sys.modules, "gc", Untouched())
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(name="circuitpython", version=(8, 2, 7)))
    monkeypatch.setattr(sys.modules["board"], "board_id", "pybadge", raising=False)
    assert ns["one_heap"]() is None
    # nor on a board whose heap is ample (the Pico): its start-up keeps the 0.2 s
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(version=(10, 2, 1)))
    monkeypatch.setattr(sys.modules["board"], "board_id", "raspberry_pi_pico", raising=False)
    assert ns["one_heap"]() is None


def test_code_py_is_only_the_door():
    """code.py, the one file CircuitPython compiles from source at every start (80 ms on the Pico
    for the whole launcher), gets the parts from the compiled launcher, lets it go and plays."""
    with open(os.path.join(ROOT, "firmware", "code.py")) as f:
        src = f.read()
    tree = ast.parse(src)
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call)]
    assert [ast.unparse(c.func) for c in calls] == ["launch.one_heap", "launch.parts", "forget", "app.run"]
    assert 'forget("launch")' in src and "del launch" in src
    assert len(src.splitlines()) < 20
