"""The device benchmark's key plans, made on the host by the game's own Controller: each key's kind
and its predicted ``SULTAN key=`` line."""

import re

from sultan.rules import engine as E
from sultan.ui import controller as C
from sultan.ui import keys as K
from sultan.ui import menu as Mn


# ------------------------------------------------------------------ the key plan (host)
class Model:
    """The game's Controller on the host, fed the same keys as the device; ``sound``: the device's
    menu has the Sound and Lights switches (the PyBadge's)."""

    def __init__(self, deal, sound=False):
        game = E.Game(deal=deal, rules=C.settings_rules(0))
        self.ctrl = C.Controller(game, lambda: 1, sound, None, 0)
        self.number = {name: i for i, name in enumerate(K.NAMES)}

    def state(self):
        c, g = self.ctrl, self.ctrl.game
        return {
            "mode": c.mode,
            "cursor": c.cursor,
            "selected": c.selected,
            "placed": g.placed,
            "pass": g.pass_no,
        }

    def line(self, name):
        g = self.ctrl.game
        return "SULTAN key=%s placed=%d pass=%d status=%s" % (
            name,
            g.placed,
            g.pass_no,
            E.STATUS_NAMES[g.status()],
        )

    def press(self, name):
        """Press ``name`` on the model; returns (kind, predicted SULTAN key= line)."""
        before = self.state()
        self.ctrl.press(self.number[name])
        after = self.state()
        event = self.ctrl.event
        bm, am = before["mode"], after["mode"]
        if am == C.OVER and bm != C.OVER:
            kind = "won/lost panel"
        elif event == "redeal":
            kind = "redeal"
        elif event == "deal":
            kind = "new deal"
        elif bm == C.PLAY:
            if name in ("UP", "DOWN", "LEFT", "RIGHT"):
                kind = "cursor move"
            elif event == "place":
                kind = "play"
            elif am == C.MENU:
                kind = "menu open"
            elif name == "B":
                kind = "cancel" if before["selected"] != after["selected"] else "undo"
            elif name == "A" and after["selected"] != before["selected"] and after["selected"] != C.NONE:
                kind = "select"
            elif name in ("START", "A") and after["pass"] == before["pass"] and event != "refuse":
                kind = "turn"
            else:
                kind = "refused"
        elif bm == C.MENU:
            if am == C.MENU:
                kind = "menu scroll"
            elif self.is_page(am):
                kind = "page open"
            elif am == C.DEAL:
                kind = "digit editor open"
            elif am == C.PLAY and name in ("B", "SELECT"):
                kind = "menu close"
            else:
                kind = "menu item"
        elif self.is_page(bm):
            kind = "page close"
        elif bm == C.DEAL:
            kind = "digit change" if am == C.DEAL else "digit editor close"
        elif am != C.OVER:
            kind = "won/lost panel close"
        else:
            kind = "panel key"
        return kind, self.line(name)

    def is_page(self, mode):
        """A text page (Rules, Statistics, ...): any mode but play, menu, digit editor, panel."""
        return mode not in (C.PLAY, C.MENU, C.DEAL, C.OVER)

    def menu_to(self, item):
        """Keys that move the open menu's marker to ``item`` (an M_* number), the short way."""
        menu = self.ctrl.menu or Mn.Menu(self.ctrl.has_sound)  # (never opened yet: opens as a new one)
        items = menu.items
        n = len(items)
        i = items.index(item)
        down = (i - menu.index) % n
        return ["DOWN"] * down if down <= n - down else ["UP"] * (n - down)


def plan(deal, sound=False):
    """[(key word for emulate.js, kind, predicted line or None)]: the benchmark's key plan (``sound``:
    for a board whose menu has the Sound and Lights switches)."""
    m = Model(deal, sound)
    out = []

    def press(*names):
        for name in names:
            kind, line = m.press(name)
            out.append((name, kind, line))

    press("RIGHT", "DOWN", "LEFT", "UP", "RIGHT", "RIGHT")
    press("START", "START", "START")
    # select and play: the nearest card (by cursor moves) that goes home; turn more if none does
    for _ in range(30):
        path = _find_play(deal, [w for w, _k, _l in out], sound)
        if path is not None:
            press(*path)
            break
        press("START")
    # select, then cancel
    if m.ctrl.cursor < C.TALON and m.ctrl.game.card_at(m.ctrl.cursor):
        press("A")
        if out[-1][1] == "select":
            press("B")
    # the menu: open, scroll, close
    press("SELECT", "DOWN", "DOWN", "DOWN", "UP", "UP", "UP", "B")
    # the pages
    for item in (Mn.M_RULES, Mn.M_STATS):
        press("SELECT", *m.menu_to(item))
        press("A", "B")
    # the digit editor
    press("SELECT", *m.menu_to(Mn.M_CHOOSE))
    press("A", "UP", "LEFT", "DOWN", "B")
    def burst_until(want):
        """START pressed in a burst (not timed) up to the press of kind ``want``, which is timed;
        False if the game never gets there."""
        n = _starts_until(deal, [w for w, _k, _l in out], want, sound=sound)
        if n is None:
            return False
        if n > 1:
            for _ in range(n - 1):
                m.press("START")
            out.append(("START*%d!" % (n - 1), "burst", None))
        press("START")
        return True

    # empty the stock, then the redeal and two turns; then on until the game is lost: the
    # won/lost panel, and B (an undo) to close it
    if burst_until("redeal"):
        press("START", "START")
        if burst_until("won/lost panel"):
            press("B")
    # a new random deal (the device's differs from the host's: nothing is predicted after it)
    press("SELECT", *m.menu_to(Mn.M_NEW))
    press("A")
    out[-1] = (out[-1][0], out[-1][1], None)
    out += [
        ("RIGHT", "cursor move", None),
        ("START", "turn", None),
        ("SELECT", "menu open", None),
        ("B", "menu close", None),
    ]
    return out


