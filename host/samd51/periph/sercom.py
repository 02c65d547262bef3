"""SERCOM0..5: one class, owning the mode CTRLA.MODE selects: SPI master in full, USART and I2C master enough
that a driver never hangs.

The wire is lazy (wire.py): DRE, TXC and RXC are worked out from ``mcu.now_ns()`` against each character's
wire times. The attached part gets each byte when it is accepted, with the chip-select and D/C levels of that
moment: CircuitPython's drivers wait for TXC before they move either pin, so those are the levels on the wire.

DMA: DRE is a level request, and the lazy wire takes any byte, so the TX request (``dmac.trigger``, held by
the DMAC until a channel serves it) stands from ENABLE on and is raised again by each byte: a DMA write runs
ahead, its bytes queued with their wire times. The channel completes early; TXC comes at the true end of the
last byte, which is what sercom_dma_write waits for. The RX request stands while a received byte is unread.
"""

from . import Registers
from .port import pin_number as _pin_number
from .wire import DRE, RX_KEEP, RXC, TXC, Wire

# Register offsets (datasheet "SERCOM SPI/USART/I2C - Register Summary"; SPI names where they coincide)
CTRLA = 0x00
CTRLB = 0x04
CTRLC = 0x08
BAUD = 0x0C
RXPL = 0x0E              # USART
INTENCLR = 0x14
INTENSET = 0x16
INTFLAG = 0x18
STATUS = 0x1A
SYNCBUSY = 0x1C
RXERRCNT = 0x20          # USART
LENGTH = 0x22            # SPI, USART
ADDR = 0x24
DATA = 0x28
DBGCTRL = 0x30

# CTRLA
CTRLA_SWRST = 1 << 0
CTRLA_ENABLE = 1 << 1
MODE_SHIFT = 2
MODE_USART_EXT, MODE_USART_INT, MODE_SPI_SLAVE, MODE_SPI_MASTER, MODE_I2C_SLAVE, MODE_I2C_MASTER = range(6)
# CTRLB
CTRLB_CHSIZE = 0x7
CTRLB_RXEN = 1 << 17
I2CM_CTRLB_CMD_SHIFT = 16
# CTRLC
CTRLC_DATA32B = 1 << 24
# INTFLAG (SPI/USART: DRE TXC RXC, wire.py; I2C master: MB SB)
SSL, ERROR = 1 << 3, 1 << 7
I2CM_MB, I2CM_SB = 1 << 0, 1 << 1
# STATUS
BUFOVF = 1 << 2
I2CM_RXNACK = 1 << 2
I2CM_BUSSTATE_SHIFT = 4
BUSSTATE_IDLE, BUSSTATE_OWNER = 1, 2

GCLK_ID_CORE = {"SERCOM0": 7, "SERCOM1": 8, "SERCOM2": 23, "SERCOM3": 24, "SERCOM4": 34, "SERCOM5": 35}
MISO_IDLE = 0xFF             # what a read sees with no part answering
COMMON = {CTRLA: 4, CTRLB: 4, CTRLC: 4, INTENCLR: 1, INTENSET: 1, INTFLAG: 1, STATUS: 2, SYNCBUSY: 4,
          ADDR: 4, DATA: 4, DBGCTRL: 1}


def pin_number(pin):
    return None if pin is None else _pin_number(pin) if isinstance(pin, str) else int(pin)


class SpiPart:
    """What a SERCOM asks of a part on its SPI pins (a part need not derive from this, only answer so)."""

    def spi_byte(self, byte, dc):
        """One byte while chip select is low, with the D/C pin's level; returns the MISO byte or None."""
        raise NotImplementedError

    def spi_bytes(self, data, dc):
        """A DMA block with one D/C level: the MISO bytes, or None for a part that answers nothing."""
        return [self.spi_byte(b, dc) for b in data]


class Mode:
    """What a mode does with the registers it shares with the others (CTRLA.MODE picks one)."""

    REGS = COMMON

    def __init__(self, sercom):
        self.s = sercom

    def intflag(self, now):
        return self.s.flags_w1 | self.s.wire.flags(now)

    def enabled(self, on):
        if not on:
            self.s.request(self.s.trig_tx, False)

    def dma_block(self, data):
        return 0

    def ctrlb_written(self, value):
        pass

    def addr_written(self, value):
        pass


