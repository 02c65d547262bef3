"""A solver for classic-rules Sultan deals (host only): won / lost / unknown.

Depth-first search over the player's real decisions, with memoisation of the
states already explored and a node budget.  ``solve(deal)`` returns a
``Result`` (status, nodes, best cards placed, and for a win the decisions that
``replay`` turns into engine actions).

The model
---------
Under classic rules the stock and the talon together form one sequence whose
order never changes: a turn moves the boundary ("cursor") one card on, a play
or a park takes the talon's top card (the last one before the cursor) out of
it, and a redeal (turning the talon over, unshuffled) moves the cursor back to
the start.  So a state is: which of the 89 sequence cards are still in it (a
bit mask), the cursor, the pass, the divan as a multiset (its slots are
interchangeable) and the foundation heights.  The two foundations of a suit
are kept as a sorted pair of heights (the king foundations count the king as
height 0, the A-heart one starts at 1): two foundations of a suit build the
same cards to the same queen, so only the pair matters.

What is decided without search, and why it is safe
--------------------------------------------------
* **Which of two same-suit foundations** never matters: a card fits a
  foundation whose top is one rank below it.  If only one of the pair is
  there, there is no choice; if both are, they are at the same height and
  interchangeable (after one takes the card the pair is the same either way).
* **Playing a divan card is always safe.**  Let state B be state A with a
  playable divan card X (rank r) played.  Any line from A can be followed from
  B: every move of A is repeated, except that when A plays X, B does nothing
  (the states are then equal), and when A plays the other copy X' onto the
  only foundation at r-1 (B no longer has one), B instead parks X' into X's
  old slot if X' is the talon top (that slot is free in B: in A it is occupied
  by X) or leaves X' where it is if X' is in the divan; either way the two
  states are then equal up to which copy sits where.  Parks of A are possible
  in B (B has every empty slot A has), and plays of other cards fit in B
  because B's foundations are A's with one r-1 raised to r.
* **Playing the talon's top card Y (rank r) is safe when the other foundation
  of its suit is not below r-1** (both foundations want Y, or the other copy
  of Y is already placed; the single A-heart is such a card too).  The same
  argument, with Y removed from the sequence: a turn of Y in A is nothing in
  B, a park of Y in A leaves B with an extra empty slot (the divan case
  above), and the only rank-r card A can play onto the foundation B lacks is
  Y itself.
* It is **not** safe otherwise, and the search branches there: with spades at
  heights 2 and 0, the talon's top a 3S, the stock going 2S, 3S, AS, and the
  divan full, playing the 3S now buries the 2S under the other 3S for good on
  the last pass, while turning on first wins (3S onto the 2, AS, 2S, 3S).
  Declining such a play means turning or redealing: parking Y instead would
  only make it a divan card that fits, which is then played anyway.

Branches, tried in this order (the hint policy's preferences first): play the
unsafe talon top; park the talon top in an empty slot when it is at most
``PARK_DISTANCE`` (2) ranks from fitting; turn; park any other talon top; redeal
(only with a talon: an empty one gains nothing).  A state explored without a
win is remembered and never searched again (every move makes progress, so the
graph has no cycles); ``lost`` is a proof, ``unknown`` means the node budget ran
out.
"""

import sys

from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, TALON, Game

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"

PARK_DISTANCE = 2  # move ordering: try parking talon cards this close to fitting first
DEFAULT_BUDGET = 50000  # nodes (states expanded) per deal
PASS_BUDGET = (0, 1000, 100)  # nodes for the search after a redeal into pass 2, 3 (0: no own limit)
# ``solve`` tries these shares in turn while the deal's budget lasts; the last
# one cuts nothing, so only it can prove a loss.
SCHEDULE = (PASS_BUDGET, (0, 10000, 1000), (0, 0, 0))
PASSES = 3
SEQ = 89  # 95 stock cards minus the six first dealt to the divan
QUEEN = 12
HEARTS = 1

# Decisions recorded for a won line (see ``replay``).
D_PLAY = "play"  # the talon top, onto a foundation (an unsafe play the search chose)
D_PARK = "park"  # the talon top into an empty divan slot
D_TURN = "turn"
D_REDEAL = "redeal"

_WON_HEIGHTS = 0
for _s in range(4):
    _WON_HEIGHTS |= (QUEEN | QUEEN << 4) << (8 * _s)
START_HEIGHTS = 1 << (8 * HEARTS + 4)  # hearts: the king foundation at 0, the ace one at 1


class Result:
    """The answer for one deal."""

    def __init__(self, status, nodes, best, line):
        self.status = status  # WON / LOST / UNKNOWN
        self.nodes = nodes  # states expanded
        self.best = best  # most cards placed on any line searched (95 when won)
        self.line = line  # the decisions of a won line, else None

    def __repr__(self):
        return "Result(%s, nodes=%d, best=%d)" % (self.status, self.nodes, self.best)


