"""The tools tried as a new user would: every bad argument is exit 2, one line, no
traceback, and nothing is lost; ``--save`` writes only where a save of ours may go."""

import io
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from runners import ROOT
from sultan.rules import cards
from sultan.rules.engine import Game
from sultan_host.analysis import survey
from sultan_host.bench.mash import state
from sultan_host.cli import main as cli_main
from sultan_host.cli import scan
from sultan_host.desktop import screenshot, sim
from sultan_host.filesave import open_store

CLI = os.path.join(ROOT, "tools", "sultan_cli.py")
SIM = os.path.join(ROOT, "tools", "sim.py")


def cli(capsys, *args):
    """(exit status, stdout, stderr) of the CLI run in this process."""
    out = io.StringIO()
    code = cli_main.main(list(args), out)
    return code, out.getvalue(), capsys.readouterr().err


def refused(capsys, *args, words=""):
    code, out, err = cli(capsys, *args)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err and words in err, err
    return err


def a_save(path, deal=5):
    """A save of ours at ``path``, with one game counted; returns its bytes."""
    st = open_store(str(path))
    g = Game(deal=deal)
    st.save(g)
    g.autoplay()
    st.save(g)
    st.flush()
    return path.read_bytes()


# ------------------------------------------------------------------ 1. help


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["play", "--help"], ["scan", "-h"], ["stats", "--help"],
                                  ["resume", "--help"]])
def test_help_prints_and_exits_0(args):
    r = subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "" and "usage:" in r.stdout


def test_no_arguments_lists_the_commands(capsys):
    err = refused(capsys, words="required")
    assert all(c in err for c in ("play", "scan", "stats", "resume"))


# ------------------------------------------------------------------ 2. play --save FILE


@pytest.mark.parametrize("kind", ["text", "big", "readme", "damaged", "zeros"])
def test_save_never_overwrites_a_file_that_is_not_a_readable_save_of_ours(tmp_path, capsys, kind):
    f = tmp_path / "x.sav"
    if kind == "text":
        f.write_text("my notes\n")
    elif kind == "big":
        with open(f, "wb") as h:
            h.truncate(100 * 1024 * 1024)  # 100 MB (sparse)
    elif kind == "readme":
        f.write_bytes(open(os.path.join(ROOT, "README.md"), "rb").read())
    elif kind == "damaged":  # ours by its magic, but nothing in it reads: its statistics would be lost
        data = bytearray(a_save(f))
        data[30] ^= 0xFF
        f.write_bytes(bytes(data))
    else:
        f.write_bytes(b"\x00" * 2048)
    before = os.stat(f)
    head = open(f, "rb").read(4096)
    refused(capsys, "play", "--deal", "3", "--save", str(f))
    after = os.stat(f)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert open(f, "rb").read(4096) == head


def test_save_writes_a_missing_an_empty_and_our_own_file(tmp_path, capsys):
    missing, empty, ours = tmp_path / "m.sav", tmp_path / "e.sav", tmp_path / "o.sav"
    empty.write_bytes(b"")
    a_save(ours)
    for f in (missing, empty, ours):
        assert cli(capsys, "play", "--deal", "8", "--save", str(f))[0] == 0
        assert open_store(str(f)).load().deal == 8
    st = open_store(str(ours))
    st.load()
    assert st.stats.get(0)["played"] == 1  # the statistics already there were kept


