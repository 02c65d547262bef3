#!/usr/bin/env python3
"""The device benchmark: the Wokwi build on real CircuitPython in the RP2040 emulator, one table.

    python tools/emulate/bench_device.py [--bootrom vendor-local/bootrom.js] [--firmware CP.uf2 ...]
        [--sizes 320x240,160x128] [--deal 7] [--soak N] [--cuts N] [--seed S] [--jobs 2]
        [--out build/bench-device] [--only anim]

For each CircuitPython UF2 (default: the newest 10.x, 9.x and 8.x Pico UF2s in vendor-local/) and each size
(160x128 through the emulator's test profile, see tools/wokwi_image.py --size), it boots the game on
deal ``--deal`` and plays one fixed key plan, then prints one table of:

* ``mem_free`` at ``SULTAN READY``, and the whole heap (a bare code.py's ``mem_free + mem_alloc``);
* start-up: from a bare code.py's serial line to the game's ``SULTAN READY``, both on the same
  firmware and counted from reset in simulated time (the firmware's own boot cancels out);
* per key kind, from the keypad scan that latches the press (keypad scans every 20 ms: a real
  thumb adds 0-20 ms) to the key's ``SULTAN key=`` line, written after the display refresh:
  min / median / max in simulated ms, and the median RAMWR pixels the ILI9341 received.

The key plan is made on the host by the game's own Controller (lib/sultan), which also names each
key's kind (cursor move, turn, select, play, menu open/scroll/close, page open/close, digit editor,
redeal, new deal, won/lost panel) and predicts each ``SULTAN key=`` line; a device line that differs
is reported.  The stock is emptied for the redeal by a burst of START presses, left out of the figures.
``--soak N`` adds a run of N seeded random keys on each firmware at 320x240 (the tightest heap) that
must end with no MemoryError and every key answered.  Each animation's frame rate comes from the
game's ``SULTAN anim=`` lines, of the key plan's run and of a second run on each firmware at each size
(``anim_plan``: deal 322 -- the hint's card, a player's move, its undo and redo, turns, the restart's
deal, then autoplay until the game is won and 3 s of its cascade); ``--only anim`` runs only that
and prints only the animations' table.  ``--cuts N`` adds N power cuts aimed inside each kind of save
(``sultan_host.bench.powercut``: the first write, a checkpoint, a pass's end, a settings change, a
lost game's record), spread over the firmwares at 160x128, and one table of what each boot showed.

It prints figures; it asserts nothing about them.  Everything runs in simulated time: wall-clock
speed (about 1/2 to 1/8 of real time) does not change a figure.
"""

import argparse
import glob
import itertools
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from sultan_host.board import wokwi as wokwi_image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


DEFAULT_OUT = os.path.join(ROOT, "build", "bench-device")
UF2_GLOB = "adafruit-circuitpython-raspberry_pi_pico-*-%d.*.uf2"
KINDS = (
    "cursor move",
    "turn",
    "select",
    "play",
    "cancel",
    "menu open",
    "menu scroll",
    "menu close",
    "page open",
    "page close",
    "digit editor open",
    "digit change",
    "digit editor close",
    "redeal",
    "new deal",
    "won/lost panel",
    "won/lost panel close",
)


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "bench_device: %s\n" % message[:300])


