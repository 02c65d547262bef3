"""The SAMD51's USB controller in device mode, at the level TinyUSB's dcd_samd.c drives it.

The firmware sees registers; the bus side (``samd51.usbhost``) sees transactions: ``setup``, ``in_token`` and
``out_token`` are each one whole transaction, decided at its end, answering ACK, NAK, STALL or None (no
handshake: a wrong address or a disabled bank, which the host sees as a time-out). Data moves through the
endpoint descriptors the firmware keeps in RAM at DESCADD (two 16-byte banks an endpoint: bank 0 OUT/SETUP,
bank 1 IN), with the hardware's multi-packet rules, so a transfer of several packets ends with one TRCPT.
"""

from . import Registers

# Device registers (datasheet "USB - Device Registers"; ASF4 component/usb.h)
CTRLA = 0x00
SYNCBUSY = 0x02
QOSCTRL = 0x03
CTRLB = 0x08
DADD = 0x0A
STATUS = 0x0C
FSMSTATUS = 0x0D
FNUM = 0x10
INTENCLR = 0x14
INTENSET = 0x18
INTFLAG = 0x1C
EPINTSMRY = 0x20
DESCADD = 0x24
PADCAL = 0x28
EP_BASE = 0x100      # endpoint n's registers at EP_BASE + EP_STRIDE * n
EP_STRIDE = 0x20
EP_COUNT = 8
DEVICE_REGS = {CTRLA: 1, SYNCBUSY: 1, QOSCTRL: 1, CTRLB: 2, DADD: 1, STATUS: 1, FSMSTATUS: 1, FNUM: 2,
               INTENCLR: 2, INTENSET: 2, INTFLAG: 2, EPINTSMRY: 2, DESCADD: 4, PADCAL: 2}

CTRLA_SWRST = 0x01
CTRLA_ENABLE = 0x02
CTRLA_RUNSTDBY = 0x04
CTRLA_MODE = 0x80    # 1: host mode (not modelled)
SYNCBUSY_SWRST = 0x01
SYNCBUSY_ENABLE = 0x02
CTRLB_DETACH = 0x0001
CTRLB_UPRSM = 0x0002
CTRLB_RESET = CTRLB_DETACH
DADD_ADDEN = 0x80
STATUS_LINESTATE_J = 0x40   # SPEED 0: full speed
FSMSTATE_OFF = 0x01
FSMSTATE_ON = 0x02
FSMSTATE_RESET = 0x40
QOSCTRL_RESET = 0x0F
# INTFLAG / INTENSET / INTENCLR
SUSPEND = 0x0001
MSOF = 0x0002
SOF = 0x0004
EORST = 0x0008
WAKEUP = 0x0010
EORSM = 0x0020
UPRSM = 0x0040
RAMACER = 0x0080
LPMNYET = 0x0100
LPMSUSP = 0x0200
INT_MASK = 0x03FF

# IRQ lines (samd51j19a.h): USB_0 all but SOF and TRCPT, USB_1 SOF, USB_2 TRCPT0, USB_3 TRCPT1
USB_0_IRQn, USB_1_IRQn, USB_2_IRQn, USB_3_IRQn = 80, 81, 82, 83
SYNC_NS = 1_000      # SWRST/ENABLE synchronisation to the USB clock domain (a few GCLK cycles; a guess)
FRAME_NS = 1_000_000  # full-speed frame: the host's SOF every millisecond

ACK, NAK, STALL = "ACK", "NAK", "STALL"

