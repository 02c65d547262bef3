"""DMAC: the SAMD51's DMA controller, as samd-peripherals' shared DMA (samd/dma.c, sam_d5x_e5x/dma.c) and
CircuitPython's audio_dma.c use it.

Descriptors live in RAM: channel n's first one at BASEADDR + 16n (BTCTRL, BTCNT, SRCADDR, DSTADDR, DESCADDR;
an incrementing address is the block's END address), its write-back copy at WRBADDR + 16n.  A channel with a
peripheral trigger (CHCTRLA.TRIGSRC) moves when that peripheral calls ``trigger(trigsrc)``: one burst, one
block or the whole transaction, as CHCTRLA.TRIGACT says.  A trigger that finds no channel waiting is held, as
the peripheral's request line would be, and serves the next channel enabled on it.  Software triggers
(SWTRIGCTRL) act at once.  Beats go through ``mcu.mem_read``/``mem_write``, so a beat to SERCOM DATA is that
SERCOM's register write; the SERCOM paces the transfer by triggering again when it is ready.

Not modelled: CRC, priorities and arbitration (channels run one at a time, in the order triggered), event
inputs.  Event outputs: ``on_event(fn)`` hears fn(channel) at the end of a block whose BTCTRL.EVOSEL is set
(audio_dma's block event).
"""

import struct

from . import Registers

CTRL = 0x00
CRCCTRL = 0x02
CRCDATAIN = 0x04
CRCCHKSUM = 0x08
CRCSTATUS = 0x0C
DBGCTRL = 0x0D
SWTRIGCTRL = 0x10
PRICTRL0 = 0x14
INTPEND = 0x20
INTSTATUS = 0x24
BUSYCH = 0x28
PENDCH = 0x2C
ACTIVE = 0x30
BASEADDR = 0x34
WRBADDR = 0x38
CHANNEL = 0x40  # channel n's registers at CHANNEL + 16n
CHCTRLA = 0x00
CHCTRLB = 0x04
CHPRILVL = 0x05
CHEVCTRL = 0x06
CHEVCTRL_EVOE = 1 << 7
CHINTENCLR = 0x0C
CHINTENSET = 0x0D
CHINTFLAG = 0x0E
CHSTATUS = 0x0F

CTRL_SWRST = 1 << 0
CTRL_DMAENABLE = 1 << 1
CHCTRLA_SWRST = 1 << 0
CHCTRLA_ENABLE = 1 << 1
TRIGACT_BLOCK, TRIGACT_BURST, TRIGACT_TRANSACTION = 0, 2, 3
CHCTRLB_CMD_SUSPEND, CHCTRLB_CMD_RESUME = 1, 2
CHINTFLAG_TERR, CHINTFLAG_TCMPL, CHINTFLAG_SUSP = 1 << 0, 1 << 1, 1 << 2
CHSTATUS_PEND, CHSTATUS_BUSY, CHSTATUS_FERR = 1 << 0, 1 << 1, 1 << 2
BTCTRL_VALID = 1 << 0
BTCTRL_SRCINC = 1 << 10
BTCTRL_DSTINC = 1 << 11
BTCTRL_STEPSEL_SRC = 1 << 12
BLOCKACT_INT, BLOCKACT_SUSPEND, BLOCKACT_BOTH = 1, 2, 3
CHANNELS = 32
FETCH_NS = 100  # ENABLE to the first descriptor fetched (a few AHB clocks)


class Channel:
    """One channel's registers and the block it is moving."""

    def __init__(self, n):
        self.n = n
        self.reset()

    def reset(self):
        self.ctrla = 0
        self.prilvl = 0
        self.evctrl = 0
        self.inten = 0
        self.intflag = 0
        self.status = 0
        self.desc = None      # [btctrl, btcnt, srcaddr, dstaddr, descaddr] being moved
        self.beats_left = 0
        self.src = self.dst = 0
        self.suspended = False
        self.starting = None  # the scheduled descriptor fetch after ENABLE

    @property
    def enabled(self):
        return bool(self.ctrla & CHCTRLA_ENABLE)

    @property
    def trigsrc(self):
        return (self.ctrla >> 8) & 0x7F

    @property
    def trigact(self):
        return (self.ctrla >> 20) & 3

    @property
    def burstlen(self):
        return ((self.ctrla >> 24) & 0xF) + 1


