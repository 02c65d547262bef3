"""Stand-ins for samd51.mcu.Mcu that the peripheral tests share, and the helpers that drive them."""

from samd51.mcu import PyCounter
from samd51.periph import dmac as D
from samd51.periph import sercom as S
from samd51.periph.gclk import Gclk
from samd51.periph.port import DIRSET, OUTCLR, OUTSET, Port, pin_number
from samd51.timing import FlashTiming
from unicorn import UC_ARCH_ARM, UC_MODE_MCLASS, UC_MODE_THUMB, Uc

RAM = 0x20000000


class ClockedMcu:
    """What both stand-ins share: a clock the test moves by hand (``advance``), one-shot events on it,
    pending IRQ lines, the log, and memory reads and writes that go to a peripheral's registers where
    one sits (``periph_at``), else to the stand-in's own memory (``ram_read``, ``ram_write``)."""

    def __init__(self):
        self.t = 0
        self.events = []
        self.pending = set()
        self.lines = []

    def now_ns(self):
        return self.t

    def cancel(self, handle):
        if handle is not None:
            handle[1] = None

    def advance(self, ns):
        end = self.t + ns
        while True:  # events an event schedules run too, in time order
            due = [e for e in self.events if e[1] is not None and e[0] <= end]
            if not due:
                break
            event = min(due, key=lambda e: e[0])
            self.t = max(self.t, event[0])
            fn, event[1] = event[1], None
            fn()
        self.events = [e for e in self.events if e[1] is not None]
        self.t = end

    def set_pending(self, irqn):
        self.pending.add(irqn)

    def clear_pending(self, irqn):
        self.pending.discard(irqn)

    @property
    def bus(self):
        return self

    def owner(self, addr):
        return self.periph_at(addr)[1]

    def mem_read(self, addr, n):
        base, p = self.periph_at(addr)
        if p is not None:
            return bytes(p.read(addr - base + i, 1) for i in range(n))
        return self.ram_read(addr, n)

    def mem_write(self, addr, data):
        base, p = self.periph_at(addr)
        if p is not None:
            for i, b in enumerate(bytes(data)):
                p.write(addr - base + i, 1, b)
        else:
            self.ram_write(addr, bytes(data))

    def log(self, kind, text):
        self.lines.append((kind, text))

    def unmodelled(self, periph, offset, size, op, value=None):
        self.lines.append(("unmodelled", "%s+0x%x %s" % (periph.NAME, offset, op)))


class PortMcu(ClockedMcu):
    """RAM as a bytearray, the real PORT, GCLK with every SERCOM core on generator 0's 48 MHz, a DMAC:
    what the display and key tests need."""

    def __init__(self):
        ClockedMcu.__init__(self)
        self.ram = bytearray(0x10000)
        self.periph = {}
        self.mmio = {}            # base -> peripheral, for DMA beats to registers
        self.add(Port(self))
        gclk = self.add(Gclk(self))
        for channel in S.GCLK_ID_CORE.values():
            gclk.write(Gclk.PCHCTRL + 4 * channel, 4, 0x40)
        self.add(D.Dmac(self, "DMAC", 0x4100A000, (31, 32, 33, 34, 35)))

    def add(self, p, base=None):
        self.periph[p.NAME] = p
        self.mmio[p.BASE if base is None else base] = p
        return p

    @property
    def port(self):
        return self.periph["PORT"]

    def peripheral(self, name):
        return self.periph.get(name)

    @property
    def cycles(self):
        return self.t * 120 // 1000

    def at(self, ns, fn):
        event = [self.t + max(0, int(ns)), fn]
        self.events.append(event)
        return event

    @staticmethod
    def decodes(addr):
        return addr >= 0x40000000

    def periph_at(self, addr):
        for base, p in self.mmio.items():
            if base <= addr < base + 0x400:
                return base, p
        return None, None

    def ram_read(self, addr, n):
        return bytes(self.ram[addr - RAM: addr - RAM + n])

    def ram_write(self, addr, data):
        self.ram[addr - RAM: addr - RAM + len(data)] = data


def gpio_out(mcu, pin, level):
    """A pin as digitalio drives it: an output, set or cleared."""
    n = pin_number(pin)
    group = 0x80 * (n // 32)
    mcu.port.write(group + DIRSET, 4, 1 << (n % 32))
    mcu.port.write(group + (OUTSET if level else OUTCLR), 4, 1 << (n % 32))


SERCOM4 = 0x43000000
CTRLA_SPI = (S.MODE_SPI_MASTER << S.MODE_SHIFT) | (2 << 16)     # DOPO 2: PAD3 data out, PAD1 clock


def spi(mcu, baud=0, rxen=True):
    """SERCOM4 as busio.SPI sets it up (spi_m_sync_init then configure): SWRST, mode, RXEN, BAUD, ENABLE."""
    s = mcu.add(S.Sercom(mcu, "SERCOM4", SERCOM4, (62, 63, 64, 65)))
    s.write(S.CTRLA, 4, S.CTRLA_SWRST)
    assert s.read(S.CTRLA, 4) & S.CTRLA_SWRST == 0 and s.read(S.SYNCBUSY, 4) == 0
    s.write(S.CTRLA, 4, CTRLA_SPI)
    s.write(S.CTRLB, 4, S.CTRLB_RXEN if rxen else 0)
    s.write(S.BAUD, 1, baud)
    s.write(S.CTRLA, 4, CTRLA_SPI | S.CTRLA_ENABLE)
    return s


class UnicornMcu(ClockedMcu):
    """A real Unicorn for the memory and the flash's timing: what the storage tests need."""

    hz = 120_000_000            # the CPU's clock, which the QSPI's SCK divides

    def __init__(self):
        ClockedMcu.__init__(self)
        self.mmio = []  # (base, size, peripheral)
        self.uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
        self.uc.mem_map(0, 0x80000)
        self.uc.mem_write(0, b"\xff" * 0x80000)
        self.uc.mem_map(RAM, 0x30000)
        self.timing = FlashTiming(PyCounter(), 48_000_000)   # CTRLA's wait states go to it

    def at(self, ns, fn):
        event = [self.t + ns, fn]
        self.events.append(event)
        return event

    def skip_poll(self, n):
        return 0                # no poll skipping (SkippingMcu in test_qspi has it)

    def decodes(self, addr):
        return self.periph_at(addr)[1] is not None

    def periph_at(self, addr):
        for base, size, p in self.mmio:
            if base <= addr < base + size:
                return base, p
        return None, None

    def ram_read(self, addr, n):
        return bytes(self.uc.mem_read(addr, n))

    def ram_write(self, addr, data):
        self.uc.mem_write(addr, data)
