"""The controller: whole deals by button presses, navigation, refusals, menu."""

import pytest
from play_keys import menu_keys, script_for
from sultan.rules import engine
from sultan.ui import keys, words
from sultan.ui.controller import Controller, move
from sultan.ui.layout import F0, GRID, NONE, STOCK, SULTAN_PLACE, TALON
from sultan.ui.lines import MENU_TEXT_OFF
from sultan.ui.menu import M_AUTO, M_CHOOSE, M_HINT, M_NEW, M_RESTART, M_RULES, M_SOUND
from sultan.ui.modes import DEAL, MENU, OVER, PLAY, RULES_PAGE
from sultan_host.paths import HOST, LIB
from sultan_host.scripted import route
from sultan_host.snapshot import snapshot

STOPS = [p for p in GRID if p != NONE and p != SULTAN_PLACE]
DIRS = (keys.RIGHT, keys.LEFT, keys.DOWN, keys.UP)


def press_all(ctrl, script):
    for k in script:
        ctrl.press(k)


@pytest.mark.parametrize("deal,style", [(1, 0), (7, 1), (42, 2), (123456789, 2)])
def test_whole_deal_by_buttons_matches_autoplay(deal, style):
    ref = engine.Game(deal=deal)
    status = ref.autoplay()
    script = script_for(deal, style)
    assert len(script) > 100
    ctrl = Controller(engine.Game(deal=deal))
    press_all(ctrl, script)
    assert snapshot(ctrl.game) == snapshot(ref)
    assert ctrl.game.status() == status != engine.PLAYING
    assert ctrl.mode == OVER


def test_won_deal_reaches_won_screen():
    deal = 111  # the first deal the canonical policy wins
    assert engine.Game(deal=deal).autoplay() == engine.WON
    ctrl = Controller(engine.Game(deal=deal))
    press_all(ctrl, script_for(deal, 1))
    assert ctrl.game.status() == engine.WON
    assert ctrl.game.placed == 95
    assert ctrl.mode == OVER


def test_autoplay_on_needs_only_start():
    ref = engine.Game(deal=7)
    ref.autoplay()
    ctrl = Controller(engine.Game(deal=7))
    press_all(ctrl, menu_keys(ctrl, M_AUTO))
    assert ctrl.autoplay and ctrl.mode == PLAY
    for _ in range(500):
        if ctrl.mode == OVER:
            break
        ctrl.press(keys.START)
    assert snapshot(ctrl.game) == snapshot(ref)


def test_every_direction_moves_and_every_place_reachable():
    for p in STOPS:
        seen = set()
        for k in DIRS:
            q = move(p, k)
            assert q in STOPS and q != p, (p, k, q)
            seen.add(q)
        for q in STOPS:
            r = route(p, q)
            c = p
            for k in r:
                c = move(c, k)
            assert c == q
    # The pyramid: left of the top-centre foundation is the top-left one; the sultan is skipped.
    assert move(F0 + 1, keys.LEFT) == F0 + 0
    assert move(F0 + 3, keys.RIGHT) == F0 + 4
    assert move(F0 + 6, keys.UP) == F0 + 1
    assert move(TALON, keys.DOWN) == STOCK
    assert move(5, keys.RIGHT) == 2  # bottom right divan wraps round the empty corner


def test_cursor_is_never_lost():
    ctrl = Controller(engine.Game(deal=3))
    import random

    r = random.Random(5)
    for _ in range(2000):
        ctrl.press(r.randrange(8))
        assert ctrl.cursor in STOPS
        assert ctrl.selected == NONE or 0 <= ctrl.selected <= TALON
        if ctrl.mode == PLAY and ctrl.selected != NONE:
            assert ctrl.game.card_at(ctrl.selected)


