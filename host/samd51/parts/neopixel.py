"""WS2812 NeoPixels on a PORT pin, decoded from the pin's edges as the firmware bit-bangs them.

CircuitPython's SAMD51 neopixel_write (9.1.1) sets the pin, waits a counted delay loop, clears it early for a
0 or late for a 1, and waits again, with interrupts off. The delays are counted in instructions, so the wire
times follow the emulator's CPI, not the chip's: here a bit lasts about 104 cycles (0.87 us at 120 MHz;
1.25 us on a WS2812's datasheet). So a bit is read the way the firmware meant it: its high time against
the frame's bit period (a 0 is high about 1/4 of it, a 1 about 1/2). Eight bits a byte, MSB first; three
bytes a pixel in green, red, blue order. A frame ends when the line stays low for the reset time;
``frames`` are ``{"at_ms", "pixels": [[r, g, b], ...]}``, plus ``extra_bits`` when it ends mid-pixel and the
high times seen.
"""

RESET_NS = 280_000        # the WS2812B's reset (latch) time
ONE_SHARE = 0.4           # high time / bit period above which a bit is a 1


class NeoPixels:
    def __init__(self, mcu, pin, reset_ns=RESET_NS, on_frame=None):
        self.mcu = mcu
        self.pin = pin
        self.reset_ns = reset_ns
        self.on_frame = on_frame     # called with each frame as it latches
        self.frames = []
        self._rises = []             # ns of each rising edge in the frame under way
        self._highs = []             # ns high of each bit
        self._rise = None
        self._fall = None
        self._check = None
        self._level = bool(mcu.port.level(pin))
        mcu.port.on_change(pin, self.edge)

    def edge(self, level):
        level = bool(level)
        if level == self._level:
            return
        self._level = level
        now = self.mcu.now_ns()
        if level:
            if self._fall is not None and now - self._fall > self.reset_ns:
                self.end()
            self._rise = now
            self._rises.append(now)
        elif self._rise is not None:
            self._highs.append(now - self._rise)
            self._fall = now
            if self._check is None:
                self._check = self.mcu.at(self.reset_ns, self._latch_check)

    def _latch_check(self):
        self._check = None
        if self._fall is None:
            return
        quiet = self.mcu.now_ns() - self._fall
        if quiet >= self.reset_ns and not self._level:
            self.end()
        else:
            self._check = self.mcu.at(self.reset_ns - quiet if quiet < self.reset_ns else self.reset_ns,
                                      self._latch_check)

    def end(self):
        """Latch the frame under way (after a pause, or at the run's end); returns it or None."""
        highs, rises = self._highs, self._rises
        self._highs, self._rises, self._rise, self._fall = [], [], None, None
        if not highs:
            return None
        bits = decode(highs, rises)
        data = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits) - 7, 8)]
        pixels = [[data[i + 1], data[i], data[i + 2]] for i in range(0, len(data) - 2, 3)]
        frame = {"at_ms": rises[0] / 1e6, "pixels": pixels}
        if len(bits) != 24 * len(pixels):
            frame["extra_bits"] = len(bits) - 24 * len(pixels)
        zeros = [h for h, b in zip(highs, bits, strict=True) if not b]
        ones = [h for h, b in zip(highs, bits, strict=True) if b]
        frame["t0h_ns"] = round(sum(zeros) / len(zeros)) if zeros else None
        frame["t1h_ns"] = round(sum(ones) / len(ones)) if ones else None
        self.frames.append(frame)
        if self.on_frame is not None:
            self.on_frame(frame)
        return frame

    def flush(self):
        """At the run's end: a frame whose reset time has not passed yet still counts."""
        if self._check is not None:
            self.mcu.cancel(self._check)
            self._check = None
        return self.end()


def decode(highs, rises):
    """Bits from each bit's high time against its period (rise to next rise; the last takes the median)."""
    periods = [b - a for a, b in zip(rises, rises[1:], strict=False)]
    typical = sorted(periods)[len(periods) // 2] if periods else None
    bits = []
    for i, high in enumerate(highs):
        period = periods[i] if i < len(periods) else typical
        if period is None:                          # a lone bit: nothing to compare with
            period = 2 * high / ONE_SHARE if high else 1
        bits.append(1 if high > ONE_SHARE * period else 0)
    return bits


def describe(frame):
    """One line for the log: each pixel as #rrggbb."""
    text = " ".join("#%02x%02x%02x" % tuple(p) for p in frame["pixels"])
    return text + (" (+%d bits)" % frame["extra_bits"] if frame.get("extra_bits") else "")
