"""SERCOM0..5: SPI master in full, USART and I2C master enough that a driver never hangs.

The wire is lazy: a byte written to DATA gets its wire times at once (it starts when the shifter is free and
takes 8 bits / baud), and DRE, TXC and RXC are worked out from ``mcu.now_ns()`` against those times. So a busy
wait sees the true byte times, with no event per byte. The attached part (``attach``) gets each byte when
it is accepted, with the chip-select and D/C levels of that moment: CircuitPython's drivers wait for TXC
before they move either pin, so those are the levels on the wire.

DMA: DRE is a level request, and the lazy wire takes any byte, so the TX request (``dmac.trigger``, held by
the DMAC until a channel serves it) stands from ENABLE on and is raised again by each byte: a DMA write runs
ahead, its bytes queued with their wire times. The channel completes early; TXC comes at the true end of the
last byte, which is what sercom_dma_write waits for. The RX request stands while a received byte is unread.
"""

from collections import deque

from . import Peripheral
from .port import pin_number as _pin_number

# Register offsets (datasheet 34/35/36 "Register Summary"; SPI names, the USART and I2C ones coincide)
CTRLA = 0x00
CTRLB = 0x04
CTRLC = 0x08
BAUD = 0x0C
RXPL = 0x0E
INTENCLR = 0x14
INTENSET = 0x16
INTFLAG = 0x18
STATUS = 0x1A
SYNCBUSY = 0x1C
RXERRCNT = 0x20
LENGTH = 0x22
ADDR = 0x24
DATA = 0x28
DBGCTRL = 0x30
PLAIN = {CTRLA: 4, CTRLB: 4, CTRLC: 4, BAUD: 2, RXPL: 1, LENGTH: 2, ADDR: 4, DBGCTRL: 1}

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
# INTFLAG (SPI/USART: DRE TXC RXC; I2C master: MB SB)
DRE, TXC, RXC, SSL, ERROR = 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 7
I2CM_MB, I2CM_SB = 1 << 0, 1 << 1
# STATUS
BUFOVF = 1 << 2
I2CM_RXNACK = 1 << 2
I2CM_BUSSTATE_SHIFT = 4
BUSSTATE_IDLE, BUSSTATE_OWNER = 1, 2

RX_LEVELS = 2                # the receive buffer's depth (two characters)
RX_KEEP = 8                  # received bytes kept before their time comes (more are surely lost)
GCLK_HZ = 48_000_000         # GCLK1 (DFLL48M) feeds every SERCOM core in CircuitPython
GCLK_ID_CORE = {"SERCOM0": 7, "SERCOM1": 8, "SERCOM2": 23, "SERCOM3": 24, "SERCOM4": 34, "SERCOM5": 35}
MISO_IDLE = 0xFF             # what a read sees with no part answering


def pin_number(pin):
    return None if pin is None else _pin_number(pin) if isinstance(pin, str) else int(pin)


class Wire:
    """The lazy wire: each character's wire times, and what DRE/TXC/RXC say at a given time."""

    def __init__(self):
        self.last_start = 0.0   # wire time (ns) the last written character left DATA for the shifter
        self.last_end = 0.0     # wire time it was all out
        self.txc_cleared = True
        self.rx = deque()       # (time it is in, byte) not yet read

    def send(self, now, char_ns):
        start = max(float(now), self.last_end)
        self.last_start, self.last_end = start, start + char_ns
        self.txc_cleared = False

    def flags(self, now):
        flags = DRE if self.last_start <= now else 0
        if not self.txc_cleared and self.last_end <= now:
            flags |= TXC
        if self.rx and self.rx[0][0] <= now:
            flags |= RXC
        return flags

    def clear_txc(self, now):
        if self.last_end <= now:
            self.txc_cleared = True

    def receive(self, at, byte):
        """A character coming in at ``at``; False when far more are unread than the buffer holds (lost)."""
        if len(self.rx) >= RX_KEEP:
            return False
        self.rx.append((at, byte))
        return True

    def pop(self, now, dma):
        """The oldest received byte once its time has come (at once for a DMA beat: the wire runs ahead)."""
        if self.rx and (dma or self.rx[0][0] <= now):
            return self.rx.popleft()[1]
        return None

    def overflowed(self, now):
        """Bytes past the receive buffer's two levels are lost: True if one was."""
        rx, lost = self.rx, False
        while len(rx) > RX_LEVELS and rx[RX_LEVELS][0] <= now:
            del rx[RX_LEVELS]
            lost = True
        return lost

    def next_due(self, now, inten):
        """When the next enabled flag turns on, or None."""
        due = [t for t, bit in ((self.last_start, DRE), (self.last_end, TXC)) if t > now and inten & bit]
        if self.rx and inten & RXC and self.rx[0][0] > now:
            due.append(self.rx[0][0])
        return min(due) if due else None


