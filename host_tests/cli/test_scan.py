"""scan / stats (sultan_host.cli.scan, sultan_host.analysis.survey), the progress bar, the classic solver."""

import io
import json
import os
import subprocess
import sys

import pytest
from helpers import winning_order
from runners import ROOT
from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, Game
from sultan_host.analysis import solver as classic_solver
from sultan_host.analysis import survey
from sultan_host.cli import main as sultan_cli
from sultan_host.progress import Progress

CLI = os.path.join(ROOT, "tools", "sultan_cli.py")


def cli(*args):
    out = io.StringIO()
    code = sultan_cli.main(list(args), out)
    return code, out.getvalue()


def seed_winners(lo, hi):
    g = Game(deal=lo)
    won = []
    for n in range(lo, hi + 1):
        g.new_deal(n)
        if g.autoplay() == engine.WON:
            won.append(n)
    return won


def test_scan_seed_lists_exactly_the_deals_autoplay_wins_using_two_processes():
    r = subprocess.run([sys.executable, CLI, "scan", "--deals", "1-3000", "--jobs", "2"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == ""  # no progress bar when stderr is not a terminal
    assert [int(x) for x in r.stdout.split()] == seed_winners(1, 3000)


def test_scan_classic_lists_solver_wins():
    code, out = cli("scan", "--deals", "1-12", "--rules", "classic", "--jobs", "1")
    assert code == 0
    want = [n for n in range(1, 13) if classic_solver.solve(n).status == classic_solver.WON
            or Game(deal=n, rules=RULES_CLASSIC).autoplay() == engine.WON]
    assert [int(x) for x in out.split()] == want


def test_stats_seed_json_counts_and_interval():
    code, out = cli("stats", "--rules", "seed", "--deals", "1-1000", "--jobs", "1", "--json")
    assert code == 0
    d = json.loads(out)
    (row,) = d["policies"]
    won = seed_winners(1, 1000)
    assert row["policy"] == "canonical" and row["deals"] == 1000 and row["won"] == len(won)
    lo, hi = row["ci95"]
    assert lo <= row["win_rate"] <= hi and 0 < row["mean_placed"] < 95


def test_stats_classic_has_hint_and_solver_rows_and_a_table():
    code, out = cli("stats", "--rules", "classic", "--deals", "1-10", "--jobs", "1", "--json")
    rows = {r["policy"]: r for r in json.loads(out)["policies"]}
    assert code == 0 and set(rows) == {"hint", "solver"}
    assert rows["solver"]["won"] >= rows["hint"]["won"]  # every hint win is a solver win
    assert rows["solver"]["won"] + rows["solver"]["lost"] + rows["solver"]["unknown"] == 10
    code, text = cli("stats", "--rules", "classic", "--deals", "1-3", "--jobs", "1")
    assert code == 0 and "95% CI" in text and "hint" in text and "solver" in text


def test_wilson_interval_known_values():
    lo, hi = survey.wilson(0, 10)
    assert lo == 0 and abs(hi - 0.2775) < 1e-3
    lo, hi = survey.wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3


@pytest.mark.parametrize("args, words", [
    (["scan", "--deals", "5-1"], "empty"),
    (["scan", "--deals", "0-9"], "deal must be"),
    (["scan"], "required"),
    (["stats", "--deals", "1-9", "--jobs", "0"], "--jobs"),
    (["stats", "--deals", "1-9", "--jobs", "two"], "--jobs"),
    (["stats", "--deals", "1-9", "--rules", "spider"], "invalid choice"),
    (["stats", "--deals", "1-9", "--budget", "-5"], "--budget"),
])
def test_bad_arguments_exit_2_with_one_line(args, words):
    r = subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and words in r.stderr


# ------------------------------------------------------------------ solver
def test_solver_wins_replay_on_the_engine_and_cover_the_hint_policy():
    for n in range(1, 21):
        hint_won = Game(deal=n, rules=RULES_CLASSIC).autoplay() == engine.WON
        r = classic_solver.solve(n)
        if hint_won:
            assert r.status == classic_solver.WON, n
        if r.status == classic_solver.WON:
            assert r.best == 95
            assert classic_solver.replay(Game(deal=n, rules=RULES_CLASSIC), r.line) == engine.WON, n
        else:
            assert r.line is None and r.best < 95


def test_solver_on_a_hand_made_order_that_plays_itself():
    order = winning_order()
    r = classic_solver.solve_cards(order[:6], order[6:])
    assert r.status == classic_solver.WON and r.nodes < 200  # about one node a turn


def test_a_tiny_budget_answers_unknown_not_lost():
    for n in range(1, 40):
        r = classic_solver.solve(n, budget=3)
        assert r.status in (classic_solver.WON, classic_solver.UNKNOWN)


def test_talon_plays_are_taken_only_when_safe():
    spades = 0  # suit 0: heights in the low byte, the lower one in the low nibble
    three = 0x03  # 3 of spades
    assert classic_solver._safe_talon(2 | 2 << 4, three)  # both foundations want it
    assert classic_solver._safe_talon(2 | 5 << 4, three)  # the other copy is placed already
    assert not classic_solver._safe_talon(0 | 2 << 4, three)  # the other copy may need this foundation
    assert classic_solver._fits(0 | 2 << 4, three) and not classic_solver._fits(spades, three)


class Tty:
    def __init__(self, tty):
        self.tty = tty
        self.text = ""

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_bar_only_on_a_terminal():
    for tty in (True, False):
        stream = Tty(tty)
        bar = Progress(1000, stream)
        for _ in range(10):
            bar.add(100)
        bar.close()
        drawn = "100%" in stream.text and "1000/1000" in stream.text
        assert drawn == tty and (stream.text == "") == (not tty)
        assert bar.done == bar.total == 1000  # counted with or without the bar (an interrupted run says it)
