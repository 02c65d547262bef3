"""Analog parts on a SAMD51 board's ADC pins: voltages a test or the harness sets, sampled by periph/adc.py.

``AnalogSource``: one pin's voltage, 0..VDDANA (the light sensor: the ALS-PT19's voltage on its load).
``Joystick``: the PyGamer's thumbstick, two potentiometers between VDDANA and ground, centred at mid-scale at
rest; X grows to the right and Y downwards (how firmware/profile_pygamer.py reads it).  A value out of range
is refused: a part never makes up a voltage the board cannot have.
"""

from samd51.periph import adc

DIRECTIONS = {"LEFT": (-1.0, 0.0), "RIGHT": (1.0, 0.0), "UP": (0.0, -1.0), "DOWN": (0.0, 1.0)}


class AnalogSource:
    def __init__(self, mcu, pin, volts=adc.VDDANA / 2):
        self.pin = pin
        self.volts = 0.0
        self.set_volts(volts)
        adc.connect(mcu, pin, lambda: self.volts)

    def set_volts(self, volts):
        if not 0.0 <= volts <= adc.VDDANA:
            raise ValueError("%s: %r V is outside 0..%.1f V" % (self.pin, volts, adc.VDDANA))
        self.volts = float(volts)

    def set_fraction(self, share):
        """``share`` of VDDANA (0.0..1.0): what analogio's ``value`` reads as share * 65535."""
        self.set_volts(share * adc.VDDANA)


class Joystick:
    def __init__(self, mcu, x_pin, y_pin):
        self.x = AnalogSource(mcu, x_pin)
        self.y = AnalogSource(mcu, y_pin)

    def set(self, x, y):
        """Deflection of each axis, -1.0 (left, up) .. 1.0 (right, down); 0, 0 is the centre."""
        for axis, value in ((self.x, x), (self.y, y)):
            if not -1.0 <= value <= 1.0:
                raise ValueError("joystick deflection %r is outside -1..1" % value)
            axis.set_fraction((value + 1.0) / 2)

    def push(self, direction):
        """Full deflection towards LEFT, RIGHT, UP or DOWN."""
        if direction not in DIRECTIONS:
            raise ValueError("no joystick direction %r (one of %s)" % (direction, ", ".join(DIRECTIONS)))
        self.set(*DIRECTIONS[direction])

    def release(self):
        self.set(0.0, 0.0)

    def position(self):
        return (2 * self.x.volts / adc.VDDANA - 1.0, 2 * self.y.volts / adc.VDDANA - 1.0)
