"""A few hand-encoded Thumb instructions for the SAMD51 core tests (ARMv7-M ARM, A7.7), and a machine with a
vector table in RAM so a test is a handful of instructions and no firmware."""

import struct

from samd51.mcu import Mcu

RAM = 0x20000000
VECTORS = RAM              # VTOR in RAM
STACK_TOP = RAM + 0x8000
CODE = RAM + 0x1000
HANDLERS = RAM + 0x2000    # 0x100 bytes a handler
DATA = RAM + 0x4000        # words the handlers write


def movs(rd, imm):
    return struct.pack("<H", 0x2000 | rd << 8 | imm)


def adds(rd, imm):
    return struct.pack("<H", 0x3000 | rd << 8 | imm)


def _mov16(op, rd, imm):
    hw1 = op | ((imm >> 11) & 1) << 10 | (imm >> 12) & 0xF
    hw2 = ((imm >> 8) & 7) << 12 | rd << 8 | imm & 0xFF
    return struct.pack("<HH", hw1, hw2)


def ldr32(rd, value):
    """MOVW + MOVT: a 32-bit constant into rd."""
    return _mov16(0xF240, rd, value & 0xFFFF) + _mov16(0xF2C0, rd, value >> 16)


def str_(rt, rn, offset=0):
    return struct.pack("<H", 0x6000 | (offset // 4) << 6 | rn << 3 | rt)


def ldr(rt, rn, offset=0):
    return struct.pack("<H", 0x6800 | (offset // 4) << 6 | rn << 3 | rt)


def vmov_s0_from(rt):
    return struct.pack("<HH", 0xEE00, rt << 12 | 0x0A10)


def vmov_to_s0(rt):   # vmov rt, s0
    return struct.pack("<HH", 0xEE10, rt << 12 | 0x0A10)


def b_self():
    return struct.pack("<H", 0xE7FE)


def b_to(here, target):
    """B (16-bit) at ``here`` to ``target``, within 2 KB."""
    return struct.pack("<H", 0xE000 | ((target - here - 4) >> 1) & 0x7FF)


def bx(rm):
    return struct.pack("<H", 0x4700 | rm << 3)


def push(regs):
    return struct.pack("<H", 0xB400 | sum(1 << r for r in regs))


def pop(regs):
    return struct.pack("<H", 0xBC00 | sum(1 << r for r in regs))


def b_back(halfwords):
    """Branch back over ``halfwords`` halfwords before this one."""
    return struct.pack("<H", 0xE000 | (-(halfwords + 2)) & 0x7FF)


BX_LR = struct.pack("<H", 0x4770)
WFI = struct.pack("<H", 0xBF30)
NOP = struct.pack("<H", 0xBF00)
CPSID_I = struct.pack("<H", 0xB672)
CPSIE_I = struct.pack("<H", 0xB662)


def svc(imm):
    return struct.pack("<H", 0xDF00 | imm)


def bump(word):
    """The code for: DATA[word] += 1 (r2, r3 as scratch)."""
    return ldr32(2, DATA + 4 * word) + ldr(3, 2) + adds(3, 1) + str_(3, 2)


def record(slot_word, value):
    """DATA[slot_word] = value (r2, r3 as scratch)."""
    return ldr32(2, DATA + 4 * slot_word) + movs(3, value) + str_(3, 2)


class Machine:
    """An Mcu with code at ``at`` (CODE, in RAM) and handlers for chosen exception numbers, no firmware."""

    def __init__(self, main, handlers=None, at=CODE):
        self.mcu = Mcu()
        uc = self.mcu.uc
        self.mcu.mem_write(VECTORS, struct.pack("<II", STACK_TOP, at | 1))
        for i, (exc, code) in enumerate(sorted((handlers or {}).items())):
            addr = HANDLERS + 0x100 * i
            self.mcu.mem_write(addr, code)
            self.mcu.mem_write(VECTORS + 4 * exc, struct.pack("<I", addr | 1))
        self.mcu.mem_write(at, main)
        self.mcu.mem_write(DATA, bytes(0x100))
        self.mcu.reset(vector_table=VECTORS)
        self.uc = uc

    def word(self, i):
        return int.from_bytes(self.mcu.mem_read(DATA + 4 * i, 4), "little")

    def reg(self, reg):
        return self.uc.reg_read(reg)


def lsls(rd, rm, imm):
    return struct.pack("<H", imm << 6 | rm << 3 | rd)


def str_reg(rt, rn, rm):
    return struct.pack("<H", 0x5000 | rm << 6 | rn << 3 | rt)


def mov_from_lr(rd):
    return struct.pack("<H", 0x4600 | 14 << 3 | rd)


def msr(sysm, rn):
    """MSR: 8 MSP, 9 PSP, 16 PRIMASK, 17 BASEPRI, 20 CONTROL."""
    return struct.pack("<HH", 0xF380 | rn, 0x8800 | sysm)


ISB = struct.pack("<HH", 0xF3BF, 0x8F6F)
B_NEXT = struct.pack("<H", 0xE7FF)   # a branch to the next instruction: ends a basic block
LOG_COUNT = 15                       # DATA word: entries in the log; entries from word 17


def log(value):
    """Append ``value`` to the log in DATA (r1-r3 as scratch)."""
    return (ldr32(2, DATA + 4 * LOG_COUNT) + ldr(3, 2) + adds(3, 1) + str_(3, 2) + lsls(3, 3, 2)
            + ldr32(2, DATA + 64) + movs(1, value) + str_reg(1, 2, 3))


def pend(irq):
    """NVIC ISPR: make external interrupt ``irq`` (< 32) pending (r2, r3 as scratch)."""
    return ldr32(2, 0xE000E200) + ldr32(3, 1 << irq) + str_(3, 2)


def logged(machine):
    n = machine.word(LOG_COUNT)
    return [machine.word(16 + k) for k in range(1, n + 1)]
