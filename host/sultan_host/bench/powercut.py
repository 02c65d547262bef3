"""Power cuts on real CircuitPython: a plan of aimed cuts for tools/emulate, and the host's verdict on each.

A run of the Wokwi image (deal 7) is a list of trials.  Each trial brings the game to a known point, makes
the store write one kind of save, and cuts the power ``CUT@WRITE+ms`` after that write's first erase or
program starts; the board boots again and a check key is pressed.  Kinds: the first write into a fresh
NVM, a mid-game checkpoint (the idle write), a pass's end (a redeal), a lost game's record, a settings
change (Motion switched).  Every trial but the first and the settings change starts with the menu's
Restart, so its keys mean the same whatever the cut before it left.

The verdict: the check key's screenshot is compared with the host's pictures of each allowed outcome,
the host's own ``sultan.app`` started afresh (as the board boots) on the region its store held

* ``last``: after the write that was cut;
* ``before``: after the write before it;
* ``damaged``: no save that reads, shown with the damage message: allowed only for a cut inside a
  whole-sector erase or program;
* ``erased``: no save and no message (every byte 0xFF): a cut after a whole-sector erase and before any
  byte is programmed can't be told from a new board.

The host follows the board: the next trial's outcomes start from the outcome found.
"""

import itertools
import random

from sultan.rules import engine
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import Store
from sultan.ui import keys as K
from sultan.ui import menu as Mn
from sultan.ui.controller import Controller

DEAL = 7
KINDS = ("first write", "checkpoint", "pass end", "settings", "decided")
OUTCOMES = ("last", "before", "damaged", "erased")  # and, rarely on the Pico, "older" (see verdicts)
IDLE = "WAIT:11000"  # the store writes after 10 s without a key
JUNK = bytes(range(256)) * 16  # a region (up to 4 KB) that reads as damage


class Menu:
    """The menu's marker as a fresh board has it after a boot, moved by the keys of the plan;
    ``sound``: the board's menu has the Sound and Lights switches (the PyBadge's)."""

    def __init__(self, sound=False):
        self.ctrl = Controller(engine.Game(deal=DEAL), lambda: 1, sound=sound, settings=0)

    def press(self, *names):
        for name in names:
            self.ctrl.press(K.NAMES.index(name))
        return list(names)

    def choose(self, item):
        """SELECT, the marker to ``item`` the short way, A."""
        c = self.ctrl
        words = self.press("SELECT")
        n = len(c.menu.items)
        down = (c.menu.at(item) - c.menu.index) % n
        words += self.press(*(["DOWN"] * down if down <= n - down else ["UP"] * (n - down)))
        return words + self.press("A")


def starts_until(done, autoplay=False, sound=False):
    """START presses from a fresh deal until ``done(game)``."""
    ctrl = Controller(engine.Game(deal=DEAL), lambda: 1, sound=sound, settings=0)
    if autoplay:
        ctrl.choose(Mn.M_AUTO)
    n = 0
    while not done(ctrl.game):
        ctrl.press(K.NAMES.index("START"))
        n += 1
        if n > 400:
            raise RuntimeError("deal %d: never done" % DEAL)
    return n


class Trial:
    """One aimed cut: ``words`` before it (emulator words), the cut's offset, ``check`` after the boot."""

    def __init__(self, kind, words, offset_ms, check):
        self.kind = kind
        self.words = words
        self.offset_ms = offset_ms
        self.check = check
        self.outcome = None
        self.cut = None

    def keys(self):
        """Key names the host plays for ``words`` ("START*3": three presses)."""
        out = []
        for w in self.words:
            if not w.startswith("WAIT:"):
                name, _x, n = w.partition("*")
                out += [name] * int(n or 1)
        return out