# ------------------------------------------------------------------ the key plan (host)
class Model:
    """The game's Controller on the host, fed the same keys as the device."""

    def __init__(self, deal):
        try:
            from sultan.ui import controller as C
            from sultan.ui import keys as K
        except ImportError:  # before the lib/sultan subpackages
            from sultan import controller as C  # type: ignore[no-redef]
            from sultan import keys as K  # type: ignore[no-redef]
        try:
            from sultan.rules import engine as E
        except ImportError:
            from sultan import engine as E  # type: ignore[no-redef]
        try:  # the menu's item numbers (M_*): sultan.ui.menu, or the controller before it
            from sultan.ui import menu as Mn
        except ImportError:
            Mn = C
        self.C, self.K, self.E, self.Mn = C, K, E, Mn
        game = E.Game(deal=deal, rules=C.settings_rules(0))
        self.ctrl = C.Controller(game, lambda: 1, False, None, 0)
        self.number = {name: i for i, name in enumerate(K.NAMES)}

    def state(self):
        c, g = self.ctrl, self.ctrl.game
        return {
            "mode": c.mode,
            "cursor": c.cursor,
            "selected": c.selected,
            "placed": g.placed,
            "pass": g.pass_no,
        }

    def line(self, name):
        g = self.ctrl.game
        return "SULTAN key=%s placed=%d pass=%d status=%s" % (
            name,
            g.placed,
            g.pass_no,
            self.E.STATUS_NAMES[g.status()],
        )

    def press(self, name):
        """Press ``name`` on the model; returns (kind, predicted SULTAN key= line)."""
        C = self.C
        before = self.state()
        self.ctrl.press(self.number[name])
        after = self.state()
        event = self.ctrl.event
        bm, am = before["mode"], after["mode"]
        if am == C.OVER and bm != C.OVER:
            kind = "won/lost panel"
        elif event == "redeal":
            kind = "redeal"
        elif event == "deal":
            kind = "new deal"
        elif bm == C.PLAY:
            if name in ("UP", "DOWN", "LEFT", "RIGHT"):
                kind = "cursor move"
            elif event == "place":
                kind = "play"
            elif am == C.MENU:
                kind = "menu open"
            elif name == "B":
                kind = "cancel" if before["selected"] != after["selected"] else "undo"
            elif name == "A" and after["selected"] != before["selected"] and after["selected"] != C.NONE:
                kind = "select"
            elif name in ("START", "A") and after["pass"] == before["pass"] and event != "refuse":
                kind = "turn"
            else:
                kind = "refused"
        elif bm == C.MENU:
            if am == C.MENU:
                kind = "menu scroll"
            elif self.is_page(am):
                kind = "page open"
            elif am == C.DEAL:
                kind = "digit editor open"
            elif am == C.PLAY and name in ("B", "SELECT"):
                kind = "menu close"
            else:
                kind = "menu item"
        elif self.is_page(bm):
            kind = "page close"
        elif bm == C.DEAL:
            kind = "digit change" if am == C.DEAL else "digit editor close"
        elif am != C.OVER:
            kind = "won/lost panel close"
        else:
            kind = "panel key"
        return kind, self.line(name)

    def is_page(self, mode):
        """A text page (Rules, Statistics, ...): any mode but play, menu, digit editor, panel."""
        C = self.C
        return mode not in (C.PLAY, C.MENU, C.DEAL, C.OVER)

    def menu_to(self, item):
        """Keys that move the open menu's marker to ``item`` (an M_* number), the short way."""
        items = self.ctrl.items
        n = len(items)
        i = items.index(item)
        down = (i - self.ctrl.menu_index) % n
        return ["DOWN"] * down if down <= n - down else ["UP"] * (n - down)


def plan(deal):
    """[(key word for emulate.js, kind, predicted line or None)]: the benchmark's key plan."""
    m = Model(deal)
    C, Mn = m.C, m.Mn
    out = []

    def press(*names):
        for name in names:
            kind, line = m.press(name)
            out.append((name, kind, line))

    press("RIGHT", "DOWN", "LEFT", "UP", "RIGHT", "RIGHT")
    press("START", "START", "START")
    # select and play: the nearest card (by cursor moves) that goes home; turn more if none does
    for _ in range(30):
        path = _find_play(deal, [w for w, _k, _l in out])
        if path is not None:
            press(*path)
            break
        press("START")
    # select, then cancel
    if m.ctrl.cursor < C.TALON and m.ctrl.game.card_at(m.ctrl.cursor):
        press("A")
        if out[-1][1] == "select":
            press("B")
    # the menu: open, scroll, close
    press("SELECT", "DOWN", "DOWN", "DOWN", "UP", "UP", "UP", "B")
    # the pages
    for item in (Mn.M_RULES, Mn.M_STATS):
        press("SELECT", *m.menu_to(item))
        press("A", "B")
    # the digit editor
    press("SELECT", *m.menu_to(Mn.M_CHOOSE))
    press("A", "UP", "LEFT", "DOWN", "B")
    def burst_until(want):
        """START pressed in a burst (not timed) up to the press of kind ``want``, which is timed;
        False if the game never gets there."""
        n = _starts_until(deal, [w for w, _k, _l in out], want)
        if n is None:
            return False
        if n > 1:
            for _ in range(n - 1):
                m.press("START")
            out.append(("START*%d!" % (n - 1), "burst", None))
        press("START")
        return True

    # empty the stock, then the redeal and two turns; then on until the game is lost: the
    # won/lost panel, and B (an undo) to close it
    if burst_until("redeal"):
        press("START", "START")
        if burst_until("won/lost panel"):
            press("B")
    # a new random deal (the device's differs from the host's: nothing is predicted after it)
    press("SELECT", *m.menu_to(Mn.M_NEW))
    press("A")
    out[-1] = (out[-1][0], out[-1][1], None)
    out += [
        ("RIGHT", "cursor move", None),
        ("START", "turn", None),
        ("SELECT", "menu open", None),
        ("B", "menu close", None),
    ]
    return out


WON_DEAL = 322  # with autoplay on, START wins it in 121 presses from the deal (test_screen_emulator)
CASCADE_WAIT_MS = 3000  # the cascade runs this long (simulated) before the key that ends it


