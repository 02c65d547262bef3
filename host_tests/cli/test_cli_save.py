"""CLI saves: play --save FILE, resume FILE --json (the JSON of play), a corrupt FILE exits 2 in one line."""

import json
import os
import subprocess
import sys

from helpers import winning_order
from runners import ROOT
from sultan.rules import cards, engine
from sultan.rules.engine import Game
from sultan_host.snapshot import snapshot

CLI = os.path.join(ROOT, "tools", "sultan_cli.py")


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


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
    cases = ((b"", "no game saved"), (b"\xff" * 2048, "no game saved"),  # empty or erased: no save
             (b"SU\x01" + b"\x07" * 500, "save data corrupt"),  # ours by its magic, nothing in it reads
             (b"\x00" * 2048, "not a Sultan save"), (os.urandom(3000), "not a Sultan save"),
             (b"my notes\n", "not a Sultan save"))
    for data, words in cases:
        f.write_bytes(data)
        r = cli("resume", str(f), "--json")
        assert r.returncode == 2 and r.stdout == ""
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
        words = "no game saved" if cut == 0 else "save data corrupt"  # an empty file is no save
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr


def test_missing_file_and_bad_combinations_are_one_line_errors(tmp_path):
    r = cli("resume", str(tmp_path / "none.sav"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = cli("play", "--deals", "1-3", "--save", str(tmp_path / "x.sav"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_play_save_refuses_a_strangers_file_and_keeps_counting_into_a_good_one(tmp_path):
    f = tmp_path / "g.sav"
    f.write_bytes(b"\x55" * 700)
    # A file that is not a save of ours is never overwritten (it was, before).
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


# ------------------------------------------------------------ what --save refuses, resume refuses


def test_resume_auto_leaves_a_file_that_save_refuses_as_it_was(tmp_path):
    """A valid save padded to 100 MB is no save of ours: resume --auto cut it to 2 KB before."""
    f = tmp_path / "g.sav"
    assert cli("play", "--deal", "5", "--auto", "--stop-at-pass-end", "--save", str(f)).returncode == 0
    with open(f, "r+b") as h:
        h.truncate(100 * 1024 * 1024)
    before = os.stat(f)
    for args in (["--auto"], []):
        r = cli("resume", str(f), *args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
        assert "not a Sultan save" in r.stderr and "Traceback" not in r.stderr
    after = os.stat(f)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


UNREADABLE = """
import locale, os, sys
from sultan_host.cli import main
main.build_parser()  # argparse's lazy imports, before the root's library may no longer be readable
os.setgid(65534)
os.setuid(65534)
sys.exit(main.main(sys.argv[1:]))
"""


def test_an_unreadable_save_is_permission_denied_not_corrupt(tmp_path):
    f = tmp_path / "g.sav"
    assert cli("play", "--deal", "5", "--save", str(f)).returncode == 0
    os.chmod(f, 0o600)
    os.chmod(tmp_path, 0o755)
    data = f.read_bytes()
    for args in (["resume", str(f)], ["resume", str(f), "--auto"], ["play", "--deal", "3", "--save", str(f)]):
        if os.geteuid() == 0:  # root reads any file: be another owner (nobody) for the run
            r = subprocess.run([sys.executable, "-c", UNREADABLE, *args], capture_output=True, text=True,
                               timeout=120, cwd=ROOT)
        else:
            os.chmod(f, 0)
            r = cli(*args)
            os.chmod(f, 0o600)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "permission denied" in r.stderr and "corrupt" not in r.stderr
    assert f.read_bytes() == data


def two_records():
    """A file's bytes with two good records: slot 0 the older game (30 moves), slot 1 the newest (40)."""
    from helpers import two_slots

    region, _, _ = two_slots()
    return bytes(region.data)


def test_a_damaged_newer_record_is_said_on_stderr_whatever_the_damage(tmp_path):
    """The older game is resumed, and stderr says the newest was not used: a bad CRC, the file cut short
    (100 or 1,100 bytes), a newest record that does not replay."""
    from helpers import spoil_last_move
    from sultan.saves.memory import MemoryRegion

    whole = two_records()
    crc = bytearray(whole)
    crc[1024 + 40] ^= 0x01
    spoiled = MemoryRegion(data=bytearray(whole))
    spoil_last_move(spoiled, 1024)
    f = tmp_path / "g.sav"
    for data, note in ((bytes(crc), "the newest save in F is damaged; resuming the one before it"),
                       (whole[:100], "F was cut short (100 of 2048 bytes); resuming the record it kept"),
                       (whole[:1100], "F was cut short (1100 of 2048 bytes); resuming the record it kept"),
                       (bytes(spoiled.data),
                        "the newest save in F is damaged (its moves do not replay); resuming the one before"
                        " it")):
        f.write_bytes(data)
        r = cli("resume", "g.sav", "--json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["moves"] == 30  # the older game
        assert r.stderr == "resume: %s\n" % note.replace("F", "g.sav"), r.stderr
        assert f.read_bytes() == data  # a look, not a write


def test_no_note_when_the_newest_record_is_used(tmp_path):
    whole = two_records()
    older_spoiled = bytearray(whole)
    older_spoiled[40] ^= 0x01  # the older slot's CRC: the newest is resumed, nothing lost
    f = tmp_path / "g.sav"
    one = tmp_path / "one.sav"
    assert cli("play", "--deal", "5", "--save", str(one)).returncode == 0  # one record: slot 1 erased
    one.write_bytes(one.read_bytes()[:1100])  # its tail cut: only erased bytes lost
    for path, data, moves in ((f, whole, 40), (f, bytes(older_spoiled), 40), (one, None, 0)):
        if data is not None:
            path.write_bytes(data)
        r = cli("resume", str(path), "--json")
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert json.loads(r.stdout)["moves"] == moves


def test_stats_save_json_says_the_streaks_and_fewest_moves_of_a_save_and_writes_nothing(tmp_path):
    from sultan_host.filesave import open_store

    f = tmp_path / "g.sav"
    st = open_store(str(f))
    st.load()
    for turns in (2, 0, 3):  # three wins, in 97, 95 and 98 moves
        g = Game(order=winning_order())
        for _ in range(turns):
            g.turn()
        assert g.autoplay() == engine.WON
        st.new_game(g)
        st.save(g)
    g = Game(deal=3)  # begun, then abandoned for deal 4: lost
    st.new_game(g)
    g.step()
    st.save(g)
    st.new_game(Game(deal=4))
    st.flush()
    before = f.read_bytes()
    r = cli("stats", "--save", str(f), "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["rules"]["seed"] == {"played": 4, "won": 3, "lost": 1, "best_placed": 95, "streak": 0,
                                    "best_streak": 3, "fewest_moves": 95}
    assert got["rules"]["classic"]["played"] == 0 and got["rules"]["classic"]["fewest_moves"] is None
    text = cli("stats", "--save", str(f))
    assert text.returncode == 0 and "streak 0  best 3  fewest moves 95" in text.stdout
    assert f.read_bytes() == before  # only read


def test_stats_save_reads_a_format_1_save_with_its_streaks(tmp_path):
    from helpers import as_format_1
    from sultan.saves import record, stats

    s = stats.Stats()
    for won in (True, True, False, True):
        s.record(0, won, 95 if won else 20, 99)
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 3, s, 4, 4)
    f = tmp_path / "old.sav"
    f.write_bytes(as_format_1(buf, n).ljust(2 * record.SLOT_MAX, b"\xff"))
    r = cli("stats", "--save", str(f), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"]["seed"] == {"played": 4, "won": 3, "lost": 1, "best_placed": 95,
                                                     "streak": 1, "best_streak": 2, "fewest_moves": None}


def test_stats_save_refuses_what_is_no_save_in_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("mine\n")
    for args, words in ((["--save", str(tmp_path / "none.sav")], "no such save file"),
                        (["--save", str(text)], "not a Sultan save"),
                        (["--save", str(text), "--deals", "1-3"], "not both"),
                        ([], "--deals")):
        r = cli("stats", *args)
        assert r.returncode == 2 and words in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)
        assert "Traceback" not in r.stderr
    assert text.read_text() == "mine\n"
