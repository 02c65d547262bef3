"""DMAC: descriptors in RAM, software and peripheral triggers, held requests, linked descriptors, write-back,
interrupts; set up as samd-peripherals' dma.c (shared_dma_transfer) and audio_dma.c do."""

import struct

import pytest
from fakes import RAM, UnicornMcu
from samd51.periph import Peripheral
from samd51.periph import dmac as D

DESC = RAM + 0x1000
WRB = RAM + 0x1200
SRC = RAM + 0x2000
DST = RAM + 0x3000
SERCOM1 = 0x40003400
TX1 = 7  # SERCOM1_DMAC_ID_TX


class FakeSpi(Peripheral):
    """A SERCOM's DATA register that takes a byte and asks for the next one after a byte time."""

    def __init__(self, mcu, byte_ns=333):
        super().__init__(mcu, "SERCOM1", SERCOM1)
        self.byte_ns, self.sent = byte_ns, bytearray()

    def read(self, offset, size):
        return 0

    def write(self, offset, size, value):
        if offset == 0x28:
            self.sent.append(value & 0xFF)
            self.mcu.at(self.byte_ns, lambda: self.mcu.dmac.trigger(TX1))


def descriptor(btctrl, btcnt, src, dst, nxt=0):
    return struct.pack("<HHIII", btctrl, btcnt, src, dst, nxt)


@pytest.fixture
def rig():
    mcu = UnicornMcu()
    dmac = mcu.dmac = D.Dmac(mcu)
    dmac.write(D.CTRL, 2, D.CTRL_SWRST)
    dmac.write(D.BASEADDR, 4, DESC)
    dmac.write(D.WRBADDR, 4, WRB)
    dmac.write(D.CTRL, 2, D.CTRL_DMAENABLE | (1 << 8))
    return mcu, dmac


def configure(dmac, ch, trigsrc, trigact=D.TRIGACT_BURST):
    base = D.CHANNEL + 16 * ch
    dmac.write(base + D.CHCTRLA, 4, D.CHCTRLA_SWRST)
    dmac.write(base + D.CHCTRLA, 4, (trigsrc << 8) | (trigact << 20))


def enable(dmac, ch):
    base = D.CHANNEL + 16 * ch
    dmac.write(base + D.CHCTRLA, 1, dmac.read(base + D.CHCTRLA, 1) | D.CHCTRLA_ENABLE)
    dmac.write(base + D.CHINTFLAG, 1, 0x07)  # as dma_enable_channel: clear the flags right after ENABLE
    dmac.mcu.advance(D.FETCH_NS)


def flags(dmac, ch):
    return dmac.read(D.CHANNEL + 16 * ch + D.CHINTFLAG, 1)


def test_a_software_triggered_block_copies_memory(rig):
    mcu, dmac = rig
    data = bytes(range(64))
    mcu.mem_write(SRC, data)
    btctrl = D.BTCTRL_VALID | (2 << 8) | D.BTCTRL_SRCINC | D.BTCTRL_DSTINC  # words
    mcu.mem_write(DESC, descriptor(btctrl, 16, SRC + 64, DST + 64))  # end addresses
    configure(dmac, 0, 0, D.TRIGACT_BLOCK)
    enable(dmac, 0)
    assert mcu.mem_read(DST, 64) == b"\x00" * 64
    dmac.write(D.SWTRIGCTRL, 4, 1)
    assert mcu.mem_read(DST, 64) == data
    assert flags(dmac, 0) & D.CHINTFLAG_TCMPL
    assert dmac.read(D.CHANNEL + D.CHSTATUS, 1) == 0  # free again: dma_channel_free()
    assert not dmac.read(D.CHANNEL + D.CHCTRLA, 1) & D.CHCTRLA_ENABLE


def test_sercom_writes_pace_themselves_one_beat_a_trigger(rig):
    mcu, dmac = rig
    spi = FakeSpi(mcu)
    mcu.mmio.append((SERCOM1, 0x400, spi))
    data = b"display!"
    mcu.mem_write(SRC, data)
    ch = 3  # SHARED_TX_CHANNEL
    mcu.mem_write(DESC + 16 * ch, descriptor(D.BTCTRL_VALID | D.BTCTRL_SRCINC, len(data), SRC + len(data),
                                              SERCOM1 + 0x28))
    dmac.trigger(TX1)  # DRE was already high before the channel was enabled: the request is held
    configure(dmac, ch, TX1)
    enable(dmac, ch)
    assert bytes(spi.sent) == b"d"
    assert dmac.read(D.CHANNEL + 16 * ch + D.CHSTATUS, 1) & D.CHSTATUS_BUSY
    assert dmac.read(D.ACTIVE, 4) & (1 << 15)
    mcu.advance(3 * 333)
    assert bytes(spi.sent) == b"disp"
    mcu.advance(10 * 333)
    assert bytes(spi.sent) == data
    assert flags(dmac, ch) & D.CHINTFLAG_TCMPL
    wrb = struct.unpack("<HHIII", mcu.mem_read(WRB + 16 * ch, 16))
    assert wrb[1] == 0  # the write-back's BTCNT: nothing left


