"""The badges' saves in the device benchmark: the erase window and aimed power cuts, on each badge image in
the samd51 emulator, whose NVMCTRL takes the datasheet's typical times (50 ms a block erase, 1.5 ms a page).

**The erase window.**  CircuitPython's SAMD51 port erases the NVM's one 8 KB block on every write and writes
its 16 pages back in address order, so from each save's erase until the record in slot 0 (the first
1024 bytes: pages 0-1) is programmed again, no whole record is in the NVM: a cut there loses the game and
the statistics.  Each write's record goes into both slots (slot 1 is a copy), so the window is the erase
and the pages of the new record in slot 0.  The emulator gives when each page is back after the
erase starts (``window_run``: a few idle writes); the host plays a human's games (``wear.plan``: seeded
think times, autoplay on, games to their end) on the PyBadge's two slots (``SlotRegion``), which gives the
saves an hour and slot 0's record length at each.
"""

import os
import pickle
import statistics

from sultan_host.bench import powercut, wear
from sultan_host.bench.device import pybadge

PAGE = 512
WINDOW_WORDS = " ".join(["START", "START", powercut.IDLE] * 4)  # four idle writes (checkpoints)
HUMAN_GAMES = 3


class SlotRegion(powercut.BadgeRegion):
    """The PyBadge's two slots (sultan.saves.nvm: 2 KB of its block): every write erases the block;
    ``first``: at each write, the length of the record then in slot 0 (rewritten first)."""

    def __init__(self):
        powercut.BadgeRegion.__init__(self)
        self.writes = self.erases = 0
        self.first = []

    def write(self, offset, data):
        powercut.BadgeRegion.write(self, offset, data)
        self.writes += 1
        self.erases += 1
        self.first.append(self.data[8] | self.data[9] << 8)  # the record's length, CRC included


def human_hour(games=HUMAN_GAMES, seed=1):
    """The host's human-pace games on the two slots: {"games", "keys", "saves", "pause_s", "first"}."""
    region = SlotRegion()
    words, host = wear.plan(games, True, seed, region=region, sound=True)
    pause_ms = sum(int(w[5:]) for w in words if w.startswith("WAIT:"))
    return {"games": games, "keys": host["keys"], "saves": region.writes, "pause_s": pause_ms / 1000.0,
            "first": region.first}


def window_job(out, column):
    name = pybadge.name(column)
    return {"name": name + " window", "column": column, "dir": os.path.join(out, name + "-window")}


def window_run(job):
    """The emulator's NVM operations at a few idle writes: each save's erase (ms) and when each page is
    programmed again, counted from the erase's start."""
    data, rc, err, wall = pybadge.run(job["dir"], job["column"], "--deal", str(powercut.DEAL), "--keys",
                                      WINDOW_WORDS)
    if rc != 0:
        return {"error": (data.get("error") or err)[-600:], "wall_s": wall}
    saves = []
    for op in data["nvm"]["ops"]:
        if op["op"] == "erase_block":
            saves.append({"erase_ms": op["end_ms"] - op["start_ms"], "start": op["start_ms"], "pages": []})
        elif op["op"] == "write_page" and saves:
            saves[-1]["pages"].append(op["end_ms"] - saves[-1]["start"])
    return {"saves": saves, "wall_s": wall}


def window_figures(run, hour):
    """{name: value}: the window a save and the share of a played hour inside it."""
    saves = [s for s in run["saves"] if len(s["pages"]) >= 2]
    back = [statistics.median(s["pages"][p] for s in saves) for p in range(2)]  # page 0, page 1 done
    write = statistics.median(s["pages"][-1] for s in saves)
    windows = [back[0] if n <= PAGE else back[1] for n in hour["first"]]
    mean = statistics.mean(windows)
    per_hour = hour["saves"] * 3600.0 / hour["pause_s"]
    return {"saves measured": len(saves), "erase ms": statistics.median(s["erase_ms"] for s in saves),
            "pages a save": statistics.median(len(s["pages"]) for s in saves), "whole write ms": write,
            "page 0 back ms": back[0], "page 1 back ms": back[1], "window mean ms": mean,
            "saves a game": hour["saves"] / hour["games"], "saves an hour": per_hour,
            "share": per_hour * mean / 3600000.0, "over a page": sum(n > PAGE for n in hour["first"]),
            "host saves": hour["saves"], "games": hour["games"], "keys": hour["keys"],
            "pause s": hour["pause_s"]}


