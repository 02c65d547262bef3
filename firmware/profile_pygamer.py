# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Adafruit PyGamer: the built-in 160x128 ST7735R, four buttons and an analog joystick.

The 74HC165 carries B, A, START, SELECT as keys 0..3 (as on the PyBadge); the joystick stands in
for the d-pad as keys 4=RIGHT 5=DOWN 6=UP 7=LEFT, with hysteresis so a held stick is one press.
"""

import analogio
import board
import keypad
from profile_pybadge import make_sound  # noqa: F401  (the same speaker and NeoPixels)

RIGHT = 4
DOWN = 5
UP = 6
LEFT = 7
_PUSH = 18000  # distance from the centre (of 32768) that counts as pushed
_FREE = 9000  # ... and back within this counts as released


def make_display():  # -> busdisplay.BusDisplay (displayio.Display before CircuitPython 9)
    return board.DISPLAY


class JoystickKeys:
    """The keypad interface (``.events.get()``) over four buttons and the joystick."""

    def __init__(self) -> None:
        # profile_pybadge.make_keys's shift register with 4 buttons: written again on purpose, since
        # launch loads one profile alone and a profile imports no other
        self._buttons = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK,
            data=board.BUTTON_OUT,
            latch=board.BUTTON_LATCH,
            key_count=4,
            value_when_pressed=True,
            max_events=8,  # the game takes each key at once: 8, not 64, queued (~340 bytes of heap)
        )
        self._x = analogio.AnalogIn(board.JOYSTICK_X)
        self._y = analogio.AnalogIn(board.JOYSTICK_Y)
        self._held = -1  # the direction key held, or -1
        self.events = self

    def _direction(self) -> int:
        dx = self._x.value - 32768
        dy = self._y.value - 32768
        limit = _FREE if self._held >= 0 else _PUSH
        if abs(dx) < limit and abs(dy) < limit:
            return -1
        if abs(dx) >= abs(dy):
            return RIGHT if dx > 0 else LEFT
        return DOWN if dy > 0 else UP

    def get(self):  # -> keypad.Event | None
        event = self._buttons.events.get()
        if event is not None:
            return event
        direction = self._direction()
        if direction == self._held:
            return None
        if self._held >= 0:
            event = keypad.Event(self._held, False)
            self._held = -1
            return event
        self._held = direction
        return keypad.Event(direction, True)

    def clear(self) -> None:
        self._buttons.events.clear()


def make_keys() -> JoystickKeys:
    return JoystickKeys()
