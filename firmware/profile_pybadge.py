"""Adafruit PyBadge / PyBadge LC / EdgeBadge: the built-in 160x128 ST7735R and eight buttons.

The buttons come through the board's 74HC165: key 0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.
"""

import board
import keypad


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
    )