def test_refused_move_says_why_and_changes_nothing():
    g = engine.Game(deal=7)
    ctrl = Controller(g)
    # Find a divan slot and a foundation it does not fit on.
    slot = next(i for i in range(6) if g.divan[i])
    card = g.divan[slot]
    f = next(f for f in range(8) if g.need[f] != card and g.need[f])
    before = snapshot(g)
    press_all(ctrl, route(0, slot) + [keys.A])
    assert ctrl.selected == slot
    press_all(ctrl, route(slot, F0 + f) + [keys.A])
    assert snapshot(g) == before
    assert ctrl.message == "%c does not fit on %c"
    assert ctrl.message_cards == [card, g.foundation_card(f)]
    assert ctrl.selected == slot  # still selected: try another foundation
    ctrl.press(keys.B)
    assert ctrl.selected == NONE and snapshot(g) == before


def test_b_undoes_and_start_turns():
    g = engine.Game(deal=7)
    ctrl = Controller(g)
    ctrl.press(keys.START)
    assert g.stock_count == 88 and g.talon_count == 1
    ctrl.press(keys.B)
    assert g.stock_count == 89 and g.talon_count == 0 and ctrl.message == "undone"
    ctrl.press(keys.B)
    assert ctrl.message == "nothing to undo"


def test_empty_place_and_foundation_without_selection():
    g = engine.Game(deal=7)
    ctrl = Controller(g)
    press_all(ctrl, route(0, TALON) + [keys.A])
    assert ctrl.selected == NONE and ctrl.message == "no card there"
    press_all(ctrl, route(TALON, F0) + [keys.A])
    assert ctrl.message == "select a card first"


def test_menu_choose_deal_number():
    ctrl = Controller(engine.Game(deal=7))
    script = menu_keys(ctrl, M_CHOOSE)
    press_all(ctrl, script[:-1])
    assert ctrl.mode == MENU and len(ctrl.menu.items) == 16  # no sound items without a Sound
    assert ctrl.menu.label(ctrl, ctrl.menu.index) == "Choose deal number"
    press_all(ctrl, script[-1:])
    assert ctrl.mode == DEAL and ctrl.editor.number() == 7
    # 7 -> 12: the ones digit down five times, the tens digit up once.
    press_all(ctrl, [keys.DOWN] * 5 + [keys.LEFT, keys.UP, keys.A])
    assert ctrl.mode == PLAY and ctrl.game.deal == 12
    assert snapshot(ctrl.game) == snapshot(engine.Game(deal=12))


def test_menu_new_random_deal_and_restart():
    ctrl = Controller(engine.Game(deal=7), rand_deal=lambda: 4242)
    ctrl.press(keys.START)
    press_all(ctrl, menu_keys(ctrl, M_NEW))
    assert ctrl.game.deal == 4242 and ctrl.game.moves == 0
    ctrl.press(keys.START)
    press_all(ctrl, menu_keys(ctrl, M_RESTART))
    assert snapshot(ctrl.game) == snapshot(engine.Game(deal=4242))


def test_hint_from_menu():
    g = engine.Game(deal=7)
    ctrl = Controller(g)
    press_all(ctrl, menu_keys(ctrl, M_HINT, up=True))  # up from the top wraps round the bottom
    assert ctrl.hint == g.hint() != 0
    assert ctrl.message.startswith("hint") and ctrl.mode == PLAY
    ctrl.press(keys.RIGHT)
    assert ctrl.hint == 0


def test_lost_screen_and_undo_back():
    for deal in range(1, 50):
        g = engine.Game(deal=deal)
        if g.autoplay() == engine.LOST:
            break
    ctrl = Controller(engine.Game(deal=deal))
    press_all(ctrl, script_for(deal, 0))
    assert ctrl.mode == OVER and ctrl.game.status() == engine.LOST
    ctrl.press(keys.B)
    assert ctrl.mode == PLAY and ctrl.game.status() == engine.PLAYING


