"""The SAMD51 USB device controller and the host, driven through registers as TinyUSB's dcd_samd.c drives
them (no firmware): a stand-in MCU (RAM, time, events, NVIC pending bits) and a stand-in device stack."""

import heapq
import struct

import pytest
from samd51 import usbhost as H
from samd51.periph import usb as U

RAM = 0x20000000
DESC = RAM + 0x000        # the endpoint descriptors (8 endpoints x 2 banks x 16 bytes)
SETUP_BUF = RAM + 0x200
EP0_BUF = RAM + 0x240
IN_BUF = RAM + 0x300
OUT_BUF = RAM + 0x400
REG = U.Usb.BASE


class FakeMcu:
    """Just the Mcu API the USB models use: RAM, simulated time, one-shot events and pending IRQ lines."""

    def __init__(self):
        self.ram = bytearray(0x1000)
        self.now = 0
        self.events = []
        self.seq = 0
        self.pending = set()
        self.lines = []
        self.isr = None              # the stand-in firmware's handler, run while a USB line is pending
        self.usb = U.Usb(self)

    def now_ns(self):
        return self.now

    def at(self, ns, fn):
        self.seq += 1
        event = [self.now + max(0, int(ns)), self.seq, fn]
        heapq.heappush(self.events, event)
        return event

    def cancel(self, handle):
        if handle is not None:
            handle[2] = None

    def set_pending(self, irqn):
        self.pending.add(irqn)

    def clear_pending(self, irqn):
        self.pending.discard(irqn)

    def unmodelled(self, periph, offset, size, op, value=None):
        self.lines.append(("unmodelled", "%s+0x%x %s" % (periph.NAME, offset, op)))

    def mem_read(self, addr, n):
        return bytes(self.ram[addr - RAM: addr - RAM + n])

    def mem_write(self, addr, data):
        self.ram[addr - RAM: addr - RAM + len(data)] = data

    def peripheral(self, name):
        return self.usb if name == "USB" else None

    def log(self, kind, text):
        self.lines.append((self.now, kind, text))

    def advance(self, ns):
        end = self.now + ns
        self._take()
        while self.events and self.events[0][0] <= end:
            due, _, fn = heapq.heappop(self.events)
            self.now = max(self.now, due)
            if fn is not None:
                fn()
            self._take()
        self.now = end

    def _take(self):
        while self.isr is not None and self.pending & {80, 81, 82, 83}:
            self.pending -= {80, 81, 82, 83}   # the NVIC clears pending on entry
            self.isr()

    # register access as the firmware's loads and stores
    def r8(self, off):
        return self.usb.read(off, 1)

    def w8(self, off, v):
        self.usb.write(off, 1, v)

    def r16(self, off):
        return self.usb.read(off, 2)

    def w16(self, off, v):
        self.usb.write(off, 2, v)

    def w32(self, off, v):
        self.usb.write(off, 4, v)

    def bank(self, n, b, addr=None, size_code=3, count=None, mps=None, auto_zlp=False):
        """Write bank ``b`` of endpoint ``n``'s descriptor as dcd_samd.c does (None: keep the field)."""
        desc = DESC + 0x20 * n + 0x10 * b
        old_addr, pck = struct.unpack("<II", self.mem_read(desc, 8))
        addr = old_addr if addr is None else addr
        count = pck & 0x3FFF if count is None else count
        mps = (pck >> 14) & 0x3FFF if mps is None else mps
        pck = count | (mps << 14) | (size_code << 28) | (U.AUTO_ZLP if auto_zlp else 0)
        self.mem_write(desc, struct.pack("<II", addr, pck))

    def pcksize(self, n, b):
        pck = struct.unpack("<I", self.mem_read(DESC + 0x20 * n + 0x10 * b + 4, 4))[0]
        return pck & 0x3FFF, (pck >> 14) & 0x3FFF


def ep(n, reg):
    return U.EP_BASE + U.EP_STRIDE * n + reg


