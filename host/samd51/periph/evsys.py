"""EVSYS: event channels from a generator (a TC overflow, a DMAC block...) to users (the DAC's START...).

audioio needs two paths: an asynchronous channel from the sample-rate TC's overflow to DAC START0, and (for
double-buffered samples) a synchronous channel from a DMAC channel's block event whose EVD interrupt refills
the buffer. Generators call ``event(gen)``; users register with ``add_user(user, fn, quiet=None)``.
``quiet(gen)`` tells a generator that none of its events would change anything now (no interrupt enabled,
every user's ``quiet()`` true), so it may stop sending them; ``add_generator(gen, wake)`` is how it hears that
this may have changed (a channel or user written, or a user calling ``user_active``).
"""

from . import Peripheral

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


class Evsys(Peripheral):
    NAME = "EVSYS"
    BASE = 0x4100E000
    SIZE = USER + 4 * USERS  # the register map; past it in the 8 KB slot the bus answers (Bus.unimplemented)
    IRQS = (36, 37, 38, 39, 40)      # EVSYS_0..3 (channels 0..3), EVSYS_4 (channels 4..11)

    def __init__(self, mcu, name=None, base=None, irqs=None):
        super().__init__(mcu, name, base, irqs)
        self.users = {}              # user number -> (fn, quiet fn or None)
        self.generators = {}         # generator number -> wake fn
        self.events = 0
        self._dmac_hooked = False
        self.reset()

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
    def read(self, offset, size):
        return sum(self._read_byte(offset + i) << (8 * i) for i in range(size))

    def _read_byte(self, o):
        if CHANNEL <= o < CHANNEL + 8 * CHANNELS:
            n, k = divmod(o - CHANNEL, 8)
            if k < 4:
                return (self.channel[n] >> (8 * k)) & 0xFF
            # CHINTENCLR, CHINTENSET, CHINTFLAG; CHSTATUS says RDYUSR (delivery is immediate)
            return (0, self.inten[n], self.inten[n], self.flag[n])[k - 4] if k < 7 else 0x01
        if USER <= o < USER + 4 * USERS:
            m, k = divmod(o - USER, 4)
            return self.user[m] if k == 0 else 0
        if INTSTATUS <= o < INTSTATUS + 4:
            bits = sum(1 << n for n in range(SYNC_CHANNELS) if self.flag[n] & self.inten[n])
            return (bits >> (8 * (o - INTSTATUS))) & 0xFF
        if BUSYCH <= o < BUSYCH + 4:
            return 0
        if READYUSR <= o < READYUSR + 4:
            return 0xFF                  # every channel's users are ready: delivery is immediate
        return self.stored(o, 1)

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
        for i in range(size):
            self._write_byte(offset + i, (value >> (8 * i)) & 0xFF)
        self._routes = None
        for wake in list(self.generators.values()):
            wake()

    def _write_byte(self, o, byte):
        if CHANNEL <= o < CHANNEL + 8 * CHANNELS:
            self._write_channel(o, byte)
        elif USER <= o < USER + 4 * USERS:
            m, k = divmod(o - USER, 4)
            if k == 0:
                self.user[m] = byte & 0x3F
        elif o == CTRLA and byte & CTRLA_SWRST:
            self.reset()
        elif SWEVT <= o < SWEVT + 4:
            for b in range(8):
                if byte & (1 << b):
                    self._deliver(8 * (o - SWEVT) + b)
        else:
            self.store(o, 1, byte)

    def _write_channel(self, o, byte):
        n, k = divmod(o - CHANNEL, 8)
        if k < 4:
            shift = 8 * k
            self.channel[n] = (self.channel[n] & ~(0xFF << shift)) | (byte << shift)
        elif k == 4:
            self.inten[n] &= ~byte
        elif k == 5:
            self.inten[n] |= byte & (OVR | EVD)
        elif k == 6:
            self.flag[n] &= ~byte
        if n < SYNC_CHANNELS:
            self._irq(n)
