"""The players' issue on real CircuitPython (the newest Pico firmware found, in tools/emulate, 160x128):
a held RIGHT repeats as the host says it does, and the menu's Reset statistics erases the game's own
statistics in the NVM, the game in play kept.  Needs the firmware files (see test_firmware_emulator.py)."""

import json

import pytest
from sultan.saves.reader import decode
from sultan.ui.menu import M_RESET, M_STATS, Menu
from test_firmware_emulator import NEWEST, emulate, image
from test_firmware_emulator import pytestmark as _needs_firmware

pytestmark = [_needs_firmware, pytest.mark.slow]
SIZE = "160x128"


def run(tmp_path, tmp_path_factory, words, *extra):
    report = tmp_path / "report.json"
    proc = emulate(image(tmp_path_factory, NEWEST, size=(160, 128), deal=7), "--keys", words,
                   "--window", SIZE, "--no-shots", "--quiet", "--report", str(report), *extra)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with open(report) as f:
        r = json.load(f)
    return r, [ln["text"] for ln in r["lines"] if ln["text"].startswith("SULTAN key=")]


def test_a_held_right_moves_on_and_a_held_a_does_not(tmp_path, tmp_path_factory):
    _r, keys = run(tmp_path, tmp_path_factory, "RIGHT~1200 A~1200")
    rights = [k for k in keys if k.startswith("SULTAN key=RIGHT ")]
    assert len(rights) >= 5, keys  # the press, then one 0.4 s on and every 0.1 s after: 9 on the host
    assert len(keys) == len(rights) + 1 and keys[-1].startswith("SULTAN key=A ")


def records(nvm):
    """The statistics' played counts of the log's records, oldest first, and the newest record."""
    out, at, newest = [], 0, None
    while at < len(nvm) and nvm[at:at + 2] == b"SU":
        rec = decode(memoryview(nvm)[at:])
        assert rec is not None, at
        out.append(sum(r[1] for r in rec.stats.rows))
        newest = rec
        at += int.from_bytes(nvm[at + 8:at + 10], "little")
    return out, newest


def test_reset_statistics_erases_the_games_own_records_only(tmp_path, tmp_path_factory):
    menu = Menu(False)  # the Pico's menu: no Sound and Lights switches
    down = menu.at(M_RESET) - menu.at(M_STATS)
    flash = tmp_path / "flash.bin"
    words = ("START SELECT A WAIT:11000 SELECT DOWN*%d A B SELECT DOWN*%d A A WAIT:500"
             % (menu.at(M_STATS), down))  # a game lost and written; the statistics page; reset
    r, keys = run(tmp_path, tmp_path_factory, words, "--flash-out", str(flash))
    nvm_at, nvm_len = r["flash"]["nvm"]["addr"], r["flash"]["nvm"]["len"]
    nvm = flash.read_bytes()[nvm_at:nvm_at + nvm_len]
    played, newest = records(nvm)
    assert played[-2:] == [1, 0], played  # the lost game counted, then the statistics erased
    assert newest.has_game and newest.deal not in (0, 7)  # the game in play kept (a new random deal)
    fs = r["flash"]["circuitpy"]
    for op in r["flash"]["ops"]:  # every write: the NVM (the log's page programs, no erase) or CIRCUITPY
        inside = nvm_at <= op["addr"] < nvm_at + nvm_len
        assert inside and op["op"] == "program" or fs["addr"] <= op["addr"] < fs["addr"] + fs["len"], op
