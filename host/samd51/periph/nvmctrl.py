"""NVMCTRL: the SAMD51's flash controller, as ASF4's hpl_nvmctrl.c drives it for CircuitPython's
``microcontroller.nvm`` (common-hal/nvm/ByteArray.c -> flash_write, which erases the 8 KB block and writes its
16 pages back on every write).

The internal flash is the core's Unicorn memory; this model takes its write permission away, so a CPU
store to a flash address reaches ``flash_store`` (a UC_HOOK_MEM_WRITE_PROT hook set here) and lands in the
512-byte page buffer, never in the array; it also sets ADDR, as the datasheet says AHB writes do.  CTRLB
commands (key 0xA5 in CMDEX): EB erases the 8 KB block at ADDR, WP writes the page buffer into the page at
ADDR (NOR: bits only go 1 -> 0), WQW the buffer's 16-byte quad word at ADDR, PBC clears the buffer;
CTRLA.WMODE's automatic modes write a double word, quad word or page when a store fills it.  STATUS.READY is
0 while a command runs and INTFLAG.DONE rises at its end, after the datasheet's typical time.

Times: SAM D5x/E5x datasheet (DS60001507), 54.12 "NVM Characteristics": tFPW write page 1.5 ms typ (3 max),
tFEB erase block 50 ms typ (200 max).  No figure for a quad-word write was found: a program cycle, so tFPW.

``power_cut(rng)`` leaves a command in progress part done (each bit it was changing changed with probability
= its progress, seeded), for the harness to carry the array into the next boot.
On the PyBadge (9.1.1) microcontroller.nvm is the last block, 0x0007E000..0x0007FFFF.
"""

import random

from unicorn import UC_HOOK_MEM_WRITE_PROT, UC_PROT_EXEC, UC_PROT_READ

from samd51.parts import part_done

from . import Registers

CTRLA = 0x00
CTRLB = 0x04
PARAM = 0x08
INTENCLR = 0x0C
INTENSET = 0x0E
INTFLAG = 0x10
STATUS = 0x12
ADDR = 0x14
RUNLOCK = 0x18
PBLDATA0 = 0x1C
PBLDATA1 = 0x20
ECCERR = 0x24
DBGCTRL = 0x28
SEECFG = 0x2A
SEESTAT = 0x2C

CMD_EP, CMD_EB, CMD_WP, CMD_WQW = 0x00, 0x01, 0x03, 0x04
CMD_SWRST, CMD_LR, CMD_UR, CMD_SPRM, CMD_CPRM, CMD_PBC = 0x10, 0x11, 0x12, 0x13, 0x14, 0x15
CMD_SSB, CMD_BKSWRST, CMD_SBPDIS, CMD_CBPDIS = 0x16, 0x17, 0x1A, 0x1B
CMDEX_KEY = 0xA5
INTFLAG_DONE, INTFLAG_ADDRE, INTFLAG_PROGE, INTFLAG_LOCKE = 1 << 0, 1 << 1, 1 << 2, 1 << 3
STATUS_READY, STATUS_PRM, STATUS_LOAD, STATUS_AFIRST, STATUS_BPDIS = 1 << 0, 1 << 1, 1 << 2, 1 << 4, 1 << 5
STATUS_BOOTPROT_NONE = 0xF << 8  # BOOTPROT comes from the user row: not modelled, shown as no protection
CTRLA_AUTOWS = 1 << 2
CTRLA_RESET = CTRLA_AUTOWS
WMODE_CHUNK = {1: 8, 2: 16, 3: 512}  # CTRLA.WMODE ADW, AQW, AP: what a store must fill to write itself

