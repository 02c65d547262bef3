"""The words the player reads: refusal reasons by the rules' reason code.

``%c`` stands for a card, drawn with the sprite sheet's rank and suit glyphs.
"""

REFUSALS = (
    "",
    "no such place",
    "no card there",
    "%c does not fit on %c",
    "%c pile is complete",
    "%c fits nowhere yet",
    "the stock is empty",
    "stock is not empty yet",
    "no redeal left",
    "nothing to undo",
    "nothing to redo",
    "the game is over",
    "move log is full",
    "not in these rules",
    "that slot is taken",
)


# ---------------------------------------------------------------------------------------------
# The screen's words (moved here from screen.py; the screen holds no text of its own).
# To the words/controller engineer: screen.py calls exactly these and renders whatever plain
# str they return (any Unicode its glyph set has: ASCII, А-Я а-я Ё ё « » — №; "%c" = a card):
#   status_text(g, cols, winnable)   the status line, at most ``cols`` characters
#   HELP[mode]                        the message line's key help while the message is empty
#   deal_lines(digits, pos)           the digit editor's panel lines
#   RULES_TEXT[rules]                 the Rules page's lines
#   stats_lines(stats, rules)         the Statistics page's lines
#   over_lines(g)                     the won/lost panel's lines
# Panel lines: at most 9 of at most 25 columns (the 320x240 panel; 160x128 has 10 lines).
# Make them bilingual however suits you (a language switch read here, say); keep these names
# and arguments, or tell the screen engineer.
STAR_COLS = 2  # the winnable deal's star takes the status line's first two columns

_RULES_COMMON = (
    "Build the 8 piles up in",
    "suit to Q: on a K go A,2",
    "..Q; on the A, 2..Q. The",
    "sultan (K hearts) stays.",
)
RULES_TEXT = (  # by ruleset (engine.RULES_NAMES); 9 lines: the panel's height at 320x240
    ("SEED RULES",) + _RULES_COMMON + (
        "Play the 6 divan cards",
        "(refilled from the stock)",
        "or the talon top. Stock:",
        "3 passes, reshuffled."),
    ("CLASSIC RULES",) + _RULES_COMMON + (
        "Play divan cards or the",
        "talon top; empty slots:",
        "park the talon top there",
        "3 passes, never shuffled"),
)
HELP = (  # by the controller's mode: PLAY, MENU, DEAL, RULES_PAGE, OVER, STATS_PAGE
    "",
    "A: choose  B: close",
    "A: deal  B: cancel",
    "any key: back",
    "A:new B:undo START:again",
    "any key: back",
)


def status_text(g, cols, winnable=False):
    """The status line for game ``g`` in at most ``cols`` characters.

    Classic rules say so after the deal number; a known-winnable deal starts
    with two blank columns, where the screen shows a star.
    """
    lead = " " * STAR_COLS if winnable else ""
    tag = " classic" if g.rules else ""
    s = lead + "#%d%s pass %d/3 %d/95 miss %d" % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = lead + "#%d%s p%d/3 %d/95 m%d" % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols and g.rules:
        s = lead + "#%d cl p%d/3 %d/95 m%d" % (g.deal, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = lead + "#%d%s p%d %d m%d" % (g.deal, " cl" if g.rules else "", g.pass_no, g.placed, g.missed)
    return s[:cols]


def deal_lines(digits, pos):
    """The digit editor: ``digits`` a str of the deal number's digits, ``pos`` the one changing."""
    return ("Choose deal number", "", "   " + digits, "   " + " " * pos + "^", "",
            "UP/DOWN: change digit", "LEFT/RIGHT: move")


def stats_lines(stats, rules):
    """The statistics page for ``rules`` (``stats`` a sultan.saves.stats.Stats or None): one figure
    a line, so that every line fits the panel's 25 columns."""
    from sultan.rules import engine

    name = engine.RULES_NAMES[rules] if rules < len(engine.RULES_NAMES) else "?"
    if stats is None:
        return ("STATISTICS", "", "not kept: no save store")
    s = stats.get(rules)
    n = s["played"]
    return ("STATISTICS: %s rules" % name, "",
            "played   %d" % n,
            "won      %d (%d%%)" % (s["won"], 100 * s["won"] // n if n else 0),
            "lost     %d" % s["lost"],
            "best     %d of 95 placed" % s["best_placed"],
            "streak   %d" % s["streak"],
            "best streak %d" % s["best_streak"])


def over_lines(g):
    """The won/lost panel for the finished game ``g``."""
    from sultan.rules import engine

    won = g.status() == engine.WON
    return ("   * YOU WON! *" if won else "   NO MOVES LEFT", "",
            "deal     %d" % g.deal, "placed   %d of 95" % g.placed,
            "missed   %d" % g.missed, "moves    %d" % g.moves,
            "passes   %d of 3" % g.pass_no)
