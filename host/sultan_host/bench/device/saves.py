"""The device benchmark's saves: aimed power cuts (``sultan_host.bench.powercut``) and the flash's wear
(``sultan_host.bench.wear``), each run on the emulator, and their tables."""

import itertools
import json
import os
import pickle
import re
import statistics

from sultan_host.bench import powercut, wear
from sultan_host.bench.device.emulator import run_emulator
from sultan_host.board import wokwi as wokwi_image


# ------------------------------------------------------------------ power cuts
def saves_image(fw, out, what):
    """(version, folder, image): the save benchmarks' Wokwi image of ``fw`` (deal 7, 160x128)."""
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


CUT_TITLE = "Power cuts (CUT@WRITE+ms, aimed at each kind of save; deal 7, 160x128): outcome of each boot"


def cut_table(results):
    """(the power-cut table: per kind and firmware, how many boots showed each outcome, [markdown line];
    the boots not allowed, and runs failed)."""
    out = ["| firmware | kind | cuts | in an erase | in a program | last write | the one before "
           "| fresh, damage message | fresh, erased | older | not allowed |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    rows = {}
    boots = {}
    failed = 0
    for job, r in results:
        if "error" in r:
            out.append("ERROR: %s: %s" % (job["name"], r["error"][-300:]))
            failed += 1
            continue
        boots.setdefault(job["version"], []).extend(r["boots_ms"])
        for t in r["trials"]:
            if t.outcome is None and t.cut is None:
                continue
            row = rows.setdefault((job["version"], t.kind), [0] * 9)
            during = (t.cut or {}).get("during") or ""
            row[0] += 1
            row[1] += during.startswith("erase")
            row[2] += during in ("program", "write_page")
            names = powercut.OUTCOMES + ("older",)
            if t.outcome in names:
                row[3 + names.index(t.outcome)] += 1
            row[8] += not (t.outcome is not None and powercut.allowed(t))
    for (version, kind), row in sorted(rows.items()):
        out.append("| %s | %s | %s |" % (version, kind, " | ".join(str(v) for v in row)))
    out.append("")
    for version, ms in sorted(boots.items()):
        if ms:
            out.append("Boot after a cut, to READY (%s): median %d ms, max %d ms."
                       % (version, statistics.median(ms), max(ms)))
    return out, sum(row[8] for row in rows.values()) + failed


def print_cuts(results):
    """The power-cut table printed; the boots not allowed (and runs failed)."""
    lines, bad = cut_table(results)
    print()
    print(CUT_TITLE)
    print()
    print("\n".join(lines))
    return bad


# ------------------------------------------------------------------ wear
def wear_jobs(firmwares, bootrom, out, games, seed):
    """Two runs on the newest firmware at 160x128 (sultan_host.bench.wear): ``games`` games of deal 7
    with autoplay on, at autoplay pace and at a human's (seeded pauses)."""
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
