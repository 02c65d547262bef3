"""GigaDevice's quad SPI NOR flash chips on the SAMD51 badges' QSPI pins, as CircuitPython drives them: the
PyBadge's 2 MB GD25Q16C and the PyGamer's 8 MB GD25Q64C.  What tells them apart is a ``Part`` (size, JEDEC
id, device id, times, how 01h writes the status): one model, two descriptions.

The chip sees chip-select edges and bytes (select / send or read or write / deselect); the QSPI controller
(periph/qspi.py) turns its instruction frames into these.  The width of a phase (single, dual, quad) does not
change the bytes, so reads 03h/0Bh/3Bh/6Bh/BBh/EBh/E7h all serve the same array; what width changes is time,
which the QSPI counts.  Quad commands need QE (status register 2, bit 1), as on the chip.

Facts (adafruit/nvm.toml flash/gigadevice, as CircuitPython 9.1.1 and 10.2.1 pin it): manufacturer C8h,
memory type 40h, capacity 15h (GD25Q16C) or 17h (GD25Q64C); quad enable bit 0x02 in status byte 2; 6Bh quad
read and 32h quad page program.  On the GD25Q16C 01h writes both status bytes; on the GD25Q64C
(write_status_register_split) 01h writes byte 1 only and 31h writes byte 2, which is how CircuitPython
sets its QE.  Device id (90h/ABh) 14h and 16h.

Erase, program and status writes take the datasheet's typical time (``Part.op_ns``; the GD25Q64C has the
GD25Q16C's, its own table unread here): WIP (status bit 0) stays set until then and the bytes change at the
end.  ``power_cut`` leaves an operation in progress part done: each bit it was changing has changed with
probability = its progress (seeded).  The object lives outside the Mcu: ``attach`` gives it each boot's
clock, and its bytes and non-volatile status survive.
"""

import random

from samd51.parts import part_done

PAGE = 256
SECTOR = 4096
UNIQUE_ID = bytes(range(0x51, 0x61))  # any 128 bits: the board's serial number


class Part:
    """One chip of the family: what the model needs to be that chip."""

    def __init__(self, name, size, jedec_id, device_id, op_ns, wrsr_both):
        self.name = name
        self.size = size
        self.jedec_id = bytes(jedec_id)
        self.device_id = device_id
        self.op_ns = dict(op_ns)
        self.wrsr_both = wrsr_both      # 01h goes on into status byte 2 (else only 31h writes it)

    def __repr__(self):
        return "Part(%s)" % self.name


# Typical times, ns.  The GD25Q16 datasheet's features page (scribd.com/document/337238515/Gd25q16): page
# program 0.7 ms, sector erase 50 ms, block erase 0.2 s (32 KB) / 0.28 s (64 KB), chip erase 10 s.  The
# GD25Q16C's own table was not reachable here; its features page is believed to give 0.6 ms / 50 ms, so the
# sector erase, which dominates CIRCUITPY writes, agrees.  tW (status write) is not in that excerpt: 5 ms
# assumed.
OP_NS = {
    "program": 700_000,
    "erase_4k": 50_000_000,
    "erase_32k": 200_000_000,
    "erase_64k": 280_000_000,
    "chip_erase": 10_000_000_000,
    "write_status": 5_000_000,
}
GD25Q16C = Part("GD25Q16C", 2 * 1024 * 1024, (0xC8, 0x40, 0x15), 0x14, OP_NS, wrsr_both=True)
# The GD25Q64C's own times are not known here: the stored copies of its datasheet give only their contents
# pages, not its features page or AC table.  So it keeps the GD25Q16C's (same C-series cell; CircuitPython
# uses only the 4 KB erase, page program and status write), and the chip erase is four times as long for
# four times the array: assumed, not read.
GD25Q64C = Part("GD25Q64C", 8 * 1024 * 1024, (0xC8, 0x40, 0x17), 0x16,
                dict(OP_NS, chip_erase=40_000_000_000), wrsr_both=False)
PARTS = {p.name: p for p in (GD25Q16C, GD25Q64C)}
SIZE = GD25Q16C.size        # the PyBadge's chip, the default
JEDEC_ID = GD25Q16C.jedec_id
DEVICE_ID = GD25Q16C.device_id

SR1_WIP = 0x01
SR1_WEL = 0x02
SR2_QE = 0x02

