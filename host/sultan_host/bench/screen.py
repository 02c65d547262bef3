"""Screen budget figures on the headless display: pixels changed and sent per action,
displayio objects and bitmap bytes.

    .venv/bin/python -m sultan_host.bench.screen [--deals 3] [--size 160x128]

"changed" = framebuffer pixels whose colour differs after the action's single
refresh; "sent" = pixels in the dirty areas that refresh wrote, an area that
overlaps another counted again, as displayio renders and sends each area on its
own (what the SPI bus carries on the device: the emulator's RAMWR count).  The
headless display books refreshes as CircuitPython does, so these are the
device's areas.  Whole games are played by button presses (the canonical
policy, walking the cursor), so every kind of action is measured many times.

It also times what sound adds to a move (``sultan.ui.sound.Sound`` over an audio
object whose ``play`` returns at once, as audioio's does: the DMA plays the
tone): ``event()`` after a key, ``update()`` on each loop pass, and a whole key
(press, sound, screen update, refresh) with and without sound.
"""

import argparse
import sys

from sultan import app
from sultan.rules import engine
from sultan.ui import keys
from sultan.ui.layout import F0, STOCK
from sultan.ui.modes import OVER

from sultan_host.desktop.blinka_adapter import bitmap_bytes
from sultan_host.desktop.headless import HeadlessDisplay
from sultan_host.scripted import route


def game_script(deal):
    """(kind, keys) pairs playing ``deal`` by buttons, kind naming what the keys do."""
    g = engine.Game(deal=deal)
    cur = 0
    out = []
    while True:
        h = g.hint()
        if not h:
            return out
        k = engine.hint_kind(h)
        if k == engine.A_PLAY:
            p = engine.hint_place(h)
            f = F0 + engine.hint_foundation(h)
            for key in route(cur, p):
                out.append(("cursor move", key))
            out.append(("select", keys.A))
            for key in route(p, f):
                out.append(("cursor move", key))
            out.append(("play", keys.A))
            cur = f
        elif k == engine.A_TURN:
            out.append(("draw (turn)", keys.START))
        else:
            for key in route(cur, STOCK):
                out.append(("cursor move", key))
            out.append(("redeal", keys.A))
            cur = STOCK
        g.step()


def extra_script():
    """Actions the policy never does: undo, the menu, the Rules page (the menu's last item)."""
    return [("undo (B)", keys.B), ("menu open", keys.SELECT), ("menu move", keys.DOWN),
            ("menu close", keys.B), ("menu open", keys.SELECT), ("menu move", keys.UP),
            ("menu move", keys.UP), ("page open", keys.A), ("page close", keys.B)]


def walk(obj, seen, counts):
    """Count displayio objects under ``obj``; collect unique bitmaps and palettes."""
    import displayio

    if isinstance(obj, displayio.Group):
        counts["Group"] += 1
        for child in obj:
            walk(child, seen, counts)
    elif isinstance(obj, displayio.TileGrid):
        counts["TileGrid"] += 1
        for o in (obj.bitmap, obj.pixel_shader):
            if id(o) not in seen:
                seen[id(o)] = o
                counts[type(o).__name__] += 1
    else:  # a vectorio shape
        counts["vectorio"] += 1
        if id(obj.pixel_shader) not in seen:
            seen[id(obj.pixel_shader)] = obj.pixel_shader
            counts["Palette"] += 1


def figures(size, deals):
    w, h = (int(v) for v in size.split("x"))
    area = w * h
    stats = {}
    d = None
    for deal in deals:
        d = HeadlessDisplay(w, h)
        ctrl, screen = app.start(d, deal=deal, rand_deal=lambda: 1)
        ctrl.press(keys.UP)  # a first key: the key help leaves the message line
        ctrl.press(keys.DOWN)
        screen.update(ctrl)
        d.refresh()
        for kind, key in game_script(deal) + extra_script():
            before = d.framebuffer.copy()
            mode = ctrl.mode
            ctrl.press(key)
            if ctrl.mode == OVER and mode != OVER:
                kind = "game over"
            screen.update(ctrl)
            d.refresh()
            changed = int((before != d.framebuffer).sum())
            sent = d.sent_pixels()
            s = stats.setdefault(kind, [0, 0, 0, 0, 0])
            s[0] += 1
            s[1] += changed
            s[2] = max(s[2], changed)
            s[3] += sent
            s[4] = max(s[4], sent)
    seen = {}
    counts = {"Group": 0, "TileGrid": 0, "vectorio": 0, "Bitmap": 0, "Palette": 0}
    walk(d.root_group, seen, counts)
    import displayio

    bmp_total = sum(bitmap_bytes(o) for o in seen.values() if isinstance(o, displayio.Bitmap))
    sheet = bitmap_bytes(screen.sheet)
    return area, stats, counts, bmp_total, sheet


