"""Sector erases a game on the Pico, in tools/emulate's flash chip: a key plan, and the host's own count.

Games of deal 7, autoplay on, played by START (each press a hint's move or a turn) to the end,
then the menu's Restart: at autoplay pace (each key as soon as the last is answered) and at a
human's (seeded think times between keys, as ``sultan_host.bench.save``'s model: lognormal, median
1.5 s; a pause of over 10 s lets the store's idle write in).  The board's erases are the flash
report's 4 KB erases inside the NVM; the host plays the same keys through its own Controller and
Store on the Pico's region (``PicoRegion``: erased bytes written without an erase) and counts the
writes that must erase (any byte written that is not 0xFF, as CircuitPython's RP2040 port decides).
The two must agree: the figure is checked, not only taken.
"""

import random

from sultan.rules import engine
from sultan.saves.store import Store
from sultan.ui import menu as Mn

from sultan_host.bench.powercut import DEAL, Menu, PicoRegion

IDLE_MS = 10000  # the store's idle write
LONG = 12000  # a pause the idle write surely falls into (think times between 9 and 12 s become this)


class ErasingRegion(PicoRegion):
    """The Pico's region counting the writes that erase (a byte written over one not erased)."""

    def __init__(self):
        PicoRegion.__init__(self, data=b"\xff" * 4096)
        self.erases = 0
        self.writes = 0

    def write(self, offset, data):
        old = self.data[offset:offset + len(data)]
        self.writes += 1
        self.erases += any(b != 0xFF for b in old)
        PicoRegion.write(self, offset, data)


def think(rnd):
    """A human's pause, ms: lognormal, median 1.5 s; never within a second or two of the idle write."""
    ms = int(1500 * rnd.lognormvariate(0, 0.8))
    return LONG if IDLE_MS - 1000 <= ms < LONG else ms


def plan(games, human, seed=1, region=None, sound=False):
    """(emulator words, host figures): ``games`` games of deal 7, autoplay on, each played to its end by
    START and restarted; ``human``: a seeded pause before each key.  The host figures are what its
    store did on the same keys: {"games", "keys", "writes", "erases", "idle_writes"}; ``region``: the
    store's (default the Pico's, ``ErasingRegion``; it counts ``writes`` and ``erases``); ``sound``: the
    keys for a menu with the Sound and Lights switches (the PyBadge's)."""
    rnd = random.Random(seed)
    menu = Menu(sound)
    ctrl = menu.ctrl
    region = ErasingRegion() if region is None else region
    store = Store(region)
    store.load(ctrl.game)
    state = {"saved": ctrl.changes, "settings": ctrl.settings(), "idle_writes": 0}
    words = []

    def press(name):
        if human:
            pause = think(rnd)
            words.append("WAIT:%d" % pause)
            if pause >= IDLE_MS and store.flush():  # the app's loop: store.idle() while no key comes
                state["idle_writes"] += 1
        menu.press(name)
        words.append(name)
        if ctrl.changes != state["saved"]:
            state["saved"] = ctrl.changes
            store.save(ctrl.game)
        if ctrl.settings() != state["settings"]:
            state["settings"] = ctrl.settings()
            store.set_settings(state["settings"], ctrl.game)

    def choose(item):
        press("SELECT")
        n = len(ctrl.menu.items)
        down = (ctrl.menu.at(item) - ctrl.menu.index) % n
        for name in (["DOWN"] * down if down <= n - down else ["UP"] * (n - down)):
            press(name)
        press("A")

    choose(Mn.M_AUTO)
    for g in range(games):
        if g:
            choose(Mn.M_RESTART)
        n = 0
        while ctrl.game.status() == engine.PLAYING:
            press("START")
            n += 1
            if n > 400:
                raise RuntimeError("deal %d: never decided" % DEAL)
    if store.flush():  # what the board writes in the idle after its last key (the plan waits for it)
        state["idle_writes"] += 1
    words.append("WAIT:%d" % LONG)
    return words, {"games": games, "keys": sum(1 for w in words if not w.startswith("WAIT:")),
                   "writes": region.writes, "erases": region.erases, "idle_writes": state["idle_writes"]}


def board_erases(report):
    """(erases, programs) the board's flash did inside the NVM, from the emulator's report."""
    flash = report["flash"]
    lo, hi = flash["nvm"]["addr"], flash["nvm"]["addr"] + flash["nvm"]["len"]
    ops = [o for o in flash["ops"] if lo <= o["addr"] < hi]
    return (sum(1 for o in ops if o["op"].startswith("erase")), sum(1 for o in ops if o["op"] == "program"))
