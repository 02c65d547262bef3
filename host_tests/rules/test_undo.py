"""Undo and redo: unlimited within a game, exact across redeals."""

from helpers import fingerprint
from sultan.rules import engine
from sultan.rules.engine import Game


def history(deal, stop=None):
    """Fingerprints after each canonical step of a deal (the first is the fresh deal)."""
    g = Game(deal=deal)
    prints = [fingerprint(g)[:8]]
    while g.step():
        prints.append(fingerprint(g)[:8])
        if stop and len(prints) > stop:
            break
    return g, prints


def test_undo_walks_back_through_every_state_and_redo_forward_again():
    for deal in (1, 2, 3, 44, 1000):
        g, prints = history(deal)
        assert g.pass_no == 3  # the history crosses both redeals
        for i in range(len(prints) - 1, 0, -1):
            assert fingerprint(g)[:7] == prints[i][:7]
            assert g.undo() == engine.OK
        assert fingerprint(g)[:7] == prints[0][:7]
        assert g.undo() == engine.R_NOTHING_TO_UNDO
        for i in range(1, len(prints)):
            assert g.redo() == engine.OK
            assert fingerprint(g)[:7] == prints[i][:7]
        assert g.redo() == engine.R_NOTHING_TO_REDO


def test_redo_never_reshuffles_differently():
    g = Game(deal=9)
    g.autoplay(stop_at_pass_end=True)
    assert g.redeal() == engine.OK
    after = fingerprint(g)
    for _ in range(3):
        assert g.undo() == engine.OK
        assert g.pass_no == 1 and g.stock_count == 0
        assert g.redo() == engine.OK
        assert fingerprint(g) == after


def test_a_new_action_after_undo_drops_the_redo_tail():
    g = Game(deal=4)
    g.turn()
    g.turn()
    g.undo()
    assert g.can_redo()
    g.turn()
    assert not g.can_redo() and g.redo() == engine.R_NOTHING_TO_REDO


def test_undo_of_a_missed_turn_takes_the_miss_back():
    g = Game(deal=2)
    while not g.any_playable():
        g.turn()
    g.turn()
    assert g.missed == 1
    g.undo()
    assert g.missed == 0
    g.redo()
    assert g.missed == 1


def test_undoing_an_autoplayed_game_returns_to_the_fresh_deal():
    fresh = Game(deal=77)
    g = Game(deal=77)
    g.autoplay()
    while g.undo() == engine.OK:
        pass
    assert fingerprint(g)[:7] == fingerprint(fresh)[:7]
    assert g.rng == fresh.rng
