"""The Adafruit PyBadge: SAMD51J19A, a 2 MB GD25Q16C on QSPI, an ST7735R 160x128 on SERCOM4, eight buttons
through a 74HC165, five NeoPixels on PA15, a light sensor on PB04, a speaker on the DAC (A0, PA02).

Pins from CircuitPython's boards/pybadge (pins.c, board.c); what the harness gets: ``badge.Badge``.
"""

from samd51.boards.badge import Badge
from samd51.parts.spiflash import GD25Q16C


class PyBadge(Badge):
    NAME = "pybadge"
    FLASH = GD25Q16C
    PINS = {
        "TFT_CS": "PB07", "TFT_DC": "PB05", "TFT_RST": "PA00", "TFT_LITE": "PA01", "TFT_SCK": "PB13",
        "TFT_MOSI": "PB15", "BUTTON_LATCH": "PB00", "BUTTON_OUT": "PB30", "BUTTON_CLOCK": "PB31",
        "NEOPIXEL": "PA15", "SPEAKER": "PA02", "SPEAKER_ENABLE": "PA27", "LIGHT": "PB04",
    }
    KEYS = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")


BOARD = PyBadge
