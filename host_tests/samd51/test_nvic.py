"""The core's exception model on Unicorn: entry and return, priorities, tail-chaining, the FPU frame, PSP,
SVC, SysTick and WFI, with hand-encoded Thumb code in RAM (no firmware)."""

import struct

from thumb_asm import (
    B_NEXT,
    BX_LR,
    CPSID_I,
    CPSIE_I,
    DATA,
    ISB,
    RAM,
    STACK_TOP,
    VECTORS,
    WFI,
    Machine,
    adds,
    b_back,
    b_self,
    bump,
    ldr32,
    log,
    logged,
    mov_from_lr,
    movs,
    msr,
    pend,
    record,
    str_,
    svc,
    vmov_s0_from,
)
from unicorn import arm_const as A

IRQ0 = 16


def enable(m, *irqs):
    m.mcu.mem_write(0xE000E100, struct.pack("<I", sum(1 << i for i in irqs)))


def priority(m, irq, prio):
    m.mcu.mem_write(0xE000E400 + irq, bytes([prio]))


def test_an_interrupt_runs_its_handler_and_returns_with_the_registers_as_they_were():
    main = movs(0, 0x11) + movs(1, 0x22) + movs(2, 0x33) + movs(3, 0x44) + adds(5, 1) + b_back(1)
    handler = record(0, 1) + movs(0, 0) + movs(1, 0) + movs(5, 0) + BX_LR
    m = Machine(main, {IRQ0 + 3: handler})
    enable(m, 3)
    m.mcu.run(cycles=50)
    r5 = m.reg(A.UC_ARM_REG_R5)
    m.mcu.set_pending(3)
    m.mcu.run(cycles=200)
    assert m.word(0) == 1
    assert [m.reg(r) for r in (A.UC_ARM_REG_R0, A.UC_ARM_REG_R1, A.UC_ARM_REG_R2, A.UC_ARM_REG_R3)] == [
        0x11, 0x22, 0x33, 0x44]
    assert m.reg(A.UC_ARM_REG_R5) > r5          # r5 is not stacked: the handler's 0, counted on from there
    assert m.reg(A.UC_ARM_REG_IPSR) == 0
    assert m.reg(A.UC_ARM_REG_SP) == STACK_TOP
    assert m.mcu.nvic.active == [] and m.mcu.nvic.entries == 1


def test_an_interrupt_that_is_not_enabled_stays_pending():
    m = Machine(adds(5, 1) + b_back(1), {IRQ0 + 3: record(0, 1) + BX_LR})
    m.mcu.set_pending(3)
    m.mcu.run(cycles=200)
    assert m.word(0) == 0 and 19 in m.mcu.nvic.pending


def test_the_higher_priority_goes_first_then_preempts_and_tail_chains():
    # The thread pends IRQ 0 (priority 0x40) and IRQ 1 (0x20) in one block: IRQ 1 goes first and pends IRQ 2
    # (0x60), which waits; IRQ 0 next, whose handler pends IRQ 1 again, which preempts it; IRQ 2, pended twice
    # but one pending bit, tail-chains after IRQ 0, once, before the thread runs on.
    main = pend(0) + pend(1) + B_NEXT + log(9) + b_self()
    h0 = log(10) + pend(1) + B_NEXT + log(11) + BX_LR
    h1 = log(1) + pend(2) + BX_LR
    h2 = log(2) + BX_LR
    m = Machine(main, {IRQ0: h0, IRQ0 + 1: h1, IRQ0 + 2: h2})
    for irq, prio in ((0, 0x40), (1, 0x20), (2, 0x60)):
        priority(m, irq, prio)
    enable(m, 0, 1, 2)
    m.mcu.run(cycles=2000)
    assert logged(m) == [1, 10, 1, 11, 2, 9]


def test_primask_holds_an_interrupt_off_until_cpsie():
    main = CPSID_I + pend(0) + B_NEXT + log(1) + CPSIE_I + B_NEXT + log(3) + b_self()
    m = Machine(main, {IRQ0: log(2) + BX_LR})
    enable(m, 0)
    m.mcu.run(cycles=2000)
    assert logged(m) == [1, 2, 3]


def test_the_fpu_context_is_stacked_and_restored_with_the_extended_frame():
    main = ldr32(0, 0x3F800000) + vmov_s0_from(0) + b_self()
    handler = ldr32(2, DATA) + mov_from_lr(0) + str_(0, 2) + ldr32(0, 0x40490FDB) + vmov_s0_from(0) + BX_LR
    m = Machine(main, {IRQ0 + 5: handler})
    enable(m, 5)
    m.mcu.run(cycles=50)
    assert m.reg(A.UC_ARM_REG_CONTROL) & 4      # FPCA: Unicorn sets it on the first FP instruction
    m.mcu.set_pending(5)
    m.mcu.run(cycles=300)
    assert m.word(0) == 0xFFFFFFE9
    assert m.reg(A.UC_ARM_REG_S0) == 0x3F800000
    assert m.reg(A.UC_ARM_REG_SP) == STACK_TOP


