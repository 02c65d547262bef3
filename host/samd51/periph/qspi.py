"""QSPI: the SAMD51's quad SPI controller, in serial-memory mode, as CircuitPython 9.1.1 drives it
(ports/atmel-samd/supervisor/qspi_flash.c), in front of the flash chip (samd51.parts.spiflash).

An instruction frame is set by INSTRCTRL (opcode), INSTRADDR and INSTRFRAME (which phases, widths, transfer
type).  Without a data phase the instruction goes out when INSTRFRAME is written; with one it goes out at the
first access to the AHB window 0x04000000, and the accesses are the data phase: READ/WRITE frames stream data
whatever the window offset, READMEMORY/WRITEMEMORY frames take the flash address from the window offset (a
non-sequential access starts the instruction again, as the controller does).  Writing CTRLA.LASTXFER raises
chip select (the chip then runs a program or an erase) and INSTREND follows when the frame's clocks are done.

Time: SCK = CLK_QSPI_AHB (the CPU clock, 120 MHz) / (BAUD + 1); a frame costs its clocks (instruction,
address, option, dummy, data at each phase's width).  The CPU is not stalled on the window; INSTREND waits for
the frame's end instead, so the firmware's poll absorbs the bus time.
"""

from samd51.periph import Peripheral

CTRLA = 0x00
CTRLB = 0x04
BAUD = 0x08
RXDATA = 0x0C
TXDATA = 0x10
INTENCLR = 0x14
INTENSET = 0x18
INTFLAG = 0x1C
STATUS = 0x20
INSTRADDR = 0x30
INSTRCTRL = 0x34
INSTRFRAME = 0x38
SCRAMBCTRL = 0x40
SCRAMBKEY = 0x44

CTRLA_SWRST = 1 << 0
CTRLA_ENABLE = 1 << 1
CTRLA_LASTXFER = 1 << 24
CTRLB_MODE_MEMORY = 1 << 0
INTFLAG_RXC = 1 << 0
INTFLAG_DRE = 1 << 1
INTFLAG_TXC = 1 << 2
INTFLAG_CSRISE = 1 << 8
INTFLAG_INSTREND = 1 << 10
STATUS_ENABLE = 1 << 1
STATUS_CSSTATUS = 1 << 9
INSTRFRAME_INSTREN = 1 << 4
INSTRFRAME_ADDREN = 1 << 5
INSTRFRAME_OPTCODEEN = 1 << 6
INSTRFRAME_DATAEN = 1 << 7
INSTRFRAME_ADDRLEN_32BITS = 1 << 10
TFRTYPE_READ, TFRTYPE_READMEMORY, TFRTYPE_WRITE, TFRTYPE_WRITEMEMORY = 0, 1, 2, 3
# bits a clock of (instruction, address and option, data) for each INSTRFRAME.WIDTH
WIDTHS = {0: (1, 1, 1), 1: (1, 1, 2), 2: (1, 1, 4), 3: (1, 2, 2), 4: (1, 4, 4), 5: (2, 2, 2), 6: (4, 4, 4)}

CLK_HZ = 120_000_000
RDSR1 = 0x05                # the flash's read status register 1, and its write-in-progress bit
SR1_WIP = 1 << 0
BUSY_READS = 4              # busy status reads before the poll's time is skipped
REGS = (CTRLA, CTRLB, BAUD, RXDATA, INTFLAG, INSTRADDR, INSTRCTRL, INSTRFRAME, SCRAMBCTRL, SCRAMBKEY)


