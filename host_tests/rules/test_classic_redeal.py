"""Classic rules redeal as PySolFC's WasteTalonStack: refused when the talon is empty."""

from helpers import order_of
from sultan.rules import engine
from sultan.rules.engine import OK, RULES_CLASSIC, TALON, Game


def issue_order():
    """The issue's reproduction: A♠ A♠ A♦ A♦ A♣ A♣ A♥, then 2..Q of ♠♥♦♣, two of each."""
    rest = []
    for rank in "23456789TJQ":
        for suit in "SHDC":
            rest += [rank + suit] * 2
    return order_of("AS AS AD AD AC AC AH " + " ".join(rest))


def to_the_empty_talon(rules):
    g = Game(order=issue_order(), rules=rules)
    for slot in range(6):
        if g.divan[slot]:
            assert g.play_auto(slot) == OK
    for _ in range(88):
        assert g.turn() == OK and g.play_auto(TALON) == OK
    assert g.turn() == OK and g.talon[g.talon_count - 1] == order_of("QC")[0]
    return g


def test_a_redeal_with_an_empty_talon_is_refused_under_classic_rules():
    g = to_the_empty_talon(RULES_CLASSIC)
    assert g.park(0) == OK
    assert (g.stock_count, g.talon_count, g.pass_no) == (0, 0, 1)
    before = (g.moves, g.log_end, bytes(g.divan), g.pass_no)
    assert g.redeal() == engine.R_TALON_EMPTY
    assert (g.moves, g.log_end, bytes(g.divan), g.pass_no) == before  # nothing spent, nothing logged
    assert g.status() == engine.PLAYING  # the parked Q♣ still plays
    assert g.play_auto(0) == OK and g.status() == engine.WON


def test_a_redeal_with_a_talon_is_still_allowed_under_classic_rules():
    g = to_the_empty_talon(RULES_CLASSIC)
    assert g.redeal() == OK and g.pass_no == 2 and g.stock_count == 1  # Q♣ turned over


def test_the_classic_hint_never_offers_a_redeal_the_rules_refuse():
    for deal in range(1, 301):
        g = Game(deal=deal, rules=RULES_CLASSIC)
        while g.moves < engine.MAX_ACTIONS:
            h = g.hint()
            if not h:
                break
            if engine.hint_kind(h) == engine.A_REDEAL:
                assert g.redeal() == OK, deal
            else:
                g.step()


def test_the_refusal_has_words_in_every_language():
    from sultan.ui import words

    for lang in (words.EN, words.RU):
        words.use(lang)
        assert len(words.refusals()) > engine.R_TALON_EMPTY and words.refusals()[engine.R_TALON_EMPTY]
    words.use(words.EN)
