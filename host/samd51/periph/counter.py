"""The count of a TC or TCC, a part each of them owns: lazy counting, overflows and who hears them, and the
registers both lay out alike around it (CTRLB, INTEN/INTFLAG, STATUS, COUNT, PER/CC and their buffers).

The count is worked out from a reference (time, count) and the tick rate (the peripheral channel's GCLK over
the prescaler), so COUNT, INTFLAG.OVF and the double-buffer update (CCBUF -> CC at overflow) are found when
read. An overflow is only scheduled as an event (``mcu.at``) while something hears it: an enabled OVF
interrupt, a DMA channel on the OVF trigger, or an EVSYS path whose users would change (audioio: TCn OVF ->
DAC START0 and DMA -> DATABUF, one sample an overflow). Otherwise the counter looks again each PEEK_NS.

What the counter asks of its timer (a Tc or Tcc): ``mcu``, ``GCLK_ID``, ``TRIG_OVF``, ``GEN_OVF``, ``IRQS``;
``SHARED`` (its offsets of the shared registers, in Counter.__init__'s order), ``PERBUFV`` and ``CCBUFV0``
(its STATUS bits); ``value(reg)``; ``top()``, ``max()``, ``stride()`` (bytes from CC0 to CC1);
``reset()``, ``ctrla(bits, mask)`` (a CTRLA write but SWRST), ``command(cmd)`` (CTRLBSET.CMD).
"""

PRESCALER = (1, 2, 4, 8, 16, 64, 256, 1024)
PEEK_NS = 1_000_000      # a quiet, running counter looks again this often
INF = float("inf")
OVF = 1 << 0             # INTEN/INTFLAG.OVF
CTRLA_SWRST = 1 << 0
CTRLB_LUPD = 1 << 1
STATUS_STOP = 1 << 0
EVCTRL_OVFEO = 1 << 8


