"""Cards that travel (sultan.ui.motion): slides, a new deal dealt, the interrupt, the
switch and its save bit.  Frames come from ``sultan_host.desktop.movie`` on a frame clock, so no
test depends on the host's speed."""

import numpy as np
import pytest
from sultan.nostore import NoStore
from sultan.rules import engine
from sultan.saves import record
from sultan.ui import keys, motion
from sultan.ui.controller import S_MOTION_OFF, Controller
from sultan.ui.layout import F0, STOCK, TALON
from sultan.ui.menu import M_AUTO, M_HINT, M_MOTION
from sultan_host.desktop import movie
from sultan_host.desktop.screenshot import render
from sultan_host.snapshot import snapshot

PLAY_DEAL = 8  # A A sends the A of diamonds from divan slot 0 to a foundation


class MotionOff(NoStore):
    settings = S_MOTION_OFF


def still(deal, size, script, store=None):
    """The picture and controller after ``script`` with motion off (one frame per key)."""
    store = store or MotionOff()
    store.settings = S_MOTION_OFF
    img, ctrl = render(deal, size, script, store=store)
    return np.asarray(img), ctrl


def last(display):
    from sultan_host.desktop.headless import to_image

    return np.asarray(to_image(display.shots[-1][1]))


def key_frames(display, lines, n):
    """How many frames the animation of the ``n``-th key drew (from its SULTAN anim line)."""
    seen = 0
    for i, line in enumerate(lines):
        if line.startswith("SULTAN key="):
            seen += 1
            if seen == n:  # the animation's line comes just before its key's
                before = lines[i - 1]
                return int(before.split("frames=")[1].split()[0]) if before.startswith("SULTAN anim=") else 0
    raise AssertionError("no key %d in %r" % (n, lines))


@pytest.mark.parametrize("size", ["160x128", "320x240"])
def test_a_play_slides_to_its_foundation_and_ends_on_the_still_frame(size):
    g = engine.Game(deal=PLAY_DEAL)
    f = g.where[g.card_at(0)] - 1
    d, ctrl, lines = movie.record(PLAY_DEAL, size, "A A")
    assert ctrl.game.placed == 1
    frames = key_frames(d, lines, 2)
    assert 3 <= frames <= 8  # 100 ms at 20 ms a frame
    # the frames between the two keys' lines: the card's box moves from slot 0 towards its foundation
    shots = [fb for _t, fb in d.shots[-frames - 1:-1]]
    s = 2 if size == "320x240" else 1
    from sultan.ui.build import layout

    lay = layout(*(int(v) for v in size.split("x")))
    x0, _y0 = lay.place_xy(0)
    x1, _y1 = lay.place_xy(F0 + f)
    centres = []
    for a, b in zip(shots, shots[1:] + [d.shots[-1][1]], strict=False):
        xs = np.nonzero((a != b).any(axis=0))[0]
        centres.append(xs.mean() / s)
    assert centres == sorted(centres)  # left to right, never back
    assert x0 <= centres[0] and centres[-1] <= x1 + 22
    # the last frame is the picture the same keys give with motion off
    want, _ = still(PLAY_DEAL, size, "A A")
    assert (last(d) == want).all()


def test_a_plays_first_frame_is_its_rings_and_counts_the_card_still_in_its_place():
    """The lift: the key's answer at once, without the place the card leaves (its slide's first
    frame repaints that, under the card), which at 2x is a card's 2,640 pixels and more."""
    from sultan.ui.build import layout
    from sultan.ui.layout import CARD_H, CARD_W, RING

    d, ctrl, lines = movie.record(PLAY_DEAL, "320x240", "A A")
    assert ctrl.game.placed == 1
    said = [i for i, line in enumerate(lines) if line.startswith("SULTAN key=")][1]
    lift = d.said[said - 1] - key_frames(d, lines, 2)  # the second key's first frame
    lay = layout(320, 240)
    s = lay.scale
    x, y = lay.place_xy(0)
    m = 2 * RING  # inside the rings, which the lift takes away
    box = (slice((y + m) * s, (y + CARD_H - m) * s), slice((x + m) * s, (x + CARD_W - m) * s))
    before, first, second = d.shots[lift - 1][1], d.shots[lift][1], d.shots[lift + 1][1]
    assert (first != before).any()  # the selection's ring goes
    assert (first[box] == before[box]).all()  # the card still in its place
    assert not (second[box] == before[box]).all()  # then it leaves it
    assert 0 < d.sent[lift] < CARD_W * CARD_H * s * s


