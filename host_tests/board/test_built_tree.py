"""The board build's rewriting, pinned without firmware: the ``--py-only`` CIRCUITPY tree (constants
folded across modules, public consts made private: the same rewriting as the .mpy build, only not
compiled) runs on the MicroPython VM and must do exactly what the source tree does there --
whole games of both rulesets with the same move-log bytes, and the controller's same answer to
every key of a fixed sequence, with the saves it writes; and on CPython (Blinka's displayio) the
screen must show the same pixels after every key.  A folding bug fails here, on any machine.
"""

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import sultan_host.board as bc
from play_keys import script_for
from runners import run_micropython
from sultan.rules import engine, winnable
from sultan.ui import keys
from sultan_host.paths import LIB

pytestmark = pytest.mark.micropython

DEALS = 200  # per ruleset
HEAP = "256K"
TIMEOUT = 180  # seconds: each run takes about 8; a broken build may loop for ever


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The --py-only tree for CircuitPython 10, and the manifests of 8, 9 and 10."""
    root = tmp_path_factory.mktemp("built")
    manifests = {}
    for cp in bc.CP_VERSIONS:
        manifests[cp] = bc.build(cp, str(root / ("cp%d" % cp)), py_only=True, quiet=True)
    return str(root / "cp10"), manifests


def on_both_trees(code, out):
    """``code``'s output on the MicroPython VM from the source tree and from the built one (run
    side by side: one VM process each)."""
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(run_micropython, code, heap=HEAP, path=path, timeout=TIMEOUT)
                for path in (LIB, os.path.join(out, "lib"))]
        return [r.result() for r in runs]


def py_files(manifest):
    return {rel: digest for rel, digest in manifest["files"].items() if rel.endswith(".py")}


def test_one_py_tree_for_every_circuitpython(built):
    # Only the sheets (.dat) differ between majors, so the tree run below stands for all three.
    _out, manifests = built
    assert py_files(manifests[8]) == py_files(manifests[9]) == py_files(manifests[10])


def test_the_tree_run_here_is_rewritten(built):
    # The comparison below means something only if the built tree is not the source.
    out, manifests = built
    private = manifests[10]["private_consts"]
    assert "A_PLAY" in private["sultan.rules"] and "LAST_SEED" in private["sultan.rules.winnable"]
    with open(os.path.join(out, "lib", "sultan", "ui", "actions.py"), encoding="utf-8") as f:
        actions = f.read()
    assert "import LAST_CLASSIC" not in actions and "_LAST_SEED = const(" in actions  # folded in
    with open(os.path.join(out, "lib", "sultan", "rules", "engine.py"), encoding="utf-8") as f:
        engine = f.read()
    assert "    A_PLAY," not in engine and "; _A_PLAY = const(2)" in engine  # folded in, the import gone


# Both trees run the same script; names made private on the board (engine.RULES_CLASSIC ...)
# are not in the built modules' dicts, so the script holds their numbers, taken from CPython.
GAMES = """
from sultan.rules.engine import Game
g = Game(deal=1)
for rules in (%(seed)d, %(classic)d):
    for d in range(1, %(deals)d + 1):
        g.new_deal(d, rules)
        s = g.autoplay()
        print(rules, d, s, g.placed, g.pass_no, bytes(g.log[:2 * g.log_end]).hex())
"""


def test_whole_games_leave_the_same_move_log(built):
    out, _ = built
    code = GAMES % {"seed": engine.RULES_SEED, "classic": engine.RULES_CLASSIC, "deals": DEALS}
    source, board = on_both_trees(code, out)
    rows = [line.split() for line in source.splitlines()]
    assert len(rows) == 2 * DEALS
    # real games of both rulesets, won and lost, not empty logs
    assert {(r[0], r[2]) for r in rows} == {(str(rules), str(s)) for rules in (0, 1) for s in (1, 2)}
    assert min(len(r[5]) for r in rows) > 100
    for a, b in zip(source.splitlines(), board.splitlines(), strict=True):
        assert b == a
    assert board == source


CONTROLLER = """
from sultan.rules.engine import Game, STATUS_NAMES
from sultan.saves.nvm import NvmRegion
from sultan.saves.store import Store
from sultan.ui.controller import Controller
from sultan.ui.keys import NAMES
seed = [%(seed)d]
def rand_deal():  # the menu's "new deal": the same numbers on both trees
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
    return seed[0] %% 999999 + 1
