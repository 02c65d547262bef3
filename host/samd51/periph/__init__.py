"""The SAMD51's peripherals: the Peripheral base class every model derives from.

``Mcu`` imports every module of this package and makes one instance of each Peripheral subclass that
defines BASE, or of each ``(cls, name, base, irqs)`` in a module's ``INSTANCES`` list.
"""


AHB_OFFSET = 0x1000000   # an AHB window access is logged at this offset past the registers


def words(first, count):
    """REGS entries for ``count`` 32-bit registers from ``first``."""
    return {first + 4 * i: 4 for i in range(count)}


class Peripheral:
    NAME = "?"          # as in the datasheet, e.g. "SERCOM4"
    BASE = None         # as in the datasheet, e.g. 0x43000000 (None: not instantiated by Mcu)
    SIZE = 0x400
    IRQS = ()           # NVIC lines (datasheet "Interrupt Line Mapping"), e.g. (62, 63, 64, 65)

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.mcu = mcu
        if name is not None:
            self.NAME = name
        if base is not None:
            self.BASE = base
        if irqs is not None:
            self.IRQS = tuple(irqs)
        self.regs = {}  # word offset -> int: the fallback store of unmodelled registers

    # The fallback store holds whole words, so an 8-bit write at INTFLAG+1 and a 32-bit read at INTFLAG agree.
    def read(self, offset, size):
        self.unmodelled(offset, size, "read")
        return self.stored(offset, size)

    def write(self, offset, size, value):
        self.unmodelled(offset, size, "write", value)
        self.store(offset, size, value)

    def reset(self):
        self.regs.clear()

    def stored(self, offset, size):
        """The ``size`` bytes at ``offset`` of the fallback store (little-endian, any alignment)."""
        shift = offset & 3
        if shift + size <= 4:   # within one word: the common case
            return (self.regs.get(offset - shift, 0) >> (8 * shift)) & ((1 << (8 * size)) - 1)
        value = 0
        for i in range(size):
            o = offset + i
            value |= ((self.regs.get(o & ~3, 0) >> (8 * (o & 3))) & 0xFF) << (8 * i)
        return value

    def store(self, offset, size, value):
        if size == 4 and not offset & 3:
            self.regs[offset] = value & 0xFFFFFFFF
            return
        for i in range(size):
            o = offset + i
            shift = 8 * (o & 3)
            word = self.regs.get(o & ~3, 0) & ~(0xFF << shift)
            self.regs[o & ~3] = word | (((value >> (8 * i)) & 0xFF) << shift)

    def unmodelled(self, offset, size, op, value=None):
        """Log an access no model answers, once per (peripheral, offset)."""
        self.mcu.unmodelled(self, offset, size, op, value)

    def ahb_read(self, offset, size):
        """A read of the AHB window the peripheral serves (the QSPI's serial flash); unmodelled: all ones."""
        self.unmodelled(AHB_OFFSET + offset, size, "AHB read")
        return (1 << (8 * size)) - 1

    def ahb_write(self, offset, size, value):
        self.unmodelled(AHB_OFFSET + offset, size, "AHB write", value)

    def dma_block(self, offset, data):
        """A DMA block written to the register at ``offset`` in one call; returns the bytes taken (0: the
        DMAC goes beat by beat, as for any peripheral that does not pace its own requests)."""
        return 0

    def irq(self, index=0):
        return self.IRQS[index] if self.IRQS else None


