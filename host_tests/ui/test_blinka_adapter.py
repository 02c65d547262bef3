"""The Blinka adapter (sultan_host.desktop.blinka_adapter): each private part of Blinka displayio it
uses still does what the adapter relies on.  A Blinka release that renames or changes one fails here."""

import displayio
import pytest
from sultan_host.desktop.blinka_adapter import AreaDisplay, bitmap_bytes
from sultan_host.desktop.headless import rgb565


class Areas(AreaDisplay):
    """Keeps each area a refresh hands over: (x, y, pixels)."""

    def __init__(self, width, height):
        self.areas = []
        super().__init__(width, height)

    def draw(self, x, y, pixels):
        self.areas.append((x, y, pixels.copy()))


def scene(display, x=1, y=1):
    """A one-tile TileGrid of a 2x1 bitmap (black, red) at (``x``, ``y``) over nothing; returns it."""
    bmp = displayio.Bitmap(2, 1, 2)
    bmp[1, 0] = 1
    pal = displayio.Palette(2)
    pal[0] = 0x000000
    pal[1] = 0xFF0000
    tg = displayio.TileGrid(bmp, pixel_shader=pal, x=x, y=y)
    group = displayio.Group()
    group.append(tg)
    display.root_group = group
    return tg


@pytest.mark.parametrize("width,height,values,expect", [
    (10, 3, 2, 3 * 4),  # 1 bit a value: 10 bits, one word a row
    (33, 2, 3, 2 * 3 * 4),  # 2 bits: 66 bits, three words
    (5, 2, 256, 2 * 2 * 4),  # 8 bits: 40 bits, two words
    (3, 1, 257, 2 * 4),  # 16 bits: 48 bits, two words
])
def test_bitmap_bytes_are_circuitpythons_rows_of_words(width, height, values, expect):
    assert bitmap_bytes(displayio.Bitmap(width, height, values)) == expect


def test_a_full_refresh_hands_over_every_pixel_an_odd_count_too():
    d = Areas(7, 3)  # 21 pixels: the last word is half full
    scene(d, 5, 2)  # red in the very last pixel
    d.refresh()
    assert [(x, y, p.shape) for x, y, p in d.areas] == [(0, 0, (3, 7))]
    px = d.areas[0][2]
    assert px[2, 5] == rgb565(0x000000) and px[2, 6] == rgb565(0xFF0000) and (px[:2] == 0).all()


def test_after_the_full_refresh_only_what_changes_is_sent():
    """TileGrids are booked as drawn after the full refresh (CircuitPython's way): Blinka alone would
    repaint the whole screen at the next refresh."""
    d = Areas(16, 8)
    tg = scene(d)
    d.refresh()
    d.areas.clear()
    d.refresh()
    assert d.areas == []  # nothing changed, nothing sent
    tg.x = 5
    d.refresh()
    sent = sorted((x, y, p.shape) for x, y, p in d.areas)
    assert sent and all(p[0] * p[1] <= 2 * 2 for _x, _y, p in sent)  # the old and new cells only
    assert {(x, y) for x, y, _p in sent} == {(1, 1), (5, 1)}