class Spi(Mode):
    """SPI master: bytes out to the attached part with the wire's times, bytes received, the DMA requests."""

    REGS = {**COMMON, BAUD: 1, LENGTH: 2}

    def char_bits(self):
        s = self.s
        return 32 if s.value(CTRLC) & CTRLC_DATA32B else 9 if s.value(CTRLB) & CTRLB_CHSIZE == 1 else 8

    def bit_rate(self, ref_hz):
        """Synchronous: f_ref / (2 (BAUD + 1))."""
        return ref_hz / (2 * (self.s.value(BAUD) + 1))

    def enabled(self, on):
        self.s.request(self.s.trig_tx, on)

    def data_write(self, value):
        s = self.s
        wire = s.wire
        wire.send(s.mcu.now_ns(), s.char_ns())
        s.bytes_out += 1
        miso = s.shift(value)
        if s.value(CTRLB) & CTRLB_RXEN:
            if wire.receive(wire.last_end, MISO_IDLE if miso is None else miso & 0xFF):
                s.request(s.trig_rx)
            else:
                s.status |= BUFOVF   # far more unread than the buffer holds: lost (flagged a little early)
        s.request(s.trig_tx)

    def dma_block(self, data):
        """A whole TX block in one call: the same wire times, bytes and requests as one beat at a time;
        0 when an RX channel waits on the same transfer (then beat by beat)."""
        s = self.s
        rx = bool(s.value(CTRLB) & CTRLB_RXEN)
        if rx and s.dmac().waiting(s.trig_rx):
            return 0
        char_ns = s.char_ns()
        wire, n = s.wire, len(data)
        wire.send(s.mcu.now_ns(), char_ns)
        first_end = wire.last_end
        wire.last_end += (n - 1) * char_ns
        wire.last_start = wire.last_end - char_ns
        s.bytes_out += n
        miso = s.shift_block(data)
        if rx:
            room = max(0, RX_KEEP - len(wire.rx))
            for i in range(min(n, room)):
                b = miso[i] if miso is not None and miso[i] is not None else MISO_IDLE
                wire.receive(first_end + i * char_ns, b & 0xFF)
            if n > room:
                s.status |= BUFOVF
            s.request(s.trig_rx)
        s.request(s.trig_tx)
        return n


class Usart(Mode):
    """USART: characters out with their wire times (to nobody), in through ``Sercom.uart_feed``."""

    REGS = {**COMMON, BAUD: 2, RXPL: 1, RXERRCNT: 1, LENGTH: 2}

    def bit_rate(self, ref_hz):
        """Asynchronous arithmetic: f_ref (1 - BAUD / 65536) / 16."""
        return max(ref_hz * (65536 - self.s.value(BAUD)) / 65536 / 16, 1.0)

    def char_bits(self):
        return 10                                   # start, 8 data, stop

    def data_write(self, value):
        s = self.s
        s.wire.send(s.mcu.now_ns(), s.char_ns())
        s.bytes_out += 1


class I2cMaster(Mode):
    """An I2C master with nobody on the bus: every address is NACKed."""

    REGS = {**COMMON, BAUD: 4}

    def char_bits(self):
        return 9                                    # 8 data, ACK

    def bit_rate(self, ref_hz):
        return 100_000.0

    def intflag(self, now):
        return self.s.flags_w1

    def data_write(self, value):
        self.s.flags_w1 |= I2CM_MB                  # the byte went nowhere: no slave, NACK
        self.s.status |= I2CM_RXNACK

    def addr_written(self, value):
        """An address goes out and nobody acknowledges: MB (write) or SB (read) with RXNACK, bus owned."""
        s = self.s
        addr = value & 0x7FF
        s.flags_w1 |= I2CM_SB if addr & 1 else I2CM_MB
        s.status = (s.status & ~(0x3 << I2CM_BUSSTATE_SHIFT)) | I2CM_RXNACK
        s.status |= BUSSTATE_OWNER << I2CM_BUSSTATE_SHIFT
        s.mcu.log("sercom", "%s: I2C address 0x%02X, no device" % (s.NAME, addr >> 1))

    def ctrlb_written(self, value):
        if (value >> I2CM_CTRLB_CMD_SHIFT) & 0x3 == 3:     # STOP
            self.busstate(BUSSTATE_IDLE)

    def busstate(self, state):
        s = self.s
        s.status = (s.status & ~(0x3 << I2CM_BUSSTATE_SHIFT)) | (state << I2CM_BUSSTATE_SHIFT)


