"""The SAMD51's power, clock and reset controllers: SUPC, OSCCTRL, OSC32KCTRL, GCLK, MCLK, CMCC, PM,
RSTC, PAC, WDT.

Oscillators, PLLs and synchronisers are ready at once: a status poll through Python costs more than the
whole boot otherwise. GCLK keeps what the firmware writes so the CPU clock follows GCLK0 (DPLL0 at 120 MHz
on the PyBadge); other models ask ``gclk.channel_hz(n)`` for their peripheral clock.
"""

from . import Registers

DFLL_HZ = 48_000_000
XOSC32K_HZ = 32_768
OSCULP32K_HZ = 32_768


def _words(first, count):
    return {first + 4 * i: 4 for i in range(count)}


class Supc(Registers):
    NAME, BASE = "SUPC", 0x40001800
    INTENCLR, INTENSET, INTFLAG, STATUS, BOD33, BOD12, VREG, VREF, BBPS, BKOUT, BKIN = range(0, 0x2C, 4)
    # BOD33RDY, B33SRDY, VREGRDY, VCORERDY
    READY = 0x1 | 0x4 | 0x100 | 0x400
    REGS = _words(0, 11)
    RESET = {VREG: 0x2}

    def read_reg(self, reg):
        if reg in (self.STATUS, self.INTFLAG):
            return self.READY
        return super().read_reg(reg)


