"""The desktop simulator: the real game code on Blinka displayio, in a pygame window.

    make sim                                   # a 160x128 PyBadge screen, 4x
    make sim ARGS="--size 320x240 --zoom 2"    # the Wokwi ILI9341 layout
    SDL_VIDEODRIVER=dummy make sim ARGS="--frames 50 --keys 'RIGHT A' --screenshot out.png"

Keys: arrows = D-pad, Z = A, X = B, Enter = START, Space = SELECT, Esc = quit.
Closing the window, Esc, Ctrl-C and SIGTERM all save and quit.  With no display
(no DISPLAY / WAYLAND_DISPLAY and no SDL_VIDEODRIVER, or one that no server answers,
so that SDL would fall back to drawing off screen) it says so in one line and exits 0
instead of running unseen.  Bad arguments: one line on stderr, exit status 2,
checked before anything is played or written (``sultan_host.args``).  The save file
(``--save FILE``, else ``$SULTAN_SAVE`` or the user's data directory) is checked as the
CLI's ``--save`` is (``filesave.check_save_file``): a file that is not a readable save of
ours is refused, exit 2, and left alone.
"""

import os
import signal
import sys
import tempfile

from sultan_host import scripted
from sultan_host.args import Once, Parser, UsageError, clip, deal_number, one_line, png_out, whole

TITLE = "Sultan - arrows: D-pad  Z: A  X: B  Enter: START  Space: SELECT  Esc: quit"
SIZES = ("160x128", "320x240")


def no_display():
    """True on a Linux/BSD box with nowhere to open a window."""
    if sys.platform.startswith(("win", "darwin", "cygwin")):
        return False
    env = os.environ
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


NO_DISPLAY = ("sim: no display here (%s); run with SDL_VIDEODRIVER=dummy "
              "and --frames N --screenshot out.png for a headless run")


def no_window():
    """Why SDL can open no window here, or None: it would fall back to its off-screen driver
    (a DISPLAY no X server answers).  An SDL_VIDEODRIVER set by the user is taken as meant."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    with tempfile.TemporaryFile() as said:  # SDL's own complaints on fd 2 while it tries each driver
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(said.fileno(), 2)
        try:
            pygame.display.init()
            driver = pygame.display.get_driver()
        except pygame.error as e:
            driver = None
            failed = e
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        if driver is None:
            return "no video driver: %s" % clip(failed, 60)
        if driver in ("offscreen", "dummy"):
            pygame.display.quit()
            shown = [n + "=" + clip(os.environ[n], 20) for n in ("DISPLAY", "WAYLAND_DISPLAY")
                     if os.environ.get(n)]
            return "%s: no server answers" % " ".join(shown)
        said.seek(0)
        sys.stderr.write(said.read().decode("utf-8", "replace"))  # a window opens: hide nothing
    return None


def make_display(width, height, zoom):
    """A pygame window showing a ``width`` x ``height`` displayio display at ``zoom``: the headless
    display's framebuffer, drawn as the device draws (only the areas that change), shown scaled."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from sultan_host.desktop.headless import HeadlessDisplay, to_image

    class WindowDisplay(HeadlessDisplay):
        def __init__(self):
            pygame.display.init()  # not pygame.init(): no audio wanted
            pygame.display.set_caption(TITLE)
            self.window = pygame.display.set_mode((width * zoom, height * zoom))
            self.frame = pygame.Surface((width, height))  # at 1x, in the window's format
            super().__init__(width, height)

        def refresh(self, *args, **kwargs):
            done = super().refresh(*args, **kwargs)
            self.present()
            return done

        def present(self):
            img = to_image(self.framebuffer)
            self.frame.blit(pygame.image.frombuffer(img.tobytes(), img.size, "RGB"), (0, 0))
            pygame.transform.scale(self.frame, self.window.get_size(), self.window)
            pygame.display.flip()

        def save(self, path):
            pygame.image.save(self.window, path)

    return WindowDisplay()


class PygameKeys:
    """The keyboard as a key source (``.events.get()`` like keypad), after a script."""

    def __init__(self, display, script=""):
        import pygame
        from sultan.ui import keys

        self.pygame = pygame
        self.display = display
        self.keys = keys
        self.queue = scripted.ScriptedKeys(script).events
        self.scripted = len(self.queue)  # the script's events: the queue's first ones
        self.exhausted = False
        self.map = {
            pygame.K_RIGHT: keys.RIGHT, pygame.K_LEFT: keys.LEFT, pygame.K_UP: keys.UP,
            pygame.K_DOWN: keys.DOWN, pygame.K_z: keys.A, pygame.K_x: keys.B,
            pygame.K_RETURN: keys.START, pygame.K_KP_ENTER: keys.START, pygame.K_SPACE: keys.SELECT,
        }
        self.events = self

    def stop(self, *_signal):
        """End the game loop at its next turn (Ctrl-C: the store is flushed as on closing)."""
        self.exhausted = True

    def scripted_left(self):
        """How many of the script's key presses were never taken."""
        q = self.queue
        return sum(1 for e in q.items[q.pos:self.scripted] if e.pressed)

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


