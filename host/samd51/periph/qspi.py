"""QSPI: the SAMD51's quad SPI controller, in serial-memory mode, as CircuitPython 9.1.1 drives it
(ports/atmel-samd/supervisor/qspi_flash.c), in front of the flash chip (samd51.parts.spiflash).

An instruction frame is set by INSTRCTRL (opcode), INSTRADDR and INSTRFRAME (which phases, widths, transfer
type).  Without a data phase the instruction goes out when INSTRFRAME is written; with one it goes out at the
first access to the AHB window 0x04000000, and the accesses are the data phase: READ/WRITE frames stream data
whatever the window offset, READMEMORY/WRITEMEMORY frames take the flash address from the window offset (a
non-sequential access starts the instruction again, as the controller does).  Writing CTRLA.LASTXFER raises
chip select (the chip then runs a program or an erase) and INSTREND follows when the frame's clocks are done.

Time: SCK = CLK_QSPI_AHB / (BAUD.BAUD + 1), CLK_QSPI_AHB being the CPU's clock as GCLK0 and MCLK set it
(datasheet "QSPI - Serial Clock Baud Rate"; CircuitPython's BAUD 2 at 120 MHz gives 40 MHz); a frame costs its
clocks (instruction, address, option, dummy, data at each phase's width).  The CPU is not stalled on the
window; INSTREND waits for the frame's end instead, so the firmware's poll absorbs the bus time.
"""

from . import Registers

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

RDSR1 = 0x05                # the flash's read status register 1, and its write-in-progress bit
SR1_WIP = 1 << 0
BUSY_READS = 4              # busy status reads before the poll's time is skipped


