"""NVMCTRL: the page buffer, EB/WP/WQW/PBC, READY/DONE at the datasheet's times, power cuts part done.

Its stand-in MCU is fakes.UnicornMcu, which the storage tests share.
"""

import random

import pytest
from fakes import RAM, UnicornMcu
from samd51.periph import nvmctrl as N
from unicorn import arm_const as A


def cpu_store(mcu, addr, value):
    """Run one Thumb STR to ``addr`` on the Unicorn CPU (the way the firmware reaches the page buffer)."""
    mcu.uc.mem_write(RAM, bytes((0x01, 0x60)))  # str r1, [r0]
    mcu.uc.reg_write(A.UC_ARM_REG_R0, addr)
    mcu.uc.reg_write(A.UC_ARM_REG_R1, value)
    mcu.uc.emu_start(RAM | 1, RAM + 2, count=1)


def command(nvm, cmd, key=N.CMDEX_KEY):
    nvm.write(N.CTRLB, 2, cmd | (key << 8))


def ready(nvm):
    return nvm.read(N.STATUS, 2) & N.STATUS_READY


@pytest.fixture
def mcu():
    return UnicornMcu()


@pytest.fixture
def nvm(mcu):
    return N.Nvmctrl(mcu)


def test_a_cpu_store_lands_in_the_page_buffer_not_the_array(mcu, nvm):
    cpu_store(mcu, N.NVM_START + 8, 0x544F4F42)
    assert mcu.mem_read(N.NVM_START + 8, 4) == b"\xff" * 4
    assert nvm.read(N.ADDR, 4) == N.NVM_START + 8
    assert nvm.read(N.STATUS, 2) & N.STATUS_LOAD
    nvm.write(N.ADDR, 4, N.NVM_START)
    command(nvm, N.CMD_WP)
    assert not ready(nvm)
    mcu.advance(N.OP_NS["write_page"] - 1000)
    assert mcu.mem_read(N.NVM_START + 8, 4) == b"\xff" * 4 and not ready(nvm)
    mcu.advance(1000)
    assert ready(nvm) and nvm.read(N.INTFLAG, 2) & N.INTFLAG_DONE
    assert mcu.mem_read(N.NVM_START + 8, 4) == b"BOOT"
    assert mcu.mem_read(N.NVM_START, 8) == b"\xff" * 8


