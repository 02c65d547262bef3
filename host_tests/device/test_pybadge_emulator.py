"""The game on the badges' own CircuitPython in the SAMD51 emulator: every image found (the PyBadge's 9.1.1
and 10.2.1, the PyGamer's 10.2.1), each test once an image.

``python -m sultan_host.pybadge`` boots the real UF2 on ``samd51`` (Unicorn) with the CIRCUITPY ``make build
CP=<its major>`` writes, and drives it with the same words as the Pico (on the PyGamer the arrows push its
stick).  Here: the boot to ``SULTAN READY board=<board>`` with mem_free; the Pico's key plan
(test_screen_emulator.screens_plan: every animation's last frame, the menu, the pages, both languages)
pixel-identical to the host's 160x128; a game back after RESET as the host's store left it; power cuts aimed
into NVM writes, each boot judged by the host (sultan_host.bench.powercut); the win's sweep and tune; the
backlight's dimming; a seeded soak.  Each run prints its wall time.

Needs the badges' UF2s (vendor-local/pybadge/ and pygamer/, linked by .ci/run from ../shared/firmware, or
PYBADGE_UF2 / PYGAMER_UF2); skipped without any, with one reason; SULTAN_EMULATOR=required (CI) fails
instead when either board has none, as the Pico's emulator tests do (test_firmware_emulator.py).
"""

import json
import os
import re
import subprocess
import sys
import time

import pytest
from sultan_host.pybadge import image as pybadge

SIZE = "160x128"
IMAGES = pybadge.images()  # [(board, UF2)]


def missing():
    """Why no badge can run here (None: some can); under SULTAN_EMULATOR=required, a board without one."""
    whys = [pybadge.missing(board) for board in pybadge.BOARDS]
    if os.environ.get("SULTAN_EMULATOR") == "required":
        return next((w for w in whys if w), None)
    return whys[0] if not IMAGES else None


WHY = missing()
if WHY and os.environ.get("SULTAN_EMULATOR") == "required":  # as test_firmware_emulator.py: CI must run it
    raise pytest.UsageError("SULTAN_EMULATOR=required but " + WHY)
pytestmark = [pytest.mark.skipif(WHY is not None, reason=WHY or ""), pytest.mark.slow]


class Badge:
    """One image to run: its board, UF2 and CircuitPython major."""

    def __init__(self, board, uf2):
        self.board, self.uf2 = board, uf2
        self.version = pybadge.version_of(uf2)
        self.label = pybadge.label(board, uf2)

    def __repr__(self):
        return "%s-%d.%d.%d" % ((self.board,) + self.version)


@pytest.fixture(params=IMAGES or [None], ids=lambda i: repr(Badge(*i)) if i else "none", scope="module")
def badge(request):
    return Badge(*request.param)


_trees = {}


def tree(tmp_path_factory, badge, deal):
    """CIRCUITPY for the image's CircuitPython major with SULTAN_DEAL (built once per major and deal)."""
    key = (badge.version[0], deal)
    if key not in _trees:
        out = str(tmp_path_factory.mktemp("badge") / "CIRCUITPY")
        pybadge.build_tree(out, badge.version[0], deal=deal)
        _trees[key] = out
    return _trees[key]


class Run:
    """One run of the harness: its exit code, console, report and screenshots."""

    def __init__(self, tmp_path, badge, tree_dir, *args):
        self.out = tmp_path / "shots"
        report = tmp_path / "report.json"
        started = time.time()
        self.proc = subprocess.run(
            [sys.executable, "-m", "sultan_host.pybadge", "--board", badge.board, "--uf2", badge.uf2,
             "--tree", tree_dir, "--out", str(self.out), "--report", str(report), "--quiet",
             "--timeout-s", "3000", *args],
            capture_output=True, text=True, timeout=3300)
        self.wall_s = time.time() - started
        self.report = json.loads(report.read_text()) if report.exists() else {}
        print("%s run: %.1f s wall, %.0f ms simulated, %s" % (
            badge.label, self.wall_s, self.report.get("sim_ms", 0), " ".join(args)[:120]))

    def ok(self):
        assert self.proc.returncode == 0, (self.report.get("error"), self.proc.stderr[-3000:],
                                           self.proc.stdout[-2000:])
        return self

    def shots(self):
        from sultan_host.board import compare_png

        return [p for _i, _k, p in compare_png.emulator_shots(str(self.out))]


