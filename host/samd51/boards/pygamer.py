"""The Adafruit PyGamer: SAMD51J19A, an 8 MB GD25Q64C on QSPI, an ST7735R 160x128 on SERCOM4 (chip select
PB12), four buttons through a 74HC165, an analog joystick (X on PB07, Y on PB06: ADC1's AIN9 and AIN8), five
NeoPixels on PA15, a light sensor on PB04, a speaker on the DAC (A0, PA02).

Pins from CircuitPython's boards/pygamer (pins.c, board.c, mpconfigboard.mk: EXTERNAL_FLASH_DEVICES
"GD25Q64C,W25Q64JVxQ"); what the harness gets: ``badge.Badge``.
"""

from samd51.boards.badge import Badge
from samd51.parts.spiflash import GD25Q64C


class PyGamer(Badge):
    NAME = "pygamer"
    FLASH = GD25Q64C
    PINS = {
        "TFT_CS": "PB12", "TFT_DC": "PB05", "TFT_RST": "PA00", "TFT_LITE": "PA01", "TFT_SCK": "PB13",
        "TFT_MOSI": "PB15", "BUTTON_LATCH": "PB00", "BUTTON_OUT": "PB30", "BUTTON_CLOCK": "PB31",
        "JOYSTICK_X": "PB07", "JOYSTICK_Y": "PB06",
        "NEOPIXEL": "PA15", "SPEAKER": "PA02", "SPEAKER_ENABLE": "PA27", "LIGHT": "PB04",
    }
    KEYS = ("B", "A", "START", "SELECT")
    JOYSTICK = True


BOARD = PyGamer