class Qspi(Registers):
    NAME = "QSPI"
    BASE = 0x42003400
    IRQS = (134,)
    REGS = {reg: 4 for reg in (CTRLA, CTRLB, BAUD, RXDATA, TXDATA, INTENCLR, INTENSET, INTFLAG, STATUS,
                               INSTRADDR, INSTRCTRL, INSTRFRAME, SCRAMBCTRL, SCRAMBKEY)}

    def __init__(self, mcu, *args, **kw):
        self.chip = None
        self.stats = {"frames": 0, "window_reads": 0, "window_writes": 0, "bytes_in": 0, "bytes_out": 0,
                      "bus_ns": 0, "polls_skipped_cycles": 0}
        self.busy_event = None
        super().__init__(mcu, *args, **kw)

    def attach(self, chip):
        """Put ``chip`` on the QSPI pins, in place of any before (a harness's chip keeps its bytes across
        boots). What the QSPI asks of it: ``attach(now_ns, log)``; ``select()``, ``send(byte) -> byte``,
        ``read(n) -> bytes``, ``write(data)``, ``deselect()`` (the chip acts at chip select's rise);
        ``busy_until()``, the ns its operation ends or None, on its own clock ``now()``."""
        self.chip = chip
        chip.attach(self.mcu.now_ns, lambda text: self.mcu.log("flash", text))

    def reset(self):
        super().reset()
        self.inten = 0
        self.intflag = 0
        self.selected = False
        self.next_addr = None
        self.frame_start = 0
        self.frame_clocks = 0
        self.instrend_at = None
        self.busy_reads = 0        # status reads in a row that saw WIP
        if self.busy_event is not None:
            self.mcu.cancel(self.busy_event)
        self.busy_event = None     # an event at the chip's operation end, so a skipped poll stops there
        self.busy_event_at = None

    # -- registers ----------------------------------------------------------------------------------------
    def read_reg(self, reg):
        if reg == INTFLAG:
            return self.flags()
        if reg == STATUS:
            enabled = STATUS_ENABLE if self.value(CTRLA) & CTRLA_ENABLE else 0
            return enabled | (0 if self.selected else STATUS_CSSTATUS)   # CSSTATUS 1: chip select high
        if reg in (INTENSET, INTENCLR):
            return self.inten
        if reg == CTRLA:
            return self.value(CTRLA) & CTRLA_ENABLE
        if reg in (TXDATA, SCRAMBKEY):
            return 0                                                      # write-only
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == INTFLAG:
            self.intflag = self.flags() & ~bits
        elif reg == INTENSET:
            self.inten |= bits
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == TXDATA:
            self.spi_byte(bits & 0xFF)
        elif reg not in (RXDATA, STATUS):                                # read-only
            super().write_reg(reg, bits, mask)
            if reg == CTRLA:
                self.ctrla(bits)
            elif reg == INSTRFRAME:
                self.frame()
        self.irq_line()

    def ctrla(self, bits):
        if bits & CTRLA_SWRST:
            self.end()
            self.reset()
            return
        self.store(CTRLA, 4, self.value(CTRLA) & ~CTRLA_LASTXFER)       # LASTXFER is a strobe
        if bits & CTRLA_LASTXFER:
            self.end()

    def flags(self):
        """INSTREND rises when the frame's clocks are done (read lazily)."""
        if self.instrend_at is not None and self.mcu.now_ns() >= self.instrend_at:
            self.instrend_at = None
            self.intflag |= INTFLAG_INSTREND | INTFLAG_CSRISE
        return self.intflag

    def irq_line(self):
        if self.flags() & self.inten:
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])

    # -- frames -------------------------------------------------------------------------------------------
    def sck_ns(self):
        """SCK's period: CLK_QSPI_AHB, the CPU's clock (MCLK), over BAUD.BAUD + 1."""
        return (((self.value(BAUD) >> 8) & 0xFF) + 1) * 1e9 / self.mcu.hz

    def tfrtype(self):
        return (self.value(INSTRFRAME) >> 12) & 3

    def frame(self):
        """INSTRFRAME written: a new instruction; without a data phase it goes out now."""
        if self.selected:
            self.mcu.log("flash", "QSPI: new frame while chip select is low; raised it first")
            self.end()
        self.next_addr = None
        self.stats["frames"] += 1
        if not self.value(INSTRFRAME) & INSTRFRAME_DATAEN:
            self.begin(self.value(INSTRADDR))

    def begin(self, addr):
        """Chip select low, then the instruction, address, option and dummy phases."""
        frame = self.value(INSTRFRAME)
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
            chip.send(self.value(INSTRCTRL) & 0xFF)
            self.frame_clocks += 8 // w_instr
        if frame & INSTRFRAME_ADDREN:
            n = 4 if frame & INSTRFRAME_ADDRLEN_32BITS else 3
            for k in range(n - 1, -1, -1):
                chip.send((addr >> (8 * k)) & 0xFF)
            self.frame_clocks += 8 * n // w_addr
        if frame & INSTRFRAME_OPTCODEEN:
            optbits = 1 << ((frame >> 8) & 3)
            chip.send((self.value(INSTRCTRL) >> 16) & 0xFF)
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
        frame = self.value(INSTRFRAME)
        if not frame & INSTRFRAME_DATAEN or not self.value(CTRLB) & CTRLB_MODE_MEMORY:
            self.mcu.log("flash", "QSPI: window access at 0x%x with no data phase set" % offset)
            return False
        memory = self.tfrtype() in (TFRTYPE_READMEMORY, TFRTYPE_WRITEMEMORY)
        if not self.selected or (memory and offset != self.next_addr):
            if self.selected:
                self.end()
            self.begin(offset if memory else self.value(INSTRADDR))
        self.next_addr = offset + size
        self.frame_clocks += 8 * size // WIDTHS.get(frame & 7, (1, 1, 1))[2]
        return self.chip is not None

    def ahb_read(self, offset, size):
        self.stats["window_reads"] += 1
        if not self.data_phase(offset, size, False):
            return (1 << (8 * size)) - 1
        self.stats["bytes_in"] += size
        value = int.from_bytes(self.chip.read(size), "little")
        if self.value(INSTRCTRL) & 0xFF == RDSR1:
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
        end = self.chip.busy_until()
        if end is None:
            return
        if self.busy_event is None or self.busy_event_at != end:
            if self.busy_event is not None:
                self.mcu.cancel(self.busy_event)
            self.busy_event_at = end
            # the chip keeps the run's clock (it outlives this Mcu): the time left is on its clock
            self.busy_event = self.mcu.at(max(0, int(end - self.chip.now()) + 1), self.busy_done)
        if self.busy_reads > BUSY_READS:
            self.stats["polls_skipped_cycles"] += self.mcu.skip_poll(self.busy_reads - BUSY_READS)

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
            self.store(RXDATA, 4, self.chip.send(byte))
        self.selected = True
        self.frame_clocks += 8
        self.intflag |= INTFLAG_RXC | INTFLAG_DRE | INTFLAG_TXC

    def report(self):
        return dict(self.stats, bus_ms=round(self.stats["bus_ns"] / 1e6, 3))
