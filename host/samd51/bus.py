"""MMIO dispatch: every peripheral address goes to the model that claims its 0x400 page.

Unicorn maps MMIO in 4 KB-aligned regions, while the SAMD51's peripherals sit 0x400 apart, so a few large
regions (the four APB bridges, the private peripheral bus, ...) share one dispatcher that looks the page up.
A page no model claims gets a plain register store that logs each (peripheral, offset) once.
"""

from .periph import DATASHEET_BASES, Peripheral

PAGE = 0x400

# (base, size): the MMIO regions. Bridges A-D, SDHC0, the SmartEEPROM window and the private peripheral bus.
REGIONS = (
    (0x40000000, 0x40000), (0x41000000, 0x40000), (0x42000000, 0x40000), (0x43000000, 0x40000),
    (0x44000000, 0x20000), (0x45000000, 0x1000), (0xE0000000, 0x100000),
)
# The QSPI's AHB window (memory-mapped serial flash): the peripheral with AHB_BASE == this gets it whole.
QSPI_AHB = (0x04000000, 0x1000000)


class Unclaimed(Peripheral):
    """A page no model claims: it keeps what is written and logs every new offset."""


class Bus:
    def __init__(self, mcu):
        self.mcu = mcu
        self.pages = {}      # page number -> peripheral
        self.by_name = {}
        self.ahb = None      # the owner of the QSPI AHB window
        uc = mcu.uc
        for base, size in REGIONS:
            uc.mmio_map(base, size, self._read, base, self._write, base)
        uc.mmio_map(QSPI_AHB[0], QSPI_AHB[1], self._ahb_read, None, self._ahb_write, None)

    def attach(self, periph):
        """Claim the pages of ``periph`` (replacing an earlier claim, so a board may swap a model)."""
        for page in range(periph.BASE // PAGE, (periph.BASE + max(periph.SIZE, PAGE) - 1) // PAGE + 1):
            self.pages[page] = periph
        self.by_name[periph.NAME] = periph
        if getattr(periph, "AHB_BASE", None) == QSPI_AHB[0]:
            self.ahb = periph
        return periph

    def owner(self, addr):
        page = addr // PAGE
        periph = self.pages.get(page)
        if periph is None:
            base = page * PAGE
            periph = Unclaimed(self.mcu, DATASHEET_BASES.get(base, "?%08X" % base), base)
            periph.SIZE = PAGE
            self.pages[page] = periph
        return periph

    def read(self, addr, size):
        if size == 8:  # LDRD through MMIO: two words
            return self.read(addr, 4) | (self.read(addr + 4, 4) << 32)
        periph = self.owner(addr)
        return periph.read(addr - periph.BASE, size)

    def write(self, addr, size, value):
        if size == 8:
            self.write(addr, 4, value & 0xFFFFFFFF)
            self.write(addr + 4, 4, value >> 32)
            return
        periph = self.owner(addr)
        periph.write(addr - periph.BASE, size, value)

    def _read(self, uc, offset, size, base):
        return self.read(base + offset, size)

    def _write(self, uc, offset, size, value, base):
        self.write(base + offset, size, value)

    def _ahb_read(self, uc, offset, size, _):
        if self.ahb is None:
            self.mcu.unmodelled_ahb(offset, size, "read")
            return 0xFFFFFFFF & ((1 << (8 * size)) - 1)
        return self.ahb.ahb_read(offset, size)

    def _ahb_write(self, uc, offset, size, value, _):
        if self.ahb is None:
            self.mcu.unmodelled_ahb(offset, size, "write", value)
            return
        self.ahb.ahb_write(offset, size, value)
