"""The SAMD51J19A: Unicorn's Cortex-M4 with the chip's memory map, time, scheduler and peripherals.

Time: a basic-block hook adds each block's cycles to ``cycles``: the Cortex-M4's for its instructions, a
taken branch's refill and the CMCC's misses at the flash's wait states (native.py, timing.py).
Inside an MMIO callback ``cycles`` already includes the whole current basic block (a few cycles early).
"""

import heapq
import importlib
import pkgutil

from unicorn import UC_ARCH_ARM, UC_HOOK_BLOCK, UC_HOOK_INTR, UC_MODE_MCLASS, UC_MODE_THUMB, Uc
from unicorn import arm_const as A

from . import periph as periph_pkg
from .bus import Bus
from .native import NativeCounter
from .nvic import Nvic
from .runloop import NEVER, RunLoop
from .timing import FlashTiming

FLASH = (0x00000000, 0x80000)        # 512 KB internal flash (bootloader 0..0x4000, the UF2 from 0x4000)
NVM_ROWS = (0x00800000, 0x8000)      # calibration, user row and serial number
RAM = (0x20000000, 0x30000)          # 192 KB
BACKUP_RAM = (0x47000000, 0x2000)    # 8 KB
SW_CALIB = 0x00800080                # NVM software calibration area (USB pad trims, ADC biases)
SERIAL_WORDS = (0x008061FC, 0x00806010, 0x00806014, 0x00806018)
SERIAL_BASE = 0x53554C54             # made up: word i is SERIAL_BASE + i
UID = b"".join((SERIAL_BASE + i).to_bytes(4, "little") for i in range(4))   # as CircuitPython reads it
RESET_HZ = 48_000_000                # DFLL48M drives GCLK0 out of reset
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)


class Event:
    __slots__ = ("due", "seq", "fn")

    def __init__(self, due, seq, fn):
        self.due, self.seq, self.fn = due, seq, fn

    def __lt__(self, other):
        return (self.due, self.seq) < (other.due, other.seq)


class PyCounter:
    def __init__(self):
        self.cycles = 0
        self.limit = NEVER
        self.watch = self.primask = self.basepri = 0
        self.cache_on = self.miss = self.refill = self.hits = self.misses = self.taken = 0


