"""The Cortex-M4's exception model, which Unicorn leaves out: NVIC, SCB, SysTick, DWT, entry and return.

``Nvic`` owns pending/active state and priorities and does exception entry (stacking on MSP or PSP, the
FPU's extended frame when CONTROL.FPCA) and return (Unicorn raises intno 8 when a handler branches to an
EXC_RETURN value). ``Scs`` is the register file at 0xE000E000 that software sees.
"""

from unicorn import arm_const as A

from .faults import DIVBYZERO, INVPC, INVSTATE, NOCP, UNALIGNED, Faults
from .periph import Peripheral
from .scs import SHCSR, Scs

# Exception numbers
NMI, HARDFAULT, SVCALL, PENDSV, SYSTICK = 2, 3, 11, 14, 15
IRQ0 = 16
IRQ_COUNT = 137
PRIO_BITS_MASK = 0xE0        # the SAMD51 implements 3 priority bits (the top ones of each byte)

# Unicorn (QEMU) exception numbers seen by UC_HOOK_INTR
EXCP_UDEF, EXCP_SWI, EXCP_PREFETCH_ABORT, EXCP_DATA_ABORT, EXCP_BKPT, EXCP_EXCEPTION_EXIT = 1, 2, 3, 4, 7, 8
# ... and those that are UsageFaults: NOCP, INVSTATE, UNALIGNED, DIVBYZERO
USAGE_EXCP = {17: NOCP, 18: INVSTATE, 22: UNALIGNED, 23: DIVBYZERO}

BASIC_REGS = (A.UC_ARM_REG_R0, A.UC_ARM_REG_R1, A.UC_ARM_REG_R2, A.UC_ARM_REG_R3, A.UC_ARM_REG_R12,
              A.UC_ARM_REG_LR, A.UC_ARM_REG_PC, A.UC_ARM_REG_XPSR)
FP_REGS = tuple(A.UC_ARM_REG_S0 + i for i in range(16)) + (A.UC_ARM_REG_FPSCR,)
MASK_REGS = (A.UC_ARM_REG_PRIMASK, A.UC_ARM_REG_BASEPRI, A.UC_ARM_REG_FAULTMASK)
CONTROL_SPSEL, CONTROL_FPCA = 2, 4
XPSR_ALIGN = 1 << 9          # the stacked xPSR's bit 9: the frame was realigned to 8 bytes
XPSR_T = 1 << 24
XPSR_IT = 0x0600FC00         # EPSR.IT (and ICI): the state of an IT block under way
EXC_RETURN_THREAD, EXC_RETURN_PSP, EXC_RETURN_BASIC = 8, 4, 0x10


