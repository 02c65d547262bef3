"""The sheets in the Bitmap's own memory.

sprites.dat and glyphs.dat are "SB" files (see sultan/ui/sprites.py): rows of pixels, each
padded to a byte, the first pixel in a byte's high bits.  bitmaptools.readinto unpacks them
pixel by pixel: 11 and 13 ms on the Pico at every start.  For the CircuitPython majors whose
Bitmap memory we have measured (in tools/emulate, 8.2.7 and 9.2.8), the build writes each row
as that memory holds it and marks the header (byte 3 = 1); sultan.ui.build.read_bitmap then
reads the file straight into the Bitmap's buffer, one readinto() (1 ms).  A Bitmap row is
padded to 32 bits; CircuitPython 8, 9.0 and 9.1 keep it as little-endian 32-bit words whose high
bits are the first pixel (each 4 bytes of a row reversed), 9.2 and later keep the bytes in the file's
order (the change came in 9.2.0).  Byte 3 names the layout the file holds (WORDS_IN_ORDER or
WORDS_REVERSED); the board asks its own Bitmap which one it keeps, and a 9.0 or 9.1 board given the
9.x build reverses the words after its one read (the PyBadge's 9.1.1 is one).
"""

from sultan_host.board.sources import BuildError

WORDS_IN_ORDER = 1  # header byte 3: the row bytes as the file has them (9.2 and later)
WORDS_REVERSED = 2  # each 32-bit word's bytes reversed (8.x, 9.0, 9.1)
RAW_BITMAP_CP = {8: WORDS_REVERSED, 9: WORDS_IN_ORDER}


def bitmap_image(data, cp, name="?"):
    """The "SB" file ``data`` rewritten in CircuitPython ``cp``'s Bitmap memory (see above), or
    None when ``data`` is no "SB" file of 1, 2 or 4 bits a pixel or ``cp``'s layout is unknown."""
    if cp not in RAW_BITMAP_CP or len(data) < 8 or data[:2] != b"SB" or data[3] or data[2] not in (1, 2, 4):
        return None
    depth = data[2]
    w = data[4] | data[5] << 8
    h = data[6] | data[7] << 8
    row = (w * depth + 7) // 8
    stride = (w * depth + 31) // 32 * 4
    if len(data) != 8 + row * h:
        raise BuildError("%s: %d bytes, not the %d of %dx%d pixels at %d bits"
                         % (name, len(data), 8 + row * h, w, h, depth))
    out = bytearray(data[:8])
    out[3] = RAW_BITMAP_CP[cp]
    for y in range(h):
        line = bytearray(data[8 + y * row:8 + (y + 1) * row]) + bytes(stride - row)
        if out[3] == WORDS_REVERSED:
            for i in range(0, stride, 4):
                line[i:i + 4] = line[i:i + 4][::-1]
        out += line
    return bytes(out)
