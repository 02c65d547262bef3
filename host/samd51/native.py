"""The block counter in C: Unicorn calls it for every basic block, so it must not cross into Python.

A Python block hook costs about 1 us a block (Unicorn's ctypes wrapper and ours), a block being ~6 cycles:
that capped the machine near 5 M cycles/s. This one adds the block's cycles to ``cycles`` (timing.py says
how: each flash block is decoded once, its fetches go through a model of the CMCC), stops the CPU when
``cycles`` reaches ``limit`` (or, while ``watch`` is set, when PRIMASK or BASEPRI changes: an interrupt held
off by them is taken right after CPSIE) and keeps a histogram of cycles by 256-byte region of flash. It is
built with the system's C compiler on first use into a cache directory; without a compiler Mcu falls back
to a Python hook that counts a cycle a halfword.
"""

import ctypes
import hashlib
import os
import subprocess
import tempfile

from unicorn import arm_const as A

SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef int (*stop_fn)(void *);
typedef int (*reg_read_fn)(void *, int, void *);
typedef int (*mem_read_fn)(void *, uint64_t, void *, uint64_t);
#define FLASH_END 0x80000u
#define SETS 64              /* the CMCC: 4 KB, 4 ways, 16-byte lines */
#define WAYS 4
#define MAX_LITS 6
#define MAX_BYTES 4096

struct block {               /* a decoded basic block of flash, kept: flash code does not change */
    uint32_t size, cost, nlit;
    uint32_t lit[MAX_LITS];  /* the lines its PC-relative loads and table branches read */
};
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
    mem_read_fn mem_read;
    uint64_t cache_on;   /* CMCC CTRL.CEN */
    uint64_t miss;       /* cycles a line costs from flash (a miss, or any fetch with the cache off) */
    uint64_t refill;     /* cycles a taken branch adds: the pipeline refills */
    uint64_t prev_end;   /* where the last block ended: a block starting elsewhere was branched to */
    uint64_t hits, misses, taken;
    uint32_t tags[SETS * WAYS];   /* line + 1 (0: empty) */
    uint8_t next_way[SETS];       /* the way each set refills next */
    uint32_t *index;              /* flash halfword -> 1 + its block's number */
    struct block *blocks;
    uint64_t nblocks, cap;
};

static int ones(uint32_t v) { int n = 0; while (v) { n += v & 1; v >>= 1; } return n; }

static void lit(struct block *b, uint32_t addr) {
    uint32_t line = addr >> 4;
    if (addr < FLASH_END && b->nlit < MAX_LITS && (b->nlit == 0 || b->lit[b->nlit - 1] != line))
        b->lit[b->nlit++] = line;
}

