"""PAC: the peripheral access controller. Nothing is ever write-protected here.
"""

from . import Registers, words


class Pac(Registers):
    NAME, BASE = "PAC", 0x40000000
    REGS = {0x00: 4, 0x04: 1, 0x08: 1, 0x09: 1, **words(0x10, 5), **words(0x34, 4)}

    def read_reg(self, reg):
        return 0 if reg >= 0x10 else super().read_reg(reg)   # nothing is ever write-protected here
