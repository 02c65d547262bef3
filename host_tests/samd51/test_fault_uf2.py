"""A bus fault on the real firmware: CircuitPython's HardFault handler resets the chip into safe mode, and
after the reset its REPL says why (supervisor.runtime.safe_mode_reason). About 25 s of host time; skips with
one reason without the firmware."""

from pybadge_uf2 import firmware, missing

UF2 = firmware()
if UF2 is None:
    pytestmark = missing()

NOWHERE = 0x41400000
CODE = """import usb_cdc, time
while not usb_cdc.console.connected:
    time.sleep(0.01)
print('LOOPING')
while True:
    pass
"""


def booted(folder, code):
    """The PyBadge's CircuitPython with ``code`` as code.py, reset: (mcu, USB host, what the console said)."""
    from samd51 import boards, fatimage
    from samd51.mcu import Mcu
    from samd51.usbhost import UsbHost

    mcu = Mcu(board=boards.load("pybadge"))
    mcu.load_uf2(UF2)
    (folder / "code.py").write_text(code)
    mcu.board.load_flash(fatimage.flash_image(str(folder)))
    out = bytearray()
    host = UsbHost(mcu, on_serial=out.extend)
    mcu.reset()
    return mcu, host, out


def test_a_bus_fault_under_code_py_restarts_the_firmware_in_safe_mode(tmp_path):
    mcu, host, out = booted(tmp_path, CODE)
    while b"LOOPING" not in out and mcu.now_ns() < 10 ** 10:
        mcu.run(cycles=1_000_000)
    assert b"LOOPING" in out
    # The instruction under way reads from an address nothing decodes, as a stray pointer would.
    faults = mcu.nvic.faults
    faults.last_unmapped = NOWHERE
    faults.data_bus_error(mcu.pc())
    assert mcu.run(until_ns=mcu.now_ns() + 10 ** 9) == "SYSRESETREQ"   # the handler reset the chip
    assert [(exc, address) for exc, _bit, _pc, address in faults.taken] == [(3, NOWHERE)]
    mcu.reset()                                   # a warm reset: RAM keeps the safe-mode reason
    mcu.run(until_ns=mcu.now_ns() + 2 * 10 ** 9)
    host.write(b"\r")                             # "Press any key to enter the REPL"
    mcu.run(until_ns=mcu.now_ns() + 10 ** 9)
    host.write(b"import supervisor\r")
    mcu.run(until_ns=mcu.now_ns() + 5 * 10 ** 8)
    host.write(b"print(supervisor.runtime.safe_mode_reason)\r")
    mcu.run(until_ns=mcu.now_ns() + 10 ** 9)
    assert b"code.py" not in out.split(b"LOOPING")[1]          # safe mode: code.py did not run again
    assert b"SafeModeReason.HARD_FAULT" in out


IMPORT_STAR = """import usb_cdc, time, builtins
while not usb_cdc.console.connected:
    time.sleep(0.01)
class M:
    pass
builtins.__import__ = lambda *args: M
print('IMPORTING')
from math import *
"""


def test_import_star_of_a_class_reads_where_nothing_answers_and_the_firmware_takes_the_fault(tmp_path):
    # mp_import_all takes what __import__ returned for a module: a class's flags and name word becomes
    # `globals`, and the map's length is read 8 bytes past it, an address the SAMD51 does not decode.
    mcu, _host, out = booted(tmp_path, IMPORT_STAR)
    assert mcu.run(until_ns=6 * 10 ** 9) == "SYSRESETREQ"
    assert b"IMPORTING" in out
    [(exc, bit, _pc, address)] = mcu.nvic.faults.taken
    assert (exc, bit) == (3, 1 << 9)                 # HardFault from a precise data bus error
    assert 0x00808000 <= address < 0x03000000        # between the NVM rows and the CMCC window: nothing
