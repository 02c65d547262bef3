"""Render the game screen headlessly to a PNG.

    python tools/screenshot.py --deal 7 --size 160x128 --keys "RIGHT A" --out shot.png

Bad arguments (a bad output path too: not .png, empty, a directory, no such directory, an
existing file that is not a PNG, or a symlink onto one): one line on stderr, exit status 2,
checked before anything is drawn (``sultan_host.args.png_out``).
"""

import sys

from sultan_host import keywords, scripted
from sultan_host.args import Once, Parser, UsageError, clip, deal_number, one_line, png_out, whole

SIZES = ("160x128", "320x240")


def render(deal, size, script="", scale=1, store=None, sound=False):
    """(image, controller) after playing ``script`` on deal ``deal`` at ``size`` ("WxH").

    ``store``: a save store, as ``sultan.app.run`` takes it (None: none, so no statistics);
    the emulator's comparison gives a fresh one, as a board's first boot has.  ``sound``: as a board
    that can sound and light (the PyBadge): the menu shows the Sound and Lights switches."""
    from sultan import app
    from sultan.ui.sound import Sound

    from sultan_host.desktop.headless import HeadlessDisplay

    w, h = (int(v) for v in size.split("x"))
    display = HeadlessDisplay(w, h)
    ctrl = app.run(display, scripted.ScriptedKeys(script), board_id="headless", deal=deal,
                   console=lambda *a: None, rand_deal=lambda: 1, idle=0, store=store,
                   sound=Sound() if sound else None)  # no speaker, no pixels: silent, yet "has sound"
    img = display.image()
    if scale > 1:
        img = img.resize((w * scale, h * scale), 0)
    return img, ctrl


def parse_args(argv=None):
    """The options, every one checked (UsageError on the first that is wrong)."""
    p = Parser(prog="sultan-screenshot", description="Render the Sultan screen to a PNG (with --gif: every frame "
                                               "as an animated GIF).")
    p.add_argument("--gif", action="store_true",
                   help="an animated GIF of every frame instead (--out x.gif)")
    picture_options(p, "PNG")
    p.add_argument("--gap", help="with --gif: ms from one key to the next (100..5000; default 700)")
    return checked(p.parse_args(argv), png_out)


def picture_options(p, kind):
    """--deal, --size, --keys, --scale and --out, for a picture of ``kind`` (PNG or GIF)."""
    p.add_argument("--deal", action=Once, default="1", help="deal number 1..999999999 (default 1)")
    p.add_argument("--size", action=Once, default="160x128", choices=SIZES, help="160x128 or 320x240")
    p.add_argument("--keys", action=Once, default="",
                   help='keys played first, in the emulators\' words: e.g. "RIGHT A B", "START*3", "DOWN*9!"')
    p.add_argument("--scale", action=Once, default="1",
                   help="enlarge the %s 1..8 times (nearest neighbour)" % kind)
    p.add_argument("--out", action=Once, required=True, help="the %s to write" % kind)


def checked(a, out_check):
    """``picture_options``' values checked (UsageError on the first that is wrong)."""
    a.deal = deal_number(a.deal, "--deal")
    a.scale = whole(a.scale, "--scale", 1, 8)
    out_check(a.out)
    try:
        a.keys = keywords.presses(a.keys)  # the emulators' words: NAME, NAME*n and NAME*n! press keys here
    except keywords.WordError as e:
        raise UsageError("--keys: %s" % e) from None
    a.n_keys = len(a.keys)
    return a


def main(argv=None):
    try:
        a = parse_args(argv)
        if a.gif:  # the commands hand --gif to desktop.gif before this (desktop.entry, tools/screenshot.py)
            raise UsageError("--gif: python -m sultan_host.desktop.gif makes the GIF")
        if a.gap is not None:
            raise UsageError("--gap needs --gif (a PNG is one frame)")
        img, _ctrl = render(a.deal, a.size, a.keys, a.scale)
        png_out(a.out)  # again, just before writing: nothing but a PNG is replaced
        try:
            img.save(a.out, format="PNG")
        except (OSError, ValueError) as e:
            raise UsageError("cannot write %s: %s" % (clip(a.out), clip(e, 200))) from None
    except UsageError as e:
        sys.stderr.write("screenshot: %s\n" % one_line(e))
        return 2
    print("wrote %s (deal %d, %s, %d keys)" % (a.out, a.deal, a.size, a.n_keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