MODES = {MODE_USART_EXT: Usart, MODE_USART_INT: Usart, MODE_SPI_SLAVE: Spi, MODE_SPI_MASTER: Spi,
         MODE_I2C_SLAVE: I2cMaster, MODE_I2C_MASTER: I2cMaster}


class Sercom(Registers):
    NAME = "SERCOM4"
    BASE = None
    SIZE = DBGCTRL + 1
    REGS = Spi.REGS

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        self.index = int(self.NAME[6:])
        self.trig_rx = 4 + 2 * self.index      # DMAC CHCTRLA.TRIGSRC: SERCOMn RX, TX
        self.trig_tx = 5 + 2 * self.index
        self.part = None
        self.cs = self.dc = None
        self.bytes_out = 0                     # bytes shifted since power-on (figures)

    def attach(self, part, cs=None, dc=None):
        """Put ``part`` (a SpiPart) on the SPI pins: it hears each byte while the ``cs`` pin is low, with
        the ``dc`` pin's level (pins by name, "PB07", or number; None: not wired)."""
        self.part, self.cs, self.dc = part, pin_number(cs), pin_number(dc)

    def reset(self):
        super().reset()
        self.inten = 0
        self.flags_w1 = 0       # INTFLAG bits set by events and cleared by writing 1 (SSL, ERROR, I2C MB/SB)
        self.status = 0
        self.wire = Wire()
        self._event = None
        self._lines = 0         # IRQ lines now pending (bit per line)
        self._char_ns = None    # the time a character takes, kept until the configuration changes
        self.set_mode(Spi)

    def set_mode(self, cls):
        self.mode = cls(self)
        self.set_layout(cls.REGS)

    # -- configuration ------------------------------------------------------------------------------------
    @property
    def enabled(self):
        return bool(self.value(CTRLA) & CTRLA_ENABLE)

    def ref_hz(self):
        """The core clock: the SERCOM's GCLK channel."""
        return self.mcu.peripheral("GCLK").channel_hz(GCLK_ID_CORE[self.NAME])

    def bit_rate(self):
        return self.mode.bit_rate(self.ref_hz())

    def char_ns(self):
        """A character's time on the wire (infinite without a core clock: nothing moves)."""
        if self._char_ns is None:
            rate = self.bit_rate()
            self._char_ns = self.mode.char_bits() * 1e9 / rate if rate else float("inf")
        return self._char_ns

    # -- registers ----------------------------------------------------------------------------------------
    def read(self, offset, size):
        if offset == DATA:                              # one character, whatever the access's width
            return self.data_read() & ((1 << (8 * size)) - 1)
        return super().read(offset, size)

    def read_reg(self, reg):
        if reg == INTFLAG:
            return self.intflag()
        if reg == STATUS:
            return self.status_now()
        if reg in (INTENCLR, INTENSET):
            return self.inten
        if reg == SYNCBUSY:
            return 0                                    # synchronisation is immediate
        if reg == DATA:
            return self.data_read()
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == DATA:
            if self.enabled:
                self.mode.data_write(bits)
        elif reg == INTFLAG:
            self.clear_flags(bits)
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == INTENSET:
            self.inten |= bits
        elif reg == STATUS:
            self.write_status(bits)
        elif reg == CTRLA and bits & CTRLA_SWRST:
            self.reset()                                # SWRST wins over the other bits of the same write
            self.request(self.trig_tx, False)
            self.request(self.trig_rx, False)
        elif reg != SYNCBUSY:
            super().write_reg(reg, bits, mask)
            self._char_ns = None
            self.configured(reg, bits)
        self.update_irq()

    def configured(self, reg, bits):
        if reg == CTRLA:
            cls = MODES.get((self.value(CTRLA) >> MODE_SHIFT) & 0x7, Spi)
            if type(self.mode) is not cls:
                self.set_mode(cls)
            self.mode.enabled(self.enabled)
        elif reg == CTRLB:
            self.mode.ctrlb_written(bits)
        elif reg == ADDR:
            self.mode.addr_written(bits)

    def intflag(self):
        return self.mode.intflag(self.mcu.now_ns()) if self.enabled else self.flags_w1

    def status_now(self):
        if self.wire.overflowed(self.mcu.now_ns()):
            self.status |= BUFOVF
        return self.status

    def write_status(self, value):
        """Error bits clear by writing 1; an I2C master's BUSSTATE is written (to force IDLE)."""
        self.status &= ~value
        if isinstance(self.mode, I2cMaster) and value & (0x3 << I2CM_BUSSTATE_SHIFT):
            self.mode.busstate((value >> I2CM_BUSSTATE_SHIFT) & 0x3)

    def clear_flags(self, bits):
        if bits & TXC:
            self.wire.clear_txc(self.mcu.now_ns())
        self.flags_w1 &= ~bits

    # -- the shifter ----------------------------------------------------------------------------------------
    def shift(self, value):
        """A byte to the part (if chip select is low): its MISO byte or None."""
        part, port = self.part, self.mcu.port
        if part is None or (self.cs is not None and port.level(self.cs)):
            return None
        return part.spi_byte(value & 0xFF, port.level(self.dc) if self.dc is not None else None)

    def shift_block(self, data):
        part, port = self.part, self.mcu.port
        if part is None or (self.cs is not None and port.level(self.cs)):
            return None
        return part.spi_bytes(data, port.level(self.dc) if self.dc is not None else None)

    def data_read(self):
        """The oldest received byte: once its time has come, at once for a DMA beat (the wire runs ahead)."""
        now = self.mcu.now_ns()
        dma = self.dmac().moving
        if not dma and self.wire.overflowed(now):
            self.status |= BUFOVF
        value = self.wire.pop(now, dma)
        if value is not None and not self.wire.rx:
            self.request(self.trig_rx, False)
        return 0 if value is None else value

    def dma_block(self, offset, data):
        """A whole DMA block for DATA in one call (the DMAC's fast path for a TX channel this SERCOM paces).
        Returns how many bytes it took (0: go beat by beat)."""
        if offset != DATA or not self.enabled or not data:
            return 0
        n = self.mode.dma_block(data)
        if n:
            self.update_irq()
        return n

    def uart_feed(self, data):
        """Bytes arriving on a USART's RX pad now (the harness's side of a serial line)."""
        now = float(self.mcu.now_ns())
        for i, b in enumerate(data):
            self.wire.receive(now + i * self.char_ns(), b)
        self.update_irq()

    # -- DMA and interrupts ----------------------------------------------------------------------------------
    def dmac(self):
        return self.mcu.peripheral("DMAC")

    def request(self, trigsrc, on=True):
        """A request line: DRE for TX, RXC for RX. Raised inside a DMA beat it is queued by the DMAC and
        served by the same loop, so a whole transfer runs in one go."""
        dmac = self.dmac()
        (dmac.trigger if on else dmac.untrigger)(trigsrc)

    def update_irq(self):
        """Lines 0..2 carry DRE/TXC/RXC (I2C: MB/SB/DRDY), line 3 the rest; a flag due later gets an event."""
        if not (self.inten or self._lines):
            return
        flags = self.intflag() & self.inten
        lines = 0
        for line, mask in enumerate((0x01, 0x02, 0x04, 0xF8)):
            if flags & mask:
                lines |= 1 << line
                self.mcu.set_pending(self.IRQS[line])
            elif self._lines & (1 << line):
                self.mcu.clear_pending(self.IRQS[line])
        self._lines = lines
        self.schedule()

    def schedule(self):
        if self._event is not None:
            self.mcu.cancel(self._event)
            self._event = None
        if not self.inten & (DRE | TXC | RXC) or isinstance(self.mode, I2cMaster):
            return
        now = self.mcu.now_ns()
        due = self.wire.next_due(now, self.inten)
        if due is not None and due != float("inf"):
            self._event = self.mcu.at(int(due - now) + 1, self.on_due)

    def on_due(self):
        self._event = None
        self.update_irq()


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Sercom, "SERCOM0", 0x40003000, (46, 47, 48, 49)),
    (Sercom, "SERCOM1", 0x40003400, (50, 51, 52, 53)),
    (Sercom, "SERCOM2", 0x41012000, (54, 55, 56, 57)),
    (Sercom, "SERCOM3", 0x41014000, (58, 59, 60, 61)),
    (Sercom, "SERCOM4", 0x43000000, (62, 63, 64, 65)),
    (Sercom, "SERCOM5", 0x43000400, (66, 67, 68, 69)),
]