class Qspi(Peripheral):
    NAME = "QSPI"
    BASE = 0x42003400
    SIZE = 0x400
    IRQS = (134,)

    def __init__(self, mcu, *args, **kw):
        super().__init__(mcu, *args, **kw)
        self.chip = None
        self.stats = {"frames": 0, "window_reads": 0, "window_writes": 0, "bytes_in": 0, "bytes_out": 0,
                      "bus_ns": 0, "polls_skipped_cycles": 0}
        self.reset()

    def attach(self, chip):
        """The flash chip on the QSPI pins (it lives outside the Mcu and keeps its bytes across boots)."""
        self.chip = chip
        chip.attach(self.mcu.now_ns, lambda text: self.mcu.log("flash", text))

    def reset(self):
        super().reset()
        self.r = dict.fromkeys(REGS, 0)
        self.inten = 0
        self.selected = False
        self.next_addr = None
        self.frame_start = 0
        self.frame_clocks = 0
        self.instrend_at = None
        self.busy_reads = 0        # status reads in a row that saw WIP
        self.busy_event = None     # an event at the chip's operation end, so a skipped poll stops there
        self.busy_event_at = None

    # -- registers ----------------------------------------------------------------------------------------
    def read(self, offset, size):
        word = offset & ~3
        if word == INTFLAG:
            self.flags()
        if word == STATUS:
            enabled = STATUS_ENABLE if self.r[CTRLA] & CTRLA_ENABLE else 0
            value = enabled | (0 if self.selected else STATUS_CSSTATUS)  # CSSTATUS 1: chip select high
        elif word in (INTENSET, INTENCLR):
            value = self.inten
        elif word == CTRLA:
            value = self.r[CTRLA] & CTRLA_ENABLE
        elif word in self.r:
            value = self.r[word]
        else:
            return super().read(offset, size)
        return (value >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def write(self, offset, size, value):
        word = offset & ~3
        shift = 8 * (offset & 3)
        mask = ((1 << (8 * size)) - 1) << shift
        bits = (value << shift) & mask
        if word == INTFLAG:
            self.flags()
            self.r[INTFLAG] &= ~bits
        elif word == INTENSET:
            self.inten |= bits
        elif word == INTENCLR:
            self.inten &= ~bits
        elif word == TXDATA:
            self.spi_byte(bits & 0xFF)
        elif word in self.r and word not in (RXDATA, INTFLAG):
            self.r[word] = (self.r[word] & ~mask) | bits
            if word == CTRLA:
                self.ctrla(bits)
            elif word == INSTRFRAME:
                self.frame()
        else:
            return super().write(offset, size, value)
        self.irq_line()

    def ctrla(self, bits):
        if bits & CTRLA_SWRST:
            self.end()
            self.reset()
            return
        self.r[CTRLA] &= ~CTRLA_LASTXFER  # LASTXFER is a strobe
        if bits & CTRLA_LASTXFER:
            self.end()

    def flags(self):
        """INSTREND rises when the frame's clocks are done (read lazily)."""
        if self.instrend_at is not None and self.mcu.now_ns() >= self.instrend_at:
            self.instrend_at = None
            self.r[INTFLAG] |= INTFLAG_INSTREND | INTFLAG_CSRISE
        return self.r[INTFLAG]

    def irq_line(self):
        if self.flags() & self.inten:
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])

    # -- frames -------------------------------------------------------------------------------------------
    def sck_ns(self):
        return (((self.r[BAUD] >> 8) & 0xFF) + 1) * 1e9 / CLK_HZ

    def tfrtype(self):
        return (self.r[INSTRFRAME] >> 12) & 3

    def frame(self):
        """INSTRFRAME written: a new instruction; without a data phase it goes out now."""
        if self.selected:
            self.mcu.log("flash", "QSPI: new frame while chip select is low; raised it first")
            self.end()
        self.next_addr = None
        self.stats["frames"] += 1
        if not self.r[INSTRFRAME] & INSTRFRAME_DATAEN:
            self.begin(self.r[INSTRADDR])

    def begin(self, addr):
        """Chip select low, then the instruction, address, option and dummy phases."""
        frame = self.r[INSTRFRAME]
        chip = self.chip
        if not self.selected:
            self.frame_start = self.mcu.now_ns()
            self.frame_clocks = 0
        self.selected = True
        if chip is None:
            return
        chip.select()
        w_instr, w_addr, _ = WIDTHS.get(frame & 7, (1, 1, 1))
        if frame & INSTRFRAME_INSTREN:
            chip.send(self.r[INSTRCTRL] & 0xFF)
            self.frame_clocks += 8 // w_instr
        if frame & INSTRFRAME_ADDREN:
            n = 4 if frame & INSTRFRAME_ADDRLEN_32BITS else 3
            for k in range(n - 1, -1, -1):
                chip.send((addr >> (8 * k)) & 0xFF)
            self.frame_clocks += 8 * n // w_addr
        if frame & INSTRFRAME_OPTCODEEN:
            optbits = 1 << ((frame >> 8) & 3)
            chip.send((self.r[INSTRCTRL] >> 16) & 0xFF)
            self.frame_clocks += max(1, optbits // w_addr)
        dummy = (frame >> 16) & 0x1F
        for _ in range(dummy * w_addr // 8):  # dummy clocks, in bytes at the address phase's width
            chip.send(0xFF)
        self.frame_clocks += dummy

    def end(self):
        """Chip select high: the chip acts on the command; INSTREND after the frame's clocks."""
        if self.selected and self.chip is not None:
            self.chip.deselect()
        was = self.selected
        self.selected = False
        self.next_addr = None
        if was:
            ns = self.frame_clocks * self.sck_ns()
            self.stats["bus_ns"] += ns
            self.instrend_at = max(self.mcu.now_ns(), self.frame_start + ns)
        else:
            self.instrend_at = self.mcu.now_ns()

    def data_phase(self, offset, size, writing):
        frame = self.r[INSTRFRAME]
        if not frame & INSTRFRAME_DATAEN or not self.r[CTRLB] & CTRLB_MODE_MEMORY:
            self.mcu.log("flash", "QSPI: window access at 0x%x with no data phase set" % offset)
            return False
        memory = self.tfrtype() in (TFRTYPE_READMEMORY, TFRTYPE_WRITEMEMORY)
        if not self.selected or (memory and offset != self.next_addr):
            if self.selected:
                self.end()
            self.begin(offset if memory else self.r[INSTRADDR])
        self.next_addr = offset + size
        self.frame_clocks += 8 * size // WIDTHS.get(frame & 7, (1, 1, 1))[2]
        return self.chip is not None

    def ahb_read(self, offset, size):
        self.stats["window_reads"] += 1
        if not self.data_phase(offset, size, False):
            return (1 << (8 * size)) - 1
        self.stats["bytes_in"] += size
        value = int.from_bytes(self.chip.read(size), "little")
        if self.r[INSTRCTRL] & 0xFF == RDSR1:
            self.status_polled(value & SR1_WIP)
        return value

    def status_polled(self, wip):
        """A status read while the chip is busy: the firmware spins on WIP through whole frames (with
        writes, which the Bus's poll skipper cannot see through), so let the spin's time pass here,
        doubling with each busy read, and stop exactly at the operation's end (an event there)."""
        if not wip:
            self.busy_reads = 0
            return
        self.busy_reads += 1
        end = getattr(self.chip, "busy_until", lambda: None)()
        skip = getattr(self.mcu, "skip_poll", None)
        if end is None or skip is None:
            return
        if self.busy_event is None or self.busy_event_at != end:
            if self.busy_event is not None:
                self.mcu.cancel(self.busy_event)
            self.busy_event_at = end
            # the chip keeps the run's clock (it outlives this Mcu): the time left is on its clock
            self.busy_event = self.mcu.at(max(0, int(end - self.chip.now()) + 1), self.busy_done)
        if self.busy_reads > BUSY_READS:
            self.stats["polls_skipped_cycles"] += skip(self.busy_reads - BUSY_READS)

    def busy_done(self):
        self.busy_event = None

    def ahb_write(self, offset, size, value):
        self.stats["window_writes"] += 1
        if self.data_phase(offset, size, True):
            self.stats["bytes_out"] += size
            self.chip.write(value.to_bytes(size, "little"))

    def spi_byte(self, byte):
        """SPI mode (CTRLB.MODE 0): TXDATA goes out, RXDATA comes back; LASTXFER raises chip select."""
        if self.chip is not None:
            if not self.selected:
                self.chip.select()
            self.r[RXDATA] = self.chip.send(byte)
        self.selected = True
        self.frame_clocks += 8
        self.r[INTFLAG] |= INTFLAG_RXC | INTFLAG_DRE | INTFLAG_TXC

    def report(self):
        return dict(self.stats, bus_ms=round(self.stats["bus_ns"] / 1e6, 3))
