"""The generator: same numbers everywhere, small ints only, documented test vectors."""

import os
import re

from helpers import FULL_PACK, all_cards
from hypothesis import given
from hypothesis import strategies as st
from runners import ROOT
from sultan.rules import cards, rng
from sultan.rules.engine import Game
from sultan_host.snapshot import snapshot


def readme_vectors():
    """The 'deal N: first cards' lines of docs/engine.md's generator section."""
    text = open(os.path.join(ROOT, "docs", "engine.md"), encoding="utf-8").read()
    found = re.findall(r"^\| (\d) \| `([^`]+)` \|", text, re.M)
    return {int(n): words.split() for n, words in found}


def test_readme_test_vectors_match_the_engine():
    vectors = readme_vectors()
    assert set(vectors) == {1, 2, 3}
    for n, words in vectors.items():
        snap = snapshot(Game(deal=n))
        assert (snap["divan"] + snap["stock"])[: len(words)] == words


@given(st.integers(1, rng.M - 1), st.integers(2, 101))
def test_small_int_and_bigint_paths_agree(state, count):
    src = bytes(range(1, count + 1))
    a, b = bytearray(count), bytearray(count)
    assert rng._shuffle_small(a, src, count, state) == rng._shuffle_bigint(b, src, count, state)
    assert a == b
    assert sorted(a) == list(src)


@given(st.integers(1, rng.M - 1))
def test_every_intermediate_stays_below_2_to_the_30(x):
    q, r = rng.M // rng.A, rng.M % rng.A
    for _ in range(50):
        parts = (x % q, rng.A * (x % q), x // q, r * (x // q))
        assert all(0 <= p < 2**30 for p in parts)
        x = rng.step(x)
        assert 0 < x < rng.M


def test_step_is_the_lehmer_recurrence():
    x = 12345
    for _ in range(1000):
        assert rng.step(x) == x * rng.A % rng.M
        x = rng.step(x)


def test_deals_are_distinct_permutations():
    seen = set()
    for n in list(range(1, 300)) + [999999999]:
        g = Game(deal=n)
        assert all_cards(g) == FULL_PACK
        key = bytes(g.stock[: g.stock_count]) + bytes(g.divan)
        assert key not in seen
        seen.add(key)


def test_card_positions_are_roughly_uniform():
    # over 4000 deals, the top card of the stock is an ace about 7/95 of the time
    aces = sum(1 for n in range(1, 4001) if Game(deal=n).divan[0] & 15 == cards.ACE)
    assert 4000 * 7 / 95 * 0.8 < aces < 4000 * 7 / 95 * 1.2
