"""SERCOM: SPI master set up as ASF4's spi_m_sync and CircuitPython's busio.SPI do, bytes at the baud to a
part with the CS and D/C levels of the moment, RXC/BUFOVF, interrupts, DMA through the storage engineer's DMAC
as sercom_dma_write drives it; USART and I2C master enough not to hang.

Its stand-in MCU is fakes.PortMcu, which the display tests share.
"""

import struct

import pytest
from fakes import RAM, SERCOM4, PortMcu, gpio_out, spi
from samd51.periph import dmac as D
from samd51.periph import sercom as S


class Recorder(S.SpiPart):
    """A part on the bus: keeps (byte, dc) and answers with the byte it was given, inverted."""

    def __init__(self):
        self.got = []

    def spi_byte(self, byte, dc):
        self.got.append((byte, dc))
        return byte ^ 0xFF


@pytest.fixture
def mcu():
    return PortMcu()


@pytest.fixture
def panel_bus(mcu):
    s = spi(mcu)
    part = Recorder()
    s.attach(part, cs="PB07", dc="PB05")
    gpio_out(mcu, "PB07", 0)
    return s, part


def test_bytes_reach_the_part_with_dc_while_cs_is_low(mcu, panel_bus):
    s, part = panel_bus
    gpio_out(mcu, "PB05", 0)
    s.write(S.DATA, 4, 0x2A)
    gpio_out(mcu, "PB05", 1)
    s.write(S.DATA, 4, 0x01)
    gpio_out(mcu, "PB07", 1)          # deselected: the panel does not hear this one
    s.write(S.DATA, 4, 0x55)
    assert part.got == [(0x2A, 0), (0x01, 1)]
    assert s.bytes_out == 3


def test_baud_0_is_24_mhz_so_a_byte_takes_333_ns(mcu, panel_bus):
    s, _ = panel_bus
    assert s.bit_rate() == 24_000_000
    assert s.read(S.INTFLAG, 1) & S.DRE and not s.read(S.INTFLAG, 1) & S.TXC
    s.write(S.DATA, 4, 0x11)
    assert s.read(S.INTFLAG, 1) & S.DRE          # the byte moved straight into the shifter
    s.write(S.DATA, 4, 0x22)
    assert not s.read(S.INTFLAG, 1) & S.DRE      # the second waits in DATA
    mcu.advance(330)
    flags = s.read(S.INTFLAG, 1)
    assert not flags & S.DRE and not flags & S.TXC
    mcu.advance(10)
    assert s.read(S.INTFLAG, 1) & S.DRE and not s.read(S.INTFLAG, 1) & S.TXC
    mcu.advance(330)
    assert s.read(S.INTFLAG, 1) & S.TXC
    s.write(S.INTFLAG, 1, S.TXC)                 # TXC clears by writing 1
    assert not s.read(S.INTFLAG, 1) & S.TXC


def test_a_sercom_without_its_core_clock_shifts_nothing(mcu):
    gclk = mcu.peripheral("GCLK")
    gclk.write(gclk.PCHCTRL + 4 * S.GCLK_ID_CORE["SERCOM4"], 4, 0)   # GCLK_SERCOM4_CORE off
    s = spi(mcu)
    assert s.bit_rate() == 0
    s.write(S.DATA, 1, 0xAB)
    mcu.advance(1_000_000)
    assert not s.read(S.INTFLAG, 1) & S.TXC                      # the byte never goes out
    gclk.write(gclk.PCHCTRL + 4 * S.GCLK_ID_CORE["SERCOM4"], 4, 0x40)
    assert s.bit_rate() == 24_000_000                            # generator 0's 48 MHz, BAUD 0


def test_a_slower_baud_gives_longer_bytes(mcu):
    s = spi(mcu, baud=23)                        # busio's 1 MHz: 48 MHz / (2 * 24)
    s.write(S.DATA, 1, 0xAB)
    mcu.advance(7_900)
    assert not s.read(S.INTFLAG, 1) & S.TXC
    mcu.advance(200)
    assert s.read(S.INTFLAG, 1) & S.TXC