WON_DEAL = 322  # with autoplay on, START wins it in 121 presses from the deal (test_screen_emulator)
CASCADE_WAIT_MS = 3000  # the cascade runs this long (simulated) before the key that ends it


def anim_plan(deal=WON_DEAL, sound=False):
    """[(key word, kind, predicted line or None)]: every animation on a deal that autoplay wins --
    the hint's card, a player's move, its undo and redo, three turns, the restart's deal, autoplay's
    steps after the winning START (the START before it in a burst, not timed), then the cascade for
    ``CASCADE_WAIT_MS`` before a key ends it; ``sound`` as for ``plan``."""
    from sultan_host.scripted import route

    m = Model(deal, sound)
    g = m.ctrl.game
    out = []

    def press(*names):
        for name in names:
            kind, line = m.press(name)
            out.append((name, kind, line))

    def choose(item):
        press("SELECT", *m.menu_to(item))
        press("A")

    for _ in range(30):  # turns until the hint is a card to play
        if E.hint_kind(g.hint()) == E.A_PLAY:
            break
        press("START")
    choose(Mn.M_HINT)  # its card slides to its foundation
    press(*(K.NAMES[k] for k in route(m.ctrl.cursor, E.hint_place(m.ctrl.hint))))
    press("A", "A")  # the player's move
    press("B")  # the undo: back to its slot
    choose(Mn.M_REDO)  # and home again
    press("START", "START", "START")
    choose(Mn.M_RESTART)  # the deal, dealt from the stock
    choose(Mn.M_AUTO)
    trial = _replay(deal, [w for w, _k, _l in out], sound)  # how many STARTs win it
    n = 0
    while trial.ctrl.mode != C.OVER and n < 400:
        trial.press("START")
        n += 1
    if trial.ctrl.game.status() != E.WON:
        return out
    if n > 1:
        for _ in range(n - 1):
            m.press("START")
        out.append(("START*%d!" % (n - 1), "burst", None))
    press("START")  # the win: autoplay's last steps, then the cascade
    out[-1] = (out[-1][0], "autoplay", out[-1][2])
    out.append(("WAIT:%d" % CASCADE_WAIT_MS, "wait", None))
    press("RIGHT")  # ends the cascade: the won panel
    return out


def _replay(deal, words, sound=False):
    m = Model(deal, sound)
    for w in words:
        mm = re.fullmatch(r"([A-Z]+)\*(\d+)!", w)
        for _ in range(int(mm.group(2)) if mm else 1):
            m.press(mm.group(1) if mm else w)
    return m


def _find_play(deal, words, sound=False):
    """Cursor keys + A + A that play a card home from the state after ``words``, or None."""
    start = _replay(deal, words, sound)
    seen = {start.ctrl.cursor}
    frontier = [[]]
    for _depth in range(7):
        nxt = []
        for path in frontier:
            for key in ("RIGHT", "LEFT", "DOWN", "UP"):
                p = path + [key]
                m = _replay(deal, words + p, sound)
                if m.ctrl.cursor in seen:
                    continue
                seen.add(m.ctrl.cursor)
                nxt.append(p)
                kind1, _ = m.press("A")
                if kind1 != "select":
                    continue
                kind2, _ = m.press("A")
                if kind2 == "play":
                    return p + ["A", "A"]
        frontier = nxt
    return None


def _starts_until(deal, words, want, limit=400, sound=False):
    """How many START presses from the state after ``words`` until one of kind ``want`` ("redeal",
    "won/lost panel"); None if the game ends first, or never within ``limit``."""
    m = _replay(deal, words, sound)
    for n in range(1, limit + 1):
        kind, _line = m.press("START")
        if kind == want:
            return n
        if kind == "won/lost panel":
            return None
    return None
