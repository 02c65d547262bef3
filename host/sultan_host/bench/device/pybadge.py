"""The device benchmark's badge columns: the game on each badge image found (the PyBadge's 9.1.1 and 10.2.1,
the PyGamer's 10.2.1) in the SAMD51 emulator (``python -m sultan_host.pybadge``), with the same runs as a Pico
column -- a bare code.py's and the key plan's, the animation plan's and a soak -- each giving a report shaped
as tools/emulate's, so that the tables read it as they read a Pico's.  The badges' menu has the Sound and
Lights switches, so their plans are made for that menu (``plan(deal, sound=True)``).  A column is a
(board, UF2) pair."""

import json
import os
import re
import subprocess
import sys
import threading
import time

from sultan_host.bench.device.plan import WON_DEAL, anim_plan, plan
from sultan_host.pybadge import image

BOARDS = image.BOARDS


def columns(boards):
    """[(board, UF2)]: the badge images found for the boards named in ``boards``."""
    return [(board, uf2) for board, uf2 in image.images() if board in boards]


def default_column():
    """The PyBadge's newest image (bench-cpu's), or None."""
    uf2 = image.firmware("pybadge")
    return ("pybadge", uf2) if uf2 else None


def missing(board="pybadge"):
    """Why there is no column of ``board`` here (one line), or None."""
    return image.missing(board)


def version(column):
    """The column's CircuitPython version, "10.2.1"."""
    return "%d.%d.%d" % image.version_of(column[1])


def name(column):
    return "%s-%s-160x128" % (column[0], version(column))


_trees, _building = {}, threading.Lock()


def tree_of(column, deal):
    """The CIRCUITPY tree of ``deal`` for the column's CircuitPython major, built once for the whole
    benchmark: runs in parallel that each built one raced in its staging folder."""
    cp = image.version_of(column[1])[0]
    with _building:
        if (cp, deal) not in _trees:
            from sultan_host.board.sources import ROOT

            tree = os.path.join(ROOT, "build", "bench-device", "badge-tree-%d-%s" % (cp, deal), "CIRCUITPY")
            image.build_tree(tree, cp, deal=int(deal))
            _trees[cp, deal] = tree
        return _trees[cp, deal]


def run(out, column, *args, shots=False):
    """(report, returncode, stderr's tail, wall s) of one harness run of ``column`` into ``out`` (``shots``:
    its screenshots there too); a ``--deal`` run gets its deal's tree (``tree_of``)."""
    os.makedirs(out, exist_ok=True)
    if "--deal" in args and "--tree" not in args:
        i = args.index("--deal")
        args = args[:i] + ("--tree", tree_of(column, args[i + 1])) + args[i + 2:]  # the deal is in its tree
    report = os.path.join(out, "report.json")
    if os.path.exists(report):  # never read an earlier run's figures
        os.remove(report)
    t0 = time.time()
    quiet = ["--quiet"] + ([] if shots else ["--no-shots"])
    proc = subprocess.run([sys.executable, "-m", "sultan_host.pybadge", "--board", column[0], "--uf2",
                           column[1], *quiet, "--out", out, "--report", report, *args],
                          capture_output=True, text=True)
    data = json.load(open(report)) if os.path.exists(report) else {}
    return data, proc.returncode, proc.stderr[-1500:], time.time() - t0


def bare_tree(out):
    from sultan_host.board.wokwi import BARE_CODE

    tree = os.path.join(out, "CIRCUITPY")
    os.makedirs(tree, exist_ok=True)
    with open(os.path.join(tree, "code.py"), "w") as f:
        f.write(BARE_CODE)
    return tree


def bare_run(job):
    """As emulator.bare_run: the bare code.py's heap, and when it started (ms since power-on)."""
    data, rc, err, wall = run(job["dir"], job["column"], "--tree", bare_tree(job["dir"]), "--ready-only")
    if rc != 0:
        return {"error": (data.get("error") or err)[-800:]}
    line = next((ln for ln in data.get("lines", []) if "SULTAN BARE" in ln["text"]), {"text": ""})
    m = re.search(r"heap=(\d+) mem_free=(\d+) waited_ms=(\d+)", line["text"])
    if not m:
        return {"error": "no SULTAN BARE line: %r" % [ln["text"] for ln in data.get("lines", [])][:5]}
    return {"line_ms": line["ms"] - int(m.group(3)), "heap": int(m.group(1)), "mem_free": int(m.group(2)),
            "wall_s": wall}


def game_run(job):
    """As emulator.game_run: the plan's bursts with instant NVM writes, a soak's keys each waited for."""
    extra = (["--random-keys", str(job["soak"]), "--seed", str(job["seed"])] if job.get("soak")
             else ["--flash-time-scale", "0"])
    data, rc, err, wall = run(job["dir"], job["column"], "--deal", str(job["deal"]), "--keys", job["keys"],
                              *extra)
    data["returncode"] = rc
    data["stderr_tail"] = err
    data["wall_s"] = wall
    return data


def jobs(args, column):
    """(the config, its bare job or None, [game jobs]) for the badge ``column``, as main.make_jobs's and
    anim_jobs's for ``args.only``: the config carries its own plans (``steps``, ``asteps``), its UF2 and the
    name of the bare run it is measured against."""
    board, uf2 = column
    v = version(column)
    col = name(column)
    steps = plan(args.deal, sound=True)
    asteps = anim_plan(WON_DEAL, sound=True)
    config = {"name": col, "board": board, "uf2": uf2, "version": v, "size": "160x128",
              "label": "%s CP %s 160x128" % (image.label(board, uf2).split()[0], v),
              "bare": col, "steps": steps, "asteps": asteps}
    d = os.path.join(args.out, col)

    def job(part, **kw):
        return dict(kw, board=board, column=column, dir=os.path.join(d, part))

    bare, game = None, []
    if args.only in (None, "table"):
        bare = job("bare")
        game.append(job("plan", name=col, deal=args.deal, keys=" ".join(w for w, _k, _l in steps)))
        if args.soak:
            game.append(job("soak", name=col + " soak", deal=args.deal, keys="", soak=args.soak,
                            seed=args.seed))
    if args.only in (None, "anim"):
        game.append(job("anim", name=col + " anim", deal=WON_DEAL, keys=" ".join(w for w, _k, _l in asteps)))
    return config, bare, game
