# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Sound and lights for the PyBadge: short tones, a tune and a NeoPixel sweep, never blocking.

Knows no pins: the board profile hands over what it has::

    snd = Sound(audio=audioio.AudioOut(board.SPEAKER),   # PyBadge (SAMD51 DAC); audiopwmio elsewhere
                pixels=Pixels(board.NEOPIXEL, 5),   # or neopixel.NeoPixel(..., auto_write=False)
                enable=speaker_enable)              # every argument optional
    snd.event("place")       # returns at once: the tone plays in the background
    snd.update()             # call often (every pass of the main loop): ends tones, starts the
                             # next note, moves the lights
    snd.set_sound(False); snd.set_lights(False)     # the menu's switches

With no ``audio`` (or no ``audiocore``) it stays silent, with no ``pixels``
dark; on the desktop nothing is needed.  A tone is one period of a square
wave in a ``RawSample`` (all made once, at start: 716 bytes of samples), played
looped (``play`` returns at once, the DMA does the rest) and stopped by
``update`` when its time is up, so a move costs one ``play`` call.
Volume: the square wave's amplitude, a fraction of full scale (default 1/8:
modest on the PyBadge's speaker).

Runs on CPython, MicroPython and CircuitPython; all times are ints in ms below
2**29.
"""

from sultan import TICKS_MASK as _MASK  # clocks are taken modulo 2**29
from sultan import const
from sultan import tick_clock as _default_clock
from sultan import ticks_diff as _since

EVENTS = ("place", "refuse", "redeal", "win", "lose", "deal")

# Notes: (frequency Hz, length ms); frequency 0 is a rest.
TUNES = {
    "place": ((1319, 28),),
    "refuse": ((147, 80),),
    "redeal": ((523, 35), (659, 35), (784, 45)),
    "deal": ((784, 30), (1047, 40)),
    "lose": ((392, 140), (330, 140), (262, 260)),
    "win": ((523, 110), (659, 110), (784, 110), (1047, 220), (0, 60), (784, 110), (1047, 380)),
}

SWEEP_STEP_MS = const(70)
SWEEP_STEPS = const(30)  # about two seconds of sweeping on a win
SWEEP_COLOURS = ((40, 28, 0), (0, 36, 10), (30, 0, 34))  # modest brightness: gold, green, violet

class Pixels:
    """A NeoPixel strip as ``Sound`` uses it (``len``, ``px[i] = (r, g, b)``, ``show``) over the
    built-in ``neopixel_write``: no NeoPixel library.  ``pin`` is the board profile's; the strip
    takes green, red, blue, and ``show`` writes all ``n`` pixels at once (CircuitPython)."""

    auto_write = False

    def __init__(self, pin, n):
        import digitalio
        import neopixel_write

        self._pin = digitalio.DigitalInOut(pin)
        self._pin.direction = digitalio.Direction.OUTPUT
        self._write = neopixel_write.neopixel_write
        self._buf = bytearray(3 * n)

    def __len__(self):
        return len(self._buf) // 3

    def __setitem__(self, i, rgb):
        b = self._buf
        b[3 * i] = rgb[1]
        b[3 * i + 1] = rgb[0]
        b[3 * i + 2] = rgb[2]

    def show(self):
        self._write(self._pin, self._buf)


def wake(speaker, neopixel, n=5):
    """A Sound on ``speaker`` (``audiopwmio``, the RP2040's PWM) and ``n`` NeoPixels on ``neopixel``,
    for a board that stays silent until its first sound event (the Pico's profile, to keep the heap
    at READY); with no audiopwmio it only lights.  None if it can't be had (no heap, no
    neopixel_write): said on the console, the board stays silent."""
    try:
        try:
            import audiopwmio

            audio = audiopwmio.PWMAudioOut(speaker)
        except (ImportError, ValueError, RuntimeError):  # no PWM audio here: the lights alone
            audio = None
        return Sound(audio=audio, pixels=Pixels(neopixel, n))
    except Exception as e:  # a silent game is still a game
        print("SULTAN no sound:", e)
        return None


def square_wave(freq, rate, volume):
    """One period of a square wave as unsigned 16-bit samples (an ``array('H')``)."""
    import array

    n = rate // freq if freq else 1
    if n < 2:
        n = 2
    amp = int(32767 * volume)
    if amp > 32767:
        amp = 32767
    buf = array.array("H", [32768] * n)
    for i in range(n):
        buf[i] = 32768 + amp if i < n // 2 else 32768 - amp
    return buf


def _raw_sample(freq, rate, volume):
    import audiocore

    return audiocore.RawSample(square_wave(freq, rate, volume), sample_rate=rate)


class Sound:
    """Tones and lights for game events; every method returns at once."""

    def __init__(self, audio=None, pixels=None, enable=None, clock=None, make_sample=None,
                 rate=16000, volume=0.125, sound_on=True, lights_on=True):
        self.audio = audio
        self.pixels = pixels
        self.enable = enable  # e.g. the DigitalInOut of board.SPEAKER_ENABLE (amp on only while playing)
        self.clock = clock or _default_clock()
        self.make_sample = make_sample or _raw_sample
        self.rate = rate
        self.volume = volume
        self.sound_on = bool(sound_on)
        self.lights_on = bool(lights_on)
        self._samples = {}
        self._queue = []  # notes still to play: (freq, ms)
        self._note_end = 0
        self._playing = False
        self._sweep = -1  # sweep step, -1 = lights idle
        self._sweep_at = 0
        if audio is not None:
            # Every pitch made now, so that an event allocates nothing but its queue.
            try:
                for tune in TUNES.values():
                    for freq, _ms in tune:
                        if freq and freq not in self._samples:
                            self._samples[freq] = self.make_sample(freq, rate, volume)
            except Exception:  # no audiocore on this board: stay silent
                self.audio = None
                self._samples = {}
        self._amp(False)

    # ---------------------------------------------------------------- switches
    def set_sound(self, on):
        self.sound_on = bool(on)
        if not on:
            self._queue = []
            self._stop()
            self._amp(False)

    def set_lights(self, on):
        self.lights_on = bool(on)
        if not on:
            self._sweep = -1
            self._dark()

    # ------------------------------------------------------------------ events
    def event(self, name):
        """Queue the sound (and for a win the lights) of ``name``; returns at once."""
        now = self.clock() & _MASK
        if name == "win" and self.lights_on and self.pixels is not None:
            self._sweep = 0
            self._sweep_at = now
            self._light(0)
        tune = TUNES.get(name)
        if not tune or not self.sound_on or self.audio is None:
            return
        if name == "win" or name == "lose" or not self._queue:
            # a new short tone cuts the previous short one; a tune replaces all
            self._queue = list(tune)
            self._stop()
            self._next(now)
        elif len(self._queue) < 8:
            self._queue.extend(tune)

    def busy(self):
        """True while a tone or the lights are still running."""
        return self._playing or bool(self._queue) or self._sweep >= 0

    def update(self, idle=True):
        """Advance tones and lights to now; cheap when idle.  Call every pass of the main loop, and
        between an animation's frames with ``idle=False`` (which only ``sultan.app.Silent`` heeds)."""
        if not self._playing and not self._queue and self._sweep < 0:
            return
        now = self.clock() & _MASK
        if self._playing and _since(now, self._note_end) >= 0:
            self._stop()
            self._next(now)
        elif not self._playing and self._queue:
            self._next(now)
        if self._sweep >= 0 and _since(now, self._sweep_at) >= SWEEP_STEP_MS:
            self._sweep += 1
            self._sweep_at = now
            if self._sweep >= SWEEP_STEPS:
                self._sweep = -1
                self._dark()
            else:
                self._light(self._sweep)

    # ---------------------------------------------------------------- internals
    def _next(self, now):
        while self._queue:
            freq, ms = self._queue.pop(0)
            self._note_end = (now + ms) & _MASK
            if not freq:  # a rest
                self._playing = True
                self._amp(False)
                return
            s = self._samples.get(freq)
            if s is None:
                s = self._samples[freq] = self.make_sample(freq, self.rate, self.volume)
            self._amp(True)
            self.audio.play(s, loop=True)
            self._playing = True
            return
        self._amp(False)

    def _stop(self):
        if self._playing and self.audio is not None:
            self.audio.stop()
        self._playing = False

    def _amp(self, on):
        if self.enable is not None:
            self.enable.value = on

    def _light(self, step):
        px = self.pixels
        n = len(px)
        span = 2 * n - 2 if n > 1 else 1
        k = step % span
        head = k if k < n else span - k  # back and forth
        colour = SWEEP_COLOURS[(step // span) % len(SWEEP_COLOURS)]
        for i in range(n):
            d = head - i if head >= i else i - head
            if d == 0:
                px[i] = colour
            elif d == 1:
                px[i] = (colour[0] >> 3, colour[1] >> 3, colour[2] >> 3)
            else:
                px[i] = (0, 0, 0)
        self._show()

    def _dark(self):
        px = self.pixels
        if px is None:
            return
        for i in range(len(px)):
            px[i] = (0, 0, 0)
        self._show()

    def _show(self):
        show = getattr(self.pixels, "show", None)
        if show is not None and not getattr(self.pixels, "auto_write", False):
            show()
