"""TC0..5 and TCC0..4: counters, PWM duty per output, and overflow events for the audio path.

The count is lazy: from a reference (time, count) and the tick rate (the peripheral channel's GCLK over the
prescaler), so COUNT, INTFLAG.OVF and the double-buffer update (CCBUF -> CC at overflow) are worked out when
read. An overflow is only scheduled as an event (``mcu.at``) while something hears it: an enabled OVF
interrupt, a DMA channel on the OVF trigger, or an EVSYS path whose users would change (audioio: TCn OVF ->
DAC START0 and DMA -> DATABUF, one sample an overflow). Otherwise the counter looks again each PEEK_NS.

CircuitPython's uses: pwmio on PA01 (the PyBadge's backlight) takes TC2 in MPWM with CC0 = top and CC1 =
duty (TC2 WO1); audioio takes the highest free TC (TC5) in MFRQ at 48 MHz with CC0 = 48 MHz / rate - 1.
"""

from . import Peripheral

PRESCALER = (1, 2, 4, 8, 16, 64, 256, 1024)
GCLK_HZ = 48_000_000     # if GCLK cannot say: GCLK1, what audioio gives its TC
PEEK_NS = 1_000_000      # a quiet, running counter looks again this often
CTRLA_SWRST, CTRLA_ENABLE = 1 << 0, 1 << 1
CMD_RETRIGGER, CMD_STOP, CMD_UPDATE, CMD_READSYNC = 1, 2, 3, 4
CTRLB_DIR, CTRLB_LUPD, CTRLB_ONESHOT = 1 << 0, 1 << 1, 1 << 2
OVF = 1 << 0
NFRQ, MFRQ, NPWM, MPWM = 0, 1, 2, 3


class Counter(Peripheral):
    """What TC and TCC share: lazy counting from a reference, overflow handling and its listeners."""

    GCLK_ID = 0
    TRIG_OVF = 0         # DMAC trigger of an overflow
    GEN_OVF = 0          # EVSYS generator of an overflow
    MAX = 0xFFFF

    def _counter_reset(self):
        self._heard = False
        self.running = False
        self.ref_ns = 0.0
        self.ref_count = 0
        self.flags = 0
        self.inten = 0
        self.overflows = 0
        if getattr(self, "_event", None) is not None:
            self.mcu.cancel(self._event)
        self._event = None

    # -- to be told by the subclass -----------------------------------------------------------------------
    def top(self):
        raise NotImplementedError

    def prescaler(self):
        raise NotImplementedError

    def update(self):
        """The UPDATE condition: buffered values become the live ones (unless locked)."""

    def ovf_event_out(self):
        return False

    # -- time -------------------------------------------------------------------------------------------
    def tick_ns(self):
        gclk = self.mcu.peripheral("GCLK")
        hz = getattr(gclk, "channel_hz", None)
        ref = (hz(self.GCLK_ID) if hz else 0) or GCLK_HZ
        return 1e9 * PRESCALER[self.prescaler()] / ref

    def count_at(self, now):
        if not self.running:
            return self.ref_count
        self.advance(now)
        return self.ref_count + int((now - self.ref_ns) / self.tick_ns())

    def next_overflow(self):
        top = self.top()
        ticks = top - self.ref_count + 1 if self.ref_count <= top else self.MAX - self.ref_count + 1
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
            period = (self.top() + 1) * self.tick_ns()
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
        if self.inten & OVF and not self.flags & OVF:
            return True
        if dma_listens(self.mcu.peripheral("DMAC"), self.TRIG_OVF):
            return True
        evsys = self.mcu.peripheral("EVSYS")
        return self.ovf_event_out() and evsys is not None and not evsys.quiet(self.GEN_OVF)

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
        evsys = self.mcu.peripheral("EVSYS")
        if evsys is not None and self.ovf_event_out():
            evsys.event(self.GEN_OVF)
        dmac = self.mcu.peripheral("DMAC")
        if dmac is not None:
            dmac.trigger(self.TRIG_OVF)

    def irq_line(self):
        if not self.IRQS:
            return
        if self.flags & self.inten:
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])

    def wake(self):
        """Someone may hear overflows now (EVSYS or the DMAC changed)."""
        if self.running:
            self.arm()

    def duty_of(self, compare, top, invert=False):
        duty = min(compare / (top + 1), 1.0)
        return 1.0 - duty if invert else duty