# Commands (GD25Q16C datasheet, "Commands description")
WREN, WRDI, VWREN = 0x06, 0x04, 0x50
RDSR1, RDSR2, WRSR1, WRSR2 = 0x05, 0x35, 0x01, 0x31
READ, FAST_READ, DUAL_OUT, QUAD_OUT, DUAL_IO, QUAD_IO, QUAD_WORD = 0x03, 0x0B, 0x3B, 0x6B, 0xBB, 0xEB, 0xE7
PP, QPP = 0x02, 0x32
SE, BE32, BE64, CE1, CE2 = 0x20, 0x52, 0xD8, 0xC7, 0x60
RDID, REMS, RDI, DP, UID = 0x9F, 0x90, 0xAB, 0xB9, 0x4B  # no SFDP (5Ah): 9.1.1 never asks
RSTEN, RST, CRMR = 0x66, 0x99, 0xFF

# bytes between the address and the data: dummy clocks and mode bits, counted at the phase's width
DUMMY = {READ: 0, FAST_READ: 1, DUAL_OUT: 1, QUAD_OUT: 1, DUAL_IO: 1, QUAD_IO: 3, QUAD_WORD: 2}
READS = tuple(DUMMY)
ERASES = {SE: ("erase_4k", SECTOR), BE32: ("erase_32k", 32768), BE64: ("erase_64k", 65536)}
ADDRESSED = READS + (PP, QPP, SE, BE32, BE64, REMS)
QUAD = (QUAD_OUT, QUAD_IO, QUAD_WORD, QPP)
NAMES = {
    WREN: "write_enable", WRDI: "write_disable", VWREN: "volatile_sr_write_enable",
    RDSR1: "read_status1", RDSR2: "read_status2", WRSR1: "write_status1", WRSR2: "write_status2",
    READ: "read", FAST_READ: "fast_read", DUAL_OUT: "dual_output_read", QUAD_OUT: "quad_output_read",
    DUAL_IO: "dual_io_read", QUAD_IO: "quad_io_read", QUAD_WORD: "quad_word_read",
    PP: "page_program", QPP: "quad_page_program",
    SE: "erase_4k", BE32: "erase_32k", BE64: "erase_64k", CE1: "chip_erase", CE2: "chip_erase",
    RDID: "jedec_id", REMS: "manufacturer_device_id", RDI: "release_power_down", DP: "power_down",
    UID: "unique_id", RSTEN: "reset_enable", RST: "reset", CRMR: "continuous_read_reset",
}
KNOWN = ADDRESSED + (WREN, WRDI, VWREN, RDSR1, RDSR2, WRSR1, WRSR2, CE1, CE2, RDID, RDI, DP, UID,
                     RSTEN, RST, CRMR)


