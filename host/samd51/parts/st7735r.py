"""The ST7735R TFT controller as seen from its SPI pins, and the 160x128 picture a badge shows (the PyBadge
and the PyGamer fit the same 1.8" panel, and their board.c the same init sequence).

Commands come with D/C low, their parameters and pixels with D/C high. Modelled: SWRESET, SLPIN/SLPOUT,
NORON, INVOFF/INVON, DISPOFF/DISPON, CASET, RASET, RAMWR (and RAMWR-continue), MADCTL, COLMOD (16- and 18-bit
pixels). The rest (frame rate, power, gamma...) is kept by command and has no effect on the picture.

Panel memory is 128 columns x 160 rows (the 1.8" module's GM setting, no offsets: board.c gives column and
row start 0). MADCTL (0x36): MY 0x80 row order, MX 0x40 column order, MV 0x20 row/column exchange, BGR 0x08;
addresses are exchanged first (MV), then mirrored (MX, MY) in memory. The PyBadge's glass sits a quarter
turn from memory: a viewer sees memory row r at x = 159 - r and column c at y = c, which is why board.c's
MADCTL 0xA0 (MY|MV) draws column address x at x and row address y at y, upright.
"""

from array import array

W, H = 128, 160              # panel memory: columns, rows
VIEW_W, VIEW_H = 160, 128    # the picture as the PyBadge shows it

SWRESET = 0x01
SLPIN = 0x10
SLPOUT = 0x11
NORON = 0x13
INVOFF = 0x20
INVON = 0x21
DISPOFF = 0x28
DISPON = 0x29
CASET = 0x2A
RASET = 0x2B
RAMWR = 0x2C
RAMWRC = 0x3C
MADCTL = 0x36
COLMOD = 0x3A

MY, MX, MV, BGR = 0x80, 0x40, 0x20, 0x08
MAX_UPDATES = 200_000        # RAMWRs logged (a long run's cap)
COLMOD_16, COLMOD_18 = 0x05, 0x06


