"""The device benchmark's PyBadge column: the game on the PyBadge's own CircuitPython (9.1.1) in the
SAMD51 emulator (``python -m sultan_host.pybadge``), with the same runs as a Pico column -- a bare
code.py's and the key plan's, the animation plan's and a soak -- each giving a report shaped as
tools/emulate's, so that the tables read it as they read a Pico's.  The PyBadge's menu has the Sound
and Lights switches, so its plans are made for that menu (``plan(deal, sound=True)``)."""

import json
import os
import re
import subprocess
import sys
import threading
import time

from sultan_host.bench.device.plan import WON_DEAL, anim_plan, plan
from sultan_host.pybadge import image

NAME = "pybadge-%s-160x128"


def missing():
    """Why there is no PyBadge column here (one line), or None."""
    return image.missing()


def version():
    """The firmware's CircuitPython version, from its file name (...-pybadge-en_US-9.1.1.uf2)."""
    m = re.search(r"-(\d+\.\d+\.\d+)\.uf2$", image.firmware() or "")
    return m.group(1) if m else "9"


_trees, _building = {}, threading.Lock()


def tree_of(deal):
    """The CIRCUITPY tree of ``deal``, built once for the whole benchmark: runs in parallel that each
    built build/pybadge/CIRCUITPY raced in its staging folder."""
    with _building:
        if deal not in _trees:
            from sultan_host.board.sources import ROOT

            tree = os.path.join(ROOT, "build", "bench-device", "pybadge-tree-%s" % deal, "CIRCUITPY")
            image.build_tree(tree, image.version_of(image.firmware())[0], deal=int(deal))
            _trees[deal] = tree
        return _trees[deal]


def run(out, *args, shots=False):
    """(report, returncode, stderr's tail, wall s) of one harness run into ``out`` (``shots``: its
    screenshots there too); a ``--deal`` run gets its deal's tree (``tree_of``)."""
    os.makedirs(out, exist_ok=True)
    if "--deal" in args and "--tree" not in args:
        i = args.index("--deal")
        args = args[:i] + ("--tree", tree_of(args[i + 1])) + args[i + 2:]  # the deal is in its tree
    report = os.path.join(out, "report.json")
    if os.path.exists(report):  # never read an earlier run's figures
        os.remove(report)
    t0 = time.time()
    quiet = ["--quiet"] + ([] if shots else ["--no-shots"])
    proc = subprocess.run([sys.executable, "-m", "sultan_host.pybadge", *quiet, "--out", out, "--report",
                           report, *args], capture_output=True, text=True)
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
    data, rc, err, wall = run(job["dir"], "--tree", bare_tree(job["dir"]), "--ready-only")
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
    data, rc, err, wall = run(job["dir"], "--deal", str(job["deal"]), "--keys", job["keys"], *extra)
    data["returncode"] = rc
    data["stderr_tail"] = err
    data["wall_s"] = wall
    return data


def jobs(args):
    """(the config, its bare job or None, [game jobs]) for the PyBadge column, as main.make_jobs's and
    anim_jobs's for ``args.only``: the config carries its own plans (``steps``, ``asteps``) and the name
    of the bare run it is measured against."""
    v = version()
    name = NAME % v
    steps = plan(args.deal, sound=True)
    asteps = anim_plan(WON_DEAL, sound=True)
    config = {"name": name, "board": "pybadge", "version": v, "size": "160x128",
              "label": "PyBadge CP %s 160x128" % v,
              "bare": name, "steps": steps, "asteps": asteps}
    d = os.path.join(args.out, name)
    bare, game = None, []
    if args.only in (None, "table"):
        bare = {"board": "pybadge", "dir": os.path.join(d, "bare")}
        game.append({"board": "pybadge", "name": name, "dir": os.path.join(d, "plan"), "deal": args.deal,
                     "keys": " ".join(w for w, _k, _l in steps)})
        if args.soak:
            game.append({"board": "pybadge", "name": name + " soak", "dir": os.path.join(d, "soak"),
                         "deal": args.deal, "keys": "", "soak": args.soak, "seed": args.seed})
    if args.only in (None, "anim"):
        game.append({"board": "pybadge", "name": name + " anim", "dir": os.path.join(d, "anim"),
                     "deal": WON_DEAL, "keys": " ".join(w for w, _k, _l in asteps)})
    return config, bare, game
