"""Faults on the core: an access nothing decodes, a fetch from nowhere, an undefined instruction and a BKPT
each enter the firmware's handler with the ARMv7-M status registers set; a fault in HardFault locks up.
Hand-encoded Thumb code in RAM, no firmware."""

import struct

from thumb_asm import BX_LR, DATA, Machine, adds, b_self, bx, ldr, ldr32, log, logged, movs, str_
from unicorn import arm_const as A

HARDFAULT, BUSFAULT, USAGEFAULT = 3, 5, 6
CFSR, HFSR, DFSR, BFAR, SHCSR = 0xE000ED28, 0xE000ED2C, 0xE000ED30, 0xE000ED38, 0xE000ED24
PRECISERR, BFARVALID, IBUSERR, UNDEFINSTR = 1 << 9, 1 << 15, 1 << 8, 1 << 16
FORCED, DEBUGEVT = 1 << 30, 1 << 31
NOWHERE = 0x41400000            # past bridge B's peripherals: nothing answers there
MOV_R0_SP = struct.pack("<H", 0x4668)
UDF = struct.pack("<H", 0xDE00)
BKPT = struct.pack("<H", 0xBE00)


def copy(reg_addr, word):
    """DATA[word] = *reg_addr (r2, r3 as scratch)."""
    return ldr32(2, reg_addr) + ldr(3, 2) + ldr32(2, DATA + 4 * word) + str_(3, 2)


# A handler as a firmware's: it reads what happened (CFSR, HFSR, BFAR, DFSR, the stacked PC) and stops.
REPORT = (copy(CFSR, 0) + copy(HFSR, 1) + copy(BFAR, 2) + copy(DFSR, 4) + MOV_R0_SP + ldr(1, 0, 24)
          + ldr32(2, DATA + 12) + str_(1, 2) + log(7) + b_self())


def at(m, offset_of):
    """The address of the instruction ``offset_of`` bytes into the thread's code."""
    return 0x20001000 + offset_of


def test_a_load_from_an_address_nothing_decodes_is_a_precise_bus_fault_escalated_to_hardfault():
    before = ldr32(0, NOWHERE)
    m = Machine(before + ldr(1, 0) + log(1) + b_self(), {HARDFAULT: REPORT})
    assert m.mcu.run(cycles=2000) == "cycles"          # the machine runs on: the firmware has the fault
    assert logged(m) == [7]                             # the handler ran; the code after the load did not
    assert m.word(0) == PRECISERR | BFARVALID and m.word(2) == NOWHERE
    assert m.word(1) == FORCED                          # BusFault not enabled in SHCSR: HardFault instead
    assert m.word(3) == at(m, len(before))              # the stacked PC is the load's own
    assert m.mcu.nvic.active == [HARDFAULT]


def test_a_store_to_nowhere_goes_to_the_busfault_handler_when_shcsr_enables_it():
    enable = ldr32(0, SHCSR) + ldr32(1, 1 << 17) + str_(1, 0)
    m = Machine(enable + ldr32(0, NOWHERE + 8) + str_(1, 0) + b_self(), {HARDFAULT: log(3) + b_self(),
                                                                          BUSFAULT: REPORT})
    m.mcu.run(cycles=2000)
    assert logged(m) == [7]
    assert m.word(0) == PRECISERR | BFARVALID and m.word(2) == NOWHERE + 8 and m.word(1) == 0
    assert m.mcu.nvic.active == [BUSFAULT]


def test_a_branch_to_nowhere_is_an_instruction_bus_error_without_an_address():
    m = Machine(ldr32(0, 0x3B929425) + bx(0), {HARDFAULT: REPORT})
    m.mcu.run(cycles=2000)
    assert m.word(0) == IBUSERR and m.word(1) == FORCED and m.word(2) == 0   # BFAR not valid, not written
    assert m.word(3) == 0x3B929424                      # the stacked PC: the fetch that failed


def test_an_undefined_instruction_is_a_usage_fault_escalated_to_hardfault():
    m = Machine(log(1) + UDF + log(2) + b_self(), {HARDFAULT: REPORT})
    assert m.mcu.run(cycles=2000) == "cycles"
    assert logged(m) == [1, 7]
    assert m.word(0) == UNDEFINSTR and m.word(1) == FORCED