def test_received_bytes_come_in_order_and_a_third_unread_one_overflows(mcu, panel_bus):
    s, _ = panel_bus
    for b in (0x01, 0x02, 0x03):
        s.write(S.DATA, 1, b)
    assert not s.read(S.INTFLAG, 1) & S.RXC      # nothing is in before its 8 bits are
    mcu.advance(1_100)
    assert s.read(S.INTFLAG, 1) & S.RXC
    assert s.read(S.STATUS, 2) & S.BUFOVF
    assert [s.read(S.DATA, 4), s.read(S.DATA, 4)] == [0xFE, 0xFD]
    assert not s.read(S.INTFLAG, 1) & S.RXC
    s.write(S.STATUS, 2, S.BUFOVF)
    assert not s.read(S.STATUS, 2) & S.BUFOVF


def test_without_rxen_nothing_is_received(mcu):
    s = spi(mcu, rxen=False)
    s.write(S.DATA, 1, 0x01)
    mcu.advance(1_000)
    assert s.read(S.INTFLAG, 1) & (S.TXC | S.RXC) == S.TXC


def test_txc_interrupt_comes_when_the_byte_is_out(mcu, panel_bus):
    s, _ = panel_bus
    s.write(S.INTENSET, 1, S.TXC)
    s.write(S.DATA, 1, 0x42)
    assert 63 not in mcu.pending
    mcu.advance(400)
    assert 63 in mcu.pending                     # SERCOM4_1: TXC's line
    s.write(S.INTFLAG, 1, S.TXC)
    assert 63 not in mcu.pending


def test_32_bit_read_at_intflag_includes_status(mcu, panel_bus):
    s, _ = panel_bus
    word = s.read(S.INTFLAG, 4)
    assert word & 0xFF == s.read(S.INTFLAG, 1) and (word >> 16) == s.read(S.STATUS, 2)


# -- DMA: the storage engineer's DMAC, driven as sercom_dma_write does ------------------------------------
DESC = RAM + 0x100
WRB = RAM + 0x200
SRC = RAM + 0x1000


def dma_write(mcu, s, data, ch=0, nxt=0):
    dmac = mcu.peripheral("DMAC")
    mcu.ram[SRC - RAM: SRC - RAM + len(data)] = data
    btctrl = D.BTCTRL_VALID | D.BTCTRL_SRCINC      # beat size byte, source increments
    desc = struct.pack("<HHIII", btctrl, len(data), SRC + len(data), SERCOM4 + S.DATA, nxt)
    mcu.mem_write(DESC + 16 * ch, desc)
    base = D.CHANNEL + 16 * ch
    dmac.write(base + D.CHCTRLA, 4, D.CHCTRLA_SWRST)
    dmac.write(base + D.CHCTRLA, 4, (s.trig_tx << 8) | (D.TRIGACT_BURST << 20))
    s.write(S.INTFLAG, 1, S.RXC | S.DRE)
    dmac.write(base + D.CHCTRLA, 1, dmac.read(base + D.CHCTRLA, 1) | D.CHCTRLA_ENABLE)
    dmac.write(base + D.CHINTFLAG, 1, 0x07)


@pytest.fixture
def dmac(mcu):
    d = mcu.add(D.Dmac(mcu, "DMAC", 0x4100A000, (31, 32, 33, 34, 35)))
    d.write(D.CTRL, 2, D.CTRL_SWRST)
    d.write(D.BASEADDR, 4, DESC)
    d.write(D.WRBADDR, 4, WRB)
    d.write(D.CTRL, 2, D.CTRL_DMAENABLE | (1 << 8))
    return d


