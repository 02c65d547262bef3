"""PAC: the peripheral access controller. Nothing is ever write-protected here.

An access to an unimplemented register of a peripheral (an offset in its bus slot past its register map) is
a peripheral access error (datasheet "PAC - Peripheral Access Errors", "Illegal access"): the bus drops the
write, a read gives 0, and the peripheral's bit is set in INTFLAGA..D (bridge A..D, bit = slot number), with
the PAC's interrupt if INTENSET.ERR.
"""

from . import Registers, words

WRCTRL, EVCTRL, INTENCLR, INTENSET = 0x00, 0x04, 0x08, 0x09
INTFLAGAHB, INTFLAGA = 0x10, 0x14    # INTFLAGA..D at 0x14, 0x18, 0x1C, 0x20
STATUSA = 0x34                       # STATUSA..D: write protection, never on here
ERR = 1 << 0


class Pac(Registers):
    NAME, BASE, IRQS = "PAC", 0x40000000, (41,)
    REGS = {WRCTRL: 4, EVCTRL: 1, INTENCLR: 1, INTENSET: 1, **words(INTFLAGAHB, 5), **words(STATUSA, 4)}

    def access_error(self, bridge, slot):
        """Peripheral ``slot`` on bridge ``bridge`` (0-3: A-D) was accessed where it has no register."""
        reg = INTFLAGA + 4 * bridge
        self.store(reg, 4, self.value(reg) | (1 << slot))
        self.irq_line()

    def read_reg(self, reg):
        if reg >= STATUSA:
            return 0
        if reg == INTENCLR:
            return self.value(INTENSET)
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if INTFLAGAHB <= reg < STATUSA:
            self.store(reg, 4, self.value(reg) & ~bits)      # write 1 to clear
        elif reg == INTENSET:
            self.store(INTENSET, 1, self.value(INTENSET) | (bits & ERR))
        elif reg == INTENCLR:
            self.store(INTENSET, 1, self.value(INTENSET) & ~bits)
        elif reg < STATUSA:
            super().write_reg(reg, bits, mask)
        self.irq_line()

    def irq_line(self):
        flagged = any(self.value(INTFLAGAHB + 4 * i) for i in range(5))
        if flagged and self.value(INTENSET) & ERR:
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])