# Endpoint registers (offsets inside an endpoint's EP_STRIDE)
EPCFG = 0x0
EPSTATUSCLR = 0x4
EPSTATUSSET = 0x5
EPSTATUS = 0x6
EPINTFLAG = 0x7
EPINTENCLR = 0x8
EPINTENSET = 0x9
EP_REGS = (EPCFG, EPSTATUSCLR, EPSTATUSSET, EPSTATUS, EPINTFLAG, EPINTENCLR, EPINTENSET)
EPTYPE_DISABLED = 0
EPTYPE_CONTROL = 1
# EPSTATUS
DTGLOUT = 0x01
DTGLIN = 0x02
CURBK = 0x04
STALLRQ0 = 0x10
STALLRQ1 = 0x20
BK0RDY = 0x40        # bank 0 (OUT) full: the firmware clears it to receive
BK1RDY = 0x80        # bank 1 (IN) loaded: the firmware sets it to send
# EPINTFLAG / EPINTENSET / EPINTENCLR
TRCPT0 = 0x01
TRCPT1 = 0x02
TRFAIL0 = 0x04
TRFAIL1 = 0x08
RXSTP = 0x10
STALL0 = 0x20
STALL1 = 0x40
EP_USB_0_FLAGS = TRFAIL0 | TRFAIL1 | RXSTP | STALL0 | STALL1
# An endpoint bank's descriptor in RAM (UsbDeviceDescBank, 16 bytes; bank 1 at +0x10)
ADDR = 0x0
PCKSIZE = 0x4
EXTREG = 0x8
STATUS_BK = 0xA
BANK_SIZE = 0x10
BYTE_COUNT_MASK = 0x3FFF
MULTI_PACKET_SIZE_POS = 14
SIZE_POS = 28
AUTO_ZLP = 1 << 31
PACKET_SIZES = (8, 16, 32, 64, 128, 256, 512, 1023)   # PCKSIZE.SIZE


def crc16(data):
    """USB's data CRC (x^16+x^15+x^2+1, reflected, inverted), as it follows a packet's data on the wire."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return (crc ^ 0xFFFF).to_bytes(2, "little")


class Endpoint:
    """One endpoint's registers and its two banks (0: OUT and SETUP, 1: IN)."""

    def __init__(self, usb, n):
        self.usb = usb
        self.n = n
        self.reset()

    def reset(self):
        self.epcfg = 0
        self.status = 0
        self.intflag = 0
        self.inten = 0

    def bus_reset(self):
        # the control endpoint keeps its type; banks, toggles and stalls start over
        if self.n:
            self.epcfg = 0
        self.status = 0

    def read_byte(self, off):
        if off == EPCFG:
            return self.epcfg
        if off == EPSTATUS:
            return self.status
        if off == EPINTFLAG:
            return self.intflag
        if off in (EPINTENCLR, EPINTENSET):
            return self.inten
        return 0  # EPSTATUSCLR/SET are write-only; the rest reserved

    def write_byte(self, off, v):
        """Returns True when the write may let a NAKed token through (type, bank or stall changed)."""
        if off == EPCFG:
            self.epcfg = v & 0x77
        elif off == EPSTATUSCLR:
            self.status &= ~v
        elif off == EPSTATUSSET:
            self.status |= v & 0xF7
        elif off == EPINTFLAG:
            self.intflag &= ~v
        elif off == EPINTENCLR:
            self.inten &= ~v
        elif off == EPINTENSET:
            self.inten |= v & 0x7F
        return off in (EPCFG, EPSTATUSCLR, EPSTATUSSET) and v != 0

    def bank(self, b):
        """(descriptor address, data address, PCKSIZE) of bank ``b``."""
        desc = self.usb.bank_address(self.n, b)
        raw = self.usb.mcu.mem_read(desc, 8)
        return desc, int.from_bytes(raw[:4], "little"), int.from_bytes(raw[4:], "little")

    def _set_pcksize(self, desc, pcksize):
        self.usb.mcu.mem_write(desc + PCKSIZE, pcksize.to_bytes(4, "little"))

    def setup(self, data):
        """A SETUP always lands (no NAK), clears the stalls and aborts what the control endpoint was doing."""
        if self.epcfg & 7 != EPTYPE_CONTROL:
            return None
        desc, buf, pck = self.bank(0)
        size = PACKET_SIZES[(pck >> SIZE_POS) & 7]
        # the datasheet: the data CRC lands after the data when the packet leaves room for it (SIZE - 2)
        crc = crc16(data)[:max(0, size - len(data))]
        self.usb.mcu.mem_write(buf, data + crc)
        self._set_pcksize(desc, (pck & ~BYTE_COUNT_MASK) | len(data))
        self.status = (self.status | BK0RDY | DTGLOUT | DTGLIN) & ~(STALLRQ0 | STALLRQ1)
        self.intflag |= RXSTP
        return ACK

    def in_token(self):
        if (self.epcfg >> 4) & 7 == EPTYPE_DISABLED:
            return None, b""
        if self.status & STALLRQ1:
            self.intflag |= STALL1
            return STALL, b""
        if not self.status & BK1RDY:
            self.intflag |= TRFAIL1
            return NAK, b""
        desc, buf, pck = self.bank(1)
        size = PACKET_SIZES[(pck >> SIZE_POS) & 7]
        count = pck & BYTE_COUNT_MASK
        sent = (pck >> MULTI_PACKET_SIZE_POS) & BYTE_COUNT_MASK
        n = max(0, min(size, count - sent))
        data = self.usb.mcu.mem_read(buf + sent, n) if n else b""
        sent += n
        pck = (pck & ~(BYTE_COUNT_MASK << MULTI_PACKET_SIZE_POS)) | (sent << MULTI_PACKET_SIZE_POS)
        self._set_pcksize(desc, pck)
        self.status ^= DTGLIN
        # multi-packet: the transfer ends with a short packet, or a full one unless AUTO_ZLP adds a ZLP
        if sent >= count and (n < size or not pck & AUTO_ZLP):
            self.status &= ~BK1RDY
            self.intflag |= TRCPT1
        return ACK, data

    def out_token(self, data):
        if self.epcfg & 7 == EPTYPE_DISABLED:
            return None
        if self.status & STALLRQ0:
            self.intflag |= STALL0
            return STALL
        if self.status & BK0RDY:
            self.intflag |= TRFAIL0
            return NAK
        desc, buf, pck = self.bank(0)
        size = PACKET_SIZES[(pck >> SIZE_POS) & 7]
        count = pck & BYTE_COUNT_MASK
        total = (pck >> MULTI_PACKET_SIZE_POS) & BYTE_COUNT_MASK
        n = len(data) if not total else max(0, min(len(data), total - count))
        if n:
            self.usb.mcu.mem_write(buf + count, data[:n])
        count += n
        self._set_pcksize(desc, (pck & ~BYTE_COUNT_MASK) | count)
        self.status ^= DTGLOUT
        # MULTI_PACKET_SIZE 0: one packet a transfer; else until it is reached or a short packet comes
        if len(data) < size or not total or count >= total:
            self.status |= BK0RDY
            self.intflag |= TRCPT0
        return ACK


