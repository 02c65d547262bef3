"""RTC in mode 0 (32-bit counter), as CircuitPython runs it: the source of its ticks.

CircuitPython clocks the RTC from the 32.768 kHz oscillator with PRESCALER DIV2 (16,384 counts a second,
16 counts a tick of 1/1024 s), uses PER2 (1024 Hz) for its tick interrupt and COMP0 for
``port_interrupt_after_ticks``. COUNT is computed from simulated time; the flags are brought up to date on
every access and by one scheduled event at the next moment an enabled flag would rise, so WFI sleeps to it.
"""

from . import Registers

CTRLA, CTRLB, EVCTRL, INTENCLR, INTENSET, INTFLAG, DBGCTRL = 0x00, 0x02, 0x04, 0x08, 0x0A, 0x0C, 0x0E
SYNCBUSY, FREQCORR, COUNT, COMP0, COMP1 = 0x10, 0x14, 0x18, 0x20, 0x24
GP, TAMPCTRL, TIMESTAMP, TAMPID, BKUP = 0x40, 0x60, 0x64, 0x68, 0x80
CTRLA_SWRST, CTRLA_ENABLE = 0x1, 0x2
INTFLAG_CMP0, INTFLAG_OVF = 1 << 8, 1 << 15
SOURCE_HZ = 32_768             # RTC clock before the prescaler (XOSC32K or OSCULP32K at 32 kHz)
NS = 1_000_000_000
RTC_IRQ = 11


def _src_ticks(ns):
    return ns * SOURCE_HZ // NS


def _ns_of(src):
    return -(-src * NS // SOURCE_HZ)


class Rtc(Registers):
    NAME, BASE, IRQS = "RTC", 0x40002400, (RTC_IRQ,)
    REGS = {CTRLA: 2, CTRLB: 2, EVCTRL: 4, INTENCLR: 2, INTENSET: 2, INTFLAG: 2, DBGCTRL: 1, SYNCBUSY: 4,
            FREQCORR: 1, COUNT: 4, COMP0: 4, COMP1: 4, TAMPCTRL: 4, TIMESTAMP: 4, TAMPID: 4,
            **{GP + 4 * i: 4 for i in range(4)}, **{BKUP + 4 * i: 4 for i in range(8)}}

    def reset(self):
        super().reset()
        self.inten = 0
        self.flags = 0
        self.count0 = 0          # COUNT at src0
        self.src0 = 0
        self.last_src = 0        # flags are up to date to this source tick
        self.event = None

    # -- the counter -----------------------------------------------------------------------------------------
    def enabled(self):
        return bool(self.value(CTRLA) & CTRLA_ENABLE)

    def divider(self):
        presc = (self.value(CTRLA) >> 8) & 0xF
        return 1 << (presc - 1) if presc else 1

    def count(self, src=None):
        if not self.enabled():
            return self.count0
        src = _src_ticks(self.mcu.now_ns()) if src is None else src
        return (self.count0 + (src - self.src0) // self.divider()) & 0xFFFFFFFF

    def _anchor(self, count):
        self.src0 = self.last_src = _src_ticks(self.mcu.now_ns())
        self.count0 = count & 0xFFFFFFFF

    # -- flags -----------------------------------------------------------------------------------------------
    def update(self):
        """Raise every flag whose moment passed since the last look; then the IRQ line and the next event."""
        if self.enabled():
            now = _src_ticks(self.mcu.now_ns())
            last = self.last_src
            if now > last:
                for n in range(8):
                    period = 1 << (n + 3)
                    if now // period > last // period:
                        self.flags |= 1 << n
                div = self.divider()
                before = (self.count0 + (last - self.src0) // div)
                after = (self.count0 + (now - self.src0) // div)
                if after >> 32 > before >> 32:
                    self.flags |= INTFLAG_OVF
                if self._passes(before, after, self.value(COMP0)):
                    self.flags |= INTFLAG_CMP0
                self.last_src = now
        self._irq_line()
        self._schedule()

    @staticmethod
    def _passes(before, after, target):
        """Did the counter step onto ``target`` (mod 2**32) in (before, after]?"""
        if after <= before:
            return False
        delta = (target - before) & 0xFFFFFFFF
        return 0 < delta <= after - before if delta else after - before >= 1 << 32

    def _irq_line(self):
        if self.flags & self.inten:
            self.mcu.set_pending(RTC_IRQ)
        else:
            self.mcu.clear_pending(RTC_IRQ)

    def _schedule(self):
        if not self.enabled():
            self.mcu.cancel(self.event)
            self.event = None
            return
        wanted = self.inten & ~self.flags   # a flag already up needs no event
        nxt = None
        for n in range(8):
            if wanted & (1 << n):
                period = 1 << (n + 3)
                nxt = min(nxt or 1 << 62, (self.last_src // period + 1) * period)
                break     # the lowest period is the soonest
        if wanted & (INTFLAG_CMP0 | INTFLAG_OVF):
            div = self.divider()
            count = self.count0 + (self.last_src - self.src0) // div
            for target, bit in ((self.value(COMP0), INTFLAG_CMP0), (0, INTFLAG_OVF)):
                if wanted & bit:
                    steps = ((target - count) & 0xFFFFFFFF) or 1 << 32
                    at = self.src0 + (count + steps - self.count0) * div
                    nxt = min(nxt or 1 << 62, at)
        due = None if nxt is None else _ns_of(nxt)
        if self.event is not None and self.event.fn is not None and self.event.due == due:
            return            # already scheduled there (most accesses change nothing)
        self.mcu.cancel(self.event)
        self.event = None
        if due is not None:
            self.event = self.mcu.at(due - self.mcu.now_ns(), self.update)

    # -- registers -------------------------------------------------------------------------------------------
    def read_reg(self, reg):
        if reg == SYNCBUSY:
            return 0            # every write is synchronised at once
        if reg == COUNT:
            return self.count()
        if reg in (INTFLAG, INTENSET, INTENCLR):
            self.update()
            return self.flags if reg == INTFLAG else self.inten
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == INTFLAG:
            self.update()
            self.flags &= ~bits           # write 1 to clear
        elif reg == INTENSET:
            self.update()
            self.inten |= bits
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == COUNT:
            super().write_reg(reg, bits, mask)
            self._anchor(self.value(COUNT))
        elif reg == CTRLA:
            self._write_ctrla(bits, mask)
        else:
            super().write_reg(reg, bits, mask)
            if reg != COMP0:
                return
            self.update()
            return
        self._irq_line()
        self._schedule()

    def _write_ctrla(self, bits, mask):
        if bits & CTRLA_SWRST:
            self.reset()
            self.mcu.clear_pending(RTC_IRQ)
            return
        was = self.enabled()
        current = self.count()
        super().write_reg(CTRLA, bits, mask)
        if self.enabled() != was or self.enabled():
            self._anchor(current)
        if self.enabled() and not was:
            self.mcu.log("rtc", "RTC enabled, /%d" % self.divider())
