"""The host's reset recovery against a device stack that queues its USB events as TinyUSB does and serves
them late, from its main loop: the case the real 9.1.1 game hit (the device missed its first SETUP)."""

from samd51 import usbhost as H
from samd51.periph import usb as U
from test_usb import SETUP_BUF, DeviceStack, FakeMcu, bus_reset_config, dcd_init, ep

BUSY_NS = 20_000_000     # the game's start-up: the firmware runs no background task this long after the reset


class QueuedStack(DeviceStack):
    """The ISR only queues BUS_RESET and SETUP events (counting SETUPs, as TinyUSB's usbd.c does); a task run
    when the main loop next looks handles them. usbd_reset() clears the count with the rest of the device
    state, so a SETUP queued before its bus reset was handled counts -1 (0xFF) and is skipped as 'there is
    another SETUP in the queue': the control transfer is never answered."""

    def __init__(self, m):
        super().__init__(m)
        self.queue = []
        self.queued_setup = 0
        self.busy_until = None
        self.skipped = 0

    def isr(self):
        m = self.m
        flags = m.r16(U.INTFLAG) & m.r16(U.INTENSET)
        if flags & U.EORST:
            m.w16(U.INTFLAG, U.EORST)
            self._queue(("reset",))
        if m.r8(ep(0, U.EPINTFLAG)) & U.RXSTP:
            setup = m.mem_read(SETUP_BUF, 8)
            m.w8(ep(0, U.EPINTFLAG), U.RXSTP | U.TRCPT0)
            self.queued_setup = (self.queued_setup + 1) & 0xFF
            self._queue(("setup", setup))
        summary = m.r16(U.EPINTSMRY)
        for n in range(8):
            if summary & (1 << n):
                self.on_endpoint(n, m.r8(ep(n, U.EPINTFLAG)))

    def _queue(self, event):
        if self.busy_until is None:
            self.busy_until = self.m.now_ns() + BUSY_NS
        if not self.queue:
            self.m.at(max(0, self.busy_until - self.m.now_ns()), self.task)
        self.queue.append(event)

    def task(self):
        events, self.queue = self.queue, []
        for event in events:
            if event[0] == "reset":
                bus_reset_config(self.m)
                self.queued_setup = 0
            else:
                self.queued_setup = (self.queued_setup - 1) & 0xFF
                if self.queued_setup:
                    self.skipped += 1
                    continue
                self.on_setup(event[1])


def test_a_device_busy_after_the_reset_still_gets_its_first_setup():
    m = FakeMcu()
    stack = QueuedStack(m)
    host = H.UsbHost(m)
    dcd_init(m)
    m.advance(H.ATTACH_DEBOUNCE_NS + 300_000_000)
    assert stack.skipped == 0
    assert host.state == "open", m.lines
    assert host.port.timeouts == 0 and not any("timed out" in line[2] for line in m.lines)


def test_the_stand_in_loses_a_setup_queued_with_its_bus_reset():
    """The race itself, so the test above means something: both events handled in one task."""
    m = FakeMcu()
    stack = QueuedStack(m)
    stack.queue = [("reset",), ("setup", bytes(8))]
    stack.queued_setup = 1
    stack.task()
    assert stack.skipped == 1 and stack.queued_setup == 0xFF