def digest(data, n):
    h = 0
    for i in range(n):
        h = (h * 31 + data[i]) & 0xFFFFFF
    return h
def summary(store, g):
    return (g.deal, g.rules, g.moves, g.log_end, digest(g.log, 2 * g.log_end), store.settings,
            store.game_no, store.recorded, store.message, store.stats.rows)
def read_back(nvm):
    # a power cut now: what a board would load from these bytes
    again = Store(NvmRegion(bytearray(nvm)), 8)
    g = again.load(Game(deal=1))
    return None if g is None else summary(again, g)
def show(c, store):
    g = c.game
    print(" ", g.deal, g.rules, g.moves, g.log_end, digest(g.log, 2 * g.log_end), c.mode, c.cursor,
          c.selected, c.hint, c.event, c.changes, c.settings(), c.rules, c.winnable, c.autoplay, c.lang,
          c.message_cards[0], c.message_cards[1], c.menu.index if c.menu else -1,
          c.editor.number() if c.editor else -1, store.writes, store.game_no, store.recorded)
    print(" ", c.message)
def play(deal, rules, script):
    # as sultan.app.run does, without the screen: each key, its serial line, then the saves
    nvm = bytearray(b"\\xff" * 2048)
    store = Store(NvmRegion(nvm), 8)
    c = Controller(Game(deal=deal, rules=rules), rand_deal=rand_deal, sound=True, stats=store.stats)
    store.save(c.game)
    saved, settings, writes = c.changes, c.settings(), store.writes
    for k in script:
        c.press(k)
        g = c.game
        print("SULTAN key=%%s placed=%%d pass=%%d status=%%s" %% (
            NAMES[k], g.placed, g.pass_no, STATUS_NAMES[g.status()]))
        if c.changes != saved:
            saved = c.changes
            store.save(g)
        if c.settings() != settings:
            settings = c.settings()
            store.set_settings(settings, g)
        show(c, store)
        if store.writes != writes:
            writes = store.writes
            print("SAVED", digest(nvm, len(nvm)), read_back(nvm))
    store.flush()
    print("LOADED", read_back(nvm))
def marks(rules, deals):
    # the winnable mark of each deal (the table's ends are folded into sultan.ui.actions)
    c = Controller(Game(deal=1, rules=rules), rand_deal=rand_deal)
    for d in deals:
        c.new_deal(d, rules)
        print("MARK", rules, d, c.winnable, c.message)
