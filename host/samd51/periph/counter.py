"""The count of a TC or TCC, a part each of them owns: lazy counting, overflows and who hears them.

The count is worked out from a reference (time, count) and the tick rate (the peripheral channel's GCLK over
the prescaler), so COUNT, INTFLAG.OVF and the double-buffer update (CCBUF -> CC at overflow) are found when
read. An overflow is only scheduled as an event (``mcu.at``) while something hears it: an enabled OVF
interrupt, a DMA channel on the OVF trigger, or an EVSYS path whose users would change (audioio: TCn OVF ->
DAC START0 and DMA -> DATABUF, one sample an overflow). Otherwise the counter looks again each PEEK_NS.

What the counter asks of its timer (a Tc or Tcc): ``mcu``, ``GCLK_ID``, ``TRIG_OVF``, ``GEN_OVF``;
``top()``, ``max()``, ``prescaler()``; ``update()`` (the UPDATE condition: buffered values become live);
``ovf_event_out()``; ``ovf_irq_armed()`` (OVF enabled and not yet flagged); ``overflowed_flag()`` (INTFLAG.OVF
rises); ``irq_line()``.
"""

PRESCALER = (1, 2, 4, 8, 16, 64, 256, 1024)
PEEK_NS = 1_000_000      # a quiet, running counter looks again this often
INF = float("inf")


class Counter:
    def __init__(self, timer):
        self.timer = timer
        self.mcu = timer.mcu
        self._event = None
        self.reset()

    def reset(self):
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
        return 1e9 * PRESCALER[timer.prescaler()] / hz if hz else INF

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
            self.timer.update()
            period = (self.timer.top() + 1) * self.tick_ns()
            skip = int((now - due) // period)
            if skip > 1:               # whole periods with nothing buffered: count them at once
                n += skip - 1
                self.ref_ns = due = due + (skip - 1) * period
            due = self.next_overflow()
        if n:
            self.timer.overflowed_flag()
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
        if timer.ovf_irq_armed() or self.mcu.peripheral("DMAC").listens(timer.TRIG_OVF):
            return True
        return timer.ovf_event_out() and not self.mcu.peripheral("EVSYS").quiet(timer.GEN_OVF)

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
        self.timer.irq_line()
        self.arm()

    def overflowed(self):
        """One overflow's consequences: the event first (the DAC converts the sample DMA wrote last time),
        then the DMA request (which writes the next one)."""
        timer = self.timer
        if timer.ovf_event_out():
            self.mcu.peripheral("EVSYS").event(timer.GEN_OVF)
        self.mcu.peripheral("DMAC").trigger(timer.TRIG_OVF)


def duty_of(compare, top, invert=False):
    """A PWM output's share of time high: compare over the period."""
    duty = min(compare / (top + 1), 1.0)
    return 1.0 - duty if invert else duty
