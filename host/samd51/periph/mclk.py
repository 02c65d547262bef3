"""MCLK: the main clock's dividers and the bus clock masks. CPUDIV divides generator 0 for the CPU.
"""

from . import Registers


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

    def cpu_div(self):
        """CPUDIV: generator 0 over this is the CPU's clock (0 is reserved; read as 1)."""
        return max(self.value(self.CPUDIV), 1)

    def write_reg(self, reg, bits, mask):
        super().write_reg(reg, bits, mask)
        if reg == self.CPUDIV:
            gclk = self.mcu.peripheral("GCLK")
            if gclk is not None:
                gclk.clock_changed()