def test_linked_descriptors_run_on_and_the_write_back_names_the_next(rig):
    mcu, dmac = rig
    mcu.mem_write(SRC, b"AAAABBBB")
    second = DESC + 0x100
    btctrl = D.BTCTRL_VALID | D.BTCTRL_SRCINC | D.BTCTRL_DSTINC
    mcu.mem_write(DESC, descriptor(btctrl, 4, SRC + 4, DST + 4, second))
    mcu.mem_write(second, descriptor(btctrl, 4, SRC + 8, DST + 12))
    configure(dmac, 0, 72)  # DAC EMPTY0, one beat a trigger
    enable(dmac, 0)
    for _ in range(4):
        dmac.trigger(72)
    assert mcu.mem_read(DST, 4) == b"AAAA" and not flags(dmac, 0) & D.CHINTFLAG_TCMPL
    wrb = struct.unpack("<HHIII", mcu.mem_read(WRB, 16))
    assert wrb[4] == 0 and wrb[2] == SRC + 8  # now on the second descriptor
    for _ in range(4):
        dmac.trigger(72)
    assert mcu.mem_read(DST + 8, 4) == b"BBBB" and flags(dmac, 0) & D.CHINTFLAG_TCMPL


def test_block_interrupt_and_suspend(rig):
    mcu, dmac = rig
    btctrl = D.BTCTRL_VALID | (D.BLOCKACT_BOTH << 3) | D.BTCTRL_SRCINC | D.BTCTRL_DSTINC
    mcu.mem_write(DESC + 16 * 5, descriptor(btctrl, 2, SRC + 2, DST + 2, DESC + 16 * 5))  # a ring of one
    configure(dmac, 5, 0, D.TRIGACT_BLOCK)
    dmac.write(D.CHANNEL + 16 * 5 + D.CHINTENSET, 1, D.CHINTFLAG_TCMPL)
    enable(dmac, 5)
    dmac.write(D.SWTRIGCTRL, 4, 1 << 5)
    assert 35 in mcu.pending  # channels 4..31 share DMAC_4
    assert flags(dmac, 5) & D.CHINTFLAG_SUSP
    assert dmac.read(D.INTPEND, 2) & 0x1F == 5
    dmac.write(D.CHANNEL + 16 * 5 + D.CHINTFLAG, 1, D.CHINTFLAG_TCMPL)
    assert 35 not in mcu.pending


def test_an_invalid_descriptor_is_a_fetch_error(rig):
    mcu, dmac = rig
    mcu.mem_write(DESC, descriptor(0, 4, SRC, DST))
    configure(dmac, 0, 0, D.TRIGACT_BLOCK)
    dmac.write(D.CHANNEL + D.CHINTENSET, 1, D.CHINTFLAG_TERR)
    enable(dmac, 0)
    assert dmac.read(D.CHANNEL + D.CHSTATUS, 1) & D.CHSTATUS_FERR
    assert 31 in mcu.pending


def test_a_block_event_reaches_the_listeners(rig):
    mcu, dmac = rig
    heard = []
    dmac.on_event(heard.append)
    mcu.mem_write(DESC + 16, descriptor(D.BTCTRL_VALID | (1 << 1), 1, SRC, DST))
    configure(dmac, 1, 0, D.TRIGACT_BLOCK)
    enable(dmac, 1)
    dmac.write(D.SWTRIGCTRL, 4, 2)
    assert heard == [1]


class InstantSpi(FakeSpi):
    """A DATA register that asks for the next byte from inside the write itself."""

    def write(self, offset, size, value):
        self.sent.append(value & 0xFF)
        self.mcu.dmac.trigger(TX1)


def test_a_request_raised_inside_a_beat_is_served_by_the_same_loop_not_nested(rig):
    mcu, dmac = rig
    spi = InstantSpi(mcu)
    mcu.mmio.append((SERCOM1, 0x400, spi))
    n = 5000  # far past Python's recursion limit if each beat nested the next
    mcu.mem_write(SRC, bytes(k & 0xFF for k in range(n)))
    mcu.mem_write(DESC, descriptor(D.BTCTRL_VALID | D.BTCTRL_SRCINC, n, SRC + n, SERCOM1 + 0x28))
    configure(dmac, 0, TX1)
    enable(dmac, 0)
    assert dmac.trigger(TX1) == n
    assert bytes(spi.sent) == bytes(k & 0xFF for k in range(n))
    assert flags(dmac, 0) & D.CHINTFLAG_TCMPL