class Nvic:
    def __init__(self, mcu):
        self.mcu = mcu
        self.uc = mcu.uc
        self.pending = set()     # exception numbers
        self.enabled = set()     # external interrupts (exception numbers >= 16) with ISER set
        self.active = []         # exception numbers, outermost first
        self.prio = {}           # exception number -> priority byte (SHPR / IPR)
        self.prigroup = 0
        self.vtor = 0
        self.entries = 0         # exceptions taken (for the boot report)
        self.systick = SysTick(mcu, self)
        self.scs = Scs(mcu, self, self.systick)
        self.dwt = Dwt(mcu)
        self.faults = Faults(self)
        self.faults.shcsr = lambda: self.scs.plain[SHCSR]

    def reset(self, vtor=0):
        self.pending.clear()
        self.enabled.clear()
        self.active.clear()
        self.prio.clear()
        self.prigroup = 0
        self.vtor = vtor
        self.faults.reset()

    # -- state changes from peripherals and the SCS ---------------------------------------------------------
    def set_pending(self, exc):
        if exc in self.pending:
            return
        self.pending.add(exc)
        if self.is_enabled(exc):
            self.mcu.request_stop()  # so the run loop looks at it before the slice ends

    def clear_pending(self, exc):
        self.pending.discard(exc)

    def is_enabled(self, exc):
        return exc < IRQ0 or exc in self.enabled

    def priority(self, exc):
        if exc == NMI:
            return -2
        if exc == HARDFAULT:
            return -1
        return self.prio.get(exc, 0)

    def group(self, prio):
        """The group (preempting) part of a priority byte under AIRCR.PRIGROUP."""
        return prio if prio < 0 else prio & ~((2 << self.prigroup) - 1) & 0xFF

    # -- priority arithmetic --------------------------------------------------------------------------------
    def best_pending(self):
        best, best_prio = None, 1 << 9
        for exc in self.pending:
            if self.is_enabled(exc):
                p = self.priority(exc)
                if p < best_prio or (p == best_prio and exc < best):
                    best, best_prio = exc, p
        return best

    def execution_priority(self, with_primask=True):
        prio = 256
        for exc in self.active:
            prio = min(prio, self.group(self.priority(exc)))
        primask, basepri, faultmask = (self.uc.reg_read(r) for r in MASK_REGS)
        if basepri & 0xFF:
            prio = min(prio, self.group(basepri & 0xFF))
        if with_primask and primask & 1:
            prio = min(prio, 0)
        if faultmask & 1:
            prio = min(prio, -1)
        return prio

    def takeable(self, with_primask=True):
        exc = self.best_pending()
        if exc is None:
            return None
        return exc if self.group(self.priority(exc)) < self.execution_priority(with_primask) else None

    def held_off(self):
        """An enabled interrupt is pending but masked: the run loop should look again soon."""
        return bool(self.pending) and self.best_pending() is not None

    def wake_pending(self):
        """WFI wakes on an interrupt that would preempt if PRIMASK were clear (ARMv7-M B1.5.19)."""
        return self.takeable(with_primask=False) is not None

    def take_pending(self):
        if not self.pending:
            return False
        exc = self.takeable()
        if exc is None:
            return False
        self.enter(exc)
        return True

    # -- entry and return -----------------------------------------------------------------------------------
    def enter(self, exc, return_address=None):
        uc = self.uc
        control = uc.reg_read(A.UC_ARM_REG_CONTROL)
        handler = bool(self.active)
        use_psp = not handler and control & CONTROL_SPSEL
        extended = bool(control & CONTROL_FPCA)
        sp = uc.reg_read(A.UC_ARM_REG_PSP if use_psp else A.UC_ARM_REG_MSP)
        size = 0x68 if extended else 0x20
        frame = (sp - size) & ~7
        values = [uc.reg_read(r) for r in BASIC_REGS]
        if return_address is not None:
            values[6] = return_address
        values[6] &= ~1
        values[7] = (values[7] | XPSR_T) & ~XPSR_ALIGN | (XPSR_ALIGN if sp & 4 else 0)
        if extended:
            values += [uc.reg_read(r) for r in FP_REGS] + [0]
        uc.mem_write(frame, b"".join(v.to_bytes(4, "little") for v in values))
        exc_return = 0xFFFFFFF1 if handler else (0xFFFFFFFD if use_psp else 0xFFFFFFF9)
        if extended:
            exc_return &= ~EXC_RETURN_BASIC
        # Handler mode runs on MSP with SPSEL and FPCA clear; switch the bank while still in thread mode.
        if use_psp:
            uc.reg_write(A.UC_ARM_REG_PSP, frame)
        else:
            uc.reg_write(A.UC_ARM_REG_MSP, frame)
        uc.reg_write(A.UC_ARM_REG_CONTROL, control & ~(CONTROL_SPSEL | CONTROL_FPCA))
        # ExceptionTaken clears EPSR.IT: Unicorn's blocks end at 1 KB pages, so an interrupt can come between
        # an IT and its instructions, and the handler's first ones must not run under that condition.
        uc.reg_write(A.UC_ARM_REG_XPSR, values[7] & ~(XPSR_IT | XPSR_ALIGN | 0x1FF) | exc)
        uc.reg_write(A.UC_ARM_REG_LR, exc_return)
        vector = int.from_bytes(uc.mem_read(self.vtor + 4 * exc, 4), "little")
        uc.reg_write(A.UC_ARM_REG_PC, vector | 1)  # bit 0 keeps Unicorn in Thumb state
        self.pending.discard(exc)
        self.active.append(exc)
        self.entries += 1

    def exit(self, exc_return):
        uc = self.uc
        if self.active:
            self.active.pop()
        use_psp = exc_return & EXC_RETURN_PSP
        extended = not exc_return & EXC_RETURN_BASIC
        sp = uc.reg_read(A.UC_ARM_REG_PSP if use_psp else A.UC_ARM_REG_MSP)
        count = 26 if extended else 8
        raw = bytes(uc.mem_read(sp, 4 * count))
        words = [int.from_bytes(raw[4 * i: 4 * i + 4], "little") for i in range(count)]
        for reg, value in zip(BASIC_REGS[:6], words[:6], strict=True):
            uc.reg_write(reg, value)
        if extended:
            for reg, value in zip(FP_REGS, words[8:25], strict=True):
                uc.reg_write(reg, value)
        xpsr = words[7]
        sp += 4 * count + (4 if xpsr & XPSR_ALIGN else 0)
        uc.reg_write(A.UC_ARM_REG_XPSR, xpsr & ~XPSR_ALIGN)
        uc.reg_write(A.UC_ARM_REG_IPSR, (xpsr & 0x1FF) if exc_return & EXC_RETURN_THREAD == 0 else 0)
        control = uc.reg_read(A.UC_ARM_REG_CONTROL) & ~(CONTROL_SPSEL | CONTROL_FPCA)
        if use_psp:
            control |= CONTROL_SPSEL
        if extended:
            control |= CONTROL_FPCA
        uc.reg_write(A.UC_ARM_REG_CONTROL, control)  # in thread mode now: SPSEL swaps the bank
        uc.reg_write(A.UC_ARM_REG_PSP if use_psp else A.UC_ARM_REG_MSP, sp)
        uc.reg_write(A.UC_ARM_REG_PC, words[6] | 1)

    def on_intr(self, intno):
        uc = self.uc
        pc = uc.reg_read(A.UC_ARM_REG_PC)
        if intno == EXCP_EXCEPTION_EXIT:
            if not self.active:     # a thread's branch there: a fetch from the execute-never System region
                self.faults.execute_never(pc & ~1)
                return
            if (pc | 1) & 0xFFFFFFE0 != 0xFFFFFFE0 or (pc | 1) & 0xF not in (1, 9, 0xD):
                self.faults.usage(INVPC, pc & ~1)   # not an EXC_RETURN the ARMv7-M ARM defines
                return
            self.exit(pc | 1)
            self.take_pending()  # tail-chain (unstacked and stacked again: the same registers either way)
        elif intno == EXCP_SWI:
            self.enter(SVCALL, return_address=pc)
        elif intno == EXCP_BKPT:
            self.faults.breakpoint(pc)
        elif intno in USAGE_EXCP:
            self.faults.usage(USAGE_EXCP[intno], pc)
        elif intno == EXCP_PREFETCH_ABORT:
            self.faults.fetch_bus_error(pc)
        elif intno == EXCP_DATA_ABORT:
            self.faults.data_bus_error(pc)
        else:
            self.mcu.stop("CPU exception intno %d at pc=0x%X" % (intno, pc))