class ST7735R:
    def __init__(self):
        self.mem = array("H", [0]) * (W * H)   # RGB565 a pixel, panel memory order (row-major, 128 wide)
        self.backlight = None                  # () -> duty 0.0..1.0 (or None): the board wires the PWM pin
        self.clock = None                      # () -> ns: when set, each RAMWR is logged in ``updates``
        self.updates = []                      # [ns, x0, y0, x1, y1, pixels] a RAMWR (frame timing figures)
        self.commands = 0
        self.pixels_written = 0
        self.resets = 0
        self.params = {}                       # command -> its last parameters (the ones with no model)
        self._defaults()

    def reset(self):
        """SWRESET or the RST pin: registers to their defaults; memory keeps what it had."""
        self.resets += 1
        self._defaults()

    def _defaults(self):
        self.cmd = None
        self.args = []
        self.madctl = 0
        self.colmod = COLMOD_18
        self.inverted = False
        self.sleeping = True
        self.on = False
        self.x0, self.x1, self.y0, self.y1 = 0, W - 1, 0, H - 1
        self.x = self.y = 0
        self._pixel_bytes = []

    def reset_pin(self, level):
        """TFT_RST (PA00 on the PyBadge): low holds the controller in reset."""
        if not level:
            self.reset()

    # -- the SPI side -----------------------------------------------------------------------------------
    def spi_byte(self, byte, dc):
        """One byte off the bus: a command when ``dc`` is low, else data. Returns nothing (no MISO wired)."""
        if not dc:
            self.command(byte)
        elif self.cmd == RAMWR or self.cmd == RAMWRC:
            self._pixel_byte(byte)
        else:
            self._param(byte)
        return None

    def spi_bytes(self, data, dc):
        """Many bytes with one D/C level (a DMA block): pixels go in a tight loop, the rest byte by byte."""
        if not dc or self.cmd not in (RAMWR, RAMWRC) or self.colmod == COLMOD_18 or self._pixel_bytes:
            for b in data:
                self.spi_byte(b, dc)
            return
        n = len(data) & ~1
        pixel = self._pixel
        for i in range(0, n, 2):
            pixel((data[i] << 8) | data[i + 1])
        if n < len(data):
            self._pixel_byte(data[n])

    def command(self, byte):
        self.commands += 1
        self.cmd = byte
        self.args = []
        self._pixel_bytes = []
        if byte == SWRESET:
            self.reset()
        elif byte == SLPIN:
            self.sleeping = True
        elif byte == SLPOUT:
            self.sleeping = False
        elif byte == INVON:
            self.inverted = True
        elif byte == INVOFF:
            self.inverted = False
        elif byte == DISPON:
            self.on = True
        elif byte == DISPOFF:
            self.on = False
        elif byte == RAMWR:
            self.x, self.y = self.x0, self.y0
            if self.clock is not None and len(self.updates) < MAX_UPDATES:
                self.updates.append([self.clock(), self.x0, self.y0, self.x1, self.y1, 0])
        self.params.setdefault(byte, [])

    def _param(self, byte):
        a = self.args
        a.append(byte)
        cmd = self.cmd
        if cmd == CASET and len(a) == 4:
            self.x0, self.x1 = (a[0] << 8) | a[1], (a[2] << 8) | a[3]
        elif cmd == RASET and len(a) == 4:
            self.y0, self.y1 = (a[0] << 8) | a[1], (a[2] << 8) | a[3]
        elif cmd == MADCTL and len(a) == 1:
            self.madctl = byte
        elif cmd == COLMOD and len(a) == 1:
            self.colmod = byte & 0x7
        if cmd is not None:
            self.params[cmd] = list(a)

    def _pixel_byte(self, byte):
        b = self._pixel_bytes
        b.append(byte)
        if self.colmod == COLMOD_18:
            if len(b) == 3:        # one byte a colour, its top 6 bits; kept as RGB565
                self._pixel(((b[0] >> 3) << 11) | ((b[1] >> 2) << 5) | (b[2] >> 3))
                b.clear()
        elif len(b) == 2:          # 16 bits, high byte first
            self._pixel((b[0] << 8) | b[1])
            b.clear()

    def _pixel(self, color):
        col, row = self.x, self.y
        m = self.madctl
        if m & MV:
            col, row = row, col
        if m & MX:
            col = W - 1 - col
        if m & MY:
            row = H - 1 - row
        if 0 <= col < W and 0 <= row < H:
            self.mem[row * W + col] = color
            self.pixels_written += 1
            if self.updates and self.clock is not None:
                self.updates[-1][5] += 1
        self.x += 1
        if self.x > self.x1:
            self.x = self.x0
            self.y += 1
            if self.y > self.y1:
                self.y = self.y0

    # -- what a viewer sees -----------------------------------------------------------------------------
    def view565(self):
        """The 160x128 picture, row-major RGB565 (black while the display is off or asleep)."""
        out = array("H", [0]) * (VIEW_W * VIEW_H)
        if not self.on or self.sleeping:
            return out
        mem = self.mem
        swap = bool(self.madctl & BGR)
        inv = self.inverted
        for y in range(VIEW_H):
            for x in range(VIEW_W):
                c = mem[(H - 1 - x) * W + y]
                if swap:
                    c = (c & 0x07E0) | (c >> 11) | ((c & 0x1F) << 11)
                if inv:
                    c ^= 0xFFFF
                out[y * VIEW_W + x] = c
        return out

    def rgb(self):
        """The picture as RGB888 bytes (each channel widened as the Pico's ILI9341 model does)."""
        out = bytearray(VIEW_W * VIEW_H * 3)
        for i, c in enumerate(self.view565()):
            o = 3 * i
            out[o] = ((c >> 11) & 0x1F) * 255 // 31
            out[o + 1] = ((c >> 5) & 0x3F) * 255 // 63
            out[o + 2] = (c & 0x1F) * 255 // 31
        return bytes(out)

    def save_png(self, path):
        from PIL import Image

        Image.frombytes("RGB", (VIEW_W, VIEW_H), self.rgb()).save(path)

    def backlight_duty(self):
        return self.backlight() if self.backlight is not None else None

    def report(self):
        return {
            "size": [VIEW_W, VIEW_H], "on": self.on and not self.sleeping, "madctl": self.madctl,
            "colmod": self.colmod, "inverted": self.inverted, "commands": self.commands,
            "pixels_written": self.pixels_written, "resets": self.resets, "backlight": self.backlight_duty(),
            "ramwr": len(self.updates),
        }