class Frames:
    """The host's SOFs as the device sees them: FNUM and INTFLAG.SOF follow from the time since the bus reset;
    an event a frame runs only while the firmware has the SOF interrupt enabled."""

    def __init__(self, usb):
        self.usb = usb
        self.start_ns = None         # when frame 0 began (the end of the last bus reset); None: no frames
        self.acked = 0               # the frame whose SOF the firmware last cleared
        self._event = None

    def stop(self):
        self.start_ns = None
        self.usb.mcu.cancel(self._event)
        self._event = None

    def start(self):
        self.start_ns = self.usb.mcu.now_ns()
        self.acked = 0

    def number(self):
        if self.start_ns is None:
            return 0
        return (self.usb.mcu.now_ns() - self.start_ns) // FRAME_NS

    def sof_pending(self):
        return self.start_ns is not None and self.number() > self.acked

    def ack(self):
        self.acked = self.number()

    def listen(self):
        """Wake the firmware at the next SOF, and the ones after, while it enables the SOF interrupt."""
        if self._event is None and self.usb.inten & SOF and self.start_ns is not None:
            due = self.start_ns + (self.number() + 1) * FRAME_NS
            self._event = self.usb.mcu.at(due - self.usb.mcu.now_ns(), self._on_sof)

    def _on_sof(self):
        self._event = None
        self.usb.sof()
        self.listen()


