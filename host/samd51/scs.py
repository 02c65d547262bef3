"""The System Control Space at 0xE000E000: NVIC, SysTick and SCB registers as software sees them."""

from .periph import Peripheral

# Offsets from 0xE000E000 (ARMv7-M ARM, B3.2 / B3.3 / B3.4)
ICTR = 0x004
SYST_CSR, SYST_RVR, SYST_CVR, SYST_CALIB = 0x010, 0x014, 0x018, 0x01C
ISER, ICER, ISPR, ICPR, IABR = 0x100, 0x180, 0x200, 0x280, 0x300
IPR, IPR_END = 0x400, 0x400 + 137
CPUID, ICSR, VTOR, AIRCR, SCR, CCR = 0xD00, 0xD04, 0xD08, 0xD0C, 0xD10, 0xD14
SHPR1, SHPR_END, SHCSR = 0xD18, 0xD24, 0xD24
CPACR, DHCSR, DEMCR, STIR = 0xD88, 0xDF0, 0xDFC, 0xF00
FPCCR, FPCAR, FPDSCR = 0xF34, 0xF38, 0xF3C
CFSR, BFAR, AFSR = 0xD28, 0xD38, 0xD3C    # CFSR, HFSR, DFSR, MMFAR, BFAR: the faults' (faults.py)

CPUID_M4 = 0x410FC241                   # Cortex-M4 r0p1
NMIPENDSET, PENDSVSET, PENDSVCLR = 1 << 31, 1 << 28, 1 << 27
PENDSTSET, PENDSTCLR, ISRPENDING = 1 << 26, 1 << 25, 1 << 22
RETTOBASE = 1 << 11
VECTKEY, SYSRESETREQ = 0x05FA, 1 << 2
EXC_NMI, EXC_PENDSV, EXC_SYSTICK, IRQ0 = 2, 14, 15, 16
# Registers that keep what software writes (the rest are computed or write-1-to-act)
PLAIN_RESET = {CCR: 0x200, CPACR: 0, SCR: 0, SHCSR: 0, DEMCR: 0, FPCCR: 0xC0000000, FPCAR: 0, FPDSCR: 0,
               DHCSR: 0, AFSR: 0}


