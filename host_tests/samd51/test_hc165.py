"""74HC165 on the PyBadge's pins, scanned through the real PORT as keypad.ShiftRegisterKeys (9.1.1) does:
latch high freezes, the first bit is out before any clock, a rising clock shifts, latch low loads again."""

import pytest
from fakes import PortMcu, gpio_out
from samd51.parts.hc165 import HC165, KEYS
from samd51.periph.port import IN, pin_number

LATCH, CLOCK, DATA = "PB00", "PB31", "PB30"


def data_in(mcu):
    n = pin_number(DATA)
    return (mcu.port.read(0x80 * (n // 32) + IN, 4) >> (n % 32)) & 1


def scan(mcu):
    """shiftregisterkeys_scan_now with value_to_latch=True: the pressed keys (value_when_pressed=True)."""
    gpio_out(mcu, LATCH, 1)
    pressed = []
    for key in range(8):
        gpio_out(mcu, CLOCK, 0)
        if data_in(mcu):
            pressed.append(key)
        gpio_out(mcu, CLOCK, 1)
    gpio_out(mcu, LATCH, 0)
    return pressed


@pytest.fixture
def rig():
    mcu = PortMcu()
    gpio_out(mcu, CLOCK, 0)                       # the constructor: clock low, latch high
    gpio_out(mcu, LATCH, 1)
    keys = HC165(mcu.port, pl=LATCH, cp=CLOCK, q7=DATA)
    gpio_out(mcu, LATCH, 0)
    return mcu, keys


def test_no_key_pressed_reads_nothing(rig):
    mcu, _ = rig
    assert scan(mcu) == []


@pytest.mark.parametrize("key", range(8))
def test_each_key_comes_out_as_its_own_number(rig, key):
    mcu, keys = rig
    keys.press(key)
    assert scan(mcu) == [key]
    keys.release(key)
    assert scan(mcu) == []


def test_names_and_several_at_once(rig):
    mcu, keys = rig
    keys.press("START")
    keys.press("LEFT")
    assert scan(mcu) == [KEYS.index("START"), KEYS.index("LEFT")] == [2, 7]
    assert keys.pressed() == ["START", "LEFT"]


def test_a_press_during_a_scan_waits_for_the_next_load(rig):
    mcu, keys = rig
    gpio_out(mcu, LATCH, 1)                       # frozen
    keys.press("A")
    assert not data_in(mcu)                       # key 0 (B) is what is out
    gpio_out(mcu, LATCH, 0)                       # load: now it is in
    assert scan(mcu) == [1]


def test_counts_loads_and_shifts(rig):
    mcu, keys = rig
    loads, shifts = keys.loads, keys.shifts
    scan(mcu)
    assert (keys.loads - loads, keys.shifts - shifts) == (1, 8)


def test_the_pygamers_four_buttons_come_out_first_and_others_are_refused():
    mcu = PortMcu()
    gpio_out(mcu, CLOCK, 0)
    gpio_out(mcu, LATCH, 1)
    keys = HC165(mcu.port, pl=LATCH, cp=CLOCK, q7=DATA, keys=("B", "A", "START", "SELECT"))
    gpio_out(mcu, LATCH, 0)
    keys.press("SELECT")
    keys.press(0)
    assert scan(mcu) == [0, 3] and keys.pressed() == ["B", "SELECT"]
    for bad in ("RIGHT", 4):
        with pytest.raises(ValueError, match="on this board"):
            keys.press(bad)
