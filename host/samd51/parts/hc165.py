"""The 74HC165 parallel-in/serial-out shift register that reads a badge's buttons.

PL low: the register follows D0..D7 (asynchronous parallel load). PL high: each rising CP edge shifts towards
Q7, with DS (tied low) entering at D0. Q7 is bit 7, so D7 comes out first. The chip drives Q7 onto the MCU's
data pin through ``port.drive`` whenever it changes, so the firmware's digitalio read sees it at once.

Keys: keypad.ShiftRegisterKeys numbers the bits in the order they come out, so key k is input D(7-k).
``keys`` names them in that order: on the PyBadge (firmware/profile_pybadge.py) 0=B 1=A 2=START 3=SELECT
4=RIGHT 5=DOWN 6=UP 7=LEFT; the PyGamer wires only B, A, START, SELECT (D7..D4), and its other inputs read
low.  A pressed button reads high (value_when_pressed=True); a key the board does not have is refused.
"""

KEYS = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")


class HC165:
    def __init__(self, port, pl, cp, q7, ds=0, keys=KEYS):
        self.port = port
        self.keys = tuple(keys)
        self.q7_pin = q7
        self.ds = ds
        self.inputs = 0          # D0..D7 as bits 0..7 (high: button pressed)
        self.reg = 0
        self.pl = bool(port.level(pl))
        self.cp = bool(port.level(cp))
        self.shifts = 0          # rising CP edges while shifting (figures: one scan = 8)
        self.loads = 0           # PL falling edges
        port.on_change(pl, self.set_pl)
        port.on_change(cp, self.set_cp)
        self._drive()

    # -- the buttons (the harness's side) ---------------------------------------------------------------
    def set_input(self, d, high):
        if high:
            self.inputs |= 1 << d
        else:
            self.inputs &= ~(1 << d)
        if not self.pl:
            self.reg = self.inputs
            self._drive()

    def press(self, key):
        """Press key number ``key`` (or its name, e.g. "START")."""
        self.set_input(7 - self._key(key), True)

    def release(self, key):
        self.set_input(7 - self._key(key), False)

    def pressed(self):
        return [self.keys[k] for k in range(len(self.keys)) if self.inputs & (1 << (7 - k))]

    def _key(self, key):
        if isinstance(key, str):
            if key not in self.keys:
                raise ValueError("no %s button on this board (%s)" % (key, " ".join(self.keys)))
            return self.keys.index(key)
        if not 0 <= key < len(self.keys):
            raise ValueError("no key %r on this board (0..%d)" % (key, len(self.keys) - 1))
        return int(key)

    # -- the pins (the MCU's side) ----------------------------------------------------------------------
    def set_pl(self, level):
        level = bool(level)
        if not level:
            if self.pl:
                self.loads += 1
            self.reg = self.inputs
        self.pl = level
        self._drive()

    def set_cp(self, level):
        level = bool(level)
        if level and not self.cp and self.pl:
            self.reg = ((self.reg << 1) | (1 if self.ds else 0)) & 0xFF
            self.shifts += 1
        self.cp = level
        self._drive()

    @property
    def q7(self):
        return bool(self.reg & 0x80)

    def _drive(self):
        self.port.drive(self.q7_pin, self.q7)
