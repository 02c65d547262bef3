"""TCC0..4: the timer/counters for control, with PWM duty per output and the overflow's events (counting:
Counter). Registers are 32-bit unless said; an instance has as many CC channels and counter bits as the
datasheet's "TCC Configuration Summary" gives it.
"""

from . import Registers
from .counter import Counter, duty_of
from .tc import (
    CMD_RETRIGGER,
    CMD_STOP,
    CMD_UPDATE,
    CTRLA_ENABLE,
    MFRQ,
    NPWM,
)

# Register offsets (datasheet "TCC - Register Summary")
CTRLA = 0x00
CTRLBCLR = 0x04          # 8-bit
CTRLBSET = 0x05          # 8-bit
SYNCBUSY = 0x08
FCTRLA = 0x0C
FCTRLB = 0x10
WEXCTRL = 0x14
DRVCTRL = 0x18
DBGCTRL = 0x1E           # 8-bit
EVCTRL = 0x20
INTENCLR = 0x24
INTENSET = 0x28
INTFLAG = 0x2C
STATUS = 0x30
COUNT = 0x34
PATT = 0x38              # 16-bit
WAVE = 0x3C
PER = 0x40
CC = 0x44                # CC[n] at 0x44 + 4n
PATTBUF = 0x64           # 16-bit
PERBUF = 0x6C
CCBUF = 0x70             # CCBUF[n] at 0x70 + 4n
CCS_MAX = 6
STATUS_PERBUFV = 1 << 7
STATUS_CCBUFV0 = 1 << 16
WAVE_POL0 = 1 << 16
# per instance: CC channels, counter bits, GCLK channel, DMAC OVF trigger, EVSYS OVF generator
FACTS = ((6, 24, 25, 22, 41), (4, 24, 25, 29, 50), (3, 16, 29, 34, 57), (2, 16, 29, 38, 63),
         (2, 16, 38, 41, 68))


class Tcc(Registers):
    NAME = "TCC0"
    BASE = None
    SIZE = CCBUF + 4 * CCS_MAX
    REGS = {**{reg: 4 for reg in (CTRLA, SYNCBUSY, FCTRLA, FCTRLB, WEXCTRL, DRVCTRL, EVCTRL, INTENCLR,
                                  INTENSET, INTFLAG, STATUS, COUNT, WAVE, PER, PERBUF)},
            CTRLBCLR: 1, CTRLBSET: 1, DBGCTRL: 1, PATT: 2, PATTBUF: 2,
            **{CC + 4 * i: 4 for i in range(CCS_MAX)}, **{CCBUF + 4 * i: 4 for i in range(CCS_MAX)}}
    SHARED = (CTRLA, CTRLBCLR, CTRLBSET, EVCTRL, INTENCLR, INTENSET, INTFLAG, STATUS, SYNCBUSY, COUNT,
              PER, PERBUF, CC, CCBUF)
    PERBUFV, CCBUFV0 = STATUS_PERBUFV, STATUS_CCBUFV0

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.counter = None
        self.ccs, bits, self.GCLK_ID, self.TRIG_OVF, self.GEN_OVF = FACTS[int((name or self.NAME)[3:])]
        self.bits = bits
        super().__init__(mcu, name, base, irqs)
        self.counter = Counter(self, self.ccs, self.max())

    def reset(self):
        super().reset()
        if self.counter is not None:
            self.counter.reset()

    # -- what the counter asks ---------------------------------------------------------------------------
    def max(self):
        return (1 << self.bits) - 1

    def stride(self):
        return 4

    def top(self):
        return self.counter.cc[0] if self.value(WAVE) & 7 == MFRQ else self.counter.per

    def duty(self, wo):
        """WO[wo] (channel wo % CC count, the OTMX 0 mapping): its share of time high, None if not PWM."""
        if not self.value(CTRLA) & CTRLA_ENABLE or self.value(WAVE) & 7 < NPWM:
            return None
        self.counter.advance(float(self.mcu.now_ns()))
        ch = wo % self.ccs
        return duty_of(self.counter.cc[ch], self.counter.per, bool(self.value(WAVE) & (WAVE_POL0 << ch)))

    # -- registers: the Counter keeps the shared ones; CTRLA (enable), WAVE (polarity), faults, patterns here
    def read_reg(self, reg):
        return self.counter.read_reg(reg, super().read_reg)

    def write_reg(self, reg, bits, mask):
        self.counter.write_reg(reg, bits, mask, super().write_reg)

    def ctrla(self, bits, mask):
        was = self.value(CTRLA) & CTRLA_ENABLE
        super().write_reg(CTRLA, bits, mask)
        now = self.value(CTRLA) & CTRLA_ENABLE
        if now and not was:
            self.counter.start()
        elif was and not now:
            self.counter.stop()

    def command(self, cmd):
        if cmd == CMD_RETRIGGER:
            self.counter.start(count=0)
        elif cmd == CMD_STOP:
            self.counter.stop()
        elif cmd == CMD_UPDATE:
            self.counter.update()


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Tcc, "TCC0", 0x41016000, tuple(range(85, 92))),
    (Tcc, "TCC1", 0x41018000, tuple(range(92, 97))),
    (Tcc, "TCC2", 0x42000C00, tuple(range(97, 101))),
    (Tcc, "TCC3", 0x42001000, tuple(range(101, 104))),
    (Tcc, "TCC4", 0x43001000, tuple(range(104, 107))),
]
