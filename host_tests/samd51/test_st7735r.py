"""ST7735R: board.c's init sequence, displayio's CASET/RASET/RAMWR, MADCTL's effect on where pixels land,
the PyBadge's view, PNG export, the backlight duty reported with it, and the panel behind a real SERCOM."""

import pytest
from fakes import PortMcu, gpio_out, spi
from PIL import Image
from samd51.parts import st7735r as P
from samd51.periph import sercom as S

DELAY = 0x80
# board.c's display_init_sequence (9.1.1, boards/pybadge): command, count (| DELAY), args, [ms]
INIT = [0x01, 0 | DELAY, 150, 0x11, 0 | DELAY, 255, 0xB1, 3, 0x01, 0x2C, 0x2D, 0xB2, 3, 0x01, 0x2C, 0x2D,
        0xB3, 6, 0x01, 0x2C, 0x2D, 0x01, 0x2C, 0x2D, 0xB4, 1, 0x07, 0xC0, 3, 0xA2, 0x02, 0x84, 0xC1, 1, 0xC5,
        0xC2, 2, 0x0A, 0x00, 0xC3, 2, 0x8A, 0x2A, 0xC4, 2, 0x8A, 0xEE, 0xC5, 1, 0x0E, 0x2A, 0,
        0x36, 1, 0b10100000, 0x3A, 1, 0x05,
        0xE0, 16, 0x02, 0x1C, 0x07, 0x12, 0x37, 0x32, 0x29, 0x2D, 0x29, 0x25, 0x2B, 0x39,
        0x00, 0x01, 0x03, 0x10,
        0xE1, 16, 0x03, 0x1D, 0x07, 0x06, 0x2E, 0x2C, 0x29, 0x2D, 0x2E, 0x2E, 0x37, 0x3F,
        0x00, 0x00, 0x02, 0x10,
        0x2A, 3, 0x02, 0x00, 0x81, 0x2B, 3, 0x02, 0x00, 0x81, 0x13, 0 | DELAY, 10, 0x29, 0 | DELAY, 100]


def send_init(panel):
    """As displayio's BusDisplay sends an init sequence: each command (D/C low), then its args (D/C high)."""
    i = 0
    while i < len(INIT):
        cmd, count = INIT[i], INIT[i + 1]
        panel.spi_byte(cmd, 0)
        n = count & 0x7F
        for b in INIT[i + 2: i + 2 + n]:
            panel.spi_byte(b, 1)
        i += 2 + n + (1 if count & DELAY else 0)


def area(panel, x0, y0, x1, y1, pixels):
    """displayio's refresh of one area: CASET, RASET (16-bit bounds), RAMWR, then big-endian RGB565."""
    for cmd, a, b in ((P.CASET, x0, x1), (P.RASET, y0, y1)):
        panel.spi_byte(cmd, 0)
        for byte in (a >> 8, a & 0xFF, b >> 8, b & 0xFF):
            panel.spi_byte(byte, 1)
    panel.spi_byte(P.RAMWR, 0)
    for c in pixels:
        panel.spi_byte(c >> 8, 1)
        panel.spi_byte(c & 0xFF, 1)


RED, GREEN, BLUE, WHITE = 0xF800, 0x07E0, 0x001F, 0xFFFF


@pytest.fixture
def panel():
    p = P.ST7735R()
    send_init(p)
    return p


def test_the_init_sequence_leaves_it_on_16_bit_with_madctl_a0(panel):
    assert panel.on and not panel.sleeping
    assert panel.madctl == 0xA0 and panel.colmod == P.COLMOD_16 and not panel.inverted
    assert panel.params[0xE0][:2] == [0x02, 0x1C]          # gamma kept, with no effect
    assert panel.resets == 1                                # SWRESET


def test_with_madctl_a0_an_area_lands_upright_where_displayio_put_it(panel):
    area(panel, 10, 20, 12, 21, [RED, GREEN, BLUE, WHITE, RED, GREEN])
    view = panel.view565()
    row = lambda y: [view[y * 160 + x] for x in range(9, 14)]  # noqa: E731
    assert row(20) == [0, RED, GREEN, BLUE, 0]
    assert row(21) == [0, WHITE, RED, GREEN, 0]
    assert panel.pixels_written == 6


def test_a_full_screen_fills_160x128(panel):
    area(panel, 0, 0, 159, 127, [BLUE] * (160 * 128))
    assert set(panel.view565()) == {BLUE}