def dcd_init(m):
    """dcd_init(): software reset (waiting for SYNCBUSY.SWRST to rise and fall), descriptors, enable."""
    m.w8(U.CTRLA, U.CTRLA_SWRST)
    assert m.r8(U.SYNCBUSY) & U.SYNCBUSY_SWRST
    while m.r8(U.SYNCBUSY) & U.SYNCBUSY_SWRST:
        m.advance(100)
    m.w8(U.QOSCTRL, 0x0F)
    m.w32(U.DESCADD, DESC)
    m.w16(U.CTRLB, 0)                 # SPDCONF full speed, DETACH clear
    m.w8(U.CTRLA, U.CTRLA_ENABLE | U.CTRLA_RUNSTDBY)
    while m.r8(U.SYNCBUSY) & U.SYNCBUSY_ENABLE:
        m.advance(100)
    m.w16(U.INTFLAG, m.r16(U.INTFLAG))
    m.w16(U.INTENSET, U.EORST)


def bus_reset_config(m):
    """dcd_samd.c's bus_reset(): EP0 as control, 64-byte banks, the SETUP buffer ready."""
    m.bank(0, 0, addr=SETUP_BUF, size_code=3, count=0, mps=8)
    m.bank(0, 1, size_code=3)
    m.w8(ep(0, U.EPCFG), 0x11)
    m.w8(ep(0, U.EPINTENSET), U.TRCPT0 | U.TRCPT1 | U.RXSTP)


@pytest.fixture
def m():
    mcu = FakeMcu()
    dcd_init(mcu)
    mcu.usb.bus_reset(True)
    mcu.usb.bus_reset(False)
    mcu.w16(U.INTFLAG, U.EORST)
    bus_reset_config(mcu)
    mcu.pending.clear()
    return mcu


# -- registers ----------------------------------------------------------------------------------------------
def test_reset_values_and_byte_access():
    m = FakeMcu()
    assert m.r16(U.CTRLB) == U.CTRLB_DETACH
    assert m.r8(U.QOSCTRL) == 0x0F
    assert m.r8(U.FSMSTATUS) == U.FSMSTATE_OFF
    m.w8(U.INTENSET + 1, 0x02)        # LPMSUSP, bit 9, through the register's second byte
    assert m.r16(U.INTENSET) == U.LPMSUSP
    assert m.r8(U.INTENCLR + 1) == 0x02
    m.w16(U.INTENCLR, U.LPMSUSP)
    assert m.r16(U.INTENSET) == 0
    m.w32(U.DESCADD, 0x20001234)
    assert m.usb.read(U.DESCADD + 2, 2) == 0x2000
    assert m.usb.read(U.CTRLA, 4) == 0x0F << 24     # CTRLA, reserved, SYNCBUSY, QOSCTRL
    assert m.usb.read(U.CTRLB, 4) == U.CTRLB_DETACH  # CTRLB, DADD, reserved


def test_swrst_syncs_then_enable_attaches():
    m = FakeMcu()
    seen = []
    m.usb.on_attach = seen.append
    m.w8(U.CTRLA, U.CTRLA_SWRST)
    assert m.r8(U.SYNCBUSY) == U.SYNCBUSY_SWRST and m.r8(U.CTRLA) & U.CTRLA_SWRST
    m.advance(U.SYNC_NS)
    assert m.r8(U.SYNCBUSY) == 0 and m.r8(U.CTRLA) == 0
    m.w8(U.CTRLA, U.CTRLA_ENABLE)
    assert seen == []                 # DETACH still set: no pull-up
    m.w16(U.CTRLB, 0)
    assert seen == [True]
    m.w16(U.CTRLB, U.CTRLB_DETACH)
    m.w16(U.CTRLB, 0)
    m.w8(U.CTRLA, U.CTRLA_SWRST)      # a reset takes the pull-up off
    assert seen == [True, False, True, False]


def test_bus_reset_raises_eorst_on_usb0_and_clears_address(m):
    m.w8(U.DADD, U.DADD_ADDEN | 5)
    m.w8(ep(2, U.EPCFG), 0x33)
    m.usb.bus_reset(True)
    assert m.r8(U.FSMSTATUS) == U.FSMSTATE_RESET
    m.usb.bus_reset(False)
    assert m.r16(U.INTFLAG) & U.EORST and 80 in m.pending
    assert m.r8(U.DADD) == 0 and m.r8(ep(2, U.EPCFG)) == 0 and m.r8(ep(0, U.EPCFG)) == 0x11
    m.w16(U.INTFLAG, U.EORST)
    assert not m.r16(U.INTFLAG) & U.EORST


