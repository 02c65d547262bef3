"""Key scripts the tests play: a menu item chosen by its keys, a whole deal by buttons, and the
emulator's key plans (``Plan``: names for ``--keys``, worked out by the game's own Controller)."""

from sultan.rules import engine
from sultan.ui import keys, words
from sultan.ui.controller import Controller
from sultan.ui.layout import F0, STOCK
from sultan.ui.menu import (
    M_AUTO,
    M_CHOOSE,
    M_COLOURS,
    M_HINT,
    M_LANGUAGE,
    M_REDO,
    M_RESTART,
    M_RULES,
    M_STATS,
    Menu,
)
from sultan.ui.modes import OVER
from sultan_host.scripted import route


def menu_keys(ctrl, item, up=False):
    """Keys that open the menu (it opens where it was left) and choose ``item`` (an M_* number) by
    its place in ``ctrl.menu.items``, walking down (or ``up``, wrapping round the top)."""
    m = ctrl.menu or Menu(ctrl.has_sound)  # (a menu never opened opens as a new one)
    n = len(m.items)
    at = m.at(item)
    assert at >= 0, words.menu_items()[item]
    down = (at - m.index) % n
    walk = [keys.UP] * ((n - down) % n) if up else [keys.DOWN] * down
    return [keys.SELECT] + walk + [keys.A]


def script_for(deal, style=0):
    """Button presses that play ``deal`` the way the canonical policy does.

    style 0: select + walk to the foundation + A; style 1: double-A; style 2 mixes,
    and turns the stock with the cursor on it instead of START.
    """
    g = engine.Game(deal=deal)
    cursor = 0
    out = []
    n = 0
    while True:
        h = g.hint()
        k = engine.hint_kind(h)
        if not h:
            break
        if k == engine.A_PLAY:
            p = engine.hint_place(h)
            f = F0 + engine.hint_foundation(h)
            out += route(cursor, p) + [keys.A]
            if style == 1 or (style == 2 and n % 2):
                out.append(keys.A)
                cursor = p
            else:
                out += route(p, f) + [keys.A]
                cursor = f
        elif k == engine.A_TURN and not (style == 2 and n % 3 == 0):
            out.append(keys.START)
        else:
            out += route(cursor, STOCK) + [keys.A]
            cursor = STOCK
        g.step()
        n += 1
    return out


TABLE = "RIGHT A START START DOWN RIGHT A A LEFT B"
WON_DEAL = 322  # with autoplay on, START wins it in 121 presses (lost: 126 for deal 101)
LOST_DEAL = 101
CASCADE_WAIT_MS = 3000  # the won game's cascade runs this long (simulated) before the key that ends it


class Plan:
    """Key names for the emulator, worked out by the game's own Controller on the host."""

    def __init__(self, deal, sound=False):
        # English; ``sound``: the board's menu has the Sound and Lights switches (the PyBadge's has)
        self.ctrl = Controller(engine.Game(deal=deal), rand_deal=lambda: 1, sound=sound, settings=0)
        self.words = []

    def press(self, *names, burst=False):
        for name in names:
            self.ctrl.press(keys.NAMES.index(name))
            self.words.append(name + ("*1!" if burst else ""))
        return self

    def choose(self, item):
        """Open the menu, walk to ``item`` the short way (the menu opens where it was left; UP and
        DOWN wrap) and press A."""
        c = self.ctrl
        self.press("SELECT")
        n = len(c.menu.items)
        down = (c.menu.at(item) - c.menu.index) % n
        self.press(*(["DOWN"] * down if 2 * down <= n else ["UP"] * (n - down)))
        return self.press("A")

    def keys(self):
        """The --keys words; bursts of one key merged ("START*120!")."""
        out = []
        for w in self.words:
            if out and w.endswith("!") and out[-1].endswith("!") and out[-1].split("*")[0] == w.split("*")[0]:
                name, n = out[-1][:-1].split("*")
                out[-1] = "%s*%d!" % (name, int(n) + 1)
            else:
                out.append(w)
        return " ".join(out)


def screens_plan(sound=False):
    """Deal 7 with every animation but the cascade (its end is over_plan's): each photographed
    key's screen is its animation's last frame -- turns and an undo (TABLE), a redo, a turn with
    autoplay's step after it, an undo of that step, the hint's card, a player's move, and the
    restart's deal.  ``sound``: for a board that can sound and light (its menu is longer)."""
    p = Plan(7, sound)
    p.press(*TABLE.split())  # two turns slide to the talon; B slides the second back to the stock
    p.choose(M_REDO).press("START", "START", "START")  # the redo and three turns slide
    p.choose(M_AUTO).press("START")  # autoplay on: a turn, then the card it sends home
    p.press("B")  # that card slides back
    p.choose(M_HINT)  # it is the hint: it slides to its foundation and vanishes there
    p.press(*(keys.NAMES[k] for k in route(p.ctrl.cursor, engine.hint_place(p.ctrl.hint))))
    p.press("A", "A")  # the player's move: it slides home
    p.choose(M_COLOURS).press("RIGHT").choose(M_COLOURS)  # four colours (the table, a move), then two
    p.press("SELECT", "UP", "UP", "B")  # the menu, scrolled
    p.choose(M_CHOOSE).press("UP", "RIGHT", "UP", "B")  # the digit editor, cancelled
    p.choose(M_RULES).press("B")
    p.choose(M_STATS).press("B")
    p.choose(M_LANGUAGE).press("SELECT", "DOWN", "B")  # Russian: the status line, the menu
    p.choose(M_RULES).press("B")
    p.choose(M_RESTART)  # the deal dealt again from the stock: its last frame
    p.ctrl.set_language(words.EN)
    return p


def over_plan(deal, sound=False):
    """Autoplay on, then START until the game ends; only the last START is photographed, and the
    key after it (a won game's cascade runs until a key).  ``sound``: as screens_plan's."""
    p = Plan(deal, sound)
    p.choose(M_AUTO)
    while p.ctrl.mode != OVER:
        p.press("START", burst=True)
    p.words[-1] = "START"  # a win: the table, its cascade starting after the key's line
    if p.ctrl.game.status() == engine.WON:
        p.words.append("WAIT:%d" % CASCADE_WAIT_MS)  # cards leap off every pile, the first ones gone
    p.press("RIGHT")  # ends the cascade: the won panel (on the lost panel RIGHT does nothing)
    return p
