"""Sound and lights (lib/sultan/sound.py) with fake audio, pixels and clock: non-blocking, switchable."""

import sys
import time

import pytest
from runners import run_micropython
from sultan.ui import sound
from sultan.ui.sound import Sound


class FakeAudio:
    """Records calls like audiopwmio.PWMAudioOut; ``play`` returns at once, as the real one does."""

    def __init__(self):
        self.calls = []
        self.playing = False

    def play(self, sample, loop=False):
        self.calls.append(("play", sample, loop))
        self.playing = True

    def stop(self):
        self.calls.append(("stop",))
        self.playing = False

    def plays(self):
        return [c[1] for c in self.calls if c[0] == "play"]


class FakePixels(list):
    def __init__(self, n=5):
        super().__init__([(0, 0, 0)] * n)
        self.auto_write = False
        self.shows = 0

    def show(self):
        self.shows += 1


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t


class Pin:
    value = None


def fake_sample(freq, rate, volume):
    return ("tone", freq)


def make(**kw):
    clock = Clock()
    audio, pixels, pin = FakeAudio(), FakePixels(), Pin()
    args = dict(audio=audio, pixels=pixels, enable=pin, clock=clock, make_sample=fake_sample)
    args.update(kw)
    return Sound(**args), audio, pixels, clock, pin


def test_event_returns_at_once_and_queues_the_rest_of_the_tune():
    s, audio, pixels, clock, pin = make()
    t0 = time.perf_counter()
    s.event("win")
    dt = time.perf_counter() - t0
    assert dt < 0.005  # no sleeping: the tune is queued, not played out
    assert audio.plays() == [("tone", 523)] and pin.value is True
    assert len(s._queue) == len(sound.TUNES["win"]) - 1 and s.busy()
    assert pixels.shows == 1 and any(p != (0, 0, 0) for p in pixels)
    heard = [523]
    for _ in range(400):  # 4 s of main-loop passes, 10 ms apart
        clock.t += 10
        s.update()
        if audio.plays()[-1] != ("tone", heard[-1]) or len(audio.plays()) > len(heard):
            heard.append(audio.plays()[-1][1])
    assert heard == [f for f, _ms in sound.TUNES["win"] if f]
    assert not s.busy() and not audio.playing and pin.value is False
    assert all(p == (0, 0, 0) for p in pixels)  # the sweep ends dark


def test_a_short_tone_stops_when_its_time_is_up_and_a_new_one_cuts_it():
    s, audio, _px, clock, _pin = make()
    s.event("place")
    assert audio.playing and audio.calls[-1] == ("play", ("tone", 1319), True)
    clock.t += 10
    s.update()
    assert audio.playing
    s.event("refuse")  # cuts the blip: moves can come faster than tones
    assert audio.calls[-2:] == [("stop",), ("play", ("tone", 147), True)]
    clock.t += 200
    s.update()
    assert not audio.playing and not s.busy()


def test_update_is_cheap_and_silent_when_idle():
    s, audio, pixels, clock, _pin = make()
    for _ in range(1000):
        s.update()
    assert audio.calls == [] and pixels.shows == 0


def test_switches_silence_sound_and_lights():
    s, audio, pixels, clock, pin = make()
    s.event("win")
    s.set_sound(False)
    assert not audio.playing and pin.value is False and s._queue == []
    s.set_lights(False)
    assert all(p == (0, 0, 0) for p in pixels)
    n = len(audio.calls)
    s.event("place")
    s.event("win")
    clock.t += 1000
    s.update()
    assert len(audio.calls) == n and all(p == (0, 0, 0) for p in pixels) and not s.busy()
    s.set_sound(True)
    s.event("place")
    assert audio.calls[-1][0] == "play"


def test_lights_alone_and_no_hardware_at_all():
    s, _a, pixels, clock, _pin = make(audio=None)
    s.event("place")
    s.event("win")
    assert any(p != (0, 0, 0) for p in pixels)
    quiet = Sound()  # the desktop: nothing given, nothing happens
    for name in sound.EVENTS:
        quiet.event(name)
    quiet.update()
    assert not quiet.busy()


def test_board_without_audiocore_stays_silent():
    def broken(freq, rate, volume):
        raise ImportError("no audiocore")

    s, audio, _px, _clock, _pin = make(make_sample=broken)
    s.event("place")
    assert s.audio is None and audio.calls == []


