"""NeoPixels on D8 (PA15): frames decoded from PORT edges timed as neopixel_send_buffer_core's delay loops
run under the core's block-counted cycles, and under a CPI three times slower (as on the chip)."""

import pytest
from fakes import PortMcu
from samd51.parts.neopixel import NeoPixels, describe
from samd51.periph.port import DIRSET, OUTCLR, OUTSET, pin_number

PIN = "PA15"
# Cycles between the edges of one bit (set..clear, clear..next set), as the core counts the 9.1.1 loop:
# a 0 is high 26 and low 78; a 1 high 56 and low 47; the last bit of a byte runs the 18-count delay instead.
HIGH = {0: 26, 1: 56}
LOW = {0: 78, 1: 47}
LOW_LAST = {0: 73, 1: 42}


def ns(cycles, cpi):
    return cycles * cpi * 1000 // 120            # 120 MHz


def bitbang(mcu, data, cpi=1):
    """neopixel_write: OUTSET, a counted wait, OUTCLR early (0) or late (1), OUTCLR again, a wait."""
    n = pin_number(PIN)
    mask = 1 << (n % 32)
    port = mcu.port
    port.write(DIRSET, 4, mask)
    for byte in data:
        for i in range(8):
            bit = (byte >> (7 - i)) & 1
            port.write(OUTSET, 4, mask)
            mcu.advance(ns(HIGH[bit], cpi))
            port.write(OUTCLR, 4, mask)
            mcu.advance(ns((LOW_LAST if i == 7 else LOW)[bit], cpi))
            port.write(OUTCLR, 4, mask)          # "clr (possibly again, doesn't matter)"


@pytest.fixture
def rig():
    mcu = PortMcu()
    got = []
    strip = NeoPixels(mcu, PIN, on_frame=got.append)
    return mcu, strip, got


GRB = bytes([0x10, 0xFF, 0x00, 0x00, 0x00, 0x80, 0xAA, 0x55, 0x01, 0, 0, 0, 0xFF, 0xFF, 0xFF])


@pytest.mark.parametrize("cpi", [1, 3])
def test_five_pixels_decode_to_rgb(rig, cpi):
    mcu, strip, got = rig
    bitbang(mcu, GRB, cpi)
    assert got == []                             # not latched before the reset time
    mcu.advance(300_000)
    assert len(got) == 1
    assert got[0]["pixels"] == [[0xFF, 0x10, 0x00], [0x00, 0x00, 0x80], [0x55, 0xAA, 0x01], [0, 0, 0],
                                [0xFF, 0xFF, 0xFF]]
    assert "extra_bits" not in got[0]
    assert got[0]["t0h_ns"] == ns(26, cpi) and got[0]["t1h_ns"] == ns(56, cpi)


def test_all_zero_and_all_one_frames_decode_alone(rig):
    mcu, strip, got = rig
    bitbang(mcu, bytes(15))                      # board_reset_user_neopixels: five dark pixels
    mcu.advance(300_000)
    bitbang(mcu, b"\xff" * 3)
    mcu.advance(300_000)
    assert [f["pixels"] for f in got] == [[[0, 0, 0]] * 5, [[255, 255, 255]]]


def test_a_pause_longer_than_reset_splits_frames_and_times_are_kept(rig):
    mcu, strip, got = rig
    bitbang(mcu, b"\x00\x20\x00")
    mcu.advance(4_000_000)                       # neopixel_write waits 4 ticks before the next
    start = mcu.t
    bitbang(mcu, b"\x00\x00\x20")
    mcu.advance(300_000)
    assert [f["pixels"] for f in got] == [[[0x20, 0, 0]], [[0, 0, 0x20]]]
    assert got[1]["at_ms"] == start / 1e6
    assert describe(got[1]) == "#000020"


def test_flush_at_the_end_and_a_short_frame_reports_its_extra_bits(rig):
    mcu, strip, got = rig
    bitbang(mcu, b"\x01\x02\x03\x04")
    frame = strip.flush()
    assert frame["pixels"] == [[2, 1, 3]] and frame["extra_bits"] == 8
    assert strip.frames == [frame]
