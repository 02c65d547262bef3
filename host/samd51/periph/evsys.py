"""EVSYS: event channels from a generator (a TC overflow, a DMAC block...) to users (the DAC's START...).

audioio needs two paths: an asynchronous channel from the sample-rate TC's overflow to DAC START0, and (for
double-buffered samples) a synchronous channel from a DMAC channel's block event whose EVD interrupt refills
the buffer. Generators call ``event(gen)``; users register with ``add_user(user, fn, quiet=None)``.
``quiet(gen)`` tells a generator that none of its events would change anything now (no interrupt enabled,
every user's ``quiet()`` true), so it may stop sending them; ``add_generator(gen, wake)`` is how it hears that
this may have changed (a channel or user written, or a user calling ``user_active``).
"""

from . import Registers

CTRLA = 0x000
SWEVT = 0x004
PRICTRL = 0x008
INTPEND = 0x010
INTSTATUS = 0x014
BUSYCH = 0x018
READYUSR = 0x01C
CHANNEL = 0x020          # channel n at CHANNEL + 8n: CHANNEL (4), CHINTENCLR, CHINTENSET, CHINTFLAG, CHSTATUS
CHINTENCLR = 0x024
CHINTENSET = 0x025
CHINTFLAG = 0x026
CHSTATUS = 0x027
USER = 0x120             # user m at USER + 4m: the channel number + 1 (0: none)

CHANNELS = 32
SYNC_CHANNELS = 12       # channels 0..11 have a synchronous path and interrupts
USERS = 67
EVGEN_MASK = 0x7F
PATH_SHIFT = 24
PATH_ASYNC = 2
CTRLA_SWRST = 1
OVR, EVD = 1 << 0, 1 << 1
GEN_DMAC_CH0 = 34        # EVSYS_ID_GEN_DMAC_CH_0 (channels 0..3 only)


CHANNEL_REGS = {0: 4, CHINTENCLR - CHANNEL: 1, CHINTENSET - CHANNEL: 1, CHINTFLAG - CHANNEL: 1,
                CHSTATUS - CHANNEL: 1}