def test_a_key_during_a_slide_ends_it_and_is_handled():
    # START comes right after the slide's first frame: the slide stops, START turns a card
    d, ctrl, lines = movie.record(PLAY_DEAL, "160x128", "A A START", at_once=(2,))
    keys_said = [line.split()[1] for line in lines if line.startswith("SULTAN key=")]
    assert keys_said == ["key=A", "key=A", "key=START"]  # no key lost
    assert key_frames(d, lines, 2) == 1  # cut short after its first frame
    want, ref = still(PLAY_DEAL, "160x128", "A A START")
    assert snapshot(ctrl.game) == snapshot(ref.game) and ctrl.game.talon_count == 1
    assert (last(d) == want).all()


def test_undo_slides_back_and_a_turn_slides_to_the_talon():
    d, ctrl, lines = movie.record(PLAY_DEAL, "160x128", "A A B START")
    assert key_frames(d, lines, 3) >= 3  # B: the card back to its slot
    assert key_frames(d, lines, 4) >= 3  # START: stock to talon
    assert motion.ends(engine.A_TURN << 8) == (STOCK, TALON)
    want, ref = still(PLAY_DEAL, "160x128", "A A B START")
    assert snapshot(ctrl.game) == snapshot(ref.game)
    assert (last(d) == want).all()


def test_a_new_deal_is_dealt_from_the_stock():
    d, ctrl, lines = movie.record(7, "320x240", "SELECT A")  # New random deal (rand_deal gives 1)
    assert ctrl.game.deal == 1
    line = [x for x in lines if x.startswith("SULTAN anim=")][-1]
    assert line.startswith("SULTAN anim=deal frames=")
    n = key_frames(d, lines, 2)
    assert n >= len(motion.DEAL_ORDER) - 2  # nearly every card is seen on its way (20 ms a frame)
    assert int(line.split("ms=")[1]) <= 600
    want, _ = still(7, "320x240", "SELECT A")
    assert (last(d) == want).all()


def test_each_autoplay_step_is_seen_and_the_game_is_the_same():
    ctrl = Controller(engine.Game(deal=PLAY_DEAL), settings=0)
    script = []

    def press(name):
        ctrl.press(keys.NAMES.index(name))
        script.append(name)

    press("SELECT")
    while ctrl.menu.items[ctrl.menu.index] != M_AUTO:
        press("DOWN")
    press("A")  # autoplay on: plays what fits at once
    moves_before = ctrl.game.moves
    press("START")
    while ctrl.game.moves - moves_before < 3:  # a key after which autoplay played at least twice
        moves_before = ctrl.game.moves
        press("START")
    steps = ctrl.game.moves - moves_before
    slides = []
    real = motion.Animation.slide

    def counting(self, src, dst, card, ms):
        slides.append((src, dst))
        return real(self, src, dst, card, ms)

    motion.Animation.slide = counting
    try:
        d, got, lines = movie.record(PLAY_DEAL, "160x128", " ".join(script))
    finally:
        motion.Animation.slide = real
    assert snapshot(got.game) == snapshot(ctrl.game)
    # the last key's slides: one per logged action (a turn, then each card autoplay sent home)
    assert len(slides) >= steps and slides[-steps][0] == STOCK
    assert all(dst >= F0 for _src, dst in slides[-steps + 1:])
    want, _ = still(PLAY_DEAL, "160x128", " ".join(script))
    assert (last(d) == want).all()


def test_the_menu_switch_and_its_save_bit():
    ctrl = Controller(engine.Game(deal=7), settings=0)
    assert ctrl.motion_on and not ctrl.settings() & S_MOTION_OFF  # an old save's 0: motion on
    ctrl.press(keys.SELECT)
    while ctrl.menu.items[ctrl.menu.index] != M_MOTION:
        ctrl.press(keys.DOWN)
    assert ctrl.menu.label(ctrl, ctrl.menu.index) == "Motion: on"
    ctrl.press(keys.A)
    assert not ctrl.motion_on and ctrl.message == "motion off"
    bits = ctrl.settings()
    assert bits & S_MOTION_OFF
    assert Controller(engine.Game(deal=7), settings=bits).motion_on is False
    # the bit rides in the record's flags byte (bit 6) and comes back
    assert bits <= record.SETTINGS_MASK and record.F_KNOWN & S_MOTION_OFF << 1


