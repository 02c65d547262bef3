"""The lazy wire of a SERCOM: each character's wire times, and what DRE/TXC/RXC say at a given time.

A character written to DATA gets its times at once (it starts when the shifter is free and takes its bits /
baud), so a busy wait sees the true character times with no event per character.
"""

from collections import deque

DRE, TXC, RXC = 1 << 0, 1 << 1, 1 << 2   # INTFLAG (SPI and USART)
RX_LEVELS = 2                # the receive buffer's depth (two characters)
RX_KEEP = 8                  # received bytes kept before their time comes (more are surely lost)


class Wire:
    """The lazy wire: each character's wire times, and what DRE/TXC/RXC say at a given time."""

    def __init__(self):
        self.last_start = 0.0   # wire time (ns) the last written character left DATA for the shifter
        self.last_end = 0.0     # wire time it was all out
        self.txc_cleared = True
        self.rx = deque()       # (time it is in, byte) not yet read

    def send(self, now, char_ns):
        start = max(float(now), self.last_end)
        self.last_start, self.last_end = start, start + char_ns
        self.txc_cleared = False

    def flags(self, now):
        flags = DRE if self.last_start <= now else 0
        if not self.txc_cleared and self.last_end <= now:
            flags |= TXC
        if self.rx and self.rx[0][0] <= now:
            flags |= RXC
        return flags

    def clear_txc(self, now):
        if self.last_end <= now:
            self.txc_cleared = True

    def receive(self, at, byte):
        """A character coming in at ``at``; False when far more are unread than the buffer holds (lost)."""
        if len(self.rx) >= RX_KEEP:
            return False
        self.rx.append((at, byte))
        return True

    def pop(self, now, dma):
        """The oldest received byte once its time has come (at once for a DMA beat: the wire runs ahead)."""
        if self.rx and (dma or self.rx[0][0] <= now):
            return self.rx.popleft()[1]
        return None

    def overflowed(self, now):
        """Bytes past the receive buffer's two levels are lost: True if one was."""
        rx, lost = self.rx, False
        while len(rx) > RX_LEVELS and rx[RX_LEVELS][0] <= now:
            del rx[RX_LEVELS]
            lost = True
        return lost

    def next_due(self, now, inten):
        """When the next enabled flag turns on, or None."""
        due = [t for t, bit in ((self.last_start, DRE), (self.last_end, TXC)) if t > now and inten & bit]
        if self.rx and inten & RXC and self.rx[0][0] > now:
            due.append(self.rx[0][0])
        return min(due) if due else None
