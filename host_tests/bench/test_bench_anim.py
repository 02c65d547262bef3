"""The device benchmark's animation figures (tools/emulate/bench_device.py, issue 18): its plan wins
a deal and waits in the cascade, and its table reads the ``SULTAN anim=`` lines of the timed keys
only.  No emulator: the report is made up here."""

import importlib.util
import os

from conftest import ROOT


def bench():
    spec = importlib.util.spec_from_file_location("bench_device", os.path.join(ROOT, "tools", "emulate",
                                                                               "bench_device.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_animation_plan_shows_every_animation_then_wins_and_waits_in_the_cascade():
    b = bench()
    plan = b.anim_plan()
    words = [w for w, _k, _l in plan]
    assert words[-3:] == ["START", "WAIT:%d" % b.CASCADE_WAIT_MS, "RIGHT"]
    assert plan[-3][1:] == ("autoplay", "SULTAN key=START placed=95 pass=3 status=won")
    assert words[-4].startswith("START*")
    kinds = [k for _w, k, _l in plan]
    assert "play" in kinds and "undo" in kinds and kinds.count("turn") >= 3
    # the hint, the redo, autoplay on (menu items) and the restart (its deal)
    assert kinds.count("menu item") == 3 and "new deal" in kinds and words.count("SELECT") == 4


def test_the_table_reads_the_timed_keys_animations_and_leaves_out_a_bursts():
    b = bench()
    lines = [
        "SULTAN anim=slide frames=4 first=20 ms=60", "SULTAN key=START placed=0 pass=1 status=playing",
        "SULTAN anim=slide frames=2 first=20 ms=10", "SULTAN key=START placed=0 pass=1 status=playing",
        "SULTAN anim=deal frames=16 first=300 ms=500", "SULTAN key=A placed=0 pass=1 status=playing",
        "SULTAN anim=slide frames=17 first=30 ms=800", "SULTAN key=START placed=95 pass=3 status=won",
        "SULTAN anim=cascade frames=51 first=0 ms=2000", "SULTAN key=RIGHT placed=95 pass=3 status=won",
    ]
    game = {"lines": [{"ms": 100.0 * i, "text": t} for i, t in enumerate(lines)],
            "keys": [{"line": lines[2 * i + 1], "line_ms": 100.0 * (2 * i + 1), "burst": i == 1}
                     for i in range(5)]}
    steps = [("START", "turn", None), ("START*1!", "burst", None), ("A", "new deal", None),
             ("START", "autoplay", None), ("WAIT:3000", "wait", None), ("RIGHT", "panel key", None)]
    want = {"slide": [(4, 20, 60)], "deal": [(16, 300, 500)], "autoplay": [(17, 30, 800)],
            "cascade": [(51, 0, 2000)]}
    assert b.anim_lines(game, steps) == want
    cells = b.anim_cells((steps, game), ((), {}))
    assert cells["slide"] == "50 / 50 f/s, first 20 ms, then 60 / 60 ms (n=1)"  # 3 frames after the first
    assert cells["deal"] == "30 / 30 f/s, 16 frames in 500 ms, first 300 ms (n=1)"
    assert cells["autoplay"].startswith("20 / 20 f/s") and cells["cascade"].startswith("25 / 25 f/s")
