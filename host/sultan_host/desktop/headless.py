"""A headless displayio display for tests and tools (host only, Blinka displayio).

``HeadlessDisplay(width, height)`` is a ``busdisplay.BusDisplay`` with no bus:
each refresh renders the dirty areas, exactly as a real display would be sent
them, into an RGB565 framebuffer that ``pixels()`` / ``image()`` read back.
It also records what each refresh sent (``last_areas``, ``refreshes``), which
``sultan_host.bench.screen`` turns into figures.

It draws as CircuitPython does, not as Blinka would: see ``blinka_adapter.AreaDisplay``, the one
place that reaches into Blinka.
"""

import numpy as np
from PIL import Image

from sultan_host.desktop.blinka_adapter import AreaDisplay


class HeadlessDisplay(AreaDisplay):
    """A display whose "panel" is a numpy framebuffer."""

    def __init__(self, width, height, **kwargs):
        self.framebuffer = np.zeros((height, width), dtype=np.uint16)
        self.last_areas = []
        self.refreshes = 0
        super().__init__(width, height, **kwargs)

    def refresh(self, *args, **kwargs):
        self.last_areas = []
        self.refreshes += 1
        return super().refresh(*args, **kwargs)

    def draw(self, x, y, pixels):
        h, w = pixels.shape
        self.framebuffer[y:y + h, x:x + w] = pixels
        self.last_areas.append((x, y, x + w, y + h))

    def pixels(self):
        """A copy of the framebuffer: uint16 RGB565, shape (height, width)."""
        return self.framebuffer.copy()

    def image(self):
        """The framebuffer as an RGB PIL image."""
        return to_image(self.framebuffer)

    def refreshed_pixels(self):
        """Distinct pixels the last refresh redrew (the union of its dirty areas)."""
        mask = np.zeros(self.framebuffer.shape, dtype=bool)
        for x1, y1, x2, y2 in self.last_areas:
            mask[y1:y2, x1:x2] = True
        return int(mask.sum())

    def sent_pixels(self):
        """Pixels the last refresh sent, areas that overlap counted each time."""
        return sum((x2 - x1) * (y2 - y1) for x1, y1, x2, y2 in self.last_areas)


def to_image(fb):
    """An RGB PIL image from an RGB565 array."""
    r = ((fb >> 11) & 0x1F).astype(np.uint32) * 255 // 31
    g = ((fb >> 5) & 0x3F).astype(np.uint32) * 255 // 63
    b = (fb & 0x1F).astype(np.uint32) * 255 // 31
    rgb = np.stack((r, g, b), axis=-1).astype(np.uint8)
    return Image.fromarray(rgb, "RGB")


def rgb565(color):
    """The RGB565 value displayio draws for a 0xRRGGBB colour."""
    r = (color >> 16) & 0xFF
    g = (color >> 8) & 0xFF
    b = color & 0xFF
    return (r >> 3) << 11 | (g >> 2) << 5 | (b >> 3)