@pytest.mark.micropython
def test_controller_runs_on_micropython(mpy):
    """The controller, keys and layout are plain Python: a deal by buttons on the MicroPython VM."""
    script = script_for(42, 2)
    ref = engine.Game(deal=42)
    ref.autoplay()
    code = (
        "from sultan.rules import engine\n"
        "from sultan.ui import keys, layout\n"
        "from sultan_host.scripted import route\n"
        "from sultan.ui.controller import Controller\n"
        "from sultan.ui.modes import OVER\n"
        "c = Controller(engine.Game(deal=42))\n"
        "for k in %r:\n"
        "    c.press(k)\n"
        "g = c.game\n"
        "print(g.placed, g.moves, g.pass_no, g.missed, c.mode == OVER, len(route(0, layout.STOCK)))\n"
    ) % (bytes(script),)
    out = mpy(code, heap="128K", path=LIB + ":" + HOST).split()
    assert out == [str(ref.placed), str(ref.moves), str(ref.pass_no), str(ref.missed), "True",
                   str(len(route(0, STOCK)))]


def test_rules_page_returns_to_where_it_came_from():
    ctrl = Controller(engine.Game(deal=7))
    press_all(ctrl, menu_keys(ctrl, M_RULES, up=True))
    assert ctrl.mode == RULES_PAGE
    ctrl.press(keys.B)
    assert ctrl.mode == PLAY and ctrl.game.moves == 0  # B left the page, it did not undo
    deal = next(d for d in range(1, 50) if engine.Game(deal=d).autoplay() == engine.LOST)
    ctrl = Controller(engine.Game(deal=deal))
    press_all(ctrl, script_for(deal, 0))
    assert ctrl.mode == OVER
    press_all(ctrl, menu_keys(ctrl, M_RULES, up=True))
    assert ctrl.mode == RULES_PAGE
    ctrl.press(keys.A)  # not a key that closes it: B and SELECT do
    assert ctrl.mode == RULES_PAGE
    ctrl.press(keys.SELECT)
    assert ctrl.mode == OVER


def test_classic_rules_park_by_buttons():
    """Classic rules: select the talon top, then A on an empty divan slot parks it there."""
    g = engine.Game(deal=1, rules=engine.RULES_CLASSIC)
    for _ in range(6):  # deal 1's seventh move is a park
        g.step()
    h = g.hint()
    assert engine.hint_kind(h) == engine.A_PARK
    slot = engine.hint_place(h)
    card = g.card_at(TALON)
    ctrl = Controller(g)
    ctrl.cursor = TALON
    press_all(ctrl, [keys.A] + route(TALON, slot) + [keys.A])
    assert g.divan[slot] == card and ctrl.selected == NONE
    ctrl.press(keys.B)  # undo the park
    assert g.divan[slot] == 0 and g.card_at(TALON) == card


# ------------------------------------------------- the menu's newer items


def test_menu_wraps_both_ways_and_every_item_is_reachable():
    from sultan.ui.menu import MENU_ORDER

    for sound in (False, True):
        ctrl = Controller(engine.Game(deal=7), sound=sound)
        ctrl.press(keys.SELECT)
        n = len(ctrl.menu.items)
        assert n == (18 if sound else 16) and set(ctrl.menu.items) <= set(MENU_ORDER)
        labels = set()
        for _ in range(n):  # down through every line and round to the top again
            labels.add(ctrl.menu.label(ctrl, ctrl.menu.index))
            ctrl.press(keys.DOWN)
        assert ctrl.menu.index == 0 and len(labels) == n
        ctrl.press(keys.UP)
        assert ctrl.menu.index == n - 1 and ctrl.menu.label(ctrl, n - 1) == "Rules"
        assert ("Sound: on" in labels) == sound and ("Lights: on" in labels) == sound


def test_the_menu_gives_its_window_of_lines_without_a_screen():
    """``Menu.view`` says what the panel shows (no displayio): the window follows the marked line."""
    ctrl = Controller(engine.Game(deal=7))
    ctrl.press(keys.SELECT)
    menu = ctrl.menu
    n = len(menu.items)
    for _ in range(n):
        lines, at = menu.view(ctrl, 4, 26)
        assert len(lines) == 4 and 0 <= at < 4 and len({len(line) for line in lines}) == 1
        assert lines[at].strip().rstrip("^v").strip() == menu.label(ctrl, menu.index)
        assert lines[0].endswith("^") == (menu.index > 3) and lines[3].endswith("v") == (menu.index < n - 1)
        ctrl.press(keys.DOWN)


