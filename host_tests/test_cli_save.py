"""CLI saves: play --save FILE, resume FILE --json (the JSON of play), a corrupt FILE exits 2 in one line."""

import json
import os
import subprocess
import sys

from helpers import winning_order
from sultan.rules import cards
from sultan.rules.engine import Game
from sultan_host.snapshot import snapshot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "tools", "sultan_cli.py")


def cli(*args):
    return subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, timeout=120)


def test_resume_prints_the_json_of_the_game_play_saved(tmp_path):
    f = str(tmp_path / "g.sav")
    played = cli("play", "--deal", "12", "--auto", "--stop-at-pass-end", "--json", "--save", f)
    assert played.returncode == 0, played.stderr
    resumed = cli("resume", f, "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == json.loads(played.stdout)
    assert json.loads(resumed.stdout)["pass"] == 1  # stopped before the redeal, and still there


def test_resume_auto_plays_on_like_play_auto_and_saves_back(tmp_path):
    f = str(tmp_path / "g.sav")
    assert cli("play", "--deal", "31", "--auto", "--stop-at-pass-end", "--save", f).returncode == 0
    on = cli("resume", f, "--auto", "--json")
    assert on.returncode == 0, on.stderr
    g = Game(deal=31)
    g.autoplay()
    assert json.loads(on.stdout) == snapshot(g)
    assert json.loads(cli("resume", f, "--json").stdout) == snapshot(g)


def test_order_games_resume_too(tmp_path):
    f = str(tmp_path / "o.sav")
    order = " ".join(cards.name(c) for c in winning_order())
    played = cli("play", "--order", order, "--json", "--save", f)
    assert played.returncode == 0, played.stderr
    assert json.loads(cli("resume", f, "--json").stdout) == json.loads(played.stdout)


def test_a_corrupt_file_exits_2_with_one_line_and_is_left_alone(tmp_path):
    f = tmp_path / "bad.sav"
    for data in (b"", b"\xff" * 2048, b"\x00" * 2048, b"SU\x01" + b"\x07" * 500, os.urandom(3000)):
        f.write_bytes(data)
        r = cli("resume", str(f), "--json")
        assert r.returncode == 2 and r.stdout == ""
        # empty or erased (all 0xFF) is no save, not damage (issue 9)
        words = "no game saved" if data in (b"", b"\xff" * 2048) else "save data corrupt"
        assert r.stderr.count("\n") == 1 and words in r.stderr
        assert "Traceback" not in r.stderr
        assert f.read_bytes() == data


def test_a_save_cut_short_is_corrupt_not_a_crash(tmp_path):
    f = tmp_path / "g.sav"
    assert cli("play", "--deal", "5", "--auto", "--save", str(f)).returncode == 0
    whole = f.read_bytes()
    for cut in (0, 3, 17, 40, 200):
        f.write_bytes(whole[:cut])
        r = cli("resume", str(f))
        words = "no game saved" if cut == 0 else "save data corrupt"  # an empty file is no save (issue 9)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr


def test_missing_file_and_bad_combinations_are_one_line_errors(tmp_path):
    r = cli("resume", str(tmp_path / "none.sav"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = cli("play", "--deals", "1-3", "--save", str(tmp_path / "x.sav"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_play_save_refuses_a_strangers_file_and_keeps_counting_into_a_good_one(tmp_path):
    f = tmp_path / "g.sav"
    f.write_bytes(b"\x55" * 700)
    # Issue 9: a file that is not a save of ours is never overwritten (it was, before).
    r = cli("play", "--deal", "9", "--auto", "--save", str(f))
    assert r.returncode == 2 and "not a Sultan save" in r.stderr and f.read_bytes() == b"\x55" * 700
    f.unlink()
    assert cli("play", "--deal", "9", "--auto", "--save", str(f)).returncode == 0
    first = json.loads(cli("resume", str(f), "--json").stdout)
    assert cli("play", "--deal", "10", "--auto", "--save", str(f)).returncode == 0
    second = json.loads(cli("resume", str(f), "--json").stdout)
    assert first["deal"] == 9 and second["deal"] == 10 and second["status"] in ("won", "lost")
    from sultan_host.filesave import open_store

    st = open_store(str(f))
    st.load()
    assert st.stats.get(0)["played"] == 2  # both decided games counted in the file