class _Cut(Exception):
    """The node limit of the current subtree (or of the whole search) is spent."""


def deal_cards(deal):
    """(divan, sequence) of classic deal ``deal``: six cards, then 89 in turn order."""
    g = Game(deal=deal, rules=RULES_CLASSIC)
    n = g.stock_count
    return bytes(g.divan), bytes(g.stock[n - 1 - i] for i in range(n))


def _fits(h, c):
    """0 if card ``c`` fits neither foundation of its suit, else the shift to raise."""
    sh = 8 * (c >> 4)
    want = (c & 15) - 1
    if (h >> (sh + 4)) & 15 == want:  # the higher one first: the pair stays sorted
        return sh + 4 + 1
    if (h >> sh) & 15 == want:
        return sh + 1
    return 0


def _safe_talon(h, c):
    """True when playing talon card ``c`` (which fits) cannot spoil anything."""
    sh = 8 * (c >> 4)
    return (h >> sh) & 15 >= (c & 15) - 1


class Solver:
    """Solves one deal (or a hand-made position, see ``solve_cards``)."""

    def __init__(self, divan, seq, budget=DEFAULT_BUDGET, park_distance=PARK_DISTANCE,
                 pass_budget=PASS_BUDGET, heights=None, first_pass=1):
        self.seq = bytes(seq)
        self.divan = tuple(sorted(c for c in divan if c))
        self.budget = budget
        self.limit = budget
        self.pass_budget = pass_budget
        self.cut = False
        # foundation heights to start from (tests: positions with most cards placed already)
        self.heights = START_HEIGHTS if heights is None else heights
        self.first_pass = first_pass
        self.park_distance = park_distance
        self.nodes = 0
        self.best = 0
        self.seen = set()
        self.line = []

    # The closure: every divan card that fits, and the talon top while it fits
    # safely, are played.  Returns the new (mask, cur, divan, heights, placed).
    def _close(self, mask, cur, div, h, placed):
        seq = self.seq
        while True:
            for c in div:
                sh = _fits(h, c)
                if sh:
                    h += 1 << (sh - 1)
                    placed += 1
                    i = div.index(c)
                    div = div[:i] + div[i + 1:]
                    break
            else:
                low = mask & ((1 << cur) - 1)
                if not low:
                    return mask, 0, div, h, placed
                top = low.bit_length() - 1
                c = seq[top]
                sh = _fits(h, c)
                if not sh or not _safe_talon(h, c):
                    return mask, top + 1, div, h, placed
                h += 1 << (sh - 1)
                placed += 1
                mask ^= 1 << top
                cur = top

    def _distance(self, h, c):
        sh = 8 * (c >> 4)
        r = c & 15
        best = 99
        for a in ((h >> sh) & 15, (h >> (sh + 4)) & 15):
            if r > a and r - 1 - a < best:
                best = r - 1 - a
        return best

    def _search(self, mask, cur, pas, div, h, placed):
        line = self.line
        seq = self.seq
        forced = 0
        while True:
            mask, cur, div, h, placed = self._close(mask, cur, div, h, placed)
            if placed > self.best:
                self.best = placed
                if h == _WON_HEIGHTS:
                    return True
            if len(div) < 6 or (cur and _fits(h, seq[cur - 1])):
                break
            # A full divan and a talon top that does not fit: the only move is
            # to turn (or to redeal): no node, no branch.
            rest = mask >> cur
            if rest:
                cur += (rest & -rest).bit_length()
                line.append(D_TURN)
            elif pas < PASSES and cur:
                line.append(D_REDEAL)
                if self._new_pass(mask, pas + 1, div, h, placed):
                    return True
                del line[-forced - 1:]
                return False
            else:
                break
            forced += 1
        if self._branch(mask, cur, pas, div, h, placed):
            return True
        if forced:
            del line[-forced:]
        return False

    def _branch(self, mask, cur, pas, div, h, placed):
        key = (mask, cur, pas, div)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Cut()
        line = self.line
        seq = self.seq
        top = cur - 1  # the talon top's index (cur is normalised), -1 if none
        c = seq[top] if top >= 0 else 0
        if c:
            sh = _fits(h, c)
            if sh:  # an unsafe play: try it first, then decline it
                line.append(D_PLAY)
                if self._search(mask ^ (1 << top), top, pas, div, h + (1 << (sh - 1)), placed + 1):
                    return True
                line.pop()
        park = bool(c) and not _fits(h, c) and len(div) < 6
        if park and self._distance(h, c) <= self.park_distance:
            if self._park(mask, top, pas, div, h, placed, c):
                return True
            park = False
        rest = mask >> cur
        if rest:
            nxt = cur + ((rest & -rest).bit_length() - 1)
            line.append(D_TURN)
            if self._search(mask, nxt + 1, pas, div, h, placed):
                return True
            line.pop()
        if park and self._park(mask, top, pas, div, h, placed, c):
            return True
        if not rest and pas < PASSES and c:
            line.append(D_REDEAL)
            if self._new_pass(mask, pas + 1, div, h, placed):
                return True
            line.pop()
        return False

    def _new_pass(self, mask, pas, div, h, placed):
        # Each pass after a redeal gets its own share of nodes: past it, the
        # search gives up on that redeal and tries other choices in the pass
        # before (and the answer can no longer be "lost").
        old = self.limit
        share = self.pass_budget[pas - 1] if pas <= len(self.pass_budget) else 0
        if share:
            self.limit = min(old, self.nodes + share)
        n = len(self.line)
        try:
            return self._search(mask, 0, pas, div, h, placed)
        except _Cut:
            if self.nodes > old:
                raise
            self.cut = True
            del self.line[n:]
            return False
        finally:
            self.limit = old

    def _park(self, mask, top, pas, div, h, placed, c):
        self.line.append(D_PARK)
        if self._search(mask ^ (1 << top), top, pas, tuple(sorted(div + (c,))), h, placed):
            return True
        self.line.pop()
        return False

    def run(self):
        """Search; returns a ``Result``."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4000))
        try:
            won = self._search((1 << len(self.seq)) - 1, 0, self.first_pass, self.divan, self.heights, 0)
            status = WON if won else UNKNOWN if self.cut else LOST
        except _Cut:
            status = UNKNOWN
            won = False
        finally:
            sys.setrecursionlimit(limit)
        return Result(status, self.nodes, self.best, list(self.line) if won else None)


def solve(deal, budget=DEFAULT_BUDGET):
    """Solve numbered classic deal ``deal``; returns a ``Result``."""
    divan, seq = deal_cards(deal)
    return solve_cards(divan, seq, budget)


def solve_cards(divan, seq, budget=DEFAULT_BUDGET, schedule=SCHEDULE, heights=None, first_pass=1):
    """Solve a classic position given as its divan, then the stock in turn order.

    ``heights`` and ``first_pass`` start from a position other than a deal's
    (foundations partly built, fewer redeals left): the tests use them.

    Searches with each per-pass share of ``schedule`` in turn (small shares find
    most wins fast; the last, unlimited, can prove a loss) until one answers
    won or lost or the ``budget`` is spent; returns a ``Result``.
    """
    nodes = best = 0
    res = None
    for pass_budget in schedule:
        if nodes >= budget:
            break
        res = Solver(divan, seq, budget - nodes, pass_budget=pass_budget, heights=heights,
                     first_pass=first_pass).run()
        nodes += res.nodes
        best = max(best, res.best)
        if res.status != UNKNOWN:
            break
    return Result(res.status, nodes, best, res.line)


def _engine_close(g):
    """The solver's closure, done on an engine ``Game`` with its own actions."""
    while True:
        for i in range(6):
            c = g.divan[i]
            if c and g.where[c]:
                assert g.play_auto(i) == engine.OK
                break
        else:
            if not g.talon_count:
                return
            c = g.talon[g.talon_count - 1]
            if not g.where[c] or not _safe_talon(_heights(g), c):
                return
            assert g.play_auto(TALON) == engine.OK