def differences(tmp_path, shots, pictures, labels):
    """[label: how it differs] for each screenshot unlike the host's picture."""
    from sultan_host.board import compare_png

    out = []
    for n, (path, img) in enumerate(zip(shots, pictures, strict=True)):
        want = tmp_path / ("host-%03d.png" % n)
        img.save(want)
        r = compare_png.compare(path, str(want), str(tmp_path / ("diff-%03d.png" % n)))
        if r["differ"]:
            out.append("%s (%s): %s" % (os.path.basename(path), labels[n], compare_png.describe(r)))
    return out


# -- the boot and the key plan: one run (one test: xdist never runs it twice) ------------------------------
def test_the_badge_boots_to_ready_and_every_screen_of_the_plan_matches_the_host(badge, tmp_path,
                                                                               tmp_path_factory):
    """READY with board=<board> and mem_free, the panel lit; then the Pico's key plan (deal 7), walked
    through the badges' longer menu (it has the Sound and Lights switches): each screenshot equals the
    host's 160x128 after the same keys, and every key's line came."""
    from sultan.saves.memory import MemoryRegion
    from sultan.saves.store import Store
    from sultan_host.desktop.screenshot import render
    from test_screen_emulator import screens_plan

    plan = screens_plan(sound=True)
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, 7), "--keys", plan.keys()).ok()
    ready = run.report["ready"]
    pattern = r"SULTAN READY board=%s deal=7 mem_free=(\d+) version=\S+ save=0" % badge.board
    m = re.search(pattern, ready[0]["text"]) if ready else None
    assert m, [ln["text"] for ln in run.report["lines"]][:20]
    assert int(m.group(1)) > 0 and run.report["display"]["on"] and run.report["backlight"]["duty"] > 0
    print("%s: READY at %.0f ms simulated, mem_free %s" % (badge.label, ready[0]["boot_ms"], m.group(1)))
    names = [w.split("*")[0] for w in plan.words]
    photographed = [i for i, w in enumerate(plan.words) if not w.endswith("!") and not w.startswith("WAIT:")]
    shots = run.shots()
    assert len(shots) == len(photographed) + 1
    pictures, labels = [], []
    for n in range(len(shots)):
        done = [w for w in names[:photographed[n - 1] + 1] if not w.startswith("WAIT:")] if n else []
        pictures.append(render(7, SIZE, " ".join(done), store=Store(MemoryRegion()), sound=True)[0])
        labels.append("after %d keys" % len(done))
    assert all(k["line_ms"] is not None for k in run.report["keys"])
    differ = differences(tmp_path, shots, pictures, labels)
    assert not differ, "%d of %d screens differ from the host's:\n%s" % (len(differ), len(shots),
                                                                         "\n".join(differ))


def test_the_heap_stays_one_piece_from_the_launcher_to_ready(badge, tmp_path, tmp_path_factory):
    """launch.one_heap grows the heap once, into one piece kept by a small object in it: under the heap
    trace (SULTAN_MEMTRACE) free + allocated is the same at every stage and import up to READY.  A piece
    given back, or the heap grown again piece by piece, changes it (each piece has its tables)."""
    out = str(tmp_path_factory.mktemp("badge") / "CIRCUITPY")
    pybadge.build_tree(out, badge.version[0], deal=7, memtrace=True)
    run = Run(tmp_path, badge, out, "--ready-only", "--no-shots").ok()
    texts = [line["text"] for line in run.report["lines"]]
    totals = [int(m.group(1)) for m in (re.search(r"^SULTAN mem .* total=(\d+)", t) for t in texts) if m]
    assert len(totals) > 20 and any(t.startswith("SULTAN READY") for t in texts), texts[-5:]
    assert len(set(totals)) == 1, [t for t in texts if t.startswith("SULTAN mem")]


