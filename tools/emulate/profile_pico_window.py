"""Test profile, emulator only: the Wokwi Pico board with its ILI9341 driven as a smaller window.

Not a board profile: ``tools/wokwi_image.py uf2 --size 160x128`` (``make emulate SIZE=160x128``)
puts it on the image's CIRCUITPY with a ``settings.toml`` naming it (``SULTAN_PROFILE``) and the
size (``SULTAN_SIZE``).  The Pico profile's ``make_display(160, 128)`` makes displayio draw into
the panel's top-left 160x128 (in the landscape picture), so ``sultan`` picks the PyBadge layout;
the emulator crops its screenshots to that window (``emulate.js --window 160x128``).  The pins,
the panel's commands, the keys and the sound are the Pico profile's: this file names none.
"""

import os

import profile_pico_ili9341 as pico

make_keys = pico.make_keys
make_sound = pico.make_sound  # the buzzer and NeoPixels, as the Pico's


def window():  # -> (width, height)
    text = str(os.getenv("SULTAN_SIZE") or "320x240")
    w, h = text.lower().split("x")
    return int(w), int(h)


def make_display():
    width, height = window()
    return pico.make_display(width, height)  # as the Pico's