class Evsys(Registers):
    NAME = "EVSYS"
    BASE = 0x4100E000
    SIZE = USER + 4 * USERS  # the register map; past it in the 8 KB slot the bus answers (Bus.unimplemented)
    IRQS = (36, 37, 38, 39, 40)      # EVSYS_0..3 (channels 0..3), EVSYS_4 (channels 4..11)
    REGS = {CTRLA: 1, SWEVT: 4, PRICTRL: 1, INTPEND: 2, INTSTATUS: 4, BUSYCH: 4, READYUSR: 4,
            **{CHANNEL + 8 * n + off: w for n in range(CHANNELS) for off, w in CHANNEL_REGS.items()},
            **{USER + 4 * m: 4 for m in range(USERS)}}

    def __init__(self, mcu, name=None, base=None, irqs=None):
        self.users = {}              # user number -> (fn, quiet fn or None)
        self.generators = {}         # generator number -> wake fn
        self.events = 0
        self._dmac_hooked = False
        super().__init__(mcu, name, base, irqs)

    def reset(self):
        super().reset()
        self.channel = [0] * CHANNELS
        self.inten = [0] * CHANNELS
        self.flag = [0] * CHANNELS
        self.user = [0] * USERS
        self._routes = None          # generator -> [channel, ...], rebuilt after a write

    # -- the other models' side ---------------------------------------------------------------------------
    def add_user(self, user, fn, quiet=None):
        self.users[user] = (fn, quiet)

    def add_generator(self, gen, wake):
        self.generators[gen] = wake

    def event(self, gen):
        """Generator ``gen`` fired: each channel on it passes the event to its users (and its interrupt)."""
        for n, users in self.routes().get(gen, ()):
            self.events += 1
            self._deliver(n, users)

    def quiet(self, gen):
        for n, users in self.routes().get(gen, ()):
            if self.inten[n] & EVD:
                return False
            for m in users:
                fn, quiet = self.users.get(m, (None, None))
                if fn is not None and (quiet is None or not quiet()):
                    return False
        return True

    def user_active(self, user):
        """A user has work again (e.g. the DAC got a new DATABUF): wake the generator that feeds it."""
        ch = self.user[user] - 1 if user < USERS else -1
        if ch >= 0:
            wake = self.generators.get(self.channel[ch] & EVGEN_MASK)
            if wake is not None:
                wake()

    def routes(self):
        """generator -> [(channel, [user, ...]), ...], kept until the next register write."""
        if self._routes is None:
            routes = {}
            for n, value in enumerate(self.channel):
                if value & EVGEN_MASK:
                    routes.setdefault(value & EVGEN_MASK, []).append((n, self._users_of(n)))
            self._routes = routes
        return self._routes

    def _users_of(self, n):
        return [m for m, ch in enumerate(self.user) if ch == n + 1]

    def _deliver(self, n, users=None):
        for m in self._users_of(n) if users is None else users:
            entry = self.users.get(m)
            if entry is not None:
                entry[0]()
        if n < SYNC_CHANNELS and (self.channel[n] >> PATH_SHIFT) & 3 != PATH_ASYNC:
            self.flag[n] |= OVR if self.flag[n] & EVD else EVD
            self._irq(n)

    def _irq(self, n):
        line = self.IRQS[min(n, 4)]
        group = range(n, n + 1) if n < 4 else range(4, SYNC_CHANNELS)
        if any(self.flag[c] & self.inten[c] for c in group):
            self.mcu.set_pending(line)
        else:
            self.mcu.clear_pending(line)

    # -- registers ----------------------------------------------------------------------------------------
    def read_reg(self, reg):
        if CHANNEL <= reg < USER:
            n, k = divmod(reg - CHANNEL, 8)
            if k == 0:
                return self.channel[n]
            # CHINTENCLR and CHINTENSET read the enables; CHSTATUS says RDYUSR (delivery is immediate)
            return {CHINTENCLR - CHANNEL: self.inten[n], CHINTENSET - CHANNEL: self.inten[n],
                    CHINTFLAG - CHANNEL: self.flag[n]}.get(k, 0x01)
        if reg >= USER:
            return self.user[(reg - USER) // 4]
        if reg == INTSTATUS:
            return sum(1 << n for n in range(SYNC_CHANNELS) if self.flag[n] & self.inten[n])
        if reg == BUSYCH:
            return 0
        if reg == READYUSR:
            return 0xFFFFFFFF            # every channel's users are ready: delivery is immediate
        return super().read_reg(reg)

    def _hook_dmac(self):
        """The DMAC's block events (audio_dma's refill for double-buffered samples) as generators 34..37."""
        dmac = self.mcu.peripheral("DMAC")
        if self._dmac_hooked or dmac is None:
            return
        dmac.on_event(self._dmac_event)
        self._dmac_hooked = True

    def _dmac_event(self, ch):
        if ch < 4 and self.mcu.peripheral("DMAC").event_output(ch):
            self.event(GEN_DMAC_CH0 + ch)

    def write(self, offset, size, value):
        self._hook_dmac()
        super().write(offset, size, value)
        self._routes = None
        for wake in list(self.generators.values()):
            wake()

    def write_reg(self, reg, bits, mask):
        if CHANNEL <= reg < USER:
            self._write_channel(reg, bits, mask)
        elif reg >= USER:
            self.user[(reg - USER) // 4] = bits & 0x3F
        elif reg == CTRLA and bits & CTRLA_SWRST:
            self.reset()
        elif reg == SWEVT:
            for n in range(CHANNELS):
                if bits >> n & 1:
                    self._deliver(n)
        elif reg not in (INTSTATUS, BUSYCH, READYUSR):
            super().write_reg(reg, bits, mask)

    def _write_channel(self, reg, bits, mask):
        n, k = divmod(reg - CHANNEL, 8)
        if k == 0:
            self.channel[n] = (self.channel[n] & ~mask) | bits
        elif k == CHINTENCLR - CHANNEL:
            self.inten[n] &= ~bits
        elif k == CHINTENSET - CHANNEL:
            self.inten[n] |= bits & (OVR | EVD)
        elif k == CHINTFLAG - CHANNEL:
            self.flag[n] &= ~bits
        if n < SYNC_CHANNELS:
            self._irq(n)