def parse_args(argv=None):
    """The options, every one checked (UsageError on the first that is wrong)."""
    p = Parser(prog="sultan-sim", description="Play Sultan in a window (Blinka displayio + pygame).")
    p.add_argument("--deal", action=Once, default=None, help="deal number (default: random)")
    p.add_argument("--size", action=Once, default="160x128", choices=SIZES,
                   help="160x128 (PyBadge) or 320x240 (Wokwi ILI9341)")
    p.add_argument("--zoom", action=Once, default="4", help="window scale 1..8 (default 4)")
    p.add_argument("--keys", action=Once, default="", help='key names played first, e.g. "RIGHT A"')
    p.add_argument("--frames", action=Once, default=None, help="stop after this many loop turns (0 or more)")
    p.add_argument("--screenshot", action=Once, default=None, help="write the window to this PNG at the end")
    p.add_argument("--save", action=Once, default=None, metavar="FILE",
                   help="resume from and save to FILE (default: sultan/save.bin in the user data dir, "
                        "only for a plain interactive run: not with --deal or --frames); FILE must be "
                        "missing, empty or a save of ours")
    p.add_argument("--no-save", action="store_true", help="play without resuming or saving")
    a = p.parse_args(argv)
    a.deal = None if a.deal is None else deal_number(a.deal, "--deal")
    a.zoom = whole(a.zoom, "--zoom", 1, 8)
    a.frames = None if a.frames is None else whole(a.frames, "--frames", 0, 10**9)
    if a.screenshot is not None:
        png_out(a.screenshot, "--screenshot")
    if a.save is not None and a.no_save:
        raise UsageError("--save and --no-save together: choose one")
    a.save_path = save_path(a)
    try:
        scripted.parse_keys(a.keys)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return a


def save_path(a):
    """The file the run resumes from and saves to (None: none), checked as ``--save`` is."""
    from sultan_host.filesave import check_save_file, default_path

    if a.no_save:
        return None
    if a.save is not None:
        path, what = a.save, ""
    elif a.deal is None and a.frames is None:  # the user's data directory: the game comes back next time
        path = default_path()
        what = "$SULTAN_SAVE: " if os.environ.get("SULTAN_SAVE") else ""
    else:
        return None
    try:
        check_save_file(path, make_dirs=a.save is None)
    except ValueError as e:
        raise UsageError("%s%s (--no-save plays without saving)" % (what, e)) from None
    return path


def open_save(a):
    """The store the run resumes from and saves to, or None; a newer record it cannot use is said."""
    from sultan.saves.store import Store

    from sultan_host.filesave import FileRegion, resume_note

    if a.save_path is None:
        return None
    probe = Store(FileRegion(a.save_path))
    if probe.load(repair=False) is not None:
        note = resume_note(probe, clip(a.save_path))
        if note:
            sys.stderr.write("sim: %s\n" % note)
    return Store(FileRegion(a.save_path, make_dirs=a.save is None))


def main(argv=None):
    try:
        a = parse_args(argv)
    except UsageError as e:
        sys.stderr.write("sim: %s\n" % one_line(e))
        return 2
    why = "no DISPLAY/WAYLAND_DISPLAY" if no_display() else no_window()
    if why:
        print(NO_DISPLAY % why)
        return 0
    from sultan import app

    w, h = (int(v) for v in a.size.split("x"))
    display = make_display(w, h, a.zoom)
    source = PygameKeys(display, a.keys)
    display.present()
    store = open_save(a)
    previous = signal.signal(signal.SIGINT, source.stop)  # Ctrl-C: save and quit, as closing does
    try:
        app.run(display, source, board_id="desktop_sim", deal=a.deal, frames=a.frames, idle=0.01, store=store)
    except KeyboardInterrupt:  # one that came before the handler: what was played is still saved
        if store is not None:
            store.flush()
    except BrokenPipeError:  # stdout closed (make sim | head): quit as on closing the window, saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush goes nowhere
        if store is not None:
            store.flush()
    finally:
        signal.signal(signal.SIGINT, previous)
    code = 0
    if store is not None and store.error is not None:
        sys.stderr.write("sim: cannot save %s: %s\n" % (clip(a.save_path), clip(store.error, 200)))
        code = 1
    left = source.scripted_left()
    if left:  # --frames ended the run first: say so, never drop keys silently
        n = len(scripted.parse_keys(a.keys))
        sys.stderr.write("sim: %d of the %d --keys not played: --frames %s ended the run first\n"
                         % (left, n, a.frames))
        code = code or 1
    if a.screenshot:
        try:
            png_out(a.screenshot, "--screenshot")  # again: the game may have run for hours
            display.save(a.screenshot)
            print("sim: wrote %s" % a.screenshot)
        except UsageError as e:
            sys.stderr.write("sim: %s\n" % one_line(e))
            code = 2
        except Exception as e:  # pygame.error, OSError: the game is saved already
            sys.stderr.write("sim: cannot write %s: %s\n" % (clip(a.screenshot), clip(e, 200)))
            code = 2
    import pygame

    pygame.quit()
    return code


if __name__ == "__main__":
    sys.exit(main())
