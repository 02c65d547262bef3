"""The idle figure: after a game has started, the share of 10 s with no key that the
RP2040's core spends waiting for an interrupt (WFI), as tools/emulate's report counts it; and of 10 s
once the screen has dimmed (30 s after the key), when the game's idle passes sleep longer."""

from sultan_host.bench.device import tables
from sultan_host.bench.device.emulator import plan_jobs

IDLE_MS = 10000
# a game started (its first turn), then no key: 10 s, 21 s more, and 10 s with the screen dimmed
IDLE_KEYS = "START WAIT:%d WAIT:21000 WAIT:%d" % (IDLE_MS, IDLE_MS)
IDLE_HEADING = "## Idle"
IDLE_CAPTION = ("deal %s, START then no key (the USB host attached): the core's share in WFI of the %d s "
                "after the key (the NVM's idle write at 10 s inside them) and of 31 to 41 s after it (the "
                "screen dimmed), with the backlight's duty then")


def idle_jobs(args):
    """(configs, jobs): the idle plan on each firmware at each size, with the flash's real times."""
    return plan_jobs(args, "idle", IDLE_KEYS, args.deal, flash_time=True)


def share(span):
    """'93.1 % (9,310 of 10,000 ms)': a WAIT span's time in WFI."""
    wfi, ms = span["wfi_ms"], span["ms"]
    return "%.1f %% (%s of %s ms)" % (100.0 * wfi / ms, "{:,}".format(round(wfi)), "{:,}".format(round(ms)))


def idle_cells(run):
    """(after the key, dimmed) cells from a run's report: '93.1 % (9,310 of 10,000 ms)', the dimmed one
    with the backlight's duty; None if the run failed."""
    spans = run.get("idle") or []
    if run.get("returncode") or len(spans) != 3:
        return None
    duty = (run.get("backlight") or {}).get("duty")
    lit = "" if duty is None else ", backlight %d %%" % round(100 * duty)
    return share(spans[0]), share(spans[2]) + lit


def idle_table(configs, games):
    """(the idle table, a row a configuration: [markdown line], [error line])."""
    out = ["| | CPU in WFI, 0-10 s after the key | 31-41 s after it (dimmed) |", "|---|---|---|"]
    bad = []
    for c in configs:
        run = games[c["name"] + " idle"]
        cells = idle_cells(run)
        if cells is None:
            bad.append("ERROR: %s idle: %s" % (c["name"], (run.get("stderr_tail") or "no WAIT spans")[-300:]))
        out.append("| CP %s %s | %s |" % (c["version"], c["size"], " | ".join(cells or ("-", "-"))))
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
