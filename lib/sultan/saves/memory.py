# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""A byte region in RAM, for the host: the tests, the benchmarks and ``sultan_host.filesave``
(which keeps a file's bytes in one).  Plain MicroPython too (the tests run the saves on the
MicroPython VM), but never on a board: the build leaves it out (``HOST_ONLY_FILES``), as a
board's saves live in its NVM (``sultan.saves.nvm``).
"""

from sultan.saves.record import SLOT_MAX


class MemoryRegion:
    """A byte region in RAM: ``size`` bytes of ``fill`` (an erased region), or a copy of ``data``."""

    def __init__(self, size=2 * SLOT_MAX, fill=0xFF, data=None):
        if data is not None:  # bytes found somewhere: whatever they are, they are not "fresh"
            self.data = bytearray(data)
            self.fresh = False
        else:
            self.data = bytearray(size)
            for i in range(size):
                self.data[i] = fill
            self.fresh = True  # never held a save: an empty region is not "damaged"

    def __len__(self):
        return len(self.data)

    def read(self, offset, n):
        return memoryview(self.data)[offset:offset + n]  # a view: no copy (read at once, never kept)

    def write(self, offset, data):
        self.data[offset:offset + len(data)] = data
        self.fresh = False