class Mcu(RunLoop):
    def __init__(self, board=None, verbose=False):
        self.verbose = verbose
        self.lines = []             # (ns, kind, text): the run's log
        self.unmodelled_seen = {}   # (name, offset) -> first (ns, op, size, value, pc)
        self.stop_reason = None
        self.profile = None         # an object with add(address, cycles): the CLI's histogram
        self.resets = 0             # SYSRESETREQ count: the harness decides what a reset means
        self.sleeps = 0             # WFI count
        self.on_look = None         # called at each look at due events (a watcher that only reads state)
        self._events = []
        self._seq = 0
        self._hz = RESET_HZ
        self._base_cycles = 0
        self._base_ns = 0
        self._in_emu = False
        self._stop_asked = False
        self._slice_limit = 0
        self.uc = uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
        uc.ctl_set_cpu_model(A.UC_CPU_ARM_CORTEX_M4)
        for base, size in (FLASH, NVM_ROWS, RAM, BACKUP_RAM):
            uc.mem_map(base, size)
        uc.mem_write(FLASH[0], b"\xff" * FLASH[1])
        self._nvm_rows()
        self._ctr, self.native = self._block_counter()
        # before the peripherals: CMCC and NVMCTRL tell it at reset
        self.timing = FlashTiming(self._ctr, RESET_HZ)
        self.bus = Bus(self)
        self.nvic = Nvic(self)
        self.bus.attach(self.nvic.scs)
        self.bus.attach(self.nvic.dwt)
        self._load_peripherals()
        uc.hook_add(UC_HOOK_INTR, self._on_intr)
        self.board = board(self) if board is not None else None

    # -- set-up ---------------------------------------------------------------------------------------------
    def _block_counter(self):
        """The C block hook (native.py) if it builds, else a Python one that counts a cycle a halfword."""
        try:
            native = NativeCounter(self.uc)
            return native.counter, native
        except Exception as err:  # noqa: BLE001  (no compiler: slower, and the simple time model)
            self.uc.hook_add(UC_HOOK_BLOCK, self._on_block)
            self._ctr = PyCounter()   # before the log line, which reads the time
            self.log("native", "C block counter unavailable (%s): Python block hook, a cycle a halfword, "
                               "no CMCC (times optimistic)" % err)
            return self._ctr, None

    def _nvm_rows(self):
        self.uc.mem_write(NVM_ROWS[0], b"\xff" * NVM_ROWS[1])
        # Plausible factory trims (no real chip read): USB TRANSN 9, TRANSP 25, TRIM 6 at bits 32..44;
        # CircuitPython copies them into USB PADCAL. Below bit 32 (NVMCTRL_SW0's map): AC BIAS0 1; ADC0
        # BIASCOMP 5, BIASREFBUF 6, BIASR2R 3; ADC1 4, 7, 2, which the firmware copies into each ADC's CALIB.
        calib_lo = 1 | (5 << 2) | (6 << 5) | (3 << 8) | (4 << 16) | (7 << 19) | (2 << 22)
        calib_hi = 9 | (25 << 5) | (6 << 10) | 0xFFFF8000
        self.uc.mem_write(SW_CALIB, calib_lo.to_bytes(4, "little") + calib_hi.to_bytes(4, "little"))
        for i, addr in enumerate(SERIAL_WORDS):  # a fixed, made-up serial number
            self.uc.mem_write(addr, (SERIAL_BASE + i).to_bytes(4, "little"))

    def _load_peripherals(self):
        for info in pkgutil.iter_modules(periph_pkg.__path__):
            # No guard: a model that does not import stops the machine with its reason (a chip with a
            # peripheral missing runs on into wrong answers far from the cause).
            module = importlib.import_module(periph_pkg.__name__ + "." + info.name)
            for cls, name, base, irqs in self._instances_of(module):
                self.bus.attach(cls(self, name, base, irqs))

    @staticmethod
    def _instances_of(module):
        listed = getattr(module, "INSTANCES", None)
        if listed is not None:
            return list(listed)
        out = []
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, periph_pkg.Peripheral)
                    and value.__module__ == module.__name__ and value.BASE is not None):
                out.append((value, None, None, None))
        return out

    def load_uf2(self, path):
        data = open(path, "rb").read()
        count = 0
        for off in range(0, len(data) - 511, 512):
            words = [int.from_bytes(data[off + 4 * i: off + 4 * i + 4], "little") for i in range(8)]
            if tuple(words[:2]) != UF2_MAGIC[:2] or words[2] & 1:  # bit 0: "not main flash"
                continue
            addr, size = words[3], words[4]
            self.uc.mem_write(addr, data[off + 32: off + 32 + size])
            count += 1
        if count == 0:
            raise ValueError("%s: no UF2 blocks" % path)
        self._code_changed()
        return count

    def load_bin(self, addr, data):
        self.uc.mem_write(addr, bytes(data))
        self._code_changed()

    def _code_changed(self):
        if self.native is not None:   # its decoded blocks are of the old code
            self.native.forget()

    def reset(self, vector_table=None):
        """Power-on reset: through the bootloader at 0 if one is loaded, else the table at 0x4000."""
        if vector_table is None:
            vector_table = 0 if self.mem_read(4, 4) != b"\xff\xff\xff\xff" else 0x4000
        sp = int.from_bytes(self.mem_read(vector_table, 4), "little")
        pc = int.from_bytes(self.mem_read(vector_table + 4, 4), "little")
        self.nvic.reset(vector_table)
        # Events die with the chip's state (a part outside it keeps its own time through now_ns).
        self._events.clear()
        uc = self.uc
        uc.reg_write(A.UC_ARM_REG_IPSR, 0)       # thread mode first, so MSP is the SP written below
        for reg in (A.UC_ARM_REG_CONTROL, A.UC_ARM_REG_PRIMASK, A.UC_ARM_REG_BASEPRI, A.UC_ARM_REG_FAULTMASK):
            uc.reg_write(reg, 0)
        uc.reg_write(A.UC_ARM_REG_MSP, sp)
        uc.reg_write(A.UC_ARM_REG_SP, sp)
        uc.reg_write(A.UC_ARM_REG_LR, 0xFFFFFFFF)
        uc.reg_write(A.UC_ARM_REG_PC, pc | 1)   # bit 0: Thumb (Unicorn takes it from the PC)
        for periph in set(self.bus.pages.values()):
            periph.reset()

    # -- the API the peripherals use ------------------------------------------------------------------------
    @property
    def cycles(self):
        return self._ctr.cycles

    def add_cycles(self, n):
        """Time passes with the CPU stalled (WFE, a bus wait a model charges)."""
        self._ctr.cycles += n

    @property
    def hz(self):
        return self._hz

    def set_hz(self, hz):
        """The CPU clock changed (GCLK0's source or divider): time runs on from here at the new rate."""
        if hz != self._hz and hz > 0:
            self._base_ns = self.now_ns()
            self._base_cycles = self._ctr.cycles
            self._hz = hz
            self.timing.clock_changed(hz)
            self.log("clock", "CPU at %d Hz" % hz)

    def now_ns(self):
        return self._base_ns + (self._ctr.cycles - self._base_cycles) * 1_000_000_000 // self._hz

    def cycles_at(self, ns):
        return self._base_cycles + -(-(ns - self._base_ns) * self._hz // 1_000_000_000)

    def at(self, ns_from_now, fn):
        self._seq += 1
        event = Event(self.now_ns() + max(0, int(ns_from_now)), self._seq, fn)
        heapq.heappush(self._events, event)
        if self._in_emu:
            due = self.cycles_at(event.due)
            if due < self._ctr.limit:
                self._ctr.limit = self._slice_limit = max(due, self._ctr.cycles + 1)
        return event

    def cancel(self, handle):
        if handle is not None:
            handle.fn = None

    def skip_poll(self, n):
        """Add up to 16 * 2**n cycles of polling, never past the next event or the slice's end (so never
        past ``run``'s end); returns the cycles added."""
        ctr = self._ctr
        step = 16 << min(n, 16)
        self._events_drop_cancelled()
        if self._events:
            step = min(step, self.cycles_at(self._events[0].due) - ctr.cycles)
        if self._in_emu:
            step = min(step, self._slice_limit - ctr.cycles)
        if step <= 0:
            self.request_stop()   # the event is due: let the run loop fire it
            return 0
        ctr.cycles += step
        return step

    def set_pending(self, irqn):
        self.nvic.set_pending(16 + irqn)

    def clear_pending(self, irqn):
        self.nvic.clear_pending(16 + irqn)

    def mem_read(self, addr, n):
        if self.bus.decodes(addr):
            return bytes(self.bus.read(addr + i, 1) for i in range(n))
        return bytes(self.uc.mem_read(addr, n))

    def mem_write(self, addr, data):
        if self.bus.decodes(addr):
            for i, b in enumerate(bytes(data)):
                self.bus.write(addr + i, 1, b)
        else:
            self.uc.mem_write(addr, bytes(data))

    def peripheral(self, name):
        return self.bus.by_name.get(name)

    @property
    def port(self):
        return self.bus.by_name.get("PORT")

    def log(self, kind, text):
        self.lines.append((self.now_ns(), kind, text))
        if self.verbose:
            print("%10.3f ms %-10s %s" % (self.now_ns() / 1e6, kind, text), flush=True)

    def stop(self, reason):
        self.stop_reason = reason
        self.request_stop()

    def reset_requested(self):
        """AIRCR.SYSRESETREQ: counted and the run ends; the harness decides whether to reset and go on."""
        self.resets += 1
        self.log("reset", "SYSRESETREQ at pc=0x%X" % self.pc())
        self.stop("SYSRESETREQ")

    def request_stop(self):
        """End the current CPU slice soon (an interrupt became takeable, or the run should end)."""
        # Not uc.emu_stop(): called inside an MMIO callback it leaves the PC on the accessing instruction,
        # which then runs again. The block counter stops the CPU at the next block instead.
        if self._in_emu:
            self._stop_asked = True
            self._ctr.limit = 0

    def pc(self):
        return self.uc.reg_read(A.UC_ARM_REG_PC)

    def unmodelled(self, periph, offset, size, op, value=None):
        key = (periph.NAME, offset)
        if key in self.unmodelled_seen:
            return
        pc = self.pc() if self._in_emu else None
        self.unmodelled_seen[key] = (self.now_ns(), op, size, value, pc)
        text = "%s+0x%03X %s%d" % (periph.NAME, offset, op, size * 8)
        if value is not None:
            text += " 0x%X" % value
        # Inside an MMIO callback Unicorn's PC is that of the basic block's start, not the instruction's.
        self.log("unmodelled", text + ("" if pc is None else " block@0x%X" % pc))

    # -- the run loop ---------------------------------------------------------------------------------------
