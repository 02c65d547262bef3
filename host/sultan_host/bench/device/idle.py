"""The idle figure (issue 27, goal 5): after a game has started, the share of 10 s with no key that the
RP2040's core spends waiting for an interrupt (WFI), as tools/emulate's report counts it."""

import os

from sultan_host.bench.device import tables
from sultan_host.board import wokwi as wokwi_image

IDLE_MS = 10000
IDLE_KEYS = "START WAIT:%d" % IDLE_MS  # a game started (its first turn), then no key
IDLE_HEADING = "## Idle"
IDLE_CAPTION = ("deal %s, START then %d s with no key (the USB host attached, the NVM's idle write at 10 s "
                "inside it): the core's share of that time in WFI, and the backlight's duty at its end")


def idle_jobs(args):
    """(configs, jobs): the idle plan on each firmware at each size."""
    configs, jobs = [], []
    for fw in args.firmwares:
        version = "%d.%d.%d" % wokwi_image.circuitpython_version(fw)
        for w, h in args.sizes:
            name = "cp%s-%dx%d" % (version, w, h)
            d = os.path.join(args.out, name + "-idle")
            os.makedirs(d, exist_ok=True)
            image = os.path.join(d, "sultan.uf2")
            wokwi_image.make_uf2(fw, image, tree=os.path.join(d, "CIRCUITPY"), quiet=True, size=(w, h),
                                 deal=args.deal)
            configs.append({"name": name, "version": version, "size": "%dx%d" % (w, h)})
            jobs.append({"name": name + " idle", "image": image, "bootrom": args.bootrom, "dir": d,
                         "keys": IDLE_KEYS, "window": None if (w, h) == (320, 240) else "%dx%d" % (w, h),
                         "flash_time": True})
    return configs, jobs


def idle_cell(run):
    """'93.1 % (9,310 of 10,000 ms), backlight 100 %' from a run's report, or the error."""
    spans = run.get("idle") or []
    if run.get("returncode") or not spans:
        return None
    s = spans[-1]
    duty = (run.get("backlight") or {}).get("duty")
    lit = "" if duty is None else ", backlight %d %%" % round(100 * duty)
    return "%.1f %% (%s of %s ms)%s" % (100.0 * s["wfi_ms"] / s["ms"], "{:,}".format(round(s["wfi_ms"])),
                                        "{:,}".format(round(s["ms"])), lit)


def idle_table(configs, games):
    """(the idle table, a row a configuration: [markdown line], [error line])."""
    out = ["| | CPU in WFI, 10 s with no key |", "|---|---|"]
    bad = []
    for c in configs:
        run = games[c["name"] + " idle"]
        cell = idle_cell(run)
        if cell is None:
            bad.append("ERROR: %s idle: %s" % (c["name"], (run.get("stderr_tail") or "no WAIT span")[-300:]))
        out.append("| CP %s %s | %s |" % (c["version"], c["size"], cell or "-"))
    return out, bad


def idle_section(configs, games, args, date, sections):
    """Print the idle table and put it in ``sections`` (the figures file's); returns its error lines."""
    table, bad = idle_table(configs, games)
    caption = IDLE_CAPTION % (args.deal, IDLE_MS // 1000)
    print()
    print("Idle (%s)" % caption)
    print()
    print("\n".join(table + bad))
    sections[IDLE_HEADING] = tables.section(IDLE_HEADING, date, args.firmwares, caption, table)
    return bad
