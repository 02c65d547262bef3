"""Stopping a long CLI run: Ctrl-C or SIGTERM during ``stats``, ``scan`` or ``play --deals``
ends it quietly (one line saying how far it got, exit 130, no worker's traceback), and a range is
streamed: memory does not grow with its length."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from runners import ROOT

CLI = os.path.join(ROOT, "tools", "sultan_cli.py")
ALL = "1-999999999"


def start(*args):
    """The CLI in a session of its own (so a Ctrl-C can go to its whole group, as a terminal's does),
    with SIGINT at its default even if this test run ignores it."""
    return subprocess.Popen([sys.executable, CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            bufsize=0, start_new_session=True,  # unbuffered: readline() takes one line only
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def wait_for_workers(p, n=2):
    """Wait until the run's pool has its ``n`` workers (the work is under way), or it ended."""
    while len(children(p.pid)) < n and p.poll() is None:
        time.sleep(0.1)
    assert p.poll() is None


def stop(p, how):
    if how == "ctrl-c":
        os.killpg(p.pid, signal.SIGINT)  # what a terminal sends: the parent and every worker
    else:
        p.send_signal(signal.SIGTERM)  # kill PID: the parent alone
    try:
        out, err = p.communicate(timeout=120)
        return out.decode(), err.decode()
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # whatever is left of its group: a hung parent, orphaned workers
        except ProcessLookupError:
            pass


def assert_stopped_quietly(p, err):
    assert p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err and err.count("\n") == 1, err
    m = re.fullmatch(r"\S+: stopped after ([\d,]+) of 999,999,999 deals\n", err)
    assert m, err


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stats_over_the_whole_range_stays_small_and_stops_quietly(how):
    """``stats --deals 1-999999999`` made every chunk first: 550 MB in the parent, 280 MB a worker."""
    p = start("stats", "--deals", ALL, "--jobs", "2")
    try:
        wait_for_workers(p)
        time.sleep(3)  # a few seconds of work (nothing here is timed: the memory is what is measured)
        pids = [p.pid] + children(p.pid)
        sizes = [rss_kb(pid) for pid in pids]
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    out, err = stop(p, how)
    assert max(sizes) < 150 * 1024, sizes  # about 17 MB the parent, 14 MB a worker (2026-12-01)
    assert out == ""
    assert_stopped_quietly(p, err)
    for pid in pids[1:]:  # the workers were ended with it (gone, or a zombie not yet reaped)
        try:
            with open("/proc/%d/stat" % pid) as f:
                assert f.read().rsplit(")", 1)[1].split()[0] == "Z", pid
        except FileNotFoundError:
            pass


@pytest.mark.parametrize("args", [["scan", "--deals", ALL, "--jobs", "2"],
                                  ["play", "--deals", ALL, "--auto"]])
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_scan_and_play_deals_stop_quietly_with_what_they_printed(args, how):
    p = start(*args)
    try:
        first = p.stdout.readline().decode()  # the first winnable deal, or the first deal played
        assert first.strip()
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    out, err = stop(p, how)
    assert_stopped_quietly(p, err)
    done = int(re.search(r"after ([\d,]+) of", err).group(1).replace(",", ""))
    if args[0] == "scan":  # a deal is printed once its chunk is counted
        assert done >= 1
    else:  # one line a deal, each whole (a stop between a line and its count: one more)
        assert done <= len((first + out).splitlines()) <= done + 1
