"""ADC0/ADC1 through their registers as CircuitPython's analogio drives them (samd-peripherals adc.c, ASF4's
hpl_adc.c): the pin table, the calibration row, the reference, the prescaler and the conversion time on the
simulated clock, averaging, overrun, a pin off function B, a channel with no clock."""

import struct

import pytest
from samd51.periph import adc as A
from thumb_asm import Machine, b_self

GCLK = 0x40001C00
PORT = 0x41008000
ADC0, ADC1 = 0x43001C00, 0x43002000
SW0 = 0x00800080


def w(mcu, addr, value, size):
    mcu.mem_write(addr, value.to_bytes(size, "little"))


def r(mcu, addr, size):
    return int.from_bytes(mcu.mem_read(addr, size), "little")


@pytest.fixture
def rig():
    """A bare machine with GCLK1 on the DFLL (48 MHz) feeding both ADCs, PB07 on function B at 1.0 V."""
    mcu = Machine(b_self()).mcu
    mcu.mem_write(GCLK + 0x20 + 4 * 1, struct.pack("<I", 0x106))        # GCLK1: DFLL48M, enabled
    for ch in (40, 41):
        mcu.mem_write(GCLK + 0x80 + 4 * ch, struct.pack("<I", 0x41))   # GEN1, CHEN
    pin_on_function_b(mcu, "PB07")
    stick = {"v": 1.0}
    A.connect(mcu, "PB07", lambda: stick["v"])
    return mcu, stick