class _InstantAudio:
    """Like audioio.AudioOut: play() and stop() return at once."""

    playing = False

    def play(self, sample, loop=False):
        self.playing = True

    def stop(self):
        self.playing = False


class _Pixels(list):
    auto_write = False

    def show(self):
        pass


def sound_figures(deals, size="160x128"):
    """Microseconds per key: (event mean, event max, update mean, key without sound, key with sound)."""
    import time

    from sultan.ui.sound import Sound

    w, h = (int(v) for v in size.split("x"))
    ev_t = []
    up_t = []
    key_t = {False: [], True: []}
    for with_sound in (False, True, False, True):  # alternated, so a slow moment hits both alike
        for deal in deals:
            d = HeadlessDisplay(w, h)
            snd = Sound(audio=_InstantAudio(), pixels=_Pixels([(0, 0, 0)] * 5),
                        make_sample=lambda f, r, v: f) if with_sound else None
            ctrl, screen = app.start(d, deal=deal, rand_deal=lambda: 1, sound=snd)
            for _kind, key in game_script(deal):
                t0 = time.perf_counter()
                if snd is not None:
                    u0 = time.perf_counter()
                    snd.update()
                    up_t.append(time.perf_counter() - u0)
                ctrl.press(key)
                if snd is not None and ctrl.event:
                    e0 = time.perf_counter()
                    snd.event(ctrl.event)
                    ev_t.append(time.perf_counter() - e0)
                screen.update(ctrl)
                d.refresh()
                key_t[with_sound].append(time.perf_counter() - t0)
    us = 1e6
    return (us * sum(ev_t) / len(ev_t), us * max(ev_t), us * sum(up_t) / len(up_t),
            us * sum(key_t[False]) / len(key_t[False]), us * sum(key_t[True]) / len(key_t[True]), len(ev_t))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=3, help="how many deals to play (default 3)")
    p.add_argument("--size", default=None, help="160x128 or 320x240 (default: both)")
    a = p.parse_args(argv)
    sizes = [a.size] if a.size else ["160x128", "320x240"]
    for size in sizes:
        area, stats, counts, bmp_total, sheet = figures(size, list(range(1, a.deals + 1)))
        print("%s (%d px), %d deals played by buttons:" % (size, area, a.deals))
        print("  %-12s %6s %16s %16s %16s %16s" % ("action", "count", "changed mean", "changed max",
                                                    "sent mean", "sent max"))
        for kind in sorted(stats):
            n, ch, chmax, se, semax = stats[kind]
            print("  %-12s %6d %9d %5.1f%% %9d %5.1f%% %9d %5.1f%% %9d %5.1f%%" % (
                kind, n, ch // n, 100.0 * ch / n / area, chmax, 100.0 * chmax / area,
                se // n, 100.0 * se / n / area, semax, 100.0 * semax / area))
        print("  displayio objects: %d Groups, %d TileGrids, %d vectorio shapes, %d Bitmaps, %d Palettes"
              " (%d in all)" % (counts["Group"], counts["TileGrid"], counts["vectorio"], counts["Bitmap"],
                                counts["Palette"], sum(counts.values())))
        print("  bitmap bytes: %d (sprite sheet %d)" % (bmp_total, sheet))
    ev, ev_max, up, key0, key1, n = sound_figures(list(range(1, a.deals + 1)))
    print("sound (160x128, %d events): event() %.1f us mean, %.1f us max; update() %.1f us a loop pass;"
          % (n, ev, ev_max, up))
    print("  a whole key (press, sound, screen, refresh) %.2f ms with sound, %.2f ms without"
          % (key1 / 1000, key0 / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
