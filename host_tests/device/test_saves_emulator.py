"""Saves on real CircuitPython: a game survives a power cycle in tools/emulate's flash.

The Wokwi image runs on each CircuitPython found (as test_firmware_emulator.py); the emulator's flash
chip keeps what CircuitPython writes into ``microcontroller.nvm``, and ``RESET`` is a power cycle (RAM
lost, flash kept).  What the board shows after it is compared, pixel for pixel, with the host's
``sultan.app`` started afresh on a copy of the host store's region after the same keys: the same
cards, pass, placed count and statistics come back, and undo reaches back across the reset.  The NVM
itself, read out of the flash image, holds the very record the host's store wrote.
"""

import re

import pytest
from play_keys import Plan
from sultan.saves.store import Slots, Store
from sultan.ui.menu import M_RESTART, M_STATS
from sultan_host.bench.powercut import PicoRegion
from sultan_host.board import compare_png
from test_firmware_emulator import FIRMWARES, emulate, image
from test_firmware_emulator import pytestmark as _needs_firmware

pytestmark = [_needs_firmware, pytest.mark.slow]

SIZE = (160, 128)
NVM_OFFSET = 0xFF000  # CircuitPython's raspberrypi port: the 4 KB sector below CIRCUITPY (0x100000)
NVM_SIZE = 4096
IDLE_WRITE = "WAIT:11000"  # the store writes after 10 s without a key


def names(words):
    """Key names of emulator words ("START*1!" a burst press: START)."""
    return [w.split("*")[0] for w in words]


def host_screens(deal, before, after):
    """The host's screens on a fresh app over the region its store left after ``before`` (key names):
    at READY, then after each key of ``after``; and that region's bytes.  The region is the Pico's
    (4 KB, its erased bytes written without an erase), so the store lays it out as the board does."""
    from sultan_host.desktop.screenshot import render

    size = "%dx%d" % SIZE
    region = PicoRegion(data=b"\xff" * NVM_SIZE)
    render(deal, size, " ".join(before), store=Store(region))  # run() flushes at the end: the idle write
    saved = bytes(region.data)
    pictures = []
    for n in range(len(after) + 1):
        img, _ctrl = render(deal, size, " ".join(after[:n]), store=Store(PicoRegion(data=saved)))
        pictures.append(img)
    return pictures, saved


def device_run(tmp_path, tmp_path_factory, version, deal, before, after):
    """The emulator's screens after RESET: at READY, then after each key of ``after`` (words), played
    after ``before`` (words) and the idle write; and the NVM sector at the end."""
    shots = tmp_path / "shots"
    flash = tmp_path / "flash.bin"
    words = before + [IDLE_WRITE, "RESET"] + after
    proc = emulate(image(tmp_path_factory, version, size=SIZE, deal=deal), "--keys", " ".join(words),
                   "--window", "%dx%d" % SIZE, "--out", str(shots), "--flash-out", str(flash))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    found = compare_png.emulator_shots(str(shots))
    shot_before = sum(1 for w in before if not w.endswith("!"))
    assert len(found) == 1 + shot_before + 1 + len(after)
    nvm = flash.read_bytes()[NVM_OFFSET:NVM_OFFSET + NVM_SIZE]
    return [path for _i, _k, path in found[1 + shot_before:]], nvm, proc.stdout


def differences(tmp_path, device, host, keys):
    out = []
    for n, path in enumerate(device):
        want = tmp_path / ("host-%02d.png" % n)
        host[n].save(want)
        r = compare_png.compare(path, str(want), str(tmp_path / ("diff-%02d.png" % n)))
        if r["differ"] != 0:
            out.append("after RESET%s: %s" % ("".join(" " + k for k in keys[:n]), compare_png.describe(r)))
    return out


def newest_record(region_bytes):
    rec, game, damaged = Slots(PicoRegion(data=region_bytes)).read()
    assert not damaged
    return rec, game


