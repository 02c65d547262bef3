"""The words the player reads, in English or Russian: one language in memory at a time.

Each language has two UTF-8 text files beside this module.  ``words_en.txt`` (``words_ru.txt``)
holds what the game shows at any moment; ``use(lang)`` reads its sections into this
module's tuples, dropping the previous language's first:

- ``TEXT``: messages, switch states, ruleset names, the status line's formats;
- ``HELP``: the message line's key help while no message is up, by the controller's mode;
- ``MENU_ITEMS``: the menu's labels, by ``sultan.ui.menu``'s M_* numbers, and ``MENU_TEXT``,
  what the menu says (``menu_items()`` reads both when the menu is first drawn);
- ``REFUSALS``: why the rules refused an action, by refusal code (``sultan.rules.engine.R_*``).

``pages_en.txt`` (``pages_ru.txt``) holds the pages -- Rules, Statistics, the won/lost panel,
the digit editor -- read when one is shown (``sultan.ui.pages``, imported then).  Why files
and not a module per language: on CircuitPython a module's bytecode and string constants are
loaded into the heap (its short strings interned for good), while a file puts into the heap
just the words in use and nothing of the other language.  See docs/languages.md.

The files: "#" comment lines and blank lines where you like, then sections, each beginning
with a "[name]" line.  In a words file, [text], [help], [menu], [menutext] and [refusals] in that order,
a "KEY text" line each: the text runs from the one space after the key to the end of the
line (so a key and two spaces give a text with a leading space; a key alone, an empty text).
The keys are [text]'s names (a module saying a line names its place by a private const of
the key's name), the controller's modes, the menu's M_* and the rules' R_* names;
host_tests/test_words.py checks them.  In a pages file, a page's lines are taken as they
stand, up to the next page (blank lines at its end left out).

``%c`` stands for a card (the screen draws it 4 columns wide with the sprite sheet's rank
and suit glyphs), ``%d`` a number, ``%s`` a word.  The screen calls ``status_text``,
``HELP[mode]``, ``keys_help`` and ``redeals_left`` (and ``sultan.ui.pages``' functions) and
draws the plain str they return; the strings use ASCII, А-Я а-я Ё ё and « ».
"""

from sultan import const, data_path
from sultan.rules import engine

EN = const(0)
RU = const(1)
FILES = ("words_en.txt", "words_ru.txt")  # by language number: the words kept while it is in use

# The lines of TEXT said here, by place (a private const is compiled into the code: no name in
# the heap); host_tests/test_words.py checks the numbers against the files' keys.
_RULESET0 = const(0)  # the rulesets' names, by engine rules number
_STATUS_LONG = const(2)  # the status line's formats, longest first: (deal, tag, pass, placed, missed)
_STATUS_SHORT = const(3)
_STATUS_TINY = const(4)
_TAG_LONG = const(5)  # the status line's classic-rules tag, and its short form
_TAG_SHORT = const(6)
_REFUSED = const(17)
_KEYS_HELP = const(18)
_REDEALS_LEFT = const(8)

STAR_COLS = const(2)  # the winnable deal's star takes the status line's first two columns

_CHUNK = const(512)  # bytes read from a words file at a time
_KEPT = ("[text]", "[help]", "[menu]", "[menutext]", "[refusals]")  # a words file's sections, in order

LANG = EN  # the language in use
TEXT = HELP = REFUSALS = None  # read by use() (the controller calls it as it is made)
MENU_ITEMS = MENU_TEXT = None  # read by menu_items() and menu_text(), when the menu is first drawn


def path(lang):
    """The file of language ``lang``'s words."""
    return data_path(globals().get("__file__"), "sultan/ui", FILES[lang])


def read_lines(name):
    """The lines of file ``name``, without their line breaks.

    Read 512 bytes at a time and split by the str methods: no block as big as the file is
    needed, and no Python loop runs a line at a time (at ~4 us a bytecode on the Pico, a
    readline loop took 35 ms for the English words).
    """
    out = []
    with open(name, "rb") as f:
        tail = b""
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                break
            if tail:
                chunk = tail + chunk
            cut = chunk.rfind(b"\n") + 1
            tail = chunk[cut:]
            if cut:
                out.extend(str(chunk[:cut - 1], "utf-8").replace("\r", "").split("\n"))
    if tail:
        out.append(str(tail, "utf-8").replace("\r", ""))
    return out


def _sections(name):
    """(lines, starts) of words file ``name``: its lines, and where each of _KEPT's sections
    begins (and, last, the end)."""
    lines = read_lines(name)
    return lines, [lines.index(sec) for sec in _KEPT] + [len(lines)]


def _cut(lines, at, s):
    """Section ``s``'s texts: a "KEY text" line each, comment and blank lines left out."""
    part = [ln for ln in lines[at[s] + 1:at[s + 1]] if ln and not ln.startswith("#")]
    return tuple([ln[ln.find(" ") + 1:] if " " in ln else "" for ln in part])


def use(lang):
    """Make ``lang`` (EN or RU; anything else reads as EN) the language in use; returns it.

    The other language's words are let go first, so the two are never in the heap together.
    The menu's words wait for ``menu_items``.
    """
    global LANG, TEXT, HELP, MENU_ITEMS, MENU_TEXT, REFUSALS
    if lang != RU:
        lang = EN
    TEXT = HELP = MENU_ITEMS = MENU_TEXT = REFUSALS = None
    lines, at = _sections(path(lang))
    TEXT = _cut(lines, at, 0)
    HELP = _cut(lines, at, 1)
    REFUSALS = _cut(lines, at, 4)
    LANG = lang
    return lang


def menu_items():
    """The menu's labels in the language in use (``MENU_ITEMS``), read with what the menu says
    (``MENU_TEXT``) at the first call: a player who never opens the menu never holds them."""
    global MENU_ITEMS, MENU_TEXT
    if MENU_ITEMS is None:
        lines, at = _sections(path(LANG))
        MENU_ITEMS = _cut(lines, at, 2)
        MENU_TEXT = _cut(lines, at, 3)
    return MENU_ITEMS


def menu_text():
    """What the menu says (its switches' states, hints, ...), as ``menu_items``."""
    menu_items()
    return MENU_TEXT


def refusal(code):
    """Why the rules refused an action, for refusal code ``code``."""
    r = REFUSALS
    return r[code] if 0 <= code < len(r) else TEXT[_REFUSED] % code


def ruleset_name(rules):
    return TEXT[_RULESET0 + rules] if 0 <= rules < len(engine.RULES_NAMES) else "?"


# ----------------------------------------------------------- what the screen draws


def status_text(g, cols, winnable=False):
    """The status line for game ``g`` in at most ``cols`` characters.

    Classic rules say so after the deal number (a shorter tag and figures when the line is
    full); a known-winnable deal starts with two blank columns, where the screen shows a star.
    """
    t = TEXT
    lead = "  " if winnable else ""
    tag = t[_TAG_LONG] if g.rules else ""
    s = lead + t[_STATUS_LONG] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = lead + t[_STATUS_SHORT] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if g.rules:
        tag = t[_TAG_SHORT]
    if len(s) > cols and g.rules:
        s = lead + t[_STATUS_SHORT] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = lead + t[_STATUS_TINY] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    return s[:cols]


def keys_help():
    """The key help the screen shows on a fresh start, until the first key."""
    return TEXT[_KEYS_HELP]


def redeals_left(n):
    """The mark on the empty stock while ``n`` redeals are left ("R2", "П2")."""
    return TEXT[_REDEALS_LEFT] % n