/* The Cortex-M4's cycles (TRM table 3-1) with every fetch a hit; a taken branch's refill is added later. */
static void decode(const uint8_t *code, uint32_t addr, uint32_t size, struct block *b) {
    uint32_t i = 0, cost = 0;
    int after_ldst = 0;      /* neighbouring single loads and stores pipeline: the second costs 1 */
    b->size = size; b->nlit = 0;
    while (i + 1 < size) {
        uint32_t pc = addr + i, hw = code[i] | (code[i + 1] << 8), c = 1;
        int ldst = 0;
        if ((hw >> 11) >= 0x1D && i + 3 < size) {           /* 32-bit */
            uint32_t hw2 = code[i + 2] | (code[i + 3] << 8);
            if ((hw & 0xFE40) == 0xE800) {                  /* LDM/STM */
                c = 1 + ones(hw2 & 0xDFFF);
            } else if ((hw & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) {   /* TBB/TBH */
                c = 2;
                if ((hw & 0xF) == 15) lit(b, pc + 4);
            } else if ((hw & 0xFE40) == 0xE840) {           /* LDRD/STRD, exclusives */
                c = 3;
            } else if ((hw & 0xFE00) == 0xF800) {           /* single load/store */
                c = after_ldst ? 1 : 2; ldst = 1;
                if ((hw & 0xFF7F) == 0xF85F) {              /* LDR literal */
                    uint32_t base = (pc + 4) & ~3u, imm = hw2 & 0xFFF;
                    lit(b, (hw & 0x80) ? base + imm : base - imm);
                }
            } else if ((hw & 0xFF80) == 0xFB80) {           /* long multiply, divide */
                uint32_t op1 = (hw >> 4) & 7;
                c = ((op1 == 1 || op1 == 3) && ((hw2 >> 4) & 0xF) == 0xF) ? 7 : 1;  /* SDIV/UDIV 2-12 */
            } else if ((hw & 0xFF80) == 0xFB00) {           /* MUL 1, MLA/MLS 2 */
                c = ((hw2 >> 12) & 0xF) == 0xF ? 1 : 2;
            } else if ((hw & 0xFF30) == 0xED10 || (hw & 0xFF30) == 0xED00) {   /* VLDR, VSTR */
                c = 2;
                if ((hw & 0xFF3F) == 0xED1F) {
                    uint32_t base = (pc + 4) & ~3u, imm = (hw2 & 0xFF) << 2;
                    lit(b, (hw & 0x80) ? base + imm : base - imm);
                }
            } else if ((hw & 0xFE00) == 0xEC00 && (hw & 0x0180) != 0 && (hw2 & 0x0E00) == 0x0A00) {
                c = 1 + ((hw2 & 0xFF) >> ((hw2 & 0x100) ? 1 : 0));   /* VLDM/VSTM/VPUSH/VPOP: 1+N words */
            } else if ((hw & 0xFFB0) == 0xEE80 && (hw2 & 0x0E50) == 0x0A00) {
                c = 14;                                     /* VDIV */
            } else if ((hw & 0xFFBF) == 0xEEB1 && (hw2 & 0x0ED0) == 0x0AC0) {
                c = 14;                                     /* VSQRT */
            }
            i += 4;
        } else {                                            /* 16-bit */
            if ((hw >> 11) == 0x09) {                       /* LDR literal */
                c = after_ldst ? 1 : 2; ldst = 1;
                lit(b, ((pc + 4) & ~3u) + ((hw & 0xFF) << 2));
            } else if ((hw >> 12) == 0x5 || (hw >> 13) == 0x3 || (hw >> 12) == 0x8 || (hw >> 12) == 0x9) {
                c = after_ldst ? 1 : 2; ldst = 1;           /* LDR/STR by register, immediate, SP */
            } else if ((hw & 0xF600) == 0xB400) {           /* PUSH/POP */
                c = 1 + ones(hw & 0x1FF);
            } else if ((hw >> 12) == 0xC) {                 /* LDM/STM */
                c = 1 + ones(hw & 0xFF);
            }
            i += 2;
        }
        after_ldst = ldst;
        cost += c;
    }
    b->cost = cost;
}

/* One line through the CMCC: 0 cycles on a hit, c->miss on a miss, which refills the set's next way in turn
   (round robin, as the datasheet's CMCC). */
static uint64_t fetch(struct counter *c, uint32_t line) {
    uint32_t set = line % SETS, *w = c->tags + set * WAYS, tag = line + 1;
    int k;
    if (!c->cache_on) return c->miss;
    for (k = 0; k < WAYS; k++)
        if (w[k] == tag) { c->hits++; return 0; }
    c->misses++;
    w[c->next_way[set]] = tag;
    c->next_way[set] = (uint8_t)((c->next_way[set] + 1) % WAYS);
    return c->miss;
}

static struct block *flash_block(void *uc, uint32_t address, uint32_t size, struct counter *c) {
    static uint8_t code[MAX_BYTES];
    uint32_t h = address >> 1;
    if (!c->index) c->index = calloc(FLASH_END / 2, sizeof(uint32_t));
    if (!c->index) return 0;
    if (c->index[h] && c->blocks[c->index[h] - 1].size == size) return &c->blocks[c->index[h] - 1];
    if (c->nblocks == c->cap) {
        uint64_t cap = c->cap ? 2 * c->cap : 4096;
        struct block *grown = realloc(c->blocks, cap * sizeof(struct block));
        if (!grown) return 0;
        c->blocks = grown; c->cap = cap;
    }
    if (size > MAX_BYTES || c->mem_read(uc, address, code, size) != 0) return 0;
    decode(code, address, size, &c->blocks[c->nblocks]);
    c->index[h] = (uint32_t)(++c->nblocks);
    return &c->blocks[c->nblocks - 1];
}

void samd51_forget(struct counter *c) {       /* flash was loaded anew: decode again */
    if (c->index) memset(c->index, 0, FLASH_END / 2 * sizeof(uint32_t));
    c->nblocks = 0;
    memset(c->tags, 0, sizeof c->tags);
    memset(c->next_way, 0, sizeof c->next_way);
}

void samd51_block(void *uc, uint64_t address, uint32_t size, struct counter *c) {
    uint64_t n;
    uint32_t k;
    struct block *b = 0, tmp;
    static uint8_t code[MAX_BYTES];
    if (address < FLASH_END) b = flash_block(uc, (uint32_t)address, size, c);
    if (!b && size <= MAX_BYTES && c->mem_read(uc, address, code, size) == 0) {
        decode(code, (uint32_t)address, size, &tmp);   /* RAM code: decoded each time, no flash fetch */
        b = &tmp;
    }
    n = b ? b->cost : size >> 1;
    if (address != c->prev_end) { n += c->refill; c->taken++; }
    c->prev_end = address + size;
    if (address < FLASH_END && size) {
        uint32_t line, last = (uint32_t)(address + size - 1) >> 4;
        for (line = (uint32_t)address >> 4; line <= last; line++) n += fetch(c, line);
    }
    if (b) for (k = 0; k < b->nlit; k++) n += fetch(c, b->lit[k]);
    c->cycles += n;
    if (c->hist) {
        uint64_t i = (address - c->hist_base) >> 8;
        c->hist[i < c->hist_len - 1 ? i : c->hist_len - 1] += n;
    }
    if (c->watch) {
        uint32_t p = 0, bp = 0;
        c->reg_read(uc, (int)c->primask_id, &p);
        c->reg_read(uc, (int)c->basepri_id, &bp);
        if (p != c->primask || bp != c->basepri) {
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


class Block(ctypes.Structure):
    _fields_ = [("size", ctypes.c_uint32), ("cost", ctypes.c_uint32), ("nlit", ctypes.c_uint32),
                ("lit", ctypes.c_uint32 * 6)]


class Counter(ctypes.Structure):
    _fields_ = [("cycles", ctypes.c_uint64), ("limit", ctypes.c_uint64), ("stop", ctypes.c_void_p),
                ("reg_read", ctypes.c_void_p), ("watch", ctypes.c_uint64), ("primask", ctypes.c_uint64),
                ("basepri", ctypes.c_uint64), ("primask_id", ctypes.c_uint64),
                ("basepri_id", ctypes.c_uint64),
                ("hist", ctypes.POINTER(ctypes.c_uint64)), ("hist_base", ctypes.c_uint64),
                ("hist_len", ctypes.c_uint64), ("mem_read", ctypes.c_void_p), ("cache_on", ctypes.c_uint64),
                ("miss", ctypes.c_uint64), ("refill", ctypes.c_uint64), ("prev_end", ctypes.c_uint64),
                ("hits", ctypes.c_uint64), ("misses", ctypes.c_uint64), ("taken", ctypes.c_uint64),
                ("tags", ctypes.c_uint32 * (64 * 4)), ("next_way", ctypes.c_uint8 * 64),
                ("index", ctypes.c_void_p),
                ("blocks", ctypes.POINTER(Block)), ("nblocks", ctypes.c_uint64), ("cap", ctypes.c_uint64)]


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
        self.counter.mem_read = ctypes.cast(ucmod.uclib.uc_mem_read, ctypes.c_void_p)
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

    def forget(self):
        """Flash was loaded anew: its blocks are decoded again and the cache starts empty."""
        self.lib.samd51_forget(ctypes.byref(self.counter))

    def histogram(self):
        """{region start: cycles} for the flash regions that ran, and None for everything outside flash."""
        if self.hist is None:
            return {}
        out = {HIST_BASE + 256 * i: n for i, n in enumerate(self.hist[:HIST_LEN - 1]) if n}
        if self.hist[HIST_LEN - 1]:
            out[None] = self.hist[HIST_LEN - 1]
        return out