class SysTick:
    """SysTick counts down the CPU clock; its value and COUNTFLAG are computed from mcu.cycles."""

    ENABLE, TICKINT, CLKSOURCE, COUNTFLAG = 1, 2, 4, 1 << 16

    def __init__(self, mcu, nvic):
        self.mcu, self.nvic = mcu, nvic
        self.reset()

    def reset(self):
        self.csr = self.CLKSOURCE
        self.rvr = 0
        self.cvr0 = 0            # the value at self.anchor
        self.anchor = 0
        self.zeros_seen = 0      # zero crossings already reported through COUNTFLAG
        self.event = None

    def _elapsed(self):
        return self.mcu.cycles - self.anchor if self.csr & self.ENABLE else 0

    def _first_zero(self):
        return self.cvr0 if self.cvr0 else self.rvr + 1

    def zeros(self, elapsed):
        if self.rvr == 0 and self.cvr0 == 0:
            return 0
        z0 = self._first_zero()
        return 0 if elapsed < z0 else 1 + (elapsed - z0) // (self.rvr + 1)

    def value(self):
        e = self._elapsed()
        if e <= self.cvr0:
            return self.cvr0 - e
        return self.rvr - (e - self.cvr0 - 1) % (self.rvr + 1) if self.rvr else 0

    def read_csr(self):
        zeros = self.zeros(self._elapsed())
        flag = self.COUNTFLAG if zeros > self.zeros_seen else 0
        self.zeros_seen = zeros
        return self.csr | flag

    def write_csr(self, value):
        was = self.csr & self.ENABLE
        current = self.value()
        self.csr = value & (self.ENABLE | self.TICKINT | self.CLKSOURCE)
        if (self.csr & self.ENABLE) != was:
            self._restart(current)
        self._schedule()

    def write_cvr(self):
        self._restart(0)     # any write clears the counter and COUNTFLAG
        self._schedule()

    def write_rvr(self, value):
        current = self.value()
        self.rvr = value & 0xFFFFFF
        self._restart(current)
        self._schedule()

    def _restart(self, current):
        self.cvr0, self.anchor, self.zeros_seen = current, self.mcu.cycles, 0

    def _schedule(self):
        self.mcu.cancel(self.event)
        self.event = None
        if self.csr & self.ENABLE and self.csr & self.TICKINT and (self.rvr or self.cvr0):
            e = self._elapsed()
            n = self.zeros(e)
            z0 = self._first_zero()
            next_zero = z0 + n * (self.rvr + 1)
            ns = (next_zero - e) * 1_000_000_000 // self.mcu.hz
            self.event = self.mcu.at(ns, self._tick)

    def _tick(self):
        self.nvic.set_pending(SYSTICK)
        self._schedule()


class Dwt(Peripheral):
    """DWT: CYCCNT follows mcu.cycles while CTRL.CYCCNTENA is set (delay loops busy-wait on it)."""

    NAME = "DWT"
    BASE = None
    SIZE = 0x1000
    CTRL, CYCCNT = 0x000, 0x004

    def __init__(self, mcu):
        super().__init__(mcu, base=0xE0001000)
        self.reset()

    def reset(self):
        super().reset()
        self.ctrl = 0x40000000   # NUMCOMP 4
        self.count0, self.anchor = 0, 0

    def cyccnt(self):
        if self.ctrl & 1:
            return (self.count0 + self.mcu.cycles - self.anchor) & 0xFFFFFFFF
        return self.count0

    def read(self, offset, size):
        word = {self.CTRL: self.ctrl, self.CYCCNT: self.cyccnt()}.get(offset & ~3)
        if word is None:
            return super().read(offset, size)
        return (word >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def write(self, offset, size, value):
        if offset == self.CTRL and size == 4:
            self.count0, self.anchor = self.cyccnt(), self.mcu.cycles
            self.ctrl = (self.ctrl & 0xF0000000) | (value & 0x0FFFFFFF)
        elif offset == self.CYCCNT and size == 4:
            self.count0, self.anchor = value, self.mcu.cycles
        else:
            super().write(offset, size, value)

