# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Adafruit PyBadge / PyBadge LC / EdgeBadge: the built-in 160x128 ST7735R and eight buttons.

The buttons come through the board's 74HC165: key 0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.
``sound_now()`` gives ``sultan.ui.sound.Sound`` the speaker (DAC on A0, amplifier switched by
SPEAKER_ENABLE) and the five NeoPixels, at the first sound event (``make_sound``); the PyGamer has
them on the same pins.
"""

import board
import digitalio
import keypad
from sultan import app

NEOPIXELS = 5


def make_display():  # -> busdisplay.BusDisplay (displayio.Display before CircuitPython 9)
    """The display CircuitPython already set up for this board."""
    return board.DISPLAY


def make_keys() -> keypad.ShiftRegisterKeys:
    return keypad.ShiftRegisterKeys(
        clock=board.BUTTON_CLOCK,
        data=board.BUTTON_OUT,
        latch=board.BUTTON_LATCH,
        key_count=8,
        value_when_pressed=True,
        max_events=8,  # the game takes each key at once: 8, not 64, queued (~340 bytes of heap)
    )


class Switched(app.Silent):
    """``sultan.app.Silent(make)`` with the menu's Sound and Lights switches: kept until the Sound is
    made, and handed to it then; while both are off no event makes it."""

    switches = True
    sound_on = lights_on = True

    def __init__(self):
        super().__init__(self.made)

    def made(self):  # -> sultan.ui.sound.Sound | None
        try:
            s = sound_now()
        except Exception as e:  # a silent game is still a game
            print("SULTAN no sound:", e)
            return None
        s.set_sound(self.sound_on)
        s.set_lights(self.lights_on)
        return s

    def event(self, name=None):
        if self.sound_on or self.lights_on or self.sound is not None:
            super().event(name)

    def set_sound(self, on):
        if self.sound is None:
            self.sound_on = on
        else:
            self.sound.set_sound(on)

    def set_lights(self, on):
        if self.sound is None:
            self.lights_on = on
        else:
            self.sound.set_lights(on)


def make_sound() -> Switched:
    """The Sound (``sound_now``), made at the first sound event and not before READY (5.5 KB of heap,
    not made at all while sound and lights are both off)."""
    return Switched()


def sound_now(speaker=board.SPEAKER, enable=board.SPEAKER_ENABLE, neopixel=board.NEOPIXEL):
    """``sultan.ui.sound.Sound`` on this board's speaker and NeoPixels (silent if audio is missing)."""
    from sultan.ui.sound import Pixels, Sound  # Pixels: the strip over the built-in neopixel_write

    try:
        import audioio

        audio = audioio.AudioOut(speaker)
    except (ImportError, ValueError, RuntimeError):
        audio = None
    amp = digitalio.DigitalInOut(enable)
    amp.switch_to_output(value=False)
    return Sound(audio=audio, pixels=Pixels(neopixel, NEOPIXELS), enable=amp)