class I2cMaster:
    """An I2C master with nobody on the bus: every address is NACKed (a mixin of Sercom)."""

    def _i2c_address(self, addr):
        """An address goes out and nobody acknowledges: MB (write) or SB (read) with RXNACK, bus owned."""
        self.flags_w1 |= I2CM_SB if addr & 1 else I2CM_MB
        self.status = (self.status & ~(0x3 << I2CM_BUSSTATE_SHIFT)) | I2CM_RXNACK
        self.status |= BUSSTATE_OWNER << I2CM_BUSSTATE_SHIFT
        self.mcu.log("sercom", "%s: I2C address 0x%02X, no device" % (self.NAME, addr >> 1))

    def _i2c_command(self, cmd):
        if cmd == 3:                                    # STOP
            self._busstate(BUSSTATE_IDLE)

    def _busstate(self, state):
        self.status = (self.status & ~(0x3 << I2CM_BUSSTATE_SHIFT)) | (state << I2CM_BUSSTATE_SHIFT)


class Shifter:
    """DATA and the shifter: bytes out to the attached part with the wire's times, bytes received, the DMA
    requests (a mixin of Sercom)."""

    def _data_write(self, value):
        if not self.enabled:
            return
        if self.mode == MODE_I2C_MASTER:
            self.flags_w1 |= I2CM_MB                    # the byte went nowhere: no slave, NACK
            self.status |= I2CM_RXNACK
            return
        wire = self.wire
        char_ns = self._char_ns
        if char_ns is None:
            char_ns = self._char_ns = self.char_ns()
        wire.send(self.mcu.now_ns(), char_ns)
        self.bytes_out += 1
        miso = self._shift(value)
        if self.mode in (MODE_USART_EXT, MODE_USART_INT):
            return
        if self.ctrlb & CTRLB_RXEN:
            if wire.receive(wire.last_end, MISO_IDLE if miso is None else miso & 0xFF):
                self._request(self.trig_rx)
            else:
                self.status |= BUFOVF   # far more unread than the buffer holds: lost (flagged a little early)
        self._request(self.trig_tx)

    def dma_block(self, offset, data):
        """A whole DMA block for DATA in one call (the DMAC's fast path for a TX channel this SERCOM
        paces): the same wire times, bytes and requests as one beat at a time. Returns how many bytes it
        took (0: go beat by beat, e.g. an RX channel waits on the same transfer)."""
        if offset != DATA or not self.enabled or self.mode != MODE_SPI_MASTER or not data:
            return 0
        rx = bool(self.ctrlb & CTRLB_RXEN)
        if rx and self._dmac() is not None and self._dmac().waiting(self.trig_rx):
            return 0
        char_ns = self._char_ns
        if char_ns is None:
            char_ns = self._char_ns = self.char_ns()
        wire, n = self.wire, len(data)
        wire.send(self.mcu.now_ns(), char_ns)
        first_end = wire.last_end
        wire.last_end += (n - 1) * char_ns
        wire.last_start = wire.last_end - char_ns
        self.bytes_out += n
        miso = self._shift_block(data)
        if rx:
            room = max(0, RX_KEEP - len(wire.rx))
            for i in range(min(n, room)):
                b = miso[i] if miso is not None and miso[i] is not None else MISO_IDLE
                wire.receive(first_end + i * char_ns, b & 0xFF)
            if n > room:
                self.status |= BUFOVF
            self._request(self.trig_rx)
        self._request(self.trig_tx)
        return n

    def _shift_block(self, data):
        """The bytes to the part: in one call if it takes blocks (write-only), else each with its MISO."""
        part = self.part
        port = self.mcu.port
        if part is None or (self.cs is not None and port.level(self.cs)):
            return None
        dc = port.level(self.dc) if self.dc is not None else None
        bulk = getattr(part, "spi_bytes", None)
        if bulk is not None:
            bulk(data, dc)
            return None
        return [part.spi_byte(b, dc) for b in data]

    def _shift(self, value):
        part = self.part
        if part is None:
            return None
        port = self.mcu.port
        if self.cs is not None and port.level(self.cs):
            return None
        dc = port.level(self.dc) if self.dc is not None else None
        return part.spi_byte(value & 0xFF, dc)

    def _data_read(self):
        """The oldest received byte: once its time has come, at once for a DMA beat (the wire runs ahead)."""
        now = self.mcu.now_ns()
        dma = self._dma_moving()
        if not dma and self.wire.overflowed(now):
            self.status |= BUFOVF
        value = self.wire.pop(now, dma)
        if value is not None and not self.wire.rx:
            self._request(self.trig_rx, False)
        return 0 if value is None else value

    def uart_feed(self, data):
        """Bytes arriving on a USART's RX pad now (the harness's side of a serial line)."""
        now = float(self.mcu.now_ns())
        for i, b in enumerate(data):
            self.wire.receive(now + i * self.char_ns(), b)
        self._update_irq()

    # -- DMA ---------------------------------------------------------------------------------------------
    def _dmac(self):
        return self.mcu.peripheral("DMAC")

    def _request(self, trigsrc, on=True):
        """A request line: DRE for TX, RXC for RX. Raised inside a DMA beat it is queued by the DMAC and
        served by the same loop, so a whole transfer runs in one go."""
        dmac = self._dmac()
        if dmac is not None:
            (dmac.trigger if on else dmac.untrigger)(trigsrc)

    def _dma_moving(self):
        return bool(getattr(self._dmac(), "moving", False))


