"""PORT (I/O pin controller, groups A and B), as the board's parts see it; an edge on a pin muxed to the EIC
goes on to it (eic.py).

Pins are named as on the datasheet, "PA01", "PB23". A part listens to an output with
``port.on_change(pin, fn)`` (``fn(level)`` when the pin's driven level changes; ``mcu.cycles`` is the time)
and drives an input with ``port.drive(pin, level)`` (``None`` releases it).
"""

from . import Registers

# PORT group registers (offset within a group; group n at PORT + 0x80 * n)
DIR, DIRCLR, DIRSET, DIRTGL, OUT, OUTCLR, OUTSET, OUTTGL = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C
IN, CTRL, WRCONFIG, EVCTRL, PMUX, PINCFG = 0x20, 0x24, 0x28, 0x2C, 0x30, 0x40
GROUP_SIZE = 0x80
GROUPS = 4                   # the register map has four; the J19 bonds out A and B
PINCFG_PMUXEN, PINCFG_INEN, PINCFG_PULLEN = 0x1, 0x2, 0x4
_PORT_REGS = {DIR: 4, DIRCLR: 4, DIRSET: 4, DIRTGL: 4, OUT: 4, OUTCLR: 4, OUTSET: 4, OUTTGL: 4, IN: 4,
              CTRL: 4, WRCONFIG: 4, EVCTRL: 4, **{PMUX + i: 1 for i in range(16)},
              **{PINCFG + i: 1 for i in range(32)}}


def pin_number(name):
    """'PB23' -> 55 (32 a group)."""
    if len(name) < 3 or name[0] != "P" or name[1] not in "ABCD" or not name[2:].isdigit():
        raise ValueError("not a pin name: %r" % name)
    return 32 * "ABCD".index(name[1]) + int(name[2:])


def pin_name(number):
    return "P%s%02d" % ("ABCD"[number // 32], number % 32)


class Port(Registers):
    NAME, BASE, SIZE = "PORT", 0x41008000, 0x200
    REGS = {g * GROUP_SIZE + off: w for g in range(GROUPS) for off, w in _PORT_REGS.items()}

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.listeners = {}       # pin number -> [fn]: parts stay attached across a reset
        super().__init__(mcu, name, base, irqs)

    def reset(self):
        super().reset()
        self.dir = [0] * GROUPS
        self.out = [0] * GROUPS
        self.driven = {}          # pin number -> level an external part drives
        self.last_level = {}

    # -- the parts' side -------------------------------------------------------------------------------------
    def on_change(self, pin, fn):
        n = pin_number(pin) if isinstance(pin, str) else pin
        self.listeners.setdefault(n, []).append(fn)
        self.last_level[n] = self.output_level(n)

    def drive(self, pin, level):
        n = pin_number(pin) if isinstance(pin, str) else pin
        before = self.level(n)
        if level is None:
            self.driven.pop(n, None)
        else:
            self.driven[n] = 1 if level else 0
        to_eic = self.pincfg(n) & PINCFG_PMUXEN and self.function(n) == 0   # function A: EXTINT
        if to_eic and self.level(n) != before:
            self.mcu.peripheral("EIC").pin_edge(n, self.level(n))

    def level(self, pin):
        """The level on the pin: what the chip drives if an output, else the part's or the pull's."""
        n = pin_number(pin) if isinstance(pin, str) else pin
        g, bit = n // 32, 1 << (n % 32)
        if self.dir[g] & bit:
            return 1 if self.out[g] & bit else 0
        if n in self.driven:
            return self.driven[n]
        if self.pincfg(n) & PINCFG_PULLEN:
            return 1 if self.out[g] & bit else 0
        return 0

    def output_level(self, n):
        g, bit = n // 32, 1 << (n % 32)
        if self.dir[g] & bit and not self.pincfg(n) & PINCFG_PMUXEN:
            return 1 if self.out[g] & bit else 0
        return None

    def pincfg(self, n):
        return self.value(GROUP_SIZE * (n // 32) + PINCFG + n % 32)

    def function(self, pin):
        """The PMUX function (0 = A ... 13 = N) of a pin whose PMUXEN is set, else None."""
        n = pin_number(pin) if isinstance(pin, str) else pin
        if not self.pincfg(n) & PINCFG_PMUXEN:
            return None
        byte = self.value(GROUP_SIZE * (n // 32) + PMUX + (n % 32) // 2)
        return (byte >> 4) if n & 1 else (byte & 0xF)

    # -- registers -------------------------------------------------------------------------------------------
    def read_reg(self, reg):
        g, off = divmod(reg, GROUP_SIZE)
        if off in (DIR, DIRCLR, DIRSET, DIRTGL):
            return self.dir[g]
        if off in (OUT, OUTCLR, OUTSET, OUTTGL):
            return self.out[g]
        if off == IN:
            return sum(self.level(32 * g + i) << i for i in range(32))
        if off == WRCONFIG:
            return 0        # write-only
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        g, off = divmod(reg, GROUP_SIZE)
        if off < IN:
            self._write_dir_out(g, off, bits, mask)
        elif off == WRCONFIG:
            self._wrconfig(g, bits)
        else:
            super().write_reg(reg, bits, mask)
            if off >= PINCFG:
                self._notify(g)

    def _write_dir_out(self, g, off, bits, mask):
        regs = self.dir if off < OUT else self.out
        kind = off & 0xC    # 0 plain, 4 clear, 8 set, C toggle
        if kind == 0:
            regs[g] = (regs[g] & ~mask) | bits
        elif kind == 4:
            regs[g] &= ~bits
        elif kind == 8:
            regs[g] |= bits
        else:
            regs[g] ^= bits
        self._notify(g)

    def _wrconfig(self, g, value):
        pins = value & 0xFFFF
        first = 16 if value >> 31 else 0
        for i in range(16):
            if not pins >> i & 1:
                continue
            n = first + i
            if value & (1 << 30):   # WRPINCFG
                cfg = (value >> 16) & 0x47
                self.store(g * GROUP_SIZE + PINCFG + n, 1, cfg)
            if value & (1 << 28):   # WRPMUX
                reg = g * GROUP_SIZE + PMUX + n // 2
                old = self.value(reg)
                fn = (value >> 24) & 0xF
                self.store(reg, 1, (old & 0x0F) | (fn << 4) if n & 1 else (old & 0xF0) | fn)
        self._notify(g)

    def _notify(self, g):
        if not self.listeners:
            return
        for n, fns in self.listeners.items():
            if n // 32 != g:
                continue
            level = self.output_level(n)
            if level is not None and level != self.last_level.get(n):
                self.last_level[n] = level
                for fn in fns:
                    fn(level)
            elif level is None:
                self.last_level[n] = None
