"""EIC: the external interrupt controller. PORT tells it of an edge on a pin muxed to function A (EXTINT);
a line's flag rises when its CONFIG sense matches. No filtering or debouncing.
"""

from . import Registers

# Registers (datasheet "EIC - Register Summary")
CTRLA, NMICTRL, NMIFLAG, SYNCBUSY, EVCTRL = 0x00, 0x01, 0x02, 0x04, 0x08
INTENCLR, INTENSET, INTFLAG, ASYNCH, CONFIG0, CONFIG1 = 0x0C, 0x10, 0x14, 0x18, 0x1C, 0x20
DEBOUNCEN, DPRESCALER, PINSTATE = 0x30, 0x34, 0x38
EIC_IRQ0 = 12                # EXTINT n -> NVIC line 12 + n
SENSE_RISE, SENSE_FALL, SENSE_BOTH, SENSE_HIGH, SENSE_LOW = 1, 2, 3, 4, 5


class Eic(Registers):
    NAME, BASE = "EIC", 0x40002800
    IRQS = tuple(range(EIC_IRQ0, EIC_IRQ0 + 16))
    REGS = {CTRLA: 1, NMICTRL: 1, NMIFLAG: 2, SYNCBUSY: 4, EVCTRL: 4, INTENCLR: 4, INTENSET: 4, INTFLAG: 4,
            ASYNCH: 4, CONFIG0: 4, CONFIG1: 4, DEBOUNCEN: 4, DPRESCALER: 4, PINSTATE: 4}

    def reset(self):
        super().reset()
        self.inten = 0
        self.flags = 0

    def read_reg(self, reg):
        if reg == SYNCBUSY:
            return 0
        if reg in (INTENSET, INTENCLR):
            return self.inten
        if reg == INTFLAG:
            return self.flags
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == INTENSET:
            self.inten |= bits
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == INTFLAG:
            self.flags &= ~bits
        elif reg == CTRLA and bits & 1:   # SWRST
            self.reset()
        else:
            super().write_reg(reg, bits, mask)
            return
        self._lines()

    def sense(self, line):
        config = self.value(CONFIG0 if line < 8 else CONFIG1)
        return (config >> (4 * (line % 8))) & 7

    def pin_edge(self, n, level):
        """A pin muxed to the EIC (function A) changed level: raise its line's flag if the sense matches."""
        line = n % 16
        if not self.value(CTRLA) & 0x2:
            return
        sense = self.sense(line)
        if (sense == SENSE_BOTH or (sense == SENSE_RISE and level) or (sense == SENSE_FALL and not level)
                or (sense == SENSE_HIGH and level) or (sense == SENSE_LOW and not level)):
            self.flags |= 1 << line
            self._lines()

    def _lines(self):
        for line in range(16):
            if self.flags & self.inten & (1 << line):
                self.mcu.set_pending(EIC_IRQ0 + line)
            else:
                self.mcu.clear_pending(EIC_IRQ0 + line)
