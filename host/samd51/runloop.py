"""The run loop half of Mcu: CPU slices between events, WFI sleeping, the block hook's Python fallback.

A slice runs the CPU until the next scheduled event (or MAX_SLICE cycles); the block counter stops it.
Between slices: due events fire and a takeable interrupt is entered. WFI ends ``emu_start`` at the next
instruction: time then jumps from event to event until an enabled interrupt is pending, PRIMASK or not.
An instruction Unicorn cannot complete (an unmapped access, an undefined instruction) becomes a fault the
firmware takes (faults.py); the run stops only on a lockup.
"""

import heapq

from unicorn import (
    UC_ERR_FETCH_PROT,
    UC_ERR_FETCH_UNALIGNED,
    UC_ERR_FETCH_UNMAPPED,
    UC_ERR_INSN_INVALID,
    UC_ERR_READ_PROT,
    UC_ERR_READ_UNALIGNED,
    UC_ERR_READ_UNMAPPED,
    UC_ERR_WRITE_PROT,
    UC_ERR_WRITE_UNALIGNED,
    UC_ERR_WRITE_UNMAPPED,
    UcError,
)
from unicorn import arm_const as A

from .faults import INVSTATE, UNALIGNED, UNDEFINSTR

NEVER = 2 ** 64 - 1
MAX_SLICE = 200_000                  # cycles at most between two looks at the run loop's state
WFI = 0xBF30
WFE = 0xBF20
XPSR_T = 1 << 24


class RunLoop:
    def _on_block(self, uc, address, size, _):
        ctr = self._ctr
        ctr.cycles += size >> 1
        if self.profile is not None:
            self.profile.add(address, size >> 1)
        if ctr.watch and (uc.reg_read(A.UC_ARM_REG_PRIMASK), uc.reg_read(A.UC_ARM_REG_BASEPRI)) != (
                ctr.primask, ctr.basepri):
            ctr.watch, ctr.limit = 0, 0
        if ctr.cycles >= ctr.limit:
            ctr.limit = NEVER
            uc.emu_stop()

    def _on_intr(self, uc, intno, _):
        self.nvic.on_intr(intno)

    def run(self, cycles=None, until_ns=None):
        """Run until ``stop()``, ``cycles`` more cycles or ``until_ns``; returns the stop reason."""
        self.stop_reason = None
        last = None if cycles is None else self.cycles + int(cycles)
        until_ns = None if until_ns is None else int(until_ns)
        while self.stop_reason is None:
            end = last
            if until_ns is not None:   # in cycles at today's clock: the clock may change on the way
                end = self.cycles_at(until_ns) if end is None else min(end, self.cycles_at(until_ns))
            if end is not None and self.cycles >= end:
                self.stop_reason = "cycles"
                break
            self._fire_due()
            if self.stop_reason is not None:   # an event asked for the end: no further slice
                break
            self.nvic.take_pending()
            self._slice(end)
        return self.stop_reason

    def _slice(self, end):
        ctr = self._ctr
        ctr.watch = 1 if self.nvic.held_off() else 0
        if ctr.watch:   # the block counter stops the CPU when PRIMASK/BASEPRI change (CPSIE, MSR)
            ctr.primask = self.uc.reg_read(A.UC_ARM_REG_PRIMASK)
            ctr.basepri = self.uc.reg_read(A.UC_ARM_REG_BASEPRI)
        limit = ctr.cycles + MAX_SLICE
        self._events_drop_cancelled()
        if self._events:
            limit = min(limit, self.cycles_at(self._events[0].due))
        if end is not None:
            limit = min(limit, end)
        ctr.limit = self._slice_limit = max(limit, ctr.cycles + 1)
        pc = self.pc()
        started = ctr.cycles
        self._in_emu, self._stop_asked = True, False
        try:
            self.uc.emu_start(pc | 1, 0xFFFFFFFE)
        except UcError as err:
            self._in_emu = False
            hook_error = getattr(self.uc, "_hook_exception", None)
            if hook_error is not None:  # a model raised inside a callback: Unicorn reports it as a CPU error
                raise hook_error from None
            self._cpu_error(err)
            return
        finally:
            ctr.limit, ctr.watch = NEVER, 0
        self._in_emu = False
        # Only WFI ends emu_start right after a WFI instruction (the CPU halts; no later block starts), so the
        # halfword before the PC tells, whatever else asked for a stop in the meantime.
        if ctr.cycles > started and self._halfword(self.pc() - 2) == WFI:
            self._sleep(end)

    def _halfword(self, addr):
        try:
            return int.from_bytes(self.uc.mem_read(addr, 2), "little")
        except UcError:
            return None

    def _cpu_error(self, err):
        pc = self.pc()
        # Unicorn has no WFE: a hint, so step over it (2.1.4 reports the PC just after it)
        again = getattr(self, "_wfe_at", None) == (pc, self.cycles)   # no progress since: not a WFE
        if not again and (self._halfword(pc) == WFE or self._halfword(pc - 2) == WFE):
            after = pc + 2 if self._halfword(pc) == WFE else pc
            self._wfe_at = (pc, self.cycles + 1)
            self.uc.reg_write(A.UC_ARM_REG_PC, after | 1)
            self.add_cycles(1)
            return
        faults = self.nvic.faults
        if err.errno in (UC_ERR_READ_UNMAPPED, UC_ERR_WRITE_UNMAPPED, UC_ERR_READ_PROT, UC_ERR_WRITE_PROT):
            faults.data_bus_error(pc)
        elif err.errno in (UC_ERR_FETCH_UNMAPPED, UC_ERR_FETCH_PROT):
            faults.fetch_bus_error(pc)
        elif err.errno == UC_ERR_INSN_INVALID:   # a BX to an even address leaves Thumb: INVSTATE
            thumb = self.uc.reg_read(A.UC_ARM_REG_XPSR) & XPSR_T
            faults.usage(UNDEFINSTR if thumb else INVSTATE, pc)
        elif err.errno in (UC_ERR_READ_UNALIGNED, UC_ERR_WRITE_UNALIGNED, UC_ERR_FETCH_UNALIGNED):
            faults.usage(UNALIGNED, pc)
        else:
            self.stop("cpu error at pc=0x%X: %s" % (pc, err))

    def _sleep(self, end):
        """WFI: time jumps to the next event until an enabled interrupt is pending (PRIMASK or not)."""
        self.sleeps += 1
        ctr = self._ctr
        while self.stop_reason is None and not self.nvic.wake_pending():
            self._events_drop_cancelled()
            if not self._events:
                self.stop("WFI with nothing scheduled at pc=0x%X" % self.pc())
                return
            due = self.cycles_at(self._events[0].due)
            if end is not None and due > end:
                ctr.cycles = max(ctr.cycles, end)
                return
            ctr.cycles = max(ctr.cycles, due)
            self._fire_due()

    def _events_drop_cancelled(self):
        while self._events and self._events[0].fn is None:
            heapq.heappop(self._events)

    def _fire_due(self):
        now = self.now_ns()
        while self._events and self._events[0].due <= now:
            event = heapq.heappop(self._events)
            fn, event.fn = event.fn, None   # spent: a handle to it now reads as cancelled
            if fn is not None:
                fn()
        if self.on_look is not None:   # no event of its own: watching changes no slice
            self.on_look()