# TC register offsets (datasheet 48.7 "Register Summary"; COUNT/CC/CCBUF widths follow CTRLA.MODE)
CTRLA = 0x00
CTRLBCLR = 0x04
CTRLBSET = 0x05
EVCTRL = 0x06
INTENCLR = 0x08
INTENSET = 0x09
INTFLAG = 0x0A
STATUS = 0x0B
WAVE = 0x0C
DRVCTRL = 0x0D
DBGCTRL = 0x0F
SYNCBUSY = 0x10
COUNT = 0x14
PER = 0x1B               # COUNT8 only
CC = 0x1C
PERBUF = 0x2F            # COUNT8 only
CCBUF = 0x30
MODE_COUNT16, MODE_COUNT8, MODE_COUNT32 = 0, 1, 2
EVCTRL_OVFEO = 1 << 8
STATUS_STOP, STATUS_PERBUFV, STATUS_CCBUFV0 = 1 << 0, 1 << 3, 1 << 4


class Tc(Counter):
    NAME = "TC2"
    BASE = None

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        n = int(self.NAME[2:])
        self.GCLK_ID = (9, 9, 26, 26, 30, 30)[n]
        self.TRIG_OVF = 44 + 3 * n
        self.GEN_OVF = 73 + 3 * n
        self.reset()

    def reset(self):
        super().reset()
        self._counter_reset()
        self.ctrla = self.ctrlb = self.evctrl = self.wave = self.drvctrl = 0
        self.stopped = False
        self.cc = [0, 0]
        self.ccbuf = [0, 0]
        self.per = self.perbuf = 0xFF
        self.bufv = 0            # STATUS PERBUFV / CCBUFVn bits

    # -- counting --------------------------------------------------------------------------------------
    @property
    def width(self):
        return (2, 1, 4, 2)[(self.ctrla >> 2) & 3]

    @property
    def MAX(self):  # noqa: N802 (the datasheet's name)
        return (1 << (8 * self.width)) - 1

    def prescaler(self):
        return (self.ctrla >> 8) & 7

    def top(self):
        if self.wave & 3 in (MFRQ, MPWM) and self.width != 1:
            return self.cc[0]
        return self.per if self.width == 1 else self.MAX

    def update(self):
        if self.ctrlb & CTRLB_LUPD:
            return
        for i in range(2):
            if self.bufv & (STATUS_CCBUFV0 << i):
                self.cc[i] = self.ccbuf[i]
        if self.bufv & STATUS_PERBUFV:
            self.per = self.perbuf
        self.bufv = 0

    def ovf_event_out(self):
        return bool(self.evctrl & EVCTRL_OVFEO)

    def duty(self, wo):
        """WO[wo]'s share of time high, or None when the counter does not drive it (off, or a toggle)."""
        if not self.running and not self.ctrla & CTRLA_ENABLE:
            return None
        self.advance(float(self.mcu.now_ns()))
        wavegen = self.wave & 3
        if wavegen == NPWM or (wavegen == MPWM and wo == 1):
            return self.duty_of(self.cc[wo], self.top(), bool(self.drvctrl & (1 << wo)))
        return 0.5 if wavegen in (NFRQ, MFRQ) else None

    # -- registers -------------------------------------------------------------------------------------
    def fields(self):
        """name -> (offset, bytes) in the current mode."""
        w = self.width
        out = {"COUNT": (COUNT, w), "CC0": (CC, w), "CC1": (CC + w, w), "CCBUF0": (CCBUF, w),
               "CCBUF1": (CCBUF + w, w)}
        if w == 1:
            out.update(PER=(PER, 1), PERBUF=(PERBUF, 1))
        return out

    def read(self, offset, size):
        now = float(self.mcu.now_ns())
        self.advance(now)
        value = 0
        for i in range(size):
            value |= self._read_byte(offset + i, now) << (8 * i)
        return value

    def _read_byte(self, o, now):
        if CTRLA <= o < CTRLA + 4:
            return (self.ctrla >> (8 * (o - CTRLA))) & 0xFF
        simple = {CTRLBCLR: self.ctrlb, CTRLBSET: self.ctrlb, EVCTRL: self.evctrl,
                  EVCTRL + 1: self.evctrl >> 8, INTENCLR: self.inten, INTENSET: self.inten,
                  INTFLAG: self.flags, STATUS: self.status(), WAVE: self.wave, DRVCTRL: self.drvctrl}
        if o in simple:
            return simple[o] & 0xFF
        if SYNCBUSY <= o < SYNCBUSY + 4:
            return 0
        for name, (off, n) in self.fields().items():
            if off <= o < off + n:
                return (self.field(name, now) >> (8 * (o - off))) & 0xFF
        if o != DBGCTRL:
            self.unmodelled(o, 1, "read")
        return self.stored(o, 1)

    def status(self):
        return (STATUS_STOP if not self.running else 0) | self.bufv

    def field(self, name, now):
        if name == "COUNT":
            return self.count_at(now) & self.MAX
        if name == "PER":
            return self.per
        if name == "PERBUF":
            return self.perbuf
        regs = self.ccbuf if name.startswith("CCBUF") else self.cc
        return regs[int(name[-1])]

    def write(self, offset, size, value):
        now = float(self.mcu.now_ns())
        self.rebase(now)
        if offset == CTRLA and value & CTRLA_SWRST:
            self.reset()
            return
        lanes = [(offset + i, (value >> (8 * i)) & 0xFF) for i in range(size)]
        touched = {}
        for o, byte in lanes:
            self._write_byte(o, byte, touched)
        for name, (_off, _n, merged) in touched.items():
            self.set_field(name, merged)
        self.irq_line()
        self.arm()

    def _write_byte(self, o, byte, touched):
        if CTRLA <= o < CTRLA + 4:
            shift = 8 * (o - CTRLA)
            self.ctrla = (self.ctrla & ~(0xFF << shift)) | (byte << shift)
            if o == CTRLA:
                self._enable(bool(byte & CTRLA_ENABLE))
        elif o == CTRLBSET:
            self.ctrlb |= byte & 0x07
            self.command(byte >> 5)
        elif o == CTRLBCLR:
            self.ctrlb &= ~byte & 0x07
        elif o in (EVCTRL, EVCTRL + 1):
            shift = 8 * (o - EVCTRL)
            self.evctrl = (self.evctrl & ~(0xFF << shift)) | (byte << shift)
        elif o == INTENSET:
            self.inten |= byte
        elif o == INTENCLR:
            self.inten &= ~byte
        elif o == INTFLAG:
            self.flags &= ~byte
        elif o == WAVE:
            self.wave = byte
        elif o == DRVCTRL:
            self.drvctrl = byte
        elif not self._write_field_byte(o, byte, touched):
            if o != DBGCTRL and o != STATUS:
                self.unmodelled(o, 1, "write", byte)
            self.store(o, 1, byte)

    def _write_field_byte(self, o, byte, touched):
        for name, (off, n) in self.fields().items():
            if off <= o < off + n:
                old = touched[name][2] if name in touched else self.field(name, float(self.mcu.now_ns()))
                shift = 8 * (o - off)
                touched[name] = (off, n, (old & ~(0xFF << shift)) | (byte << shift))
                return True
        return False

    def set_field(self, name, value):
        if name == "COUNT":
            self.ref_count, self.ref_ns = value, float(self.mcu.now_ns())
        elif name == "PER":
            self.per = value
        elif name == "PERBUF":
            self.perbuf, self.bufv = value, self.bufv | STATUS_PERBUFV
        elif name.startswith("CCBUF"):
            i = int(name[-1])
            self.ccbuf[i], self.bufv = value, self.bufv | (STATUS_CCBUFV0 << i)
        else:
            self.cc[int(name[-1])] = value

    def _enable(self, on):
        if on and not self.running and not self.stopped:
            self.start()
        elif not on and self.running:
            self.stop()
        if not on:
            self.stopped = False

    def command(self, cmd):
        if cmd == CMD_RETRIGGER:
            self.stopped = False
            if self.ctrla & CTRLA_ENABLE:
                self.start(count=0)
        elif cmd == CMD_STOP:
            self.stopped = True
            self.stop()
        elif cmd == CMD_UPDATE:
            self.update()