def test_a_dma_write_reaches_the_part_and_txc_waits_for_the_last_byte(mcu, dmac, panel_bus):
    s, part = panel_bus
    gpio_out(mcu, "PB05", 1)
    data = bytes(range(200))
    start = mcu.t
    dma_write(mcu, s, data)
    mcu.advance(1_000)
    assert dmac.read(D.CHANNEL + D.CHINTFLAG, 1) & D.CHINTFLAG_TCMPL
    assert [b for b, _ in part.got] == list(data) and {dc for _, dc in part.got} == {1}
    end = start + D.FETCH_NS + 200 * 8 * 1e9 / 24e6  # the first beat comes once the descriptor is fetched
    mcu.advance(int(end) - 50 - mcu.t)
    assert not s.read(S.INTFLAG, 1) & S.TXC
    mcu.advance(int(end) + 50 - mcu.t)
    assert s.read(S.INTFLAG, 1) & S.TXC
    assert s.read(S.STATUS, 2) & S.BUFOVF        # nobody read RX: the firmware drains and clears it


def test_two_dma_writes_in_a_row(mcu, dmac, panel_bus):
    s, part = panel_bus
    dma_write(mcu, s, b"\x01" * 20)
    mcu.advance(20_000)
    dma_write(mcu, s, b"\x02" * 30)
    mcu.advance(20_000)
    assert [b for b, _ in part.got] == [1] * 20 + [2] * 30


# -- USART and I2C: enough not to hang ----------------------------------------------------------------------
def test_usart_bytes_take_ten_bits_and_fed_bytes_are_received(mcu):
    s = mcu.add(S.Sercom(mcu, "SERCOM5", 0x43000400, (66, 67, 68, 69)))
    s.write(S.CTRLA, 4, S.MODE_USART_INT << S.MODE_SHIFT)
    s.write(S.CTRLB, 4, S.CTRLB_RXEN)
    s.write(S.BAUD, 2, 63019)                    # 115200 baud from 48 MHz, arithmetic
    s.write(S.CTRLA, 4, (S.MODE_USART_INT << S.MODE_SHIFT) | S.CTRLA_ENABLE)
    s.write(S.DATA, 2, 0x41)
    mcu.advance(80_000)
    assert not s.read(S.INTFLAG, 1) & S.TXC
    mcu.advance(10_000)
    assert s.read(S.INTFLAG, 1) & S.TXC
    s.uart_feed(b"ok")
    mcu.advance(200_000)
    assert s.read(S.INTFLAG, 1) & S.RXC
    assert bytes([s.read(S.DATA, 2), s.read(S.DATA, 2)]) == b"ok"


def test_i2c_master_address_is_nacked_and_stop_frees_the_bus(mcu):
    s = mcu.add(S.Sercom(mcu, "SERCOM2", 0x41012000, (54, 55, 56, 57)))
    s.write(S.CTRLA, 4, (S.MODE_I2C_MASTER << S.MODE_SHIFT) | S.CTRLA_ENABLE)
    s.write(S.STATUS, 2, S.BUSSTATE_IDLE << S.I2CM_BUSSTATE_SHIFT)
    assert (s.read(S.STATUS, 2) >> S.I2CM_BUSSTATE_SHIFT) & 3 == S.BUSSTATE_IDLE
    s.write(S.ADDR, 4, 0x19 << 1)                # the accelerometer's address, write
    assert s.read(S.INTFLAG, 1) & S.I2CM_MB and s.read(S.STATUS, 2) & S.I2CM_RXNACK
    s.write(S.CTRLB, 4, 3 << S.I2CM_CTRLB_CMD_SHIFT)
    assert (s.read(S.STATUS, 2) >> S.I2CM_BUSSTATE_SHIFT) & 3 == S.BUSSTATE_IDLE


def test_instances_are_the_j19a_six(mcu):
    assert [(n, hex(b)) for _, n, b, _ in S.INSTANCES] == [
        ("SERCOM0", "0x40003000"), ("SERCOM1", "0x40003400"), ("SERCOM2", "0x41012000"),
        ("SERCOM3", "0x41014000"), ("SERCOM4", "0x43000000"), ("SERCOM5", "0x43000400")]
    s4 = S.Sercom(mcu, "SERCOM4", SERCOM4, (62, 63, 64, 65))
    assert (s4.trig_rx, s4.trig_tx) == (12, 13)   # SERCOM4_DMAC_ID_RX / _TX


