"""MMIO dispatch: every peripheral address goes to the model that claims its 0x400 page.

Unicorn maps MMIO in 4 KB-aligned regions, while the SAMD51's peripherals sit 0x400 apart, so a few large
regions (the four APB bridges, the private peripheral bus, ...) share one dispatcher that looks the page up.
A model claims its whole bus slot; an offset in the slot past its register map (SIZE) is unimplemented: the
PAC's "illegal access". A page no model claims gets a plain register store that logs each (peripheral, offset)
once.
"""

import ctypes

from unicorn.unicorn_py3 import unicorn as _ucmod

from .periph import DATASHEET_BASES, Peripheral

PAGE = 0x400
# The APB bridges A-D and each one's slot a peripheral (datasheet "Product Mapping"): bridge B's are 8 KB.
BRIDGES = ((0x40000000, 0x400), (0x41000000, 0x2000), (0x42000000, 0x400), (0x43000000, 0x400))
BRIDGE_SPAN = 0x40000
# (base, size): the MMIO regions. Bridges A-D, SDHC0, the SmartEEPROM window and the private peripheral bus.
REGIONS = tuple((base, BRIDGE_SPAN) for base, _slot in BRIDGES) + (
    (0x44000000, 0x20000), (0x45000000, 0x1000), (0xE0000000, 0x100000))

# The QSPI's AHB window (memory-mapped serial flash): the peripheral named AHB_OWNER serves it whole.
QSPI_AHB = (0x04000000, 0x1000000)
AHB_OWNER = "QSPI"


POLL_READS = 16          # reads of the same few registers, same values, no write: the CPU is polling
POLL_ADDRESSES = 4


def slot_of(base):
    """The bus slot of a peripheral at ``base``: its bridge's, else a page."""
    place = bridge_slot(base)
    return BRIDGES[place[0]][1] if place else PAGE


def bridge_slot(base):
    """(bridge 0-3 for A-D, slot number on it) of a peripheral at ``base``, or None off the APB bridges: the
    slot number is its bit in the PAC's registers."""
    for n, (bridge, slot) in enumerate(BRIDGES):
        if bridge <= base < bridge + BRIDGE_SPAN:
            return n, (base - bridge) // slot
    return None


class Unclaimed(Peripheral):
    """A page no model claims: it keeps what is written and logs every new offset."""


class Bus:
    def __init__(self, mcu):
        self.mcu = mcu
        self.pages = {}      # page number -> peripheral
        self.by_name = {}
        self.ahb = None      # the owner of the QSPI AHB window
        self._callbacks = []
        for base, size in REGIONS:
            self._map(base, size, self._read, self._write)
        self._map(QSPI_AHB[0], QSPI_AHB[1], self._ahb_read, self._ahb_write)
        self._poll = {}      # address -> value read since the last write or change
        self._poll_reads = 0
        self.polls_skipped = 0   # cycles added by poll skipping (figures)

    def _map(self, base, size, read, write):
        """uc_mmio_map with our own ctypes callbacks: the binding's wrappers cost ~2 us an access."""
        uc = self.mcu.uc

        def on_read(_handle, offset, size, _ud):
            try:
                return read(base + offset, size)
            except BaseException as err:  # noqa: BLE001  (reported by Mcu after emu_start returns)
                self._fail(err)
                return 0

        def on_write(_handle, offset, size, value, _ud):
            try:
                write(base + offset, size, value)
            except BaseException as err:  # noqa: BLE001
                self._fail(err)

        rcb, wcb = _ucmod.MMIO_READ_CFUNC(on_read), _ucmod.MMIO_WRITE_CFUNC(on_write)
        self._callbacks += [rcb, wcb]   # ctypes callbacks must outlive the mapping
        status = _ucmod.uclib.uc_mmio_map(uc._uch, base, size, ctypes.cast(rcb, ctypes.c_void_p), None,
                                          ctypes.cast(wcb, ctypes.c_void_p), None)
        if status != 0:
            raise _ucmod.UcError(status)

    def _fail(self, err):
        uc = self.mcu.uc
        if uc._hook_exception is None:     # the binding's own slot for an error raised in a callback
            uc._hook_exception = err
        uc.emu_stop()

    def attach(self, periph):
        """Claim the pages of the bus slot of ``periph`` (replacing an earlier claim, so a board may swap a
        model). Offsets in the slot past its SIZE (the datasheet's register map) are unimplemented."""
        span = max(periph.SIZE, slot_of(periph.BASE))
        for page in range(periph.BASE // PAGE, (periph.BASE + span - 1) // PAGE + 1):
            self.pages[page] = periph
        self.by_name[periph.NAME] = periph
        if periph.NAME == AHB_OWNER:
            self.ahb = periph
        return periph

    @staticmethod
    def decodes(addr):
        """True for an address in a region this dispatcher serves (peripherals, the QSPI window)."""
        return any(base <= addr < base + size for base, size in REGIONS + (QSPI_AHB,))

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
        periph = self.pages.get(addr // PAGE) or self.owner(addr)
        offset = addr - periph.BASE
        if offset >= periph.SIZE:
            return self.unimplemented(periph, offset, size, "read")
        return periph.read(offset, size)

    def write(self, addr, size, value):
        if size == 8:
            self.write(addr, 4, value & 0xFFFFFFFF)
            self.write(addr + 4, 4, value >> 32)
            return
        periph = self.pages.get(addr // PAGE) or self.owner(addr)
        offset = addr - periph.BASE
        if offset >= periph.SIZE:
            self.unimplemented(periph, offset, size, "write", value)
            return
        periph.write(offset, size, value)

    def unimplemented(self, periph, offset, size, op, value=None):
        """An access past the register map, in the peripheral's slot: the PAC's "illegal access", a
        peripheral access error. A write is dropped and a read gives 0 (no bus fault: the firmware runs
        on)."""
        self.mcu.unmodelled(periph, offset, size, "unimplemented " + op, value)
        pac, place = self.by_name.get("PAC"), bridge_slot(periph.BASE)
        if pac is not None and place is not None:
            pac.access_error(*place)
        return 0

    def _read(self, addr, size):
        value = self.read(addr, size)
        self._watch(addr, value)
        return value

    def _write(self, addr, size, value):
        self._poll.clear()
        self._poll_reads = 0
        self.write(addr, size, value)

    def _watch(self, addr, value):
        """Poll skipping: a CPU that only re-reads a few registers and sees nothing change is spinning; let
        the time it would spin pass at once (doubling, never past the next scheduled event)."""
        poll = self._poll
        if poll.get(addr, value) != value or (addr not in poll and len(poll) >= POLL_ADDRESSES):
            poll.clear()
            self._poll_reads = 0
        poll[addr] = value
        self._poll_reads += 1
        if self._poll_reads > POLL_READS:
            self.polls_skipped += self.mcu.skip_poll(self._poll_reads - POLL_READS)

    def _ahb_read(self, addr, size):
        return (self.ahb or self._no_ahb()).ahb_read(addr - QSPI_AHB[0], size)

    def _ahb_write(self, addr, size, value):
        (self.ahb or self._no_ahb()).ahb_write(addr - QSPI_AHB[0], size, value)

    def _no_ahb(self):
        """No model of the window's owner: its datasheet page, which logs each window access it sees."""
        base = next(b for b, name in DATASHEET_BASES.items() if name == AHB_OWNER)
        return self.owner(base)