def test_sof_and_frame_number_only_wake_when_enabled(m):
    m.advance(3 * U.FRAME_NS + 10)
    assert m.r16(U.FNUM) >> 3 == 3
    assert m.r16(U.INTFLAG) & U.SOF and 81 not in m.pending
    m.w16(U.INTFLAG, U.SOF)
    assert not m.r16(U.INTFLAG) & U.SOF
    assert not m.events                # no event a frame while nobody listens
    m.w16(U.INTENSET, U.SOF)
    m.advance(U.FRAME_NS)
    assert 81 in m.pending and 80 not in m.pending


# -- transactions -------------------------------------------------------------------------------------------
def test_setup_lands_in_ep0_bank_with_rxstp(m):
    packet = bytes([0x80, 6, 0, 1, 0, 0, 18, 0])
    assert m.usb.setup(0, 0, packet) == U.ACK
    assert m.mem_read(SETUP_BUF, 8) == packet
    assert m.mem_read(SETUP_BUF + 8, 2) == U.crc16(packet)   # the CRC follows, as the datasheet says
    assert m.pcksize(0, 0)[0] == 8
    assert m.r8(ep(0, U.EPINTFLAG)) & U.RXSTP and m.r8(ep(0, U.EPSTATUS)) & U.BK0RDY
    assert m.r16(U.EPINTSMRY) == 1 and 80 in m.pending
    m.w8(ep(0, U.EPINTFLAG), U.RXSTP | U.TRCPT0)
    assert 80 not in m.pending and m.r16(U.EPINTSMRY) == 0


def test_crc16_of_a_known_packet():
    # the CRC catalogue's CRC-16/USB: check value 0xB4C8 for "123456789", sent low byte first
    assert U.crc16(b"123456789") == bytes([0xC8, 0xB4])


def test_in_transfer_of_two_packets_ends_with_one_trcpt1(m):
    data = bytes(range(100))
    m.mem_write(IN_BUF, data)
    m.bank(0, 1, addr=IN_BUF, count=100, mps=0)
    m.w8(ep(0, U.EPSTATUSSET), U.BK1RDY)
    assert m.usb.in_token(0, 0) == (U.ACK, data[:64])
    assert not m.r8(ep(0, U.EPINTFLAG)) & U.TRCPT1 and m.pcksize(0, 1) == (100, 64)
    assert m.usb.in_token(0, 0) == (U.ACK, data[64:])
    assert m.r8(ep(0, U.EPINTFLAG)) & U.TRCPT1 and 83 in m.pending and 82 not in m.pending
    assert not m.r8(ep(0, U.EPSTATUS)) & U.BK1RDY
    assert m.usb.in_token(0, 0) == (U.NAK, b"")
    assert m.r8(ep(0, U.EPINTFLAG)) & U.TRFAIL1


def test_auto_zlp_after_a_full_last_packet(m):
    m.mem_write(IN_BUF, b"x" * 64)
    m.bank(0, 1, addr=IN_BUF, count=64, mps=0, auto_zlp=True)
    m.w8(ep(0, U.EPSTATUSSET), U.BK1RDY)
    assert m.usb.in_token(0, 0) == (U.ACK, b"x" * 64)
    assert not m.r8(ep(0, U.EPINTFLAG)) & U.TRCPT1
    assert m.usb.in_token(0, 0) == (U.ACK, b"")
    assert m.r8(ep(0, U.EPINTFLAG)) & U.TRCPT1