def plan(kinds, seed, short=0.4, long=52.0, sound=False):
    """[Trial] for ``kinds`` in order (the first may be "first write": a fresh NVM), offsets seeded;
    ``sound``: the keys for a board whose menu has the Sound and Lights switches.

    Offsets alternate, the first trial's long: a long one anywhere within ``long`` ms of the write's
    start, a short one within ``short`` ms (inside an append's one page program, 0.4 ms: the record is
    left torn).  After a torn record the store's next write rewrites the whole sector (one erase, 45
    ms, then sixteen page programs: 51.4 ms), so the long cut after a short one lands in that erase
    or its programs; after a whole append it lands past its end."""
    rnd = random.Random(seed)
    trials = []
    menu = Menu(sound)  # the board's marker: a fresh one after every boot
    pass_end = starts_until(lambda g: g.pass_no > 1)
    decided = None
    for i, kind in enumerate(kinds):
        offset = round(rnd.uniform(0.0, short if i % 2 else long), 3)
        if kind == "first write":
            if i:
                raise ValueError("the first write only comes first, on a fresh NVM")
            words = ["START", IDLE]
        elif kind == "checkpoint":
            words = menu.choose(Mn.M_RESTART) + ["START", "START", IDLE]
        elif kind == "pass end":
            # one press at a time, each answered before the next: a burst outruns the cards' slides
            # and overflows keypad's queue
            words = menu.choose(Mn.M_RESTART) + ["START*%d" % (pass_end - 1), "START"]
        elif kind == "settings":
            words = menu.choose(Mn.M_MOTION) + menu.press("B") + [IDLE]
        elif kind == "decided":
            if decided is None:
                decided = starts_until(lambda g: g.status() != engine.PLAYING, autoplay=True, sound=sound)
            words = (menu.choose(Mn.M_RESTART) + menu.choose(Mn.M_AUTO)
                     + ["START*%d" % (decided - 1), "START"])
        else:
            raise ValueError("unknown kind %r" % kind)
        menu = Menu(sound)  # the cut: the board boots afresh
        check = ["LEFT"] if kind != "settings" else menu.press("SELECT", "UP", "B")
        trials.append(Trial(kind, words, offset, check))
    return trials


def words(trials):
    """The emulator's --keys for the whole run."""
    out = []
    for t in trials:
        w = list(t.words)
        if w and w[-1] == IDLE:
            w.pop()  # CUT@WRITE waits for the write itself
        out += w + ["CUT@WRITE+%g" % t.offset_ms] + t.check
    return " ".join(out)


class PicoRegion(MemoryRegion):
    """The Pico's NVM in RAM: 4 KB whose erased bytes are written without an erase, so the host's
    store lays its saves out as the board's does (``sultan.saves.nvm``)."""

    erase_free = True


class BadgeRegion(MemoryRegion):
    """The PyBadge's NVM in RAM: 2 KB of its 8 KB block, which every write erases, so the host's store
    lays its saves out as the board's does (``sultan.saves.nvm``: each record in both slots)."""

    every_write_erases = True


def recording(cls):
    """A ``cls`` region that keeps a copy of itself after every write."""

    class Recording(cls):
        def __init__(self, data):
            cls.__init__(self, data=data)
            self.after = []

        def write(self, offset, data):
            cls.write(self, offset, data)
            self.after.append(bytes(self.data))

    return Recording


RecordingRegion = recording(PicoRegion)


def pictures(region, check, size, cls=PicoRegion, sound=False):
    """What a board booting on ``region`` shows: (the save's sequence number at READY, [the READY
    screen, then the screen after each check key]), and the region after the check keys."""
    from sultan_host.desktop.screenshot import render

    store = Store(cls(data=region))
    store.load(engine.Game(deal=DEAL))  # as the board's start: a damaged save is replaced at once
    out = []
    final = None
    for n in range(len(check) + 1):
        r = cls(data=region)
        img, _ctrl = render(DEAL, size, " ".join(check[:n]), store=Store(r), sound=sound)
        out.append(img)
        final = bytes(r.data)
    return (store.seq, out), final


def candidates(trial, region, size, since_boot=(), cls=PicoRegion, sound=False):
    """({outcome: ((seq, pictures), region after the check)}, [the region after each write]) for
    ``trial`` played on ``region`` after ``since_boot``, the keys the board took since it booted (the
    last trial's check: the menu opens where they left it)."""
    from sultan_host.desktop.screenshot import render

    rec = recording(cls)(region)
    keys = list(since_boot) + trial.keys()
    render(DEAL, size, " ".join(keys), store=Store(rec), sound=sound)  # its flush at the end: the idle write
    if not rec.after:
        raise RuntimeError("%s: the host wrote nothing" % trial.kind)
    regions = {"last": rec.after[-1], "before": rec.after[-2] if len(rec.after) > 1 else region,
               "damaged": JUNK[:len(region)], "erased": b"\xff" * len(region)}
    return {name: pictures(data, trial.check, size, cls, sound) for name, data in regions.items()}, rec.after


