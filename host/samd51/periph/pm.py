"""PM: the power manager. Sleep settings are kept; SLEEPRDY is ready at once.
"""

from . import Registers


class Pm(Registers):
    NAME, BASE = "PM", 0x40000400
    CTRLA, SLEEPCFG, INTENCLR, INTENSET, INTFLAG, STDBYCFG, HIBCFG, BKUPCFG, PWSAKDLY = (
        0x00, 0x01, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x12)
    REGS = {0x00: 1, 0x01: 1, 0x04: 1, 0x05: 1, 0x06: 1, 0x08: 1, 0x09: 1, 0x0A: 1, 0x12: 1}
    RESET = {SLEEPCFG: 2}

    def read_reg(self, reg):
        if reg == self.INTFLAG:
            return 1       # SLEEPRDY
        return super().read_reg(reg)
