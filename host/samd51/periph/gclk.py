"""GCLK: the generic clock generators and the peripheral channels.

It keeps what the firmware writes, so the CPU clock follows generator 0 (DPLL0 at 120 MHz on the PyBadge)
over MCLK's CPUDIV, and other models ask ``channel_hz(n)`` for their peripheral clock. Synchronisation is
immediate.
"""

from . import Registers, words
from .osc32kctrl import OSCULP32K_HZ
from .oscctrl import DFLL_HZ, XOSC_HZ


class Gclk(Registers):
    NAME, BASE = "GCLK", 0x40001C00
    CTRLA, SYNCBUSY, GENCTRL, PCHCTRL = 0x00, 0x04, 0x20, 0x80
    REGS = {0x00: 1, 0x04: 4, **words(0x20, 12), **words(0x80, 48)}
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
        return XOSC_HZ if src in (0, 1) else 0

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
        if hz:
            self.mcu.set_hz(hz // (mclk.cpu_div() if mclk is not None else 1))
