"""The badges' harness's parts that need no firmware: which image a board and a major pick, the console's
lines, the power cycles against the real samd51 classes (a tiny made-up firmware that spins), the PyGamer's
stick, the report and the CLI's refusals (the words themselves: test_keywords.py).  The game on the real
images: test_pybadge_emulator.py."""

import json
import os
import struct
import subprocess
import sys

import pytest

pytest.importorskip("unicorn")

from sultan_host.pybadge import image  # noqa: E402
from sultan_host.pybadge.console import Console  # noqa: E402


# -- which image -------------------------------------------------------------------------------------------
@pytest.fixture
def vendor(tmp_path, monkeypatch):
    """A vendor-local/ of made-up UF2 names (9.1.1 sorts after 10.2.1 as text), no PYBADGE_UF2 set."""
    for name in ("pybadge/adafruit-circuitpython-pybadge-en_US-9.1.1.uf2",
                 "pybadge/adafruit-circuitpython-pybadge-en_US-10.0.0.uf2",
                 "pybadge/adafruit-circuitpython-pybadge-en_US-10.2.1.uf2",
                 "pybadge/bootloader-arcade_pybadge-v3.15.0.bin",
                 "pygamer/adafruit-circuitpython-pygamer-en_US-10.2.1.uf2"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setattr(image, "VENDOR", str(tmp_path))
    monkeypatch.setattr(image, "SHARED", str(tmp_path / "shared"))
    for var in image.ENV.values():
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def test_the_image_is_picked_by_board_and_major_by_version_number(vendor, monkeypatch):
    name = lambda path: os.path.basename(path) if path else None  # noqa: E731
    assert name(image.firmware("pybadge")) == "adafruit-circuitpython-pybadge-en_US-10.2.1.uf2"
    assert name(image.firmware("pybadge", 10)) == "adafruit-circuitpython-pybadge-en_US-10.2.1.uf2"
    assert name(image.firmware("pybadge", 9)) == "adafruit-circuitpython-pybadge-en_US-9.1.1.uf2"
    assert name(image.firmware("pygamer")) == "adafruit-circuitpython-pygamer-en_US-10.2.1.uf2"
    assert image.firmware("pygamer", 9) is None
    assert "no pygamer CircuitPython 9.x UF2 in vendor-local/pygamer/" in image.missing("pygamer", 9)
    assert [(b, name(p)) for b, p in image.images()] == [
        ("pybadge", "adafruit-circuitpython-pybadge-en_US-9.1.1.uf2"),
        ("pybadge", "adafruit-circuitpython-pybadge-en_US-10.2.1.uf2"),
        ("pygamer", "adafruit-circuitpython-pygamer-en_US-10.2.1.uf2")]
    monkeypatch.setenv("PYBADGE_UF2", str(vendor / "pybadge/adafruit-circuitpython-pybadge-en_US-10.0.0.uf2"))
    assert name(image.firmware("pybadge", 9)).endswith("10.0.0.uf2")  # named outright: that one
    monkeypatch.setenv("PYBADGE_UF2", str(vendor / "none.uf2"))
    assert image.firmware("pybadge") is None and image.missing("pybadge").startswith("PYBADGE_UF2=")
    # a fresh clone: ../shared/firmware/<board>/ beside it, read where it is; vendor-local/ goes first
    shared = vendor / "shared" / "pygamer"
    shared.mkdir(parents=True)
    for v in ("10.2.1", "11.0.0"):
        (shared / ("adafruit-circuitpython-pygamer-en_US-%s.uf2" % v)).write_bytes(b"")
    assert image.firmware("pygamer") == str(shared / "adafruit-circuitpython-pygamer-en_US-11.0.0.uf2")
    assert image.firmware("pygamer", 10).startswith(str(vendor / "pygamer"))


def test_the_console_strips_the_title_and_finds_ready_and_key_lines():
    t = [0.0]

    class Panel:
        pixels_written = 0

    con = Console(lambda: t[0])
    con.boots = [{"boot": 0, "ready": None, "ready_ms": None}]
    panel = Panel()
    con.keys.append({"name": "A", "line": None, "line_ms": None, "pixels": None, "_panel": panel,
                     "_pixels": 0})
    con.hear(b"\x1b]0;\xf0\x9f\x90\x8dcode.py | 9.1.1\x1b\\SULTAN READY board=pybadge deal=7 mem_free=61000")
    t[0] = 1500.0
    con.hear(b" save=0\r\n")
    panel.pixels_written = 640
    t[0] = 2000.0
    con.hear("SULTAN key=A \u0410".encode()[:-1])  # a character split across two packets
    con.hear("SULTAN key=A \u0410".encode()[-1:] + b"\r\n")
    assert con.lines[0] == {"ms": 1500.0, "text": "SULTAN READY board=pybadge deal=7 mem_free=61000 save=0"}
    assert con.boots[0]["ready_ms"] == 1500.0
    assert con.keys[0]["line_ms"] == 2000.0 and con.keys[0]["pixels"] == 640
    assert con.lines[1]["text"] == "SULTAN key=A \u0410"
    assert con.take("SULTAN READY") and con.take("SULTAN key=A") and not con.take("SULTAN key=A")
    con.hear(b"Traceback (most recent call last):\r\n  File \"code.py\", line 1\r\nMemoryError: x\r\n")
    assert con.errors() == ["a MemoryError", "an exception: MemoryError: x"]


# -- the power cycles on the samd51 classes, with a firmware that only spins ---------------------------------
def spin_uf2(path):
    """A UF2 whose vector table at 0x4000 sends the reset handler into ``b .``."""
    payload = struct.pack("<II", 0x20010000, 0x4009) + b"\x00" * 0 + b"\xfe\xe7\xfe\xe7"  # 0x4008: b .
    payload = payload.ljust(256, b"\x00")
    block = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0, 0x4000, 256, 0, 1, 0) + payload
    block = block.ljust(508, b"\x00") + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(block)
    return str(path)