def anim_plan(deal=WON_DEAL):
    """[(key word, kind, predicted line or None)]: every animation on a deal that autoplay wins --
    the hint's card, a player's move, its undo and redo, three turns, the restart's deal, autoplay's
    steps after the winning START (the START before it in a burst, not timed), then the cascade for
    ``CASCADE_WAIT_MS`` before a key ends it."""
    from sultan_host.scripted import route

    m = Model(deal)
    Mn, E, g = m.Mn, m.E, m.ctrl.game
    out = []

    def press(*names):
        for name in names:
            kind, line = m.press(name)
            out.append((name, kind, line))

    def choose(item):
        press("SELECT", *m.menu_to(item))
        press("A")

    for _ in range(30):  # turns until the hint is a card to play
        if E.hint_kind(g.hint()) == E.A_PLAY:
            break
        press("START")
    choose(Mn.M_HINT)  # its card slides to its foundation
    press(*(m.K.NAMES[k] for k in route(m.ctrl.cursor, E.hint_place(m.ctrl.hint))))
    press("A", "A")  # the player's move
    press("B")  # the undo: back to its slot
    choose(Mn.M_REDO)  # and home again
    press("START", "START", "START")
    choose(Mn.M_RESTART)  # the deal, dealt from the stock
    choose(Mn.M_AUTO)
    trial = _replay(deal, [w for w, _k, _l in out])  # how many STARTs win it
    n = 0
    while trial.ctrl.mode != trial.C.OVER and n < 400:
        trial.press("START")
        n += 1
    if trial.ctrl.game.status() != E.WON:
        return out
    if n > 1:
        for _ in range(n - 1):
            m.press("START")
        out.append(("START*%d!" % (n - 1), "burst", None))
    press("START")  # the win: autoplay's last steps, then the cascade
    out[-1] = (out[-1][0], "autoplay", out[-1][2])
    out.append(("WAIT:%d" % CASCADE_WAIT_MS, "wait", None))
    press("RIGHT")  # ends the cascade: the won panel
    return out


def _replay(deal, words):
    m = Model(deal)
    for w in words:
        mm = re.fullmatch(r"([A-Z]+)\*(\d+)!", w)
        for _ in range(int(mm.group(2)) if mm else 1):
            m.press(mm.group(1) if mm else w)
    return m


def _find_play(deal, words):
    """Cursor keys + A + A that play a card home from the state after ``words``, or None."""
    start = _replay(deal, words)
    seen = {start.ctrl.cursor}
    frontier = [[]]
    for _depth in range(7):
        nxt = []
        for path in frontier:
            for key in ("RIGHT", "LEFT", "DOWN", "UP"):
                p = path + [key]
                m = _replay(deal, words + p)
                if m.ctrl.cursor in seen:
                    continue
                seen.add(m.ctrl.cursor)
                nxt.append(p)
                kind1, _ = m.press("A")
                if kind1 != "select":
                    continue
                kind2, _ = m.press("A")
                if kind2 == "play":
                    return p + ["A", "A"]
        frontier = nxt
    return None


def _starts_until(deal, words, want, limit=400):
    """How many START presses from the state after ``words`` until one of kind ``want`` ("redeal",
    "won/lost panel"); None if the game ends first, or never within ``limit``."""
    m = _replay(deal, words)
    for n in range(1, limit + 1):
        kind, _line = m.press("START")
        if kind == want:
            return n
        if kind == "won/lost panel":
            return None
    return None


# ------------------------------------------------------------------ running the emulator
def run_emulator(image, bootrom, out_dir, keys=None, scenario=None, window=None, report=None, extra=(),
                 shots=False, timeout_s=3000):
    cmd = [
        "node",
        os.path.join(HERE, "emulate.js"),
        "--firmware",
        image,
        "--bootrom",
        bootrom,
        "--out",
        out_dir,
        "--quiet",
        "--timeout-s",
        str(timeout_s),  # wall time: a safety net only
    ]
    if not shots:
        cmd.append("--no-shots")
    if keys:
        cmd += ["--keys", keys]
    if scenario:
        cmd += ["--scenario", scenario]
    if window:
        cmd += ["--window", window]
    if report:
        cmd += ["--report", report]
        if os.path.exists(report):  # never read an earlier run's figures
            os.remove(report)
    cmd += list(extra)
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc, time.time() - t0


def bare_run(job):
    scenario = os.path.join(job["dir"], "bare.yaml")
    with open(scenario, "w") as f:
        f.write("name: bare code.py\nversion: 1\nsteps:\n  - wait-serial: 'SULTAN BARE'\n")
    report = os.path.join(job["dir"], "bare.json")
    proc, wall = run_emulator(job["image"], job["bootrom"], job["dir"], scenario=scenario, report=report)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout)[-800:]}
    data = json.load(open(report))
    line = next((ln for ln in data["lines"] if "SULTAN BARE" in ln["text"]), {"text": ""})
    m = re.search(r"heap=(\d+) mem_free=(\d+) waited_ms=(\d+)", line["text"])
    if not m:
        return {"error": "no SULTAN BARE line: %r" % [ln["text"] for ln in data["lines"]][:5]}
    # the bare code.py's first line: when it started (it waited for the USB host before printing)
    return {
        "line_ms": line["ms"] - int(m.group(3)),
        "heap": int(m.group(1)),
        "mem_free": int(m.group(2)),
        "wall_s": wall,
    }


