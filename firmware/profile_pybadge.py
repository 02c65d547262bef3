"""Adafruit PyBadge / PyBadge LC / EdgeBadge: the built-in 160x128 ST7735R and eight buttons.

The buttons come through the board's 74HC165: key 0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.
``make_sound()`` gives ``sultan.ui.sound.Sound`` the speaker (DAC on A0, amplifier switched by
SPEAKER_ENABLE) and the five NeoPixels; the PyGamer has them on the same pins.
"""

import board
import digitalio
import keypad
import neopixel_write

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


class Pixels:
    """The NeoPixel strip as ``sultan.ui.sound`` uses it (len, item = (r, g, b), show) over neopixel_write,
    so no NeoPixel library is needed."""

    def __init__(self, pin, n: int) -> None:
        self._pin = digitalio.DigitalInOut(pin)
        self._pin.direction = digitalio.Direction.OUTPUT
        self._buf = bytearray(3 * n)
        self.auto_write = False

    def __len__(self) -> int:
        return len(self._buf) // 3

    def __setitem__(self, i: int, rgb) -> None:
        self._buf[3 * i] = rgb[1]  # the strip takes green, red, blue
        self._buf[3 * i + 1] = rgb[0]
        self._buf[3 * i + 2] = rgb[2]

    def show(self) -> None:
        neopixel_write.neopixel_write(self._pin, self._buf)


def make_sound(speaker=board.SPEAKER, enable=board.SPEAKER_ENABLE, neopixel=board.NEOPIXEL):
    """``sultan.ui.sound.Sound`` on this board's speaker and NeoPixels (silent if audio is missing)."""
    from sultan.ui.sound import Sound

    try:
        import audioio

        audio = audioio.AudioOut(speaker)
    except (ImportError, ValueError, RuntimeError):
        audio = None
    amp = digitalio.DigitalInOut(enable)
    amp.switch_to_output(value=False)
    return Sound(audio=audio, pixels=Pixels(neopixel, NEOPIXELS), enable=amp)
