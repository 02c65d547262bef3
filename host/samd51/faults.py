"""Faults: an instruction the Cortex-M4 cannot complete becomes an exception the firmware takes.

Unicorn reports such an instruction as an error from ``emu_start`` (an unmapped read, write or fetch, an
undefined instruction) or as a CPU exception in its interrupt hook (BKPT, ...). ``Faults`` sets the status
registers as the ARMv7-M ARM says (B3.2.15-B3.2.18: CFSR, HFSR, DFSR, BFAR) and enters the fault's handler,
or HardFault when the fault is not enabled in SHCSR or its priority cannot preempt (escalation, with
HFSR.FORCED). A fault that cannot be taken even as HardFault (in HardFault or NMI, or under FAULTMASK) locks
the core up: the run stops, as the chip stops executing until a reset.
"""

from unicorn import UC_HOOK_MEM_UNMAPPED

MEMMANAGE, BUSFAULT, USAGEFAULT, HARDFAULT = 4, 5, 6, 3
# CFSR: MMFSR in bits 0-7, BFSR 8-15, UFSR 16-31
IACCVIOL = 1 << 0
IBUSERR, PRECISERR, BFARVALID = 1 << 8, 1 << 9, 1 << 15
UNDEFINSTR, INVSTATE, INVPC, NOCP, UNALIGNED, DIVBYZERO = 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 24, 1 << 25
# HFSR, DFSR
FORCED, DEBUGEVT = 1 << 30, 1 << 31
DFSR_BKPT = 1 << 1
# SHCSR's enable bits for the configurable faults
ENABLE = {MEMMANAGE: 1 << 16, BUSFAULT: 1 << 17, USAGEFAULT: 1 << 18}
# The SCS offsets these registers sit at
CFSR, HFSR, DFSR, MMFAR, BFAR = 0xD28, 0xD2C, 0xD30, 0xD34, 0xD38
W1C = (CFSR, HFSR, DFSR)
NAMES = {IACCVIOL: "IACCVIOL", INVPC: "INVPC", IBUSERR: "IBUSERR", PRECISERR: "PRECISERR",
         UNDEFINSTR: "UNDEFINSTR", INVSTATE: "INVSTATE", NOCP: "NOCP", UNALIGNED: "UNALIGNED",
         DIVBYZERO: "DIVBYZERO", DEBUGEVT: "BKPT"}


class Faults:
    def __init__(self, nvic):
        self.nvic = nvic
        self.mcu = nvic.mcu
        self.shcsr = lambda: 0      # SHCSR's value (the SCS owns it)
        self.last_unmapped = None   # the address of the last unmapped access Unicorn reported
        self.taken = []             # (exception taken, status bit, pc, address): what happened, in order
        self.reset()
        nvic.uc.hook_add(UC_HOOK_MEM_UNMAPPED, self._on_unmapped)

    def reset(self):
        self.regs = {CFSR: 0, HFSR: 0, DFSR: 0, MMFAR: 0, BFAR: 0}

    def _on_unmapped(self, _uc, _access, address, _size, _value, _data):
        self.last_unmapped = address
        return False   # not handled: Unicorn ends emu_start with the error, and the run loop calls us

    # -- the registers as software sees them ------------------------------------------------------------
    def read(self, off):
        return self.regs[off]

    def write(self, off, value):
        if off in W1C:
            self.regs[off] &= ~value
        else:
            self.regs[off] = value

    # -- the faults ------------------------------------------------------------------------------------
    def data_bus_error(self, pc):
        """A load or store the bus does not decode: a precise BusFault, its address in BFAR."""
        address, self.last_unmapped = self.last_unmapped, None
        if address is not None:
            self.regs[BFAR] = address
            self.regs[CFSR] |= BFARVALID
        return self.fault(BUSFAULT, PRECISERR, pc, address)

    def fetch_bus_error(self, pc):
        """An instruction fetched from an address the bus does not decode (IBUSERR; BFAR is not set)."""
        self.last_unmapped = None
        return self.fault(BUSFAULT, IBUSERR, pc)

    def execute_never(self, pc):
        """A fetch from the System region (0xE0000000 up), which the default memory map makes execute-never:
        what a thread's branch to an EXC_RETURN-like value does (IACCVIOL; MMFAR is not set)."""
        return self.fault(MEMMANAGE, IACCVIOL, pc)

    def usage(self, bit, pc):
        return self.fault(USAGEFAULT, bit, pc)

    def breakpoint(self, pc):
        """BKPT with no debugger: a debug event, which escalates to HardFault (HFSR.DEBUGEVT)."""
        self.regs[DFSR] |= DFSR_BKPT
        return self.fault(HARDFAULT, DEBUGEVT, pc)

    def fault(self, exc, bit, pc, address=None):
        """Record the fault and enter its handler (or HardFault's) returning to ``pc``, the instruction
        that faulted; returns the exception taken, or None on a lockup."""
        nvic = self.nvic
        if exc == HARDFAULT:
            self.regs[HFSR] |= bit
        else:
            self.regs[CFSR] |= bit
        now = nvic.execution_priority()
        target = exc
        if exc != HARDFAULT and not (self.shcsr() & ENABLE[exc] and nvic.group(nvic.priority(exc)) < now):
            target = HARDFAULT
            self.regs[HFSR] |= FORCED
        what = "%s at pc=0x%X" % (NAMES[bit], pc) + ("" if address is None else " address=0x%X" % address)
        if now <= -1:   # already at HardFault's priority or above
            self.mcu.log("fault", "lockup: " + what)
            self.mcu.stop("lockup: " + what)
            return None
        self.taken.append((target, bit, pc, address))
        name = "HardFault" if target == HARDFAULT else "exception %d" % target
        self.mcu.log("fault", "%s: %s" % (name, what))
        nvic.enter(target, return_address=pc)
        return target
