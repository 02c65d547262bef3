"""TC/TCC: pwmio's TC2 backlight on PA01 (MPWM, CCBUF -> CC at the overflow), counting and OVF, TCC NPWM, and
audioio's path: TC5 MFRQ overflow -> EVSYS -> DAC START0, and -> DMA (HWORD samples into DATABUF0)."""

import struct

import pytest
from fakes import RAM, PortMcu
from samd51.periph import counter as N
from samd51.periph import dac as A
from samd51.periph import dmac as D
from samd51.periph import evsys as E
from samd51.periph import tc as T
from samd51.periph import tcc as C
from samd51.periph.gclk import Gclk
from samd51.periph.port import PINCFG, PINCFG_PMUXEN, PMUX

TC2, TC5, TCC1 = 0x4101A000, 0x42001800, 0x41018000


def tc(mcu, name, base, irq):
    return mcu.add(T.Tc(mcu, name, base, (irq,)))


def pwm_backlight(t, top, duty):
    """common_hal_pwmio_pwmout_construct on a TC (SAMD51 branch), then set_duty_cycle."""
    t.write(T.CTRLA, 4, N.CTRLA_SWRST)
    assert t.read(T.CTRLA, 4) & N.CTRLA_SWRST == 0
    t.write(T.CTRLA, 4, 0)                                   # tc_set_enable(false)
    t.write(T.CTRLA, 4, T.MODE_COUNT16 << 2 | 0 << 8)        # prescaler 1
    t.write(T.WAVE, 1, T.MPWM)
    t.write(T.CCBUF, 2, top)
    t.write(T.CCBUF + 2, 2, 0)
    t.write(T.CTRLA, 4, t.read(T.CTRLA, 4) | T.CTRLA_ENABLE)
    assert t.read(T.SYNCBUSY, 4) == 0
    t.write(T.CCBUF + 2, 2, top * duty // 0xFFFF)


@pytest.fixture
def mcu():
    """GCLK generator 0 as at reset (DFLL48M) on every TC/TCC channel; a DMAC and EVSYS with nothing on."""
    mcu = PortMcu()
    gclk = mcu.add(Gclk(mcu))
    for channel in (9, 25, 26, 29, 30, 38):
        gclk.write(Gclk.PCHCTRL + 4 * channel, 4, 0x40)
    mcu.add(D.Dmac(mcu, "DMAC", 0x4100A000, (31, 32, 33, 34, 35)))
    mcu.add(E.Evsys(mcu))
    return mcu


def test_backlight_duty_arrives_at_the_next_overflow(mcu):
    t = tc(mcu, "TC2", TC2, 109)
    pwm_backlight(t, 2399, 0x8000)
    assert t.duty(1) == 0.0                                  # CC1 still 0: CCBUF waits for UPDATE
    assert t.read(T.STATUS, 1) & (T.STATUS_CCBUFV0 << 1)
    mcu.advance(2400 * 1000 // 48 + 10)                      # one period at 48 MHz (GCLK0 at reset)
    assert t.duty(1) == pytest.approx(1199 / 2400)
    assert not t.read(T.STATUS, 1) & (T.STATUS_CCBUFV0 << 1)
    assert t.read(T.CC + 2, 2) == 1199


def test_full_brightness_and_backlight_through_the_pin_mux(mcu):
    t = tc(mcu, "TC2", TC2, 109)
    pwm_backlight(t, 2399, 0xFFFF)
    mcu.advance(60_000)
    port = mcu.port
    assert T.backlight(mcu, "PA01") == 0.0                   # PA01 not yet muxed to the TC: a plain low pin
    port.write(PMUX + 0, 1, T.FUNCTION_E << 4)               # PA01 is odd: the high nibble
    port.write(PINCFG + 1, 1, PINCFG_PMUXEN)
    assert T.backlight(mcu, "PA01") == pytest.approx(2399 / 2400)


def test_count_and_ovf_flag_and_interrupt(mcu):
    t = tc(mcu, "TC3", 0x4101C000, 110)
    t.write(T.CTRLA, 4, T.MODE_COUNT16 << 2 | 3 << 8)        # prescaler 8: 6 MHz ticks
    t.write(T.WAVE, 1, T.MFRQ)
    t.write(T.CC, 2, 599)                                    # 100 us a period
    t.write(T.INTENSET, 1, N.OVF)
    t.write(T.CTRLA, 4, t.read(T.CTRLA, 4) | T.CTRLA_ENABLE)
    mcu.advance(50_000)
    assert t.read(T.COUNT, 2) == 300 and not t.read(T.INTFLAG, 1) & N.OVF
    assert 110 not in mcu.pending
    mcu.advance(50_100)
    assert t.read(T.INTFLAG, 1) & N.OVF and 110 in mcu.pending
    t.write(T.INTFLAG, 1, N.OVF)
    assert 110 not in mcu.pending
    assert t.overflows == 1
    t.write(T.CTRLBSET, 1, T.CMD_STOP << 5)
    assert t.read(T.STATUS, 1) & N.STATUS_STOP
    count = t.read(T.COUNT, 2)
    mcu.advance(1_000_000)
    assert t.read(T.COUNT, 2) == count
    t.write(T.CTRLBSET, 1, T.CMD_RETRIGGER << 5)
    assert not t.read(T.STATUS, 1) & N.STATUS_STOP and t.read(T.COUNT, 2) == 0


def test_a_long_quiet_run_counts_overflows_without_an_event_each(mcu):
    t = tc(mcu, "TC0", 0x40003800, 107)
    t.write(T.CTRLA, 4, T.MODE_COUNT16 << 2)
    t.write(T.WAVE, 1, T.MFRQ)
    t.write(T.CC, 2, 47)                                     # 1 us a period
    t.write(T.CTRLA, 4, t.read(T.CTRLA, 4) | T.CTRLA_ENABLE)
    mcu.advance(10_000_000)
    t.read(T.INTFLAG, 1)
    assert t.overflows == 10_000
    assert len(mcu.events) <= 1


def test_count8_has_per_and_a_tc_without_its_gclk_channel_stands(mcu):
    t = tc(mcu, "TC0", 0x40003800, 107)
    t.write(T.CTRLA, 4, T.MODE_COUNT8 << 2)
    t.write(T.PER, 1, 47)                                    # COUNT8's own period register: 1 us
    t.write(T.CC + 1, 1, 12)                                 # CC1 is the next byte in COUNT8
    t.write(T.CTRLA, 4, t.read(T.CTRLA, 4) | T.CTRLA_ENABLE)
    mcu.advance(10_500)
    assert t.read(T.COUNT, 1) == 24 and t.overflows == 10 and t.read(T.CC + 1, 1) == 12
    t.write(T.WAVE, 1, T.NFRQ)                               # a write takes the count up to now (GCLK
    mcu.peripheral("GCLK").write(Gclk.PCHCTRL + 4 * 9, 4, 0)  # tells no TC); GCLK_TC0_TC1 off: no ticks
    mcu.advance(1_000_000)
    assert t.read(T.COUNT, 1) == 24 and t.overflows == 10


def test_tcc_npwm_duty_and_lock_update(mcu):
    t = mcu.add(C.Tcc(mcu, "TCC1", TCC1, tuple(range(92, 97))))
    t.write(C.CTRLA, 4, N.CTRLA_SWRST)
    t.write(C.WAVE, 4, T.NPWM)
    t.write(C.PER, 4, 999)
    t.write(C.CTRLA, 4, T.CTRLA_ENABLE)
    t.write(C.CTRLBSET, 1, N.CTRLB_LUPD)                     # as set_duty_cycle: lock, write CCBUF, unlock
    t.write(C.CCBUF + 4 * 2, 4, 250)
    mcu.advance(30_000)
    assert t.duty(2) == 0.0                                  # locked: no update at the overflows
    t.write(C.CTRLBCLR, 1, N.CTRLB_LUPD)
    mcu.advance(30_000)
    assert t.duty(2) == 0.25 and t.duty(6) == 0.25           # WO6 is channel 6 % 4 = 2
    assert t.read(C.SYNCBUSY, 4) == 0 and t.read(C.STATUS, 4) & (C.STATUS_CCBUFV0 << 2) == 0


# -- audioio: TC5 -> EVSYS -> DAC START0, TC5 OVF -> DMA -> DATABUF0 ---------------------------------------
DESC, WRB, SAMPLES = RAM + 0x100, RAM + 0x200, RAM + 0x1000
DAC = 0x43002400


@pytest.fixture
def audio(mcu):
    dmac = mcu.add(D.Dmac(mcu, "DMAC", 0x4100A000, (31, 32, 33, 34, 35)))
    dmac.write(D.CTRL, 2, D.CTRL_SWRST)
    dmac.write(D.BASEADDR, 4, DESC)
    dmac.write(D.WRBADDR, 4, WRB)
    dmac.write(D.CTRL, 2, D.CTRL_DMAENABLE | 0xF00)
    evsys = mcu.add(E.Evsys(mcu))
    dac = mcu.add(A.Dac(mcu))
    t = tc(mcu, "TC5", TC5, 112)
    # common_hal_audioio_audioout_construct
    dac.write(A.CTRLA, 1, A.CTRLA_SWRST)
    dac.write(A.EVCTRL, 1, A.EVCTRL_STARTEI0)
    dac.write(A.DACCTRL, 2, A.DACCTRL_LEFTADJ | A.DACCTRL_ENABLE)
    dac.write(A.CTRLA, 1, A.CTRLA_ENABLE)
    assert dac.read(A.STATUS, 1) & A.STATUS_READY0
    t.write(T.CTRLA, 4, N.CTRLA_SWRST)
    t.write(T.WAVE, 1, T.MFRQ)
    t.write(T.EVCTRL, 2, N.EVCTRL_OVFEO)
    t.write(T.CTRLA, 4, T.CTRLA_ENABLE)
    t.write(T.CTRLBSET, 1, T.CMD_STOP << 5)
    evsys.write(E.USER + 4 * (A.USER_START0 + 1), 1, 11 + 1)  # START_1 too, as on the SAMD51 (DAC1 off)
    evsys.write(E.USER + 4 * A.USER_START0, 1, 11 + 1)       # connect_event_user_to_channel(DAC_START_0, 11)
    evsys.write(E.CHANNEL + 8 * 11, 4, t.GEN_OVF | (E.PATH_ASYNC << E.PATH_SHIFT))
    return mcu, t, dac, dmac


def play(mcu, t, dmac, samples, rate):
    """audio_dma_setup_playback of a looping RawSample (one descriptor chained to itself), then play()."""
    data = struct.pack("<%dH" % len(samples), *samples)
    mcu.ram[SAMPLES - RAM: SAMPLES - RAM + len(data)] = data
    btctrl = D.BTCTRL_VALID | D.BTCTRL_SRCINC | (1 << 8)     # HWORD beats
    desc = struct.pack("<HHIII", btctrl, len(samples), SAMPLES + len(data), DAC + A.DATABUF, DESC)
    mcu.mem_write(DESC, desc)
    dmac.write(D.CHANNEL + D.CHCTRLA, 4, D.CHCTRLA_SWRST)
    dmac.write(D.CHANNEL + D.CHCTRLA, 4, (t.TRIG_OVF << 8) | (D.TRIGACT_BURST << 20))
    dmac.write(D.CHANNEL + D.CHCTRLA, 1, dmac.read(D.CHANNEL + D.CHCTRLA, 1) | D.CHCTRLA_ENABLE)
    dmac.write(D.CHANNEL + D.CHINTFLAG, 1, 0x07)
    t.write(T.CC, 2, 48_000_000 // rate - 1)                 # set_timer_frequency
    t.write(T.CTRLBSET, 1, T.CMD_RETRIGGER << 5)


def test_a_looping_square_wave_reaches_the_dac_at_the_sample_rate(audio):
    mcu, t, dac, dmac = audio
    assert (t.TRIG_OVF, t.GEN_OVF) == (59, 88)               # TC5_DMAC_ID_OVF, EVSYS_ID_GEN_TC5_OVF
    start = mcu.t
    play(mcu, t, dmac, [0x8000 + 0x1000] * 4 + [0x8000 - 0x1000] * 4, 16_000)
    mcu.advance(5_000_000)
    out = dac.samples(0)
    codes = [c for _, c in out]
    assert codes[:3] == [0x900, 0x700, 0x900]                # 12-bit codes of the left-adjusted samples
    steps = [b - a for (a, _), (b, _) in zip(out, out[1:], strict=False)]
    assert all(abs(s - 250_000) <= 1 for s in steps)         # 4 samples at 62.5 us between changes
    assert out[0][0] - start == pytest.approx(2 * 62_500, abs=2)   # the first converts at the second overflow
    assert t.overflows in (79, 80)                           # 5 ms at 16 kHz
    assert dac.conversions[0] + dac.underruns[0] == t.overflows and dac.underruns[0] == 1
    assert dac.conversions[1] == dac.underruns[1] == 0 and dac.samples(1) == []


def test_audio_stops_cleanly_and_the_timer_goes_quiet(audio):
    mcu, t, dac, dmac = audio
    play(mcu, t, dmac, [0x9000, 0x7000], 16_000)
    mcu.advance(1_000_000)
    dmac.write(D.CHANNEL + D.CHCTRLA, 1, 0)                  # audio_dma_stop: the timer keeps running
    mcu.advance(1_000_000)
    n, u = dac.conversions[0], dac.underruns[0]
    mcu.advance(10_000_000)
    assert dac.conversions[0] - n <= 1                       # nothing left to convert: no event a sample
    assert dac.underruns[0] - u <= 1                         # the first empty START flags it; then quiet
    assert dac.read(A.INTFLAG, 1) & A.INTFLAG_UNDERRUN0
    t.read(T.INTFLAG, 1)
    assert t.counter.running and t.overflows in (191, 192)           # 12 ms at 16 kHz, counted all the same


def test_a_dmac_block_event_reaches_an_evsys_interrupt(audio):
    """audio_dma's double-buffer refill: DMAC channel 0's block event (EVOE) -> a sync channel's EVD IRQ."""
    mcu, t, dac, dmac = audio
    evsys = mcu.peripheral("EVSYS")
    evsys.write(E.CHANNEL + 8 * 0, 4, E.GEN_DMAC_CH0)        # init_event_channel_interrupt: sync path
    evsys.write(E.CHINTENSET, 1, E.EVD)
    assert evsys.read(E.CHINTENCLR, 1) == evsys.read(E.CHINTENSET, 1) == E.EVD   # both read the enables
    btctrl = D.BTCTRL_VALID | D.BTCTRL_SRCINC | (1 << 8) | (1 << 1)   # EVOSEL BLOCK
    mcu.mem_write(DESC, struct.pack("<HHIII", btctrl, 4, SAMPLES + 8, DAC + A.DATABUF, DESC))
    dmac.write(D.CHANNEL + D.CHCTRLA, 4, (t.TRIG_OVF << 8) | (D.TRIGACT_BURST << 20))
    dmac.write(D.CHANNEL + D.CHEVCTRL, 1, D.CHEVCTRL_EVOE)   # dma_configure's output_event
    dmac.write(D.CHANNEL + D.CHCTRLA, 1, dmac.read(D.CHANNEL + D.CHCTRLA, 1) | D.CHCTRLA_ENABLE)
    t.write(T.CC, 2, 2999)
    t.write(T.CTRLBSET, 1, T.CMD_RETRIGGER << 5)
    assert 36 not in mcu.pending
    mcu.advance(4 * 62_500 + 1_000)                          # four beats: one block
    assert evsys.read(E.CHINTFLAG, 1) & E.EVD and 36 in mcu.pending   # EVSYS_0
    evsys.write(E.CHINTFLAG, 1, E.EVD | E.OVR)
    assert 36 not in mcu.pending