def test_with_motion_off_no_frame_is_added():
    d, ctrl, lines = movie.record(PLAY_DEAL, "160x128", "A A B", store=MotionOff())
    assert not [x for x in lines if x.startswith("SULTAN anim=")]
    assert d.refreshes == 1 + 3


def near_win():
    """(deal, store, keys): a won deal taken back one move, a store that resumes it, and the keys
    that make the last move (walk to its card, A, A)."""
    from sultan_host import scripted

    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.WON)

    def one_move_left():
        g = engine.Game(deal=deal)
        g.autoplay()
        g.undo()
        return g

    h = one_move_left().hint()
    assert engine.hint_kind(h) == engine.A_PLAY

    class Near(NoStore):
        def load(self):
            return one_move_left()

    walk = [keys.NAMES[k] for k in scripted.route(0, engine.hint_place(h))]
    return deal, Near, walk + ["A", "A"]


def test_a_win_cascades_until_a_key_then_the_won_panel():
    from sultan.ui.modes import OVER

    deal, near, script = near_win()
    d, ctrl, lines = movie.record(deal, "160x128", " ".join(script + ["RIGHT"]), gap_ms=1500, store=near())
    assert ctrl.mode == OVER and ctrl.game.status() == engine.WON
    cascade = [x for x in lines if x.startswith("SULTAN anim=cascade")]
    assert len(cascade) == 1 and lines[-2] == cascade[0]  # said before the key that ended it
    n = int(cascade[0].split("frames=")[1].split()[0])
    # a frame each 40 ms, start to start, for the 1.5 s gap: its own 20 ms of drawing inside the period
    assert 1500 // 45 <= n <= 1500 // motion.CASCADE_MS
    assert lines[-1].startswith("SULTAN key=RIGHT ") and "status=won" in lines[-1]
    # the key's frame: the won panel over the table as it was, no card of the cascade left
    want, _ = still(deal, "160x128", " ".join(script), store=near())
    assert (last(d) == want).all()
    # the cascade's frames differ from one another: cards in the air
    mid = [fb for _t, fb in d.shots[-n:-1]]
    assert sum(1 for a, b in zip(mid, mid[1:], strict=False) if (a != b).any()) > n // 2


def test_the_winning_frame_is_the_table_and_the_cascade_leaves_nothing_behind():
    deal, near, script = near_win()
    # the winning key's own frame (what the emulator photographs at its line): the won table, the
    # panel held back for the cascade, which starts in the loop's idle passes after it
    img, ctrl = render(deal, "320x240", " ".join(script), store=near())
    assert ctrl.game.status() == engine.WON
    table = np.asarray(img)
    panel, _ = still(deal, "320x240", " ".join(script), store=near())
    rows, cols = np.nonzero((table != panel).any(axis=-1))
    from sultan.ui.build import layout

    lay = layout(320, 240)
    x0, y0 = lay.panel_frame[:2]
    assert len(rows) and rows.min() >= y0 + lay.panel_rect(0)[1] * 2 and cols.min() >= x0
    # a cascade ended by a key leaves no object behind: the board's layers as before it
    d, ctrl, lines = movie.record(deal, "320x240", " ".join(script + ["B"]), gap_ms=400, store=near())
    assert any(x.startswith("SULTAN anim=cascade") for x in lines)
    import displayio

    board = [g for g in d.root_group if isinstance(g, displayio.Group) and g.scale == 2][0]
    # the objects made at start (40, then the panel's lines and its marker), and the flyer
    assert len(board) == 40 + lay.panel_lines + 1 + 1


