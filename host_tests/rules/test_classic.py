"""The classic ruleset (PySolFC's Sultan): parking talon cards in the divan, redeals without shuffling."""

from helpers import FULL_PACK, all_cards, fingerprint, with_prefix
from hypothesis import given, settings
from hypothesis import strategies as st
from sultan.rules import engine
from sultan.rules.engine import RULES_CLASSIC, TALON, Game
from sultan_host.snapshot import snapshot


def classic(prefix=""):
    return Game(order=with_prefix(prefix), rules=RULES_CLASSIC)


def test_divan_is_not_refilled_from_the_stock():
    g = classic("AD 5S 6S 7S 8S 9S 2D")
    assert g.play(0, 0) == engine.OK
    assert g.divan[0] == 0 and g.stock_count == 89


def test_talon_top_parks_in_an_empty_divan_slot_only():
    g = classic("AD 5S 6S 7S 8S 9S 2D 3D")
    g.turn()
    assert g.park(0) == engine.R_SLOT_TAKEN
    assert g.play(0, 0) == engine.OK
    assert g.park(6) == engine.R_BAD_PLACE
    assert g.park(0) == engine.OK
    assert g.divan[0] == cards_of("2D") and g.talon_count == 0
    assert g.park(0) == engine.R_SLOT_TAKEN
    assert g.undo() == engine.OK and g.divan[0] == 0 and g.card_at(TALON) == cards_of("2D")
    assert g.redo() == engine.OK and g.divan[0] == cards_of("2D")


def test_park_is_refused_under_seed_rules():
    g = Game(deal=3)
    g.turn()
    before = fingerprint(g)
    assert g.park(0) == engine.R_NOT_THESE_RULES
    assert fingerprint(g) == before


def test_redeal_turns_the_talon_over_without_shuffling_and_keeps_the_divan():
    g = Game(deal=8, rules=RULES_CLASSIC)
    while g.stock_count:
        g.turn()
    talon = bytes(g.talon[: g.talon_count])
    divan = bytes(g.divan)
    assert g.redeal() == engine.OK
    snap = snapshot(g)
    # the talon's bottom card is the new stock's top: the same order as the pass before
    assert [cards_of(n) for n in snap["stock"]] == list(talon)
    assert bytes(g.divan) == divan and g.talon_count == 0 and g.pass_no == 2
    assert g.undo() == engine.OK and bytes(g.talon[: g.talon_count]) == talon


def test_classic_autoplay_ends_won_or_lost_and_keeps_every_card():
    wins = 0
    for n in range(1, 61):
        g = Game(deal=n, rules=RULES_CLASSIC)
        status = g.autoplay()
        assert status in (engine.WON, engine.LOST), n
        assert g.hint() == 0
        assert all_cards(g) == FULL_PACK
        wins += status == engine.WON
    assert wins > 0  # the hint policy wins a good share of classic deals (docs/statistics.md)


def test_lost_means_no_park_could_uncover_a_playable_card():
    for n in range(1, 40):
        g = Game(deal=n, rules=RULES_CLASSIC)
        if g.autoplay() != engine.LOST:
            continue
        free = sum(1 for c in g.divan if not c)
        below = [g.talon[i] for i in range(max(0, g.talon_count - 1 - free), g.talon_count)]
        assert not any(g.where[c] for c in below)
        assert g.stock_count == 0 and g.pass_no == 3 or g.talon_count == 0


ACTION = st.one_of(
    st.tuples(st.just("turn")), st.tuples(st.just("redeal")), st.tuples(st.just("undo")),
    st.tuples(st.just("redo")), st.tuples(st.just("step")),
    st.tuples(st.just("park"), st.integers(-1, 6)),
    st.tuples(st.just("auto"), st.integers(0, 6)),
)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 999999999), st.lists(ACTION, max_size=150))
def test_classic_invariants_under_random_actions(deal, actions):
    g = Game(deal=deal, rules=RULES_CLASSIC)
    for action in actions:
        before = fingerprint(g)
        name = action[0]
        if name == "park":
            reason = g.park(action[1])
        elif name == "auto":
            reason = g.play_auto(action[1])
        elif name == "step":
            reason = engine.OK if g.step() else -1
        else:
            reason = getattr(g, name)()
        assert all_cards(g) == FULL_PACK
        if reason != engine.OK:
            assert fingerprint(g) == before
        elif name not in ("undo", "redo"):
            after = fingerprint(g)
            assert g.undo() == engine.OK and fingerprint(g)[:8] == before[:8]
            assert g.redo() == engine.OK and fingerprint(g) == after


def cards_of(name):
    from sultan.rules import cards

    return cards.parse(name)