def test_ruleset_switches_an_untouched_deal_at_once_and_a_begun_one_from_the_next_deal():
    from sultan.ui.menu import M_RULESET

    g = engine.Game(deal=7)
    ctrl = Controller(g, rand_deal=lambda: 31)
    ctrl.open(MENU)
    assert ctrl.menu.label(ctrl, ctrl.menu.at(M_RULESET)) == "Ruleset: seed"
    ctrl.open(PLAY)
    press_all(ctrl, menu_keys(ctrl, M_RULESET))
    # nothing played yet: the same deal, now under classic rules
    assert g.rules == engine.RULES_CLASSIC and g.deal == 7 and ctrl.rules == engine.RULES_CLASSIC
    assert snapshot(g) == snapshot(engine.Game(deal=7, rules=engine.RULES_CLASSIC))
    assert ctrl.menu.label(ctrl, ctrl.menu.at(M_RULESET)) == "Ruleset: classic"
    ctrl.press(keys.START)
    press_all(ctrl, menu_keys(ctrl, M_RULESET))  # back to seed: this game stays classic ...
    assert g.rules == engine.RULES_CLASSIC and g.moves == 1 and ctrl.message == "next deal: seed rules"
    press_all(ctrl, menu_keys(ctrl, M_RESTART))  # ... a restart replays it as it was ...
    assert g.rules == engine.RULES_CLASSIC and g.deal == 7 and g.moves == 0
    press_all(ctrl, menu_keys(ctrl, M_NEW))  # ... and the next deal is seed
    assert g.rules == engine.RULES_SEED and g.deal == 31


def test_settings_pack_and_unpack():
    from sultan.ui.controller import settings_rules
    from sultan.ui.menu import M_LIGHTS, M_RULESET, M_SOUND

    ctrl = Controller(engine.Game(deal=7), sound=True)
    assert ctrl.settings() == 0  # every default is 0: a record from before settings reads as defaults
    press_all(ctrl, menu_keys(ctrl, M_SOUND))
    assert not ctrl.sound_on and ctrl.settings() == 1 and ctrl.message == "sound off"
    press_all(ctrl, menu_keys(ctrl, M_LIGHTS))
    press_all(ctrl, menu_keys(ctrl, M_RULESET))
    bits = ctrl.settings()
    assert bits == 1 | 2 | engine.RULES_CLASSIC << 2 and settings_rules(bits) == engine.RULES_CLASSIC
    other = Controller(engine.Game(deal=8), settings=bits)
    assert (other.sound_on, other.lights_on, other.rules) == (False, False, engine.RULES_CLASSIC)
    assert other.game.rules == engine.RULES_SEED  # the game on show keeps its own rules
    assert settings_rules(3 << 2) == engine.RULES_SEED  # an unknown ruleset reads as seed


def test_winnable_deal_from_the_menu_is_in_the_table_and_marked():
    from sultan.rules import winnable
    from sultan.ui.menu import M_RULESET, M_WINNABLE

    for rules in (engine.RULES_SEED, engine.RULES_CLASSIC):
        ctrl = Controller(engine.Game(deal=999999), rand_deal=lambda: 123457)  # beyond both tables
        if rules:
            press_all(ctrl, menu_keys(ctrl, M_RULESET))
        assert not ctrl.winnable
        press_all(ctrl, menu_keys(ctrl, M_WINNABLE))
        g = ctrl.game
        assert g.deal == winnable.random_deal(123457, rules) and g.rules == rules and g.moves == 0
        assert winnable.is_winnable(g.deal, rules) and ctrl.winnable
        assert ctrl.message == "winnable deal %d" % g.deal and ctrl.event == "deal"
        # the mark follows the deal: a deal not in the table has none
        press_all(ctrl, menu_keys(ctrl, M_CHOOSE) + [keys.A])  # the editor starts at this deal
        assert ctrl.winnable
        ctrl.new_deal(999999)
        assert not ctrl.winnable
    # seed rules: every deal in the table is won by canonical autoplay
    g = engine.Game(deal=winnable.random_deal(99, 0))
    assert g.autoplay() == engine.WON


