"""The four-colour deck: a menu switch, saved in the settings (S_FOUR_COLOUR), gives
diamonds and clubs their own colours wherever a suit is drawn -- the cards, the foundations, the cards
named in the message line (a refusal, a hint) and the cards that travel (the cascade's, the flyer) -- at
both sizes and in both languages; the ranks keep their red and black."""

import pytest
from play_keys import menu_keys
from screen_rig import Rig
from sultan.rules import engine
from sultan.saves import record, stats
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import Store
from sultan.ui import keys, motion, sprites, words
from sultan.ui.controller import S_FOUR_COLOUR, Controller
from sultan.ui.layout import F0, GLYPH_W
from sultan.ui.lines import MENU_TEXT_OFF
from sultan.ui.menu import M_COLOURS, M_HINT
from sultan.ui.switches import S_RUSSIAN
from sultan_host import scripted
from sultan_host.desktop import sheets
from sultan_host.desktop.headless import rgb565

SIZES = ("160x128", "320x240")
RED, BLACK = sprites.COLORS[sprites.RED], sprites.COLORS[sprites.INK]
FOUR = (BLACK, RED, sprites.BLUE, sprites.GREEN)  # the suits' colours, spades hearts diamonds clubs
TWO = (BLACK, RED, RED, BLACK)


def names(ks):
    return " ".join(keys.NAMES[k] for k in ks)


def glyph_errors(rig, fb, origin, rows, cx, cy, ink):
    """Pixels of bit-string glyph ``rows`` at (cx, cy) from virtual ``origin`` not in ``ink`` (0xRRGGBB)
    where it has a "#" (the paper is not looked at)."""
    bad = []
    for j, row in enumerate(rows.split()):
        for i, ch in enumerate(row):
            if ch == "#" and rig.virtual(fb, origin[0] + cx + i, origin[1] + cy + j) != rgb565(ink):
                bad.append((i, j))
    return bad


def face_errors(rig, fb, origin, card, suit_inks, chip=False):
    """Errors in ``card``'s rank (red or black) and suit glyphs (in ``suit_inks[suit]``), small and
    big (``chip``: a message's card, its rank and small suit only)."""
    rank, suit = card & 15, card >> 4
    bad = glyph_errors(rig, fb, origin, sheets.RANKS[rank - 1], 1 if rank == 10 else 2, 1, TWO[suit])
    bad += glyph_errors(rig, fb, origin, sheets.SUITS[suit], sprites.TILE_W + 2, 1, suit_inks[suit])
    if not chip:
        rows = sheets.SUITS[suit].split()
        oy = sprites.TILE_H + (20 - 2 * len(rows)) // 2
        for j, row in enumerate(rows):
            for i, ch in enumerate(row):
                if ch == "#" and rig.virtual(fb, origin[0] + 4 + 2 * i, origin[1] + oy + 2 * j) != rgb565(
                        suit_inks[suit]):
                    bad.append(("big", i, j))
    return bad


def table_errors(rig, inks):
    fb = rig.fb()
    g = rig.game
    bad = []
    for slot in range(6):
        bad += [(slot, e) for e in face_errors(rig, fb, rig.layout.place_xy(slot), g.divan[slot], inks)]
    for f in range(8):
        bad += [(F0 + f, e) for e in face_errors(rig, fb, rig.layout.place_xy(F0 + f), g.foundation_card(f),
                                                 inks)]
    return bad


def chip_errors(rig, inks):
    """Errors in the message line's cards ("%c"), as ``Screen`` places them."""
    fb = rig.fb()
    x, y = rig.layout.message_xy
    bad = []
    for n, state in enumerate(rig.screen.chip_state):
        assert state is not None, "no card in the message %r" % rig.screen.message.text
        col, card = state
        bad += [(n, e) for e in face_errors(rig, fb, (x + GLYPH_W * col + 1, y), card, inks, chip=True)]
    return bad


def count(rig, rgb):
    return int((rig.fb() == rgb565(rgb)).sum())


def test_the_switch_turns_over_its_bit_says_so_and_comes_back_from_the_settings():
    for lang, label, said in ((words.EN, "Four colours", "four colours: %c %c"),
                              (words.RU, "Четыре цвета", "четыре цвета: %c %c")):
        ctrl = Controller(engine.Game(deal=7), settings=S_RUSSIAN if lang == words.RU else 0)
        try:
            assert not ctrl.four_colour and not ctrl.settings() & S_FOUR_COLOUR  # an old save's 0: two
            for k in menu_keys(ctrl, M_COLOURS)[:-1]:
                ctrl.press(k)
            assert ctrl.menu.label(ctrl, ctrl.menu.index) == label + words.menu_text()[MENU_TEXT_OFF]
            ctrl.press(keys.A)
            assert ctrl.four_colour and ctrl.message == said and ctrl.message_cards[:2] == [0x21, 0x31]
            bits = ctrl.settings()
            assert bits & S_FOUR_COLOUR and Controller(engine.Game(deal=7), settings=bits).four_colour
            for k in menu_keys(ctrl, M_COLOURS):
                ctrl.press(k)
            assert not ctrl.four_colour and not ctrl.settings() & S_FOUR_COLOUR
        finally:
            words.use(words.EN)
    assert S_FOUR_COLOUR == 64


