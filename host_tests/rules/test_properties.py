"""Hypothesis: any sequence of player actions keeps the invariants."""

from helpers import FULL_PACK, all_cards, fingerprint
from hypothesis import given, settings
from hypothesis import strategies as st
from sultan.rules import engine
from sultan.rules.engine import Game

ACTION = st.one_of(
    st.tuples(st.just("turn")),
    st.tuples(st.just("play"), st.integers(-1, 7), st.integers(-1, 8)),
    st.tuples(st.just("auto"), st.integers(-1, 7)),
    st.tuples(st.just("redeal")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
    st.tuples(st.just("step")),
)


def apply(g, action):
    name = action[0]
    if name == "turn":
        return g.turn()
    if name == "play":
        return g.play(action[1], action[2])
    if name == "auto":
        return g.play_auto(action[1])
    if name == "redeal":
        return g.redeal()
    if name == "undo":
        return g.undo()
    if name == "redo":
        return g.redo()
    return engine.OK if g.step() else engine.R_GAME_OVER


def drain_to_redeal(g):
    """Skip ahead so redeals happen within short action lists."""
    while g.stock_count:
        g.turn()


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 999999999), st.lists(ACTION, max_size=120), st.booleans())
def test_invariants_under_random_actions(deal, actions, skip_ahead):
    g = Game(deal=deal)
    if skip_ahead:
        drain_to_redeal(g)
    for action in actions:
        before = fingerprint(g)
        reason = apply(g, action)
        after = fingerprint(g)
        # 104 cards always accounted for
        assert all_cards(g) == FULL_PACK
        if reason != engine.OK:
            assert after == before, "a refused %r changed the state" % (action,)
            continue
        assert after != before
        if action[0] in ("turn", "play", "auto", "redeal", "step"):
            # undo after an action is the identity, redo repeats it exactly
            assert g.undo() == engine.OK
            assert fingerprint(g)[:8] == before[:8] and g.rng == before[10]
            assert g.redo() == engine.OK
            assert fingerprint(g) == after
        assert 0 <= g.placed <= 95 and 1 <= g.pass_no <= 3
        assert g.status() in (engine.PLAYING, engine.WON, engine.LOST)
