"""WDT: the watchdog, configured and cleared, never biting (a stalled firmware shows as a stall, not a reset).
"""

from . import Registers


class Wdt(Registers):
    """WDT: configured and cleared, never bites (a stalled firmware shows as a stall, not a reset)."""

    NAME, BASE = "WDT", 0x40002000
    CTRLA, CONFIG, EWCTRL, INTENCLR, INTENSET, INTFLAG = 0x0, 0x1, 0x2, 0x4, 0x5, 0x6
    SYNCBUSY, CLEAR = 0x8, 0xC
    REGS = {0x0: 1, 0x1: 1, 0x2: 1, 0x4: 1, 0x5: 1, 0x6: 1, 0x8: 4, 0xC: 1}
    RESET = {CONFIG: 0xBB, EWCTRL: 0x0B}

    def read_reg(self, reg):
        return 0 if reg in (self.SYNCBUSY, self.CLEAR) else super().read_reg(reg)