def test_a_dma_block_in_one_call_is_the_same_as_beat_by_beat(mcu):
    a, b = PortMcu(), PortMcu()
    runs = []
    for m, bulk in ((a, False), (b, True)):
        s = spi(m)
        part = Recorder()
        s.attach(part, cs="PB07", dc="PB05")
        gpio_out(m, "PB07", 0)
        gpio_out(m, "PB05", 1)
        m.advance(1_000)
        data = bytes(range(50))
        if bulk:
            assert s.dma_block(S.DATA, data) == len(data)
        else:
            for byte in data:
                s.write(S.DATA, 1, byte)
        runs.append((part.got, s.wire.last_start, s.wire.last_end, s.bytes_out, [t for t, _ in s.wire.rx]))
        if not bulk:
            assert [v for _, v in s.wire.rx][:2] == [0xFF, 0xFE]   # the part's MISO, in both ways
        m.advance(100_000)
        runs[-1] += (s.read(S.INTFLAG, 1), s.read(S.STATUS, 2))
    got_a, *times_a, out_a, rx_a, flags_a, status_a = runs[0]
    got_b, *times_b, out_b, rx_b, flags_b, status_b = runs[1]
    assert got_a == got_b and out_a == out_b and (flags_a, status_a) == (flags_b, status_b)
    assert times_a == pytest.approx(times_b) and rx_a == pytest.approx(rx_b)
    assert len(rx_a) == S.RX_KEEP and flags_a & S.RXC and status_a & S.BUFOVF
    assert times_a[1] == pytest.approx(1_000 + 50 * 8 * 1e9 / 24e6)


def test_the_dmac_moves_a_chain_as_blocks_with_what_beat_by_beat_gives():
    """The DMAC's block path (dma_block) and its beat path: the same bytes, DC levels, wire times, TCMPL,
    write-back and beat counts, for a chain of two descriptors with a D/C change between the writes."""
    runs = []
    for blocks in (False, True):
        m = PortMcu()
        d = m.add(D.Dmac(m, "DMAC", 0x4100A000, (31, 32, 33, 34, 35)))
        d.write(D.BASEADDR, 4, DESC)
        d.write(D.WRBADDR, 4, WRB)
        d.write(D.CTRL, 2, D.CTRL_DMAENABLE | (1 << 8))
        if not blocks:
            d.transfers.block_sink = lambda addr: None
        s = spi(m)
        part = Recorder()
        s.attach(part, cs="PB07", dc="PB05")
        gpio_out(m, "PB07", 0)
        gpio_out(m, "PB05", 0)
        dma_write(m, s, bytes(range(100)))
        m.advance(1_000)
        gpio_out(m, "PB05", 1)
        second = DESC + 0x80                          # the chain: 100 bytes, then 200 more from SRC + 100
        m.ram[SRC - RAM + 100: SRC - RAM + 300] = bytes(range(200))
        btctrl = D.BTCTRL_VALID | D.BTCTRL_SRCINC
        m.mem_write(second, struct.pack("<HHIII", btctrl, 200, SRC + 300, SERCOM4 + S.DATA, 0))
        dma_write(m, s, bytes(range(100, 200)), nxt=second)
        m.advance(50)
        early = (s.read(S.INTFLAG, 1), bytes(m.ram[WRB - RAM: WRB - RAM + 16]))
        m.advance(200_000)
        runs.append((part.got, s.wire.last_start, s.wire.last_end, s.bytes_out, early,
                     d.read(D.CHANNEL + D.CHINTFLAG, 1), s.read(S.INTFLAG, 1), s.read(S.STATUS, 2),
                     d.report()["beats"], d.report()["blocks"], d.report()["block_moves"] > 0))
    beat, block = runs
    assert beat[1:3] == pytest.approx(block[1:3])     # wire times (float sums in another order)
    assert beat[:1] + beat[3:-1] == block[:1] + block[3:-1]
    assert block[-1] and not beat[-1]                 # the block path ran, the other did not
    assert [b for b, _ in beat[0]] == list(range(200)) * 2
    assert [dc for _, dc in beat[0]] == [0] * 100 + [1] * 300
    assert beat[6] & S.TXC and beat[5] & D.CHINTFLAG_TCMPL
