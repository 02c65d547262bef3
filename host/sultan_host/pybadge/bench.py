"""``python -m sultan_host.pybadge.bench [--deal 7] [--keys WORDS] [--soak N]``: the PyBadge's figures (issue
25, goal 6) from the harness's reports: the bare heap, mem_free at READY and its share of it, start-up (READY
since power-on), per key the first frame (its first RAMWR) and its line after the press, and the RAMWRs a key
sent (with the frames a second over its answer: a slide's rate).  Simulated time throughout."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TABLE = "RIGHT A START START DOWN RIGHT A A LEFT B"  # the Pico's table plan (test_screen_emulator.TABLE)


def run(out, *args):
    report = os.path.join(out, "report.json")
    proc = subprocess.run([sys.executable, "-m", "sultan_host.pybadge", "--quiet", "--no-shots", "--out", out,
                           "--report", report, *args], capture_output=True, text=True)
    data = json.load(open(report)) if os.path.exists(report) else {}
    if proc.returncode != 0:
        sys.stderr.write("bench: run failed (%s): %s\n" % (" ".join(args)[:80], data.get("error")
                                                          or proc.stderr.strip()[-300:]))
    return data


def bare_heap(out):
    data = run(out, "--bare", "--ready-only")
    for ln in data.get("lines", []):
        m = re.search(r"SULTAN BARE heap=(\d+) mem_free=(\d+)", ln["text"])
        if m:
            return int(m.group(1)), int(m.group(2))
    return None, None


def key_rows(data):
    rows = []
    for k in data.get("keys", []):
        if k.get("line_ms") is None:
            continue
        ramwr = [u for u in data["ramwr"] if k["press_ms"] <= u[0] <= k["line_ms"]]
        span = (ramwr[-1][0] - ramwr[0][0]) if len(ramwr) > 1 else 0.0
        first = (k["first_ramwr_ms"] or k["line_ms"]) - k["press_ms"]
        rows.append((k["name"], first, k["line_ms"] - k["press_ms"], len(ramwr),
                     1000.0 * (len(ramwr) - 1) / span if span else None))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sultan_host.pybadge.bench", description="PyBadge figures")
    p.add_argument("--deal", type=int, default=7)
    p.add_argument("--keys", default=TABLE)
    p.add_argument("--soak", type=int, default=0, help="also N seeded random keys")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        heap, bare_free = bare_heap(os.path.join(tmp, "bare"))
        data = run(os.path.join(tmp, "table"), "--deal", str(a.deal), "--keys", a.keys)
        ready = data.get("ready") or [{}]
        m = re.search(r"mem_free=(\d+)", ready[0].get("text", ""))
        free = int(m.group(1)) if m else None
        print("PyBadge (CircuitPython 9.1.1, samd51 emulator)")
        share = " = %.0f %% of the bare heap" % (100.0 * free / heap) if heap and free else ""
        print("  bare heap %s (mem_free %s); mem_free at READY %s%s" % (heap, bare_free, free, share))
        print("  start-up (READY since power-on) %s ms simulated; run %.0f s wall" % (
            "%.0f" % ready[0]["boot_ms"] if "boot_ms" in ready[0] else "?", data.get("wall_s", 0)))
        print("  %-7s %12s %9s %6s %9s" % ("key", "first frame", "line", "RAMWR", "frames/s"))
        for name, first, line, n, fps in key_rows(data):
            print("  %-7s %9.1f ms %6.1f ms %6d %9s" % (name, first, line, n, "%.1f" % fps if fps else "-"))
        if a.soak:
            soak = run(os.path.join(tmp, "soak"), "--deal", str(a.deal), "--random-keys", str(a.soak))
            answered = sum(1 for k in soak.get("keys", []) if k.get("line"))
            print("  soak: %d of %d keys answered, error: %s" % (answered, a.soak, soak.get("error")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
