"""SUPC: the supply controller. The regulator and brown-out detectors are ready at once.
"""

from . import Registers, words


class Supc(Registers):
    NAME, BASE = "SUPC", 0x40001800
    INTENCLR, INTENSET, INTFLAG, STATUS, BOD33, BOD12, VREG, VREF, BBPS, BKOUT, BKIN = range(0, 0x2C, 4)
    # BOD33RDY, B33SRDY, VREGRDY, VCORERDY
    READY = 0x1 | 0x4 | 0x100 | 0x400
    REGS = words(0, 11)
    RESET = {VREG: 0x2}

    def read_reg(self, reg):
        if reg in (self.STATUS, self.INTFLAG):
            return self.READY
        return super().read_reg(reg)
