"""TC0..5: the basic timer/counters, with PWM duty per output and the overflow's events (counting: Counter).

The register map follows CTRLA.MODE, as the datasheet's three tables: COUNT, CC0/1 and CCBUF0/1 are 8, 16 or
32 bits wide, and COUNT8 adds PER and PERBUF.

CircuitPython's uses: pwmio on PA01 (the PyBadge's backlight) takes TC2 in MPWM with CC0 = top and CC1 =
duty (TC2 WO1); audioio takes the highest free TC (TC5) in MFRQ at 48 MHz with CC0 = 48 MHz / rate - 1.
"""

from . import Registers
from .counter import Counter, duty_of

CTRLA_ENABLE = 1 << 1            # SWRST (bit 0): the Counter's
CMD_RETRIGGER, CMD_STOP, CMD_UPDATE, CMD_READSYNC = 1, 2, 3, 4
CTRLB_DIR, CTRLB_ONESHOT = 1 << 0, 1 << 2
NFRQ, MFRQ, NPWM, MPWM = 0, 1, 2, 3

# Register offsets (datasheet "TC - Register Summary"; COUNT/CC/CCBUF widths follow CTRLA.MODE)
CTRLA = 0x00
CTRLBCLR = 0x04
CTRLBSET = 0x05
EVCTRL = 0x06
INTENCLR = 0x08
INTENSET = 0x09
INTFLAG = 0x0A
STATUS = 0x0B
WAVE = 0x0C
DRVCTRL = 0x0D
DBGCTRL = 0x0F
SYNCBUSY = 0x10
COUNT = 0x14
PER = 0x1B               # COUNT8 only
CC = 0x1C
PERBUF = 0x2F            # COUNT8 only
CCBUF = 0x30
MODE_COUNT16, MODE_COUNT8, MODE_COUNT32 = 0, 1, 2
STATUS_PERBUFV, STATUS_CCBUFV0 = 1 << 3, 1 << 4
COMMON = {CTRLA: 4, CTRLBCLR: 1, CTRLBSET: 1, EVCTRL: 2, INTENCLR: 1, INTENSET: 1, INTFLAG: 1, STATUS: 1,
          WAVE: 1, DRVCTRL: 1, DBGCTRL: 1, SYNCBUSY: 4}


def layout(width):
    """The register map in a mode whose counter is ``width`` bytes."""
    regs = dict(COMMON)
    regs.update({COUNT: width, CC: width, CC + width: width, CCBUF: width, CCBUF + width: width})
    if width == 1:
        regs.update({PER: 1, PERBUF: 1})
    return regs


LAYOUTS = {width: layout(width) for width in (1, 2, 4)}


class Tc(Registers):
    NAME = "TC2"
    BASE = None
    SIZE = 0x38
    REGS = LAYOUTS[2]
    SHARED = (CTRLA, CTRLBCLR, CTRLBSET, EVCTRL, INTENCLR, INTENSET, INTFLAG, STATUS, SYNCBUSY, COUNT,
              PER, PERBUF, CC, CCBUF)
    PERBUFV, CCBUFV0 = STATUS_PERBUFV, STATUS_CCBUFV0

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.counter = None
        super().__init__(mcu, name, base, irqs)
        n = int(self.NAME[2:])
        self.GCLK_ID = (9, 9, 26, 26, 30, 30)[n]
        self.TRIG_OVF = 44 + 3 * n
        self.GEN_OVF = 73 + 3 * n
        self.counter = Counter(self, 2, 0xFF)

    def reset(self):
        super().reset()
        if self.counter is not None:
            self.counter.reset()
        self.relayout(2)
        self.stopped = False

    def relayout(self, width):
        self.width = width
        self.set_layout(LAYOUTS[width])

    @property
    def overflows(self):
        return self.counter.overflows

    # -- what the counter asks ---------------------------------------------------------------------------
    def max(self):
        return (1 << (8 * self.width)) - 1

    def stride(self):
        return self.width

    def top(self):
        wavegen = self.value(WAVE) & 3
        if wavegen in (MFRQ, MPWM) and self.width != 1:
            return self.counter.cc[0]
        return self.counter.per if self.width == 1 else self.max()

    def duty(self, wo):
        """WO[wo]'s share of time high, or None when the counter does not drive it (off, or a toggle)."""
        if not self.counter.running and not self.value(CTRLA) & CTRLA_ENABLE:
            return None
        self.counter.advance(float(self.mcu.now_ns()))
        wavegen = self.value(WAVE) & 3
        if wavegen == NPWM or (wavegen == MPWM and wo == 1):
            return duty_of(self.counter.cc[wo], self.top(), bool(self.value(DRVCTRL) & (1 << wo)))
        return 0.5 if wavegen in (NFRQ, MFRQ) else None

    # -- registers: the Counter keeps the shared ones; CTRLA (mode, enable), WAVE and DRVCTRL are here
    def read_reg(self, reg):
        return self.counter.read_reg(reg, super().read_reg)

    def write_reg(self, reg, bits, mask):
        self.counter.write_reg(reg, bits, mask, super().write_reg)

    def ctrla(self, bits, mask):
        super().write_reg(CTRLA, bits, mask)
        self.relayout((2, 1, 4, 2)[(self.value(CTRLA) >> 2) & 3])
        if mask & 0xFF:
            self._enable(bool(bits & CTRLA_ENABLE))

    def _enable(self, on):
        counter = self.counter
        if on and not counter.running and not self.stopped:
            counter.start()
        elif not on and counter.running:
            counter.stop()
        if not on:
            self.stopped = False

    def command(self, cmd):
        if cmd == CMD_RETRIGGER:
            self.stopped = False
            if self.value(CTRLA) & CTRLA_ENABLE:
                self.counter.start(count=0)
        elif cmd == CMD_STOP:
            self.stopped = True
            self.counter.stop()
        elif cmd == CMD_UPDATE:
            self.counter.update()


def backlight(mcu, pin):
    """A PWM pin's duty (0..1), else its plain level as 0.0/1.0: what the backlight sees."""
    port = mcu.port
    name, wo = PWM_PINS.get(pin, (None, None))
    if name is not None and port.function(pin) == FUNCTION_E:
        duty = mcu.peripheral(name).duty(wo)
        if duty is not None:
            return duty
    return 1.0 if port.level(pin) else 0.0


FUNCTION_E = 4           # PMUX value of peripheral function E (TC/TCC waveform outputs)
# Pin -> (timer, waveform output) on peripheral function E (datasheet "I/O Multiplexing"): add as boards need.
PWM_PINS = {"PA01": ("TC2", 1)}


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Tc, "TC0", 0x40003800, (107,)),
    (Tc, "TC1", 0x40003C00, (108,)),
    (Tc, "TC2", 0x4101A000, (109,)),
    (Tc, "TC3", 0x4101C000, (110,)),
    (Tc, "TC4", 0x42001400, (111,)),
    (Tc, "TC5", 0x42001800, (112,)),
]