FLASH_SIZE = 512 * 1024  # SAMD51J19A
PAGE = 512
BLOCK = 8192
QUAD_WORD = 16
REGION = FLASH_SIZE // 32
PARAM_VALUE = (1 << 31) | (6 << 16) | (FLASH_SIZE // PAGE)  # SEE supported, PSZ 512 B, NVMP pages
OP_NS = {"erase_block": 50_000_000, "write_page": 1_500_000, "write_quad_word": 1_500_000}
NVM_START = FLASH_SIZE - BLOCK  # CIRCUITPY_INTERNAL_NVM_START_ADDR on the PyBadge


class Nvmctrl(Registers):
    NAME = "NVMCTRL"
    BASE = 0x41004000
    SIZE = SEESTAT + 4
    IRQS = (29, 30)
    REGS = {CTRLA: 2, CTRLB: 2, PARAM: 4, INTENCLR: 2, INTENSET: 2, INTFLAG: 2, STATUS: 2, ADDR: 4,
            RUNLOCK: 4, PBLDATA0: 4, PBLDATA1: 4, ECCERR: 4, DBGCTRL: 1, SEECFG: 1, SEESTAT: 4}
    RESET = {CTRLA: CTRLA_RESET, PARAM: PARAM_VALUE, PBLDATA0: 0xFFFFFFFF, PBLDATA1: 0xFFFFFFFF}

    def __init__(self, mcu, *args, **kw):
        self.time_scale = 1.0
        self.counts = {}
        self.ops = []    # {op, addr, len, start_ms, end_ms}
        self.cuts = []   # {at_ms, during, addr, progress}
        self.busy = None
        super().__init__(mcu, *args, **kw)
        # CPU stores to the flash go to the page buffer, not the array
        mcu.uc.mem_protect(0, FLASH_SIZE, UC_PROT_READ | UC_PROT_EXEC)
        mcu.uc.hook_add(UC_HOOK_MEM_WRITE_PROT, self.on_write_prot, begin=0, end=FLASH_SIZE - 1)

    def on_write_prot(self, uc, access, addr, size, value, _):
        if addr >= FLASH_SIZE:
            return False
        return self.flash_store(addr, size, value)

    def reset(self):
        if self.busy:  # a system reset aborts a command where it stands
            self.mcu.log("flash", "NVMCTRL: reset during %s at 0x%x" % (self.busy["op"], self.busy["addr"]))
            self.power_cut(random.Random(0))
        super().reset()
        self._wait_states()
        self.inten = 0
        self.intflag = 0
        self.status = STATUS_READY | STATUS_AFIRST | STATUS_BOOTPROT_NONE
        self.addr = 0
        self.runlock = 0xFFFFFFFF
        self.buffer = bytearray(b"\xff" * PAGE)
        self.busy = None
        self.alarm = None

    def _wait_states(self):
        ctrla = self.value(CTRLA)
        self.mcu.timing.set_wait_states((ctrla >> 8) & 0xF, ctrla & CTRLA_AUTOWS)

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    # -- registers ----------------------------------------------------------------------------------------
    def read(self, offset, size):
        self.settle()
        return super().read(offset, size)

    def write(self, offset, size, value):
        self.settle()
        super().write(offset, size, value)
        self.irq_line()

    def read_reg(self, reg):
        if reg in (INTENCLR, INTENSET):
            return self.inten
        if reg == INTFLAG:
            return self.intflag
        if reg == STATUS:
            return self.status
        if reg == ADDR:
            return self.addr
        if reg == RUNLOCK:
            return self.runlock
        if reg == CTRLB:
            return 0                                  # write-only
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == CTRLB:
            if mask == 0xFFFF:                        # CMD with its key, in one write
                self.command(bits & 0x7F, (bits >> 8) & 0xFF)
        elif reg == CTRLA:
            super().write_reg(reg, bits, mask)
            self._wait_states()
        elif reg == INTENSET:
            self.inten |= bits
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == INTFLAG:
            self.intflag &= ~bits
        elif reg == ADDR:
            self.addr = ((self.addr & ~mask) | bits) & 0xFFFFFF
        elif reg in (DBGCTRL, SEECFG):
            super().write_reg(reg, bits, mask)

    def irq_line(self):
        if self.intflag & self.inten & 0xFF:
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])

    # -- the page buffer ----------------------------------------------------------------------------------
    def flash_store(self, addr, size, value):
        """A CPU store to a flash address (the core's write-protect hook): into the page buffer."""
        self.settle()
        for k in range(size):
            self.buffer[(addr + k) % PAGE] = (value >> (8 * k)) & 0xFF
        self.addr = addr & 0xFFFFFF
        self.status |= STATUS_LOAD
        self.count("page_buffer_stores")
        chunk = WMODE_CHUNK.get((self.value(CTRLA) >> 4) & 3)
        if chunk and (addr + size) % chunk == 0:  # an automatic write mode: the filled chunk writes itself
            self.program("write_page" if chunk == PAGE else "write_quad_word", (addr + size - chunk), chunk)
        return True

    # -- commands -----------------------------------------------------------------------------------------
    def command(self, cmd, key):
        if key != CMDEX_KEY:
            self.count("ignored_bad_key")
            self.intflag |= INTFLAG_PROGE
            return
        if self.busy:
            self.count("ignored_busy")
            self.intflag |= INTFLAG_PROGE
            return
        self.count("cmd_0x%02x" % cmd)
        if cmd == CMD_EB:
            self.erase(self.addr & ~(BLOCK - 1))
        elif cmd == CMD_WP:
            self.program("write_page", self.addr & ~(PAGE - 1), PAGE)
        elif cmd == CMD_WQW:
            self.program("write_quad_word", self.addr & ~(QUAD_WORD - 1), QUAD_WORD)
        elif cmd == CMD_PBC:
            self.buffer[:] = b"\xff" * PAGE
            self.status &= ~STATUS_LOAD
            self.intflag |= INTFLAG_DONE
        elif cmd in (CMD_LR, CMD_UR):
            bit = 1 << (self.addr // REGION)
            self.runlock = self.runlock & ~bit if cmd == CMD_LR else self.runlock | bit
            self.intflag |= INTFLAG_DONE
        elif cmd in (CMD_SPRM, CMD_CPRM):
            self.status = self.status | STATUS_PRM if cmd == CMD_SPRM else self.status & ~STATUS_PRM
            self.intflag |= INTFLAG_DONE
        elif cmd in (CMD_SBPDIS, CMD_CBPDIS):
            self.status = self.status | STATUS_BPDIS if cmd == CMD_SBPDIS else self.status & ~STATUS_BPDIS
            self.intflag |= INTFLAG_DONE
        elif cmd == CMD_SWRST:
            self.reset()
        elif cmd == CMD_EP:  # the user page only (not modelled): an error on the main array
            self.intflag |= INTFLAG_PROGE
        else:
            self.mcu.log("unmodelled", "NVMCTRL: command 0x%02x not modelled; ignored" % cmd)
            self.intflag |= INTFLAG_DONE

    def allowed(self, addr):
        if addr >= FLASH_SIZE:
            self.intflag |= INTFLAG_ADDRE
            return False
        if not self.runlock >> (addr // REGION) & 1:
            self.intflag |= INTFLAG_LOCKE
            return False
        return True

    def erase(self, base):
        if self.allowed(base):
            self.start("erase_block", base, BLOCK, b"\xff" * BLOCK)

    def program(self, op, base, length):
        if not self.allowed(base):
            return
        old = self.array(base, length)
        off = base % PAGE
        target = bytes(a & b for a, b in zip(old, self.buffer[off: off + length], strict=True))
        if length == PAGE:  # the buffer is left erased after a page write (its LOAD bit clears)
            self.buffer[:] = b"\xff" * PAGE
            self.status &= ~STATUS_LOAD
        self.start(op, base, length, target)

    def array(self, addr, n):
        return bytes(self.mcu.mem_read(addr, n))

    def array_write(self, addr, data):
        self.mcu.uc.mem_write(addr, bytes(data))   # the array itself, past the write protection

    def start(self, op, base, length, target):
        now = self.mcu.now_ns()
        ns = int(OP_NS[op] * self.time_scale)
        record = {"op": op, "addr": base, "len": length, "start_ms": now / 1e6, "end_ms": (now + ns) / 1e6}
        self.ops.append(record)
        self.busy = {"op": op, "addr": base, "target": target, "start": now, "end": now + ns,
                     "record": record}
        self.status &= ~STATUS_READY
        self.alarm = self.mcu.at(ns, self.on_alarm)

    def on_alarm(self):
        self.alarm = None
        self.settle()

    def settle(self):
        """End the command in progress if its time has come: the array changes, READY and DONE rise."""
        op = self.busy
        if op and self.mcu.now_ns() >= op["end"]:
            self.finish(1.0, None)
            self.intflag |= INTFLAG_DONE
            self.irq_line()

    def finish(self, progress, rng):
        op = self.busy
        self.busy = None
        self.status |= STATUS_READY
        if self.alarm is not None:
            self.mcu.cancel(self.alarm)
            self.alarm = None
        old = self.array(op["addr"], len(op["target"]))
        self.array_write(op["addr"], part_done(old, op["target"], progress, rng))

    def power_cut(self, rng):
        """Power lost now: a command in progress is left part done (rng: random.Random, seeded)."""
        now = self.mcu.now_ns()
        self.settle()
        cut = {"at_ms": now / 1e6, "during": None, "addr": None, "progress": None}
        if self.busy:
            op = self.busy
            span = op["end"] - op["start"]
            progress = min(1.0, max(0.0, (now - op["start"]) / span)) if span > 0 else 1.0
            op["record"]["cut_ms"] = now / 1e6
            self.finish(progress, rng)
            cut.update(during=op["op"], addr=op["addr"], progress=round(progress, 4))
        self.cuts.append(cut)
        return cut

    def report(self):
        return {"counts": self.counts, "ops": self.ops, "cuts": self.cuts, "time_scale": self.time_scale}