WINDOW_HEADING = "## PyBadge erase window"
WINDOW_CAPTION = (
    "the samd51 emulator's NVMCTRL (the datasheet's typical times) at %d idle writes, and the host's store "
    "on the two slots over %d games at a human's pace (an hour: the think times' sum). The window: a "
    "save's erase until slot 0 (rewritten first) holds a whole record again; a cut "
    "inside it loses the game and the statistics")


WINDOW_ROWS = (
    ("a save (flash_write)", lambda f: "a %.1f ms erase, %d page writes: %.1f ms"
     % (f["erase ms"], f["pages a save"], f["whole write ms"])),
    ("window a save", lambda f: "%.1f ms (slot 0's record <= 512 bytes), %.1f ms (longer)"
     % (f["page 0 back ms"], f["page 1 back ms"])),
    ("saves a game, human pace", lambda f: "%.1f (%d saves, %d keys, %.0f s)"
     % (f["saves a game"], f["host saves"], f["keys"], f["pause s"])),
    ("saves an hour", lambda f: "%.0f" % f["saves an hour"]),
    ("window, mean over those saves", lambda f: "%.1f ms (%d of %d over a page)"
     % (f["window mean ms"], f["over a page"], f["host saves"])),
    ("share of a played hour in the window", lambda f: "%.4f %% (%.1f s an hour)"
     % (100 * f["share"], f["share"] * 3600)),
)


def window_lines(f, columns=None):
    """The erase window's section body: [markdown line]; ``columns`` [(label, figures)] for more than one
    image's figures ``f``."""
    columns = columns or [("value", f)]
    out = ["| figure | %s |" % " | ".join(label for label, _f in columns), "|---|" + "---|" * len(columns)]
    for figure, cell in WINDOW_ROWS:
        out.append("| %s | %s |" % (figure, " | ".join(cell(f) for _label, f in columns)))
    return out


# ------------------------------------------------------------------ power cuts
def cut_jobs(out, cuts, seed, column):
    """Harness runs of aimed cuts (sultan_host.bench.powercut), ``cuts`` in all, up to 10 trials a run:
    the first write into a fresh NVM, then saves.CUT_ORDER, a lost game's record last in every third;
    offsets within a page write (1.5 ms) or the whole write (74 ms: the erase and 16 pages)."""
    from sultan_host.bench.device.saves import CUT_ORDER

    jobs, left, run = [], cuts, 0
    while left > 0:
        n = min(10, left)
        kinds = ["first write"] + list(CUT_ORDER[:n - 1])
        if run % 3 == 2 and n > 1:
            kinds[-1] = "decided"
        s = seed * 1000 + run
        name = pybadge.name(column)
        jobs.append({"name": "cuts %s run %d" % (name, run), "column": column,
                     "version": "%s %s" % (column[0], pybadge.version(column)),
                     "dir": os.path.join(out, name + "-cuts", "run%02d" % run), "seed": s,
                     "trials": powercut.plan(kinds, s, short=1.5, long=74.0, sound=True)})
        left -= n
        run += 1
    return jobs


def pico_shaped(report):
    """The harness's report as powercut.verdicts reads the Pico's: the NVM's operations where its flash's
    were."""
    nvm = report["nvm"]
    cuts = [dict(c["nvm"], kind=c["kind"], at_ms=c["at_ms"]) for c in report["power_cycles"]]
    flash = {"ops": nvm["ops"], "nvm": {"addr": nvm["addr"], "len": nvm["len"]}, "cuts": cuts,
             "boots": report["flash"]["boots"]}
    return dict(report, flash=flash)


def same_as_host(folder):
    """powercut.verdicts' picture test: the shot equals the host's picture, pixel for pixel."""
    from PIL import Image

    from sultan_host.board import compare_png

    def same(path, img):
        want = os.path.join(folder, "host.png")
        img.save(want)
        r = compare_png.compare(path, want)
        Image.open(path).close()
        return r["differ"] == 0

    return same