def game_run(job):
    report = os.path.join(job["dir"], "game.json")
    # the plan's bursts with instant flash writes: a press inside an NVM write (interrupts off) is
    # missed, as on a real board; the soak waits for each key's line, so its writes take their time
    extra = (["--random-keys", str(job["soak"]), "--seed", str(job["seed"])] if job.get("soak")
             else ["--flash-time-scale", "0"])
    proc, wall = run_emulator(
        job["image"],
        job["bootrom"],
        job["dir"],
        keys=job["keys"],
        window=job["window"],
        report=report,
        extra=extra,
    )
    data = json.load(open(report)) if os.path.exists(report) else {}
    data["returncode"] = proc.returncode
    data["stderr_tail"] = proc.stderr[-1500:]
    data["wall_s"] = wall
    return data


# ------------------------------------------------------------------ the table
def summarise(steps, game, bare):
    """{row: cell} for one configuration."""
    cells = {}
    ready = next((ln for ln in game.get("lines", []) if "SULTAN READY" in ln["text"]), {})
    m = re.search(r"deal=(\d+) mem_free=(\d+)", ready.get("text", ""))
    cells["mem_free at READY"] = "{:,}".format(int(m.group(2))) if m else "-"
    cells["heap (bare code.py)"] = "{:,}".format(bare["heap"]) if "heap" in bare else "-"
    if "line_ms" in bare and ready.get("ms") is not None:
        cells["start-up (s)"] = "%.2f" % ((ready["ms"] - bare["line_ms"]) / 1000)
    else:
        cells["start-up (s)"] = "-"
    timed = [s for s in steps if s[1] not in ("burst", "wait")]
    keys = [k for k in game.get("keys", []) if not k.get("burst")]
    by_kind = {}
    mismatches = []
    for (word, kind, predicted), rec in zip(timed, keys, strict=False):
        if rec.get("line_ms") is None or rec.get("latch_ms") is None:
            continue
        by_kind.setdefault(kind, []).append((rec["line_ms"] - rec["latch_ms"], rec["pixels"]))
        if predicted is not None and rec.get("line") != predicted:
            mismatches.append("%s: device %r, host %r" % (word, rec.get("line"), predicted))
    for kind, vals in by_kind.items():
        ms = sorted(v[0] for v in vals)
        px = statistics.median(v[1] for v in vals)
        cells[kind] = "%d / %d / %d ms, %s px (n=%d)" % (
            round(ms[0]),
            round(statistics.median(ms)),
            round(ms[-1]),
            "{:,}".format(int(px)),
            len(ms),
        )
    cells["_mismatches"] = mismatches
    return cells


def print_table(configs, results, date):
    rows = ["mem_free at READY", "heap (bare code.py)", "start-up (s)"]
    kinds = set()
    for r in results.values():
        kinds |= {k for k in r if not k.startswith("_") and k not in rows}
    rows += [k for k in KINDS if k in kinds] + sorted(kinds - set(KINDS))
    head = ["CP %s %s" % (c["version"], c["size"]) for c in configs]
    print(
        "Device benchmark, %s: tools/emulate (rp2040js), simulated time; key latency = keypad scan that "
        "latched the press -> SULTAN key= line (min / median / max), RAMWR pixels (median)" % date
    )
    print()
    print("| | " + " | ".join(head) + " |")
    print("|---|" + "---|" * len(head))
    for row in rows:
        print("| %s | %s |" % (row, " | ".join(results[c["name"]].get(row, "-") for c in configs)))
    for c in configs:
        for mm in results[c["name"]].get("_mismatches", []):
            print("note: %s: the device's line differs from the host's: %s" % (c["name"], mm))
        for err in results[c["name"]].get("_errors", []):
            print("ERROR: %s: %s" % (c["name"], err))


# ------------------------------------------------------------------ animations
ANIMS = ("slide", "hint", "deal", "autoplay", "cascade")


def anim_lines(game, steps=()):
    """{kind: [(frames, first, ms)]} from a run's ``SULTAN anim=`` lines, each said just before the
    line of its key (a cascade's: before the key that ends it); those of a burst's keys are left out
    (a key already waiting cuts an animation short).  A slide's line of a key whose plan ``steps``
    kind is "autoplay" (a turn and autoplay's steps: several slides) is counted as "autoplay"."""
    timed = [k for _w, k, _l in steps if k not in ("burst", "wait")]
    keys = [k for k in game.get("keys", []) if not k.get("burst")]
    kinds = {(k.get("line"), k.get("line_ms")): kind for k, kind in zip(keys, timed, strict=False)}
    burst = {(k.get("line"), k.get("line_ms")) for k in game.get("keys", []) if k.get("burst")}
    out = {}
    pending = None
    for ln in game.get("lines", []):
        m = re.match(r"SULTAN anim=(\w+) frames=(\d+) first=(\d+) ms=(\d+)", ln["text"])
        if m:
            pending = (m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))
        elif ln["text"].startswith("SULTAN key=") and pending is not None:
            key = (ln["text"], ln["ms"])
            if key not in burst:
                kind = "autoplay" if kinds.get(key) == "autoplay" and pending[0] == "slide" else pending[0]
                out.setdefault(kind, []).append(pending[1:])
            pending = None
    return out


