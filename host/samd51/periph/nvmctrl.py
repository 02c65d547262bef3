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
from samd51.periph import Peripheral

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


class Nvmctrl(Peripheral):
    NAME = "NVMCTRL"
    BASE = 0x41004000
    SIZE = 0x400
    IRQS = (29, 30)

    def __init__(self, mcu, *args, **kw):
        super().__init__(mcu, *args, **kw)
        self.time_scale = 1.0
        self.counts = {}
        self.ops = []    # {op, addr, len, start_ms, end_ms}
        self.cuts = []   # {at_ms, during, addr, progress}
        self.busy = None
        self.reset()
        uc = getattr(mcu, "uc", None)
        if uc is not None:  # CPU stores to the flash go to the page buffer, not the array
            uc.mem_protect(0, FLASH_SIZE, UC_PROT_READ | UC_PROT_EXEC)
            uc.hook_add(UC_HOOK_MEM_WRITE_PROT, self.on_write_prot, begin=0, end=FLASH_SIZE - 1)

    def on_write_prot(self, uc, access, addr, size, value, _):
        if addr >= FLASH_SIZE:
            return False
        return self.flash_store(addr, size, value)

    def reset(self):
        if self.busy:  # a system reset aborts a command where it stands
            self.mcu.log("flash", "NVMCTRL: reset during %s at 0x%x" % (self.busy["op"], self.busy["addr"]))
            self.power_cut(random.Random(0))
        super().reset()
        self.ctrla = CTRLA_RESET
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
        self.mcu.timing.set_wait_states((self.ctrla >> 8) & 0xF, self.ctrla & CTRLA_AUTOWS)

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    # -- registers ----------------------------------------------------------------------------------------
    def halfwords(self):
        return {CTRLA: self.ctrla, CTRLB: 0, PARAM: PARAM_VALUE & 0xFFFF, PARAM + 2: PARAM_VALUE >> 16,
                INTENCLR: self.inten, INTENSET: self.inten, INTFLAG: self.intflag, STATUS: self.status,
                ADDR: self.addr & 0xFFFF, ADDR + 2: self.addr >> 16, RUNLOCK: self.runlock & 0xFFFF,
                RUNLOCK + 2: self.runlock >> 16, PBLDATA0: 0xFFFF, PBLDATA0 + 2: 0xFFFF, PBLDATA1: 0xFFFF,
                PBLDATA1 + 2: 0xFFFF, ECCERR: 0, ECCERR + 2: 0, DBGCTRL: 0, SEECFG: 0, SEESTAT: 0,
                SEESTAT + 2: 0}

    def read(self, offset, size):
        self.settle()
        regs = self.halfwords()
        value = 0
        for k in range(size):
            o = offset + k
            if o & ~1 not in regs:
                return super().read(offset, size)
            value |= ((regs[o & ~1] >> (8 * (o & 1))) & 0xFF) << (8 * k)
        return value

    def write(self, offset, size, value):
        self.settle()
        if offset == CTRLB and size >= 2:
            self.command(value & 0x7F, (value >> 8) & 0xFF)
        elif offset & ~1 == CTRLA:
            self.ctrla = self.merge(self.ctrla, offset & 1, size, value)
            self._wait_states()
        elif offset & ~1 == INTENSET:
            self.inten |= self.merge(0, offset & 1, size, value)
        elif offset & ~1 == INTENCLR:
            self.inten &= ~self.merge(0, offset & 1, size, value)
        elif offset & ~1 == INTFLAG:
            self.intflag &= ~self.merge(0, offset & 1, size, value)
        elif offset & ~3 == ADDR:
            self.addr = self.merge(self.addr, offset & 3, size, value) & 0xFFFFFF
        elif offset in (DBGCTRL, SEECFG):
            pass
        else:
            return super().write(offset, size, value)
        self.irq_line()

    @staticmethod
    def merge(old, byte, size, value):
        mask = ((1 << (8 * size)) - 1) << (8 * byte)
        return (old & ~mask) | ((value << (8 * byte)) & mask)

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
        chunk = WMODE_CHUNK.get((self.ctrla >> 4) & 3)
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
        uc = getattr(self.mcu, "uc", None)
        (uc.mem_write if uc is not None else self.mcu.mem_write)(addr, bytes(data))

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