# TCC register offsets (datasheet 49.7 "Register Summary"): 32-bit registers unless said
TCC_CTRLA = 0x00
TCC_CTRLBCLR = 0x04      # 8-bit
TCC_CTRLBSET = 0x05      # 8-bit
TCC_SYNCBUSY = 0x08
TCC_FCTRLA = 0x0C
TCC_FCTRLB = 0x10
TCC_WEXCTRL = 0x14
TCC_DRVCTRL = 0x18
TCC_DBGCTRL = 0x1E       # 8-bit
TCC_EVCTRL = 0x20
TCC_INTENCLR = 0x24
TCC_INTENSET = 0x28
TCC_INTFLAG = 0x2C
TCC_STATUS = 0x30
TCC_COUNT = 0x34
TCC_PATT = 0x38
TCC_WAVE = 0x3C
TCC_PER = 0x40
TCC_CC = 0x44            # CC[n] at 0x44 + 4n
TCC_PATTBUF = 0x64
TCC_PERBUF = 0x6C
TCC_CCBUF = 0x70         # CCBUF[n] at 0x70 + 4n
TCC_PLAIN = (TCC_CTRLA, TCC_FCTRLA, TCC_FCTRLB, TCC_WEXCTRL, TCC_DRVCTRL, TCC_EVCTRL, TCC_PATT, TCC_WAVE,
             TCC_PATTBUF)
