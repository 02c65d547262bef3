"""The Adafruit PyBadge: SAMD51J19A, a 2 MB GD25Q16C on QSPI, an ST7735R 160x128 on SERCOM4, eight buttons
through a 74HC165, five NeoPixels on PA15, a speaker on the DAC (A0, PA02).

Pins from CircuitPython's boards/pybadge (pins.c, board.c). Each part comes from its own module; one that is
missing or fails is logged (kind "board") and left out, so the machine still boots as far as it can.
"""

import importlib

PINS = {
    "TFT_CS": "PB07", "TFT_DC": "PB05", "TFT_RST": "PA00", "TFT_LITE": "PA01", "TFT_SCK": "PB13",
    "TFT_MOSI": "PB15", "BUTTON_LATCH": "PB00", "BUTTON_OUT": "PB30", "BUTTON_CLOCK": "PB31",
    "NEOPIXEL": "PA15", "SPEAKER": "PA02", "SPEAKER_ENABLE": "PA27", "LED": "PA23", "LIGHT": "PB04",
    "SDA": "PA12", "SCL": "PA13", "SCK": "PA17", "MOSI": "PB23", "MISO": "PB22", "RX": "PB17", "TX": "PB16",
}
# What CircuitPython 9.1.1 writes to CIRCUITPY/boot_out.txt on this machine (its UID is the Mcu's made-up
# serial number). An image that already holds it boots without erasing and programming three flash sectors:
# the USB attach comes at 1.9 s instead of 3.1 s simulated, and ~10x sooner in host time.
BOOT_OUT_9_1_1 = ("Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit Pybadge with samd51j19\r\n"
                  "Board ID:pybadge\r\nUID:%s\r\n")


def boot_out(version_line=BOOT_OUT_9_1_1):
    from samd51.mcu import UID
    return version_line % UID.hex().upper()


DISPLAY_SERCOM = "SERCOM4"     # PB13 SCK (PAD1), PB15 MOSI (PAD3)
NEOPIXEL_COUNT = 5


def _part(mcu, module, cls):
    try:
        return getattr(importlib.import_module("samd51.parts." + module), cls)
    except Exception as err:  # noqa: BLE001  (a part still being written must not stop the board)
        mcu.log("board", "part %s.%s not attached: %s" % (module, cls, err))
        return None


class PyBadge:
    NAME = "pybadge"

    def __init__(self, mcu):
        self.mcu = mcu
        self.flash = self.display = self.keys = self.neopixels = None
        self._attach("flash", self._flash)
        self._attach("display", self._display)
        self._attach("keys", self._keys)
        self._attach("neopixels", self._neopixels)

    def _attach(self, what, fn):
        try:
            fn()
        except Exception as err:  # noqa: BLE001
            self.mcu.log("board", "%s not attached: %s: %s" % (what, type(err).__name__, err))

    def _flash(self):
        cls = _part(self.mcu, "spiflash", "SpiFlash")
        qspi = self.mcu.peripheral("QSPI")
        if cls is not None and hasattr(qspi, "attach"):
            self.flash = cls()
            qspi.attach(self.flash)

    def load_flash(self, image):
        """A CIRCUITPY image (2 MB) into the flash chip."""
        cls = _part(self.mcu, "spiflash", "SpiFlash")
        qspi = self.mcu.peripheral("QSPI")
        if cls is None or not hasattr(qspi, "attach"):
            raise RuntimeError("no QSPI flash model to load the image into")
        self.flash = cls(data=image)
        qspi.attach(self.flash)

    def _display(self):
        cls = _part(self.mcu, "st7735r", "ST7735R")
        sercom = self.mcu.peripheral(DISPLAY_SERCOM)
        if cls is not None and hasattr(sercom, "attach"):
            self.display = cls()
            sercom.attach(self.display, cs=PINS["TFT_CS"], dc=PINS["TFT_DC"])
            self.mcu.port.on_change(PINS["TFT_RST"], self.display.reset_pin)
            self.display.clock = self.mcu.now_ns
            self._backlight()

    def _backlight(self):
        try:
            from samd51.periph.tc import backlight
        except Exception as err:  # noqa: BLE001
            self.mcu.log("board", "no backlight PWM: %s" % err)
            return
        self.display.backlight = lambda: backlight(self.mcu, PINS["TFT_LITE"])

    def _keys(self):
        cls = _part(self.mcu, "hc165", "HC165")
        if cls is not None:
            self.keys = cls(self.mcu.port, PINS["BUTTON_LATCH"], PINS["BUTTON_CLOCK"], PINS["BUTTON_OUT"])

    def _neopixels(self):
        cls = _part(self.mcu, "neopixel", "NeoPixels")
        if cls is not None:
            self.neopixels = cls(self.mcu, PINS["NEOPIXEL"])


BOARD = PyBadge