def cut_run(job):
    """One run's trials with their verdicts, and each boot's time to READY after a cut (as saves.cut_run:
    a run of the same plan finished before, --out kept, gives its figures again)."""
    from sultan_host.board import compare_png

    done = os.path.join(job["dir"], "result.pickle")
    if os.path.exists(done):
        with open(done, "rb") as f:
            old_job, result = pickle.load(f)
        same = powercut.words(old_job["trials"]) == powercut.words(job["trials"])
        if same and old_job["seed"] == job["seed"]:
            return result

    if os.path.isdir(job["dir"]):  # never read an earlier run's screenshots
        for f in os.listdir(job["dir"]):
            if f.endswith(".png"):
                os.remove(os.path.join(job["dir"], f))
    data, rc, err, wall = pybadge.run(job["dir"], job["column"], "--deal", str(powercut.DEAL), "--keys",
                                      powercut.words(job["trials"]), "--seed", str(job["seed"]), shots=True)
    if rc != 0:
        return {"error": (data.get("error") or err)[-600:], "wall_s": wall}
    report = pico_shaped(data)
    shots = [p for _i, _k, p in compare_png.emulator_shots(job["dir"])]
    powercut.verdicts(job["trials"], shots, report, "160x128", same_as_host(job["dir"]),
                      cls=powercut.BadgeRegion, sound=True)
    boots = [b["ready_ms"] - b["at_ms"] for b in report["flash"]["boots"][1:] if b.get("ready_ms")]
    result = {"trials": job["trials"], "boots_ms": boots, "wall_s": wall}
    with open(done, "wb") as f:
        pickle.dump((job, result), f)
    return result


# ------------------------------------------------------------------ in the benchmark
CUTS_HEADING = "## PyBadge power cuts"
CUTS_CAPTION = ("the samd51 emulator, each aimed within a save's 74 ms or one page write; each boot's "
                "outcome by the host's pictures. Not allowed: like no allowed outcome (the rest of its "
                "run is then left out)")


def jobs(args):
    """[(function, job)]: each badge image's erase window run (with no --only, or --only saves), and
    ``--cuts`` aimed cuts on each when --boards names its board (the Pico's cuts are another run's)."""
    if args.only not in (None, "saves"):
        return []
    out = []
    for column in pybadge.columns(args.boards):
        out.append((window_run, window_job(args.out, column)))
        if args.cuts and args.pybadge_asked:
            out += [(cut_run, j) for j in cut_jobs(args.out, args.cuts, args.seed, column)]
    return out


def report(results, date):
    """The runs' tables printed; ({heading: lines} for docs/figures.md, runs that failed, boots whose outcome
    is not one the saves promise).  Such a boot is a finding, not a failed run: its section is written."""
    from sultan_host.bench.device import saves, tables

    sections, bad, not_allowed = {}, 0, 0
    windows, hour = [], None
    for job, r in results:
        if job["name"].endswith(" window"):
            if "error" in r:
                print("ERROR: %s: %s" % (job["name"], r["error"][-300:]))
                bad += 1
                continue
            hour = hour or human_hour()
            label = pybadge.image.label(*job["column"])
            windows.append((job["column"][1], len(r["saves"]), (label, window_figures(r, hour))))
    if windows:
        lines = window_lines(None, [w[2] for w in windows])
        caption = WINDOW_CAPTION % (min(w[1] for w in windows), HUMAN_GAMES)
        print("\nThe badges' erase window (%s)\n\n%s" % (caption, "\n".join(lines)))
        fws = [w[0] for w in windows]
        sections[WINDOW_HEADING] = tables.section(WINDOW_HEADING, date, fws, caption, lines)
    cuts = [(j, r) for j, r in results if j["name"].startswith("cuts ")]
    if cuts:
        lines, not_allowed = saves.cut_table(cuts)
        print("\n%s\n\n%s" % (saves.CUT_TITLE, "\n".join(lines)))
        failed = [j["name"] for j, r in cuts if "error" in r]
        n = sum(1 for _j, r in cuts for t in r.get("trials", []) if t.cut is not None)
        caption = "%d cuts judged in %s" % (n, CUTS_CAPTION)
        fw = sorted({j["column"][1] for j, _r in cuts})
        sections[CUTS_HEADING] = tables.section(CUTS_HEADING, date, fw, caption, lines)
        bad += len(failed)
    return sections, bad, not_allowed
