"""Button mashing and card accounting, importable on CPython and in the MicroPython VM.

Deterministic (its own generator), no pytest, no slicing tricks MicroPython
lacks, so the very same code runs under both; the tests call ``mash_engine``.
"""

from sultan.rules import cards, engine
from sultan.rules.engine import FOUNDATIONS, OK

LAYOUT_CARDS = 9  # eight foundation bases and the sultan


class Lcg:
    """A tiny deterministic generator (same numbers on every Python)."""

    def __init__(self, seed):
        self.x = seed % 2147483647 or 1

    def below(self, n):
        # Park-Miller in 31 bits; only ints below 2**31 in the product halves (Schrage).
        x = self.x
        x = 16807 * (x % 127773) - 2836 * (x // 127773)
        if x <= 0:
            x += 2147483647
        self.x = x
        return x % n


def log_bytes(g):
    """The move log in effect and redoable; a turn's (meaningless) second byte as 0."""
    out = bytearray(2 * g.log_end)
    for k in range(0, 2 * g.log_end, 2):
        out[k] = g.log[k]
        out[k + 1] = 0 if g.log[k] & 0x0F == engine.A_TURN else g.log[k + 1]
    return bytes(out)


def state(g):
    """Every byte and counter of the game's state (the log included)."""
    return (bytes(g.stock[0:g.stock_count]), bytes(g.talon[0:g.talon_count]), bytes(g.divan),
            bytes(g.top), g.pass_no, g.placed, g.missed, g.moves, g.log_end,
            log_bytes(g), g.rng, g.deal)


def counts_ok(g):
    """95 cards in stock + talon + divan + built on the foundations (+ 9 layout = 104)."""
    n = g.stock_count + g.talon_count + g.placed
    for c in g.divan:
        if c:
            n += 1
    return n == cards.STOCK_SIZE


def pack_ok(g, have):
    """The 104 cards, by identity: each of the 52 cards exactly twice.  ``have`` is scratch (64 bytes)."""
    for i in range(64):
        have[i] = 0
    for f in range(FOUNDATIONS):
        base = cards.LAYOUT[f]
        have[base] += 1
        r = base & 15
        while r != g.top[f]:
            r = r % 13 + 1
            have[(base & 0xF0) | r] += 1
    have[cards.SULTAN] += 1
    for i in range(g.stock_count):
        have[g.stock[i]] += 1
    for i in range(g.talon_count):
        have[g.talon[i]] += 1
    for c in g.divan:
        if c:
            have[c] += 1
    total = 0
    for c in range(64):
        if cards.is_card(c):
            if have[c] != 2:
                return False
            total += 2
        elif have[c]:
            return False
    return total == cards.PACK_SIZE


def mash_engine(g, n, seed, store=None, check_pack_every=50):
    """``n`` random actions on ``g``; asserts the invariants; returns (ok, refused, writes).

    With a ``store`` every accepted action is saved (``store.save``), and every
    500 actions the power is "cut": a fresh Store over the same region must load
    exactly the state last written.
    """
    rnd = Lcg(seed)
    have = bytearray(64)
    ok = refused = 0
    written = None
    if store is not None:
        store.new_game(g)
        store.flush()
        written = state(g)
    for i in range(n):
        before = state(g)
        a = rnd.below(20)
        if a < 4:
            rc = g.turn()
        elif a < 8:
            rc = g.play(rnd.below(9) - 1, rnd.below(10) - 1)  # out-of-range places too
        elif a < 11:
            rc = g.play_auto(rnd.below(9) - 1)
        elif a < 12:
            rc = g.redeal()
        elif a < 15:
            rc = g.undo()
        elif a < 17:
            rc = g.redo()
        elif a < 19:
            rc = OK if g.step() else -1
        elif rnd.below(10) == 0:
            g.new_deal(1 + rnd.below(engine.MAX_DEAL))
            rc = OK
        else:
            g.autoplay(stop_at_pass_end=rnd.below(2) == 0)
            rc = OK
        if rc == OK:
            ok += 1
            if store is not None and store.save(g):
                written = state(g)
        else:
            refused += 1
            assert state(g) == before, "refused action %d changed the state (step %d)" % (a, i)
        written = after_step(g, i, have, check_pack_every, store, written, "step")
    assert pack_ok(g, have)
    return ok, refused, store.writes if store is not None else 0


def after_step(g, i, have, check_pack_every, store, written, what):
    """The checks after every mashed action: cards counted, the pack now and then, a power cut every 500."""
    assert counts_ok(g), "cards lost at %s %d" % (what, i)
    if i % check_pack_every == 0:
        assert pack_ok(g, have), "pack wrong at %s %d" % (what, i)
    if store is not None and i % 500 == 499:
        written = power_cut(store, written)
    return written


def power_cut(store, written):
    """A fresh store over ``store``'s region must load exactly ``written``; returns it."""
    from sultan.saves.store import Store

    again = Store(store.region)
    loaded = again.load()
    assert again.message is None, "a clean power cut reported damage"
    got = state(loaded) if loaded is not None else None
    assert got == written, "power cut: loaded %r, wrote %r" % (got, written)
    return written


def mash_controller(ctrl, n, seed, store=None, check_pack_every=50, pool=None):
    """``n`` random key presses through the controller ``ctrl`` (the engine under it).

    Asserts: the cards stay accounted for; a press the controller refuses
    (its ``event`` is "refuse", whatever the language) leaves the game unchanged;
    every change to the game bumps ``ctrl.changes`` (the app saves on that), so
    with a ``store`` saved as the app does, a power cut every 500 presses loads
    exactly the state last written.  ``pool``: the keys to draw from (default
    all eight alike).  Returns (changes, refusals, writes).
    """
    rnd = Lcg(seed)
    have = bytearray(64)
    g = ctrl.game
    refused = 0
    written = None
    if store is not None:
        store.new_game(g)
        store.flush()
        written = state(g)
    saved = ctrl.changes
    for i in range(n):
        before = state(g)
        k = pool[rnd.below(len(pool))] if pool else rnd.below(8)
        ctrl.press(k)
        after = state(g)
        if ctrl.event == "refuse":  # in any language
            refused += 1
            assert after == before, "refused key %d changed the game (press %d)" % (k, i)
        if after != before:
            assert ctrl.changes != saved, "the game changed unnoticed (press %d)" % i
        if ctrl.changes != saved:
            saved = ctrl.changes
            if store is not None and store.save(g):
                written = state(g)
        written = after_step(g, i, have, check_pack_every, store, written, "press")
    assert pack_ok(g, have)
    return ctrl.changes, refused, store.writes if store is not None else 0
