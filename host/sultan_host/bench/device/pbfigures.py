"""The badges' section of docs/pybadge-figures.md (``## PyBadge``): its figures against the goals, from
the PyBadge column's runs (the bare code.py's, the key plan's and the animation plan's), so that
``make bench-device BOARDS=pybadge`` writes it without touching the Pico's sections."""

import re
import statistics

from sultan_host.bench.device import tables

HEADING = "## PyBadge"
PAGE = "pybadge-figures.md"  # beside the figures file: figures.md has no room left in a page's 2,500 words
HEAD = """# PyBadge figures

Written by `make bench-device` with the PyBadge's column (`BOARDS=pybadge`, `CUTS=N` its power cuts) and by
`make bench-cpu`, each section by the last run that measured it; the Pico's are in [figures](figures.md).
"""


def split(figures, sections):
    """[(path, {heading: lines})]: the PyBadge's sections (headings starting "## PyBadge") go to ``PAGE``
    beside the ``figures`` file, the others to it."""
    import os

    mine = {h: v for h, v in sections.items() if h.startswith(HEADING)}
    rest = {h: v for h, v in sections.items() if h not in mine}
    page = os.path.join(os.path.dirname(figures) or ".", PAGE)
    return [(p, s) for p, s in ((figures, rest), (page, mine)) if s]
CAPTION = (
    "the samd51 emulator's [time model](samd51.md#time) at 120 MHz. Deal %s's key plan and the animation "
    "plan; a line: keypad latch (a PyGamer stick direction, read by the ADC: its push) -> SULTAN key= line, "
    "min / median / max ms (n); "
    "a first frame: the key -> its slide's first frame; a panel after or before a card's travel (the anim "
    "line's first to last frame) judged without it")
PANEL_MS = 80  # every panel's goal: 100 ms less a 20 % margin for the flash reads the time model leaves out
PANELS = ("menu open", "menu close", "page open", "page close", "digit editor open", "digit editor close",
          "won/lost panel", "won/lost panel close")


def _ms(cell):
    """The latency cell's median and max ("8 / 11 / 17 ms, ..."): (11, 17), or None."""
    try:
        lo_mid_hi = cell.split(" ms", 1)[0].split(" / ")
        return int(lo_mid_hi[1]), int(lo_mid_hi[2])
    except (IndexError, ValueError, AttributeError):
        return None


def _int(cell):
    try:
        return int(cell.replace(",", ""))
    except (ValueError, AttributeError):
        return None


PLAY_KEYS = ("play", "turn", "undo")


def _slid(steps, game):
    """(key kind, first, ms, latency) for each key of the plan ``steps`` that slid a card: its SULTAN
    anim=slide line (said just before the key's line) gives the first frame's ms after the key and the
    travel's (first to last frame), the key its latch -> line ms; keys of a burst left out."""
    timed = [k for _w, k, _l in steps if k not in ("burst", "wait")]
    keys = [k for k in game.get("keys", []) if not k.get("burst")]
    kinds = {(k.get("line"), k.get("line_ms")): (kind, k) for k, kind in zip(keys, timed, strict=False)}
    pending = None
    for ln in game.get("lines", []):
        m = re.match(r"SULTAN anim=slide frames=\d+ first=(\d+) ms=(\d+)", ln["text"])
        if m:
            pending = int(m.group(1)), int(m.group(2))
        elif ln["text"].startswith("SULTAN key="):
            kind, key = kinds.get((ln["text"], ln["ms"]), (None, None))
            if pending is not None and kind is not None:
                yield kind, pending[0], pending[1], key["line_ms"] - key["latch_ms"]
            pending = None
        elif ln["text"].startswith("SULTAN anim="):
            pending = None


def first_frames(steps, game):
    """{key kind: [ms]}: the first frame's ms after each key of the plan ``steps`` that slid a card."""
    out = {}
    for kind, first, _ms, _latency in _slid(steps, game):
        out.setdefault(kind, []).append(first)
    return out


def less_travel(steps, game):
    """{panel kind: [ms]}: a panel key's latency less its card's travel (the losing turn's card goes to
    the talon before the panel shows; the undo that closes it takes the panel away, then slides)."""
    out = {}
    for kind, _first, ms, latency in _slid(steps, game):
        if kind in PANELS:
            out.setdefault(kind, []).append(int(round(latency - ms)))
    return out