class Counter:
    def __init__(self, timer, channels, per):
        self.timer = timer
        self.mcu = timer.mcu
        self.channels, self.per_reset = channels, per
        (self.CTRLA, self.CTRLBCLR, self.CTRLBSET, self.EVCTRL, self.INTENCLR, self.INTENSET, self.INTFLAG,
         self.STATUS, self.SYNCBUSY, self.COUNT, self.PER, self.PERBUF, self.CC, self.CCBUF) = timer.SHARED
        self._event = None
        self.reset()

    def reset(self):
        self.ctrlb = self.inten = self.flags = 0
        self.per = self.perbuf = self.per_reset
        self.cc = [0] * self.channels
        self.ccbuf = [0] * self.channels
        self.bufv = 0            # STATUS PERBUFV / CCBUFVn bits
        self.running = False
        self.ref_ns = 0.0
        self.ref_count = 0
        self.overflows = 0
        self._heard = False
        if self._event is not None:
            self.mcu.cancel(self._event)
        self._event = None

    # -- time -------------------------------------------------------------------------------------------
    def tick_ns(self):
        """A tick's time; infinite while the timer's GCLK channel is off (a TC without its clock stands)."""
        timer = self.timer
        hz = self.mcu.peripheral("GCLK").channel_hz(timer.GCLK_ID)
        return 1e9 * PRESCALER[(timer.value(self.CTRLA) >> 8) & 7] / hz if hz else INF

    def count_at(self, now):
        if not self.running:
            return self.ref_count
        self.advance(now)
        return self.ref_count + int((now - self.ref_ns) / self.tick_ns())

    def set_count(self, count):
        self.ref_count, self.ref_ns = count, float(self.mcu.now_ns())

    def next_overflow(self):
        top = self.timer.top()
        ticks = top - self.ref_count + 1 if self.ref_count <= top else self.timer.max() - self.ref_count + 1
        return self.ref_ns + ticks * self.tick_ns()

    def advance(self, now):
        """Process the overflows up to ``now``: flag, UPDATE at the first, count them; returns how many."""
        if not self.running:
            return 0
        n = 0
        due = self.next_overflow()
        while due <= now:
            n += 1
            self.ref_ns, self.ref_count = due, 0
            self.update()
            period = (self.timer.top() + 1) * self.tick_ns()
            skip = int((now - due) // period)
            if skip > 1:               # whole periods with nothing buffered: count them at once
                n += skip - 1
                self.ref_ns = due = due + (skip - 1) * period
            due = self.next_overflow()
        if n:
            self.flags |= OVF
            self.overflows += n
        return n

    def rebase(self, now):
        """Move the reference to the last whole tick before a write changes the rate, top or count."""
        if self.running:
            self.advance(now)
            ticks = int((now - self.ref_ns) / self.tick_ns())
            if ticks:
                self.ref_ns += ticks * self.tick_ns()
                self.ref_count += ticks

    def start(self, count=None):
        now = float(self.mcu.now_ns())
        self.rebase(now)
        if count is not None:
            self.ref_count, self.ref_ns = count, now
        if not self.running:
            self.ref_ns = now
        self.running = True

    def stop(self):
        self.rebase(float(self.mcu.now_ns()))
        self.running = False

    # -- who hears an overflow --------------------------------------------------------------------------
    def heard(self):
        timer = self.timer
        if self.inten & OVF and not self.flags & OVF or self.mcu.peripheral("DMAC").listens(timer.TRIG_OVF):
            return True
        return self.ovf_event_out() and not self.mcu.peripheral("EVSYS").quiet(timer.GEN_OVF)

    def arm(self):
        """(Re)schedule the next look: the next overflow if someone hears it, else a peek."""
        if self._event is not None:
            self.mcu.cancel(self._event)
            self._event = None
        if not self.running:
            return
        now = self.mcu.now_ns()
        self._heard = self.heard()
        due = self.next_overflow() - now if self._heard else PEEK_NS
        if due == INF:
            due = PEEK_NS
        self._event = self.mcu.at(max(1, int(due) + 1), self._on_event)

    def _on_event(self):
        self._event = None
        n = self.advance(float(self.mcu.now_ns()))
        for _ in range(min(n, 4) if self._heard else 0):   # a late look gives each listener its overflow;
            self.overflowed()                                # a peek has nobody to tell
        self.irq_line()
        self.arm()

    def overflowed(self):
        """One overflow's consequences: the event first (the DAC converts the sample DMA wrote last time),
        then the DMA request (which writes the next one)."""
        timer = self.timer
        if self.ovf_event_out():
            self.mcu.peripheral("EVSYS").event(timer.GEN_OVF)
        self.mcu.peripheral("DMAC").trigger(timer.TRIG_OVF)

    def ovf_event_out(self):
        return bool(self.timer.value(self.EVCTRL) & EVCTRL_OVFEO)

    def irq_line(self):
        if self.flags & self.inten:
            self.mcu.set_pending(self.timer.IRQS[0])
        else:
            self.mcu.clear_pending(self.timer.IRQS[0])

    # -- the registers a TC and a TCC share ----------------------------------------------------------------
    def update(self):
        """The UPDATE condition: the buffered values become live, unless CTRLB.LUPD holds them."""
        if self.ctrlb & CTRLB_LUPD:
            return
        for i in range(self.channels):
            if self.bufv & (self.timer.CCBUFV0 << i):
                self.cc[i] = self.ccbuf[i]
        if self.bufv & self.timer.PERBUFV:
            self.per = self.perbuf
        self.bufv = 0

    def channel(self, reg, base):
        """Which CC (base CC) or CCBUF (base CCBUF) channel ``reg`` is, or None."""
        stride = self.timer.stride()
        return (reg - base) // stride if base <= reg < base + stride * self.channels else None

    def read_reg(self, reg, own):
        """The timer's read_reg: the count brought up to now, then a shared register or ``own(reg)``."""
        self.advance(float(self.mcu.now_ns()))
        value = self.shared(reg)
        return own(reg) if value is None else value

    def shared(self, reg):
        """A shared register's value, or None for one of the timer's own."""
        if reg in (self.CTRLBCLR, self.CTRLBSET):
            return self.ctrlb
        if reg in (self.INTENCLR, self.INTENSET):
            return self.inten
        if reg == self.INTFLAG:
            return self.flags
        if reg == self.STATUS:
            return (0 if self.running else STATUS_STOP) | self.bufv
        if reg == self.SYNCBUSY:
            return 0                     # synchronisation is immediate
        if reg == self.COUNT:
            return self.count_at(float(self.mcu.now_ns())) & self.timer.max()
        if reg in (self.PER, self.PERBUF):
            return self.per if reg == self.PER else self.perbuf
        for base, values in ((self.CC, self.cc), (self.CCBUF, self.ccbuf)):
            i = self.channel(reg, base)
            if i is not None:
                return values[i]
        return None

    def write_reg(self, reg, bits, mask, own):
        """The timer's write_reg: at the last whole tick, a shared register or ``own(reg, bits, mask)``; the
        IRQ line and the next look follow the write."""
        self.rebase(float(self.mcu.now_ns()))
        self.write_shared(reg, bits, mask, own)
        self.irq_line()
        self.arm()

    def write_shared(self, reg, bits, mask, own):
        if reg == self.CTRLA and bits & CTRLA_SWRST:
            self.timer.reset()
        elif reg == self.CTRLA:
            self.timer.ctrla(bits, mask)
        elif reg == self.CTRLBSET:
            self.ctrlb |= bits & 0x07
            self.timer.command(bits >> 5)
        elif reg == self.CTRLBCLR:
            self.ctrlb &= ~bits & 0x07
        elif reg == self.INTENSET:
            self.inten |= bits
        elif reg == self.INTENCLR:
            self.inten &= ~bits
        elif reg == self.INTFLAG:
            self.flags &= ~bits          # write 1 to clear
        elif reg in (self.STATUS, self.SYNCBUSY):
            pass                         # read-only here
        elif self.shared(reg) is not None:      # COUNT, PER, PERBUF, CCn, CCBUFn
            self.set_field(reg, ((self.shared(reg) & ~mask) | bits) & self.timer.max())
        else:
            own(reg, bits, mask)

    def set_field(self, reg, value):
        if reg == self.COUNT:
            self.set_count(value)
        elif reg == self.PER:
            self.per = value
        elif reg == self.PERBUF:
            self.perbuf, self.bufv = value, self.bufv | self.timer.PERBUFV
        elif reg >= self.CCBUF:
            i = self.channel(reg, self.CCBUF)
            self.ccbuf[i], self.bufv = value, self.bufv | (self.timer.CCBUFV0 << i)
        else:
            self.cc[self.channel(reg, self.CC)] = value


def duty_of(compare, top, invert=False):
    """A PWM output's share of time high: compare over the period."""
    duty = min(compare / (top + 1), 1.0)
    return 1.0 - duty if invert else duty
