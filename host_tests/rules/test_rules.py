"""Each rule of the seed ruleset, on hand-made orders."""

import pytest
from helpers import (
    FULL_PACK,
    C,
    Reference,
    all_cards,
    deal_order,
    fingerprint,
    winning_order,
    with_prefix,
)
from sultan.rules import cards, engine
from sultan.rules.engine import TALON, Game
from sultan_host.snapshot import snapshot


def test_layout_and_divan_from_the_top_of_the_stock():
    g = Game(order=with_prefix("5H AC TD QS 2C 2D 4S"))
    snap = snapshot(g)
    assert snap["foundations"] == ["KD", "AH", "KD", "KC", "KC", "KS", "KH", "KS"]
    assert snap["divan"] == ["5H", "AC", "TD", "QS", "2C", "2D"]
    assert snap["stock"][0] == "4S" and len(snap["stock"]) == 89
    assert all_cards(g) == FULL_PACK


def test_king_foundation_builds_ace_upwards_in_suit():
    g = Game(order=with_prefix("AD 2D 3D 5S 6S 7S 4D"))
    assert g.play(0, 0) == engine.OK  # AD on KD (foundation 0)
    assert snapshot(g)["foundations"][0] == "AD"
    assert g.divan[0] == C("4D")  # refilled at once from the stock top
    assert g.play(1, 0) == engine.OK and g.play(2, 0) == engine.OK
    assert g.play(0, 0) == engine.OK
    assert snapshot(g)["foundations"][0] == "4D"


def test_ace_of_hearts_foundation_starts_at_two():
    g = Game(order=with_prefix("AH 2H"))
    assert g.play(0, 1) == engine.R_NO_FIT  # A♥ foundation takes 2♥, not an ace
    assert g.play(1, 1) == engine.OK
    assert snapshot(g)["foundations"][1] == "2H"
    assert g.play(0, 6) == engine.OK  # the other A♥ goes on the K♥ foundation


def test_wrong_suit_or_rank_is_refused_and_changes_nothing():
    g = Game(order=with_prefix("AS 3D AC"))
    before = fingerprint(g)
    assert g.play(0, 0) == engine.R_NO_FIT  # A♠ on K♦
    assert g.play(1, 0) == engine.R_NO_FIT  # 3♦ on K♦
    assert g.play(5, 3) == engine.R_EMPTY or g.divan[5]  # slot 5 holds a card in a fresh deal
    assert g.play(9, 0) == engine.R_BAD_PLACE
    assert g.play(0, 8) == engine.R_BAD_PLACE
    assert g.play(TALON, 0) == engine.R_EMPTY
    assert g.play_auto(1) == engine.R_FITS_NOWHERE
    assert fingerprint(g) == before


def test_play_auto_takes_the_lower_foundation_when_two_accept():
    g = Game(order=with_prefix("AS AS"))
    assert g.target(0) == 5
    assert g.play_auto(0) == engine.OK
    assert snapshot(g)["foundations"][5] == "AS" and snapshot(g)["foundations"][7] == "KS"
    assert g.target(1) == 7
    assert g.play_auto(1) == engine.OK
    assert snapshot(g)["foundations"][7] == "AS"


def test_nothing_is_built_past_a_queen():
    g = Game(order=winning_order())
    while g.foundation_card(0) != C("QD"):
        assert g.step()
    # the second copy of each diamond goes to foundation 2; foundation 0 takes no more
    assert g.need[0] == 0
    assert g.where[C("KD")] == 0  # a king is never wanted: nothing goes past Q
    assert g.status() == engine.PLAYING


def test_turn_moves_the_stock_top_to_the_talon_and_only_the_top_plays():
    g = Game(order=with_prefix("5S 5S 6S 6S 7S 7S AD 2D"))
    assert g.turn() == engine.OK
    assert g.card_at(TALON) == C("AD")
    assert g.turn() == engine.OK
    assert g.card_at(TALON) == C("2D")
    assert g.play(TALON, 0) == engine.R_NO_FIT  # 2D is on top; AD below it cannot be played
    assert g.talon_count == 2 and g.stock_count == 87


def test_talon_top_plays_to_a_foundation():
    g = Game(order=with_prefix("5S 5S 6S 6S 7S 7S AD"))
    g.turn()
    assert g.play(TALON, 0) == engine.OK
    assert g.talon_count == 0 and g.placed == 1


def test_empty_stock_leaves_an_emptied_divan_slot_empty():
    g = Game(order=with_prefix("5S 5S 6S 6S 7S 7S"))
    while g.stock_count:
        assert g.turn() == engine.OK
    assert g.turn() == engine.R_STOCK_EMPTY
    # make a divan card playable by building hearts up from the talon is not possible here; use a won deal
    g = Game(order=winning_order())
    while g.stock_count:
        g.step()
    before = sum(1 for c in g.divan if c)
    g.step()
    assert sum(1 for c in g.divan if c) == before - 1


