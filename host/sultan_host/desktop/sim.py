"""The desktop simulator: the real game code on Blinka displayio, in a pygame window.

    make sim                                   # a 160x128 PyBadge screen, 4x
    make sim ARGS="--size 320x240 --zoom 2"    # the Wokwi ILI9341 layout
    SDL_VIDEODRIVER=dummy make sim ARGS="--frames 50 --keys 'RIGHT A' --screenshot out.png"

Keys: arrows = D-pad, Z = A, X = B, Enter = START, Space = SELECT, Esc = quit.
With no display (no DISPLAY / WAYLAND_DISPLAY and no SDL_VIDEODRIVER) it says so
in one line and exits 0 instead of hanging.
"""

import argparse
import os
import sys

from sultan_host import scripted

TITLE = "Sultan - arrows: D-pad  Z: A  X: B  Enter: START  Space: SELECT  Esc: quit"
SIZES = ("160x128", "320x240")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("sim: %s\n" % message)
        sys.exit(2)


def no_display():
    """True on a Linux/BSD box with nowhere to open a window."""
    if sys.platform.startswith(("win", "darwin", "cygwin")):
        return False
    env = os.environ
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


def make_display(width, height, zoom):
    """A pygame window showing a ``width`` x ``height`` displayio display at ``zoom``."""
    import contextlib
    import io

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "GENERIC_X86 is not fully supported"
        import busdisplay
        import pygame
        from blinka_displayio_pygamedisplay import PyGameDisplay

    class ZoomedPyGameDisplay(PyGameDisplay):
        """PyGameDisplay drawing off screen at 1x, shown scaled in the window.

        Unlike its parent it refreshes only the dirty areas, as a real display does.
        """

        def _initialize(self, init_sequence):
            pygame.display.init()  # not pygame.init(): no audio wanted
            pygame.display.set_caption(self._caption)
            self._window = pygame.display.set_mode((self.width * zoom, self.height * zoom))
            self._pygame_screen = pygame.Surface((self.width, self.height))

        def _get_refresh_areas(self):
            return busdisplay.BusDisplay._get_refresh_areas(self)

        def _refresh_display(self):
            busdisplay.BusDisplay._refresh_display(self)
            self.present()
            self._refresh_pending = False

        def _background(self):
            """No background refresh: the game refreshes once per key."""

        def present(self):
            if self._pygame_screen is not None:
                pygame.transform.scale(self._pygame_screen, self._window.get_size(), self._window)
                pygame.display.flip()

        def save(self, path):
            pygame.image.save(self._window, path)

    import displayio

    displayio.release_displays()
    return ZoomedPyGameDisplay(width=width, height=height, caption=TITLE, auto_refresh=False)


class PygameKeys:
    """The keyboard as a key source (``.events.get()`` like keypad), after a script."""

    def __init__(self, display, script=""):
        import pygame
        from sultan.ui import keys

        self.pygame = pygame
        self.display = display
        self.keys = keys
        self.queue = scripted.ScriptedKeys(script).events
        self.exhausted = False
        self.map = {
            pygame.K_RIGHT: keys.RIGHT, pygame.K_LEFT: keys.LEFT, pygame.K_UP: keys.UP,
            pygame.K_DOWN: keys.DOWN, pygame.K_z: keys.A, pygame.K_x: keys.B,
            pygame.K_RETURN: keys.START, pygame.K_KP_ENTER: keys.START, pygame.K_SPACE: keys.SELECT,
        }
        self.events = self

    def get(self):
        if len(self.queue):
            return self.queue.get()
        pg = self.pygame
        for e in pg.event.get():
            if e.type == pg.QUIT or (e.type == pg.KEYDOWN and e.key == pg.K_ESCAPE):
                self.exhausted = True
            elif e.type in (pg.KEYDOWN, pg.KEYUP) and e.key in self.map:
                self.queue.items.append(scripted.Event(self.map[e.key], e.type == pg.KEYDOWN))
            elif e.type in (pg.WINDOWEXPOSED, pg.WINDOWSHOWN, pg.WINDOWRESTORED):
                self.display.present()
        return self.queue.get()


def main(argv=None):
    p = _Parser(prog="sim", description="Play Sultan in a window (Blinka displayio + pygame).")
    p.add_argument("--deal", type=int, default=None, help="deal number (default: random)")
    p.add_argument("--size", default="160x128", help="160x128 (PyBadge) or 320x240 (Wokwi ILI9341)")
    p.add_argument("--zoom", type=int, default=4, help="window scale (default 4)")
    p.add_argument("--keys", default="", help='key names played first, e.g. "RIGHT A"')
    p.add_argument("--frames", type=int, default=None, help="stop after this many loop turns")
    p.add_argument("--screenshot", default=None, help="write the window to this PNG at the end")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="resume from and save to FILE (default: sultan/save.bin in the user data dir, "
                        "only for a plain interactive run: not with --deal or --frames)")
    p.add_argument("--no-save", action="store_true", help="play without resuming or saving")
    a = p.parse_args(argv)
    if a.size not in SIZES:
        p.error("--size must be one of %s" % ", ".join(SIZES))
    if a.deal is not None and not 1 <= a.deal <= 999999999:
        p.error("--deal must be 1..999999999")
    if not 1 <= a.zoom <= 8:
        p.error("--zoom must be 1..8")

    try:
        scripted.parse_keys(a.keys)
    except ValueError as e:
        p.error(str(e))
    if no_display():
        print("sim: no display here (no DISPLAY/WAYLAND_DISPLAY); run with SDL_VIDEODRIVER=dummy "
              "and --frames N --screenshot out.png for a headless run")
        return 0
    from sultan import app

    w, h = (int(v) for v in a.size.split("x"))
    display = make_display(w, h, a.zoom)
    source = PygameKeys(display, a.keys)
    display.present()
    store = None
    if not a.no_save and (a.save or (a.deal is None and a.frames is None)):
        from sultan_host.filesave import open_store  # the game comes back next time (README: reliability)

        store = open_store(a.save)
    app.run(display, source, board_id="desktop_sim", deal=a.deal, frames=a.frames, idle=0.01, store=store)
    if a.screenshot:
        display.save(a.screenshot)
        print("sim: wrote %s" % a.screenshot)
    import pygame

    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
