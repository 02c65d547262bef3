"""The classic solver's shortcuts checked against a search that takes none of them.

The solver never branches on which of two same-suit foundations takes a card,
always plays a divan card that fits, and plays a fitting talon top at once
unless the other foundation of its suit lags behind (tools/classic_solver.py
argues why this loses no win).  Here both searches solve small positions — most
cards already on the foundations, the highest of the rest in the divan, the
others shuffled, often only the last pass left — and must agree on won and
lost (where the reference finishes); the reference branches on every action
and on every foundation.
"""

import random
import sys

import pytest
from sultan.rules.engine import F_SUIT
from sultan_host.analysis import solver as classic_solver

REF_BUDGET = 20000


def reduced_position(rng, low, high):
    """(heights, divan, sequence): every suit's two foundations between ``low`` and 12, the rest to play."""
    heights = 0
    cards = []
    for s in range(4):
        a, b = sorted((rng.randint(low, high), rng.randint(low, high)))
        heights |= (a | b << 4) << (8 * s)
        for r in range(1, 13):
            cards += [s << 4 | r] * ((r > a) + (r > b))
    rng.shuffle(cards)
    k = min(len(cards), rng.choice((3, 5, 6, 6)))
    return heights, cards[:k], cards[k:]


def reference(heights, divan, seq, first_pass=1, budget=REF_BUDGET):
    """won / lost / None (budget spent): every action a branch, foundations one by one."""
    tops0 = [0] * 8
    for s in range(4):
        fs = [f for f in range(8) if F_SUIT[f] == s]
        tops0[fs[0]] = (heights >> (8 * s)) & 15
        tops0[fs[1]] = (heights >> (8 * s + 4)) & 15
    total = len(divan) + len(seq)
    seen = set()
    count = [0]

    def fits(tops, c):
        return [f for f in range(8) if F_SUIT[f] == c >> 4 and tops[f] == (c & 15) - 1]

    def rec(mask, cur, pas, div, tops, placed):
        if placed == total:
            return True
        cur = (mask & ((1 << cur) - 1)).bit_length()
        key = (mask, cur, pas, div, tops)
        if key in seen:
            return False
        seen.add(key)
        count[0] += 1
        if count[0] > budget:
            raise TimeoutError
        for i, c in enumerate(div):
            for f in fits(tops, c):
                t = list(tops)
                t[f] += 1
                if rec(mask, cur, pas, div[:i] + div[i + 1:], tuple(t), placed + 1):
                    return True
        if cur:
            top = cur - 1
            c = seq[top]
            for f in fits(tops, c):
                t = list(tops)
                t[f] += 1
                if rec(mask ^ (1 << top), top, pas, div, tuple(t), placed + 1):
                    return True
            if len(div) < 6 and rec(mask ^ (1 << top), top, pas, tuple(sorted(div + (c,))), tops, placed):
                return True
        rest = mask >> cur
        if rest:
            if rec(mask, cur + (rest & -rest).bit_length(), pas, div, tops, placed):
                return True
        elif pas < 3 and cur and rec(mask, 0, pas + 1, div, tops, placed):
            return True
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5000))
    try:
        won = rec((1 << len(seq)) - 1, 0, first_pass, tuple(sorted(divan)), tuple(tops0), 0)
        return "won" if won else "lost"
    except TimeoutError:
        return None
    finally:
        sys.setrecursionlimit(limit)


def blocked_position(rng, low, first_pass):
    """A harder position: the divan holds the highest cards, the rest is shuffled, few passes left."""
    heights, divan, seq = reduced_position(rng, low, 12)
    cards = divan + seq
    cards.sort(key=lambda c: -(c & 15) + rng.random() * 3)
    divan, seq = cards[:6], cards[6:]
    rng.shuffle(seq)
    return heights, divan, seq


@pytest.mark.parametrize("low, first_pass, seed, lost",
                         [(7, 1, 1, 0), (6, 2, 2, 0), (5, 3, 14, 1), (5, 3, 16, 2)])
def test_solver_agrees_with_the_unpruned_search(low, first_pass, seed, lost):
    rng = random.Random(seed)
    tally = {"won": 0, "lost": 0}
    for _ in range(30):
        heights, divan, seq = blocked_position(rng, low, first_pass)
        want = reference(heights, divan, seq, first_pass)
        if want is None:
            continue
        got = classic_solver.solve_cards(bytes(divan), bytes(seq), budget=100000, heights=heights,
                                         first_pass=first_pass)
        assert got.status == want, (heights, divan, seq, first_pass)
        tally[want] += 1
    assert tally["won"] >= 10 and tally["lost"] >= lost, tally