def test_a_page_write_only_clears_bits_and_the_erase_sets_them_back(mcu, nvm):
    mcu.uc.mem_write(N.NVM_START, b"\x0f" * 4)
    nvm.flash_store(N.NVM_START, 4, 0xF0F0F0F0)
    command(nvm, N.CMD_WP)
    mcu.advance(N.OP_NS["write_page"])
    assert mcu.mem_read(N.NVM_START, 4) == b"\x00" * 4
    nvm.write(N.ADDR, 4, N.NVM_START + 4096)  # anywhere in the block
    command(nvm, N.CMD_EB)
    mcu.advance(N.OP_NS["erase_block"] // 2)
    assert not ready(nvm)
    mcu.advance(N.OP_NS["erase_block"])
    assert mcu.mem_read(N.NVM_START, N.BLOCK) == b"\xff" * N.BLOCK


def test_pbc_clears_the_buffer_and_wqw_writes_sixteen_bytes(mcu, nvm):
    nvm.flash_store(N.NVM_START + 16, 4, 0)
    command(nvm, N.CMD_PBC)
    assert ready(nvm) and not nvm.read(N.STATUS, 2) & N.STATUS_LOAD
    for k in range(4):
        nvm.flash_store(N.NVM_START + 32 + 4 * k, 4, 0x11111111 * k)
    nvm.flash_store(N.NVM_START + 48, 4, 0)  # the next quad word: not written by WQW at 32
    nvm.write(N.ADDR, 4, N.NVM_START + 32)
    command(nvm, N.CMD_WQW)
    mcu.advance(N.OP_NS["write_quad_word"])
    got = mcu.mem_read(N.NVM_START + 16, 48)
    assert got[:16] == b"\xff" * 16
    assert got[16:32] == b"".join((0x11111111 * k).to_bytes(4, "little") for k in range(4))
    assert got[32:] == b"\xff" * 16


def test_a_wrong_key_or_a_busy_controller_refuses_the_command(mcu, nvm):
    command(nvm, N.CMD_EB, key=0x00)
    assert ready(nvm) and nvm.read(N.INTFLAG, 2) & N.INTFLAG_PROGE
    nvm.write(N.INTFLAG, 2, 0xFFFF)
    command(nvm, N.CMD_EB)
    command(nvm, N.CMD_WP)
    assert nvm.read(N.INTFLAG, 2) & N.INTFLAG_PROGE
    assert nvm.counts["ignored_busy"] == 1


def test_done_raises_the_interrupt_when_enabled(mcu, nvm):
    nvm.write(N.INTENSET, 2, N.INTFLAG_DONE)
    command(nvm, N.CMD_EB)
    assert 29 not in mcu.pending
    mcu.advance(N.OP_NS["erase_block"])
    assert 29 in mcu.pending
    nvm.write(N.INTFLAG, 2, N.INTFLAG_DONE)
    assert 29 not in mcu.pending


def test_automatic_page_mode_writes_when_the_page_is_full(mcu, nvm):
    nvm.write(N.CTRLA, 2, N.CTRLA_RESET | (3 << 4))  # WMODE AP
    for k in range(0, N.PAGE, 4):
        nvm.flash_store(N.NVM_START + k, 4, 0)
    mcu.advance(N.OP_NS["write_page"])
    assert mcu.mem_read(N.NVM_START, N.PAGE) == b"\x00" * N.PAGE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cut_inside_an_erase_leaves_it_part_done(mcu, nvm, seed):
    mcu.uc.mem_write(N.NVM_START, b"\x00" * N.BLOCK)
    nvm.write(N.ADDR, 4, N.NVM_START)
    command(nvm, N.CMD_EB)
    mcu.advance(N.OP_NS["erase_block"] * 3 // 10)
    cut = nvm.power_cut(random.Random(seed))
    assert cut["during"] == "erase_block" and cut["progress"] == pytest.approx(0.3)
    data = mcu.mem_read(N.NVM_START, N.BLOCK)
    ones = sum(bin(b).count("1") for b in data) / (8 * N.BLOCK)
    assert 0.25 < ones < 0.35
    assert ready(nvm) and nvm.report()["cuts"] == [cut]


def test_a_cut_inside_a_page_write_changes_only_that_page_and_only_down(mcu, nvm):
    for k in range(0, N.PAGE, 4):
        nvm.flash_store(N.NVM_START + N.PAGE + k, 4, 0)
    command(nvm, N.CMD_WP)
    mcu.advance(N.OP_NS["write_page"] // 2)
    nvm.power_cut(random.Random(7))
    data = mcu.mem_read(N.NVM_START, 3 * N.PAGE)
    assert data[: N.PAGE] == data[2 * N.PAGE:] == b"\xff" * N.PAGE
    page = data[N.PAGE: 2 * N.PAGE]
    assert page != b"\xff" * N.PAGE and page != b"\x00" * N.PAGE


def test_a_locked_region_refuses_the_erase(mcu, nvm):
    nvm.write(N.ADDR, 4, N.NVM_START)
    command(nvm, N.CMD_LR)
    assert not (nvm.read(N.RUNLOCK, 4) >> (N.NVM_START // N.REGION)) & 1
    command(nvm, N.CMD_EB)
    assert ready(nvm) and nvm.read(N.INTFLAG, 2) & N.INTFLAG_LOCKE


def test_param_says_1024_pages_of_512_bytes(nvm):
    param = nvm.read(N.PARAM, 4)
    assert param & 0xFFFF == 1024 and (param >> 16) & 7 == 6
