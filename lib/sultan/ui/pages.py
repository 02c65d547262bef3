# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The panel's pages -- Rules, Statistics, the won/lost panel, the digit editor -- in the
language in use (``sultan.ui.words.LANG``).

``pages_en.txt`` (``pages_ru.txt``) beside this module holds them, in the format
``sultan.ui.words`` describes; a page is read when it is shown (the last one read is kept, so
a page redrawn reads nothing).  The controller imports this module in the menu's pause (``Controller.idle``),
the screen at the first page it shows: until then neither the code nor the words take any heap.
"""

from sultan import data_path
from sultan.rules import engine
from sultan.ui import words
from sultan.ui.modes import DEAL, RULES_PAGE, STATS_PAGE

PAGES = ("pages_en.txt", "pages_ru.txt")  # by language number

_page = None  # (language, name, lines) of the page read last


def path(lang):
    """The file of language ``lang``'s pages."""
    return data_path(globals().get("__file__"), "sultan/ui", PAGES[lang])


def page(name):
    """The lines of page ``[name]`` in the language in use, read from its pages file (the last
    one read is kept, so a page redrawn reads nothing)."""
    global _page
    p = _page
    lang = words.LANG
    if p is not None and p[0] == lang and p[1] == name:
        return p[2]
    _page = None
    lines = words.section(words.read(path(lang)), name, False)
    _page = (lang, name, lines)
    return lines


def lines(ctrl, rows):
    """The panel's lines for ``ctrl``'s mode (a ``sultan.ui.controller.Controller``): the digit
    editor, the Rules page (scrolled to fit ``rows`` lines), Statistics, else the won/lost panel.
    Here, not in ``sultan.ui.screen``, so that the board's heap holds this code only once a page
    has been shown."""
    mode = ctrl.mode
    g = ctrl.game
    if mode == DEAL:
        ed = ctrl.editor
        return deal_lines("".join(str(d) for d in ed.digits), ed.pos)
    if mode == RULES_PAGE:
        return ctrl.menu.page_view(rules_lines(g.rules), rows)
    if mode == STATS_PAGE:
        return stats_lines(ctrl.stats, g.rules)
    return over_lines(g)


def deal_lines(digits, pos):
    """The digit editor: ``digits`` a str of the deal number's digits, ``pos`` the one changing."""
    p = page("deal")
    return (p[0], "", "   " + digits, "   " + " " * pos + "^", "", p[1], p[2])


def rules_lines(rules):
    """The Rules page of ruleset ``rules`` (an unknown one: the seed rules')."""
    return page("rules%d" % (rules if 0 <= rules < len(engine.RULES_NAMES) else 0))


def stats_lines(stats, rules):
    """The Statistics page for ``rules`` (``stats`` a sultan.saves.stats.Stats or None): one
    figure a line, so that every line fits the panel's 25 columns (8 lines at 160x128: not the games
    lost, which are played less won); the game's version last."""
    from sultan import __version__  # said on this page only: no global of this module for it

    if stats is None:
        p = page("nostats")
        return p[:-1] + (p[-1] % __version__,)
    s = stats.get(rules)
    n = s["played"]
    p = page("stats")
    return (p[0] % words.ruleset_name(rules), p[1] % n, p[2] % (s["won"], 100 * s["won"] // n if n else 0),
            p[3] % s["best_placed"], p[4] % s["streak"], p[5] % s["best_streak"],
            p[6] % (s["fewest_moves"] or "-"), p[7] % __version__)


def over_lines(g):
    """The won/lost panel for the finished game ``g``."""
    p = page("over")
    return (p[0] if g.status() == engine.WON else p[1], p[2] % g.deal, p[3] % g.placed,
            p[4] % g.missed, p[5] % g.moves, p[6] % g.pass_no)