def test_out_transfer_fills_the_buffer_with_byte_count(m):
    m.w8(ep(2, U.EPCFG), 0x03)         # bank 0 bulk
    m.w8(ep(2, U.EPINTENSET), U.TRCPT0)
    m.bank(2, 0, addr=OUT_BUF, size_code=3, count=0, mps=128)
    m.w8(ep(2, U.EPSTATUSCLR), U.BK0RDY)
    assert m.usb.out_token(0, 2, b"a" * 64) == U.ACK
    assert m.pcksize(2, 0) == (64, 128) and not m.r8(ep(2, U.EPINTFLAG)) & U.TRCPT0
    assert m.usb.out_token(0, 2, b"bc") == U.ACK   # a short packet ends the transfer
    assert m.mem_read(OUT_BUF, 66) == b"a" * 64 + b"bc"
    assert m.pcksize(2, 0)[0] == 66 and m.r8(ep(2, U.EPINTFLAG)) & U.TRCPT0 and 82 in m.pending
    assert m.usb.out_token(0, 2, b"d") == U.NAK      # the bank is full until the firmware clears BK0RDY
    assert m.r8(ep(2, U.EPINTFLAG)) & U.TRFAIL0


def test_stall_answers_and_a_setup_clears_it(m):
    m.w8(ep(0, U.EPSTATUSSET), U.STALLRQ1 | U.STALLRQ0)
    assert m.usb.in_token(0, 0)[0] == U.STALL
    assert m.usb.out_token(0, 0, b"") == U.STALL
    assert m.r8(ep(0, U.EPINTFLAG)) & (U.STALL0 | U.STALL1) == U.STALL0 | U.STALL1
    m.usb.setup(0, 0, bytes(8))
    assert not m.r8(ep(0, U.EPSTATUS)) & (U.STALLRQ0 | U.STALLRQ1)


def test_disabled_bank_and_wrong_address_give_no_handshake(m):
    assert m.usb.in_token(0, 3) == (None, b"")
    m.w8(U.DADD, U.DADD_ADDEN | 9)
    assert m.usb.setup(0, 0, bytes(8)) is None
    assert m.usb.setup(9, 0, bytes(8)) == U.ACK


# -- the host against a stand-in device stack ---------------------------------------------------------------
DEVICE_DESC = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0xEF, 2, 1, 64, 0x239A, 0x8034, 0x0100,
                          1, 2, 3, 1)
CONFIG_BODY = (
    bytes([9, 4, 0, 0, 1, 2, 2, 0, 0])                   # interface 0: CDC ACM
    + bytes([5, 0x24, 0, 0x10, 0x01])                    # CDC header
    + bytes([7, 5, 0x81, 3, 8, 0, 16])                   # notification IN
    + bytes([9, 4, 1, 0, 2, 0x0A, 0, 0, 0])              # interface 1: CDC data
    + bytes([7, 5, 0x02, 2, 64, 0, 0]) + bytes([7, 5, 0x82, 2, 64, 0, 0])
    + bytes([9, 4, 2, 0, 2, 8, 6, 0x50, 0])              # interface 2: MSC (the host leaves it alone)
    + bytes([7, 5, 0x83, 2, 64, 0, 0]) + bytes([7, 5, 0x03, 2, 64, 0, 0]))
CONFIG_DESC = struct.pack("<BBHBBBBB", 9, 2, 9 + len(CONFIG_BODY), 3, 1, 0, 0x80, 50) + CONFIG_BODY
STRINGS = {0: b"\x04\x03\x09\x04", 1: "Adafruit", 2: "PyBadge", 3: "SULTAN0"}