class FlashOps:
    """The array's side: status, erase and program with their times, power cuts, the report."""

    def status1(self):
        self.settle()
        return (self.sr[0] & 0xFC) | (SR1_WEL if self.wel else 0) | (SR1_WIP if self.busy else 0)

    def busy_until(self):
        """The simulated ns the erase/program in progress ends at, or None when idle (WIP 0)."""
        self.settle()
        return self.busy["end"] if self.busy else None

    def need_wel(self):
        if self.wel:
            return True
        self.count("ignored_no_write_enable")
        return False

    def write_status(self, cmd):
        first = 0 if cmd == WRSR1 else 1
        values = bytes(self.args[: 2 - first if self.part.wrsr_both else 1])
        if not values:
            self.count("ignored_bad_length")
            return

        def apply(progress, rng):
            if progress >= 1:
                self.sr[first: first + len(values)] = list(values)

        if self.volatile:  # 50h then 01h: the volatile copy, no wait
            apply(1, None)
        elif self.need_wel():
            self.start("write_status", first, len(values), apply)

    def erase(self, op, addr, length):
        def apply(progress, rng):
            old = self.mem[addr: addr + length]
            self.mem[addr: addr + length] = part_done(old, b"\xff" * length, progress, rng)

        self.start(op, addr, length, apply)

    def program(self, base, page, sent):
        def apply(progress, rng):
            old = self.mem[base: base + PAGE]
            target = bytes(a & b for a, b in zip(old, page, strict=True))  # NOR: bits only go from 1 to 0
            self.mem[base: base + PAGE] = part_done(old, target, progress, rng)

        self.start("program", base, min(sent, PAGE), apply)

    def start(self, op, addr, length, apply):
        now = self.now()
        end = now + int(self.part.op_ns[op] * self.time_scale)
        record = {"op": op, "addr": addr, "len": length, "start_ms": now / 1e6, "end_ms": end / 1e6}
        if op != "write_status":
            self.ops.append(record)
        self.busy = {"op": op, "addr": addr, "start": now, "end": end, "apply": apply, "record": record}
        self.settle()

    def settle(self):
        """End the operation in progress if its time has come."""
        op = self.busy
        if op and self.now() >= op["end"]:
            self.busy = None
            self.wel = False
            op["apply"](1, None)

    def interrupt(self, rng):
        op = self.busy
        self.busy = None
        span = op["end"] - op["start"]
        progress = min(1.0, max(0.0, (self.now() - op["start"]) / span)) if span > 0 else 1.0
        op["apply"](progress, rng)
        op["record"]["cut_ms"] = self.now() / 1e6
        return op, progress

    def soft_reset(self):
        if self.busy:  # a reset ends an erase or program where it stands (half way: no rng to hand)
            self.interrupt(random.Random(0))
        self.power_on()

    def power_cut(self, rng):
        """Power lost now: an erase or program in progress is left part done (rng: random.Random, seeded)."""
        self.settle()
        cut = {"at_ms": self.now() / 1e6, "during": None, "addr": None, "progress": None}
        if self.busy:
            op, progress = self.interrupt(rng)
            cut.update(during=op["op"], addr=op["addr"], progress=round(progress, 4))
        self.cuts.append(cut)
        self.power_on()
        return cut

    def report(self):
        return {"part": self.part.name, "size": self.size, "time_scale": self.time_scale,
                "counts": self.counts, "unknown": self.unknown, "ops": self.ops, "cuts": self.cuts}


