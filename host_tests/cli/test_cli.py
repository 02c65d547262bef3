"""The headless CLI: JSON shape, deal ranges, --order, and one-line errors with exit status 2."""

import json
import os
import subprocess
import sys

import pytest
from runners import ROOT
from sultan_host.snapshot import snapshot

CLI = os.path.join(ROOT, "tools", "sultan_cli.py")


def cli(*args):
    return subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, timeout=120)


def test_play_json_has_the_documented_fields():
    r = cli("play", "--deal", "1", "--json")
    assert r.returncode == 0
    d = json.loads(r.stdout)
    assert d["status"] == "playing" and d["pass"] == 1
    assert d["foundations"] == ["KD", "AH", "KD", "KC", "KC", "KS", "KH", "KS"]
    assert len(d["divan"]) == 6 and len(d["stock"]) == 89 and d["talon"] == []
    assert (d["placed"], d["missed"], d["moves"]) == (0, 0, 0)


def test_auto_plays_to_the_end_and_matches_the_engine():
    from sultan.rules.engine import Game

    d = json.loads(cli("play", "--deal", "12", "--auto", "--json").stdout)
    g = Game(deal=12)
    g.autoplay()
    assert d == snapshot(g)
    assert d["status"] in ("won", "lost") and d["missed"] == 0


def test_stop_at_pass_end_stops_before_redeal():
    d = json.loads(cli("play", "--deal", "12", "--auto", "--stop-at-pass-end", "--json").stdout)
    assert d["pass"] == 1 and d["stock"] == []


def test_deals_prints_one_json_object_per_line():
    lines = cli("play", "--deals", "5-9", "--auto", "--json").stdout.splitlines()
    assert [json.loads(x)["deal"] for x in lines] == [5, 6, 7, 8, 9]


def test_order_reproduces_a_deal_first_pass():
    d = json.loads(cli("play", "--deal", "3", "--json").stdout)
    order = " ".join(d["divan"] + d["stock"])
    a = json.loads(cli("play", "--order", order, "--auto", "--stop-at-pass-end", "--json").stdout)
    b = json.loads(cli("play", "--deal", "3", "--auto", "--stop-at-pass-end", "--json").stdout)
    a.pop("deal")
    b.pop("deal")
    assert a == b


@pytest.mark.parametrize("args, words", [
    (["play", "--deal", "0"], "deal must be"),
    (["play", "--deal", "x"], "whole number"),
    (["play", "--deals", "9-2"], "empty"),
    (["play", "--deals", "7"], "A-B"),
    (["play", "--order", "TH 2C"], "need 95 cards"),
    (["play", "--order", "ZZ"], "unknown card"),
    (["play"], "required"),
    (["play", "--deal", "1", "--stop-at-pass-end"], "needs --auto"),
    (["bogus"], "invalid choice"),
    ([], "required"),
])
def test_bad_arguments_exit_2_with_one_line(args, words):
    r = cli(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr


def test_wrong_multiset_order_is_refused():
    d = json.loads(cli("play", "--deal", "3", "--json").stdout)
    cards = d["divan"] + d["stock"]
    cards[cards.index("5S")] = "AH"  # a third A♥ (one is in the layout)
    r = cli("play", "--order", " ".join(cards))
    assert r.returncode == 2 and "too many" in r.stderr


def test_the_tools_shim_runs_from_a_python_without_the_package():
    """`python3 tools/sultan_cli.py` as the docs show it: a Python without sultan_host starts .venv's."""
    base = os.path.join(sys.base_prefix, "bin", "python3")
    assert os.path.exists(base) and sys.prefix != sys.base_prefix  # the tests run in .venv
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SULTAN_SHIM", "VIRTUAL_ENV")}
    p = subprocess.run([base, CLI, "play", "--deal", "7", "--json"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == json.loads(cli("play", "--deal", "7", "--json").stdout)


def test_the_hosts_game_is_the_rules_game_with_its_snapshot():
    # sultan_host.game is the engine's documented way in on the host (the device package imports no host code)
    from sultan.rules import engine
    from sultan_host import game

    g = game.Game(deal=7)
    g.autoplay()
    ref = engine.Game(deal=7)
    ref.autoplay()
    assert isinstance(g, engine.Game) and game.TALON == engine.TALON and game.OK == engine.OK
    assert g.snapshot() == snapshot(ref) and g.snapshot()["placed"] == ref.placed