def _heights(g):
    """The solver's foundation heights for engine game ``g``."""
    h = 0
    for s in range(4):
        pair = []
        for f in range(8):
            if engine.F_SUIT[f] == s:
                pair.append(g.top[f] % 13)
        pair.sort()
        h |= (pair[0] | pair[1] << 4) << (8 * s)
    return h


def replay(game, line):
    """Play a won ``line`` on ``game`` (an engine Game at the deal's start) with engine actions.

    Returns the game's status afterwards (``engine.WON`` if solver and engine agree).
    """
    _engine_close(game)
    for d in line:
        if d == D_PLAY:
            r = game.play_auto(TALON)
        elif d == D_PARK:
            r = game.park(game.free_slot())
        elif d == D_TURN:
            r = game.turn()
        else:
            r = game.redeal()
        if r != engine.OK:
            raise AssertionError("the engine refused %s (reason %d) at move %d" % (d, r, game.moves))
        _engine_close(game)
    return game.status()


if __name__ == "__main__":
    import time

    lo, hi = (int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "1-50").split("-"))
    budget = int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_BUDGET
    t0 = time.time()
    tally = {WON: 0, LOST: 0, UNKNOWN: 0}
    nodes = 0
    for n in range(lo, hi + 1):
        t = time.time()
        res = solve(n, budget)
        tally[res.status] += 1
        nodes += res.nodes
        print(n, res.status, res.nodes, res.best, "%.3fs" % (time.time() - t))
    dt = time.time() - t0
    print(tally, "%.1f s, %d nodes, %.0f nodes/s" % (dt, nodes, nodes / dt))