# -- saves on the NVM ----------------------------------------------------------------------------------------
IDLE_WRITE = "WAIT:11000"  # the store writes after 10 s without a key


def test_a_game_comes_back_after_a_power_cycle(badge, tmp_path, tmp_path_factory):
    """Played, the idle write, RESET: the board shows what the host's app shows on the region its store
    left (the PyBadge's: 2 KB of an NVM whose every write erases), and undo reaches back across the reset."""
    from sultan.saves.memory import MemoryRegion
    from sultan.saves.stats import get
    from sultan.saves.store import Slots, Store
    from sultan_host.bench.powercut import BadgeRegion
    from sultan_host.desktop.screenshot import render

    before = "RIGHT A START START DOWN RIGHT A A START".split()
    after = ["LEFT", "B", "B"]
    region = BadgeRegion()
    render(7, SIZE, " ".join(before), store=Store(region))  # its flush at the end: the idle write
    saved = bytes(region.data)
    pictures = [render(7, SIZE, " ".join(after[:n]), store=Store(MemoryRegion(data=saved)), sound=True)[0]
                for n in range(len(after) + 1)]
    nvm = tmp_path / "nvm.bin"
    words = " ".join(before + [IDLE_WRITE, "RESET"] + after)
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, 7), "--keys", words, "--nvm-out", str(nvm)).ok()
    readies = [r["text"] for r in run.report["ready"]]
    assert len(readies) == 2 and readies[0].endswith(" save=0")
    rec, game, damaged = Slots(MemoryRegion(data=saved)).read()
    assert not damaged and game is not None and readies[1].endswith(" save=%d" % rec.seq)
    shots = run.shots()[1 + len(before):]
    differ = differences(tmp_path, shots, pictures, ["after RESET" + "".join(" " + k for k in after[:n])
                                                     for n in range(len(after) + 1)])
    assert not differ, "\n".join(differ)
    ops = run.report["nvm"]["ops"]
    assert ops and ops[0]["op"] == "erase_block" and not any("cut_ms" in o for o in ops)
    board = nvm.read_bytes()[:len(saved)]
    board_rec, board_game, board_damaged = Slots(MemoryRegion(data=board)).read()
    assert not board_damaged and (board_game.deal, board_game.moves) == (game.deal, game.moves)
    n = get(board, 8, 2)
    assert board[1024:1024 + n] == board[:n]  # the record in both slots


CI_CUTS = ("first write", "checkpoint", "pass end", "settings", "checkpoint")


def test_power_cuts_leave_the_last_save_the_one_before_or_a_fresh_game(badge, tmp_path, tmp_path_factory):
    """Cuts aimed inside each kind of write: on the PyBadge every write erases the 8 KB block and writes
    16 pages back (50 + 16 x 1.5 ms), so offsets are drawn within a page write (short) or the whole write
    (long).  Every boot shows the last write, the one before, or (only for a cut inside that erase or
    rewrite) a fresh game with the damage message; how many ended each way is printed."""
    from sultan_host.bench import powercut
    from sultan_host.bench.device.pbsaves import pico_shaped, same_as_host

    trials = powercut.plan(CI_CUTS, 1, short=1.5, long=74.0, sound=True)  # its menu: Sound and Lights too
    assert len(trials) >= 5
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, powercut.DEAL), "--keys", powercut.words(trials),
              "--seed", "1").ok()
    report = pico_shaped(run.report)
    powercut.verdicts(trials, run.shots(), report, SIZE, same_as_host(str(tmp_path)),
                      cls=powercut.BadgeRegion, sound=True)
    counts = {}
    for t in trials:
        counts[t.outcome] = counts.get(t.outcome, 0) + 1
    lines = ["%s at +%.3f ms: %s (%s)" % (t.kind, t.offset_ms, t.outcome, t.cut) for t in trials]
    print("power cuts: %s\n%s" % (counts, "\n".join(lines)))
    bad = [t for t in trials if not powercut.allowed(t)]
    assert not bad, "\n".join(lines)


