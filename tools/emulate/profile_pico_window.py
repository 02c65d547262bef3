"""Test profile, emulator only: the Wokwi Pico board with its ILI9341 driven as a smaller window.

Not a board profile: ``tools/wokwi_image.py uf2 --size 160x128`` (``make emulate SIZE=160x128``)
puts it on the image's CIRCUITPY with a ``settings.toml`` naming it (``SULTAN_PROFILE``) and the
size (``SULTAN_SIZE``).  ``adafruit_ili9341.ILI9341(width=160, height=128)`` makes displayio draw
into the panel's top-left 160x128 (in the landscape picture), so ``sultan`` picks the PyBadge
layout; the emulator crops its screenshots to that window (``emulate.js --window 160x128``).
The pins and the keys are the Pico profile's: this file names none.
"""

import os

import busio
import displayio
import profile_pico_ili9341 as pico

make_keys = pico.make_keys


def window():  # -> (width, height)
    text = str(os.getenv("SULTAN_SIZE") or "320x240")
    w, h = text.lower().split("x")
    return int(w), int(h)


def make_display():
    width, height = window()
    displayio.release_displays()
    spi = busio.SPI(clock=pico.LCD_SCK, MOSI=pico.LCD_MOSI, MISO=pico.LCD_MISO)
    bus = pico.FourWire(
        spi, command=pico.LCD_DC, chip_select=pico.LCD_CS, reset=pico.LCD_RST, baudrate=pico.LCD_BAUDRATE
    )
    return pico.adafruit_ili9341.ILI9341(bus, width=width, height=height, auto_refresh=False)  # as the Pico's
