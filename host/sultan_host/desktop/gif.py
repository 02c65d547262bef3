"""Every frame of a key sequence as an animated GIF (``tools/screenshot.py --gif``).

    python tools/screenshot.py --gif --deal 8 --keys "A A START" --scale 2 --out game.gif

The game runs through ``sultan.app.run`` on ``sultan_host.desktop.movie``'s frame clock: each
key ``--gap`` ms after the one before, each frame 20 ms, so the cards travel as on the device
whatever the host's speed.  Bad arguments: one line on stderr, exit status 2, before anything
is played; ``--out`` is written only where nothing is lost (a new or empty file, or a GIF).
"""

import sys

from sultan_host.args import Once, Parser, UsageError, clip, gif_out, one_line, whole
from sultan_host.desktop.screenshot import checked, picture_options


def parse_args(argv=None):
    p = Parser(prog="sultan-screenshot", description="Every frame of a key sequence as an animated GIF.")
    p.add_argument("--gif", action="store_true", help="an animated GIF (this command)")
    picture_options(p, "GIF")
    p.add_argument("--gap", action=Once, default="700", help="ms from one key to the next (100..5000)")
    a = checked(p.parse_args(argv), gif_out)
    a.gap = whole(a.gap, "--gap", 100, 5000)
    return a


def main(argv=None):
    from sultan_host.desktop import movie

    try:
        a = parse_args(argv)
        display, _ctrl, _lines = movie.record(a.deal, a.size, a.keys, gap_ms=a.gap)
        gif_out(a.out)  # again, just before writing
        try:
            n = movie.gif(display, a.out, a.scale)
        except (OSError, ValueError) as e:
            raise UsageError("cannot write %s: %s" % (clip(a.out), clip(e, 200))) from None
    except UsageError as e:
        sys.stderr.write("screenshot: %s\n" % one_line(e))
        return 2
    print("wrote %s (deal %d, %s, %d keys, %d frames)" % (a.out, a.deal, a.size, a.n_keys, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
