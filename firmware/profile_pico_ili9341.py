# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Raspberry Pi Pico as wired in diagram.json (Wokwi): ILI9341 320x240 on SPI0, buttons on a 74HC165.

The 74HC165's inputs are wired D0=LEFT D1=UP D2=DOWN D3=RIGHT D4=SELECT D5=START D6=A D7=B, so that
``keypad.ShiftRegisterKeys`` numbers the keys as on the PyBadge (0=B 1=A 2=START 3=SELECT 4=RIGHT
5=DOWN 6=UP 7=LEFT).  A buzzer and five NeoPixels play the PyBadge's tones and lights
(``make_sound``, from the first sound event on).  host_tests check these pins against diagram.json's wires.

The ILI9341 is driven without a driver library: ``BusDisplay`` with our own few commands (see
``Panel``).  What the ILI9341 datasheet asks after a hardware reset, and what we send:

* FourWire's constructor has just reset the panel (RST low 1 ms, then 1 ms high).  No command for
  5 ms after RST rises, and no Sleep Out (SLPOUT) for 120 ms; a reset during sleep-out (a soft
  reload of CircuitPython) also blanks the panel for up to 120 ms.  So nothing at all is sent until
  120 ms after the reset, and those 120 ms are not slept: the commands wait for the first refresh,
  which comes after the game's imports (about 0.5 s later), and sleep only what is left of them.
* SLPOUT (0x11), then 5 ms before the next command (the 120 ms after it only matter before a later
  Sleep In, which we never send); COLMOD (0x3A) 0x55: 16 bits a pixel; MADCTL (0x36) 0x38: MV (row
  and column exchange: landscape 320x240), ML and BGR, the byte adafruit_ili9341 sent (rotation 0).
* The first frame is written while the display is still off; DISPON (0x29) then shows it whole
  (no wait is asked after DISPON).
* No software reset (the RST pin did it), and none of the vendor power, VCOM, frame rate, gamma
  or display function registers adafruit_ili9341 set: their reset defaults are valid settings per
  the datasheet (and the panel's own VCOM trim is loaded from its NVM at reset).  If a real panel
  ever looks washed out, its vendor's gamma and power values go in ``Panel.INIT``.
"""

import time

import board
import busio
import displayio
import keypad
from sultan import const
from sultan.app import Silent

try:  # CircuitPython 9 and later
    from busdisplay import BusDisplay
    from fourwire import FourWire
except ImportError:  # CircuitPython 8
    from displayio import Display as BusDisplay  # type: ignore[attr-defined, no-redef]
    from displayio import FourWire  # type: ignore[attr-defined, no-redef]

# Each pin is named in the function that uses it: a module's names stay in the
# heap as long as it is loaded (160-224 bytes for these at READY), a function's locals do not.
# The SPI clock: the RP2040 gives the fastest rate not above the one asked, and 62.5 MHz
# (125 MHz / 2) is its fastest, the rate TFT_eSPI's RP2040 setups drive this panel at.  The
# ILI9341's datasheet asks a 100 ns write cycle (10 MHz), which every driver exceeds; the game
# only writes.  A full 320x240 frame is 150 KB: 59 ms of clock at 20.8 MHz (24 asked), 39 ms at
# 31.25 (40 asked), 20 ms at 62.5.  A real panel on long wires that shows noise wants 40_000_000.
LCD_BAUDRATE = const(62_500_000)
RESET_TO_SLPOUT_NS = const(120_000_000)  # the datasheet's wait from RST high to Sleep Out
DISPON = const(0x29)


class Panel(BusDisplay):
    """The ILI9341 as a ``BusDisplay`` that wakes the panel at its first refresh (see the module)."""

    # (command, data, ms to wait after it) sent before the first frame
    INIT = (
        (0x11, b"", 5),  # SLPOUT
        (0x3A, b"\x55", 0),  # COLMOD: 16 bits a pixel (RGB565)
        (0x36, b"\x38", 0),  # MADCTL: MV | ML | BGR, landscape
    )

    def __init__(self, bus, reset_ns, **kwargs) -> None:
        super().__init__(bus, b"", **kwargs)  # no init sequence: the panel is woken by refresh()
        self._reset_ns = reset_ns  # when RST went high; 0 once the panel is awake

    def refresh(self, *args, **kwargs) -> bool:
        if not self._reset_ns:
            return super().refresh(*args, **kwargs)
        bus = self.bus
        left = self._reset_ns + RESET_TO_SLPOUT_NS - time.monotonic_ns()
        if left > 0:
            time.sleep(left / 1e9)
        for command, data, ms in self.INIT:
            bus.send(command, data)
            if ms:
                time.sleep(ms / 1000)
        self._reset_ns = 0
        done = super().refresh(*args, **kwargs)
        bus.send(DISPON, b"")
        return done


def make_display(width: int = 320, height: int = 240) -> Panel:
    """The panel as ``width`` x ``height`` from its top-left corner (320x240 is all of it; the
    emulator's test profile asks for a window), rotation 0, no auto refresh: displayio would paint
    its terminal over the whole panel while the game loads (0.4 s at 320x240 on the Pico, in the
    emulator); the game's first frame is the first thing drawn."""
    sck, mosi, miso = board.GP18, board.GP19, board.GP16  # SPI0 to the ILI9341
    cs, dc, rst = board.GP17, board.GP21, board.GP20  # its chip select, data/command and reset
    # the backlight (the panel's LED pin): PWM slice 6, channel B, which nothing else uses (the buzzer
    # has slice 7).  BusDisplay drives it at 50 kHz and ``brightness`` sets its duty (sultan.app dims it).
    led = board.GP13
    displayio.release_displays()
    spi = busio.SPI(clock=sck, MOSI=mosi, MISO=miso)
    bus = FourWire(spi, command=dc, chip_select=cs, reset=rst, baudrate=LCD_BAUDRATE)
    return Panel(bus, time.monotonic_ns(), width=width, height=height, auto_refresh=False,
                 backlight_pin=led)


def make_keys() -> keypad.ShiftRegisterKeys:
    pl = board.GP11  # the 74HC165's parallel load (latch); its CE and DS tied to GND
    cp = board.GP10  # its clock
    q7 = board.GP12  # its serial out (data)
    return keypad.ShiftRegisterKeys(
        clock=cp,
        data=q7,
        latch=pl,
        key_count=8,
        value_when_pressed=True,
        max_events=8,  # the game takes each key at once: 8, not 64, queued (~340 bytes of heap)
    )


def sound_now():  # -> sultan.ui.sound.Sound | None
    """The buzzer and NeoPixels' Sound (``sultan.ui.sound.wake``), when ``make_sound``'s Silent asks."""
    from sultan.ui.sound import wake

    # what the PyBadge has: a speaker (here a piezo buzzer, its other pin to GND: audiopwmio's square
    # waves) and five NeoPixels (GP22 to the first WS2812's DIN, the five chained DOUT to DIN)
    buzzer = board.GP15
    neopixel = board.GP22
    return wake(buzzer, neopixel)


def make_sound():  # -> a sultan.app.Silent that sounds from its first event on
    """The buzzer and NeoPixels, made after the first sound event and not before READY: 10.2.1 has
    about 300 bytes to spare there at 320x240, and the Sound with its module and samples is some
    kilobytes.  No sound switches in the menu, as every host model of this board draws it, so the
    Sound starts with both on."""
    return Silent(sound_now)