def test_the_bit_rides_in_the_record_and_an_old_record_reads_as_two_colours():
    region = MemoryRegion()
    st = Store(region)
    g = engine.Game(deal=7)
    g.step()
    st.save(g)
    st.set_settings(S_FOUR_COLOUR, g)
    st.flush()
    back = Store(region)
    back.load()
    assert back.settings == S_FOUR_COLOUR and Controller(g, settings=back.settings).four_colour
    from helpers import as_format_1

    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 2, stats.Stats(), 1, 0, g, settings=0b110000)  # Russian, motion off
    old = Store(MemoryRegion(data=as_format_1(buf, n).ljust(2048, b"\xff")))
    assert old.load() is not None and old.message is None
    assert not Controller(g, settings=old.settings).four_colour


@pytest.mark.parametrize("size", SIZES)
def test_four_colours_on_every_card_face_and_back_to_two(size):
    rig = Rig(size, deal=7)
    assert table_errors(rig, TWO) == [] and count(rig, sprites.BLUE) == count(rig, sprites.GREEN) == 0
    rig.press(names(menu_keys(rig.ctrl, M_COLOURS)))
    assert rig.ctrl.four_colour
    assert table_errors(rig, FOUR) == []
    assert chip_errors(rig, FOUR) == []  # "four colours: A♦ A♣"
    assert count(rig, sprites.BLUE) > 0 and count(rig, sprites.GREEN) > 0
    rig.press(names(menu_keys(rig.ctrl, M_COLOURS)))
    assert table_errors(rig, TWO) == [] and chip_errors(rig, TWO) == []
    assert count(rig, sprites.BLUE) == count(rig, sprites.GREEN) == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_refusal_and_hint_lines_show_their_cards_in_four_colours(size):
    rig = Rig(size, deal=7)
    rig.press(names(menu_keys(rig.ctrl, M_COLOURS)))
    g = rig.game
    assert g.divan[0] >> 4 == 3 and g.foundation_card(0) >> 4 == 2  # deal 7: 3♣ on slot 0, K♦ first pile
    rig.press("A RIGHT A")  # 3♣ onto the K♦ pile: refused, naming both
    assert rig.ctrl.event == "refuse" and rig.ctrl.message_cards[:2] == [g.divan[0], g.foundation_card(0)]
    assert chip_errors(rig, FOUR) == []
    rig.press("B")
    for _ in range(40):  # turn the stock until the hint plays a diamond or a club
        rig.press(names(menu_keys(rig.ctrl, M_HINT)))
        if "%c" in rig.ctrl.message and rig.ctrl.message_cards[0] >> 4 >= 2:
            break
        rig.press("START")
    assert "%c" in rig.ctrl.message and rig.ctrl.message_cards[0] >> 4 >= 2, rig.ctrl.message
    assert chip_errors(rig, FOUR) == []


def test_every_sprite_over_the_sheet_takes_the_one_palette_the_switch_changes():
    """The cards, the message's cards, the flyer and the cascade's trail (``motion.sprite``) all draw
    with the screen's one sprite Palette: the switch's two entries recolour every suit at once."""
    rig = Rig("160x128", deal=7)
    motion.sprite(rig.screen)
    seen = 0

    def walk(group):
        nonlocal seen
        for item in group:
            if hasattr(item, "__len__") and not hasattr(item, "bitmap"):
                walk(item)
            elif getattr(item, "bitmap", None) is rig.screen.sheet:
                assert item.pixel_shader is rig.screen.palette
                seen += 1

    walk(rig.display.root_group)
    assert seen >= 17 + 2 + 1  # the places, the message's two cards, a sprite
    pal = rig.screen.palette
    assert (pal[sprites.DIAMOND], pal[sprites.CLUB]) == (RED, BLACK)
    rig.press(names(menu_keys(rig.ctrl, M_COLOURS)))
    assert (pal[sprites.DIAMOND], pal[sprites.CLUB]) == (sprites.BLUE, sprites.GREEN)


def test_a_board_started_with_the_bit_draws_four_colours_from_its_first_frame():
    from sultan import app
    from sultan.nostore import NoStore
    from sultan_host.desktop.headless import HeadlessDisplay

    class Four(NoStore):
        settings = S_FOUR_COLOUR

    d = HeadlessDisplay(160, 128)
    ctrl = app.run(d, scripted.ScriptedKeys(""), deal=7, console=lambda *a: None, store=Four(), idle=0)
    assert ctrl.four_colour
    fb = d.pixels()
    assert (fb == rgb565(sprites.BLUE)).sum() > 0 and (fb == rgb565(sprites.GREEN)).sum() > 0