def anim_cells(*runs):
    """{kind: cell} from (steps, game) runs: each animation's frame rate (frames after the first over
    the first-to-last span, simulated time), min / median frames a second; a slide's and the hint's
    first frame after the key (median: the menu's closing frame when chosen there) and the span from
    it to the last frame (median / max); a deal's, autoplay's and cascade's median frames, span and
    first; n, the animations seen."""
    found = {}
    for steps, g in runs:
        for kind, v in anim_lines(g, steps).items():
            found.setdefault(kind, []).extend(v)
    cells = {}
    for kind, v in found.items():
        rates = sorted((f - 1) * 1000.0 / ms for f, _first, ms in v if f > 1 and ms > 0)
        rate = "%d / %d f/s" % (rates[0], statistics.median(rates)) if rates else "- f/s"
        firsts = statistics.median(first for _f, first, _ms in v)
        spans = sorted(ms for _f, _first, ms in v)
        if kind in ("slide", "hint"):
            span = "first %d ms, then %d / %d ms" % (firsts, statistics.median(spans), spans[-1])
        else:
            span = "%d frames in %d ms, first %d ms" % (
                statistics.median(f for f, _a, _b in v), statistics.median(spans), firsts)
        cells[kind] = "%s, %s (n=%d)" % (rate, span, len(v))
    return cells


def print_anims(configs, games, steps):
    """The animations' table, a row a configuration: the key plan's run and the animation plan's
    (``anim_plan``) together; returns how many animation runs failed."""
    print()
    print("Animations (SULTAN anim= lines of the key plan's and the animation plan's runs, keys of a burst "
          "left out): frames a second min / median; slide, hint: the first frame's ms after the key, then "
          "from it to the last frame, median / max; deal, autoplay (a turn and autoplay's steps), cascade: "
          "median frames from the first frame to the last")
    print()
    print("| | " + " | ".join(ANIMS) + " |")
    print("|---|" + "---|" * len(ANIMS))
    bad = []
    asteps = anim_plan()
    for c in configs:
        run = games[c["name"] + " anim"]
        row = anim_cells((steps, games.get(c["name"], {})), (asteps, run))
        print("| CP %s %s | %s |" % (c["version"], c["size"], " | ".join(row.get(k, "-") for k in ANIMS)))
        if run.get("returncode"):
            bad.append("ERROR: %s anim: emulator failed: %s" % (c["name"], run.get("stderr_tail", "")[-300:]))
    for line in bad:
        print(line)
    return len(bad)


# ------------------------------------------------------------------ power cuts
def saves_image(fw, out, what):
    """(version, folder, image): the save benchmarks' Wokwi image of ``fw`` (deal 7, 160x128)."""
    from sultan_host.bench import powercut

    version = "%d.%d.%d" % wokwi_image.circuitpython_version(fw)
    d = os.path.join(out, "cp%s-%s" % (version, what))
    os.makedirs(d, exist_ok=True)
    image = os.path.join(d, "sultan.uf2")
    wokwi_image.make_uf2(fw, image, tree=os.path.join(d, "CIRCUITPY"), quiet=True, size=(160, 128),
                         deal=powercut.DEAL)
    return version, d, image


# the kinds of a run's trials after its first write: cheap ones most (a few keys and the idle write), a
# pass's end (40-odd turns) once, and in every third run a lost game's record last (170-odd keys)
CUT_ORDER = ("checkpoint", "settings", "pass end", "checkpoint", "settings", "checkpoint", "settings",
             "checkpoint", "settings")


def cut_jobs(firmwares, bootrom, out, cuts, seed):
    """Emulator jobs of aimed power cuts (sultan_host.bench.powercut): ``cuts`` in all, spread over the
    firmwares, runs of up to 10 trials (the first write, then CUT_ORDER), the firmwares taking turns."""
    from sultan_host.bench import powercut

    by_fw = []
    per_fw = -(-cuts // len(firmwares))
    for fw in firmwares:
        version, d, image = saves_image(fw, out, "cuts")
        jobs = []
        left, run = per_fw, 0
        while left > 0:
            n = min(10, left)
            kinds = ["first write"] + list(CUT_ORDER[:n - 1])
            if run % 3 == 2 and n > 1:
                kinds[-1] = "decided"
            trials = powercut.plan(kinds, seed * 1000 + run)
            rdir = os.path.join(d, "run%02d" % run)
            os.makedirs(rdir, exist_ok=True)
            jobs.append({"name": "cuts cp%s run %d" % (version, run), "version": version, "image": image,
                         "bootrom": bootrom, "dir": rdir, "trials": trials, "seed": seed * 1000 + run})
            left -= n
            run += 1
        by_fw.append(jobs)
    # the firmwares take turns, so that a run stopped early has figures for each
    return [j for turn in itertools.zip_longest(*by_fw) for j in turn if j is not None]


def cut_run(job):
    from sultan_host.bench import powercut

    done = os.path.join(job["dir"], "result.pickle")
    if os.path.exists(done):  # a run of the same plan, finished before (--out kept): its figures
        with open(done, "rb") as f:
            old_job, result = pickle.load(f)
        same = powercut.words(old_job["trials"]) == powercut.words(job["trials"])
        if same and old_job["seed"] == job["seed"]:
            return dict(result, trials=old_job["trials"])
    report = os.path.join(job["dir"], "report.json")
    proc, wall = run_emulator(job["image"], job["bootrom"], job["dir"], keys=powercut.words(job["trials"]),
                              window="160x128", report=report, extra=["--seed", str(job["seed"])], shots=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout)[-600:], "wall_s": wall}
    data = json.load(open(report))
    numbered = [(int(f.split("-")[0]), f) for f in os.listdir(job["dir"]) if re.match(r"\d+-\w+\.png$", f)]
    shots = [os.path.join(job["dir"], f) for _n, f in sorted(numbered)]
    same = _same_picture(job["dir"])
    powercut.verdicts(job["trials"], shots, data, "160x128", same)
    boots = [b["ready_ms"] - b["at_ms"] for b in data["flash"].get("boots", [])[1:] if b.get("ready_ms")]
    result = {"trials": job["trials"], "boots_ms": boots, "wall_s": wall}
    with open(done, "wb") as f:  # for a later run with the same --out, or a table of a run stopped early
        pickle.dump((job, result), f)
    return result