class Sercom(Shifter, I2cMaster, Peripheral):
    NAME = "SERCOM4"
    BASE = None

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        self.index = int(self.NAME[6:])
        self.trig_rx = 4 + 2 * self.index      # DMAC CHCTRLA.TRIGSRC: SERCOMn RX, TX
        self.trig_tx = 5 + 2 * self.index
        self.part = None
        self.cs = self.dc = None
        self.bytes_out = 0                     # bytes shifted since power-on (figures)
        self.reset()

    def attach(self, part, cs=None, dc=None):
        """``part.spi_byte(byte, dc_level) -> miso byte or None``, each byte while ``cs`` (a pin) is low."""
        self.part, self.cs, self.dc = part, pin_number(cs), pin_number(dc)

    def reset(self):
        super().reset()
        self.inten = 0
        self.flags_w1 = 0       # INTFLAG bits set by events and cleared by writing 1 (SSL, ERROR, I2C MB/SB)
        self.status = 0
        self.wire = Wire()
        self._event = None
        self._lines = 0         # IRQ lines now pending (bit per line)
        self.ctrla = self.ctrlb = self.ctrlc = 0
        self._char_ns = None    # the time a character takes, kept until the configuration changes

    # -- configuration ------------------------------------------------------------------------------------
    @property
    def mode(self):
        return (self.ctrla >> MODE_SHIFT) & 0x7

    @property
    def enabled(self):
        return bool(self.ctrla & CTRLA_ENABLE)

    def ref_hz(self):
        gclk = self.mcu.peripheral("GCLK")
        hz = getattr(gclk, "channel_hz", None)
        return (hz(GCLK_ID_CORE[self.NAME]) if hz else 0) or GCLK_HZ

    def bit_rate(self):
        """Bits per second on the wire: SPI f/(2(BAUD+1)); USART arithmetic f(1 - BAUD/65536)/16."""
        baud = self.stored(BAUD, 2)
        if self.mode in (MODE_SPI_MASTER, MODE_SPI_SLAVE):
            return self.ref_hz() / (2 * ((baud & 0xFF) + 1))
        if self.mode in (MODE_USART_EXT, MODE_USART_INT):
            return max(self.ref_hz() * (65536 - baud) / 65536 / 16, 1.0)
        return 100_000.0

    def char_ns(self):
        if self.mode in (MODE_USART_EXT, MODE_USART_INT):
            bits = 10                                   # start, 8 data, stop
        elif self.ctrlc & CTRLC_DATA32B:
            bits = 32
        else:
            bits = 9 if self.ctrlb & CTRLB_CHSIZE == 1 else 8
        return bits * 1e9 / self.bit_rate()

    # -- register access ----------------------------------------------------------------------------------
    def read(self, offset, size):
        if offset == INTFLAG and size == 1:
            return self.intflag()
        if offset == DATA:
            return self._data_read()
        value = 0
        for i in range(size):
            value |= self._read_byte(offset + i) << (8 * i)
        return value

    def _read_byte(self, o):
        if o == INTFLAG:
            return self.intflag()
        if o in (STATUS, STATUS + 1):
            return (self.status_now() >> (8 * (o - STATUS))) & 0xFF
        if o in (INTENCLR, INTENSET):
            return self.inten
        if SYNCBUSY <= o < SYNCBUSY + 4:
            return 0                                    # synchronisation is immediate
        if DATA <= o < DATA + 4:
            return 0
        base = self._plain_base(o)
        if base is None:
            self.unmodelled(o, 1, "read")
        return self.stored(o, 1)

    @staticmethod
    def _plain_base(o):
        for base, n in PLAIN.items():
            if base <= o < base + n:
                return base
        return None

    def write(self, offset, size, value):
        if offset == DATA:
            self._data_write(value)
        elif offset == INTFLAG:
            self._clear_flags(value & 0xFF)
        elif offset == INTENCLR:
            self.inten &= ~value & 0xFF
        elif offset == INTENSET:
            self.inten |= value & 0xFF
        elif offset == STATUS:
            self._write_status(value & 0xFFFF)
        elif self._plain_base(offset) is not None:
            self._write_plain(offset, size, value)
        else:
            self.unmodelled(offset, size, "write", value)
            self.store(offset, size, value)
        self._update_irq()

    def _write_plain(self, offset, size, value):
        if offset == CTRLA and value & CTRLA_SWRST:
            self.reset()                                # SWRST wins over the other bits of the same write
            self._request(self.trig_tx, False)
            self._request(self.trig_rx, False)
            return
        self.store(offset, size, value)
        self._char_ns = None
        self.ctrla, self.ctrlb = self.stored(CTRLA, 4), self.stored(CTRLB, 4)
        self.ctrlc = self.stored(CTRLC, 4)
        if offset == CTRLA:
            if self.enabled and self.mode == MODE_SPI_MASTER:
                self._request(self.trig_tx)
            elif not self.enabled:
                self._request(self.trig_tx, False)
        if offset == CTRLB and self.mode == MODE_I2C_MASTER:
            self._i2c_command((value >> I2CM_CTRLB_CMD_SHIFT) & 0x3)
        if offset == ADDR and self.mode == MODE_I2C_MASTER:
            self._i2c_address(value & 0x7FF)

    # -- the wire -----------------------------------------------------------------------------------------
    def intflag(self):
        now = self.mcu.now_ns()
        mode = self.mode
        if mode == MODE_I2C_MASTER:
            return self.flags_w1
        return self.flags_w1 | self.wire.flags(now) if self.enabled else self.flags_w1

    def status_now(self):
        if self.wire.overflowed(self.mcu.now_ns()):
            self.status |= BUFOVF
        return self.status

    def _write_status(self, value):
        """Error bits clear by writing 1; an I2C master's BUSSTATE is written (to force IDLE)."""
        self.status &= ~value
        if self.mode == MODE_I2C_MASTER and value & (0x3 << I2CM_BUSSTATE_SHIFT):
            self._busstate((value >> I2CM_BUSSTATE_SHIFT) & 0x3)

    def _clear_flags(self, bits):
        if bits & TXC:
            self.wire.clear_txc(self.mcu.now_ns())
        self.flags_w1 &= ~bits

    # -- interrupts ---------------------------------------------------------------------------------------
    def _update_irq(self):
        """Lines 0..2 carry DRE/TXC/RXC (I2C: MB/SB/DRDY), line 3 the rest; a flag due later gets an event."""
        if not self.IRQS or not (self.inten or self._lines):
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
        self._schedule()

    def _schedule(self):
        if self._event is not None:
            self.mcu.cancel(self._event)
            self._event = None
        if not self.inten & (DRE | TXC | RXC) or self.mode == MODE_I2C_MASTER:
            return
        now = self.mcu.now_ns()
        due = self.wire.next_due(now, self.inten)
        if due is not None:
            self._event = self.mcu.at(int(due - now) + 1, self._on_due)

    def _on_due(self):
        self._event = None
        self._update_irq()


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Sercom, "SERCOM0", 0x40003000, (46, 47, 48, 49)),
    (Sercom, "SERCOM1", 0x40003400, (50, 51, 52, 53)),
    (Sercom, "SERCOM2", 0x41012000, (54, 55, 56, 57)),
    (Sercom, "SERCOM3", 0x41014000, (58, 59, 60, 61)),
    (Sercom, "SERCOM4", 0x43000000, (62, 63, 64, 65)),
    (Sercom, "SERCOM5", 0x43000400, (66, 67, 68, 69)),
]