def test_a_deal_beyond_the_winnable_table_needs_no_lookup(monkeypatch):
    """winnable.LAST_SEED and LAST_CLASSIC are the tables' highest deals (``make winnable``
    writes them); a deal above is not looked up: the module is not imported (21 ms on the Pico
    for nearly every random deal), and the marks stay exact on both sides of that end."""
    import builtins

    from sultan.rules import winnable

    for rules in (engine.RULES_SEED, engine.RULES_CLASSIC):
        t = winnable.open_table(rules)
        last, first = t.deal(t.count - 1), t.deal(0)
        t.close()
        assert last == (winnable.LAST_CLASSIC if rules else winnable.LAST_SEED)
        ctrl = Controller(engine.Game(deal=first, rules=rules))
        assert ctrl.winnable
        imports = []
        real = builtins.__import__

        def watch(name, *args, imports=imports, real=real, **kw):
            if name == "sultan.rules" and "winnable" in (args[2] if len(args) > 2 and args[2] else ()):
                imports.append(name)
            return real(name, *args, **kw)

        monkeypatch.setattr(builtins, "__import__", watch)
        for deal in (last + 1, 999999999):
            ctrl.new_deal(deal, rules)
            assert not ctrl.winnable
        assert imports == []
        ctrl.new_deal(last, rules)  # the table's end itself: looked up, and marked
        assert ctrl.winnable and imports == ["sultan.rules"]
        ctrl.new_deal(first + 1 if not winnable.is_winnable(first + 1, rules) else last - 1, rules)
        assert ctrl.winnable == winnable.is_winnable(ctrl.game.deal, rules)
        monkeypatch.setattr(builtins, "__import__", real)


def test_statistics_page_and_events():
    from sultan.saves.stats import Stats
    from sultan.ui.menu import M_STATS
    from sultan.ui.modes import STATS_PAGE

    st = Stats()
    st.record(0, True, 95)
    ctrl = Controller(engine.Game(deal=7), stats=st)
    press_all(ctrl, menu_keys(ctrl, M_STATS))
    assert ctrl.mode == STATS_PAGE and ctrl.stats is st
    ctrl.press(keys.B)
    assert ctrl.mode == PLAY and ctrl.game.moves == 0  # B left the page, it did not undo
    ctrl.press(keys.A)
    assert ctrl.event == ""  # a selection makes no sound
    ctrl.press(keys.RIGHT)
    ctrl.press(keys.A)
    assert ctrl.event == "refuse"


@pytest.mark.micropython
def test_keys_allocate_nothing_in_the_controller(mpy):
    """A cursor move, a turn, a select and its cancel, the menu opened, scrolled and closed: no heap byte
    allocated by the controller (MicroPython VM, gc disabled), in either language."""
    code = (
        "import gc\n"
        "from sultan.rules import engine\n"
        "from sultan.ui import keys\n"
        "from sultan.ui.controller import Controller, S_RUSSIAN\n"
        "for bits in (0, S_RUSSIAN):\n"
        "    c = Controller(engine.Game(deal=7), settings=bits)\n"
        "    for k in (keys.RIGHT, keys.SELECT, keys.B, keys.START):\n"
        "        c.press(k)\n"
        "    ks = [keys.RIGHT, keys.DOWN, keys.LEFT, keys.UP] * 10 + [keys.START] * 10\n"
        "    ks += [keys.A, keys.B] * 10 + [keys.SELECT, keys.DOWN, keys.UP, keys.B] * 5\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_free()\n"
        "    for k in ks:\n"
        "        c.press(k)\n"
        "    print(a - gc.mem_free())\n"
        "    gc.enable()\n"
    )
    # 256K: the VM compiles menu.py from source at the first SELECT, in one 3.5 KB block, and in 128K the
    # heap's free space can lie in smaller pieces (a clone whose path was 6 characters longer failed so)
    assert mpy(code, heap="256K").split() == ["0", "0"]


