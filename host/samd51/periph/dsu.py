"""DSU (Device Service Unit): only what firmware asks at start-up. No debugger is present (STATUSB.DBGPRES 0),
the chip is not protected; the memory BIST and CRC engines are not modelled (logged if used)."""

from . import Registers

CTRL, STATUSA, STATUSB, ADDR, LENGTH, DATA, DCC0, DCC1 = 0x00, 0x01, 0x02, 0x04, 0x08, 0x0C, 0x10, 0x14


class Dsu(Registers):
    NAME, BASE = "DSU", 0x41002000
    SIZE = 0x2000
    REGS = {CTRL: 1, STATUSA: 1, STATUSB: 1, DCC0: 4, DCC1: 4}

    def read_reg(self, reg):
        if reg in (STATUSA, STATUSB):
            return 0
        return super().read_reg(reg)
