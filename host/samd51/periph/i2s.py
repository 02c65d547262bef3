"""I2S: reset and configured by CircuitPython at start-up (the PyBadge's audio is on the DAC); no serial audio
out, registers kept, synchronisation immediate, flags cleared by writing 1."""

from . import Registers

CTRLA, CLKCTRL0, CLKCTRL1, INTENCLR, INTENSET, INTFLAG, SYNCBUSY = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18
TXCTRL, RXCTRL, TXDATA, RXDATA = 0x20, 0x24, 0x30, 0x34
CTRLA_SWRST = 0x1


class I2s(Registers):
    NAME, BASE, IRQS = "I2S", 0x43002800, (128,)
    REGS = {CTRLA: 1, CLKCTRL0: 4, CLKCTRL1: 4, INTENCLR: 2, INTENSET: 2, INTFLAG: 2, SYNCBUSY: 2,
            TXCTRL: 4, RXCTRL: 4, TXDATA: 4, RXDATA: 4}

    def read_reg(self, reg):
        if reg in (SYNCBUSY, INTFLAG):
            return 0
        if reg == INTENCLR:
            return self.value(INTENSET)
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == CTRLA and bits & CTRLA_SWRST:
            self.reset()
        elif reg == INTENCLR:
            self.store(INTENSET, 2, self.value(INTENSET) & ~bits)
        elif reg == INTENSET:
            self.store(INTENSET, 2, self.value(INTENSET) | bits)
        elif reg != INTFLAG:
            super().write_reg(reg, bits, mask)
