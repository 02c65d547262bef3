"""The empty stock's redeal mark (the "↻" glyph) reads as itself at 160x128: at least 12 of its 60 pixels
differ from every letter and digit the font draws (the old ring differed from "C" by 3 and from "0" by 5:
"↻2" read "C2" or "02")."""

from sultan_host.desktop import font


def ink(ch):
    return {(x, y) for y, row in enumerate(font.rows(ch)) for x, c in enumerate(row) if c == "#"}


def test_the_redeal_mark_is_told_from_every_letter_and_digit():
    mark = ink("↻")
    others = [ch for ch in font.GLYPHS if ch.isalnum()] + list(font.SAME)
    assert len(others) > 100
    nearest = min(others, key=lambda ch: len(mark ^ ink(ch)))
    assert len(mark ^ ink(nearest)) >= 12, nearest