def test_the_gif_tool_writes_every_frame_and_refuses_what_is_not_a_gif(tmp_path, capsys):
    from PIL import Image
    from sultan_host.desktop import gif

    out = tmp_path / "game.gif"
    assert gif.main(["--gif", "--deal", str(PLAY_DEAL), "--keys", "A A", "--out", str(out)]) == 0
    with Image.open(out) as im:
        assert im.format == "GIF" and im.n_frames >= 4  # start, the select, the slide's frames, its end
    text = tmp_path / "notes.gif"
    text.write_text("mine")
    assert gif.main(["--gif", "--out", str(text)]) == 2
    assert text.read_text() == "mine"
    assert gif.main(["--gif", "--out", str(tmp_path / "x.png")]) == 2
    assert gif.main(["--gif", "--gap", "5", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("screenshot: ") for line in err)


def key_shots(display, lines):
    """The frame on the screen at each key's ``SULTAN key=`` line (the key's last frame)."""
    return [display.shots[display.said[i] - 1][1] for i, line in enumerate(lines)
            if line.startswith("SULTAN key=")]


@pytest.mark.parametrize("size", ["160x128", "320x240"])
def test_every_animation_ends_on_the_frame_its_key_gives_with_motion_off(size):
    """The emulator's key plan (test_screen_emulator.screens_plan: turns, an undo, a redo, a turn
    and autoplay's step, the hint's card, a player's move, the restart's deal) played with motion
    on and off: after each key the same picture, but where the menu is up (its "Motion: on/off"
    line)."""
    from play_keys import screens_plan
    from sultan.ui.modes import MENU

    plan = screens_plan()
    names = [w.split("*")[0] for w in plan.words]
    model = Controller(engine.Game(deal=7), rand_deal=lambda: 1, settings=0)
    menu = []
    for name in names:
        model.press(keys.NAMES.index(name))
        menu.append(model.mode == MENU)
    script = " ".join(names)
    on, ctrl_on, lines_on = movie.record(7, size, script, store=NoStore())
    off, ctrl_off, lines_off = movie.record(7, size, script, store=MotionOff())
    animated, n = {}, 0  # key index -> its animation's kind
    for line in lines_on:
        if line.startswith("SULTAN anim="):
            animated[n] = line.split()[1][5:]
        n += line.startswith("SULTAN key=")
    assert set(animated.values()) == {"slide", "hint", "deal"}
    assert not any(menu[i] for i in animated)  # every animation's last frame is compared below
    assert not [x for x in lines_off if x.startswith("SULTAN anim=")]
    assert snapshot(ctrl_on.game) == snapshot(ctrl_off.game)
    a, b = key_shots(on, lines_on), key_shots(off, lines_off)
    assert len(a) == len(b) == len(names)
    differ = [i for i in range(len(names)) if not menu[i] and not (a[i] == b[i]).all()]
    assert not differ, "keys %s of %s" % (differ, script)


def test_a_card_chosen_in_the_menu_travels_after_the_menu_has_gone(monkeypatch):
    """On the board a frame costs its pixels (about 6 µs each at 2x, so the menu's closing frame
    takes some 230 ms at 320x240): the hint's card, chosen in the menu, still slides in frames of
    its own after that one, not in the menu's closing frame alone."""
    real = movie.MovieDisplay.refresh

    def by_pixels(self, *args, **kwargs):
        done = real(self, *args, **kwargs)
        self.clock.ms += self.sent_pixels() * 6 // 1000
        return done

    monkeypatch.setattr(movie.MovieDisplay, "refresh", by_pixels)
    deal = 322  # its first hint is a card to play
    model = Controller(engine.Game(deal=deal), rand_deal=lambda: 1, settings=0)
    assert engine.hint_kind(model.game.hint()) == engine.A_PLAY
    script = ["SELECT"]
    model.press(keys.SELECT)
    while model.menu.items[model.menu.index] != M_HINT:
        model.press(keys.DOWN)
        script.append("DOWN")
    d, ctrl, lines = movie.record(deal, "320x240", " ".join(script + ["A"]), store=NoStore())
    line = lines[-2]
    assert line.startswith("SULTAN anim=hint ") and ctrl.hint
    first, ms = int(line.split("first=")[1].split()[0]), int(line.split("ms=")[1])
    assert first >= 150  # the menu's closing frame, before the slide's clock starts
    assert key_frames(d, lines, len(script) + 1) >= 3 and ms >= motion.SLIDE_MS // 2  # then the card


def test_a_sound_made_at_the_first_play_waits_for_its_slide():
    """The board's Sound is made at its first event (sultan.app.Silent), but by the main loop, not
    between the slide's frames: making it (about 50 ms on the PyBadge) would hold up the first frame."""
    from sultan import app

    made, heard = [], []

    class Heard:
        def event(self, name):
            heard.append(name)

        def update(self, idle=True):
            pass

        def set_sound(self, on):
            pass

        set_lights = set_sound

    def make():
        made.append(clock())  # the frame clock's time: when it was made
        return Heard()

    clock = movie.FrameClock()
    d, ctrl, lines = movie.record(PLAY_DEAL, "160x128", "A A", sound=app.Silent(make), clock=clock)
    frames = key_frames(d, lines, 2)
    assert ctrl.game.placed == 1 and frames >= 3 and heard == ["place"]
    slide_end = d.shots[d.said[-1] - 1][0]  # the key's last frame, its line said after it
    assert len(made) == 1 and made[0] >= slide_end