def nvm_command(m, cmd, addr):
    from samd51.periph import nvmctrl as N

    nvmctrl = m.mcu.peripheral("NVMCTRL")  # as the CPU's 32- and 16-bit stores reach it
    nvmctrl.write(N.ADDR, 4, addr)
    nvmctrl.write(N.CTRLB, 2, cmd | N.CMDEX_KEY << 8)


@pytest.fixture
def machine(tmp_path):
    from sultan_host.pybadge.machine import Machine

    heard = []
    m = Machine(spin_uf2(tmp_path / "spin.uf2"), b"\xa5" * 4096, heard.append, seed=3)
    return m


def test_on_the_pygamer_the_arrows_push_the_stick_and_the_buttons_go_through_the_165(tmp_path):
    from sultan_host.pybadge.machine import Machine

    m = Machine(spin_uf2(tmp_path / "spin.uf2"), b"\xa5" * 4096, [].append, board="pygamer")
    assert m.chip.part.name == "GD25Q64C" and m.board.flash is m.chip
    stick, keys = m.board.joystick, m.board.keys
    m.press("UP", True)
    assert stick.position() == pytest.approx((0.0, -1.0), abs=0.01) and keys.pressed() == []
    m.press("UP", False)
    m.press("RIGHT", True)
    assert stick.position() == pytest.approx((1.0, 0.0), abs=0.01)
    m.press("RIGHT", False)
    m.press("START", True)
    assert stick.position() == pytest.approx((0.0, 0.0), abs=0.01) and keys.pressed() == ["START"]
    m.power_cycle("RESET")
    assert m.board.flash is m.chip and m.chip.image()[:4] == b"\xa5" * 4


def test_a_cut_inside_the_nvm_erase_leaves_it_part_done_and_the_next_boot_has_those_bytes(machine):
    from samd51.periph import nvmctrl as N

    m = machine
    m.mcu.load_bin(image.NVM_ADDR, b"\x00" * image.NVM_LEN)  # a block of programmed bytes
    m.run_ms(5)
    nvm_command(m, N.CMD_EB, image.NVM_ADDR)
    assert m.writes == 1
    m.run_ms(25)  # half of the 50 ms erase
    first_mcu = m.mcu
    cut = m.power_cycle("CUT")
    assert m.mcu is not first_mcu and len(m.boots) == 2 and m.boots[1]["cause"] == "CUT"
    assert cut["nvm"]["during"] == "erase_block" and 0.4 < cut["nvm"]["progress"] < 0.6
    assert abs(m.boots[1]["at_ms"] - 30.0) < 0.1 and abs(m.now_ms() - 30.0) < 0.1  # one timeline
    kept = m.nvm_bytes()
    erased_bits = sum(bin(b).count("1") for b in kept)
    assert 0.3 < erased_bits / (8 * len(kept)) < 0.7  # about half the bits erased, seeded
    assert kept == first_mcu.mem_read(image.NVM_ADDR, image.NVM_LEN)
    ops = m.nvm_report()["ops"]
    assert [o["op"] for o in ops] == ["erase_block"] and ops[0]["cut_ms"] == pytest.approx(30.0, abs=0.1)


def test_a_reset_keeps_the_nvm_and_the_flash_chip(machine):
    from samd51.periph import nvmctrl as N

    m = machine
    m.run_ms(1)
    nvm_command(m, N.CMD_EB, image.NVM_ADDR)
    m.run_ms(60)  # the erase done
    m.mcu.peripheral("NVMCTRL").flash_store(image.NVM_ADDR, 4, 0x12345678)
    nvm_command(m, N.CMD_WP, image.NVM_ADDR)
    m.run_ms(2)
    chip = m.chip
    m.power_cycle("RESET")
    assert m.chip is chip and m.mcu.peripheral("QSPI").chip is chip and chip.image()[:4] == b"\xa5" * 4
    assert m.nvm_bytes()[:8] == b"\x78\x56\x34\x12\xff\xff\xff\xff"
    assert [o["op"] for o in m.nvm_report()["ops"]] == ["erase_block", "write_page"]
    assert m.cuts[0]["nvm"]["during"] is None and m.cuts[0]["kind"] == "RESET"


