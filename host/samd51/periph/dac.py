"""DAC: two 12-bit channels (DAC0 on PA02 = the PyBadge's SPEAKER / A0, DAC1 on PA05), outputs with times.

A DATA write converts at once. DATABUF waits for a START event when EVCTRL.STARTEIn is set (audioio: the
sample-rate TC's overflow through EVSYS), else converts at once too. Each output change is recorded as
(ns, 12-bit code) for the run's report: ``samples(ch)``; ``conversions`` counts every conversion, changed or
not, that a START event made (a START with DATABUF empty is an underrun: the output stays).
DMA: EMPTYn (trigger 72 + n) is requested while DATABUF is empty.
With DACCTRL.LEFTADJ the code sits in bits 15..4 (audioio writes 16-bit samples that way).
"""

from . import Registers

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


class Dac(Registers):
    NAME = "DAC"
    BASE = 0x43002400
    SIZE = RESULT + 2
    IRQS = (123, 124, 125, 126, 127)
    REGS = {CTRLA: 1, CTRLB: 1, EVCTRL: 1, INTENCLR: 1, INTENSET: 1, INTFLAG: 1, STATUS: 1, SYNCBUSY: 4,
            DACCTRL: 2, DACCTRL + 2: 2, DATA: 2, DATA + 2: 2, DATABUF: 2, DATABUF + 2: 2, DBGCTRL: 1,
            RESULT: 2}

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.outputs = ([], [])          # per channel: (ns, code) at each change of the output
        self.conversions = [0, 0]
        self.dropped = [0, 0]
        self.underruns = [0, 0]
        self._hooked = False
        super().__init__(mcu, name, base, irqs)

    def reset(self):
        super().reset()
        self.inten = 0
        self.flags = INTFLAG_EMPTY0 | (INTFLAG_EMPTY0 << 1)
        self.data = [0, 0]
        self.databuf = [0, 0]
        self.full = [False, False]       # DATABUF holds a value not yet converted
        self.code = [None, None]         # the output now (12-bit), None before the first conversion

    def dacctrl(self, ch):
        return self.value(DACCTRL + 2 * ch)

    def samples(self, ch=0):
        return list(self.outputs[ch])

    # -- conversions ------------------------------------------------------------------------------------
    def _convert(self, ch, raw, counted=False):
        code = (raw >> 4) & 0xFFF if self.dacctrl(ch) & DACCTRL_LEFTADJ else raw & 0xFFF
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
        if not self.value(CTRLA) & CTRLA_ENABLE or not self.dacctrl(ch) & DACCTRL_ENABLE:
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
        self.mcu.peripheral("DMAC").trigger(TRIG_EMPTY0 + ch)
        self._irq()

    def quiet(self, ch):
        """A START now would change nothing: the buffer holds what is already out, or it is empty and the
        underrun is already flagged."""
        if not self.dacctrl(ch) & DACCTRL_ENABLE:
            return True
        if self.full[ch]:
            return self.databuf[ch] == self.data[ch]
        return bool(self.flags & (INTFLAG_UNDERRUN0 << ch))

    def _hook_evsys(self):
        evsys = self.mcu.peripheral("EVSYS")
        if self._hooked:
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
    def read_reg(self, reg):
        if reg in (INTENCLR, INTENSET):
            return self.inten
        if reg == INTFLAG:
            return self.flags
        if reg == STATUS:
            ready = 0
            if self.value(CTRLA) & CTRLA_ENABLE:
                ready = sum(STATUS_READY0 << ch for ch in (0, 1) if self.dacctrl(ch) & DACCTRL_ENABLE)
            return ready | (ready << 2)  # READYn, EOCn: a conversion ends at once
        if reg == SYNCBUSY:
            return 0
        if reg in (DATA, DATA + 2):
            return self.data[(reg - DATA) >> 1]
        if reg in (DATABUF, DATABUF + 2):
            return self.databuf[(reg - DATABUF) >> 1]
        return super().read_reg(reg)

    def write(self, offset, size, value):
        self._hook_evsys()
        super().write(offset, size, value)
        self._irq()

    def write_reg(self, reg, bits, mask):
        if reg == CTRLA:
            if bits & CTRLA_SWRST:
                self.reset()
            else:
                super().write_reg(reg, bits & CTRLA_ENABLE, mask)
        elif reg == INTENSET:
            self.inten |= bits
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == INTFLAG:
            self.flags &= ~bits | (INTFLAG_EMPTY0 | INTFLAG_EMPTY0 << 1)   # EMPTY clears by a DATABUF write
        elif reg in (DATA, DATA + 2):
            ch = (reg - DATA) >> 1
            self._convert(ch, (self.data[ch] & ~mask) | bits)
        elif reg in (DATABUF, DATABUF + 2):
            ch = (reg - DATABUF) >> 1
            self._databuf(ch, (self.databuf[ch] & ~mask) | bits)
        elif reg not in (STATUS, SYNCBUSY, RESULT):
            super().write_reg(reg, bits, mask)

    def _databuf(self, ch, word):
        self.databuf[ch] = word
        self.flags &= ~(INTFLAG_EMPTY0 << ch)
        if self.value(EVCTRL) & (EVCTRL_STARTEI0 << ch):
            self.full[ch] = True
            if word != self.data[ch]:
                self.mcu.peripheral("EVSYS").user_active(USER_START0 + ch)
        else:
            self._convert(ch, word)
            self._empty(ch)
