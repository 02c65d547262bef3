"""Every frame of a game, on a clock of its own: for the animated GIF (``tools/screenshot.py
--gif``) and the motion tests (host only).

``record(deal, size, script)`` plays ``script`` through ``sultan.app.run`` on a headless display
that keeps a picture of every refresh.  Time is a ``FrameClock``, not the wall's: each refresh
takes ``frame_ms`` of it and each idle pass of the main loop ``idle_ms``, so the animations of
``sultan.ui.motion`` (given it through ``sultan.app.run``'s ``clock``) play the same on any host, and
``PacedKeys`` presses each key ``gap_ms`` after the one before, as a player would.
"""

from sultan_host import scripted
from sultan_host.desktop.headless import HeadlessDisplay, to_image


class FrameClock:
    """Milliseconds that pass only as frames are drawn and the loop idles."""

    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


class MovieDisplay(HeadlessDisplay):
    """A headless display that keeps (time, RGB565 frame) of every refresh in ``shots``."""

    def __init__(self, width, height, clock, frame_ms=20):
        super().__init__(width, height)
        self.clock = clock
        self.frame_ms = frame_ms
        self.shots = []
        self.sent = []  # the pixels each refresh sent (HeadlessDisplay.sent_pixels), as shots

    def refresh(self, *args, **kwargs):
        done = super().refresh(*args, **kwargs)
        self.clock.ms += self.frame_ms
        self.shots.append((self.clock.ms, self.pixels()))
        self.sent.append(self.sent_pixels())
        return done


class PacedKeys:
    """A key source for ``sultan.app.run`` (it is its own ``events``): each key of ``script`` is
    pressed ``gap_ms`` after the one before; ``extra`` keys (name -> list of script positions)
    come at once, while the animation of the key before them runs."""

    def __init__(self, script, clock, display, gap_ms=700, idle_ms=20, at_once=()):
        self.keys = scripted.parse_keys(script)
        self.clock = clock
        self.display = display
        self.gap_ms = gap_ms
        self.idle_ms = idle_ms
        self.at_once = set(at_once)  # positions in the script pressed during the animation before
        self.pos = 0
        self.due = gap_ms
        self.seen = -1
        self.idle = False
        self.exhausted = False
        self.events = self

    def get(self):
        d = self.display
        if self.pos < len(self.keys) and (self.clock.ms >= self.due or (
                self.pos in self.at_once and d.refreshes > self.seen)):
            k = self.keys[self.pos]
            self.pos += 1
            self.due = self.clock.ms + self.gap_ms
            self.seen = d.refreshes
            self.idle = False
            return scripted.Event(k, True)
        if d.refreshes == self.seen and self.idle:  # twice nothing, nothing drawn: the loop idles
            self.clock.ms += self.idle_ms
        if self.pos >= len(self.keys) and self.clock.ms >= self.due:
            self.exhausted = True
        self.seen = d.refreshes
        self.idle = True
        return None


def record(deal, size, script, gap_ms=700, frame_ms=20, at_once=(), store=None, sound=None, clock=None):
    """(display, controller, lines) after playing ``script`` on ``clock`` (a ``FrameClock``, None: a new
    one); ``display.shots`` holds every frame,
    and ``display.said[i]`` how many of them were drawn when ``lines[i]`` was said (a key's
    ``SULTAN key=`` line: its last frame is ``shots[said[i] - 1]``, what the emulator photographs)."""
    from sultan import app

    w, h = (int(v) for v in size.split("x"))
    clock = FrameClock() if clock is None else clock
    display = MovieDisplay(w, h, clock, frame_ms)
    keys = PacedKeys(script, clock, display, gap_ms, at_once=at_once)
    lines = []
    display.said = []

    def say(line):
        lines.append(line)
        display.said.append(len(display.shots))

    ctrl = app.run(display, keys, board_id="movie", deal=deal, console=say,
                   rand_deal=lambda: 1, idle=0, store=store, sound=sound, clock=clock)
    return display, ctrl, lines


def gif(display, path, scale=1, hold_ms=1500):
    """Write ``display.shots`` as an animated GIF (each frame shown until the next one)."""
    shots = display.shots
    frames = []
    durations = []
    for i, (t, fb) in enumerate(shots):
        img = to_image(fb)
        if scale > 1:
            img = img.resize((img.width * scale, img.height * scale), 0)
        nxt = shots[i + 1][0] if i + 1 < len(shots) else t + hold_ms
        if frames and (fb == shots[i - 1][1]).all():
            durations[-1] += nxt - t  # the same picture: the frame before stays longer
            continue
        frames.append(img.convert("P", palette=1, colors=64))
        durations.append(nxt - t)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=[max(20, d) for d in durations],
                   loop=0, optimize=True, disposal=1)
    return len(frames)


def readme_movie(size="160x128"):
    """The README's opening picture as a display of shots: deal 8 -- a move, a refusal, the menu,
    two turns -- then the last move of a won game (deal 111, resumed one move from its end) and
    its cascade.

        python -m sultan_host.desktop.movie docs/sultan.gif     # (main)
    """
    from sultan.nostore import NoStore
    from sultan.rules import engine
    from sultan.ui.keys import NAMES

    first, _c, _l = record(8, size, "A A DOWN A RIGHT A SELECT DOWN DOWN B START START", gap_ms=900)
    deal = 111
    game = engine.Game(deal=deal)
    game.autoplay()
    game.undo()  # one move from the end

    class OneMoveLeft(NoStore):
        def load(self):
            return game

    walk = [NAMES[k] for k in scripted.route(0, engine.hint_place(game.hint()))]
    second, _c, _l = record(deal, size, " ".join(walk + ["A", "A"]), gap_ms=4000, store=OneMoveLeft())
    end = first.shots[-1][0]
    first.shots.extend((t + end, fb) for t, fb in second.shots)
    return first


def main(argv=None):
    """``python -m sultan_host.desktop.movie [FILE]``: the README's GIF, written only where nothing is
    lost (a new or empty file, or a GIF: ``args.gif_out``); anything else one line, exit 2."""
    import sys

    from sultan_host.args import Parser, UsageError, clip, gif_out, one_line

    p = Parser(prog="movie", description="The README's animated GIF (deal 8, then a won game's last move).")
    p.add_argument("out", nargs="?", default="sultan.gif", metavar="FILE",
                   help="the GIF to write (default sultan.gif): a new or empty file, or a GIF")
    try:
        a = p.parse_args(argv)
        gif_out(a.out, "FILE")
        first = readme_movie()
        gif_out(a.out, "FILE")  # again, just before writing
        try:
            n = gif(first, a.out, 2)
        except (OSError, ValueError) as e:
            raise UsageError("cannot write %s: %s" % (clip(a.out), clip(e, 200))) from None
    except UsageError as e:
        sys.stderr.write("movie: %s\n" % one_line(e))
        return 2
    print("wrote %s (%d frames)" % (a.out, n))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
