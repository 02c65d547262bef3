"""ADC0 and ADC1: the SAMD51's two 12-bit SAR ADCs (datasheet "ADC - Analog-to-Digital Converter"), fed by
the board's analog parts.

A part gives a pin a voltage with ``connect(mcu, "PB07", volts)`` (``volts()`` -> V, asked at each sample).
The pin reaches an ADC input through the datasheet's I/O multiplexing table (``AIN``): PB04, PB06 and PB07
are ADC1's AIN6, AIN8 and AIN9, PA02 is ADC0's AIN0.  The analog switch closes only with the pin on
peripheral function B, as analogio sets it; otherwise the input floats and the model reads 0 V (logged once).

A conversion starts on SWTRIG.START (again after each result in FREERUN) while CTRLA.ENABLE is set, and its
result comes after its time on the simulated clock: each sample takes (SAMPLEN + 1, or 4 with OFFCOMP)
sampling cycles plus one a result bit, of CLK_ADC = GCLK_ADCn / 2^(1 + PRESCALER), times the samples
averaged.  CircuitPython (samd-peripherals adc.c, ASF4's hpl_adc_config.h) clocks both from GCLK1, 48 MHz,
DIV16: 3 MHz, 13 cycles, 4.33 us.  A channel with no clock never ends its conversion (logged once).

The code is Vin / Vref * 4096 (two's complement (Vpos - Vneg) / Vref * 2048 in DIFFMODE), clamped, then
RESSEL's 8/10 bits, AVGCTRL's accumulation and ADJRES, CORREN's offset and gain, LEFTADJ.  References:
INTREF the bandgap at SUPC.VREF's reset 1.0 V, INTVCC0 VDDANA / 2, INTVCC1 VDDANA (3.3 V), AREFA-C
``arefs``.  Reading RESULT clears RESRDY; a result over an unread RESRDY sets OVERRUN; WINMODE sets WINMON.
SYNCBUSY reads 0 (synchronised at once, as the clocks).  CALIB must hold the NVM software calibration row's
BIASCOMP, BIASREFBUF and BIASR2R for the datasheet's accuracy: a conversion with other values is logged
once.  Not modelled (logged as unmodelled registers): the DMA sequencing (DSEQ*), RESS, the temperature
sensors, the DAC and PTC inputs, EVCTRL's events.
"""

from samd51.mcu import SW_CALIB

from . import Registers

CTRLA, EVCTRL, DBGCTRL, INPUTCTRL, CTRLB, REFCTRL = 0x00, 0x02, 0x03, 0x04, 0x06, 0x08
AVGCTRL, SAMPCTRL, WINLT, WINUT, GAINCORR, OFFSETCORR, SWTRIG = 0x0A, 0x0B, 0x0C, 0x0E, 0x10, 0x12, 0x14
INTENCLR, INTENSET, INTFLAG, STATUS, SYNCBUSY, RESULT, CALIB = 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x40, 0x48

CTRLA_SWRST, CTRLA_ENABLE = 1 << 0, 1 << 1
CTRLB_LEFTADJ, CTRLB_FREERUN, CTRLB_CORREN = 1 << 0, 1 << 1, 1 << 2
RESSEL_12, RESSEL_16, RESSEL_10, RESSEL_8 = 0, 1, 2, 3
INPUTCTRL_DIFFMODE = 1 << 7
SWTRIG_FLUSH, SWTRIG_START = 1 << 0, 1 << 1
INTFLAG_RESRDY, INTFLAG_OVERRUN, INTFLAG_WINMON = 1 << 0, 1 << 1, 1 << 2
STATUS_ADCBUSY = 1 << 0
SAMPCTRL_OFFCOMP = 1 << 7
REFSEL_INTREF, REFSEL_INTVCC0, REFSEL_INTVCC1, REFSEL_AREFA = 0x0, 0x2, 0x3, 0x4
MUX_GND = 0x18                                     # MUXNEG: internal ground
MUX_SCALEDCOREVCC, MUX_SCALEDVBAT, MUX_SCALEDIOVCC, MUX_BANDGAP = 0x18, 0x19, 0x1A, 0x1B

VDDANA = 3.3
BANDGAP = 1.0                                      # SUPC.VREF.SEL's reset value: 1.0 V
VDDCORE = 1.2
# pin -> AIN of (ADC0, ADC1), from the datasheet's I/O multiplexing table (pins of the 64-pin SAMD51J)
AIN = {
    "PA02": (0, None), "PA03": (1, None), "PB08": (2, 0), "PB09": (3, 1), "PA04": (4, None),
    "PA05": (5, None), "PA06": (6, None), "PA07": (7, None), "PA08": (8, 2), "PA09": (9, 3),
    "PA10": (10, None), "PA11": (11, None), "PB00": (12, None), "PB01": (13, None), "PB02": (14, None),
    "PB03": (15, None), "PB04": (None, 6), "PB05": (None, 7), "PB06": (None, 8), "PB07": (None, 9),
}
FUNCTION_B = 1
# NVM software calibration row (NVMCTRL_SW0): (BIASCOMP, BIASREFBUF, BIASR2R) bit positions, 3 bits each
CALIB_FUSES = {"ADC0": (2, 5, 8), "ADC1": (16, 19, 22)}