class Usb(Registers):
    NAME = "USB"
    BASE = 0x41000000
    SIZE = EP_BASE + EP_STRIDE * EP_COUNT
    IRQS = (USB_0_IRQn, USB_1_IRQn, USB_2_IRQn, USB_3_IRQn)
    REGS = {**DEVICE_REGS, **{EP_BASE + EP_STRIDE * n + off: 1 for n in range(EP_COUNT) for off in EP_REGS}}

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.endpoints = [Endpoint(self, n) for n in range(EP_COUNT)]
        self.on_attach = None        # fn(attached): the host's cable; called when the D+ pull-up changes
        self.on_endpoint = None      # fn(n): the firmware changed endpoint n (a NAKed token may go now)
        self._levels = [False] * 4
        self._sync_event = None
        self._was_attached = False
        self._touched = set()        # endpoints a write changed
        self.frames = Frames(self)
        super().__init__(mcu, name, base, irqs)

    def reset(self):
        super().reset()
        self.ctrla = 0
        self.syncbusy = 0
        self.qosctrl = QOSCTRL_RESET
        self.ctrlb = CTRLB_RESET
        self.dadd = 0
        self.fsmstate = FSMSTATE_OFF
        self.inten = 0
        self.intflag = 0
        self.descadd = 0
        self.padcal = 0
        self.frames.stop()
        for ep in self.endpoints:
            ep.reset()
        self.mcu.cancel(self._sync_event)
        self._update_irqs()
        self._check_attach()  # a reset takes the pull-up off: the host sees a detach

    # -- register access ------------------------------------------------------------------------------------
    def read_reg(self, reg):
        if reg >= EP_BASE:
            return self.endpoints[(reg - EP_BASE) // EP_STRIDE].read_byte(reg % EP_STRIDE)
        if reg == CTRLA:
            return self.ctrla | (CTRLA_SWRST if self.syncbusy & SYNCBUSY_SWRST else 0)
        if reg in (INTENCLR, INTENSET):
            return self.inten
        if reg == INTFLAG:
            return self.flags()
        if reg == EPINTSMRY:
            return sum(1 << ep.n for ep in self.endpoints if ep.intflag)
        if reg == FNUM:
            return (self.frames.number() & 0x7FF) << 3
        if reg == STATUS:
            return STATUS_LINESTATE_J if self.attached() else 0
        if reg == FSMSTATUS:
            return self.fsmstate
        return {SYNCBUSY: self.syncbusy, QOSCTRL: self.qosctrl, CTRLB: self.ctrlb, DADD: self.dadd,
                DESCADD: self.descadd, PADCAL: self.padcal}[reg]

    def write(self, offset, size, value):
        self._touched = set()
        super().write(offset, size, value)
        self._update_irqs()
        if self.on_endpoint is not None:
            for n in sorted(self._touched):
                self.on_endpoint(n)

    def write_reg(self, reg, v, m):
        def merged(old):
            return (old & ~m) | v
        if reg >= EP_BASE:
            ep = self.endpoints[(reg - EP_BASE) // EP_STRIDE]
            if ep.write_byte(reg % EP_STRIDE, v):
                self._touched.add(ep.n)
        elif reg == CTRLA:
            self._write_ctrla(v)
        elif reg == QOSCTRL:
            self.qosctrl = merged(self.qosctrl) & 0x0F
        elif reg == CTRLB:
            self.ctrlb = merged(self.ctrlb) & 0x0FFF
            self._check_attach()
        elif reg == DADD:
            self.dadd = merged(self.dadd) & 0xFF
        elif reg == INTENCLR:
            self.inten &= ~v
        elif reg == INTENSET:
            self.inten |= v & INT_MASK
            self.frames.listen()
        elif reg == INTFLAG:
            self.clear_flags(v)
        elif reg == DESCADD:
            self.descadd = merged(self.descadd)
        elif reg == PADCAL:
            self.padcal = merged(self.padcal) & 0x7FDF
        # SYNCBUSY, STATUS, FSMSTATUS, FNUM, EPINTSMRY: read-only

    def _write_ctrla(self, value):
        if value & CTRLA_SWRST:
            self.mcu.log("usb", "controller reset (SWRST)")
            self.reset()
            self._sync(SYNCBUSY_SWRST)
            return
        if (value ^ self.ctrla) & CTRLA_ENABLE:
            self._sync(SYNCBUSY_ENABLE)
        self.ctrla = value & (CTRLA_ENABLE | CTRLA_RUNSTDBY | CTRLA_MODE)
        if value & CTRLA_MODE:
            self.mcu.log("usb", "host mode is not modelled")
        self._check_attach()

    def _sync(self, bit):
        """SYNCBUSY reads ``bit`` until the USB clock domain has caught up."""
        self.syncbusy |= bit
        self.mcu.cancel(self._sync_event)
        self._sync_event = self.mcu.at(SYNC_NS, self._synced)

    def _synced(self):
        self.syncbusy = 0
        self._sync_event = None

    # -- attach, frames and interrupts ----------------------------------------------------------------------
    def attached(self):
        """Enabled in device mode with DETACH clear: the D+ pull-up is on, a host can see the device."""
        device_mode = not self.ctrla & CTRLA_MODE
        return bool(self.ctrla & CTRLA_ENABLE) and device_mode and not self.ctrlb & CTRLB_DETACH

    def _check_attach(self):
        now = self.attached()
        if now != self._was_attached:
            self._was_attached = now
            self.mcu.log("usb", "D+ pull-up %s" % ("on: attached" if now else "off: detached"))
            if not now:
                self.frames.stop()
                self.fsmstate = FSMSTATE_OFF
            if self.on_attach is not None:
                self.on_attach(now)

    def flags(self):
        """INTFLAG, with SOF set when a frame has begun since the firmware last cleared it."""
        return self.intflag | (SOF if self.frames.sof_pending() else 0)

    def clear_flags(self, bits):
        self.intflag &= ~bits
        if bits & SOF:
            self.frames.ack()

    def raise_flags(self, bits):
        self.intflag |= bits
        self._update_irqs(raised=True)

    def sof(self):
        self._update_irqs(raised=True)

    def _update_irqs(self, raised=False):
        """The four NVIC lines are levels: pending at a rising edge, or when a flag was raised while the line
        was already high (its handler may be running; the NVIC takes it again after the return)."""
        dev = self.flags() & self.inten
        eps = 0
        for ep in self.endpoints:
            eps |= ep.intflag & ep.inten
        levels = (bool(dev & ~SOF or eps & EP_USB_0_FLAGS), bool(dev & SOF), bool(eps & TRCPT0),
                  bool(eps & TRCPT1))
        for i, level in enumerate(levels):
            if level and (raised or not self._levels[i]):
                self.mcu.set_pending(self.IRQS[i])
            elif self._levels[i]:
                self.mcu.clear_pending(self.IRQS[i])
        self._levels = list(levels)

    # -- the bus side ---------------------------------------------------------------------------------------
    def bus_reset(self, begin):
        """The host drives SE0 (``begin``) and then releases it: at the end the hardware resets the address
        and every endpoint but the control endpoint's type, and raises EORST; frames start."""
        if begin:
            self.fsmstate = FSMSTATE_RESET
            self.frames.stop()
            return
        self.dadd = 0
        for ep in self.endpoints:
            ep.bus_reset()
        self.fsmstate = FSMSTATE_ON
        self.frames.start()
        self.raise_flags(EORST)
        self.frames.listen()

    def addressed(self, addr):
        return addr == (self.dadd & 0x7F if self.dadd & DADD_ADDEN else 0) and self.attached()

    def setup(self, addr, n, data):
        if not self.addressed(addr):
            return None
        return self._done(self.endpoints[n].setup(data))

    def in_token(self, addr, n):
        """An IN transaction: (handshake, data); the data is what the device sent (ACK only)."""
        if not self.addressed(addr):
            return None, b""
        handshake, data = self.endpoints[n].in_token()
        return self._done(handshake), data

    def out_token(self, addr, n, data):
        if not self.addressed(addr):
            return None
        return self._done(self.endpoints[n].out_token(bytes(data)))

    def _done(self, handshake):
        self._update_irqs(raised=handshake is not None)
        return handshake

    def bank_address(self, n, bank):
        return self.descadd + EP_STRIDE * n + 0x10 * bank