class Oscctrl(Registers):
    NAME, BASE = "OSCCTRL", 0x40001000
    EVCTRL, INTENCLR, INTENSET, INTFLAG, STATUS = 0x00, 0x04, 0x08, 0x0C, 0x10
    XOSCCTRL0, XOSCCTRL1 = 0x14, 0x18
    DFLLCTRLA, DFLLCTRLB, DFLLVAL, DFLLMUL, DFLLSYNC = 0x1C, 0x20, 0x24, 0x28, 0x2C
    DPLL = (0x30, 0x44)   # DPLLCTRLA; + 0x4 DPLLRATIO, + 0x8 DPLLCTRLB, + 0xC DPLLSYNCBUSY, + 0x10 DPLLSTATUS
    # XOSCRDY0/1, DFLLRDY, DFLLLCKF, DFLLLCKC, DPLL0LCKR, DPLL1LCKR
    READY = 0x3 | 0x100 | 0x800 | 0x1000 | 0x10000 | 0x1000000
    REGS = {**_words(0, 7), 0x1C: 1, 0x20: 1, 0x24: 4, 0x28: 4, 0x2C: 1,
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
            ref = 12_000_000                 # XOSC0/1: the PyBadge fits none; a common crystal
        return ref * ((ratio & 0x1FFF) + 1) + ref * ((ratio >> 16) & 0x1F) // 32


class Osc32kctrl(Registers):
    NAME, BASE = "OSC32KCTRL", 0x40001400
    INTENCLR, INTENSET, INTFLAG, STATUS, RTCCTRL, XOSC32K, CFDCTRL, EVCTRL, OSCULP32K = (
        0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x16, 0x17, 0x1C)
    REGS = {0x00: 4, 0x04: 4, 0x08: 4, 0x0C: 4, 0x10: 1, 0x14: 2, 0x16: 1, 0x17: 1, 0x1C: 4}
    RESET = {XOSC32K: 0x2080, OSCULP32K: 0x2000}

    def read_reg(self, reg):
        if reg in (self.STATUS, self.INTFLAG):
            return 0x1     # XOSC32KRDY
        return super().read_reg(reg)


class Gclk(Registers):
    NAME, BASE = "GCLK", 0x40001C00
    CTRLA, SYNCBUSY, GENCTRL, PCHCTRL = 0x00, 0x04, 0x20, 0x80
    REGS = {0x00: 1, 0x04: 4, **_words(0x20, 12), **_words(0x80, 48)}
    RESET = {GENCTRL: 0x106}    # GCLK0: DFLL48M, enabled

    def read_reg(self, reg):
        if reg == self.SYNCBUSY:
            return 0
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        super().write_reg(reg, bits, mask)
        if self.GENCTRL <= reg < self.PCHCTRL:
            self.clock_changed()

    def source_hz(self, src, depth=0):
        if src == 6:
            return DFLL_HZ
        if src in (7, 8):
            osc = self.mcu.peripheral("OSCCTRL")
            return osc.dpll_hz(src - 7, self) if osc is not None and depth < 3 else 0
        if src == 3:
            return self.generator_hz(1, depth + 1)
        if src in (4, 5):
            return OSCULP32K_HZ
        return 12_000_000 if src in (0, 1) else 0

    def generator_hz(self, n, depth=0):
        gen = self.value(self.GENCTRL + 4 * n)
        if not gen & 0x100:
            return 0
        div = gen >> 16
        div = (1 << (div + 1)) if gen & 0x1000 else max(div, 1)
        return self.source_hz(gen & 0x1F, depth) // div

    def channel_hz(self, n):
        """The clock of peripheral channel ``n`` (PCHCTRL index, datasheet table "PCHCTRLm Mapping")."""
        ch = self.value(self.PCHCTRL + 4 * n)
        return self.generator_hz(ch & 0xF) if ch & 0x40 else 0

    def clock_changed(self):
        hz = self.generator_hz(0)
        mclk = self.mcu.peripheral("MCLK")
        div = mclk.value(Mclk.CPUDIV) if mclk is not None else 1
        if hz:
            self.mcu.set_hz(hz // max(div, 1))


class Mclk(Registers):
    NAME, BASE = "MCLK", 0x40000800
    INTENCLR, INTENSET, INTFLAG, HSDIV, CPUDIV = 0x01, 0x02, 0x03, 0x04, 0x05
    AHBMASK, APBAMASK, APBBMASK, APBCMASK, APBDMASK = 0x10, 0x14, 0x18, 0x1C, 0x20
    REGS = {0x01: 1, 0x02: 1, 0x03: 1, 0x04: 1, 0x05: 1, 0x10: 4, 0x14: 4, 0x18: 4, 0x1C: 4, 0x20: 4}
    RESET = {HSDIV: 1, CPUDIV: 1, INTFLAG: 1, AHBMASK: 0xFFFFFF, APBAMASK: 0x7FF, APBBMASK: 0x18056,
             APBCMASK: 0x2000, APBDMASK: 0}

    def read_reg(self, reg):
        if reg == self.INTFLAG:
            return 1       # CKRDY
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        super().write_reg(reg, bits, mask)
        if reg == self.CPUDIV:
            gclk = self.mcu.peripheral("GCLK")
            if gclk is not None:
                gclk.clock_changed()


class Cmcc(Registers):
    NAME, BASE = "CMCC", 0x41006000
    TYPE, CFG, CTRL, SR, LCKWAY, MAINT0, MAINT1, MCFG, MEN, MCTRL, MSR = (
        0x00, 0x04, 0x08, 0x0C, 0x10, 0x20, 0x24, 0x28, 0x2C, 0x30, 0x34)
    REGS = {r: 4 for r in (0x00, 0x04, 0x08, 0x0C, 0x10, 0x20, 0x24, 0x28, 0x2C, 0x30, 0x34)}
    RESET = {TYPE: 0x000012D2}   # 4 KB, 4-way, 16-byte lines

    def read_reg(self, reg):
        if reg == self.SR:
            return self.value(self.CTRL) & 1   # CSTS follows CTRL.CEN at once
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        super().write_reg(reg, bits, mask)
        if reg == self.CTRL:
            self.mcu.timing.set_cache(self.value(self.CTRL) & 1)

    def reset(self):
        super().reset()
        self.mcu.timing.set_cache(False)


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


class Rstc(Registers):
    NAME, BASE = "RSTC", 0x40000C00
    RCAUSE, BKUPEXIT = 0x00, 0x02
    REGS = {0x00: 1, 0x02: 1}
    RESET = {RCAUSE: 0x01}   # POR

    def write_reg(self, reg, bits, mask):
        pass                 # read-only


class Pac(Registers):
    NAME, BASE = "PAC", 0x40000000
    REGS = {0x00: 4, 0x04: 1, 0x08: 1, 0x09: 1, **_words(0x10, 5), **_words(0x34, 4)}

    def read_reg(self, reg):
        return 0 if reg >= 0x10 else super().read_reg(reg)   # nothing is ever write-protected here


class Wdt(Registers):
    """WDT: configured and cleared, never bites (a stalled firmware shows as a stall, not a reset)."""

    NAME, BASE = "WDT", 0x40002000
    CTRLA, CONFIG, EWCTRL, INTENCLR, INTENSET, INTFLAG = 0x0, 0x1, 0x2, 0x4, 0x5, 0x6
    SYNCBUSY, CLEAR = 0x8, 0xC
    REGS = {0x0: 1, 0x1: 1, 0x2: 1, 0x4: 1, 0x5: 1, 0x6: 1, 0x8: 4, 0xC: 1}
    RESET = {CONFIG: 0xBB, EWCTRL: 0x0B}

    def read_reg(self, reg):
        return 0 if reg in (self.SYNCBUSY, self.CLEAR) else super().read_reg(reg)
