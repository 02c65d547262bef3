"""The device benchmark's arguments and runs: the images built, the emulators run two at a time, the
tables printed and the figures written."""

import argparse
import glob
import json
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from sultan_host.bench.device import pbfigures, pbsaves, pybadge, tables
from sultan_host.bench.device.emulator import bare_run, game_run, plan_jobs
from sultan_host.bench.device.idle import idle_jobs, idle_section
from sultan_host.bench.device.plan import WON_DEAL, anim_plan, plan
from sultan_host.bench.device.saves import cut_jobs, cut_run, print_cuts, print_wear, wear_jobs, wear_run
from sultan_host.board import wokwi as wokwi_image
from sultan_host.board.sources import ROOT

DEFAULT_OUT = os.path.join(ROOT, "build", "bench-device")
DESCRIPTION = "The device benchmark: the Wokwi build on real CircuitPython in the RP2040 emulator."
UF2_GLOB = "adafruit-circuitpython-raspberry_pi_pico-*-%d.*.uf2"


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "bench-device: %s\n" % message[:300])


# ------------------------------------------------------------------ main
def find_firmwares():
    found = []
    for major in (10, 9, 8):
        hits = sorted(glob.glob(os.path.join(ROOT, "vendor-local", UF2_GLOB % major)))
        if hits:
            found.append(hits[-1])
    return found


def parse_args(argv):
    ap = ArgParser(prog="python -m sultan_host.bench.device", description=DESCRIPTION)
    ap.add_argument(
        "--firmware", action="append", help="a Pico CircuitPython UF2 (repeat; default vendor-local/)"
    )
    ap.add_argument("--bootrom", default=os.environ.get("RP2040_BOOTROM") or None)
    ap.add_argument("--sizes", default="320x240,160x128")
    ap.add_argument("--deal", default="7")
    ap.add_argument("--soak", default="0", help="also N random keys on each firmware at 320x240")
    ap.add_argument("--cuts", default="0", help="also N aimed power cuts, spread over the firmwares")
    ap.add_argument("--wear", default="0", help="also N games at autoplay and at human pace: erases a game")
    ap.add_argument("--only", choices=("anim", "table", "saves", "idle"),
                    help="anim: only the animation plan's runs and table; table: only the key plan's table; "
                         "saves: only --cuts and --wear; idle: only the idle board's WFI share")
    ap.add_argument("--boards", help="pico, pybadge, pygamer, or a list (default: the Pico's, and each badge "
                                     "image found, in the samd51 emulator)")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", default="2", help="emulators at once (each takes a core)")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--figures", default=tables.FIGURES,
                    help="the figures file the tables go into (default docs/figures.md; '' for none)")
    args = ap.parse_args(argv)
    args.pybadge_asked = args.boards is not None
    args.boards = (args.boards or "pico,pybadge,pygamer").split(",")
    if not args.boards or any(b not in ("pico",) + pybadge.BOARDS for b in args.boards):
        ap.error("--boards %.40s: want pico, pybadge, pygamer or a list of them" % ",".join(args.boards))
    for board in pybadge.BOARDS:
        if board in args.boards and args.pybadge_asked and pybadge.missing(board):
            ap.error("--boards %s: %s" % (board, pybadge.missing(board)))
    if "pico" not in args.boards:
        args.firmwares, args.bootrom = [], None
        return checked(ap, args)
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
    return checked(ap, args)


def checked(ap, args):
    """``args`` with the sizes, the deal and the counts checked and parsed (exit 2 on the first wrong)."""
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
    return plan_jobs(args, "anim", " ".join(w for w, _k, _l in anim_plan()), WON_DEAL)


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


def add_badges(args, configs, bare_jobs, game_jobs, anim_configs):
    """The badges' columns, one an image found, their runs added to the jobs (none unless --boards names the
    board, with --only saves, or without its firmware: said in one line); the firmwares the figures name."""
    columns = pybadge.columns(args.boards)
    why = "--only saves" if args.only == "saves" else None if columns else "no badge image found"
    if why:
        if any(b in args.boards for b in pybadge.BOARDS):
            print("bench-device: no badge column (%s)" % why, file=sys.stderr)
        return args.firmwares
    for column in columns:
        config, bare, jobs = pybadge.jobs(args, column)
        if bare is not None:
            configs.append(config)
            bare_jobs[config["bare"]] = bare
        if args.only in (None, "anim"):
            anim_configs.append(config)
        game_jobs += jobs
    return args.firmwares + [uf2 for _board, uf2 in columns]


