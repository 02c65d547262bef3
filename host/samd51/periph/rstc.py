"""RSTC: the reset controller. RCAUSE says power-on reset.
"""

from . import Registers


class Rstc(Registers):
    NAME, BASE = "RSTC", 0x40000C00
    RCAUSE, BKUPEXIT = 0x00, 0x02
    REGS = {0x00: 1, 0x02: 1}
    RESET = {RCAUSE: 0x01}   # POR

    def write_reg(self, reg, bits, mask):
        pass                 # read-only