def test_the_menus_hint_points_at_no_losing_move():
    """Classic rules: when the lookahead finds no move that keeps the deal winnable, the menu's Hint says
    so and rings nothing, instead of pointing at a losing one."""
    g = engine.Game(deal=1, rules=engine.RULES_CLASSIC)
    for _ in range(42):  # a careless player: the stock turned, nothing played
        assert g.safe_hint() != engine.NO_SAFE_MOVE
        assert g.turn() == engine.OK or g.redeal() == engine.OK
    for _ in range(2):  # then the sure plays, always safe, up to a real choice
        assert g.act(g.safe_hint()) == engine.OK
    assert g.safe_hint() == engine.NO_SAFE_MOVE and g.hint()  # a move exists; none known to win
    ctrl = Controller(g)
    press_all(ctrl, menu_keys(ctrl, M_HINT, up=True))
    assert ctrl.message == "no safe move found" and ctrl.hint == 0 and ctrl.mode == PLAY


def test_a_redeal_is_said_by_the_status_line_not_a_message():
    """START on the empty stock redeals: the sound's "redeal" event, the status line's pass and the
    stock's count say so, and the message line stays clear (so the turn after it clears nothing)."""
    ctrl = Controller(engine.Game(deal=7))
    g = ctrl.game
    while g.stock_count:
        ctrl.press(keys.START)
    assert g.pass_no == 1
    ctrl.press(keys.START)
    assert g.pass_no == 2 and g.stock_count and ctrl.event == "redeal" and ctrl.message == ""
    assert "pass 2/3" in words.status_text(g, 26)
    ctrl.press(keys.START)
    assert ctrl.message == "" and g.talon_count == 1


def test_the_menus_first_open_reads_its_labels_and_the_pause_after_it_the_rest():
    """The first menu shows labels only (its first lines have no switch), so ``words.MENU_TEXT`` waits
    for the pause after it (``Controller.idle``, from the main loop's idle passes); an idle table reads
    nothing."""
    words.use(words.EN)
    ctrl = Controller(engine.Game(deal=7))
    ctrl.idle()
    assert words.MENU_ITEMS is None and words.MENU_TEXT is None
    ctrl.press(keys.SELECT)
    assert [ctrl.menu.label(ctrl, i) for i in range(5)][0] == "New random deal"   # as the screen shows it
    assert words.MENU_ITEMS is not None and words.MENU_TEXT is None
    ctrl.idle()
    assert words.MENU_TEXT[MENU_TEXT_OFF] == ": off"


def test_the_pause_after_the_first_key_makes_the_menu_so_its_first_open_loads_nothing():
    """Before any key a pause makes nothing (a board left untouched holds no menu); the pause after
    the first key makes the menu and reads its labels, not what it says (``MENU_TEXT``, read while it is
    up), and the first SELECT then opens that menu, where it was left."""
    words.use(words.EN)
    ctrl = Controller(engine.Game(deal=7), sound=True)
    ctrl.idle()
    assert ctrl.menu is None and words.MENU_ITEMS is None
    ctrl.press(keys.RIGHT)
    assert ctrl.menu is None  # the key itself does not wait for it
    ctrl.idle()
    made = ctrl.menu
    assert made is not None and made.index == 0 and ctrl.mode == PLAY
    assert words.MENU_ITEMS is not None and words.MENU_TEXT is None
    assert M_SOUND in made.items  # made for the board: its switches shown
    ctrl.idle()
    assert ctrl.menu is made
    ctrl.press(keys.SELECT)
    assert ctrl.mode == MENU and ctrl.menu is made and made.label(ctrl, 0) == "New random deal"
