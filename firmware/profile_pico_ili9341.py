"""Raspberry Pi Pico as wired in diagram.json (Wokwi): ILI9341 320x240 on SPI0, buttons on a 74HC165.

The 74HC165's inputs are wired D0=LEFT D1=UP D2=DOWN D3=RIGHT D4=SELECT D5=START D6=A D7=B, so that
``keypad.ShiftRegisterKeys`` numbers the keys as on the PyBadge (0=B 1=A 2=START 3=SELECT 4=RIGHT
5=DOWN 6=UP 7=LEFT).  host_tests check these pins against diagram.json's wires.
"""

import board
import busio
import displayio
import keypad

try:  # CircuitPython 9 and later
    from fourwire import FourWire
except ImportError:  # CircuitPython 8
    from displayio import FourWire  # type: ignore[attr-defined, no-redef]

import adafruit_ili9341

# SPI0 to the ILI9341
LCD_SCK = board.GP18
LCD_MOSI = board.GP19
LCD_MISO = board.GP16
LCD_CS = board.GP17
LCD_DC = board.GP21
LCD_RST = board.GP20
LCD_BAUDRATE = 24_000_000
# the 74HC165 (CE and DS tied to GND)
SR_PL = board.GP11  # parallel load (latch)
SR_CP = board.GP10  # clock
SR_Q7 = board.GP12  # serial out (data)


def make_display():  # -> adafruit_ili9341.ILI9341
    displayio.release_displays()
    spi = busio.SPI(clock=LCD_SCK, MOSI=LCD_MOSI, MISO=LCD_MISO)
    bus = FourWire(spi, command=LCD_DC, chip_select=LCD_CS, reset=LCD_RST, baudrate=LCD_BAUDRATE)
    # The driver's default (rotation 0) is landscape 320x240.  No auto refresh: displayio would
    # paint its terminal over the whole panel while the game loads (0.4 s at 320x240 on the Pico,
    # in the emulator); the game's first frame is the first thing drawn.
    return adafruit_ili9341.ILI9341(bus, width=320, height=240, auto_refresh=False)


def make_keys() -> keypad.ShiftRegisterKeys:
    return keypad.ShiftRegisterKeys(
        clock=SR_CP,
        data=SR_Q7,
        latch=SR_PL,
        key_count=8,
        value_when_pressed=True,
    )