def connect(mcu, pin, volts):
    """Give ``pin`` the voltage ``volts()`` on every ADC input it reaches; a pin with none is refused."""
    if pin not in AIN:
        raise ValueError("%s has no ADC input on the SAMD51J" % pin)
    for index, ain in enumerate(AIN[pin]):
        if ain is not None:
            mcu.peripheral("ADC%d" % index).sources[ain] = (pin, volts)


def fuses(word, name):
    """(BIASCOMP, BIASREFBUF, BIASR2R) of ADC ``name`` in the NVM software calibration row's first word."""
    return tuple((word >> pos) & 7 for pos in CALIB_FUSES[name])


class Adc(Registers):
    SIZE = 0x400
    REGS = {CTRLA: 2, EVCTRL: 1, DBGCTRL: 1, INPUTCTRL: 2, CTRLB: 2, REFCTRL: 1, AVGCTRL: 1, SAMPCTRL: 1,
            WINLT: 2, WINUT: 2, GAINCORR: 2, OFFSETCORR: 2, SWTRIG: 1, INTENCLR: 1, INTENSET: 1, INTFLAG: 1,
            STATUS: 1, SYNCBUSY: 4, RESULT: 2, CALIB: 2}
    GCLK_ID = {"ADC0": 40, "ADC1": 41}             # PCHCTRL index (datasheet "PCHCTRLm Mapping")

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.sources = {}       # AIN -> (pin, volts()): the board's parts, kept across resets
        self.arefs = {REFSEL_AREFA: None, REFSEL_AREFA + 1: None, REFSEL_AREFA + 2: None}
        self.conversions = 0
        self._logged = set()
        self._due = None        # the event at the conversion's end
        super().__init__(mcu, name, base, irqs)

    def reset(self):
        super().reset()
        self._cancel()
        self.inten = self.flags = 0
        self.result = 0

    def _cancel(self):
        self.mcu.cancel(self._due)
        self._due = None
        self.busy = False

    def _once(self, key, text):
        if key not in self._logged:
            self._logged.add(key)
            self.mcu.log("adc", "%s: %s" % (self.NAME, text))

    # -- registers ----------------------------------------------------------------------------------------
    def read_reg(self, reg):
        if reg in (INTENSET, INTENCLR):
            return self.inten
        if reg == INTFLAG:
            return self.flags
        if reg == STATUS:
            return STATUS_ADCBUSY if self.busy else 0
        if reg == SYNCBUSY or reg == SWTRIG:
            return 0
        if reg == RESULT:
            self._flag(clear=INTFLAG_RESRDY)    # reading RESULT clears RESRDY
            return self.result
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg == INTENSET:
            self.inten |= bits & 7
        elif reg == INTENCLR:
            self.inten &= ~bits
        elif reg == INTFLAG:
            self._flag(clear=bits & 7)
        elif reg == SWTRIG:
            self._swtrig(bits)
        elif reg == CTRLA and bits & CTRLA_SWRST:
            self.reset()
        elif reg not in (STATUS, SYNCBUSY, RESULT):
            super().write_reg(reg, bits, mask)
            if reg == CTRLA and not self.enabled:
                self._cancel()                  # disabled: a conversion under way is lost

    def _swtrig(self, bits):
        if bits & SWTRIG_FLUSH:
            self._cancel()
        if bits & SWTRIG_START and self.enabled and not self.busy:
            self._start()

    @property
    def enabled(self):
        return bool(self.value(CTRLA) & CTRLA_ENABLE)

    def _flag(self, set_=0, clear=0):
        self.flags = (self.flags | set_) & ~clear
        if self.flags & self.inten & INTFLAG_RESRDY:
            self.mcu.set_pending(self.IRQS[1])
        else:
            self.mcu.clear_pending(self.IRQS[1])
        if self.flags & self.inten & (INTFLAG_OVERRUN | INTFLAG_WINMON):
            self.mcu.set_pending(self.IRQS[0])
        else:
            self.mcu.clear_pending(self.IRQS[0])

    # -- conversions --------------------------------------------------------------------------------------
    def bits(self):
        return {RESSEL_8: 8, RESSEL_10: 10}.get((self.value(CTRLB) >> 3) & 3, 12)

    def samples(self):
        return 1 << min(self.value(AVGCTRL) & 0xF, 10)

    def conversion_ns(self):
        """The time from START to RESRDY, or None when GCLK_ADCn is off."""
        hz = self.mcu.peripheral("GCLK").channel_hz(self.GCLK_ID[self.NAME])
        if not hz:
            return None
        clk_adc = hz / (2 << ((self.value(CTRLA) >> 8) & 7))
        sampctrl = self.value(SAMPCTRL)
        sampling = 4 if sampctrl & SAMPCTRL_OFFCOMP else (sampctrl & 0x3F) + 1
        return (sampling + self.bits()) * self.samples() * 1e9 / clk_adc

    def _start(self):
        self.busy = True
        ns = self.conversion_ns()
        if ns is None:       # busy for ever, as the chip
            self._once("clock", "START with no GCLK_ADC: the conversion never ends")
            return
        self._due = self.mcu.at(ns, self._done)

    def _done(self):
        self._due = None
        self.busy = False
        self.conversions += 1
        self._check_calib()
        result = self.code()
        overrun = INTFLAG_OVERRUN if self.flags & INTFLAG_RESRDY else 0
        self.result = result
        self._flag(set_=INTFLAG_RESRDY | overrun | self._window(result))
        if self.value(CTRLB) & CTRLB_FREERUN and self.enabled:
            self._start()

    def _window(self, result):
        mode = (self.value(CTRLB) >> 8) & 7
        lo, hi = self.value(WINLT), self.value(WINUT)
        inside = {1: result > lo, 2: result < hi, 3: lo < result < hi, 4: not lo < result < hi}
        return INTFLAG_WINMON if inside.get(mode, False) else 0

    def _check_calib(self):
        word = int.from_bytes(self.mcu.mem_read(SW_CALIB, 4), "little")
        comp, refbuf, r2r = fuses(word, self.NAME)
        want = comp | r2r << 4 | refbuf << 8
        if self.value(CALIB) != want:
            self._once("calib", "converting with CALIB 0x%03X, not the NVM calibration row's 0x%03X"
                       % (self.value(CALIB), want))

    def code(self):
        """RESULT for the inputs as they are now: the samples, averaged, corrected and aligned."""
        n = self.samples()
        raw = sum(self.sample() for _ in range(n))
        avgctrl = self.value(AVGCTRL)
        if n > 1:
            raw >>= max(0, (avgctrl & 0xF) - 4) + ((avgctrl >> 4) & 7)
        bits = 16 if n > 1 else self.bits()
        ctrlb = self.value(CTRLB)
        if ctrlb & CTRLB_CORREN:
            offset = self.value(OFFSETCORR) & 0xFFF
            offset -= 0x1000 if offset & 0x800 else 0
            raw = (raw - offset) * (self.value(GAINCORR) & 0xFFF) // 2048
            raw = max(0, min(raw, (1 << bits) - 1))
        if ctrlb & CTRLB_LEFTADJ and bits < 16:
            raw <<= 16 - bits
        return raw & 0xFFFF

    def sample(self):
        """One sample at RESSEL's resolution (12 bits in averaging mode)."""
        inputctrl = self.value(INPUTCTRL)
        vref = self.reference()
        vpos = self.volts(inputctrl & 0x1F)
        bits = self.bits()
        if inputctrl & INPUTCTRL_DIFFMODE:
            full = 1 << (bits - 1)
            neg = (inputctrl >> 8) & 0x1F
            code = round((vpos - (0.0 if neg == MUX_GND else self.volts(neg))) / vref * full)
            return max(-full, min(code, full - 1)) & ((1 << bits) - 1)
        full = 1 << bits
        return max(0, min(round(vpos / vref * full), full - 1))

    def reference(self):
        refsel = self.value(REFCTRL) & 0xF
        fixed = {REFSEL_INTREF: BANDGAP, REFSEL_INTVCC0: VDDANA / 2, REFSEL_INTVCC1: VDDANA}
        volts = fixed.get(refsel, self.arefs.get(refsel))
        if not volts:
            self._once(("ref", refsel), "REFSEL %d has no voltage on this board: taken as VDDANA" % refsel)
            return VDDANA
        return volts

    def volts(self, mux):
        """The voltage at MUXPOS/MUXNEG input ``mux``."""
        internal = {MUX_SCALEDCOREVCC: VDDCORE / 4, MUX_SCALEDVBAT: VDDANA / 4, MUX_SCALEDIOVCC: VDDANA / 4,
                    MUX_BANDGAP: BANDGAP}
        if mux in internal:
            return internal[mux]
        if mux not in self.sources:
            self._once(("in", mux), "input %d has no source on this board: 0 V" % mux)
            return 0.0
        pin, volts = self.sources[mux]
        if self.mcu.port.function(pin) != FUNCTION_B:
            self._once(("mux", pin), "AIN%d: %s is not on function B, the input floats: 0 V" % (mux, pin))
            return 0.0
        return float(volts())


# (class, NAME, BASE, IRQ lines): datasheet "Product Mapping" and "Interrupt Line Mapping" (SAMD51J19A)
INSTANCES = [
    (Adc, "ADC0", 0x43001C00, (118, 119)),
    (Adc, "ADC1", 0x43002000, (120, 121)),
]