class Scs(Peripheral):
    NAME = "SCS"
    BASE = None          # attached by Mcu, not by the periph scan
    SIZE = 0x1000

    def __init__(self, mcu, nvic, systick):
        super().__init__(mcu, base=0xE000E000)
        self.nvic, self.systick = nvic, systick
        self.plain = dict(PLAIN_RESET)

    def reset(self):
        super().reset()
        self.plain = dict(PLAIN_RESET)
        self.systick.reset()

    # -- reads ---------------------------------------------------------------------------------------------
    def read(self, offset, size):
        if IPR <= offset < IPR_END or SHPR1 <= offset < SHPR_END:
            return sum(self._prio_byte(offset + i) << (8 * i) for i in range(size))
        word = self.read_word(offset & ~3)
        if word is None:
            return super().read(offset, size)
        return (word >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def read_word(self, off):
        nvic = self.nvic
        if off in self.plain:
            return self.plain[off]
        if CFSR <= off <= BFAR:
            return nvic.faults.read(off)
        if ISER <= off < ICER or ICER <= off < ISPR:
            return self._bits(nvic.enabled, off & 0x7F)
        if ISPR <= off < IABR:
            return self._bits(nvic.pending, off & 0x7F)
        if IABR <= off < IABR + 0x20:
            return self._bits(nvic.active, off & 0x7F)
        simple = {ICTR: 4, CPUID: CPUID_M4, VTOR: nvic.vtor, AIRCR: 0xFA050000 | (nvic.prigroup << 8),
                  SYST_RVR: self.systick.rvr, SYST_CALIB: 0x40000000}
        if off in simple:
            return simple[off]
        if off == SYST_CSR:
            return self.systick.read_csr()
        if off == SYST_CVR:
            return self.systick.value()
        if off == ICSR:
            return self._icsr()
        return None

    @staticmethod
    def _bits(excs, word_offset):
        first = IRQ0 + 8 * word_offset  # 32 lines a word
        return sum(1 << (e - first) for e in excs if first <= e < first + 32)

    def _prio_byte(self, off):
        exc = IRQ0 + off - IPR if off >= IPR else 4 + off - SHPR1
        return self.nvic.prio.get(exc, 0)

    def _icsr(self):
        nvic = self.nvic
        value = nvic.active[-1] if nvic.active else 0
        if len(nvic.active) <= 1:
            value |= RETTOBASE
        best = nvic.best_pending()
        if best is not None:
            value |= (best & 0x1FF) << 12
        if any(e >= IRQ0 for e in nvic.pending):
            value |= ISRPENDING
        value |= PENDSVSET if EXC_PENDSV in nvic.pending else 0
        value |= PENDSTSET if EXC_SYSTICK in nvic.pending else 0
        value |= NMIPENDSET if EXC_NMI in nvic.pending else 0
        return value

    # -- writes --------------------------------------------------------------------------------------------
    def write(self, offset, size, value):
        if IPR <= offset < IPR_END or SHPR1 <= offset < SHPR_END:
            for i in range(size):
                off = offset + i
                exc = IRQ0 + off - IPR if off >= IPR else 4 + off - SHPR1
                self.nvic.prio[exc] = (value >> (8 * i)) & PRIO_MASK
            return
        off = offset & ~3
        shifted = (value << (8 * (offset & 3))) & 0xFFFFFFFF
        if off in self.plain:
            old = self.plain[off]
            mask = ((1 << (8 * size)) - 1) << (8 * (offset & 3))
            self.plain[off] = (old & ~mask) | shifted
        elif CFSR <= off <= BFAR:
            self.nvic.faults.write(off, shifted)
        elif not self._write_word(off, shifted):
            super().write(offset, size, value)

    def _write_word(self, off, value):
        nvic = self.nvic
        if ISER <= off < IABR:
            first = IRQ0 + 8 * (off & 0x7F)
            lines = [first + i for i in range(32) if value >> i & 1]
            if off < ICER:
                for exc in lines:
                    nvic.enabled.add(exc)
                    if exc in nvic.pending:
                        self.mcu.request_stop()
            elif off < ISPR:
                nvic.enabled.difference_update(lines)
            elif off < ICPR:
                for exc in lines:
                    nvic.set_pending(exc)
            else:
                nvic.pending.difference_update(lines)
            return True
        handler = {ICSR: self._write_icsr, VTOR: self._write_vtor, AIRCR: self._write_aircr,
                   SYST_CSR: self.systick.write_csr, SYST_RVR: self.systick.write_rvr,
                   SYST_CVR: lambda v: self.systick.write_cvr(), STIR: self._write_stir}.get(off)
        if handler is None:
            return False
        handler(value)
        return True

    def _write_icsr(self, value):
        nvic = self.nvic
        for bit, exc in ((PENDSVSET, EXC_PENDSV), (PENDSTSET, EXC_SYSTICK), (NMIPENDSET, EXC_NMI)):
            if value & bit:
                nvic.set_pending(exc)
        if value & PENDSVCLR:
            nvic.clear_pending(EXC_PENDSV)
        if value & PENDSTCLR:
            nvic.clear_pending(EXC_SYSTICK)

    def _write_vtor(self, value):
        self.nvic.vtor = value & 0xFFFFFF80

    def _write_aircr(self, value):
        if value >> 16 != VECTKEY:
            return   # writes without the key are ignored
        self.nvic.prigroup = (value >> 8) & 7
        if value & SYSRESETREQ:
            self.mcu.reset_requested()

    def _write_stir(self, value):
        self.nvic.set_pending(IRQ0 + (value & 0x1FF))


PRIO_MASK = 0xE0   # 3 implemented priority bits (SAMD51 __NVIC_PRIO_BITS)
