"""The real CircuitPython for the PyBadge (the default image) over the modelled USB: the host enumerates it,
opens its CDC console with DTR, reads a bare code.py's heap line, enters the REPL with Ctrl-C, runs a line
typed into it and soft-reloads with Ctrl-D. About 5 s simulated, a minute of host time (slow). Skips with one
reason without the firmware; SULTAN_EMULATOR=required makes that a failure."""

import re

import pytest
from pybadge_uf2 import firmware, missing
from sultan_host.board.wokwi import BARE_CODE

UF2 = firmware()
pytestmark = [pytest.mark.slow] if UF2 else [pytest.mark.slow, missing()]

class Console:
    def __init__(self, mcu):
        self.mcu = mcu
        self.text = ""

    def hear(self, data):
        self.text += bytes(data).decode("utf-8", "replace")

    def wait(self, pattern, start, within_ms):
        """Run until ``pattern`` shows after ``start`` in the console, at most ``within_ms`` simulated."""
        end = self.mcu.now_ns() + within_ms * 1_000_000
        while not re.search(pattern, self.text[start:]) and self.mcu.now_ns() < end:
            self.mcu.run(until_ns=min(end, self.mcu.now_ns() + 20_000_000))
        found = re.search(pattern, self.text[start:])
        assert found, "no %r within %d ms; the console: %r" % (pattern, within_ms, self.text[-400:])
        return found


def test_the_real_firmware_enumerates_and_its_console_answers(tmp_path):
    from samd51 import boards, fatimage
    from samd51.mcu import Mcu
    from samd51.usbhost import UsbHost

    mcu = Mcu(board=boards.load("pybadge"))
    mcu.load_uf2(UF2)
    (tmp_path / "code.py").write_text(BARE_CODE)
    mcu.board.load_flash(fatimage.flash_image(str(tmp_path)))
    con = Console(mcu)
    host = UsbHost(mcu, on_serial=con.hear)
    mcu.reset()
    bare = con.wait(r"SULTAN BARE heap=(\d+) mem_free=(\d+)", 0, 5000)
    assert host.device["product"] == "PyBadge" and host.device["vid"] == 0x239A
    assert host.cdc is not None and host.device["high_speed"] is False
    heap, free = int(bare.group(1)), int(bare.group(2))
    assert 100_000 < free <= heap < 192 * 1024          # the SAMD51J19's 192 KB RAM holds the heap
    print("bare heap %d, mem_free %d, DTR at %.1f ms" % (heap, free, host.opened_ns / 1e6))

    mark = len(con.text)
    host.write(b"\x03")                                  # any key: the REPL
    version = re.escape(re.search(r"-(\d+\.\d+\.\d+)\.uf2$", UF2).group(1))   # the image's own banner
    con.wait(r"Adafruit CircuitPython %s on [^\r\n]*Pybadge with samd51j19\r\n>>> " % version, mark, 1000)
    mark = len(con.text)
    host.write(b"print(6 * 7)\r")                         # bulk OUT, echoed and run
    con.wait(r"print\(6 \* 7\)\r\n42\r\n>>> ", mark, 1000)
    mark = len(con.text)
    host.write(b"\x04")                                  # Ctrl-D: soft reload runs code.py again
    con.wait(r"soft reboot[\s\S]*SULTAN BARE heap=", mark, 2000)


# The board on a charger: no host ever resets the bus, and code.py still runs. It says so on the red LED
# (PA23): high 200 ms after it starts, a 50 ms gap, then high for good.
BLINK = """import board, digitalio, time
led = digitalio.DigitalInOut(board.LED)
led.switch_to_output(False)
time.sleep(0.2)
led.value = True
time.sleep(0.05)
led.value = False
time.sleep(0.05)
led.value = True
while True:
    time.sleep(1)
"""


def test_with_no_host_the_firmware_still_runs_code_py(tmp_path):
    from samd51 import boards, fatimage
    from samd51.mcu import Mcu

    mcu = Mcu(board=boards.load("pybadge"))
    mcu.load_uf2(UF2)
    (tmp_path / "code.py").write_text(BLINK)
    mcu.board.load_flash(fatimage.flash_image(str(tmp_path)))
    mcu.reset()
    usb = mcu.peripheral("USB")
    edges = []
    mcu.port.on_change("PA23", lambda level: edges.append((mcu.now_ns(), level)))
    while mcu.now_ns() < 3_700_000_000:
        mcu.run(until_ns=min(3_700_000_000, mcu.now_ns() + 50_000_000))
    assert usb.attached() and usb.dadd == 0 and usb.fsmstate == 1   # pull-up on, never reset by a host
    enabled = next(ns for ns, kind, text in mcu.lines if kind == "usb" and "attached" in text)
    after = [(ns, level) for ns, level in edges if ns > enabled][-3:]   # (switch_to_output may drive it low)
    assert [level for _, level in after] == [1, 0, 1], edges
    assert 45e6 < after[1][0] - after[0][0] < 55e6 and 45e6 < after[2][0] - after[1][0] < 55e6