def figure_sections(args, configs, results, games, anim_configs, steps, date):
    """{heading: lines} of docs/figures.md (the tables printed too): the key plan's and the animations' of
    the Pico's columns, the PyBadge's own (a section's table is whole, so a run writes only the sections
    of the boards it ran); "_anim_bad": the animation runs' errors."""
    sections = {}
    pico = [c for c in configs if c.get("board") not in pybadge.BOARDS]
    if results:
        tables.print_table(configs, results, date, args.deal)
    if pico:
        sections[tables.KEY_HEADING] = tables.section(tables.KEY_HEADING, date, args.firmwares,
                                                      tables.KEY_CAPTION % args.deal,
                                                      tables.key_table(pico, results))
    sections["_anim_bad"] = []
    if anim_configs:
        table, sections["_anim_bad"] = tables.anim_table(anim_configs, games, steps)
        tables.print_anims(table, sections["_anim_bad"])
        pico_anims = [c for c in anim_configs if c.get("board") not in pybadge.BOARDS]
        if pico_anims:
            sections[tables.ANIM_HEADING] = tables.section(tables.ANIM_HEADING, date, args.firmwares,
                                                           tables.ANIM_CAPTION,
                                                           tables.anim_table(pico_anims, games, steps)[0])
    badges = [c for c in configs if c.get("board") in pybadge.BOARDS and c["name"] + " anim" in games]
    if badges:
        sections[pbfigures.HEADING] = pbfigures.section(badges, results, games, date, args.deal)
    return sections


def main(argv=None):
    args = parse_args(argv)
    steps = plan(args.deal)
    keys = " ".join(w for w, _k, _l in steps)
    os.makedirs(args.out, exist_ok=True)
    configs, bare_jobs, game_jobs = make_jobs(args, keys) if args.only in (None, "table") else ([], {}, [])
    anim_configs, ajobs = anim_jobs(args) if args.only in (None, "anim") else ([], [])
    game_jobs += ajobs
    add_badges(args, configs, bare_jobs, game_jobs, anim_configs)
    fws = args.firmwares  # none with --boards pybadge: the cuts and the wear are the Pico's
    cjobs = cut_jobs(fws, args.bootrom, args.out, args.cuts, args.seed) if args.cuts and fws else []
    wjobs = wear_jobs(fws, args.bootrom, args.out, args.wear, args.seed) if args.wear and fws else []
    idle_configs, ijobs = idle_jobs(args) if args.only in (None, "idle") and args.firmwares else ([], [])
    game_jobs += ijobs
    pjobs = pbsaves.jobs(args)  # the PyBadge's erase window and cuts
    print("bench-device: %d emulator runs, %d at a time ..." % (len(bare_jobs) + len(game_jobs) + len(cjobs)
                                                                + len(wjobs) + len(pjobs),
                                                                args.jobs), file=sys.stderr)
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        badge = lambda j: j.get("board") in pybadge.BOARDS  # noqa: E731  (a badge's run, not the Pico's)
        bare_f = {v: pool.submit(pybadge.bare_run if badge(j) else bare_run, j) for v, j in bare_jobs.items()}
        game_f = {j["name"]: pool.submit(pybadge.game_run if badge(j) else game_run, j) for j in game_jobs}
        cut_f = [(j, pool.submit(cut_run, j)) for j in cjobs]
        wear_f = [(j, pool.submit(wear_run, j)) for j in wjobs]
        bares = {v: f.result() for v, f in bare_f.items()}
        games = {n: f.result() for n, f in game_f.items()}
        cuts = [(j, f.result()) for j, f in cut_f]
        pb_f = [(j, pool.submit(fn, j)) for fn, j in pjobs]
        wears = [(j, f.result()) for j, f in wear_f]
        pb_saves = [(j, f.result()) for j, f in pb_f]
    results = {}
    for c in configs:
        g, b = games[c["name"]], bares[c.get("bare", c["version"])]
        cells = tables.summarise(c.get("steps", steps), g, b)
        errors = []
        if g.get("returncode"):
            errors.append("emulator failed: %s" % (g.get("error") or g.get("stderr_tail", "")[-300:]))
        if "error" in b:
            errors.append("bare run failed: %s" % b["error"][-300:])
        cells["_errors"] = errors
        results[c["name"]] = cells
    date = time.strftime("%Y-%m-%d")
    sections = figure_sections(args, configs, results, games, anim_configs, steps, date)
    anim_bad = sections.pop("_anim_bad", [])
    idle_bad = idle_section(idle_configs, games, args, date, sections) if idle_configs else []
    print()
    bad = print_soaks(args, games) + len(anim_bad) + len(idle_bad)
    bad += print_cuts(cuts) if cuts else 0
    bad += print_wear(wears) if wears else 0
    pb_sections, pb_bad, pb_not_allowed = pbsaves.report(pb_saves, date)
    sections.update(pb_sections)
    bad += pb_bad
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"date": date, "deal": args.deal, "plan": steps, "configs": configs, "table": results,
                   "bare": bares, "wall_s": time.time() - t0}, f, indent=1)
    print("\n(%d s wall; raw timings in %s)" % (time.time() - t0, os.path.relpath(args.out, ROOT)),
          file=sys.stderr)
    failed = any(r["_errors"] for r in results.values()) or bad
    if sections and args.figures and not failed:  # a failed run leaves the figures as they were
        for path, part in pbfigures.split(args.figures, sections):
            tables.write_figures(path, part, pbfigures.HEAD if path != args.figures else tables.FIGURES_HEAD)
            print("(the figures in %s)" % os.path.relpath(path), file=sys.stderr)
    return 1 if failed or pb_not_allowed else 0