def whole_sector(cut, ops, nvm):
    """True if ``cut`` landed inside a write of the NVM that erased its sector (the erase or the
    programs after it), from the emulator report's flash operations."""
    if cut.get("during") is None:
        return False
    lo, hi = nvm["addr"], nvm["addr"] + nvm["len"]
    mine = [o for o in ops if lo <= o["addr"] < hi and o["start_ms"] <= cut["at_ms"]]
    # the operations of the cut write: back from the cut while each began within 5 ms of the last's end
    group = []
    for o in reversed(mine):
        if group and group[-1]["start_ms"] - o["end_ms"] > 5.0:
            break
        group.append(o)
    return any(o["op"].startswith("erase") for o in group)


def region_size():
    """The bytes of the Pico's NVM the store uses: its whole 4 KB sector (``sultan.saves.nvm``)."""
    return 4096


def shots_of(trials, shots):
    """[[the READY shot, then the check shots] per trial] from the run's screenshots in order (00-ready
    first): every key is shot (the plan has no bursts) but the one right before a cut, and every boot
    after a cut at READY."""
    shots = list(shots)[1:]
    out = []
    for t in trials:
        shots = shots[len(t.keys()) - 1:]
        out.append(shots[:1 + len(t.check)])
        shots = shots[1 + len(t.check):]
    return out


def verdicts(trials, shots, report, size, same, cls=PicoRegion, sound=False):
    """Each trial's outcome (set on it, and returned): the first of OUTCOMES whose save number at
    READY is the board's and whose pictures ``same(shot_path, image)`` takes, READY and every check
    key; None for none of them.  ``sound``: the host plays as a board with sound (as ``plan``)."""
    import re

    region = b"\xff" * (region_size() if cls is PicoRegion else len(cls()))  # the bytes the store uses
    history = []  # the region after each host write the board kept, oldest first
    since_boot = []
    flash = report["flash"]
    cuts = [c for c in flash["cuts"] if c.get("kind") == "CUT"]
    boots = [b for b in flash["boots"] if b.get("cause") == "CUT"]
    if not len(cuts) == len(boots) == len(trials):
        raise RuntimeError("%d cuts, %d boots for %d trials" % (len(cuts), len(boots), len(trials)))
    for t, paths, cut, boot in zip(trials, shots_of(trials, shots), cuts, boots, strict=True):
        m = re.search(r" save=(\d+)", boot.get("ready") or "")
        seq = int(m.group(1)) if m else -1
        t.cut = dict(cut, whole_sector=whole_sector(cut, flash["ops"], flash["nvm"]), seq=seq)
        found, writes = candidates(t, region, size, since_boot, cls, sound)
        # an erase cut in its first moments may leave a record from further back whole ("older"): the
        # Pico's log holds several; the PyBadge's two slots hold the newest twice, so never there
        older = (("older", pictures(data, t.check, size, cls, sound))
                 for data in reversed((history + writes[:-2])[-8:]))
        t.outcome = None
        for name, ((want_seq, images), after) in itertools.chain(((n, found[n]) for n in OUTCOMES), older):
            if want_seq == seq and len(paths) == len(images) and all(
                    same(p, img) for p, img in zip(paths, images, strict=True)):
                t.outcome, region = name, after
                break
        if t.outcome is None:
            break  # the host can't follow the board any further
        history = [] if t.outcome in ("damaged", "erased") else history + writes[:len(writes) - (
            t.outcome != "last")]
        since_boot = t.check
    return [t.outcome for t in trials]


def allowed(trial):
    """Whether a trial's outcome is one the saves promise."""
    if trial.outcome in ("last", "before"):
        return True
    return trial.outcome in ("damaged", "erased") and trial.cut["whole_sector"]