class DeviceStack:
    """A small device stack on the registers, in dcd_samd.c's manner: control transfers on EP0 in 64-byte
    pieces, the status stage queued after the data, DADD written when SET_ADDRESS's status completes,
    CDC bulk endpoints 0x82/0x02 opened by SET_CONFIGURATION, and every OUT byte echoed back upper-cased."""

    def __init__(self, m):
        self.m = m
        self.dtr = False
        self.line_coding = None
        self.pending_address = None
        self.control_in = b""
        self.out_stage = None
        self.requests = []
        self.tx = []                    # CDC IN transfers waiting for the one in flight
        self.tx_busy = False
        self.dadd_delay_ns = 0
        m.isr = self.isr

    def isr(self):
        m = self.m
        flags = m.r16(U.INTFLAG) & m.r16(U.INTENSET)
        if flags & U.EORST:
            m.w16(U.INTFLAG, U.EORST)
            bus_reset_config(m)
        if m.r8(ep(0, U.EPINTFLAG)) & U.RXSTP:
            setup = m.mem_read(SETUP_BUF, 8)
            m.w8(ep(0, U.EPINTFLAG), U.RXSTP | U.TRCPT0)
            self.on_setup(setup)
        summary = m.r16(U.EPINTSMRY)
        for n in range(8):
            if summary & (1 << n):
                self.on_endpoint(n, m.r8(ep(n, U.EPINTFLAG)))

    def xfer_in(self, n, data):
        self.m.mem_write(IN_BUF + 0x40 * n, data)
        self.m.bank(n, 1, addr=IN_BUF + 0x40 * n, count=len(data), mps=0)
        self.m.w8(ep(n, U.EPINTFLAG), U.TRFAIL1)
        self.m.w8(ep(n, U.EPSTATUSSET), U.BK1RDY)

    def xfer_out(self, n, addr, length):
        self.m.bank(n, 0, addr=addr, count=0, mps=length)
        self.m.w8(ep(n, U.EPINTFLAG), U.TRFAIL0)
        self.m.w8(ep(n, U.EPSTATUSCLR), U.BK0RDY)

    def on_setup(self, setup):
        kind, request, value, index, length = struct.unpack("<BBHHH", setup)
        self.requests.append((kind, request, value))
        if request == H.GET_DESCRIPTOR and value >> 8 in (1, 2, 3):
            desc = {1: DEVICE_DESC, 2: CONFIG_DESC}.get(value >> 8)
            if value >> 8 == 3:
                text = STRINGS[value & 0xFF]
                if not isinstance(text, bytes):
                    text = bytes([2 + 2 * len(text), 3]) + text.encode("utf-16-le")
                desc = text
            self.control_in = desc[:length]
            self.send_control_piece()
        elif request == H.SET_ADDRESS:
            self.pending_address = value
            self.xfer_in(0, b"")
        elif request == H.SET_CONFIGURATION:
            for n, cfg in ((2, 0x33),):
                self.m.w8(ep(n, U.EPCFG), cfg)
                self.m.w8(ep(n, U.EPINTENSET), U.TRCPT0 | U.TRCPT1)
            self.m.bank(2, 1, size_code=3)
            self.xfer_out(2, OUT_BUF, 64)
            self.xfer_in(0, b"")
        elif request == H.SET_LINE_CODING:
            self.out_stage = "line coding"
            self.xfer_out(0, EP0_BUF, length)
        elif request == H.SET_CONTROL_LINE_STATE:
            self.dtr = bool(value & H.DTR)
            self.xfer_in(0, b"")
            if self.dtr:
                self.cdc_write(b"hello\r\n")
        else:                           # the device qualifier and the rest: a full-speed device stalls
            self.m.w8(ep(0, U.EPSTATUSSET), U.STALLRQ0 | U.STALLRQ1)

    def cdc_write(self, data):
        self.tx.append(data)
        if not self.tx_busy:
            self.tx_busy = True
            self.xfer_in(2, self.tx.pop(0))

    def send_control_piece(self):
        piece, self.control_in = self.control_in[:64], self.control_in[64:]
        self.last_piece = len(piece) < 64 or not self.control_in
        self.xfer_in(0, piece)

    def on_endpoint(self, n, flags):
        m = self.m
        if flags & U.TRCPT1:
            m.w8(ep(n, U.EPINTFLAG), U.TRCPT1)
            if n == 0 and self.pending_address is not None:
                address, self.pending_address = self.pending_address, None
                # tud_task, not the interrupt, writes DADD: late when the firmware is busy
                m.at(self.dadd_delay_ns, lambda: m.w8(U.DADD, U.DADD_ADDEN | address))
            elif n == 0 and self.control_in:
                self.send_control_piece()
            elif n == 0 and getattr(self, "last_piece", False):
                self.last_piece = False
                self.xfer_out(0, SETUP_BUF, 0)  # status stage
            elif n == 2:
                self.tx_busy = bool(self.tx)
                if self.tx:
                    self.xfer_in(2, self.tx.pop(0))
        if flags & U.TRCPT0:
            m.w8(ep(n, U.EPINTFLAG), U.TRCPT0)
            count = m.pcksize(n, 0)[0]
            if n == 0 and self.out_stage:
                self.line_coding = m.mem_read(EP0_BUF, count)
                self.out_stage = None
                self.xfer_in(0, b"")
            elif n == 2:
                self.cdc_write(m.mem_read(OUT_BUF, count).upper())
                self.xfer_out(2, OUT_BUF, 64)
            if n == 0:
                m.bank(0, 0, addr=SETUP_BUF, count=0, mps=8)   # prepare_setup()