"""


def key_scripts():
    """(deal, rules, keys): a seed deal played to its end by buttons, then random presses (the
    menu with its rulesets, languages, hints, winnable and numbered deals, the pages)."""
    r = random.Random(19)
    wander = [r.randrange(len(keys.NAMES)) for _ in range(2500)]
    return [
        (7, engine.RULES_SEED, script_for(7, 1) + wander[:1200]),
        (5, engine.RULES_CLASSIC, wander[1200:]),
    ]


def probe_deals(rules):
    """Deals of both kinds round the winnable table of ``rules``: its first, middle and last
    entries, the deals beside them, and the deal past its end."""
    t = winnable.open_table(rules)
    try:
        entries = [t.deal(i) for i in (0, 1, t.count // 2, t.count - 2, t.count - 1)]
    finally:
        t.close()
    assert entries[-1] == (winnable.LAST_CLASSIC if rules else winnable.LAST_SEED)
    return sorted({d + k for d in entries for k in (-1, 0, 1) if d + k > 0})


def test_the_controller_answers_every_key_the_same(built):
    out, _ = built
    code = CONTROLLER % {"seed": 1234}
    code += "".join("play(%d, %d, %r)\n" % (d, rules, bytes(script)) for d, rules, script in key_scripts())
    code += "".join("marks(%d, %r)\n" % (rules, probe_deals(rules)) for rules in (0, 1))
    source, board = on_both_trees(code, out)
    lines = source.splitlines()
    serial = [line for line in lines if line.startswith("SULTAN key=")]
    states = [lines[i + 1].split() for i, line in enumerate(lines) if line.startswith("SULTAN key=")]
    assert len(serial) == sum(len(s) for _d, _r, s in key_scripts())
    # the presses went through every mode and both rulesets, ended a game, and saved
    assert {int(s[5]) for s in states} == {0, 1, 2, 3, 4, 5}
    assert {s[1] for s in states} == {"0", "1"}
    assert "status=won" in source or "status=lost" in source
    saved = [line for line in lines if line.startswith(("SAVED", "LOADED"))]
    assert len(saved) > 20 and not [line for line in saved if line.endswith(" None")]  # each save reads back
    marks = [line.split()[1:4] for line in lines if line.startswith("MARK")]
    assert {(rules, mark) for rules, _d, mark in marks} == {(r, m) for r in "01" for m in ("True", "False")}
    for i, (a, b) in enumerate(zip(lines, board.splitlines(), strict=True)):
        assert b == a, "line %d" % i
    assert board == source


# The screen's modules (layout, sprites, text grid, widgets) hold most of the folded names; they
# need displayio, so this part runs on CPython with Blinka, each tree first on sys.path.
SCREEN = """
import builtins
import hashlib
import sys

builtins.const = lambda value: value  # as on the boards: folded definitions come before any import
from sultan import app
from sultan_host.desktop.headless import HeadlessDisplay

assert sys.modules["sultan"].__file__.startswith(sys.argv[1]), sys.modules["sultan"].__file__
keys = bytes.fromhex(sys.argv[2])
for w, h, n in ((160, 128, len(keys)), (320, 240, 60)):
    d = HeadlessDisplay(w, h)
    ctrl, screen = app.start(d, deal=int(sys.argv[3]), rand_deal=lambda: 4242)
    print(w, h, hashlib.sha256(d.pixels().tobytes()).hexdigest())
    for k in keys[:n]:
        ctrl.press(k)
        screen.update(ctrl)
        d.refresh()
        print(k, ctrl.mode, hashlib.sha256(d.pixels().tobytes()).hexdigest())
"""


def screen_hashes(lib, deal, presses):
    env = dict(os.environ, PYTHONPATH=lib, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run([sys.executable, "-c", SCREEN, lib, bytes(presses).hex(), str(deal)], env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()


def test_the_screen_shows_the_same_pixels_after_every_key(built):
    out, _ = built
    deal = probe_deals(engine.RULES_SEED)[1]  # a winnable deal: its mark on the screen
    assert engine.Game(deal=deal).autoplay() == engine.WON
    presses = script_for(deal, 1)[:60] + key_scripts()[1][2][60:300]  # (into the digit editor)
    with ThreadPoolExecutor(2) as pool:  # one CPython process a tree, side by side
        trees = (LIB, os.path.join(out, "lib"))
        source, board = pool.map(lambda lib: screen_hashes(lib, deal, presses), trees)
    assert len(source) == 2 + len(presses) + 60
    assert len(set(source)) > len(source) // 2  # the presses changed the picture, mode after mode
    assert len({line.split()[1] for line in source[1:len(presses) + 1]}) >= 3  # the table, menu, a page
    for i, (a, b) in enumerate(zip(source, board, strict=True)):
        assert b == a, "line %d" % i