def test_save_writes_through_a_symlink_to_its_target(tmp_path, capsys):
    target = tmp_path / "real.sav"
    a_save(target)
    link = tmp_path / "link.sav"
    link.symlink_to(target)
    assert cli(capsys, "play", "--deal", "11", "--save", str(link))[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert open_store(str(target)).load().deal == 11


def test_save_through_a_symlink_to_a_device_is_refused(tmp_path, capsys):
    link = tmp_path / "null.sav"
    link.symlink_to("/dev/null")
    refused(capsys, "play", "--deal", "1", "--save", str(link), words="not a regular file")
    refused(capsys, "play", "--deal", "1", "--save", "/dev/null", words="not a regular file")
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_save_refuses_fifos_and_directories_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.sav"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        t0 = time.time()
        r = subprocess.run([sys.executable, CLI, "play", "--deal", "1", "--save", str(path)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and time.time() - t0 < 30
        r = subprocess.run([sys.executable, CLI, "resume", str(path)], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_save_keeps_the_files_mode(tmp_path, capsys):
    f = tmp_path / "g.sav"
    a_save(f)
    os.chmod(f, 0o640)
    assert cli(capsys, "play", "--deal", "4", "--save", str(f))[0] == 0
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640
    assert cli(capsys, "resume", str(f), "--auto")[0] == 0
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640


def test_save_leaves_an_unrelated_tmp_file_alone(tmp_path, capsys):
    f = tmp_path / "g.sav"
    other = tmp_path / "g.sav.tmp"
    other.write_text("someone else's")
    assert cli(capsys, "play", "--deal", "4", "--save", str(f))[0] == 0
    assert other.read_text() == "someone else's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sav", "g.sav.tmp"]  # no temporary left behind


def test_save_makes_no_missing_directory_and_needs_a_name(tmp_path, capsys):
    missing = str(tmp_path / "no" / "g.sav")
    refused(capsys, "play", "--deal", "4", "--save", missing, words="no such directory")
    assert not (tmp_path / "no").exists()
    refused(capsys, "play", "--deal", "4", "--save", "", words="needs a name")


def test_the_simulator_save_is_checked_alike(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    for args, words in ((["--save", str(text)], "not a Sultan save"), (["--save", ""], "needs a name"),
                        (["--save", str(tmp_path)], "directory"),
                        (["--save", str(tmp_path / "no" / "s.bin")], "no such directory"),
                        (["--save", str(tmp_path / "s.bin"), "--no-save"], "--no-save")):
        with pytest.raises(sim.UsageError, match=words):
            sim.parse_args(args)
    assert text.read_text() == "hello"


# ------------------------------------------------------------------ 3. empty arguments


@pytest.mark.parametrize("args, words", [(["play", "--deals", ""], "A-B"),
                                         (["play", "--order", ""], "95 cards"),
                                         (["play", "--deal", ""], "whole number"),
                                         (["stats", "--deals", "1-5", "--jobs", ""], "--jobs"),
                                         (["resume", ""], "no such save file")])
def test_empty_arguments_are_one_line_errors(capsys, args, words):
    refused(capsys, *args, words=words)


# ------------------------------------------------------------------ 4. bad output paths


@pytest.mark.parametrize("out", ["s.xyz", "", "DIR", "/nonexistent/x.png", "DIR/no/x.png"])
def test_screenshot_refuses_bad_output_paths_in_one_line(tmp_path, capsys, out):
    out = out.replace("DIR", str(tmp_path))
    assert screenshot.main(["--deal", "7", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("screenshot: ")
    assert list(tmp_path.iterdir()) == []


def test_screenshot_writes_a_png(tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert screenshot.main(["--deal", "7", "--keys", "RIGHT A", "--out", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_sim_refuses_a_screenshot_path_before_playing():
    for path, words in (("/nonexistent/x.png", "no such directory"), ("x.bmp", ".png"),
                        ("", "needs a file name")):
        with pytest.raises(sim.UsageError, match=words):
            sim.parse_args(["--frames", "3", "--screenshot", path])


def test_sim_with_a_bad_screenshot_path_exits_2_in_one_line():
    r = subprocess.run([sys.executable, SIM, "--frames", "3", "--screenshot", "/nonexistent/x.png"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


# ------------------------------------------------------------------ 5. Ctrl-C in the simulator


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_in_the_simulator_saves_and_quits(tmp_path, sig):
    f = tmp_path / "sim.bin"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, SIM, "--save", str(f), "--keys", "START START START"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        keys = 0
        t0 = time.time()
        while keys < 3 and time.time() - t0 < 60:
            line = p.stdout.readline()
            keys += line.startswith("SULTAN key=")
        assert keys == 3
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0 and "Traceback" not in err and err == ""
    assert open_store(str(f)).load().moves == 3  # the three turns, never written before the signal


# ------------------------------------------------------------------ 6. caps


def test_budget_has_an_upper_bound(capsys):
    huge = "1" + "0" * 20
    refused(capsys, "stats", "--deals", "1-9", "--rules", "classic", "--budget", huge, words="--budget")
    refused(capsys, "stats", "--deals", "1-9", "--budget", str(scan.MAX_BUDGET + 1), words="--budget")


def test_jobs_are_capped_at_the_work_and_the_cores(monkeypatch, capsys):
    import multiprocessing

    started = []
    real = multiprocessing.Pool

    def pool(n, *a, **k):
        started.append(n)
        return real(min(n, 2), *a, **k)

    monkeypatch.setattr(multiprocessing, "Pool", pool)
    code, out, _ = cli(capsys, "scan", "--deals", "1-1500", "--jobs", "1000")
    assert code == 0 and started and started[0] <= min(3, survey.JOBS_PER_CORE * (os.cpu_count() or 1))
    code, _, _ = cli(capsys, "scan", "--deals", "1-40", "--jobs", "1000")  # one chunk: no pool at all
    assert code == 0 and len(started) == 1


# ------------------------------------------------------------------ 7. nonsense


@pytest.mark.parametrize("args, words", [
    (["play", "--deal", "\u0663"], "whole number"),  # Arabic-Indic three
    (["play", "--deal", "\uff13"], "whole number"),  # full-width three
    (["play", "--deal", "1_000"], "whole number"),
    (["play", "--deal", "+7"], "whole number"),
    (["play", "--deal", " 7"], "whole number"),
    (["play", "--deals", "1-1_000"], "whole number"),
    (["play", "--deal", "7", "--deal", "8"], "twice"),
    (["play", "--order", "x", "--order", "y"], "twice"),
    (["stats", "--deals", "1-9", "--deals", "1-9"], "twice"),
    (["stats", "--deals", "1-9", "--jobs", "\u0662"], "--jobs"),
])
def test_nonsense_is_refused(capsys, args, words):
    refused(capsys, *args, words=words)


def test_the_simulator_refuses_nonsense_too():
    for args, words in ((["--frames", "-5"], "--frames"), (["--deal", "\u0663"], "--deal"),
                        (["--deal", "1_000"], "--deal"), (["--deal", "7", "--deal", "8"], "twice"),
                        (["--zoom", "0"], "--zoom")):
        with pytest.raises(sim.UsageError, match=words):
            sim.parse_args(args)
    assert sim.parse_args(["--frames", "0"]).frames == 0


def test_order_takes_10_for_a_ten(capsys):
    g = Game(deal=3)
    names = [cards.name(c) for c in g.divan]
    names += [cards.name(g.stock[i]) for i in range(g.stock_count - 1, -1, -1)]
    tens = [("10" + n[1]) if n[0] == "T" else n for n in names]
    assert tens != names
    a = cli(capsys, "play", "--order", " ".join(names), "--auto", "--json")
    b = cli(capsys, "play", "--order", " ".join(tens), "--auto", "--json")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    refused(capsys, "play", "--order", "10", words="unknown card")
    refused(capsys, "play", "--order", "1H", words="unknown card")


@pytest.mark.parametrize("args", [["play", "--deal", "9" * 5000], ["play", "--deal", "x" * 5000],
                                  ["play", "--order", "Q" * 5000], ["play", "--deals", "1-" + "7" * 5000],
                                  ["stats", "--deals", "1-9", "--rules", "z" * 5000],
                                  ["play", "--deal", "1", "w" * 5000], ["c" * 5000]])
def test_a_5000_character_argument_is_not_echoed_whole(capsys, args):
    err = refused(capsys, *args)
    assert len(err) < 300


# ------------------------------------------------------------------ 8. a damaged newer slot


def test_resume_falls_back_to_the_older_slot_with_the_message(tmp_path, capsys):
    from helpers import spoil_last_move, two_slots

    region, older, _ = two_slots()
    spoil_last_move(region, 1024)
    f = tmp_path / "g.sav"
    f.write_bytes(bytes(region.data))
    code, out, err = cli(capsys, "resume", str(f), "--json")
    assert code == 0 and "damaged" in err and err.count("\n") == 1
    assert f.read_bytes() == bytes(region.data)  # a look, not a write
    st = open_store(str(f))
    assert state(st.load()) == older


# ------------------------------------------------------------------ 9. a half-deleted .venv


@pytest.mark.parametrize("imports", [True, False])
def test_a_venv_that_no_longer_imports_is_reinstalled(tmp_path, imports):
    """The install marker counts only while .venv's Python imports pytest, sultan and sultan_host."""
    for name in ("Makefile", "requirements.txt", "pyproject.toml"):
        (tmp_path / name).write_bytes(open(os.path.join(ROOT, name), "rb").read())
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text("#!/bin/sh\nexit %d\n" % (0 if imports else 1))  # a half-deleted venv fails to import
    python.chmod(0o755)
    ck = subprocess.run("cat requirements.txt pyproject.toml | cksum", shell=True, cwd=tmp_path,
                        capture_output=True, text=True).stdout.split()[0]
    stamp = tmp_path / ".venv" / (".installed-" + ck)
    stamp.write_text("")
    r = subprocess.run(["make", "-n", "lint"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert stamp.exists() == imports
    assert ("pip install" in r.stdout) == (not imports)


# ------------------------------------------------------------------ 10. docs


def test_the_json_key_list_in_the_docs_is_the_snapshots():
    from sultan_host.snapshot import snapshot

    text = open(os.path.join(ROOT, "docs", "cli.md")).read()
    para = text[text.index("`--json` prints"):]
    para = para[:para.index("\n\n")]
    named = [k for k in snapshot(Game(deal=1)) if "`%s`" % k in para]
    assert named == list(snapshot(Game(deal=1)))  # every key, rules included, in order of mention
    assert [para.index("`%s`" % k) for k in named] == sorted(para.index("`%s`" % k) for k in named)


def test_the_docs_example_outputs_are_git_ignored():
    r = subprocess.run(["git", "check-ignore", "out.png", "shot.png"], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.stdout.split() == ["out.png", "shot.png"]


# ------------------------------------------------------------------ 11. nothing lost, nothing hangs


def test_sultan_save_on_a_strangers_file_is_refused_as_save_is(tmp_path, monkeypatch, capsys):
    """$SULTAN_SAVE naming a text file: the simulator exits 2 at once, in one line, the file untouched
    (it used to make the file a save at Esc)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    monkeypatch.setenv("SULTAN_SAVE", str(notes))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with pytest.raises(sim.UsageError, match=r"\$SULTAN_SAVE: .* is not a Sultan save: left alone"):
        sim.parse_args([])
    assert sim.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Sultan save" in err and "--no-save" in err
    assert notes.read_text() == "my notes\n"
    assert sim.parse_args(["--no-save"]).save_path is None  # playing without a save is still there
    ours = tmp_path / "ours.bin"
    a_save(ours)
    monkeypatch.setenv("SULTAN_SAVE", str(ours))
    assert sim.parse_args([]).save_path == str(ours)  # a save of ours, or a missing file, is taken
    monkeypatch.setenv("SULTAN_SAVE", str(tmp_path / "new" / "s.bin"))
    assert sim.parse_args([]).save_path == str(tmp_path / "new" / "s.bin")  # its directory made at the write


def test_the_simulator_says_when_the_newest_save_was_not_used(tmp_path):
    from test_cli_save import two_records

    f = tmp_path / "s.bin"
    f.write_bytes(two_records()[:1100])  # the newest record cut short
    r = subprocess.run([sys.executable, SIM, "--frames", "2", "--save", str(f)], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    assert r.returncode == 0 and r.stderr.count("\n") == 1, r.stderr
    assert "was cut short (1100 of 2048 bytes); resuming the record it kept" in r.stderr


def png(path):
    screenshot.main(["--deal", "2", "--out", str(path)])
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["text", "link-to-text", "link-to-dir", "link-to-device"])
def test_screenshot_replaces_nothing_but_a_png(tmp_path, capsys, kind):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    out = tmp_path / "shot.png"
    if kind == "text":
        out.write_text("not a picture\n")
    else:
        out.symlink_to({"link-to-text": str(notes), "link-to-dir": str(tmp_path),
                        "link-to-device": "/dev/null"}[kind])
    before = out.read_bytes() if kind == "text" else None
    assert screenshot.main(["--deal", "7", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("screenshot: ")
    with pytest.raises(sim.UsageError):
        sim.parse_args(["--frames", "1", "--screenshot", str(out)])
    assert notes.read_text() == "my notes\n"
    if before is not None:
        assert out.read_bytes() == before
    else:
        assert out.is_symlink()


def test_screenshot_writes_a_missing_file_an_empty_one_a_png_and_through_a_link_to_a_png(tmp_path):
    first = png(tmp_path / "a.png")
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.main(["--deal", "7", "--out", str(tmp_path / "a.png")]) == 0  # a PNG is replaced
    assert (tmp_path / "a.png").read_bytes() != first
    (tmp_path / "empty.png").write_bytes(b"")
    assert screenshot.main(["--deal", "7", "--out", str(tmp_path / "empty.png")]) == 0
    link = tmp_path / "link.png"
    link.symlink_to(tmp_path / "a.png")
    assert screenshot.main(["--deal", "9", "--out", str(link)]) == 0
    assert link.is_symlink() and (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"


def test_sim_screenshot_is_checked_again_before_it_is_written(tmp_path):
    """The path is checked at the start and again at the end (a game can last hours): a file that is no
    PNG by then is left alone, exit 2 in one line; the game is saved all the same."""
    out = tmp_path / "out.png"
    f = tmp_path / "s.bin"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, SIM, "--save", str(f), "--keys", "START", "--screenshot", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        while not p.stdout.readline().startswith("SULTAN key="):
            assert p.poll() is None
        out.write_text("written meanwhile\n")
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 2 and err.count("\n") == 1 and "not a PNG" in err, err
    assert out.read_text() == "written meanwhile\n"
    assert open_store(str(f)).load().moves == 1


def unused_display():
    n = 99
    while os.path.exists("/tmp/.X11-unix/X%d" % n):
        n += 1
    return ":%d" % n


def test_a_display_no_server_answers_is_no_display(tmp_path):
    """A stale DISPLAY made SDL fall back to its off-screen driver: the game ran unseen for ever."""
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=unused_display(), XDG_RUNTIME_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, SIM, "--no-save"], capture_output=True, text=True, timeout=120,
                       env=env)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.count("\n") == 1 and r.stdout.startswith("sim: no display here")
    assert "DISPLAY=:" in r.stdout


@pytest.mark.parametrize("deals", ["-5", "5-", "-", "7"])
def test_a_deal_range_without_two_numbers_says_what_a_range_is(capsys, deals):
    err = refused(capsys, "play", "--deals", deals, words="A-B")
    assert "''" not in err and "1..999999999" in err


@pytest.mark.parametrize("command", ["stats", "scan"])
def test_budget_under_the_seed_rules_is_refused(capsys, command):
    refused(capsys, command, "--deals", "1-5", "--budget", "100", words="--rules classic")
    assert cli(capsys, command, "--deals", "1-5", "--budget", "100", "--rules", "classic")[0] == 0


def test_the_simulator_with_its_output_closed_saves_and_quits_without_a_traceback(tmp_path):
    """make sim | head -1: the next line finds the pipe closed; the game is saved as on closing the window."""
    f = tmp_path / "s.bin"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, SIM, "--save", str(f), "--keys", "START START START"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        keys = 0
        while keys < 2:  # two keys said (and saved after): the third's line finds the pipe closed
            line = p.stdout.readline()
            assert line, "the simulator ended early"
            keys += line.startswith(b"SULTAN key=")
        p.stdout.close()
        err = p.stderr.read().decode()
        p.wait(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0 and "Traceback" not in err, err
    assert open_store(str(f)).load().moves >= 2