def pin_on_function_b(mcu, pin):
    group, n = "AB".index(pin[1]), int(pin[2:])
    base = PORT + 0x80 * group
    w(mcu, base + 0x40 + n, 0x01, 1)                                    # PINCFG.PMUXEN
    pmux = r(mcu, base + 0x30 + n // 2, 1)
    w(mcu, base + 0x30 + n // 2, (pmux & 0x0F) | 0x10 if n & 1 else (pmux & 0xF0) | 0x01, 1)


def setup_as_analogio(mcu, base, ain, calib=True):
    """adc_sync_init (SWRST; ASF4: DIV16, 12-bit), the calibration copy, INTVCC1, the input, ENABLE."""
    w(mcu, base + A.CTRLA, A.CTRLA_SWRST, 2)
    w(mcu, base + A.CTRLA, 3 << 8, 2)                                   # PRESCALER DIV16
    if calib:
        comp, refbuf, r2r = A.fuses(r(mcu, SW0, 4), "ADC1" if base == ADC1 else "ADC0")
        w(mcu, base + A.CALIB, comp | r2r << 4 | refbuf << 8, 2)
    w(mcu, base + A.REFCTRL, A.REFSEL_INTVCC1, 1)
    w(mcu, base + A.INPUTCTRL, ain | A.MUX_GND << 8, 2)
    w(mcu, base + A.CTRLA, 3 << 8 | A.CTRLA_ENABLE, 2)


def convert(mcu, base, wait_ns=10_000):
    w(mcu, base + A.SWTRIG, A.SWTRIG_START, 1)
    mcu.run(until_ns=mcu.now_ns() + wait_ns)
    assert r(mcu, base + A.INTFLAG, 1) & A.INTFLAG_RESRDY
    return r(mcu, base + A.RESULT, 2)


def test_pins_reach_the_inputs_of_the_datasheet_table(rig):
    mcu, _ = rig
    assert mcu.peripheral("ADC1").sources[9][0] == "PB07"               # JOYSTICK_X: ADC1 AIN9
    A.connect(mcu, "PB08", lambda: 0.5)                                 # on both ADCs
    assert mcu.peripheral("ADC0").sources[2][0] == mcu.peripheral("ADC1").sources[0][0] == "PB08"
    assert A.AIN["PB06"] == (None, 8) and A.AIN["PB04"] == (None, 6) and A.AIN["PA02"] == (0, None)
    with pytest.raises(ValueError, match="PA00 has no ADC input"):
        A.connect(mcu, "PA00", lambda: 1.0)


def test_a_conversion_takes_13_clk_adc_cycles_and_reads_the_pin(rig):
    mcu, _ = rig
    setup_as_analogio(mcu, ADC1, 9)
    start = mcu.now_ns()
    w(mcu, ADC1 + A.SWTRIG, A.SWTRIG_START, 1)
    assert r(mcu, ADC1 + A.STATUS, 1) & A.STATUS_ADCBUSY
    mcu.run(until_ns=start + 4_200)                  # 48 MHz / 16 = 3 MHz: 13 cycles are 4.33 us
    assert not r(mcu, ADC1 + A.INTFLAG, 1) & A.INTFLAG_RESRDY
    mcu.run(until_ns=start + 4_500)
    assert r(mcu, ADC1 + A.INTFLAG, 1) & A.INTFLAG_RESRDY
    assert r(mcu, ADC1 + A.RESULT, 2) == round(1.0 / 3.3 * 4096) == 1241
    assert not r(mcu, ADC1 + A.INTFLAG, 1) & A.INTFLAG_RESRDY       # reading RESULT cleared it
    assert not r(mcu, ADC1 + A.STATUS, 1) & A.STATUS_ADCBUSY
    assert not [t for _, kind, t in mcu.lines if kind == "adc"]     # calibrated, clocked, routed


def test_the_result_follows_the_voltage_and_clamps(rig):
    mcu, stick = rig
    setup_as_analogio(mcu, ADC1, 9)
    got = []
    for volts in (0.0, 0.825, 1.65, 2.475, 3.3, 5.0):
        stick["v"] = volts
        got.append(convert(mcu, ADC1))
    assert got == [0, 1024, 2048, 3072, 4095, 4095]
    w(mcu, ADC1 + A.REFCTRL, A.REFSEL_INTVCC0, 1)                       # VDDANA / 2: twice the code
    stick["v"] = 0.825
    assert convert(mcu, ADC1) == 2048


def test_prescaler_sampling_and_averaging_set_the_time_and_the_16_bit_sum(rig):
    mcu, _ = rig
    setup_as_analogio(mcu, ADC1, 9)
    adc = mcu.peripheral("ADC1")
    w(mcu, ADC1 + A.CTRLA, 4 << 8 | A.CTRLA_ENABLE, 2)                  # DIV32: 1.5 MHz
    w(mcu, ADC1 + A.SAMPCTRL, 3, 1)                                     # 4 sampling cycles
    w(mcu, ADC1 + A.CTRLB, A.RESSEL_16 << 3, 2)
    w(mcu, ADC1 + A.AVGCTRL, 4, 1)                                      # 16 samples, no shift
    assert adc.conversion_ns() == pytest.approx((4 + 12) * 16 / 1.5e6 * 1e9)
    assert convert(mcu, ADC1, wait_ns=200_000) == 16 * 1241
    w(mcu, ADC1 + A.AVGCTRL, 6 | 2 << 4, 1)                             # 64 samples: auto >> 2, ADJRES 2
    assert convert(mcu, ADC1, wait_ns=800_000) == 64 * 1241 >> 4


def test_a_byte_write_to_the_prescaler_keeps_a_conversion_and_disabling_drops_it(rig):
    mcu, _ = rig
    setup_as_analogio(mcu, ADC1, 9)
    w(mcu, ADC1 + A.SWTRIG, A.SWTRIG_START, 1)
    w(mcu, ADC1 + A.CTRLA + 1, 3, 1)                                    # PRESCALER's byte alone
    mcu.run(until_ns=mcu.now_ns() + 10_000)
    assert r(mcu, ADC1 + A.INTFLAG, 1) & A.INTFLAG_RESRDY
    r(mcu, ADC1 + A.RESULT, 2)
    w(mcu, ADC1 + A.SWTRIG, A.SWTRIG_START, 1)
    w(mcu, ADC1 + A.CTRLA, 3 << 8, 2)                                   # ENABLE cleared
    mcu.run(until_ns=mcu.now_ns() + 10_000)
    assert not r(mcu, ADC1 + A.INTFLAG, 1) and not r(mcu, ADC1 + A.STATUS, 1)


def test_a_second_result_over_an_unread_one_is_an_overrun(rig):
    mcu, _ = rig
    setup_as_analogio(mcu, ADC1, 9)
    for _ in range(2):
        w(mcu, ADC1 + A.SWTRIG, A.SWTRIG_START, 1)
        mcu.run(until_ns=mcu.now_ns() + 10_000)
    assert r(mcu, ADC1 + A.INTFLAG, 1) == A.INTFLAG_RESRDY | A.INTFLAG_OVERRUN
    w(mcu, ADC1 + A.INTFLAG, A.INTFLAG_OVERRUN, 1)
    assert r(mcu, ADC1 + A.INTFLAG, 1) == A.INTFLAG_RESRDY


def test_uncalibrated_unrouted_or_unclocked_inputs_say_so(rig):
    mcu, stick = rig
    setup_as_analogio(mcu, ADC1, 9, calib=False)
    assert convert(mcu, ADC1) == 1241
    w(mcu, PORT + 0x80 + 0x40 + 7, 0x00, 1)                             # PB07 back to GPIO
    assert convert(mcu, ADC1) == 0
    lines = [t for _, kind, t in mcu.lines if kind == "adc"]
    assert any("CALIB 0x000, not the NVM calibration row's 0x724" in t for t in lines)
    assert any("PB07 is not on function B" in t for t in lines)
    mcu.mem_write(GCLK + 0x80 + 4 * 41, struct.pack("<I", 0))           # no GCLK_ADC1
    w(mcu, ADC1 + A.SWTRIG, A.SWTRIG_START, 1)
    mcu.run(until_ns=mcu.now_ns() + 1_000_000)
    assert r(mcu, ADC1 + A.STATUS, 1) & A.STATUS_ADCBUSY and not r(mcu, ADC1 + A.INTFLAG, 1)
    w(mcu, ADC1 + A.CTRLA, A.CTRLA_SWRST, 2)
    assert r(mcu, ADC1 + A.STATUS, 1) == 0 and r(mcu, ADC1 + A.CTRLA, 2) == 0
