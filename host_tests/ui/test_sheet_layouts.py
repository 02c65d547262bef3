"""The built sheets read right whichever way the board keeps a Bitmap's words.

CircuitPython 8 up to 9.1 keeps each 32-bit word of a Bitmap's row with its bytes reversed; 9.2 and later
keep the bytes in order.  The 9.x build writes the 9.2 order, so the PyBadge's own 9.1.1 must reverse the
words after its one read (``sultan.ui.build.read_bitmap``).  Here a stand-in Bitmap keeps its memory either
way, and every pixel read back must be the source sheet's."""

import os

import pytest
from sultan.ui import build
from sultan_host.board.sheets import bitmap_image
from sultan_host.paths import LIB


def fake_bitmap_class(reversed_words):
    class Bitmap(bytearray):
        """A Bitmap whose memory is rows padded to 32 bits, first pixel in the high bits of its unit."""

        def __init__(self, width, height, colors):
            self.depth = max(1, (colors - 1).bit_length())
            self.width, self.height = width, height
            self.stride = (width * self.depth + 31) // 32 * 4
            super().__init__(self.stride * height)

        def _at(self, x, y):
            bit = x * self.depth
            byte = bit // 8
            if reversed_words:
                byte = byte // 4 * 4 + 3 - byte % 4
            return y * self.stride + byte, 8 - self.depth - bit % 8

        def __setitem__(self, xy, value):
            if not isinstance(xy, tuple):
                return super().__setitem__(xy, value)
            i, shift = self._at(*xy)
            mask = (1 << self.depth) - 1
            self[i] = self[i] & ~(mask << shift) & 0xFF | value << shift

        def pixel(self, x, y):
            i, shift = self._at(x, y)
            return self[i] >> shift & ((1 << self.depth) - 1)

    return Bitmap


def source_pixels(data):
    depth, w, h = data[2], data[4] | data[5] << 8, data[6] | data[7] << 8
    row = (w * depth + 7) // 8
    return [[data[8 + y * row + x * depth // 8] >> (8 - depth - x * depth % 8) & ((1 << depth) - 1)
             for x in range(w)] for y in range(h)]


@pytest.mark.parametrize("cp", [8, 9])
@pytest.mark.parametrize("board_reverses", [True, False], ids=["board 8.x-9.1", "board 9.2+"])
@pytest.mark.parametrize("name", ["sprites.dat", "glyphs.dat"])
def test_a_built_sheet_reads_as_its_pixels_on_either_bitmap_layout(tmp_path, monkeypatch, cp, board_reverses,
                                                                   name):
    with open(os.path.join(LIB, "sultan", "ui", name), "rb") as f:
        src = f.read()
    (tmp_path / name).write_bytes(bitmap_image(src, cp, name))
    monkeypatch.setattr(build.displayio, "Bitmap", fake_bitmap_class(board_reverses))
    monkeypatch.setitem(build.__dict__, "__file__", str(tmp_path / "build.py"))
    bmp = build.read_bitmap(name)
    want = source_pixels(src)
    got = [[bmp.pixel(x, y) for x in range(bmp.width)] for y in range(bmp.height)]
    assert got == want
