"""What Adafruit's SAMD51 badges share, wired from a short description (a board module is the description).

A description names the pins as CircuitPython's ``boards/NAME/pins.c`` and ``board.c`` do, the QSPI flash
part, the 74HC165's buttons in the order they come out, and whether a joystick is fitted.  ``Badge`` puts
the part models on those pins; a part that cannot be made stops the board with its reason.

What a harness gets (each boot's Mcu has its own board; the flash chip may be carried across boots):

- ``flash``: the QSPI flash chip (``spiflash.SpiFlash`` of ``FLASH``); ``load_flash(image)`` a new chip
  holding ``image``, ``attach_flash(chip)`` a chip kept from an earlier boot (it must be of ``FLASH``).
- ``display``: the ST7735R (``view565()``, ``rgb()``, ``save_png``, ``updates``; ``clock`` may be replaced).
- ``keys``: the 74HC165 (``press(name)``, ``release(name)``, ``pressed()``); names as in ``KEYS``.
- ``joystick``: ``set(x, y)`` (-1..1 each, right and down positive), ``push(direction)``, ``release()``,
  ``position()``; None on a board without one.
- ``light``: the light sensor's ``set_volts(v)`` / ``set_fraction(share)`` (0..1 of 3.3 V).
- ``neopixels``: the five NeoPixels' decoded ``frames`` (``flush()`` at a run's end).
- ``backlight()``: TFT_LITE's PWM duty, 0.0..1.0.
- ``speaker_on()``: SPEAKER_ENABLE's level; ``speaker_samples()``: the DAC's (ns, 12-bit code) on A0.
"""

from samd51.parts.analog import AnalogSource, Joystick
from samd51.parts.hc165 import HC165
from samd51.parts.neopixel import NeoPixels
from samd51.parts.spiflash import SpiFlash
from samd51.parts.st7735r import ST7735R
from samd51.periph.tc import backlight

LIGHT_VOLTS = 0.33            # a lit room: a tenth of full scale (made up; a test sets its own)


class Badge:
    NAME = None
    FLASH = None              # spiflash.Part
    PINS = {}                 # board name -> pin, as pins.c
    DISPLAY_SERCOM = "SERCOM4"
    KEYS = ()                 # the 74HC165's inputs D7, D6, ... in keypad's key order
    JOYSTICK = False          # JOYSTICK_X / JOYSTICK_Y fitted
    NEOPIXELS = 5

    def __init__(self, mcu):
        self.mcu = mcu
        self.flash = None
        self.attach_flash(SpiFlash(part=self.FLASH))
        self.display = self._display()
        pins = self.PINS
        self.keys = HC165(mcu.port, pins["BUTTON_LATCH"], pins["BUTTON_CLOCK"], pins["BUTTON_OUT"],
                          keys=self.KEYS)
        self.neopixels = NeoPixels(mcu, pins["NEOPIXEL"])
        self.light = AnalogSource(mcu, pins["LIGHT"], LIGHT_VOLTS)
        self.joystick = Joystick(mcu, pins["JOYSTICK_X"], pins["JOYSTICK_Y"]) if self.JOYSTICK else None

    def _display(self):
        display = ST7735R()
        pins = self.PINS
        self.mcu.peripheral(self.DISPLAY_SERCOM).attach(display, cs=pins["TFT_CS"], dc=pins["TFT_DC"])
        self.mcu.port.on_change(pins["TFT_RST"], display.reset_pin)
        display.clock = self.mcu.now_ns
        display.backlight = self.backlight
        return display

    def load_flash(self, image):
        """A new chip holding ``image`` (a CIRCUITPY image no larger than the chip)."""
        self.attach_flash(SpiFlash(data=image, part=self.FLASH))

    def attach_flash(self, chip):
        if chip.part is not self.FLASH:
            raise ValueError("the %s has a %s, not a %s" % (self.NAME, self.FLASH.name, chip.part.name))
        self.mcu.peripheral("QSPI").attach(chip)
        self.flash = chip

    def backlight(self):
        return backlight(self.mcu, self.PINS["TFT_LITE"])

    def speaker_on(self):
        return bool(self.mcu.port.level(self.PINS["SPEAKER_ENABLE"]))

    def speaker_samples(self):
        return self.mcu.peripheral("DAC").samples(0)
