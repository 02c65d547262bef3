"""TRNG: random words at once (DATARDY always up), from a seeded generator so every run is the same."""

import random

from . import Registers

CTRLA, EVCTRL, INTENCLR, INTENSET, INTFLAG, DATA = 0x00, 0x04, 0x08, 0x09, 0x0A, 0x20
DATARDY = 0x1
SEED = 0x5A3D51


class Trng(Registers):
    NAME, BASE, IRQS = "TRNG", 0x42002800, (131,)
    REGS = {CTRLA: 1, EVCTRL: 1, INTENCLR: 1, INTENSET: 1, INTFLAG: 1, DATA: 4}

    def reset(self):
        super().reset()
        self.rng = random.Random(SEED)

    def read_reg(self, reg):
        if reg == INTFLAG:
            return DATARDY
        if reg == DATA:
            return self.rng.getrandbits(32)
        if reg == INTENCLR:
            return self.value(INTENSET)
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == INTENCLR:
            super().write_reg(INTENSET, self.value(INTENSET) & ~bits & 0xFF, 0xFF)
        elif reg == INTENSET:
            super().write_reg(INTENSET, self.value(INTENSET) | bits, 0xFF)
        elif reg != INTFLAG:
            super().write_reg(reg, bits, mask)