def test_madctl_without_mv_draws_the_picture_turned(panel):
    panel.spi_byte(P.MADCTL, 0)
    panel.spi_byte(0x00, 1)
    area(panel, 0, 0, 0, 0, [RED])                         # memory (0, 0): seen at the glass's right, top
    view = panel.view565()
    assert view[0 * 160 + 159] == RED and view[0] != RED


def test_bgr_swaps_red_and_blue_and_invon_inverts(panel):
    area(panel, 0, 0, 0, 0, [RED])
    panel.spi_byte(P.MADCTL, 0)
    panel.spi_byte(0xA0 | P.BGR, 1)
    assert panel.view565()[0] == BLUE
    panel.spi_byte(P.INVON, 0)
    assert panel.view565()[0] == BLUE ^ 0xFFFF


def test_off_or_asleep_shows_black_and_memory_survives_a_reset(panel):
    area(panel, 0, 0, 0, 0, [WHITE])
    panel.spi_byte(P.DISPOFF, 0)
    assert set(panel.view565()) == {0}
    panel.reset_pin(0)
    panel.reset_pin(1)
    assert panel.resets == 2 and panel.mem[159 * 128 + 0] == WHITE
    send_init(panel)
    assert panel.view565()[0] == WHITE


def test_the_window_wraps_and_ramwr_restarts_it(panel):
    area(panel, 0, 0, 1, 0, [RED, GREEN, BLUE])            # the third wraps to the start
    v = panel.view565()
    assert (v[0], v[1]) == (BLUE, GREEN)


def test_18_bit_pixels(panel):
    panel.spi_byte(P.COLMOD, 0)
    panel.spi_byte(P.COLMOD_18, 1)
    panel.spi_byte(P.RAMWR, 0)
    for b in (0xFC, 0x00, 0xFC):                           # red and blue full, green none
        panel.spi_byte(b, 1)
    assert panel.view565()[0] == RED | BLUE


def test_png_export_and_report(panel, tmp_path):
    area(panel, 0, 0, 1, 0, [RED, 0x0841])
    panel.backlight = lambda: 0.5
    path = tmp_path / "shot.png"
    panel.save_png(path)
    with Image.open(path) as img:
        assert img.size == (160, 128)
        assert img.getpixel((0, 0)) == (255, 0, 0)
        r, g, b = img.getpixel((1, 0))
        assert (r >> 3, g >> 2, b >> 3) == (1, 2, 1)         # RGB565's bits survive the widening
    assert panel.report()["backlight"] == 0.5 and panel.report()["size"] == [160, 128]


def test_behind_sercom4_with_cs_and_dc_from_port():
    mcu = PortMcu()
    s = spi(mcu)
    panel = P.ST7735R()
    s.attach(panel, cs="PB07", dc="PB05")
    gpio_out(mcu, "PB07", 0)
    for cmd, args in ((P.SLPOUT, []), (P.DISPON, []), (P.MADCTL, [0xA0]), (P.COLMOD, [0x05]),
                      (P.CASET, [0, 5, 0, 5]), (P.RASET, [0, 7, 0, 7]), (P.RAMWR, [0xF8, 0x00])):
        gpio_out(mcu, "PB05", 0)
        s.write(S.DATA, 1, cmd)
        gpio_out(mcu, "PB05", 1)
        for a in args:
            s.write(S.DATA, 1, a)
    assert panel.view565()[7 * 160 + 5] == RED


def test_a_block_of_pixels_lands_as_byte_by_byte_does(panel):
    other = P.ST7735R()
    send_init(other)
    data = bytes((i * 37) & 0xFF for i in range(2 * 300 + 1))   # an odd byte: half a pixel left over
    for p in (panel, other):
        area(p, 3, 4, 22, 30, [])
    panel.spi_bytes(data, 1)
    for byte in data:
        other.spi_byte(byte, 1)
    other.spi_byte(0x12, 1)
    panel.spi_byte(0x12, 1)
    assert panel.mem == other.mem and panel.pixels_written == other.pixels_written == 301


def test_each_ramwr_is_logged_with_its_window_and_pixels_when_a_clock_is_given(panel):
    area(panel, 0, 0, 3, 3, [RED] * 16)                    # no clock: nothing logged
    now = [5_000]
    panel.clock = lambda: now[0]
    area(panel, 1, 2, 4, 3, [GREEN] * 8)
    now[0] = 9_000
    area(panel, 0, 0, 159, 127, [BLUE] * 100)              # a part of a big window
    assert panel.updates == [[5_000, 1, 2, 4, 3, 8], [9_000, 0, 0, 159, 127, 100]]
    assert panel.report()["ramwr"] == 2
