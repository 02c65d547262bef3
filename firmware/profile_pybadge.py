"""Adafruit PyBadge / PyBadge LC / EdgeBadge: the built-in 160x128 ST7735R and eight buttons.

The buttons come through the board's 74HC165: key 0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.
``make_sound()`` gives ``sultan.ui.sound.Sound`` the speaker (DAC on A0, amplifier switched by
SPEAKER_ENABLE) and the five NeoPixels; the PyGamer has them on the same pins.
"""

import board
import digitalio
import keypad

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


def make_sound(speaker=board.SPEAKER, enable=board.SPEAKER_ENABLE, neopixel=board.NEOPIXEL):
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
