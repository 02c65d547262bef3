"""OSCCTRL: the DFLL48M and the two DPLLs. Oscillators lock at once (a status poll through Python
costs more than the whole boot otherwise); a DPLL's rate is its reference times its ratio, which GCLK asks
for.
"""

from . import Registers, words
from .osc32kctrl import XOSC32K_HZ

DFLL_HZ = 48_000_000
XOSC_HZ = 12_000_000      # XOSC0/1: the PyBadge fits none; a common crystal


class Oscctrl(Registers):
    NAME, BASE = "OSCCTRL", 0x40001000
    EVCTRL, INTENCLR, INTENSET, INTFLAG, STATUS = 0x00, 0x04, 0x08, 0x0C, 0x10
    XOSCCTRL0, XOSCCTRL1 = 0x14, 0x18
    DFLLCTRLA, DFLLCTRLB, DFLLVAL, DFLLMUL, DFLLSYNC = 0x1C, 0x20, 0x24, 0x28, 0x2C
    DPLL = (0x30, 0x44)   # DPLLCTRLA; + 0x4 DPLLRATIO, + 0x8 DPLLCTRLB, + 0xC DPLLSYNCBUSY, + 0x10 DPLLSTATUS
    # XOSCRDY0/1, DFLLRDY, DFLLLCKF, DFLLLCKC, DPLL0LCKR, DPLL1LCKR
    READY = 0x3 | 0x100 | 0x800 | 0x1000 | 0x10000 | 0x1000000
    REGS = {**words(0, 7), 0x1C: 1, 0x20: 1, 0x24: 4, 0x28: 4, 0x2C: 1,
            **{d + o: w for d in (0x30, 0x44) for o, w in ((0, 1), (4, 4), (8, 4), (0xC, 4), (0x10, 4))}}
    RESET = {DFLLCTRLA: 0x82, 0x0C: 0x100, DPLL[0]: 0x80, DPLL[1]: 0x80}

    def read_reg(self, reg):
        if reg in (self.STATUS, self.INTFLAG):
            return self.READY
        if reg == self.DFLLSYNC or reg in (d + 0xC for d in self.DPLL):
            return 0
        for d in self.DPLL:
            if reg == d + 0x10:   # LOCK | CLKRDY once enabled
                return 0x3 if self.value(d) & 0x2 else 0
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        super().write_reg(reg, bits, mask)
        if self.DPLL[0] <= reg < self.DPLL[1] + 0x14:
            gclk = self.mcu.peripheral("GCLK")
            if gclk is not None:
                gclk.clock_changed()

    def dpll_hz(self, n, gclk):
        d = self.DPLL[n]
        if not self.value(d) & 0x2:
            return 0
        ratio = self.value(d + 4)
        refclk = (self.value(d + 8) >> 5) & 7
        if refclk == 0:
            ref = gclk.channel_hz(1 + n)     # GCLK_OSCCTRL_FDPLL0 / FDPLL1 peripheral channels
        elif refclk == 1:
            ref = XOSC32K_HZ
        else:
            ref = XOSC_HZ
        return ref * ((ratio & 0x1FFF) + 1) + ref * ((ratio >> 16) & 0x1F) // 32
