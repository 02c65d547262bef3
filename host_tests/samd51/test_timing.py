"""How instructions become time (samd51/native.py, timing.py): the Cortex-M4's cycles by instruction class,
a taken branch's refill, and the CMCC over flash at the NVM's wait states."""

from thumb_asm import DATA, Machine, adds, b_back, b_to, bx, ldr, ldr32, movs, pop, push, str_
from unicorn import arm_const as A

CMCC_CTRL = 0x41006008
NVMCTRL_CTRLA = 0x41004000
FLASH_CODE = 0x1000


def iterations(main, cycles=10_001, **kw):
    m = Machine(main, **kw)
    m.mcu.run(cycles=cycles)
    return m, m.reg(A.UC_ARM_REG_R5)


def test_a_loop_costs_its_instructions_and_the_branchs_refill():
    # adds 1, b 1 + a refill of 1: three cycles an iteration
    _, n = iterations(movs(5, 0) + adds(5, 1) + b_back(1))
    assert abs(n - 10_001 // 3) <= 2


def test_a_load_costs_two_cycles_and_its_neighbour_one():
    _, one = iterations(ldr32(0, DATA) + movs(5, 0) + ldr(1, 0) + adds(5, 1) + b_back(2))
    _, two = iterations(ldr32(0, DATA) + movs(5, 0) + ldr(1, 0) + ldr(2, 0) + adds(5, 1) + b_back(3))
    assert abs(one - 10_001 // 5) <= 2     # 2 + 1 + 2
    assert abs(two - 10_001 // 6) <= 2     # 2 + 1 + 1 + 2


def test_push_and_pop_cost_one_and_a_cycle_a_register():
    _, n = iterations(movs(5, 0) + push([0, 1, 2, 3]) + pop([0, 1, 2, 3]) + adds(5, 1) + b_back(3))
    assert abs(n - 10_001 // 13) <= 2      # 5 + 5 + 1 + 2


def test_flash_code_with_the_cmcc_off_pays_a_line_read_every_pass():
    m, n = iterations(movs(5, 0) + adds(5, 1) + b_back(1), at=FLASH_CODE)
    timing = m.mcu.timing
    assert not timing.cache_on and timing.wait_states() == 1      # 48 MHz at reset, AUTOWS
    assert timing.miss_cycles() == 3
    assert abs(n - 10_001 // 6) <= 2       # 3, and the loop's line from flash


def test_with_the_cmcc_on_the_loop_runs_from_the_cache():
    setup = ldr32(0, CMCC_CTRL) + movs(1, 1) + str_(1, 0) + movs(5, 0)
    m, n = iterations(setup + adds(5, 1) + b_back(1), at=FLASH_CODE)
    assert m.mcu.timing.cache_on
    assert m.mcu.timing.figures()["misses"] <= 2
    assert abs(n - 10_001 // 3) <= 6


def chain(fragments):
    """Code in flash: the CMCC enabled, then ``fragments`` blocks 1 KB apart (one cache set), each adding 1
    to r5 and branching to the next; the last returns to the first."""
    first = 0x2010
    code = bytearray(b"\xff" * (first - FLASH_CODE + 1024 * fragments))
    setup = ldr32(0, CMCC_CTRL) + movs(1, 1) + str_(1, 0) + ldr32(6, first | 1) + movs(5, 0) + bx(6)
    code[:len(setup)] = setup
    for k in range(fragments):
        at = first + 1024 * k
        nxt = b_to(at + 2, at + 1024) if k < fragments - 1 else bx(6)
        code[at - FLASH_CODE: at - FLASH_CODE + 4] = adds(5, 1) + nxt
    m, n = iterations(bytes(code), cycles=30_000, at=FLASH_CODE)
    return n, m.mcu.timing.figures()["misses"]


def test_four_lines_in_one_set_stay_and_a_fifth_makes_every_fetch_a_miss():
    passes, misses = chain(4)
    assert passes > 1000 and misses <= 4 + 2           # each line once, and the set-up's
    passes, misses = chain(5)
    assert passes > 1000 and misses >= passes - 5      # round robin: the line refilled is the next needed


def test_the_wait_states_follow_autows_and_the_clock_or_rws():
    m = Machine(movs(5, 0))
    timing, mcu = m.mcu.timing, m.mcu
    mcu.set_hz(120_000_000)
    assert timing.wait_states() == 5 and timing.miss_cycles() == 7
    mcu.bus.write(NVMCTRL_CTRLA, 2, 3 << 8)               # AUTOWS off, RWS 3
    assert timing.wait_states() == 3 and timing.miss_cycles() == 5
    mcu.reset(vector_table=0x20000000)
    assert timing.wait_states() == 5 and not timing.cache_on  # AUTOWS again, the CMCC off
