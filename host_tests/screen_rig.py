"""A headless screen rig for the screenshot tests and the screen benchmark.

``Rig("160x128", deal=7)`` runs the real start-up (``sultan.app.start``) on a
``HeadlessDisplay``; ``rig.press("RIGHT A")`` handles keys exactly as the main
loop does (controller, screen update, one refresh each) and returns the
framebuffer before and after.  ``panel_text(screen)`` and ``panel_rect(rig)`` say
what the panel shows and where.
"""

import os

import numpy as np
from sultan import app
from sultan.ui import sprites
from sultan.ui.layout import CARD_H, CARD_W
from sultan_host import scripted
from sultan_host.desktop.headless import HeadlessDisplay, rgb565, to_image

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "reference")
FAILURES = os.path.join(HERE, "_failures")


class Frame:
    """The panel's frame (``layout.panel_frame``): its virtual pixels at the table's scale, from
    the frame's top-left; taken where the helpers take a Rig (``scale``, ``virtual``, ``region``)."""

    def __init__(self, layout):
        fx, fy, fw, fh = layout.panel_frame  # virtual; the panel's lines stand on the board
        self.x0, self.y0, self.w, self.h = 0, 0, fx + fw, fy + fh
        self.scale = layout.scale

    def crop(self, fb):
        s = self.scale
        return fb[self.y0:self.y0 + self.h * s, self.x0:self.x0 + self.w * s]

    def virtual(self, fb, x, y):
        s = self.scale
        block = self.crop(fb)[y * s:(y + 1) * s, x * s:(x + 1) * s]
        assert (block == block[0, 0]).all(), "scaled pixel (%d, %d) not uniform" % (x, y)
        return int(block[0, 0])

    def region(self, fb, rect):
        s = self.scale
        x, y, w, h = rect
        return self.crop(fb)[y * s:(y + h) * s, x * s:(x + w) * s]


class Rig:
    def __init__(self, size, deal=7):
        w, h = (int(v) for v in size.split("x"))
        self.size = size
        self.display = HeadlessDisplay(w, h)
        self.ctrl, self.screen = app.start(self.display, deal=deal, rand_deal=lambda: 1)
        self.layout = self.screen.layout
        self.scale = self.layout.scale
        self.frame = Frame(self.layout)  # the panel's pixels

    @property
    def game(self):
        return self.ctrl.game

    def fb(self):
        return self.display.pixels()

    def press(self, script):
        """Press keys as the main loop does; returns (framebuffer before, after)."""
        before = self.fb()
        for k in scripted.parse_keys(script):
            self.ctrl.press(k)
            self.screen.update(self.ctrl)
            self.display.refresh()
        return before, self.fb()

    def redraw(self):
        """Bring the screen up to date after changing the game directly."""
        self.screen.update(self.ctrl)
        self.display.refresh()

    def image(self):
        return to_image(self.display.framebuffer)

    def virtual(self, fb, vx, vy):
        """The colour of virtual pixel (vx, vy), checking its scaled block is uniform."""
        s = self.scale
        block = fb[vy * s:(vy + 1) * s, vx * s:(vx + 1) * s]
        assert (block == block[0, 0]).all(), "scaled pixel (%d, %d) not uniform" % (vx, vy)
        return int(block[0, 0])

    def region(self, fb, rect):
        """The real-pixel block of a virtual rect (x, y, w, h)."""
        s = self.scale
        x, y, w, h = rect
        return fb[y * s:(y + h) * s, x * s:(x + w) * s]

    def card_rect(self, place):
        x, y = self.layout.place_xy(place)
        return x, y, CARD_W, CARD_H


def panel_text(screen):
    """The panel's lines on show (without the marker's column); [] when it is hidden."""
    return [line.text for line in screen.panel.lines if not line.grid.hidden]


def panel_rect(rig):
    """The panel's (x, y, w, h) in its frame (``rig.frame``), from its lines on show (as far as
    the frame's right edge); None when it is hidden."""
    shown = [line.grid for line in rig.screen.panel.lines if not line.grid.hidden]
    if not shown:
        return None
    x, y = shown[0].x, shown[0].y
    w = min(rig.frame.w - x, shown[0].width * shown[0].tile_width)
    return x, y, w, len(shown) * shown[0].tile_height


def color(index):
    """RGB565 of palette index ``index`` of the sprite sheet."""
    return rgb565(sprites.COLORS[index])


def glyph_errors(rig, fb, origin, rows, cx, cy, ink, bg=sprites.FACE):
    """Pixels of a bit-string glyph at (cx, cy) from virtual ``origin`` that are not as drawn."""
    x0, y0 = origin
    bad = []
    y = cy
    for row in rows.split():
        x = cx
        for ch in row:
            want = color(ink) if ch == "#" else color(bg)
            got = rig.virtual(fb, x0 + x, y0 + y)
            if got != want:
                bad.append((x, y, hex(got), hex(want)))
            x += 1
        y += 1
    return bad


def changed_mask(a, b):
    return a != b


def outside(mask, rig, rects):
    """How many changed real pixels lie outside all the virtual ``rects``."""
    m = mask.copy()
    s = rig.scale
    for x, y, w, h in rects:
        m[max(0, y * s):(y + h) * s, max(0, x * s):(x + w) * s] = False
    return int(m.sum())


def save_failure(name, img):
    os.makedirs(FAILURES, exist_ok=True)
    path = os.path.join(FAILURES, name + ".png")
    img.save(path)
    return path


def reference_diff(name, img):
    """Compare ``img`` with host_tests/reference/<name>.png; rewrite it when SULTAN_REGEN=1.

    Returns None when equal, else a description (and the actual image is saved).
    """
    path = os.path.join(REFERENCE, name + ".png")
    if os.environ.get("SULTAN_REGEN") == "1":
        os.makedirs(REFERENCE, exist_ok=True)
        img.save(path, optimize=True)
        return None
    if not os.path.exists(path):
        return "no reference %s (regenerate: SULTAN_REGEN=1 pytest host_tests/ui/test_screen.py)" % path
    from PIL import Image

    want = np.asarray(Image.open(path).convert("RGB"))
    got = np.asarray(img.convert("RGB"))
    if want.shape == got.shape and (want == got).all():
        return None
    n = int((want != got).any(axis=-1).sum()) if want.shape == got.shape else -1
    return "%s differs from its reference in %d pixels; actual saved as %s" % (
        name, n, save_failure(name, img))


def screen_rect(layout, place):
    """(x, y, w, h) of the card at ``place`` in real display pixels."""
    from sultan.ui.layout import CARD_H, CARD_W

    x, y = layout.place_xy(place)
    s = layout.scale
    return x * s, y * s, CARD_W * s, CARD_H * s