@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_a_game_and_the_statistics_come_back_after_a_power_cycle(tmp_path, tmp_path_factory, version):
    """A game begun and restarted (the game left counts as lost), then played on; the idle write, then
    the power goes.  After the boot: the same cards, pass and placed count (a cursor move shows them),
    undo steps back across the reset, twice, and the Statistics page shows the lost game, as the host's
    do; the NVM holds the host's record: the same deal, pass, placed count, move log and statistics."""
    before = ["START", "START"] + Plan(7).choose(M_RESTART).words
    before += "RIGHT A START START DOWN RIGHT A A START".split()
    after = ["LEFT", "B", "B"] + Plan(7).choose(M_STATS).words
    host, saved = host_screens(7, before, after)
    device, nvm, out = device_run(tmp_path, tmp_path_factory, version, 7, before, after)
    readies = re.findall(r"SULTAN READY .* save=(\d+)", out)  # a title escape may lead the line
    assert len(readies) == 2, out[-2000:]
    assert readies[0] == "0" and int(readies[1]) == newest_record(saved)[0].seq  # none, then the host's
    differ = differences(tmp_path, device, host, after)
    assert not differ, "\n".join(differ)
    rec_d, game_d = newest_record(nvm)
    rec_h, game_h = newest_record(saved)
    assert game_d is not None and game_h is not None and game_h.moves > 0
    for field in ("deal", "pass_no", "placed", "moves", "log_end"):
        assert getattr(game_d, field) == getattr(game_h, field), field
    assert bytes(game_d.log[:2 * game_d.log_end]) == bytes(game_h.log[:2 * game_h.log_end])
    figures = rec_d.stats.get(game_d.rules)
    assert figures == rec_h.stats.get(game_d.rules)
    assert (figures["played"], figures["lost"]) == (1, 1)


CI_CUTS = ("first write", "checkpoint", "pass end", "settings", "checkpoint")  # + "decided": its own test


def same_as_host(tmp_path):
    from PIL import Image

    def same(path, img):
        want = tmp_path / "host.png"
        img.save(want)
        r = compare_png.compare(path, str(want))
        Image.open(path).close()
        return r["differ"] == 0

    return same


def cut_run(tmp_path, tmp_path_factory, version, kinds, seed):
    """The trials of ``kinds`` on the board (deal 7, 160x128), judged against the host."""
    import json

    from sultan_host.bench import powercut

    trials = powercut.plan(kinds, seed)
    shots = tmp_path / "shots"
    report = tmp_path / "report.json"
    proc = emulate(image(tmp_path_factory, version, size=SIZE, deal=powercut.DEAL),
                   "--keys", powercut.words(trials), "--seed", str(seed), "--window", "%dx%d" % SIZE,
                   "--out", str(shots), "--quiet", "--report", str(report))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    paths = [p for _i, _k, p in compare_png.emulator_shots(str(shots))]
    powercut.verdicts(trials, paths, json.loads(report.read_text()), "%dx%d" % SIZE, same_as_host(tmp_path))
    return trials


def describe(trials):
    return "\n".join("%s, cut %.3f ms after the write began, during %s (whole sector: %s): %s"
                     % (t.kind, t.offset_ms, (t.cut or {}).get("during"), (t.cut or {}).get("whole_sector"),
                        t.outcome) for t in trials)


@pytest.mark.parametrize("version", list(FIRMWARES) or ["none"])
def test_power_cuts_leave_the_last_save_or_the_one_before(tmp_path, tmp_path_factory, version):
    """Cuts aimed inside each kind of write (the first, a checkpoint, a pass's end, a settings change):
    every boot shows the last write's state or the one before, or (only for a cut inside a whole-sector
    erase or program) a fresh game; never a crash (the emulator fails a run on a traceback) and never
    anything else."""
    from sultan_host.bench import powercut

    trials = cut_run(tmp_path, tmp_path_factory, version, CI_CUTS, seed=1 + list(FIRMWARES).index(version))
    bad = [t for t in trials if not powercut.allowed(t)]
    assert not bad, describe(trials)