class Transfers:
    """The moving part of the DMAC, which it owns: requests, trigger actions, beats, descriptor fetch,
    write-back, block ends."""

    def __init__(self, dmac):
        self.dmac = dmac
        self.mcu = dmac.mcu
        self.listeners = []
        self.stats = {"beats": 0, "blocks": 0, "triggers": 0, "held": 0, "block_moves": 0}
        self.sinks = {}      # register address -> its peripheral, or None for memory
        self.reset()

    def reset(self):
        self.held = {}       # trigsrc -> requests that found no channel
        self.queue = []      # triggers that arrived during a beat, served after it
        self.moving = False

    def trigger(self, trigsrc):
        self.stats["triggers"] += 1
        self.queue.append(trigsrc)
        return self.drain()

    def waiting_channel(self, trigsrc):
        for c in self.dmac.ch:
            if c.enabled and c.desc is not None and c.trigsrc == trigsrc and not c.suspended:
                return c
        return None

    def pending_action(self, c):
        if c.trigsrc and self.held.pop(c.trigsrc, False) and not c.suspended:
            self.start_action(c)

    def start_action(self, c):
        self.queue.append(c)
        return self.drain()

    def drain(self):
        """Serve the queued requests (trigger numbers, or channels for a software trigger) in order.

        A request that a beat's own register write raises is queued and served by this same loop, so a
        paced transfer never nests a level a beat.
        """
        if self.moving:
            return 0
        moved = 0
        self.moving = True
        try:
            while self.queue:
                item = self.queue.pop(0)
                c = self.waiting_channel(item) if isinstance(item, int) else item
                if c is None:
                    self.held[item] = True
                    self.stats["held"] += 1
                elif c.enabled and c.desc is not None and self.dmac.value(CTRL) & CTRL_DMAENABLE:
                    moved += self.action(c)
        finally:
            self.moving = False
        return moved

    def action(self, c):
        """One trigger's worth: a burst, a block or the whole transaction."""
        beats = {TRIGACT_BURST: c.burstlen, TRIGACT_BLOCK: c.beats_left}.get(c.trigact, 1 << 30)
        moved = 0
        c.status = (c.status | CHSTATUS_BUSY) & ~CHSTATUS_PEND
        if c.trigsrc and c.trigact == TRIGACT_BURST and not c.suspended:
            moved = self.move_block(c)
            if moved:
                self.stats["beats"] += moved
                self.stats["block_moves"] += 1
                if c.beats_left == 0:
                    self.block_done(c)
                return moved
        while beats > 0 and c.desc is not None and not c.suspended:
            n = min(beats, c.beats_left)
            self.move(c, n)
            moved += n
            beats -= n
            if c.beats_left == 0:
                self.block_done(c)
                if c.trigact == TRIGACT_BLOCK:
                    break
        self.stats["beats"] += moved
        return moved

    def move(self, c, n):
        btctrl = c.desc[0]
        size = 1 << ((btctrl >> 8) & 3)
        step = size << ((btctrl >> 13) & 7)
        sstep = (step if btctrl & BTCTRL_STEPSEL_SRC else size) if btctrl & BTCTRL_SRCINC else 0
        dstep = (size if btctrl & BTCTRL_STEPSEL_SRC else step) if btctrl & BTCTRL_DSTINC else 0
        mem_read, mem_write = self.mcu.mem_read, self.mcu.mem_write
        if sstep == size and dstep == size and n > 1:  # memory to memory: one copy
            mem_write(c.dst, mem_read(c.src, n * size))
        else:
            for _ in range(n):
                data = mem_read(c.src, size)
                mem_write(c.dst, data)
                c.src += sstep
                c.dst += dstep
            sstep = dstep = 0
        c.src += sstep * n
        c.dst += dstep * n
        c.beats_left -= n

    def move_block(self, c):
        """The rest of a paced byte block in one call to a peripheral that takes whole blocks
        (``dma_block(offset, data) -> bytes taken``, e.g. a SERCOM's TX): beat by beat, each beat's
        register write would raise the next request and this same loop would serve it at once, with no CPU
        in between, so the peripheral sees the same bytes at the same time. 0: go beat by beat."""
        btctrl = c.desc[0]
        byte_beats = not btctrl & (3 << 8)
        src_step_1 = btctrl & BTCTRL_SRCINC and not (btctrl & BTCTRL_STEPSEL_SRC and (btctrl >> 13) & 7)
        if not byte_beats or not src_step_1 or btctrl & BTCTRL_DSTINC or c.src >= 0x40000000:
            return 0
        owner = self.block_sink(c.dst)
        if owner is None:
            return 0
        taken = owner.dma_block(c.dst - owner.BASE, self.mcu.mem_read(c.src, c.beats_left))
        c.src += taken
        c.beats_left -= taken
        return taken

    def block_sink(self, addr):
        """The peripheral owning a register address, or None for memory (kept per address)."""
        sinks = self.sinks
        if addr not in sinks:
            sinks[addr] = self.mcu.bus.owner(addr) if self.mcu.bus.decodes(addr) else None
        return sinks[addr]

    def fetch(self, c, addr):
        """Load a descriptor into the channel (and its write-back copy); an invalid one is a fetch error."""
        btctrl, btcnt, src, dst, nxt = struct.unpack("<HHIII", self.mcu.mem_read(addr, 16))
        if not btctrl & BTCTRL_VALID:
            c.desc = None
            c.status |= CHSTATUS_FERR
            c.intflag |= CHINTFLAG_TERR
            c.ctrla &= ~CHCTRLA_ENABLE
            self.dmac.irq_line(c)
            return
        c.desc = [btctrl, btcnt, src, dst, nxt]
        c.beats_left = btcnt
        step = (1 << ((btctrl >> 8) & 3))
        big = step << ((btctrl >> 13) & 7)
        sstep = (big if btctrl & BTCTRL_STEPSEL_SRC else step) if btctrl & BTCTRL_SRCINC else 0
        dstep = (step if btctrl & BTCTRL_STEPSEL_SRC else big) if btctrl & BTCTRL_DSTINC else 0
        c.src = src - sstep * btcnt  # the descriptor holds the end address of an incrementing side
        c.dst = dst - dstep * btcnt
        self.write_back(c)

    def write_back(self, c):
        wrbaddr = self.dmac.value(WRBADDR)
        if wrbaddr and c.desc is not None:
            d = c.desc
            copy = struct.pack("<HHIII", d[0], c.beats_left, d[2], d[3], d[4])
            self.mcu.mem_write(wrbaddr + 16 * c.n, copy)

    def block_done(self, c):
        btctrl, nxt = c.desc[0], c.desc[4]
        blockact = (btctrl >> 3) & 3
        self.stats["blocks"] += 1
        if btctrl & (3 << 1) and self.listeners:
            for fn in self.listeners:
                fn(c.n)
        if blockact in (BLOCKACT_INT, BLOCKACT_BOTH) or nxt == 0:
            c.intflag |= CHINTFLAG_TCMPL
        if blockact in (BLOCKACT_SUSPEND, BLOCKACT_BOTH):
            c.suspended = True
            c.intflag |= CHINTFLAG_SUSP
        self.write_back(c)
        if nxt == 0:  # the transaction's last block: the channel disables itself
            c.desc = None
            c.ctrla &= ~CHCTRLA_ENABLE
            c.status &= ~CHSTATUS_BUSY
        else:
            self.fetch(c, nxt)
        self.dmac.irq_line(c)

    def begin(self, c):
        """The first descriptor, fetched a few clocks after ENABLE."""
        c.starting = None
        if c.enabled and c.desc is None:
            self.fetch(c, self.dmac.value(BASEADDR) + 16 * c.n)
            if c.desc is not None:
                self.pending_action(c)



