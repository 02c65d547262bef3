"""``microcontroller.nvm`` as two CircuitPython ports write it, for the save figures and tests.

    nvm = Rp2040Nvm()                 # the Pico: one 4 KB sector
    nvm[0:n] = data                   # what the port does, at once; nvm.erases counts erases
    plan = nvm.plan(0, data)          # or: the flash operations that write would run, timed
    mem = cut(before, plan, t_ms, random.Random(1))   # the bytes a power cut at t_ms leaves

The RP2040 port (``ports/raspberrypi/common-hal/nvm/ByteArray.c``): a write whose bytes are
all still erased (0xFF) only programs the 256-byte pages it touches (each page programmed whole,
its other bytes as they are); any other write copies the 4 KB sector, erases it and programs all
16 pages back, in address order.  The SAMD51 port (ASF4's ``_flash_write``, the PyBadge): every
write erases the 8 KB block and programs its 16 pages of 512 bytes back, in address order.

A cut inside an operation leaves it part done as ``tools/emulate``'s flash chip does: each bit the
operation was changing has changed with the probability of its progress (an erase takes bits from
0 to 1, a program from 1 to 0).  Times: the W25Q16JV's typical 45 ms sector erase and 0.4 ms page
program (the Pico's flash, as ``tools/emulate`` models it); the SAMD5x datasheet's 1.5 ms page
write (typical) and 200 ms block erase (the only figure it gives, a maximum).
"""

ERASE = "erase"
PROGRAM = "program"


class PortNvm:
    """An NVM of ``size`` bytes (one erase unit), pages of ``page`` bytes, written as a port does."""

    size = 4096
    page = 256
    erase_ms = 45.0
    page_ms = 0.4
    every_write_erases = False

    def __init__(self, data=None):
        self.mem = bytearray(b"\xff" * self.size) if data is None else bytearray(data)
        self.erases = 0
        self.programs = 0
        self.writes = 0
        self.busy_ms = 0.0

    def __len__(self):
        return self.size

    def __getitem__(self, key):
        return bytearray(self.mem[key])

    def __setitem__(self, key, data):
        plan = self.plan(key.start, data)
        self.mem = apply(self.mem, plan)
        self.writes += 1
        self.erases += sum(1 for op in plan if op[0] == ERASE)
        self.programs += sum(1 for op in plan if op[0] == PROGRAM)
        self.busy_ms += busy_ms(plan)

    def plan(self, a, data):
        """The timed flash operations writing ``data`` at ``a`` runs: [(kind, addr, bytes, ms)]."""
        data = bytes(data)
        b = a + len(data)
        if not self.every_write_erases and self.mem[a:b].count(0xFF) == b - a:
            ops = []
            for p in range(a - a % self.page, b, self.page):
                page = bytearray(self.mem[p:p + self.page])
                lo = max(a, p)
                hi = min(b, p + self.page)
                page[lo - p:hi - p] = data[lo - a:hi - a]
                ops.append((PROGRAM, p, bytes(page), self.page_ms))
            return ops
        image = bytearray(self.mem)
        image[a:b] = data
        ops = [(ERASE, 0, None, self.erase_ms)]
        for p in range(0, self.size, self.page):
            ops.append((PROGRAM, p, bytes(image[p:p + self.page]), self.page_ms))
        return ops


class Rp2040Nvm(PortNvm):
    """The Pico's NVM: the 4 KB sector below CIRCUITPY; erased only by a write over unerased bytes."""


class Samd51Nvm(PortNvm):
    """The PyBadge's NVM: one 8 KB block, erased on every write."""

    size = 8192
    page = 512
    erase_ms = 200.0
    page_ms = 1.5
    every_write_erases = True


def busy_ms(plan):
    return sum(op[3] for op in plan)


def _erase(mem, addr, n, done, rand):
    for i in range(addr, addr + n):
        v = mem[i]
        if v != 0xFF:
            mem[i] = 0xFF if done >= 1 else v | _bits(~v & 0xFF, done, rand)


def _program(mem, addr, page, done, rand):
    for k, v in enumerate(page):
        m = mem[addr + k]
        change = m & ~v & 0xFF  # NOR programming only takes bits from 1 to 0
        if change:
            mem[addr + k] = m & ~(change if done >= 1 else _bits(change, done, rand)) & 0xFF


def _bits(bits, p, rand):
    """A seeded subset of ``bits``, each kept with probability ``p``."""
    out = 0
    b = 1
    while b < 0x100:
        if bits & b and rand.random() < p:
            out |= b
        b <<= 1
    return out


def apply(mem, plan, upto=None, rand=None):
    """The bytes ``mem`` holds after ``plan``, or after its first ``upto`` ms (a power cut then:
    the operation under way part done, seeded by ``rand``; those after it not begun)."""
    out = bytearray(mem)
    t = 0.0
    for kind, addr, page, ms in plan:
        done = 1.0 if upto is None else min(1.0, max(0.0, (upto - t) / ms))
        if done <= 0:
            break
        if kind == ERASE:
            _erase(out, addr, len(out), done, rand)
        else:
            _program(out, addr, page, done, rand)
        t += ms
    return out


def cut(mem, plan, at_ms, rand):
    """The bytes a power cut ``at_ms`` into ``plan`` (begun over ``mem``) leaves."""
    return apply(mem, plan, at_ms, rand)
