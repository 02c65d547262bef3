"""Render the game screen headlessly to a PNG.

    python tools/screenshot.py --deal 7 --size 160x128 --keys "RIGHT A" --out shot.png

Bad arguments: one line on stderr, exit status 2.
"""

import argparse
import os
import sys

from sultan_host import scripted

SIZES = ("160x128", "320x240")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("screenshot: %s\n" % message)
        sys.exit(2)


def render(deal, size, script="", scale=1):
    """(image, controller) after playing ``script`` on deal ``deal`` at ``size`` ("WxH")."""
    from sultan import app

    from sultan_host.desktop.headless import HeadlessDisplay

    w, h = (int(v) for v in size.split("x"))
    display = HeadlessDisplay(w, h)
    ctrl = app.run(display, scripted.ScriptedKeys(script), board_id="headless", deal=deal,
                   console=lambda *a: None, rand_deal=lambda: 1, idle=0)
    img = display.image()
    if scale > 1:
        img = img.resize((w * scale, h * scale), 0)
    return img, ctrl


def main(argv=None):
    p = _Parser(prog="screenshot", description="Render the Sultan screen to a PNG.")
    p.add_argument("--deal", type=int, default=1, help="deal number 1..999999999 (default 1)")
    p.add_argument("--size", default="160x128", help="160x128 or 320x240")
    p.add_argument("--keys", default="", help='key names played first, e.g. "RIGHT A B"')
    p.add_argument("--scale", type=int, default=1, help="enlarge the PNG (nearest neighbour)")
    p.add_argument("--out", required=True, help="the PNG to write")
    a = p.parse_args(argv)
    if not 1 <= a.deal <= 999999999:
        p.error("--deal must be 1..999999999, not %d" % a.deal)
    if a.size not in SIZES:
        p.error("--size must be one of %s, not %r" % (", ".join(SIZES), a.size))
    if not 1 <= a.scale <= 8:
        p.error("--scale must be 1..8")

    try:
        scripted.parse_keys(a.keys)
    except ValueError as e:
        p.error(str(e))
    out_dir = os.path.dirname(os.path.abspath(a.out))
    if not os.path.isdir(out_dir):
        p.error("no such directory: %s" % out_dir)
    img, ctrl = render(a.deal, a.size, a.keys, a.scale)
    img.save(a.out)
    print("wrote %s (deal %d, %s, %d keys)" % (a.out, a.deal, a.size, len(scripted.parse_keys(a.keys))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
