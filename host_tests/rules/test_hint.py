"""The hint: legal, right about lost positions, winning when it says it can; its numbers.

The classic hint looks ahead (``sultan.rules.lookahead``): at a real choice it plays each
move's game out with the one-step rule and takes a move whose game is won.  Checked here:
it never suggests a move the engine refuses, under either ruleset; it is 0 exactly when the
game is over; on positions an exhaustive search proves lost it never claims a winning line,
and a winning line it claims is real (the same search agrees, and following the hints wins);
on deals the solver proves winnable, the share it wins is reported (and kept at 90 % or
more).  The win rate over 20,000 deals is ``stats --rules classic`` (docs/statistics.md).
"""

import random

import pytest
from helpers import FULL_PACK, all_cards, fingerprint
from hypothesis import given, settings
from hypothesis import strategies as st
from sultan.rules import engine, lookahead, rollout
from sultan.rules.engine import NO_SAFE_MOVE, RULES_CLASSIC, RULES_SEED, Game
from sultan_host.analysis import solver as classic_solver
from test_solver_proofs import blocked_position, reference

A_KINDS = (engine.A_TURN, engine.A_PLAY, engine.A_REDEAL, engine.A_PARK)


def test_no_safe_move_is_no_action():
    # the sultan.rules package numbers both; test_house.py checks no module keeps a copy of them.
    assert NO_SAFE_MOVE >> 8 not in A_KINDS and NO_SAFE_MOVE & 0xFF == 0


def check_hints(g):
    """The hint and the safe hint are legal (done, then undone), and 0 exactly when the game is over."""
    before = fingerprint(g)
    h = g.hint()
    assert (h == 0) == (g.status() != engine.PLAYING)
    assert fingerprint(g) == before  # asking changes nothing
    for move in (h, g.safe_hint()):
        if move and move != NO_SAFE_MOVE:
            assert move >> 8 in A_KINDS
            assert g.act(move) == engine.OK, (move, g.deal, g.moves)
            assert g.undo() == engine.OK and fingerprint(g)[:8] == before[:8]
    return h


ACTION = st.one_of(
    st.tuples(st.just("turn")), st.tuples(st.just("redeal")), st.tuples(st.just("undo")),
    st.tuples(st.just("step")), st.tuples(st.just("step")), st.tuples(st.just("step")),
    st.tuples(st.just("park"), st.integers(0, 5)), st.tuples(st.just("auto"), st.integers(0, 6)),
)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999999999), st.sampled_from((RULES_SEED, RULES_CLASSIC)),
       st.lists(ACTION, max_size=120))
def test_the_hint_is_always_legal_and_zero_only_when_the_game_is_over(deal, rules, actions):
    g = Game(deal=deal, rules=rules)
    for action in actions:
        check_hints(g)
        name = action[0]
        if name == "park":
            g.park(action[1])
        elif name == "auto":
            g.play_auto(action[1])
        else:
            getattr(g, name)()
        assert all_cards(g) == FULL_PACK


def test_following_the_hints_to_the_end_of_many_classic_deals_is_legal_and_ends_the_game():
    g = Game(deal=1, rules=RULES_CLASSIC)
    for n in range(1, 25):
        g.new_deal(n)
        while check_hints(g):
            g.step()
        assert g.status() in (engine.WON, engine.LOST) and all_cards(g) == FULL_PACK


def test_seed_hint_is_the_canonical_policy_and_autoplay_records_what_steps_would():
    for n in (1, 2, 3, 111, 4242):
        a = Game(deal=n, rules=RULES_SEED)
        b = Game(deal=n, rules=RULES_SEED)
        a.autoplay()
        while b.step():
            pass
        assert fingerprint(a) == fingerprint(b)
        assert a.lookahead is None  # a seed game never loads the search


def test_a_winning_line_found_is_won_when_the_hints_are_followed():
    g = Game(deal=1, rules=RULES_CLASSIC)
    checked = 0
    for n in range(1, 41):
        g.new_deal(n)
        found = False
        while True:
            h = g.safe_hint()
            if h == 0:
                break
            if g.lookahead.verdict == lookahead.WIN:
                found = True
            elif h == NO_SAFE_MOVE and found:
                raise AssertionError("deal %d: a winning line was found, then lost by following it" % n)
            g.step()
        if found:
            assert g.status() == engine.WON, n
            checked += 1
    assert checked >= 35


def test_an_obvious_move_is_safe_and_a_real_choice_only_with_a_won_game():
    """safe_hint gives an obvious move (forced, or a sure play), and at a real choice the move only if
    the lookahead's game after it was won; else NO_SAFE_MOVE, with the hint's guess still there."""
    seen = {"obvious": 0, "won": 0, "none": 0}
    g = Game(deal=1, rules=RULES_CLASSIC)
    for n in range(1, 31):
        g.new_deal(n)
        while True:
            h = g.hint()
            if not h:
                break
            v = g.lookahead.verdict
            s = g.safe_hint()
            if v == lookahead.OBVIOUS:
                assert s == h and (h == g.sure_play() or h >> 8 in (engine.A_TURN, engine.A_REDEAL))
                seen["obvious"] += 1
            elif v == lookahead.WIN:
                assert s == h
                seen["won"] += 1
            else:
                assert s == NO_SAFE_MOVE
                seen["none"] += 1
            g.act(h)
    assert min(seen.values()) > 0, seen


