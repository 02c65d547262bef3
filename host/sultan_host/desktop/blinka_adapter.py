"""Every use of Blinka displayio's private parts (adafruit-blinka-displayio), in one place.

Blinka draws a display only through a bus; to read the pixels back on the host, and to draw as
CircuitPython does, this module overrides three of ``busdisplay.BusDisplay``'s private steps,
clips with ``displayio._area.Area``, books TileGrids drawn through their ``_needs_refresh``, and
reads a Bitmap's ``_stride``.  Nothing else on the host touches a private name of a library:
``host_tests/house/test_reaches.py`` checks that, and ``host_tests/ui/test_blinka_adapter.py``
fails the day Blinka changes any of these.
"""

import contextlib
import io

import numpy as np

with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "GENERIC_X86 is not fully supported"
    import busdisplay
    import displayio
    from displayio._area import Area


class AreaDisplay(busdisplay.BusDisplay):
    """A display with no bus, drawn only by ``refresh()``: each area a refresh sends is handed to
    ``draw(x, y, pixels)`` (``pixels``: RGB565, a uint16 array of the area's height x width).

    After a full refresh (the first one after ``root_group`` is set) it books every TileGrid as
    drawn, hidden ones too, as CircuitPython does (``displayio_tilegrid_finish_refresh``), so the
    next refresh sends what it would on the device: a TileGrid that was hidden then repaints its
    area once.  Blinka instead keeps every TileGrid "changed" after a full refresh and repaints
    the whole screen at the next one.
    """

    def __new__(cls, *args, **kwargs):
        displayio.release_displays()  # Blinka allows one display at a time
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, width, height, **kwargs):
        kwargs.setdefault("auto_refresh", False)
        super().__init__(None, b"", width=width, height=height, **kwargs)

    def draw(self, x, y, pixels):
        """Area pixels sent at (``x``, ``y``): a subclass keeps them."""
        raise NotImplementedError

    def _background(self):
        """No background refresh: only an explicit ``refresh()`` draws."""

    def _refresh_display(self):
        core = self._core
        if not core.start_refresh():
            return False
        full = core.full_refresh
        for area in self._get_refresh_areas():
            self._refresh_area(area)
        if full and core.current_group is not None:
            book_drawn(core.current_group)
        core.finish_refresh()
        return True

    def _refresh_area(self, area):
        clipped = Area()
        if not self._core.clip_area(area, clipped):
            return True
        w = clipped.width()
        h = clipped.height()
        size = w * h
        # whole words: an odd number of pixels still fills its last one
        buffer = memoryview(bytearray(((size + 1) // 2) * 4)).cast("I")
        mask = memoryview(bytearray(((size // 32) + 1) * 4)).cast("I")
        self._core.fill_area(clipped, mask, buffer)
        px = np.frombuffer(buffer.tobytes(), dtype=">u2")[:size].astype(np.uint16)
        self.draw(clipped.x1, clipped.y1, px.reshape(h, w))
        return True


def book_drawn(group):
    """Let every TileGrid under ``group`` finish this refresh as drawn (CircuitPython's way)."""
    for layer in group:
        if isinstance(layer, displayio.Group):
            book_drawn(layer)
        elif isinstance(layer, displayio.TileGrid):
            layer._needs_refresh = False


def bitmap_bytes(bmp):
    """Bytes of a Bitmap as CircuitPython stores it: rows of 32-bit words."""
    return bmp._stride * 4 * bmp.height
