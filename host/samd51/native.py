"""The block counter in C: Unicorn calls it for every basic block, so it must not cross into Python.

A Python block hook costs about 1 us a block (Unicorn's ctypes wrapper and ours), a block being ~6 cycles:
that capped the machine near 5 M cycles/s. This one adds the block's halfwords to ``cycles``, stops the CPU
when ``cycles`` reaches ``limit`` (or, while ``watch`` is set, when PRIMASK or BASEPRI changes: an
interrupt held off by them is taken right after CPSIE) and keeps a histogram of cycles by 256-byte
region of flash. It is built
with the system's C compiler on first use into a cache directory; without a compiler Mcu falls back to
the Python hook (same numbers, slower).
"""

import ctypes
import hashlib
import os
import subprocess
import tempfile

from unicorn import arm_const as A

SOURCE = r"""
#include <stdint.h>
typedef int (*stop_fn)(void *);
typedef int (*reg_read_fn)(void *, int, void *);
struct counter {
    uint64_t cycles;
    uint64_t limit;
    stop_fn stop;
    reg_read_fn reg_read;
    uint64_t watch;      /* an interrupt waits on PRIMASK/BASEPRI: stop as soon as either changes */
    uint64_t primask, basepri, primask_id, basepri_id;
    uint64_t *hist;      /* cycles by 256-byte region from hist_base; the last slot takes the rest */
    uint64_t hist_base;
    uint64_t hist_len;
};
void samd51_block(void *uc, uint64_t address, uint32_t size, struct counter *c) {
    uint64_t n = size >> 1;
    c->cycles += n;
    if (c->hist) {
        uint64_t i = (address - c->hist_base) >> 8;
        c->hist[i < c->hist_len - 1 ? i : c->hist_len - 1] += n;
    }
    if (c->watch) {
        uint32_t p = 0, b = 0;
        c->reg_read(uc, (int)c->primask_id, &p);
        c->reg_read(uc, (int)c->basepri_id, &b);
        if (p != c->primask || b != c->basepri) {
            c->watch = 0;
            c->limit = 0;
        }
    }
    if (c->cycles >= c->limit) {
        c->limit = UINT64_MAX;   /* one stop a slice */
        c->stop(uc);
    }
}
"""

HIST_BASE = 0
HIST_LEN = 0x80000 // 256 + 1      # flash regions + one "elsewhere" slot
UC_HOOK_BLOCK = 8


class Counter(ctypes.Structure):
    _fields_ = [("cycles", ctypes.c_uint64), ("limit", ctypes.c_uint64), ("stop", ctypes.c_void_p),
                ("reg_read", ctypes.c_void_p), ("watch", ctypes.c_uint64), ("primask", ctypes.c_uint64),
                ("basepri", ctypes.c_uint64), ("primask_id", ctypes.c_uint64),
                ("basepri_id", ctypes.c_uint64),
                ("hist", ctypes.POINTER(ctypes.c_uint64)), ("hist_base", ctypes.c_uint64),
                ("hist_len", ctypes.c_uint64)]


def _cache_dir():
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "sultan-samd51")


def build():
    """The shared library's path, compiled if needed; raises OSError/CalledProcessError without a compiler."""
    digest = hashlib.sha256(SOURCE.encode()).hexdigest()[:16]
    out = os.path.join(_cache_dir(), "blockcount-%s.so" % digest)
    if os.path.exists(out):
        return out
    os.makedirs(_cache_dir(), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "blockcount.c")
        with open(src, "w") as f:
            f.write(SOURCE)
        part = os.path.join(tmp, "blockcount.so")
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", part, src],
                       check=True, capture_output=True)
        os.replace(part, out)   # atomic: a parallel build never sees half a file
    return out


class NativeCounter:
    """Installs the C block hook on ``uc``; ``counter`` is the live struct (cycles, limit)."""

    def __init__(self, uc, histogram=True):
        from unicorn.unicorn_py3 import unicorn as ucmod
        self.lib = ctypes.CDLL(build())
        self.counter = Counter()
        self.counter.limit = 2 ** 64 - 1
        self.counter.stop = ctypes.cast(ucmod.uclib.uc_emu_stop, ctypes.c_void_p)
        self.counter.reg_read = ctypes.cast(ucmod.uclib.uc_reg_read, ctypes.c_void_p)
        self.counter.primask_id, self.counter.basepri_id = A.UC_ARM_REG_PRIMASK, A.UC_ARM_REG_BASEPRI
        self.hist = (ctypes.c_uint64 * HIST_LEN)() if histogram else None
        if self.hist is not None:
            self.counter.hist = ctypes.cast(self.hist, ctypes.POINTER(ctypes.c_uint64))
            self.counter.hist_base, self.counter.hist_len = HIST_BASE, HIST_LEN
        self.handle = ctypes.c_size_t()
        fn = ctypes.cast(self.lib.samd51_block, ctypes.c_void_p)
        status = ucmod.uclib.uc_hook_add(uc._uch, ctypes.byref(self.handle), UC_HOOK_BLOCK, fn,
                                         ctypes.cast(ctypes.pointer(self.counter), ctypes.c_void_p),
                                         ctypes.c_uint64(1), ctypes.c_uint64(0))
        if status != 0:
            raise OSError("uc_hook_add failed: %d" % status)

    def histogram(self):
        """{region start: cycles} for the flash regions that ran, and None for everything outside flash."""
        if self.hist is None:
            return {}
        out = {HIST_BASE + 256 * i: n for i, n in enumerate(self.hist[:HIST_LEN - 1]) if n}
        if self.hist[HIST_LEN - 1]:
            out[None] = self.hist[HIST_LEN - 1]
        return out
