"""DAC: two 12-bit channels (DAC0 on PA02 = the PyBadge's SPEAKER / A0, DAC1 on PA05), outputs with times.

A DATA write converts at once. DATABUF waits for a START event when EVCTRL.STARTEIn is set (audioio: the
sample-rate TC's overflow through EVSYS), else converts at once too. Each output change is recorded as
(ns, 12-bit code) for the run's report: ``samples(ch)``; ``conversions`` counts every conversion, changed or
not, that a START event made (a START with DATABUF empty is an underrun: the output stays).
DMA: EMPTYn (trigger 72 + n) is requested while DATABUF is empty.
With DACCTRL.LEFTADJ the code sits in bits 15..4 (audioio writes 16-bit samples that way).
"""

from . import Peripheral

CTRLA = 0x00
CTRLB = 0x01
EVCTRL = 0x02
INTENCLR = 0x04
INTENSET = 0x05
INTFLAG = 0x06
STATUS = 0x07
SYNCBUSY = 0x08
DACCTRL = 0x0C           # DACCTRL[n] at 0x0C + 2n (16-bit)
DATA = 0x10              # DATA[n] at 0x10 + 2n
DATABUF = 0x14           # DATABUF[n] at 0x14 + 2n
DBGCTRL = 0x18
RESULT = 0x1C

CTRLA_SWRST, CTRLA_ENABLE = 1 << 0, 1 << 1
EVCTRL_STARTEI0 = 1 << 0
INTFLAG_UNDERRUN0 = 1 << 0
INTFLAG_EMPTY0 = 1 << 2
STATUS_READY0, STATUS_EOC0 = 1 << 0, 1 << 2
DACCTRL_LEFTADJ, DACCTRL_ENABLE = 1 << 0, 1 << 1
TRIG_EMPTY0 = 72         # DMAC trigger DAC EMPTY0 (EMPTY1 = 73)
USER_START0 = 61         # EVSYS user DAC START0 (START1 = 62)
MAX_SAMPLES = 2_000_000  # output changes kept a channel (a long run's cap; the count goes on)


