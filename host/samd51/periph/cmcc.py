"""CMCC: the Cortex-M cache controller. CTRL.CEN turns the time model's cache on and off (timing.py).
"""

from . import Registers


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
