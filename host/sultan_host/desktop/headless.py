"""A headless displayio display for tests and tools (host only, Blinka displayio).

``HeadlessDisplay(width, height)`` is a ``busdisplay.BusDisplay`` with no bus:
each refresh renders the dirty areas, exactly as a real display would be sent
them, into an RGB565 framebuffer that ``pixels()`` / ``image()`` read back.
It also records what each refresh sent (``last_areas``, ``refreshes``), which
``sultan_host.bench.screen`` turns into figures.

After a full refresh (the first one after ``root_group`` is set) it books every TileGrid as
drawn, hidden ones too, as CircuitPython does (``displayio_tilegrid_finish_refresh``), so the
next refresh sends what it would on the device: a TileGrid that was hidden then repaints its
area once.  Blinka instead keeps every TileGrid "changed" after a full refresh and repaints
the whole screen at the next one.
"""

import contextlib
import io

import numpy as np
from PIL import Image

with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "GENERIC_X86 is not fully supported"
    import busdisplay
    import displayio
    from displayio._area import Area


class HeadlessDisplay(busdisplay.BusDisplay):
    """A display whose "panel" is a numpy framebuffer."""

    def __new__(cls, *args, **kwargs):
        displayio.release_displays()  # Blinka allows one display at a time
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, width, height, **kwargs):
        self.framebuffer = np.zeros((height, width), dtype=np.uint16)
        self.last_areas = []
        self.refreshes = 0
        kwargs.setdefault("auto_refresh", False)
        super().__init__(None, b"", width=width, height=height, **kwargs)

    def _background(self):
        """No background refresh: only an explicit ``refresh()`` draws."""

    def _refresh_display(self):
        self.last_areas = []
        self.refreshes += 1
        core = self._core
        if not core.start_refresh():
            return False
        full = core.full_refresh
        for area in self._get_refresh_areas():
            self._refresh_area(area)
        if full and core.current_group is not None:
            _book_drawn(core.current_group)
        core.finish_refresh()
        return True

    def _refresh_area(self, area):
        clipped = Area()
        if not self._core.clip_area(area, clipped):
            return True
        w = clipped.width()
        h = clipped.height()
        size = w * h
        buffer = memoryview(bytearray(((size + 1) // 2) * 4)).cast("I")
        mask = memoryview(bytearray(((size // 32) + 1) * 4)).cast("I")
        self._core.fill_area(clipped, mask, buffer)
        px = np.frombuffer(buffer.tobytes(), dtype=">u2")[:size].astype(np.uint16)
        self.framebuffer[clipped.y1:clipped.y2, clipped.x1:clipped.x2] = px.reshape(h, w)
        self.last_areas.append((clipped.x1, clipped.y1, clipped.x2, clipped.y2))
        return True

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


def _book_drawn(group):
    """Let every TileGrid under ``group`` finish this refresh as drawn (CircuitPython's way)."""
    for layer in group:
        if isinstance(layer, displayio.Group):
            _book_drawn(layer)
        elif isinstance(layer, displayio.TileGrid):
            layer._needs_refresh = False


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