def test_cut_at_write_stops_the_cpu_where_the_write_starts(machine):
    from samd51.periph import nvmctrl as N

    m = machine
    m.mcu.at(7_000_000, lambda: nvm_command(m, N.CMD_EB, image.NVM_ADDR))  # the "firmware" erases at 7 ms
    assert m.run_ms(100, until_write=True) == "write"
    assert m.last_write_ms == pytest.approx(7.0, abs=0.01)
    assert m.now_ms() < 20  # (a stop from an event, not a CPU store, still lets one slice run: < 5 ms)
    assert m.run_ms(1, until_write=True) is None  # no other write: the whole ms runs


def test_the_report_has_the_picos_fields_and_the_pybadges(machine, tmp_path):
    from sultan_host.pybadge import report
    from sultan_host.pybadge.runner import Runner

    m = machine
    con = Console(m.now_ms)
    con.boots = m.boots
    runner = Runner(m, con, str(tmp_path))
    runner.set_key("A", True, {"key": "A"})
    m.run_ms(30)
    runner.set_key("A", False)
    runner.power_off("RESET")
    runner.shoot("01-A.png")

    class Opts:
        uf2 = "x.uf2"

    r = json.loads(json.dumps(report.build(m, con, runner, Opts, 0.0)))
    for field in ("sim_ms", "pixels", "ready", "keys", "neopixels", "flash", "lines", "dac", "backlight",
                  "nvm"):
        assert field in r, field
    assert r["keys"][0]["name"] == "A" and r["keys"][0]["lost"] is True and "_panel" not in r["keys"][0]
    assert [b["cause"] for b in r["flash"]["boots"]] == ["power-on", "RESET"]
    assert r["flash"]["cuts"][0]["kind"] == "RESET"
    from PIL import Image

    with Image.open(tmp_path / "01-A.png") as img:
        assert img.size == (160, 128)


# -- the CLI's refusals --------------------------------------------------------------------------------------
def cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "sultan_host.pybadge", *args], capture_output=True,
                          text=True, env=dict(os.environ, **(env or {})), timeout=120)


def test_the_cli_refuses_bad_arguments_in_one_line(tmp_path):
    fw = spin_uf2(tmp_path / "spin.uf2")
    cases = [
        (("--uf2", str(tmp_path / "none.uf2")), "no such file"),
        (("--uf2", fw, "--key-ms", "10"), "keypad scans every 20 ms"),
        (("--uf2", fw, "--seed", "x"), "not a count"),
        (("--uf2", fw, "--tree", str(tmp_path), "--deal", "3"), "--deal goes into the tree"),
        (("--uf2", fw, "--flash-in", fw), "want a 2 or 8 MB flash image"),
        (("--uf2", fw, "--cp", "10"), "give one of them"),
        (("--board", "gameboy",), "invalid choice"),
        (("--uf2", fw, "--tree", str(tmp_path), "--keys", "RIGHT FOO"), "unknown key FOO"),
    ]
    for args, why in cases:
        p = cli(*args)
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.count("\n") == 1 and why in p.stderr and "Traceback" not in p.stderr, (args, p.stderr)


def test_without_firmware_the_cli_says_where_to_put_it(tmp_path):
    p = cli("--keys", "A", env={"PYBADGE_UF2": str(tmp_path / "missing.uf2")})
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "PYBADGE_UF2=" in p.stderr


@pytest.mark.parametrize("args, line", [
    (["BOARD=pybadge"], "make emulate: no CircuitPython 10.x UF2 for the pybadge in vendor-local/pybadge/"),
    (["BOARD=pybadge", "CP=9"], "make emulate: no CircuitPython 9.x UF2 for the pybadge in vendor-local/"),
    (["BOARD=pygamer"], "make emulate: no CircuitPython 10.x UF2 for the pygamer in vendor-local/pygamer/"),
    (["BOARD=pybadge", "PYBADGE_UF2=x.uf2"], "make emulate: PYBADGE_UF2=x.uf2: no such file"),
    (["BOARD=pygamer", "PYGAMER_UF2=Makefile", "COMPARE=1"], 'usage: make emulate COMPARE=1 DEAL=n KEYS='),
])
def test_make_emulate_on_a_badge_says_what_is_missing_before_installing(tmp_path, args, line):
    """A fresh clone (clones.clone: the tracked tree, no .venv): one line, exit 2, nothing built."""
    from clones import clone

    project = clone(str(tmp_path), venv=False)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MAKE", "PYBADGE", "PYGAMER", "CIRCUITPY", "CP"))}
    r = subprocess.run(["make", "--no-print-directory", "emulate", *args], cwd=project,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout.startswith(line) and len(r.stdout.splitlines()) == 1, r.stdout
    assert not os.path.exists(os.path.join(project, ".venv"))
    assert not os.path.exists(os.path.join(project, "build"))