# Base addresses from the datasheet (ASF4's samd51j19a.h), so an unmodelled access is logged by its name.
DATASHEET_BASES = {
    0x40000000: "PAC", 0x40000400: "PM", 0x40000800: "MCLK", 0x40000C00: "RSTC", 0x40001000: "OSCCTRL",
    0x40001400: "OSC32KCTRL", 0x40001800: "SUPC", 0x40001C00: "GCLK", 0x40002000: "WDT", 0x40002400: "RTC",
    0x40002800: "EIC", 0x40002C00: "FREQM", 0x40003000: "SERCOM0", 0x40003400: "SERCOM1", 0x40003800: "TC0",
    0x40003C00: "TC1", 0x41000000: "USB", 0x41002000: "DSU", 0x41004000: "NVMCTRL", 0x41006000: "CMCC",
    0x41008000: "PORT", 0x4100A000: "DMAC", 0x4100C000: "HMATRIX", 0x4100E000: "EVSYS", 0x41012000: "SERCOM2",
    0x41014000: "SERCOM3", 0x41016000: "TCC0", 0x41018000: "TCC1", 0x4101A000: "TC2", 0x4101C000: "TC3",
    0x4101E000: "TAL", 0x41020000: "RAMECC", 0x42000C00: "TCC2", 0x42001000: "TCC3", 0x42001400: "TC4",
    0x42001800: "TC5", 0x42001C00: "PDEC", 0x42002000: "AC", 0x42002400: "AES", 0x42002800: "TRNG",
    0x42002C00: "ICM", 0x42003000: "PUKCC", 0x42003400: "QSPI", 0x42003800: "CCL", 0x43000000: "SERCOM4",
    0x43000400: "SERCOM5", 0x43001000: "TCC4", 0x43001C00: "ADC0", 0x43002000: "ADC1", 0x43002400: "DAC",
    0x43002800: "I2S", 0x43002C00: "PCC", 0x45000000: "SDHC0",
    0xE0000000: "ITM", 0xE0001000: "DWT", 0xE0002000: "FPB", 0xE000E000: "SCS", 0xE0040000: "TPIU",
    0xE00FF000: "ROMTABLE",
}


_LAYOUTS = {}   # id(regs) -> (regs, byte cover): the maps set_layout has switched to


def cover_of(regs):
    """byte offset -> the offset of the register holding it."""
    return {reg + i: reg for reg, width in regs.items() for i in range(width)}


class Registers(Peripheral):
    """A peripheral described by its register table: byte-addressable, each register its own width.

    REGS maps offset -> width in bytes of the registers the model knows; RESET their reset values. Reads go
    through ``read_reg(reg)`` and writes through ``write_reg(reg, bits, mask)`` (``bits`` already shifted into
    place within the register, ``mask`` the written bytes), so a subclass overrides those two for the
    registers that compute or act (ready bits, write-1-to-clear flags). Bytes no register covers are logged
    as unmodelled.
    """

    REGS = {}
    RESET = {}

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        cls = type(self)
        if cls.__dict__.get("_cover") is None:
            cls._cover = cover_of(cls.REGS)
        self.reset()

    def reset(self):
        super().reset()
        for reg, value in self.RESET.items():
            self.store(reg, self.REGS[reg], value)

    def set_layout(self, regs):
        """Another register map for this instance, as a mode bit switches it (a TC's counter width, a SERCOM's
        mode): REGS and the byte cover follow; the stored bytes stay."""
        layout = _LAYOUTS.get(id(regs))
        if layout is None or layout[0] is not regs:
            layout = _LAYOUTS[id(regs)] = (regs, cover_of(regs))
        self.REGS, self._cover = layout

    def value(self, reg):
        """What software last wrote to ``reg`` (or its reset value)."""
        return self.stored(reg, self.REGS[reg])

    def read_reg(self, reg):
        return self.stored(reg, self.REGS[reg])

    def write_reg(self, reg, bits, mask):
        self.store(reg, self.REGS[reg], (self.stored(reg, self.REGS[reg]) & ~mask) | bits)

    def read(self, offset, size):
        if self.REGS.get(offset) == size:    # the common case: a whole register
            return self.read_reg(offset)
        value = 0
        cover = self._cover
        for i in range(size):
            o = offset + i
            reg = cover.get(o)
            if reg is None:
                self.unmodelled(o, 1, "read")
                byte = self.stored(o, 1)
            else:
                byte = (self.read_reg(reg) >> (8 * (o - reg))) & 0xFF
            value |= byte << (8 * i)
        return value

    def write(self, offset, size, value):
        if self.REGS.get(offset) == size:
            self.write_reg(offset, value, (1 << (8 * size)) - 1)
            return
        cover = self._cover
        touched = {}
        for i in range(size):
            o = offset + i
            byte = (value >> (8 * i)) & 0xFF
            reg = cover.get(o)
            if reg is None:
                self.unmodelled(o, 1, "write", byte)
                self.store(o, 1, byte)
                continue
            bits, mask = touched.get(reg, (0, 0))
            shift = 8 * (o - reg)
            touched[reg] = (bits | (byte << shift), mask | (0xFF << shift))
        for reg, (bits, mask) in touched.items():
            self.write_reg(reg, bits, mask)
