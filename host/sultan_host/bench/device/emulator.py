"""One run of the emulator (tools/emulate/emulate.js) on a Wokwi image, and the two kinds of run the
table needs: a bare code.py's and the game's."""

import json
import os
import re
import subprocess
import time

from sultan_host.board.sources import ROOT

EMULATE_JS = os.path.join(ROOT, "tools", "emulate", "emulate.js")


def plan_jobs(args, what, keys, deal, **extra):
    """(configs, jobs): one Wokwi image of ``deal`` a firmware and size, each a job playing ``keys`` (its name
    and folder end in ``what``; ``extra``: more of the job's fields)."""
    from sultan_host.board import wokwi as wokwi_image

    configs, jobs = [], []
    for fw in args.firmwares:
        version = "%d.%d.%d" % wokwi_image.circuitpython_version(fw)
        for w, h in args.sizes:
            name = "cp%s-%dx%d" % (version, w, h)
            d = os.path.join(args.out, name + "-" + what)
            os.makedirs(d, exist_ok=True)
            image = os.path.join(d, "sultan.uf2")
            wokwi_image.make_uf2(fw, image, tree=os.path.join(d, "CIRCUITPY"), quiet=True, size=(w, h),
                                 deal=deal)
            configs.append({"name": name, "version": version, "size": "%dx%d" % (w, h)})
            jobs.append(dict({"name": name + " " + what, "image": image, "bootrom": args.bootrom, "dir": d,
                              "keys": keys, "window": None if (w, h) == (320, 240) else "%dx%d" % (w, h)},
                             **extra))
    return configs, jobs


def run_emulator(image, bootrom, out_dir, keys=None, scenario=None, window=None, report=None, extra=(),
                 shots=False, timeout_s=3000):
    cmd = [
        "node",
        EMULATE_JS,
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
             else [] if job.get("flash_time") else ["--flash-time-scale", "0"])
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