def test_host_enumerates_and_opens_cdc_with_dtr():
    m = FakeMcu()
    stack = DeviceStack(m)
    host = H.UsbHost(m)
    dcd_init(m)
    assert host.state == "attached"
    m.advance(H.ATTACH_DEBOUNCE_NS - 1000)
    assert not any(r for r in stack.requests)     # the host waits out the attach debounce
    m.advance(200_000_000)
    assert host.state == "open", m.lines
    assert host.device["product"] == "PyBadge" and host.device["vid"] == 0x239A
    assert host.device["high_speed"] is False   # the device qualifier stalled
    assert m.r8(U.DADD) == U.DADD_ADDEN | H.DEVICE_ADDRESS
    assert stack.dtr and stack.line_coding == H.LINE_CODING
    assert host.cdc == (0, 0x82, 0x02, 64)
    assert bytes(host.received) == b"hello\r\n"
    first = [r[:2] for r in stack.requests[:3]]
    assert first == [(0x80, H.GET_DESCRIPTOR), (0x00, H.SET_ADDRESS), (0x80, H.GET_DESCRIPTOR)]
    # a real host's pace: reset and recovery come before the first SETUP, and the whole takes > 120 ms
    assert host.opened_ns > H.ATTACH_DEBOUNCE_NS + H.RESET_NS + H.RESET_RECOVERY_NS


def test_host_retries_a_frame_later_when_the_address_is_late():
    m = FakeMcu()
    stack = DeviceStack(m)
    stack.dadd_delay_ns = H.SET_ADDRESS_RECOVERY_NS + 1_500_000   # the first try at the new address times out
    host = H.UsbHost(m)
    dcd_init(m)
    m.advance(300_000_000)
    assert host.state == "open" and host.port.timeouts == 2
    assert [r[1] for r in stack.requests].count(H.SET_ADDRESS) == 1   # no second enumeration was needed


def test_a_control_transfer_the_device_never_finishes_fails_after_five_seconds():
    m = FakeMcu()
    stack = DeviceStack(m)
    on_setup, ignored = stack.on_setup, []
    stack.on_setup = lambda s: ignored.append(s) if s[1] == H.SET_CONFIGURATION else on_setup(s)
    host = H.UsbHost(m)
    dcd_init(m)
    m.advance(H.ENUMERATION_TRIES * (H.CONTROL_TIMEOUT_NS + 200_000_000))
    assert host.state == "failed"
    assert len(ignored) == H.ENUMERATION_TRIES
    assert sum("timed out" in line[2] for line in m.lines) == H.ENUMERATION_TRIES


def test_host_sends_bulk_out_and_reads_the_answer():
    m = FakeMcu()
    DeviceStack(m)
    host = H.UsbHost(m)
    dcd_init(m)
    m.advance(300_000_000)
    host.received.clear()
    host.write(b"x" * 70 + b"\x03")              # more than a packet: two OUT transactions
    start = m.now
    m.advance(1_000_000)
    assert bytes(host.received) == b"X" * 70 + b"\x03"
    assert not m.events or all(e[2] is None for e in m.events)   # idle: nothing scheduled, nothing polled
    del start


def test_transaction_time_is_full_speed():
    assert 45_000 <= H.transaction_ns(64) <= 55_000
    assert H.transaction_ns(0) < H.transaction_ns(8) < H.transaction_ns(64)


def test_no_host_means_no_reset():
    m = FakeMcu()
    dcd_init(m)
    m.advance(500_000_000)
    assert not m.r16(U.INTFLAG) & U.EORST and m.r16(U.FNUM) == 0


def test_parse_configuration_finds_the_cdc_data_endpoints():
    interfaces = H.parse_configuration(CONFIG_DESC)
    assert [i["class"] for i in interfaces] == [2, 0x0A, 8]
    assert H.find_cdc(interfaces) == (0, 0x82, 0x02, 64)
    assert H.find_cdc(interfaces[2:]) is None