def rows(cells, anims, firsts, travel=None):
    """[(figure, goal, value, met)] from the key plan's cells (tables.summarise), the animations'
    {kind: [(frames, first, ms)]} (tables.anim_lines of both runs), the slides' first frames by key
    kind (``first_frames``) and the panels' ms less their card's travel (``less_travel``: a panel with
    them is judged on them, as the menu's Motion switch chooses the travel); ``met``: True, False or
    None (no goal)."""
    travel = travel or {}
    out = []
    heap, ready = _int(cells.get("heap (bare code.py)")), _int(cells.get("mem_free at READY"))
    share = ready * 100.0 / heap if heap and ready is not None else None
    out.append(("mem_free at READY", ">= 60 % of the bare heap", "%s of %s (%.1f %%)" % (
        cells["mem_free at READY"], cells["heap (bare code.py)"], share) if share is not None else "-",
        None if share is None else share >= 60))
    start = cells.get("start-up (s)", "-")
    out.append(("start-up", "<= 1.0 s", start + " s" if start != "-" else "-",
                None if start == "-" else float(start) <= 1.0))
    for kind in PLAY_KEYS:
        v = sorted(firsts.get(kind, []))
        if v:
            out.append(("first frame: %s" % kind, "<= 50 ms", "median %d, max %d ms (n=%d)" % (
                statistics.median(v), v[-1], len(v)), v[-1] <= 50))
    for kind in tables.KINDS:
        if kind not in cells or kind not in PANELS + PLAY_KEYS:
            continue
        goal = "<= %d ms" % PANEL_MS if kind in PANELS else ""
        ms = _ms(cells[kind])
        met = None if not goal or ms is None else ms[1] <= PANEL_MS
        value = re.sub(r" ms, [0-9,]+ px", " ms", cells[kind])
        own = sorted(travel.get(kind, []))
        if own and goal:
            value += "; less the card's travel, max %d ms" % own[-1]
            met = own[-1] <= PANEL_MS
        out.append((kind if kind in PANELS else "line: " + kind, goal, value, met))
    others = []
    for kind in tables.ANIMS:
        v = anims.get(kind, [])
        rates = sorted((f - 1) * 1000.0 / ms for f, _first, ms in v if f > 1 and ms > 0)
        if not rates:
            continue
        value = "%d / %d (n=%d)" % (rates[0], statistics.median(rates), len(rates))
        if kind == "slide":
            out.append(("slide f/s, min / median", ">= 25 f/s", value, rates[0] >= 25))
        else:
            others.append("%s %s" % (kind, value))
    if others:
        out.append(("other f/s, min / median", "", ", ".join(others), None))
    return out


MET = {True: "yes", False: "**no**", None: "-"}


def table(columns):
    """The goals' table: a figure a row, a value and a met column for each of ``columns``, [(label, rows)]
    (``rows``' figures in the order they first come; a figure a column lacks is "-")."""
    out = ["| figure | goal | %s |" % " | ".join("%s | met" % label for label, _rows in columns),
           "|---|---|" + "---|---|" * len(columns)]
    order, goals, cells = [], {}, [{} for _ in columns]
    for n, (_label, rows_) in enumerate(columns):
        for figure, goal, value, met in rows_:
            if figure not in goals:
                order.append(figure)
                goals[figure] = goal
            cells[n][figure] = "%s | %s" % (value, MET[met])
    for figure in order:
        out.append("| %s | %s | %s |" % (figure, goals[figure] or "-",
                                         " | ".join(c.get(figure, "- | -") for c in cells)))
    return out


def column_rows(config, cells, games):
    """The goals' rows of one badge ``config``'s results (its key plan's and its animation plan's runs)."""
    anims, firsts, travel = {}, {}, {}
    for steps, name in ((config["steps"], config["name"]), (config["asteps"], config["name"] + " anim")):
        for kind, v in tables.anim_lines(games.get(name, {}), steps).items():
            anims.setdefault(kind, []).extend(v)
        for kind, v in first_frames(steps, games.get(name, {})).items():
            firsts.setdefault(kind, []).extend(v)
        for kind, v in less_travel(steps, games.get(name, {})).items():
            travel.setdefault(kind, []).extend(v)
    return rows(cells, anims, firsts, travel)


def section(configs, results, games, date, deal):
    """The ``## PyBadge`` section's lines: a column for each badge config's results."""
    lines = table([(tables.label(c), column_rows(c, results[c["name"]], games)) for c in configs])
    return tables.section(HEADING, date, [c["uf2"] for c in configs], CAPTION % deal, lines)