class SpiFlash(FlashOps):
    """A chip of ``part``: ``select``, then ``send`` the opcode and address, ``read``/``write`` data,
    ``deselect``.  ``data`` longer than the chip is refused."""

    def __init__(self, data=None, part=GD25Q16C, time_scale=1.0, qe=True):
        self.part = part
        self.size = part.size
        self.mem = bytearray(b"\xff" * self.size)
        if data:
            if len(data) > self.size:
                raise ValueError("a %d-byte image does not fit the %s (%d bytes)" % (
                    len(data), part.name, self.size))
            self.mem[: len(data)] = data
        self.time_scale = time_scale
        self.sr = [0x00, SR2_QE if qe else 0x00]  # non-volatile bits; WIP and WEL are kept apart
        self.now = lambda: 0
        self.log = lambda text: None
        self.counts = {}
        self.unknown = {}
        self.ops = []   # each erase and program: {op, addr, len, start_ms, end_ms}
        self.cuts = []  # {at_ms, during, addr, progress}
        self.busy = None
        self.power_on()

    @classmethod
    def from_image(cls, path, **kw):
        with open(path, "rb") as f:
            return cls(f.read(), **kw)

    def power_on(self):
        """The chip's volatile state after power-up (or a software reset)."""
        self.wel = False
        self.volatile = False
        self.selected = False
        self.powered_down = False
        self.reset_armed = False

    def attach(self, now_ns, log=None):
        """Each boot's clock (ns) and log; an operation still in progress keeps its remaining time."""
        if self.busy:
            left = self.busy["end"] - self.now()
            self.busy["start"] += now_ns() - self.now()
            self.busy["end"] = now_ns() + left
        self.now = now_ns
        if log:
            self.log = log

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def image(self):
        return bytes(self.mem)

    # -- the bus --------------------------------------------------------------------------------------------
    def select(self):
        self.settle()
        self.selected = True
        self.cmd = None
        self.pos = 0  # bytes clocked since select, the opcode included
        self.addr = 0
        self.page = None
        self.args = bytearray()

    def send(self, byte):
        """One byte clocked in; returns the byte the chip drives meanwhile."""
        if not self.selected:
            return 0xFF
        i = self.pos
        self.pos += 1
        if i == 0:
            self.opcode(byte)
            return 0xFF
        return self.data(byte, i)

    def read(self, n):
        """``n`` bytes clocked out (what the master sends meanwhile does not matter to these commands)."""
        if self.cmd in READS and self.pos >= 4 + DUMMY[self.cmd]:
            if self.cmd in QUAD and not self.sr[1] & SR2_QE:
                self.count("quad_without_qe")
                self.pos += n
                return b"\xff" * n
            a = self.addr % self.size
            out = bytes(self.mem[a: a + n])
            if len(out) < n:  # the read wraps at the chip's end
                out += bytes(self.mem[: n - len(out)])
            self.addr += n
            self.pos += n
            return out
        return bytes(self.send(0xFF) for _ in range(n))

    def write(self, data):
        if self.cmd in (PP, QPP) and self.page is not None:
            k0 = self.pos - 4
            for k, b in enumerate(data):
                self.page[(self.addr + k0 + k) % PAGE] = b  # past the page's end: back to its start
            self.pos += len(data)
            return
        for b in data:
            self.send(b)

    def opcode(self, op):
        self.cmd = op
        if op not in KNOWN:
            key = "0x%02x" % op
            if key not in self.unknown:
                self.log("flash: command %s is not modelled; ignored (counted in the report)" % key)
            self.unknown[key] = self.unknown.get(key, 0) + 1
            self.cmd = None
            return
        self.count(NAMES[op])
        if self.powered_down and op != RDI:
            self.count("ignored_powered_down")
            self.cmd = None
        elif self.busy and op not in (RDSR1, RDSR2):
            self.count("ignored_busy")  # while WIP the chip takes only the status reads
            self.cmd = None

    def data(self, byte, i):
        cmd = self.cmd
        if cmd in ADDRESSED and i <= 3:
            self.addr = ((self.addr << 8) | byte) & 0xFFFFFF
            if i == 3 and cmd in (PP, QPP):
                self.page = bytearray(b"\xff" * PAGE)
            return 0xFF
        if cmd in READS:
            if i < 4 + DUMMY[cmd]:
                return 0xFF
            if cmd in QUAD and not self.sr[1] & SR2_QE:
                return 0xFF
            self.addr += 1
            return self.mem[(self.addr - 1) % self.size]
        if cmd == RDSR1:
            return self.status1()
        if cmd == RDSR2:
            return self.sr[1]
        if cmd == RDID:
            return self.part.jedec_id[i - 1] if i <= 3 else 0x00
        if cmd == UID:
            return UNIQUE_ID[(i - 5) % len(UNIQUE_ID)] if i >= 5 else 0xFF
        if cmd == RDI:
            return self.part.device_id if i >= 4 else 0xFF
        if cmd == REMS:
            return (self.part.jedec_id[0], self.part.device_id)[(i - 4 + (self.addr & 1)) % 2]
        if cmd in (PP, QPP):
            self.page[(self.addr + i - 4) % PAGE] = byte
            return 0xFF
        if cmd in (WRSR1, WRSR2):
            self.args.append(byte)
        return 0xFF

    def deselect(self):
        if not self.selected:
            return
        self.selected = False
        cmd, n = self.cmd, self.pos
        if cmd != RST:
            self.reset_armed = False
        if cmd is None:
            return
        simple = {WREN: ("wel", True), WRDI: ("wel", False), VWREN: ("volatile", True),
                  DP: ("powered_down", True),
                  RDI: ("powered_down", False), RSTEN: ("reset_armed", True)}
        if cmd in simple:
            setattr(self, *simple[cmd])
        elif cmd == RST and self.reset_armed:
            self.soft_reset()
        elif cmd in (WRSR1, WRSR2):
            self.write_status(cmd)
        elif cmd in ERASES:
            # executed only if CS rises right after the address's last bit
            if n != 4:
                self.count("ignored_bad_length")
            elif self.need_wel():
                op, length = ERASES[cmd]
                self.erase(op, self.addr & ~(length - 1), length)
        elif cmd in (CE1, CE2):
            if n == 1 and self.need_wel():
                self.erase("chip_erase", 0, self.size)
        elif cmd in (PP, QPP):
            if n < 5:
                self.count("ignored_bad_length")
            elif cmd == QPP and not self.sr[1] & SR2_QE:
                self.count("quad_without_qe")
            elif self.need_wel():
                self.program((self.addr % self.size) & ~(PAGE - 1), self.page, n - 4)
        if cmd != VWREN:
            self.volatile = False