TCC_STATUS_PERBUFV = 1 << 7
TCC_STATUS_CCBUFV0 = 1 << 16
TCC_WAVE_POL0 = 1 << 16
# per instance: CC channels, counter bits, GCLK channel, DMAC OVF trigger, EVSYS OVF generator
TCC_FACTS = ((6, 24, 25, 22, 41), (4, 24, 25, 29, 50), (3, 16, 29, 34, 57), (2, 16, 29, 38, 63),
             (2, 16, 38, 41, 68))


class Tcc(Counter):
    NAME = "TCC0"
    BASE = None
    SIZE = 0x88           # CCBUF5 is the last register (TCC0)

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        self.ccs, bits, self.GCLK_ID, self.TRIG_OVF, self.GEN_OVF = TCC_FACTS[int(self.NAME[3:])]
        self.MAX = (1 << bits) - 1
        self.reset()

    def reset(self):
        super().reset()
        self._counter_reset()
        self.r = dict.fromkeys(TCC_PLAIN, 0)
        self.ctrlb = 0
        self.per = self.perbuf = self.MAX
        self.cc = [0] * self.ccs
        self.ccbuf = [0] * self.ccs
        self.bufv = 0

    def prescaler(self):
        return (self.r[TCC_CTRLA] >> 8) & 7

    def top(self):
        return self.cc[0] if self.r[TCC_WAVE] & 7 == MFRQ else self.per

    def update(self):
        if self.ctrlb & CTRLB_LUPD:
            return
        for i in range(self.ccs):
            if self.bufv & (TCC_STATUS_CCBUFV0 << i):
                self.cc[i] = self.ccbuf[i]
        if self.bufv & TCC_STATUS_PERBUFV:
            self.per = self.perbuf
        self.bufv = 0

    def ovf_event_out(self):
        return bool(self.r[TCC_EVCTRL] & EVCTRL_OVFEO)

    def duty(self, wo):
        """WO[wo] (channel wo % CC count, the OTMX 0 mapping): its share of time high, None if not PWM."""
        if not self.r[TCC_CTRLA] & CTRLA_ENABLE or self.r[TCC_WAVE] & 7 < NPWM:
            return None
        self.advance(float(self.mcu.now_ns()))
        ch = wo % self.ccs
        return self.duty_of(self.cc[ch], self.per, bool(self.r[TCC_WAVE] & (TCC_WAVE_POL0 << ch)))

    # -- registers -------------------------------------------------------------------------------------
    def word(self, off, now):
        """The 32-bit register at ``off`` (None if none is modelled there)."""
        if off in self.r:
            return self.r[off]
        if off == TCC_CTRLBCLR:
            return self.ctrlb | (self.ctrlb << 8)
        if off in (TCC_INTENCLR, TCC_INTENSET):
            return self.inten
        simple = {TCC_SYNCBUSY: 0, TCC_INTFLAG: self.flags, TCC_PER: self.per, TCC_PERBUF: self.perbuf,
                  TCC_STATUS: (0 if self.running else 1) | self.bufv, TCC_DBGCTRL - 2: 0}
        if off in simple:
            return simple[off]
        if off == TCC_COUNT:
            return self.count_at(now) & self.MAX
        for i in range(self.ccs):
            if off == TCC_CC + 4 * i:
                return self.cc[i]
            if off == TCC_CCBUF + 4 * i:
                return self.ccbuf[i]
        return None

    def read(self, offset, size):
        now = float(self.mcu.now_ns())
        self.advance(now)
        value = 0
        for i in range(size):
            o = offset + i
            word = self.word(o & ~3, now)
            if word is None:
                self.unmodelled(o, 1, "read")
                word = self.stored(o & ~3, 4)
            value |= ((word >> (8 * (o & 3))) & 0xFF) << (8 * i)
        return value

    def write(self, offset, size, value):
        now = float(self.mcu.now_ns())
        self.rebase(now)
        if offset == TCC_CTRLA and value & CTRLA_SWRST:
            self.reset()
            return
        if offset in (TCC_CTRLBSET, TCC_CTRLBCLR) and size == 1:
            self._ctrlb(offset, value)
        else:
            words = {}
            for i in range(size):
                o = offset + i
                old = words.get(o & ~3, self.word(o & ~3, now))
                if old is None:
                    self.unmodelled(o, 1, "write", (value >> (8 * i)) & 0xFF)
                    continue
                shift = 8 * (o & 3)
                words[o & ~3] = (old & ~(0xFF << shift)) | (((value >> (8 * i)) & 0xFF) << shift)
            for off, word in words.items():
                self.set_word(off, word)
        self.irq_line()
        self.arm()

    def _ctrlb(self, offset, byte):
        if offset == TCC_CTRLBSET:
            self.ctrlb |= byte & 0x07
            cmd = byte >> 5
            if cmd == CMD_RETRIGGER:
                self.start(count=0)
            elif cmd == CMD_STOP:
                self.stop()
            elif cmd == CMD_UPDATE:
                self.update()
        else:
            self.ctrlb &= ~byte & 0x07

    def set_word(self, off, word):
        if off == TCC_CTRLA:
            was = self.r[off] & CTRLA_ENABLE
            self.r[off] = word
            if word & CTRLA_ENABLE and not was:
                self.start()
            elif was and not word & CTRLA_ENABLE:
                self.stop()
        elif off in self.r:
            self.r[off] = word
        elif off == TCC_INTENSET:
            self.inten |= word
        elif off == TCC_INTENCLR:
            self.inten &= ~word
        elif off == TCC_INTFLAG:
            self.flags &= ~word
        elif off == TCC_COUNT:
            self.ref_count, self.ref_ns = word & self.MAX, float(self.mcu.now_ns())
        elif off == TCC_PER:
            self.per = word & self.MAX
        elif off == TCC_PERBUF:
            self.perbuf, self.bufv = word & self.MAX, self.bufv | TCC_STATUS_PERBUFV
        elif TCC_CC <= off < TCC_CC + 4 * self.ccs:
            self.cc[(off - TCC_CC) // 4] = word & self.MAX
        elif TCC_CCBUF <= off < TCC_CCBUF + 4 * self.ccs:
            i = (off - TCC_CCBUF) // 4
            self.ccbuf[i], self.bufv = word & self.MAX, self.bufv | (TCC_STATUS_CCBUFV0 << i)


def dma_listens(dmac, trigsrc):
    """A DMAC channel is enabled on ``trigsrc`` (waiting, or still fetching its first descriptor)."""
    if dmac is None:
        return False
    if dmac.waiting(trigsrc):
        return True
    return any(c.enabled and c.trigsrc == trigsrc for c in getattr(dmac, "ch", ()))


def backlight(mcu, pin):
    """A PWM pin's duty (0..1), else its plain level as 0.0/1.0: what the backlight sees."""
    port = mcu.port
    name, wo = PWM_PINS.get(pin, (None, None))
    function = getattr(port, "function", None)
    if name is not None and (function is None or function(pin) == FUNCTION_E):
        duty = mcu.peripheral(name).duty(wo)
        if duty is not None:
            return duty
    return 1.0 if port is not None and port.level(pin) else 0.0


FUNCTION_E = 4           # PMUX value of peripheral function E (TC/TCC waveform outputs)
# Pin -> (timer, waveform output) on peripheral function E (datasheet "I/O Multiplexing"): add as boards need.
PWM_PINS = {"PA01": ("TC2", 1)}


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Tc, "TC0", 0x40003800, (107,)),
    (Tc, "TC1", 0x40003C00, (108,)),
    (Tc, "TC2", 0x4101A000, (109,)),
    (Tc, "TC3", 0x4101C000, (110,)),
    (Tc, "TC4", 0x42001400, (111,)),
    (Tc, "TC5", 0x42001800, (112,)),
    (Tcc, "TCC0", 0x41016000, tuple(range(85, 92))),
    (Tcc, "TCC1", 0x41018000, tuple(range(92, 97))),
    (Tcc, "TCC2", 0x42000C00, tuple(range(97, 101))),
    (Tcc, "TCC3", 0x42001000, tuple(range(101, 104))),
    (Tcc, "TCC4", 0x43001000, tuple(range(104, 107))),
]