class Dac(Peripheral):
    NAME = "DAC"
    BASE = 0x43002400
    SIZE = 0x400
    IRQS = (123, 124, 125, 126, 127)

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        self.outputs = ([], [])          # per channel: (ns, code) at each change of the output
        self.conversions = [0, 0]
        self.dropped = [0, 0]
        self.underruns = [0, 0]
        self._hooked = False
        self.reset()

    def reset(self):
        super().reset()
        self.ctrla = self.ctrlb = self.evctrl = self.inten = 0
        self.flags = INTFLAG_EMPTY0 | (INTFLAG_EMPTY0 << 1)
        self.dacctrl = [0, 0]
        self.data = [0, 0]
        self.databuf = [0, 0]
        self.full = [False, False]       # DATABUF holds a value not yet converted
        self.code = [None, None]         # the output now (12-bit), None before the first conversion

    def samples(self, ch=0):
        return list(self.outputs[ch])

    # -- conversions ------------------------------------------------------------------------------------
    def _convert(self, ch, raw, counted=False):
        code = (raw >> 4) & 0xFFF if self.dacctrl[ch] & DACCTRL_LEFTADJ else raw & 0xFFF
        if counted:
            self.conversions[ch] += 1
        self.data[ch] = raw
        if code != self.code[ch]:
            self.code[ch] = code
            if len(self.outputs[ch]) < MAX_SAMPLES:
                self.outputs[ch].append((self.mcu.now_ns(), code))
            else:
                self.dropped[ch] += 1

    def start_event(self, ch):
        """EVSYS START: DATABUF's value goes out; DATABUF is empty again (and asks DMA for the next)."""
        if not self.ctrla & CTRLA_ENABLE or not self.dacctrl[ch] & DACCTRL_ENABLE:
            return                           # audioio connects START1 too, with DAC1 off
        if not self.full[ch]:                # nothing new in DATABUF: an underrun, the output stays
            self.flags |= INTFLAG_UNDERRUN0 << ch
            self.underruns[ch] += 1
            self._irq()
            return
        self._convert(ch, self.databuf[ch], counted=True)
        self.full[ch] = False
        self._empty(ch)

    def _empty(self, ch):
        self.flags |= INTFLAG_EMPTY0 << ch
        dmac = self.mcu.peripheral("DMAC")
        if dmac is not None:
            dmac.trigger(TRIG_EMPTY0 + ch)
        self._irq()

    def quiet(self, ch):
        """A START now would change nothing: the buffer holds what is already out, or it is empty and the
        underrun is already flagged."""
        if not self.dacctrl[ch] & DACCTRL_ENABLE:
            return True
        if self.full[ch]:
            return self.databuf[ch] == self.data[ch]
        return bool(self.flags & (INTFLAG_UNDERRUN0 << ch))

    def _hook_evsys(self):
        evsys = self.mcu.peripheral("EVSYS")
        if evsys is None or self._hooked:
            return
        for ch in (0, 1):
            evsys.add_user(USER_START0 + ch, lambda ch=ch: self.start_event(ch), lambda ch=ch: self.quiet(ch))
        self._hooked = True

    def _irq(self):
        bits = self.flags & self.inten
        lines = (bits & 0xC3, bits & 0x04, bits & 0x08, bits & 0x10, bits & 0x20)
        for irq, on in zip(self.IRQS, lines, strict=True):
            (self.mcu.set_pending if on else self.mcu.clear_pending)(irq)

    # -- registers --------------------------------------------------------------------------------------
    def read(self, offset, size):
        return sum(self._read_byte(offset + i) << (8 * i) for i in range(size))

    def _read_byte(self, o):
        ready = 0
        if self.ctrla & CTRLA_ENABLE:
            ready = sum(STATUS_READY0 << ch for ch in (0, 1) if self.dacctrl[ch] & DACCTRL_ENABLE)
        simple = {CTRLA: self.ctrla, CTRLB: self.ctrlb, EVCTRL: self.evctrl, INTENCLR: self.inten,
                  INTENSET: self.inten, INTFLAG: self.flags, STATUS: ready | (ready << 2)}
        if o in simple:
            return simple[o] & 0xFF
        if SYNCBUSY <= o < SYNCBUSY + 4:
            return 0
        for base, regs in ((DACCTRL, self.dacctrl), (DATA, self.data), (DATABUF, self.databuf)):
            if base <= o < base + 4:
                return (regs[(o - base) >> 1] >> (8 * (o & 1))) & 0xFF
        if o != DBGCTRL:
            self.unmodelled(o, 1, "read")
        return self.stored(o, 1)

    def write(self, offset, size, value):
        self._hook_evsys()
        if offset == CTRLA and value & CTRLA_SWRST:
            self.reset()
            return
        regs = {}
        for i in range(size):
            self._write_byte(offset + i, (value >> (8 * i)) & 0xFF, regs)
        for (base, ch), word in regs.items():
            self._write_word(base, ch, word)
        self._irq()

    def _write_byte(self, o, byte, regs):
        if o == CTRLA:
            self.ctrla = byte & CTRLA_ENABLE
        elif o == CTRLB:
            self.ctrlb = byte
        elif o == EVCTRL:
            self.evctrl = byte
        elif o == INTENSET:
            self.inten |= byte
        elif o == INTENCLR:
            self.inten &= ~byte
        elif o == INTFLAG:
            self.flags &= ~byte | (INTFLAG_EMPTY0 | INTFLAG_EMPTY0 << 1)   # EMPTY clears by a DATABUF write
        elif any(base <= o < base + 4 for base in (DACCTRL, DATA, DATABUF)):
            base = max(b for b in (DACCTRL, DATA, DATABUF) if b <= o)
            ch = (o - base) >> 1
            key = (base, ch)
            word = regs.get(key, (self.dacctrl, self.data, self.databuf)[(base - DACCTRL) // 4][ch])
            shift = 8 * (o & 1)
            regs[key] = (word & ~(0xFF << shift)) | (byte << shift)
        elif o not in (SYNCBUSY, DBGCTRL):
            self.unmodelled(o, 1, "write", byte)
            self.store(o, 1, byte)

    def _write_word(self, base, ch, word):
        if base == DACCTRL:
            self.dacctrl[ch] = word
        elif base == DATA:
            self._convert(ch, word)
        else:
            self.databuf[ch] = word
            self.flags &= ~(INTFLAG_EMPTY0 << ch)
            if self.evctrl & (EVCTRL_STARTEI0 << ch):
                self.full[ch] = True
                evsys = self.mcu.peripheral("EVSYS")
                if evsys is not None and word != self.data[ch]:
                    evsys.user_active(USER_START0 + ch)
            else:
                self._convert(ch, word)
                self._empty(ch)
