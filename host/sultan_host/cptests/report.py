"""The suite's counts per image, the tests that did not pass with why, and the times; JSON and text."""

import json
import os

from sultan_host.cptests.judge import CRASH, FAIL, PASS, SKIP

KINDS = (PASS, FAIL, SKIP, CRASH)


def counts(run):
    out = dict.fromkeys(KINDS, 0)
    for rec in run["results"]:
        out[rec["kind"]] += 1
    return out


def host_times(run):
    """(the run's wall seconds, its tests' CPU seconds, the slowest tests as (cpu_s, test)): CPU, as a
    busy host stretches wall time."""
    ran = [(rec.get("cpu_s") or 0.0, rec["test"]) for rec in run["results"]]
    return run["wall_s"], sum(t for t, _ in ran), sorted(ran, reverse=True)[:5]


def summary_lines(runs):
    lines = ["%-16s %5s %5s %5s %5s  %s" % ("image", *KINDS, "host time")]
    for run in runs:
        c = counts(run)
        wall, cpu, slowest = host_times(run)
        lines.append("%-16s %5d %5d %5d %5d  %.0f s wall, tests %.0f s CPU (boot %.1f s; slowest %s)" % (
            run["image"], c[PASS], c[FAIL], c[SKIP], c[CRASH], wall, cpu, run["boot_wall_s"],
            ", ".join("%s %.1f s" % (t, s) for s, t in slowest[:3])))
    for run in runs:
        for rec in run["results"]:
            if rec["kind"] in (FAIL, CRASH):
                pico = "; on the Pico: %s" % rec["pico"] if "pico" in rec else ""
                lines.append("%s %s %s: %s%s" % (run["image"], rec["kind"], rec["test"], rec["reason"], pico))
    return lines


def write(runs, folder):
    """results.json (every test of every image) in ``folder``; returns its path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "results.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"runs": runs, "counts": {run["image"]: counts(run) for run in runs}}, f, indent=1)
    return path