def test_a_handler_may_step_over_the_faulting_instruction_and_return():
    # The handler adds 2 to the stacked PC (the UDF is 16 bits) and returns: the thread goes on after it.
    step = MOV_R0_SP + ldr(1, 0, 24) + adds(1, 2) + str_(1, 0, 24)
    m = Machine(log(1) + UDF + log(2) + b_self(), {HARDFAULT: log(5) + step + BX_LR})
    m.mcu.run(cycles=2000)
    assert logged(m) == [1, 5, 2]
    assert m.mcu.nvic.active == [] and m.reg(A.UC_ARM_REG_IPSR) == 0


def test_bkpt_without_a_debugger_is_a_debug_event_hardfault():
    m = Machine(BKPT + b_self(), {HARDFAULT: REPORT})
    m.mcu.run(cycles=2000)
    assert m.word(1) == DEBUGEVT and m.word(0) == 0 and m.word(4) & 2    # HFSR.DEBUGEVT, DFSR.BKPT


def test_the_status_bits_clear_when_written_with_ones():
    clear = ldr32(0, CFSR) + ldr32(1, PRECISERR) + str_(1, 0) + ldr32(0, HFSR) + ldr32(1, FORCED) + str_(1, 0)
    handler = copy(CFSR, 5) + clear + copy(CFSR, 0) + copy(HFSR, 1) + log(7) + b_self()
    m = Machine(ldr32(0, NOWHERE) + ldr(1, 0) + b_self(), {HARDFAULT: handler})
    m.mcu.run(cycles=2000)
    assert m.word(5) == PRECISERR | BFARVALID
    assert m.word(0) == BFARVALID and m.word(1) == 0


def test_a_fault_inside_hardfault_locks_the_core_up():
    m = Machine(UDF + b_self(), {HARDFAULT: ldr32(0, NOWHERE) + ldr(1, 0) + b_self()})
    reason = m.mcu.run(cycles=2000)
    assert reason.startswith("lockup: PRECISERR") and "address=0x41400000" in reason
    assert [t[0] for t in m.mcu.nvic.faults.taken] == [HARDFAULT]


def test_a_fault_with_interrupts_masked_escalates_even_when_busfault_is_enabled():
    # PRIMASK raises the execution priority to 0: BusFault (priority 0) cannot preempt, HardFault can.
    enable = ldr32(0, SHCSR) + ldr32(1, 1 << 17) + str_(1, 0)
    cpsid = struct.pack("<H", 0xB672)
    m = Machine(enable + cpsid + ldr32(0, NOWHERE) + ldr(1, 0) + b_self(),
                {HARDFAULT: REPORT, BUSFAULT: log(9) + b_self()})
    m.mcu.run(cycles=2000)
    assert logged(m) == [7] and m.word(1) == FORCED


def test_movs_reads_back_after_the_fault_handler_ran_in_thread_state():
    # The machine is whole after a fault: the handler's own instructions ran in handler mode on MSP.
    m = Machine(movs(4, 9) + UDF + b_self(), {HARDFAULT: REPORT})
    m.mcu.run(cycles=2000)
    assert m.reg(A.UC_ARM_REG_R4) == 9 and m.reg(A.UC_ARM_REG_IPSR) == HARDFAULT


def test_a_thread_branching_to_an_exc_return_value_faults_on_the_execute_never_region():
    # Only Handler mode treats 0xFFFFFFxx as an exception return; a thread's branch there fetches from the
    # System region, which is execute-never: MemManage's IACCVIOL, escalated to HardFault.
    m = Machine(ldr32(0, 0xFFFFFFFF) + bx(0), {HARDFAULT: REPORT})
    assert m.mcu.run(cycles=2000) == "cycles"
    assert m.word(0) == 1 and m.word(1) == FORCED and m.word(3) == 0xFFFFFFFE


def test_a_handler_returning_to_a_value_no_exc_return_names_is_an_invpc_usage_fault():
    m = Machine(movs(0, 0) + b_self(), {11: ldr32(0, 0xFFFFFFF5) + bx(0), HARDFAULT: REPORT})
    m.mcu.nvic.set_pending(11)
    m.mcu.run(cycles=2000)
    assert m.word(0) == 1 << 18 and m.word(1) == FORCED


def test_a_branch_to_an_even_address_leaves_thumb_and_faults_invstate_at_the_target():
    m = Machine(ldr32(1, 0x20001100) + bx(1), {HARDFAULT: REPORT})
    m.mcu.run(cycles=2000)
    assert m.word(0) == 1 << 17 and m.word(1) == FORCED and m.word(3) == 0x20001100
    assert logged(m) == [7]                               # the handler itself ran in Thumb state
