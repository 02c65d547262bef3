# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Saves in ``microcontroller.nvm`` on the device (no pins, no display).

    from sultan.saves.nvm import open_store
    store = open_store()          # never raises
    game = store.load(game)       # None: start a new game (store.message may say why)

The PyBadge's SAMD51 has 8 KB of NVM and its port erases the 8 KB block on
every write: there the two 1024-byte slots take the first 2 KB, and each write puts
its record in both (one slice, so one erase: no more flash time than one slot).  The Pico's
RP2040 has one 4 KB sector, and its port only programs a write whose bytes are
all still erased (0xFF), erasing the sector only otherwise: there the saves
are a log over the whole 4 KB (see ``sultan.saves.store.Slots``), erased
about once a game instead of at every write.  A smaller NVM gets smaller slots
(below a full game's 944 bytes a save keeps the statistics only); none at
all, or one too small even for the statistics, gives a store that keeps
everything in RAM and writes nothing.

The store writes only at checkpoints (see ``sultan.saves.store.Store``).
"""

from sultan.saves.record import SLOT_MAX, SLOT_MIN
from sultan.saves.store import Store


class NvmRegion:
    """``microcontroller.nvm`` (or any bytearray-like) from ``offset``, at most ``size`` bytes;
    ``erase_free``: writing its erased bytes costs no erase (the RP2040 port);
    ``every_write_erases``: every write erases the whole region first (the SAMD51 port)."""

    def __init__(self, nvm, offset=0, size=2 * SLOT_MAX, erase_free=False, every_write_erases=False):
        self.nvm = nvm
        self.offset = offset
        self.size = max(0, min(size, len(nvm) - offset))
        self.erase_free = erase_free
        self.every_write_erases = every_write_erases
        self.fresh = False  # erased flash (all 0xFF) is told from damage by the store itself

    def __len__(self):
        return self.size

    def read(self, offset, n):
        a = self.offset + offset
        return self.nvm[a:a + n]  # a bytearray already: one copy, not two

    def write(self, offset, data):
        a = self.offset + offset
        self.nvm[a:a + len(data)] = data  # one slice: one erase at most


def open_store(offset=0, max_pending=32, idle_ms=10000):
    """A Store over ``microcontroller.nvm`` from ``offset``, or a RAM-only one if the board has none
    big enough.  Called once, at power-on."""
    try:
        import microcontroller

        nvm = microcontroller.nvm
        n = len(nvm)
    except (ImportError, AttributeError, TypeError):  # no microcontroller, or its nvm None (no NVM)
        n = 0
    region = None
    if n - offset >= 2 * SLOT_MIN:
        from sys import platform

        log = platform[:3] == "RP2"  # "RP2040": the raspberrypi port (ports/raspberrypi/common-hal/nvm)
        # Elsewhere a write erases the block holding both slots (atmel-samd's flash_write: 8 KB on the
        # SAMD51); a record in both slots then costs nothing more, and keeps a cut erase from an older one.
        region = NvmRegion(nvm, offset, 4 * SLOT_MAX if log else 2 * SLOT_MAX, log, not log)
    return Store(region, max_pending, idle_ms)