GLOBAL_REGS = {CTRL: 2, CRCCTRL: 2, CRCDATAIN: 4, CRCCHKSUM: 4, CRCSTATUS: 1, DBGCTRL: 1, SWTRIGCTRL: 4,
               PRICTRL0: 4, INTPEND: 2, INTSTATUS: 4, BUSYCH: 4, PENDCH: 4, ACTIVE: 4, BASEADDR: 4,
               WRBADDR: 4}
CHANNEL_REGS = {CHCTRLA: 4, CHCTRLB: 1, CHPRILVL: 1, CHEVCTRL: 1, CHINTENCLR: 1, CHINTENSET: 1, CHINTFLAG: 1,
                CHSTATUS: 1}


class Dmac(Registers):
    NAME = "DMAC"
    BASE = 0x4100A000
    SIZE = CHANNEL + 16 * CHANNELS
    IRQS = (31, 32, 33, 34, 35)  # DMAC_0..3: channels 0..3; DMAC_4: channels 4..31
    REGS = {**GLOBAL_REGS,
            **{CHANNEL + 16 * n + off: w for n in range(CHANNELS) for off, w in CHANNEL_REGS.items()}}

    def __init__(self, mcu, *args, **kw):
        self.ch = [Channel(n) for n in range(CHANNELS)]
        self.transfers = None
        super().__init__(mcu, *args, **kw)
        self.transfers = Transfers(self)

    def reset(self):
        super().reset()
        self.intpend_id = 0
        if self.transfers is not None:
            self.transfers.reset()
        for c in self.ch:
            if c.starting is not None:
                self.mcu.cancel(c.starting)
            c.reset()

    # -- what the peripherals ask -------------------------------------------------------------------------
    def trigger(self, trigsrc):
        """A peripheral's DMA request (datasheet TRIGSRC numbering); returns the beats moved for it now."""
        return self.transfers.trigger(trigsrc)

    def untrigger(self, trigsrc):
        """The peripheral's request went away before a channel served it (e.g. the CPU wrote DATA itself)."""
        self.transfers.held.pop(trigsrc, None)

    def waiting(self, trigsrc):
        return self.transfers.waiting_channel(trigsrc) is not None

    def listens(self, trigsrc):
        """A channel is enabled on ``trigsrc`` (waiting, or still fetching its first descriptor)."""
        return any(c.enabled and c.trigsrc == trigsrc for c in self.ch)

    @property
    def moving(self):
        """A transfer is under way: a register access now is one of its beats."""
        return self.transfers.moving

    def on_event(self, fn):
        """``fn(channel)`` at each block's end (EVSYS takes those of channels with CHEVCTRL.EVOE)."""
        self.transfers.listeners.append(fn)

    def event_output(self, n):
        """CHEVCTRL.EVOE of channel ``n``: its block events go out to EVSYS."""
        return bool(self.ch[n].evctrl & CHEVCTRL_EVOE)

    def report(self):
        return dict(self.transfers.stats)

    # -- registers ----------------------------------------------------------------------------------------
    def write(self, offset, size, value):
        super().write(offset, size, value)
        if CHANNEL <= offset < self.SIZE:
            self.channel_commit(self.ch[(offset - CHANNEL) >> 4])

    def read_reg(self, reg):
        if reg >= CHANNEL:
            return self.channel_read(self.ch[(reg - CHANNEL) >> 4], (reg - CHANNEL) & 15)
        if reg == INTPEND:
            return self.intpend()
        if reg == INTSTATUS:
            return self.mask(self.irq_bits)
        if reg == BUSYCH:
            return self.mask(lambda c: c.status & CHSTATUS_BUSY)
        if reg == PENDCH:
            return self.mask(lambda c: c.status & CHSTATUS_PEND)
        if reg == ACTIVE:
            return self.active()
        if reg == SWTRIGCTRL:
            return 0
        return super().read_reg(reg)

    def write_reg(self, reg, bits, mask):
        if reg >= CHANNEL:
            self.channel_write(self.ch[(reg - CHANNEL) >> 4], (reg - CHANNEL) & 15, bits, mask)
        elif reg == CTRL and bits & CTRL_SWRST:
            self.reset()
        elif reg == SWTRIGCTRL:
            for c in self.ch:
                if bits >> c.n & 1:
                    self.transfers.start_action(c)
        elif reg == INTPEND:
            self.write_intpend(bits)
        elif reg not in (INTSTATUS, BUSYCH, PENDCH, ACTIVE, CRCSTATUS):
            super().write_reg(reg, bits, mask)

    @staticmethod
    def channel_read(c, off):
        return {CHCTRLA: c.ctrla, CHPRILVL: c.prilvl, CHEVCTRL: c.evctrl, CHINTENCLR: c.inten,
                CHINTENSET: c.inten, CHINTFLAG: c.intflag, CHSTATUS: c.status}.get(off, 0)

    def channel_write(self, c, off, bits, mask):
        if off == CHCTRLA:
            c.ctrla = (c.ctrla & ~mask) | bits
        elif off == CHCTRLB:
            if bits & 3 == CHCTRLB_CMD_SUSPEND:
                c.suspended = True
                c.intflag |= CHINTFLAG_SUSP
            elif bits & 3 == CHCTRLB_CMD_RESUME:
                c.suspended = False
                self.transfers.pending_action(c)
        elif off == CHPRILVL:
            c.prilvl = bits
        elif off == CHEVCTRL:
            c.evctrl = bits
        elif off == CHINTENCLR:
            c.inten &= ~bits
        elif off == CHINTENSET:
            c.inten |= bits
        elif off == CHINTFLAG:
            c.intflag &= ~bits
        self.irq_line(c)

    def channel_commit(self, c):
        """After a write to a channel: software reset, enable (fetch the first descriptor), disable."""
        if c.ctrla & CHCTRLA_SWRST:
            if c.starting is not None:
                self.mcu.cancel(c.starting)
            c.reset()
        elif c.enabled and c.desc is None and c.starting is None:
            # the descriptor fetch takes a few clocks: the driver clears CHINTFLAG right after ENABLE
            # (dma_enable_channel), before the channel can have finished anything
            c.starting = self.mcu.at(FETCH_NS, lambda: self.transfers.begin(c))
        elif not c.enabled and (c.desc is not None or c.starting is not None):
            if c.starting is not None:
                self.mcu.cancel(c.starting)
            c.starting = None
            self.transfers.write_back(c)
            c.desc = None
            c.beats_left = 0
            c.status &= ~(CHSTATUS_BUSY | CHSTATUS_PEND)
        self.irq_line(c)

    def mask(self, pred):
        return sum(1 << c.n for c in self.ch if pred(c))

    def irq_bits(self, c):
        return c.intflag & c.inten

    def intpend(self):
        pending = [c for c in self.ch if self.irq_bits(c)]
        c = pending[0] if pending else self.ch[self.intpend_id]
        return c.n | ((c.intflag & 7) << 8) | ((c.status & CHSTATUS_FERR) << 11) | \
            ((c.status & CHSTATUS_BUSY) << 13) | ((c.status & CHSTATUS_PEND) << 15)

    def write_intpend(self, bits):
        self.intpend_id = bits & 0x1F
        c = self.ch[self.intpend_id]
        c.intflag &= ~((bits >> 8) & 7)
        self.irq_line(c)

    def active(self):
        busy = [c for c in self.ch if c.status & CHSTATUS_BUSY]
        if not busy:
            return 0
        c = busy[0]
        return (1 << 15) | (c.n << 8) | ((c.beats_left & 0xFFFF) << 16)

    def irq_line(self, c):
        line = min(c.n, 4)
        group = self.ch[line: line + 1] if line < 4 else self.ch[4:]
        if any(self.irq_bits(x) for x in group):
            self.mcu.set_pending(self.IRQS[line])
        else:
            self.mcu.clear_pending(self.IRQS[line])