def test_missed_chance_is_counted_and_allowed():
    g = Game(order=with_prefix("AD 5S 5S 6S 6S 7S"))
    assert g.turn() == engine.OK  # AD could have been played
    assert g.missed == 1
    assert g.turn() == engine.OK and g.missed == 2
    g.play(0, 0)
    while g.hint() >> 8 != engine.A_TURN:
        g.step()
    missed = g.missed
    g.turn()  # nothing playable: not a miss
    assert g.missed == missed


def test_redeal_only_when_the_stock_is_empty_and_at_most_twice():
    g = Game(deal=1)
    assert g.redeal() == engine.R_STOCK_NOT_EMPTY
    for expected_pass in (2, 3):
        while g.stock_count:
            g.turn()
        talon, divan = bytes(g.talon[: g.talon_count]), [c for c in g.divan if c]
        state = g.rng
        assert g.redeal() == engine.OK
        assert g.pass_no == expected_pass
        # the gathered cards (talon bottom->top, then divan 0..5) shuffled with the game's generator
        gathered = bytearray(talon + bytes(divan))
        want = bytearray(len(gathered))
        from sultan.rules import rng

        rng._shuffle_small(want, gathered, len(gathered), state)
        laid = bytes(reversed(want))[:6]  # the stock's top is the shuffled list's last card
        assert bytes(g.divan) == laid[:6]
        assert sorted(bytes(g.stock[: g.stock_count]) + bytes(g.divan)) == sorted(gathered)
        assert g.talon_count == 0
    while g.stock_count:
        g.turn()
    before = fingerprint(g)
    assert g.redeal() == engine.R_NO_REDEAL_LEFT
    assert fingerprint(g) == before


def test_won_when_all_95_cards_are_placed():
    g = Game(order=winning_order())
    assert g.autoplay() == engine.WON
    assert g.placed == 95 and g.moves == 95 and g.missed == 0
    assert snapshot(g)["foundations"] == ["QD", "QH", "QD", "QC", "QC", "QS", "QH", "QS"]
    assert g.redeal() == engine.R_GAME_OVER
    assert g.hint() == 0


def test_lost_only_with_empty_stock_nothing_playable_and_no_redeal_left():
    g = Game(deal=1)
    assert g.autoplay(stop_at_pass_end=True) == engine.PLAYING
    assert g.stock_count == 0 and not g.any_playable() and g.pass_no == 1
    assert g.hint() >> 8 == engine.A_REDEAL
    assert g.autoplay() == engine.LOST
    assert g.pass_no == 3 and g.stock_count == 0 and not g.any_playable()
    assert g.hint() == 0 and g.step() == 0


def test_hint_follows_the_canonical_order():
    g = Game(order=with_prefix("5S 6S AD 7S AC 8S 9S"))
    h = g.hint()
    assert (engine.hint_kind(h), engine.hint_place(h), engine.hint_foundation(h)) == (engine.A_PLAY, 2, 0)
    g.step()
    h = g.hint()
    assert (engine.hint_kind(h), engine.hint_place(h), engine.hint_foundation(h)) == (engine.A_PLAY, 4, 3)


@pytest.mark.parametrize("deal", list(range(1, 201)) + [999999999, 123456789])
def test_autoplay_matches_an_independent_reference_model(deal):
    order, state = deal_order(deal)
    ref = Reference(order, state)
    while ref.step():
        pass
    g = Game(deal=deal)
    g.autoplay()
    snap = snapshot(g)
    for key, value in ref.snapshot().items():
        assert snap[key] == value, key
    assert all_cards(g) == FULL_PACK


def test_stop_at_pass_end_stops_before_the_first_redeal():
    g = Game(deal=5)
    g.autoplay(stop_at_pass_end=True)
    assert g.pass_no == 1 and g.stock_count == 0
    assert g.hint() >> 8 in (engine.A_REDEAL, 0)


def test_deal_numbers_are_validated():
    for bad in (0, -1, 1000000000, "7", 2.0):
        with pytest.raises(ValueError):
            Game(deal=bad)
    with pytest.raises(ValueError):
        Game(order=b"\x01" * 95)


def test_card_notation_round_trips():
    for c in cards.STOCK_PACK:
        assert C(cards.name(c)) == c
    with pytest.raises(ValueError):
        C("1H")


@pytest.mark.parametrize("rules", [engine.RULES_SEED, engine.RULES_CLASSIC])
def test_autoplay_records_exactly_the_moves_step_makes(rules):
    for deal in (1, 2, 3, 31, 500):
        fast = Game(deal=deal, rules=rules)
        fast.autoplay()
        slow = Game(deal=deal, rules=rules)
        while slow.step():
            pass
        assert fingerprint(fast) == fingerprint(slow)


def test_new_deal_can_switch_rules_in_place():
    g = Game(deal=5)
    g.autoplay()
    g.new_deal(5, rules=engine.RULES_CLASSIC)
    assert g.rules == engine.RULES_CLASSIC and g.moves == 0 and g.placed == 0
    assert fingerprint(g) == fingerprint(Game(deal=5, rules=engine.RULES_CLASSIC))
    with pytest.raises(ValueError):
        g.new_deal(5, rules=7)