def _same_picture(folder):
    from PIL import Image

    def same(path, img):
        a = Image.open(path).convert("RGB")
        b = img.convert("RGB")
        if a.size != b.size:
            return False
        # RGB565, as the panel holds it
        pa = bytes(v & m for v, m in zip(a.tobytes(), (0xF8, 0xFC, 0xF8) * (len(a.tobytes()) // 3),
                                         strict=True))
        pb = bytes(v & m for v, m in zip(b.tobytes(), (0xF8, 0xFC, 0xF8) * (len(b.tobytes()) // 3),
                                         strict=True))
        return pa == pb

    return same


def print_cuts(results):
    """The power-cut table: per kind and firmware, how many boots showed each outcome."""
    from sultan_host.bench import powercut

    print()
    print("Power cuts (CUT@WRITE+ms, aimed at each kind of save; deal 7, 160x128): outcome of each boot")
    print()
    print("| firmware | kind | cuts | in an erase | in a program | last write | the one before "
          "| fresh, damage message | fresh, erased | older | not allowed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = {}
    boots = {}
    for job, r in results:
        if "error" in r:
            print("ERROR: %s: %s" % (job["name"], r["error"][-300:]))
            continue
        boots.setdefault(job["version"], []).extend(r["boots_ms"])
        for t in r["trials"]:
            if t.outcome is None and t.cut is None:
                continue
            row = rows.setdefault((job["version"], t.kind), [0] * 9)
            during = (t.cut or {}).get("during") or ""
            row[0] += 1
            row[1] += during.startswith("erase")
            row[2] += during == "program"
            names = powercut.OUTCOMES + ("older",)
            if t.outcome in names:
                row[3 + names.index(t.outcome)] += 1
            row[8] += not (t.outcome is not None and powercut.allowed(t))
    for (version, kind), row in sorted(rows.items()):
        print("| %s | %s | %s |" % (version, kind, " | ".join(str(v) for v in row)))
    for version, ms in sorted(boots.items()):
        if ms:
            print("boot after a cut, to READY (%s): median %d ms, max %d ms"
                  % (version, statistics.median(ms), max(ms)))
    return sum(row[8] for row in rows.values())


# ------------------------------------------------------------------ wear
def wear_jobs(firmwares, bootrom, out, games, seed):
    """Two runs on the newest firmware at 160x128 (sultan_host.bench.wear): ``games`` games of deal 7
    with autoplay on, at autoplay pace and at a human's (seeded pauses)."""
    from sultan_host.bench import wear

    version, d, image = saves_image(firmwares[0], out, "wear")
    jobs = []
    for pace in ("autoplay", "human"):
        words, host = wear.plan(games, pace == "human", seed)
        rdir = os.path.join(d, pace)
        os.makedirs(rdir, exist_ok=True)
        jobs.append({"name": "wear cp%s %s" % (version, pace), "version": version, "pace": pace,
                     "image": image, "bootrom": bootrom, "dir": rdir, "keys": " ".join(words), "host": host})
    return jobs


def wear_run(job):
    from sultan_host.bench import wear

    report = os.path.join(job["dir"], "report.json")
    # a human's three games are some 1,400 s of simulated pauses: hours of wall time on a busy machine
    proc, wall = run_emulator(job["image"], job["bootrom"], job["dir"], keys=job["keys"], window="160x128",
                              report=report, timeout_s=14400)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout)[-600:], "wall_s": wall}
    erases, programs = wear.board_erases(json.load(open(report)))
    return {"erases": erases, "programs": programs, "wall_s": wall}


def print_wear(results):
    """The erases a game: the board's flash against the host's store on the same keys; 1 if they differ."""
    print()
    print("Sector erases of the Pico's NVM (tools/emulate's flash; deal 7, autoplay on, games to their end)")
    print()
    print("| firmware | pace | games | keys | idle writes (host) | erases: board | erases: host's store "
          "| a game | page programs (board) |")
    print("|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for job, r in results:
        h = job["host"]
        if "error" in r:
            print("ERROR: %s: %s" % (job["name"], r["error"][-300:]))
            bad += 1
            continue
        bad += r["erases"] != h["erases"]
        print("| %s | %s | %d | %d | %d | %d | %d | %.2f | %d |" % (
            job["version"], job["pace"], h["games"], h["keys"], h["idle_writes"], r["erases"], h["erases"],
            r["erases"] / h["games"], r["programs"]))
    return bad


# ------------------------------------------------------------------ main
def find_firmwares():
    found = []
    for major in (10, 9, 8):
        hits = sorted(glob.glob(os.path.join(ROOT, "vendor-local", UF2_GLOB % major)))
        if hits:
            found.append(hits[-1])
    return found


def parse_args(argv):
    ap = ArgParser(prog="bench_device", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--firmware", action="append", help="a Pico CircuitPython UF2 (repeat; default vendor-local/)"
    )
    ap.add_argument("--bootrom", default=os.environ.get("RP2040_BOOTROM") or None)
    ap.add_argument("--sizes", default="320x240,160x128")
    ap.add_argument("--deal", default="7")
    ap.add_argument("--soak", default="0", help="also N random keys on each firmware at 320x240")
    ap.add_argument("--cuts", default="0", help="also N aimed power cuts, spread over the firmwares")
    ap.add_argument("--wear", default="0", help="also N games at autoplay and at human pace: erases a game")
    ap.add_argument("--only", choices=("anim", "table", "saves"),
                    help="anim: only the animation plan's runs and table; table: only the key plan's table; "
                         "saves: only --cuts and --wear")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", default="2", help="emulators at once (each takes a core)")
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    args.firmwares = args.firmware or find_firmwares()
    if not args.firmwares:
        ap.error("no CircuitPython UF2: --firmware, or put the Pico UF2s in vendor-local/")
    for fw in args.firmwares:
        if not os.path.isfile(fw):
            ap.error("--firmware %s: no such file" % fw[:200])
        try:
            wokwi_image.circuitpython_version(fw)
        except SystemExit as e:
            ap.error("--firmware %s" % e)
    args.bootrom = args.bootrom or next(
        iter(sorted(glob.glob(os.path.join(ROOT, "vendor-local", "bootrom*")))), None
    )
    if not args.bootrom or not os.path.isfile(args.bootrom):
        ap.error("no RP2040 bootrom: --bootrom or RP2040_BOOTROM, or vendor-local/bootrom.js")
    try:
        args.sizes = [wokwi_image.parse_size(s) for s in args.sizes.split(",")]
        args.deal = wokwi_image.parse_deal(args.deal)
    except ValueError as e:
        ap.error(str(e))
    for name in ("soak", "cuts", "wear", "seed", "jobs"):
        if not re.fullmatch(r"[0-9]{1,5}", getattr(args, name)):
            ap.error("--%s %.20s: want a whole number" % (name, getattr(args, name)))
        setattr(args, name, int(getattr(args, name)))
    if not 1 <= args.jobs <= max(1, os.cpu_count() or 1):
        ap.error("--jobs %d: want 1..%d (the cores)" % (args.jobs, os.cpu_count() or 1))
    return args


def make_jobs(args, keys):
    """(configs, bare jobs by version, game jobs): the images built, one folder each."""
    configs, bare_jobs, game_jobs = [], {}, []
    for fw in args.firmwares:
        version = "%d.%d.%d" % wokwi_image.circuitpython_version(fw)
        bdir = os.path.join(args.out, "cp%s-bare" % version)
        os.makedirs(bdir, exist_ok=True)
        image = os.path.join(bdir, "bare.uf2")
        wokwi_image.make_uf2(fw, image, tree=os.path.join(bdir, "CIRCUITPY"), quiet=True, bare=True)
        bare_jobs[version] = {"image": image, "bootrom": args.bootrom, "dir": bdir}
        for w, h in args.sizes:
            name = "cp%s-%dx%d" % (version, w, h)
            d = os.path.join(args.out, name)
            os.makedirs(d, exist_ok=True)
            image = os.path.join(d, "sultan.uf2")
            wokwi_image.make_uf2(
                fw, image, tree=os.path.join(d, "CIRCUITPY"), quiet=True, size=(w, h), deal=args.deal
            )
            configs.append({"name": name, "version": version, "size": "%dx%d" % (w, h)})
            window = None if (w, h) == (320, 240) else "%dx%d" % (w, h)
            job = {"name": name, "image": image, "bootrom": args.bootrom, "dir": d, "keys": keys,
                   "window": window}
            game_jobs.append(job)
            if args.soak and (w, h) == (320, 240):  # the tightest heap
                sd = os.path.join(args.out, name + "-soak")
                os.makedirs(sd, exist_ok=True)
                game_jobs.append(dict(job, name=name + " soak", dir=sd, keys="", soak=args.soak,
                                      seed=args.seed))
    return configs, bare_jobs, game_jobs


def anim_jobs(args):
    """(configs, jobs): the animation plan (``anim_plan``) on each firmware at each size."""
    steps = anim_plan()
    keys = " ".join(w for w, _k, _l in steps)
    configs, jobs = [], []
    for fw in args.firmwares:
        version = "%d.%d.%d" % wokwi_image.circuitpython_version(fw)
        for w, h in args.sizes:
            name = "cp%s-%dx%d" % (version, w, h)
            d = os.path.join(args.out, name + "-anim")
            os.makedirs(d, exist_ok=True)
            image = os.path.join(d, "sultan.uf2")
            wokwi_image.make_uf2(fw, image, tree=os.path.join(d, "CIRCUITPY"), quiet=True, size=(w, h),
                                 deal=WON_DEAL)
            configs.append({"name": name, "version": version, "size": "%dx%d" % (w, h)})
            jobs.append({"name": name + " anim", "image": image, "bootrom": args.bootrom, "dir": d,
                         "keys": keys, "window": None if (w, h) == (320, 240) else "%dx%d" % (w, h)})
    return configs, jobs


def print_soaks(args, games):
    bad = 0
    for name, s in sorted(games.items()):
        if not name.endswith(" soak"):
            continue
        answered = sum(1 for k in s.get("keys", []) if k.get("line"))
        memerr = any("MemoryError" in ln["text"] for ln in s.get("lines", []))
        statuses = {}
        for k in s.get("keys", []):
            m = re.search(r"status=(\w+)", k.get("line") or "")
            if m:
                statuses[m.group(1)] = statuses.get(m.group(1), 0) + 1
        ok = not s.get("returncode") and not memerr and answered == args.soak
        bad += not ok
        print("soak: %d random keys (seed %d) on %s: %d answered (%s), %s; %s" % (
            args.soak, args.seed, name[:-5], answered,
            ", ".join("%s %d" % kv for kv in sorted(statuses.items())),
            "a MemoryError" if memerr else "no MemoryError",
            "emulator OK" if not s.get("returncode") else "FAILED: " + s.get("stderr_tail", "")[-300:]))
    return bad


def main(argv=None):
    args = parse_args(argv)
    steps = plan(args.deal)
    keys = " ".join(w for w, _k, _l in steps)
    os.makedirs(args.out, exist_ok=True)
    configs, bare_jobs, game_jobs = make_jobs(args, keys) if args.only in (None, "table") else ([], {}, [])
    anim_configs, ajobs = anim_jobs(args) if args.only in (None, "anim") else ([], [])
    game_jobs += ajobs
    cjobs = cut_jobs(args.firmwares, args.bootrom, args.out, args.cuts, args.seed) if args.cuts else []
    wjobs = wear_jobs(args.firmwares, args.bootrom, args.out, args.wear, args.seed) if args.wear else []
    print("bench_device: %d emulator runs, %d at a time ..." % (len(bare_jobs) + len(game_jobs) + len(cjobs)
                                                                + len(wjobs),
                                                                args.jobs), file=sys.stderr)
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        bare_f = {v: pool.submit(bare_run, j) for v, j in bare_jobs.items()}
        game_f = {j["name"]: pool.submit(game_run, j) for j in game_jobs}
        cut_f = [(j, pool.submit(cut_run, j)) for j in cjobs]
        wear_f = [(j, pool.submit(wear_run, j)) for j in wjobs]
        bares = {v: f.result() for v, f in bare_f.items()}
        games = {n: f.result() for n, f in game_f.items()}
        cuts = [(j, f.result()) for j, f in cut_f]
        wears = [(j, f.result()) for j, f in wear_f]
    results = {}
    for c in configs:
        g, b = games[c["name"]], bares[c["version"]]
        cells = summarise(steps, g, b)
        errors = []
        if g.get("returncode"):
            errors.append("emulator failed: %s" % (g.get("error") or g.get("stderr_tail", "")[-300:]))
        if "error" in b:
            errors.append("bare run failed: %s" % b["error"][-300:])
        cells["_errors"] = errors
        results[c["name"]] = cells
    date = time.strftime("%Y-%m-%d")
    if results:
        print_table(configs, results, date)
    anim_bad = print_anims(anim_configs, games, steps) if anim_configs else 0
    print()
    bad = print_soaks(args, games) + anim_bad
    bad += print_cuts(cuts) if cuts else 0
    bad += print_wear(wears) if wears else 0
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"date": date, "deal": args.deal, "plan": steps, "configs": configs, "table": results,
                   "bare": bares, "wall_s": time.time() - t0}, f, indent=1)
    print("\n(%d s wall; raw timings in %s)" % (time.time() - t0, os.path.relpath(args.out, ROOT)),
          file=sys.stderr)
    failed = any(r["_errors"] for r in results.values()) or bad
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
