# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Cards as single bytes, and their two-letter notation.

A card is ``suit << 4 | rank``: suit 0..3 = spades, hearts, diamonds, clubs;
rank 1..13 = ace..king.  0 means "no card".  The two decks are not told apart:
two cards of the same suit and rank are interchangeable.
"""

from sultan import const

SPADES = const(0)
HEARTS = const(1)
DIAMONDS = const(2)
CLUBS = const(3)

ACE = const(1)
QUEEN = const(12)
KING = const(13)

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "A23456789TJQK"

# The nine cards laid out before play, in layout order: foundations 0..7, then
# the sultan (the centre K of hearts, never built on).
LAYOUT = bytes((
    DIAMONDS << 4 | KING, HEARTS << 4 | ACE, DIAMONDS << 4 | KING,
    CLUBS << 4 | KING, CLUBS << 4 | KING,
    SPADES << 4 | KING, HEARTS << 4 | KING, SPADES << 4 | KING,
))
SULTAN = const(0x1D)  # HEARTS << 4 | KING

PACK_SIZE = const(104)
STOCK_SIZE = const(95)  # 104 minus the nine layout cards


def is_card(card):
    """True for a valid card byte (any suit, rank 1..13)."""
    return 0 < card < 64 and 1 <= card & 15 <= 13


def name(card):
    """Two-letter notation, e.g. ``"TH"``; ``"--"`` for no card."""
    if not is_card(card):
        return "--"
    return RANK_LETTERS[(card & 15) - 1] + SUIT_LETTERS[card >> 4]


def parse(text):
    """The card byte for a two-letter name like ``"TH"``; ValueError otherwise."""
    if len(text) == 2:
        rank = RANK_LETTERS.find(text[0].upper())
        suit = SUIT_LETTERS.find(text[1].upper())
        if rank >= 0 and suit >= 0:
            return suit << 4 | (rank + 1)
    raise ValueError("unknown card %r (want rank A23456789TJQK + suit SHDC, e.g. TH)" % (text,))


def _stock_pack():
    """The 95 non-layout cards in canonical order (``STOCK_PACK``).

    Canonical order: deck 1 then deck 2, each spades, hearts, diamonds, clubs,
    ace to king, with the first copies of the layout cards taken out.
    """
    taken = bytearray(64)  # how many copies of each card the layout has used
    for c in LAYOUT:
        taken[c] += 1
    taken[SULTAN] += 1
    buf = bytearray(STOCK_SIZE)
    n = 0
    for _deck in range(2):
        for suit in range(4):
            for rank in range(1, 14):
                c = suit << 4 | rank
                if taken[c]:
                    taken[c] -= 1
                else:
                    buf[n] = c
                    n += 1
    return bytes(buf)


STOCK_PACK = _stock_pack()
del _stock_pack  # used once, here: then its code goes (on the board a module's functions are heap)
