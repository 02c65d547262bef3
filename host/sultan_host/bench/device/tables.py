"""The device benchmark's tables: a key plan's figures a configuration, the animations', and the
figures file (docs/figures.md) that ``make bench-device`` writes."""

import os
import re
import statistics

from sultan_host.bench.device.plan import anim_plan
from sultan_host.board.sources import ROOT

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


KEY_CAPTION = ("tools/emulate (rp2040js), simulated time, deal %s; key "
               "latency = keypad scan that latched the press (a badge's stick: its push) -> SULTAN key= line "
               "(min / median / max), RAMWR pixels (median)")


def label(c):
    """A configuration's column or row heading: "CP 10.2.1 320x240", "PyBadge CP 9.1.1 160x128"."""
    return c.get("label") or "CP %s %s" % (c["version"], c["size"])


def key_table(configs, results):
    """The key plan's table, a column a configuration: [markdown line]."""
    rows = ["mem_free at READY", "heap (bare code.py)", "start-up (s)"]
    kinds = set()
    for r in results.values():
        kinds |= {k for k in r if not k.startswith("_") and k not in rows}
    rows += [k for k in KINDS if k in kinds] + sorted(kinds - set(KINDS))
    head = [label(c) for c in configs]
    out = ["| | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    for row in rows:
        out.append("| %s | %s |" % (row, " | ".join(results[c["name"]].get(row, "-") for c in configs)))
    return out


def print_table(configs, results, date, deal):
    print("Device benchmark, %s: %s" % (date, KEY_CAPTION % deal))
    print()
    print("\n".join(key_table(configs, results)))
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


ANIM_CAPTION = ("SULTAN anim= lines of the key plan's and the animation plan's runs, keys of a burst left "
                "out: frames a second min / median; slide, hint: the first frame's ms after the key, then "
                "from it to the last frame, median / max; deal, autoplay (a turn and autoplay's steps), "
                "cascade: median frames from the first frame to the last")


def anim_table(configs, games, steps):
    """(the animations' table, a row a configuration: [markdown line], [error line]): the key plan's run
    and the animation plan's (``anim_plan``) together."""
    out = ["| | " + " | ".join(ANIMS) + " |", "|---|" + "---|" * len(ANIMS)]
    bad = []
    asteps = anim_plan()
    for c in configs:
        run = games[c["name"] + " anim"]
        row = anim_cells((c.get("steps", steps), games.get(c["name"], {})), (c.get("asteps", asteps), run))
        cells = " | ".join(row.get(k, "-") for k in ANIMS)
        out.append("| %s | %s |" % (label(c), cells))
        if run.get("returncode"):
            bad.append("ERROR: %s anim: emulator failed: %s" % (c["name"], run.get("stderr_tail", "")[-300:]))
    return out, bad


def print_anims(table, bad):
    print()
    print("Animations (%s)" % ANIM_CAPTION)
    print()
    print("\n".join(table + bad))


# ------------------------------------------------------------------ docs/figures.md
FIGURES = os.path.join(ROOT, "docs", "figures.md")
KEY_HEADING = "## Key plan"
ANIM_HEADING = "## Animations"
FIGURES_HEAD = """# Device figures

Written by `make bench-device` (`python -m sultan_host.bench.device`): each section by the last run that
measured it (`ONLY=table` writes the key plan's, `ONLY=anim` the animations'), with its date and firmware.
Figures are simulated time on the RP2040 emulator (`tools/emulate`), the Wokwi image at each size; the
PyBadge's, on its own CircuitPython in the samd51 emulator, are in [PyBadge figures](pybadge-figures.md).
"""


def section(heading, date, firmwares, caption, table):
    """One section of the figures file: its heading, when and on which firmware, and its table."""
    names = ", ".join(os.path.basename(f) for f in firmwares)
    return [heading, "", "Measured %s on %s: %s." % (date, names, caption), ""] + table


def update_figures(text, sections, head=FIGURES_HEAD):
    """``text`` (the figures file, or "" when there is none: ``head`` begins it) with each of ``sections``
    ({heading: lines}) put in place of its old one, or added; the other sections are kept as they were."""
    parts = re.split(r"(?m)^(?=## )", text) if text else [head]
    head, old = parts[0], {p.split("\n", 1)[0]: p for p in parts[1:]}
    for heading, lines in sections.items():
        old[heading] = "\n".join(lines).rstrip() + "\n"
    order = [h for h in (KEY_HEADING, ANIM_HEADING) if h in old] + [h for h in old if h not in (KEY_HEADING,
                                                                                                 ANIM_HEADING)]
    return head.rstrip() + "\n\n" + "\n".join(old[h].rstrip() + "\n" for h in order)


def write_figures(path, sections, head=FIGURES_HEAD):
    """Put ``sections`` into the figures file at ``path`` (made if it is not there, ``head`` first)."""
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(update_figures(text, sections, head))
    os.replace(path + ".tmp", path)