def starred_classic_deals():
    from sultan.rules import winnable

    t = winnable.open_table(RULES_CLASSIC)
    try:
        return [t.deal(i) for i in range(t.count)]
    finally:
        t.close()


def test_every_starred_classic_deal_gets_a_first_hint():
    """A deal the game calls winnable (its table: the star) gets a move at the first Hint, never "no safe
    move found" (the lookahead's 4 games from a fresh deal often find no win, but the first move of
    every one of these deals is obvious: a forced turn or a sure play, which cannot spoil it)."""
    deals = starred_classic_deals()
    assert len(deals) >= 2000
    g = Game(deal=1, rules=RULES_CLASSIC)
    refused = []
    for n in deals:
        g.new_deal(n)
        h = g.safe_hint()
        if h in (0, NO_SAFE_MOVE):
            refused.append(n)
        else:
            assert g.act(h) == engine.OK
    assert refused == []


def position_game(heights, divan, seq, first_pass=1):
    """A classic Game in the solver's terms: foundation heights (two a suit), divan, stock in turn order."""
    g = Game(deal=1, rules=RULES_CLASSIC)
    for s in range(4):
        fs = [f for f in range(8) if engine.F_SUIT[f] == s]
        for f, h in zip(fs, ((heights >> (8 * s)) & 15, (heights >> (8 * s + 4)) & 15), strict=True):
            g._set_top(f, h or 13)
    for i in range(6):
        g.divan[i] = divan[i] if i < len(divan) else 0
    n = len(seq)
    for i in range(n):
        g.stock[n - 1 - i] = seq[i]
    g.stock_count = n
    g.pass_no = first_pass
    g.talon = g.talons[first_pass - 1]
    g.talon_count = 0
    g.placed = 95 - n - len(divan)
    return g


@pytest.mark.parametrize("low, first_pass, seed, lost",
                         [(5, 3, 14, 1), (5, 3, 16, 2), (4, 3, 1, 3), (4, 3, 3, 4), (6, 2, 2, 0)])
def test_on_positions_proven_lost_no_winning_line_and_a_claimed_line_is_real(low, first_pass, seed, lost):
    rng = random.Random(seed)
    tally = {"won": 0, "lost": 0, "claimed": 0}
    for _ in range(30):
        heights, divan, seq = blocked_position(rng, low, first_pass)
        truth = reference(heights, divan, seq, first_pass)
        if truth is None:
            continue
        g = position_game(heights, divan, seq, first_pass)
        h = g.safe_hint()
        if g.lookahead.verdict == lookahead.OBVIOUS:  # safe without a search: look ahead all the same
            g.lookahead.run(g)
        else:
            assert (h not in (0, NO_SAFE_MOVE)) == (g.lookahead.verdict == lookahead.WIN)
        claimed = g.lookahead.verdict == lookahead.WIN  # a won line seen
        if truth == "lost":
            assert not claimed, (heights, divan, seq)
            assert g.autoplay() != engine.WON
        elif claimed:
            tally["claimed"] += 1
            assert g.autoplay() == engine.WON, (heights, divan, seq)
        tally[truth] += 1
    assert tally["lost"] >= lost and tally["won"] >= 5 and tally["claimed"] >= tally["won"] // 2, tally


def test_the_proven_loss_of_deal_19792():
    assert classic_solver.solve(19792, budget=20000).status == classic_solver.LOST
    g = Game(deal=19792, rules=RULES_CLASSIC)
    choices = 0
    while True:
        h = g.safe_hint()
        assert g.lookahead.verdict != lookahead.WIN  # no winning line is ever claimed
        if g.lookahead.verdict != lookahead.OBVIOUS:  # at every real choice: no safe move
            assert h in (0, NO_SAFE_MOVE)
            choices += 1
        if not g.step():
            break
    assert g.status() == engine.LOST and choices >= 5


def test_on_deals_the_solver_proves_winnable_the_hint_wins_nine_in_ten_or_more(capsys):
    proven = won = 0
    g = Game(deal=1, rules=RULES_CLASSIC)
    for n in range(1, 61):
        g.new_deal(n)
        hint_won = g.autoplay() == engine.WON
        status = classic_solver.solve(n, budget=20000).status
        assert not (hint_won and status == classic_solver.LOST), n  # both are sound
        if status == classic_solver.WON:
            proven += 1
            won += hint_won
    with capsys.disabled():
        print("\nhint on the deals 1-60 the solver proves winnable: %d of %d" % (won, proven))
    assert proven >= 50 and won >= 0.9 * proven


def test_the_search_memory_is_fixed_and_small():
    assert rollout.MEMORY <= 8 * 1024
    look = Game(deal=3, rules=RULES_CLASSIC).lookahead
    buffers = [look.state, look.saved, look.moves, look.roots]
    assert sum(len(b) for b in buffers) == rollout.MEMORY + 4