def test_a_thread_on_the_process_stack_is_stacked_there_and_returns_to_it():
    psp = RAM + 0x6000
    main = ldr32(0, psp) + msr(9, 0) + movs(0, 2) + msr(20, 0) + ISB + b_self()
    handler = ldr32(2, DATA) + mov_from_lr(0) + str_(0, 2) + BX_LR
    m = Machine(main, {IRQ0 + 7: handler})
    enable(m, 7)
    m.mcu.run(cycles=50)
    m.mcu.set_pending(7)
    m.mcu.run(cycles=300)
    assert m.word(0) == 0xFFFFFFFD
    assert m.reg(A.UC_ARM_REG_PSP) == psp and m.reg(A.UC_ARM_REG_MSP) == STACK_TOP
    assert m.reg(A.UC_ARM_REG_CONTROL) & 2


def test_svc_enters_its_handler_and_returns_after_the_instruction():
    m = Machine(log(1) + svc(5) + log(3) + b_self(), {11: log(2) + BX_LR})
    m.mcu.run(cycles=500)
    assert logged(m) == [1, 2, 3]


def test_systick_interrupts_once_a_period():
    main = (ldr32(0, 0xE000E010) + ldr32(1, 999) + str_(1, 0, 4) + movs(1, 0) + str_(1, 0, 8)
            + movs(1, 7) + str_(1, 0, 0) + b_self())
    m = Machine(main, {15: record(1, 1) + ldr32(2, DATA) + b"\x13\x68" + adds(3, 1) + str_(3, 2) + BX_LR})
    m.mcu.run(cycles=100_000)
    ticks = m.word(0)
    assert 98 <= ticks <= 100            # one a 1000 cycles, less the set-up
    assert m.mcu.nvic.systick.value() <= 999


def test_wfi_with_primask_set_wakes_on_a_pending_enabled_interrupt():
    main = CPSID_I + WFI + log(1) + CPSIE_I + B_NEXT + log(3) + b_self()
    m = Machine(main, {IRQ0 + 4: log(2) + BX_LR})
    enable(m, 4)
    m.mcu.at(5000, lambda: m.mcu.set_pending(4))
    m.mcu.run(cycles=10_000)
    assert logged(m) == [1, 2, 3]
    assert m.mcu.sleeps == 1 and m.mcu.now_ns() >= 5000


def test_wfi_does_not_wake_on_an_interrupt_that_is_not_enabled():
    m = Machine(CPSID_I + WFI + log(1) + b_self(), {IRQ0 + 4: BX_LR})
    m.mcu.at(5000, lambda: m.mcu.set_pending(4))
    reason = m.mcu.run(cycles=10_000)
    assert reason.startswith("WFI with nothing scheduled")
    assert logged(m) == []


def test_sysresetreq_ends_the_run_and_a_reset_starts_again_from_the_vector():
    # Reset from inside a handler, interrupts off: the reset must leave handler mode and PRIMASK behind.
    main = CPSID_I + svc(1) + b_self()
    reboot = record(1, 1) + ldr32(0, 0xE000ED0C) + ldr32(1, 0x05FA0004) + str_(1, 0) + b_self()
    m = Machine(bump(0) + main, {11: reboot})
    assert m.mcu.run(cycles=1000) == "SYSRESETREQ"
    assert m.mcu.resets == 1 and m.word(0) == 1
    m.mcu.reset(vector_table=VECTORS)
    assert m.reg(A.UC_ARM_REG_IPSR) == 0 and m.reg(A.UC_ARM_REG_PRIMASK) == 0
    assert m.mcu.run(cycles=1000) == "SYSRESETREQ"
    assert m.word(0) == 2                       # RAM survives a reset; the code ran again from the top


def test_wfe_is_a_hint_the_code_runs_on():
    wfe = struct.pack("<H", 0xBF20)     # Unicorn raises UC_ERR_INSN_INVALID on it
    m = Machine(log(1) + wfe + log(2) + b_self())
    assert m.mcu.run(cycles=500) == "cycles"
    assert logged(m) == [1, 2]


def test_an_interrupt_taken_inside_an_it_block_enters_its_handler_outside_it():
    # Unicorn's blocks end at each 1 KB page, so a block may start between an IT and its conditional
    # instruction, and the run loop takes interrupts there. The handler must not run under the thread's IT
    # condition (ARMv7-M ExceptionTaken clears EPSR.IT); the return restores it, so ADDNE still never runs.
    head = RAM + 0x13FC                   # CMP at 0x..3FC, IT NE at 0x..3FE, ADDNE at the page's start
    setup = ldr32(2, DATA + 4)            # where a handler that skipped its first instruction would count
    main = setup + struct.pack("<HHHH", 0x4280, 0xBF18, 0x3501, 0xE7FA)   # cmp r0,r0; it ne; addne r5,#1; b
    systick = ldr32(0, 0xE000E010) + ldr32(1, 997) + str_(1, 0, 4) + movs(1, 7) + str_(1, 0, 0)
    m = Machine(systick + main, {15: bump(0) + BX_LR}, at=head - len(systick + setup))
    taken_at = []
    enter = m.mcu.nvic.enter
    m.mcu.nvic.enter = lambda exc, ret=None: (taken_at.append(m.mcu.pc()), enter(exc, ret))
    m.mcu.run(cycles=100_000)
    assert head + 4 in taken_at            # some interrupts did come between the IT and its instruction
    assert m.word(0) == len(taken_at) >= 90 and m.word(1) == 0
    assert m.reg(A.UC_ARM_REG_R5) == 0