def test_square_wave_is_modest_and_one_period():
    w = sound.square_wave(1000, 16000, 0.125)
    assert len(w) == 16
    assert max(w) - 32768 == 4095 and 32768 - min(w) == 4095


@pytest.mark.micropython
def test_runs_on_micropython():
    out = run_micropython(
        "from sultan.ui.sound import Sound, square_wave\n"
        "class A:\n"
        "    n = 0\n"
        "    def play(self, s, loop=False): A.n += 1\n"
        "    def stop(self): pass\n"
        "t = [0]\n"
        "px = [(0, 0, 0)] * 5\n"
        "s = Sound(audio=A(), pixels=px, clock=lambda: t[0], make_sample=lambda f, r, v: f)\n"
        "s.event('win')\n"
        "for i in range(300):\n"
        "    t[0] += 10\n"
        "    s.update()\n"
        "print(A.n, s.busy(), len(square_wave(440, 16000, 0.125)))\n"
    )
    assert out.split() == ["6", "False", "36"]


class FakeStrip:
    """The board side of ``Pixels``: digitalio and the built-in neopixel_write, recorded."""

    def __init__(self, monkeypatch):
        import types

        self.writes = []
        dio = types.ModuleType("digitalio")

        class DigitalInOut:
            def __init__(self, pin):
                self.pin, self.direction = pin, None

        dio.DigitalInOut = DigitalInOut
        dio.Direction = types.SimpleNamespace(OUTPUT="out")
        npw = types.ModuleType("neopixel_write")
        npw.neopixel_write = lambda pin, buf: self.writes.append((pin.pin, pin.direction, bytes(buf)))
        monkeypatch.setitem(sys.modules, "digitalio", dio)
        monkeypatch.setitem(sys.modules, "neopixel_write", npw)


def fake_pwm(monkeypatch, made):
    import types

    pwm = types.ModuleType("audiopwmio")

    class PWMAudioOut(FakeAudio):
        def __init__(self, pin):
            super().__init__()
            made.append((pin, self))

    pwm.PWMAudioOut = PWMAudioOut
    core = types.ModuleType("audiocore")
    core.RawSample = lambda buf, sample_rate: ("raw", len(buf), sample_rate)
    monkeypatch.setitem(sys.modules, "audiopwmio", pwm)
    monkeypatch.setitem(sys.modules, "audiocore", core)


def test_pixels_send_green_red_blue_over_neopixel_write(monkeypatch):
    strip = FakeStrip(monkeypatch)
    px = sound.Pixels("GP22", 2)
    assert len(px) == 2 and px.auto_write is False
    px[0] = (40, 28, 0)
    px[1] = (1, 2, 3)
    px.show()
    assert strip.writes == [("GP22", "out", bytes([28, 40, 0, 2, 1, 3]))]


def test_wake_is_a_sound_on_the_buzzer_and_the_strip(monkeypatch):
    strip, made = FakeStrip(monkeypatch), []
    fake_pwm(monkeypatch, made)
    s = sound.wake("GP15", "GP22")
    assert isinstance(s, Sound)
    s.event("win")
    ((pin, audio),) = made
    assert pin == "GP15" and audio.plays()[0][0] == "raw"  # the win tune's first note, looped
    assert strip.writes and strip.writes[0][0] == "GP22" and len(strip.writes[0][2]) == 15  # five pixels
    s.set_lights(False)  # dark at once
    assert strip.writes[-1][2] == bytes(15)


def test_wake_without_audiopwmio_lights_alone(monkeypatch):
    strip = FakeStrip(monkeypatch)
    monkeypatch.setitem(sys.modules, "audiopwmio", None)  # import audiopwmio: ImportError
    s = sound.wake("GP15", "GP22")
    s.event("win")
    assert s.audio is None and strip.writes  # silent, but the lights sweep


def test_wake_that_fails_says_so_and_gives_none(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "audiopwmio", None)
    monkeypatch.setitem(sys.modules, "neopixel_write", None)  # no strip either: Pixels fails
    assert sound.wake("GP15", "GP22") is None
    assert "SULTAN no sound:" in capsys.readouterr().out