# -- a won game: the win's sweep and tune --------------------------------------------------------------------
def tones(samples, gap_ms=10.0):
    """The square waves in the DAC's output changes ([ms, code] each): [(start ms, Hz, ms)], timed by the
    rising edges (a period's halves may differ by a sample); a tone ends where no edge rises for
    ``gap_ms`` (the lowest note's period is 6.8 ms) or the period changes by a tenth (one note
    straight after another)."""
    out, run, last = [], [], None

    def close():
        if len(run) >= 4:
            periods = sorted(b - a for a, b in zip(run, run[1:], strict=False))
            out.append((run[0], 1000.0 / periods[len(periods) // 2], run[-1] - run[0]))

    for ms, code in samples:
        rising, last = last is not None and code > last, code
        if not rising:
            continue
        if run and (ms - run[-1] > gap_ms or len(run) >= 2 and abs((ms - run[-1]) - (run[-1] - run[-2]))
                                                                 > 0.1 * (run[-1] - run[-2])):
            close()
            run = []
        run.append(ms)
    close()
    return out


def test_tones_finds_two_notes_and_a_rest():
    """500 Hz for 8 ms (uneven halves), 1 kHz straight after, a 20 ms rest, 500 Hz again."""
    samples = [[0.0, 2048]]
    for start, period, n in ((0.5, 2.0, 5), (10.0, 1.0, 10), (40.0, 2.0, 4)):
        for k in range(n):
            samples += [[start + k * period, 2304], [start + (k + 0.45) * period, 1792]]
    got = tones(samples)
    assert [(round(hz), round(ms)) for _t, hz, ms in got] == [(500, 8), (1000, 9), (500, 6)]


def test_a_won_game_shows_the_host_win_sweep_and_plays_its_tune(badge, tmp_path, tmp_path_factory):
    """Deal 322 played to its win with autoplay (test_screen_emulator.over_plan, the PyBadge's menu), the
    cascade ended by a key, then 2.5 s for the sweep: the won panel equals the host's, the NeoPixel
    frames on D8 after READY are the host Sound's win sweep ending dark, and the DAC plays the win's
    tune, each note at the pitch of the host's one-period sample at 16 kHz and for its length."""
    from sultan.saves.memory import MemoryRegion
    from sultan.saves.store import Store
    from sultan.ui import sound
    from sultan_host.desktop.screenshot import render
    from test_firmware_emulator import win_lights
    from test_screen_emulator import WON_DEAL, over_plan

    plan = over_plan(WON_DEAL, sound=True)
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, WON_DEAL), "--keys", plan.keys(),
              "--after-ms", "2500", "--flash-time-scale", "0").ok()
    done = " ".join(w.split("*")[0] for w in plan.words if not w.startswith("WAIT:"))
    want = render(WON_DEAL, SIZE, done, store=Store(MemoryRegion()), sound=True)[0]
    differ = differences(tmp_path, run.shots()[-1:], [want], ["the won panel"])
    assert not differ, differ
    ready_ms = run.report["ready"][0]["ms"]  # before it, the firmware's own dark frames (its board reset)
    lit = [f["pixels"] for f in run.report["neopixels"] if f["at_ms"] > ready_ms]
    assert lit == win_lights(), "%d NeoPixel frames after READY, %d in the host's sweep" % (
        len(lit), len(win_lights()))
    notes = [(f, ms) for f, ms in sound.TUNES["win"] if f]
    wanted = [16000.0 / len(sound.square_wave(f, 16000, 0.125)) for f, _ms in notes]
    got = tones(run.report["dac"]["samples"])
    starts = [i for i in range(len(got) - len(notes) + 1)
              if all(abs(got[i + j][1] - hz) < 0.02 * hz for j, hz in enumerate(wanted))]
    assert starts, "no win tune in the DAC's %d tones: %s" % (len(got), [(round(t), round(hz), round(ms))
                                                                          for t, hz, ms in got[-12:]])
    tune = got[starts[-1]:starts[-1] + len(notes)]
    print("the win's tune on the DAC: %s" % [(round(hz), round(ms)) for _t, hz, ms in tune])
    for (_t, _hz, ms), (f, length) in zip(tune, notes, strict=True):
        assert abs(ms - length) <= 15, (f, length, ms)


# -- a seeded soak -------------------------------------------------------------------------------------------
SOAK_KEYS = 60  # CI's share; the benchmark's soak is 300


def test_the_backlight_dims_goes_off_and_a_key_wakes_it_unplayed(badge, tmp_path, tmp_path_factory):
    """On the PyBadge: ``board.DISPLAY.brightness`` is TC2's PWM on PA01. START, then
    124.5 s with no key: the duty falls to a fifth 30 s after START and to 0 at 2 minutes; A lights it
    again and is not played (no line, the screen as before); RIGHT is played.  No NeoPixel is lit."""
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, 7), "--keys", "START WAIT:124500 A? RIGHT").ok()
    lines = run.report["lines"]
    start = next(ln["ms"] for ln in lines if ln["text"].startswith("SULTAN key=START"))
    changes = [(c["at_ms"] - start, c["duty"]) for c in run.report["backlight"]["changes"]]
    lit = [c for c in changes if c[0] < 0]
    assert lit and lit[-1][1] > 0.99, "the backlight not full at READY: %r" % changes
    after = [c for c in changes if c[0] >= 0]
    print("backlight after START: %s" % ", ".join("%.0f ms %.1f %%" % (t, 100 * d) for t, d in after))
    assert len(after) == 3, "want dim, off, wake after START: %r" % changes
    (dim_ms, dim), (off_ms, off), (wake_ms, wake) = after
    assert 29_000 < dim_ms < 31_500 and 0.15 < dim < 0.25, changes
    assert 119_000 < off_ms < 121_500 and off == 0, changes
    assert 124_500 < wake_ms < 125_500 and wake > 0.99, changes
    texts = [ln["text"] for ln in lines]
    assert not any(t.startswith("SULTAN key=A") for t in texts), "the waking key was played"
    assert any(t.startswith("SULTAN key=RIGHT") for t in texts)
    shots = {os.path.basename(p): p for p in run.shots()}
    from PIL import Image

    before, woke = (Image.open(shots[n]).convert("RGB").tobytes() for n in ("01-START.png", "02-A.png"))
    assert before == woke, "A changed the screen: it was played"
    assert not any(any(p) for f in run.report["neopixels"] for p in f["pixels"])


def test_a_held_arrow_repeats_and_a_seeded_soak_ends_with_no_exception(badge, tmp_path, tmp_path_factory):
    """DOWN held 700 ms (on the PyGamer its stick held down) answers more than once (the game's key repeat);
    then random keys (the Pico's mix and seed: on the PyGamer the arrows push the stick), each waited for:
    no traceback, no MemoryError (the harness fails a run whose console shows one), every key answered."""
    run = Run(tmp_path, badge, tree(tmp_path_factory, badge, 7), "--keys", "DOWN~700", "--random-keys",
              str(SOAK_KEYS), "--seed", "7", "--no-shots").ok()
    keys = run.report["keys"]
    assert len(keys) == 1 + SOAK_KEYS and all(k["line"] for k in keys)
    held = [ln for ln in run.report["lines"] if ln["text"].startswith("SULTAN key=")
            and ln["ms"] < keys[1]["press_ms"]]
    print("%s: DOWN held 700 ms answered %d times" % (badge.label, len(held)))
    assert len(held) >= 2 and all(ln["text"].startswith("SULTAN key=DOWN") for ln in held)
