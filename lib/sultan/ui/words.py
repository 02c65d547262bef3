# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The words the player reads, in English or Russian: one language in memory at a time.

Each language has two UTF-8 text files beside this module.  ``words_en.txt`` (``words_ru.txt``)
holds what the game shows at any moment; ``use(lang)`` reads its sections into this
module's tuples, dropping the previous language's first:

- ``TEXT``: messages, switch states, ruleset names, the status line's formats;
- ``HELP``: the message line's key help whenever no message stands, by mode (``sultan.ui.modes``);
- ``MENU_ITEMS``: the menu's labels, by ``sultan.ui.menu``'s M_* numbers (``menu_items()`` reads
  them when the menu is made), and ``MENU_TEXT``, what the menu says (``menu_text()``);
- ``REFUSALS``: why the rules refused an action, by refusal code (``sultan.rules.engine.R_*``),
  read by ``refusals()`` at the first refusal.

``pages_en.txt`` (``pages_ru.txt``) holds the pages -- Rules, Statistics, the won/lost panel,
the digit editor -- read when one is shown (``sultan.ui.pages``, imported then).  Why files
and not a module per language: on CircuitPython a module's bytecode and string constants are
loaded into the heap (its short strings interned for good), while a file puts into the heap
just the words in use and nothing of the other language.  See docs/languages.md.

The files: "#" comment lines and blank lines where you like, then sections, each beginning
with a "[name]" line.  In a words file, [text], [help], [menu], [menutext] and [refusals] in that order,
a "KEY text" line each: the text runs from the one space after the key to the end of the
line (so a key and two spaces give a text with a leading space; a key alone, an empty text).
The keys are [text]'s and [menutext]'s names (a module saying a line names its place by
``sultan.ui.lines``' TEXT_<KEY> or MENU_TEXT_<KEY>, generated from words_en.txt by
tools/word_lines.py), the modes (``sultan.ui.modes``), the menu's M_* and the rules' R_* names;
host_tests/ui/test_words.py checks them.  In a pages file, a page's lines are taken as they
stand, up to the next page (blank lines at its end left out).

``%c`` stands for a card (the screen draws it 4 columns wide with the sprite sheet's rank
and suit glyphs), ``%d`` a number, ``%s`` a word.  The screen calls ``status_text``,
``HELP[mode]`` and ``redeals_left`` (and ``sultan.ui.pages``' functions) and draws the plain
str they return; the strings use the glyphs ``sultan.ui.textgrid`` has: ASCII, А-Я а-я Ё ё,
« » — … and ↻.
"""

from sultan import const, data_path
from sultan.rules import engine
from sultan.ui.lines import (
    TEXT_REDEALS_LEFT,
    TEXT_REFUSED,
    TEXT_RULESET0,
    TEXT_STATUS_LONG,
    TEXT_STATUS_SHORT,
    TEXT_STATUS_TINY,
    TEXT_TAG_LONG,
    TEXT_TAG_SHORT,
)

EN = const(0)
RU = const(1)
FILES = ("words_en.txt", "words_ru.txt")  # by language number: the words kept while it is in use

STAR_COLS = const(2)  # the winnable deal's star takes the status line's first two columns


LANG = EN  # the language in use
TEXT = HELP = None  # read by use() (the controller calls it as it is made)
MENU_ITEMS = MENU_TEXT = None  # read by menu_items() and menu_text(), when first wanted
REFUSALS = None  # read by refusals(), at the first refusal


def path(lang):
    """The file of language ``lang``'s words."""
    return data_path(globals().get("__file__"), "sultan/ui", FILES[lang])


def read(name):
    """The bytes of file ``name``, "\r" left out (one read: 1-3 KB, let go at once)."""
    with open(name, "rb") as f:
        data = f.read()
    return data.replace(b"\r", b"") if b"\r" in data else data


def section(data, name, keyed=True):
    """The lines of section ``[name]`` of a words or pages file's bytes ``data``, as a tuple of
    str: in a words file (``keyed``) the texts of its "KEY text" lines, comment and blank lines
    left out; in a pages file its lines as they stand, blank lines at its end left out.

    The file is cut as bytes and only the lines kept become str: on CircuitPython every new
    str is first looked for among the interned strings (on 8.x a walk over all of them), so
    a str a line of the whole file cost the first menu 35 ms on the Pico.
    """
    tag = b"\n[" + name.encode() + b"]\n"
    i = data.find(tag)
    if i < 0:
        if not data.startswith(tag[1:]):
            raise ValueError("no section [%s]" % name)
        i = -1  # the file's first line
    i += len(tag)
    end = data.find(b"\n[", i - 1)
    lines = data[i:end if end >= 0 else len(data)].split(b"\n")
    out = []
    for ln in lines:
        if keyed:
            if not ln or ln[0] == 35:  # "#": a comment
                continue
            k = ln.find(b" ")
            ln = ln[k + 1:] if k >= 0 else b""
        out.append(str(ln, "utf-8"))
    if not keyed:
        while out and not out[-1]:
            out.pop()  # blank lines before the next page
    return tuple(out)


def use(lang):
    """Make ``lang`` (EN or RU; anything else reads as EN) the language in use; returns it.

    The other language's words are let go first, so the two are never in the heap together.
    The menu's words wait for ``menu_items`` and ``menu_text``, the refusals for ``refusals``.
    """
    global LANG, TEXT, HELP, MENU_ITEMS, MENU_TEXT, REFUSALS
    if lang != RU:
        lang = EN
    TEXT = HELP = MENU_ITEMS = MENU_TEXT = REFUSALS = None
    data = read(path(lang))
    TEXT = section(data, "text")
    HELP = section(data, "help")
    LANG = lang
    return lang


def menu_items():
    """The menu's labels in the language in use (``MENU_ITEMS``), read at the first call (the menu's
    making, in the pause after the first key): a board never touched never holds them."""
    global MENU_ITEMS
    if MENU_ITEMS is None:
        MENU_ITEMS = section(read(path(LANG)), "menu")
    return MENU_ITEMS


def menu_text():
    """What the menu says (its switches' states, hints, ...: ``MENU_TEXT``), read at the first call:
    the controller's ``idle``, in the pause after the first menu is on show (its first lines have no
    switch).  On the PyBadge's 9.1.1 a new str costs 0.22 ms (a walk over the interned strings), and
    these 25 cost the first menu 9 ms."""
    global MENU_TEXT
    if MENU_TEXT is None:
        MENU_TEXT = section(read(path(LANG)), "menutext")
    return MENU_TEXT


def refusals():
    """Why the rules refuse, by refusal code (``REFUSALS``), read at the first call: a start holds
    none of the 17 (about 800 bytes on CircuitPython)."""
    global REFUSALS
    if REFUSALS is None:
        REFUSALS = section(read(path(LANG)), "refusals")
    return REFUSALS


def refusal(code):
    """Why the rules refused an action, for refusal code ``code``."""
    r = refusals()
    return r[code] if 0 <= code < len(r) else TEXT[TEXT_REFUSED] % code


def ruleset_name(rules):
    return TEXT[TEXT_RULESET0 + rules] if 0 <= rules < len(engine.RULES_NAMES) else "?"


# ----------------------------------------------------------- what the screen draws


def status_text(g, cols, winnable=False):
    """The status line for game ``g`` in at most ``cols`` characters.

    Classic rules say so after the deal number (a shorter tag and figures when the line is
    full); a known-winnable deal starts with two blank columns, where the screen shows a star.
    """
    t = TEXT
    if winnable:
        cols -= STAR_COLS
    tag = t[TEXT_TAG_LONG] if g.rules else ""
    s = t[TEXT_STATUS_LONG] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = t[TEXT_STATUS_SHORT] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if g.rules:
        tag = t[TEXT_TAG_SHORT]
    if len(s) > cols and g.rules:
        s = t[TEXT_STATUS_SHORT] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:
        s = t[TEXT_STATUS_TINY] % (g.deal, tag, g.pass_no, g.placed, g.missed)
    if len(s) > cols:  # (a slice or a concatenation is a new str: only when wanted)
        s = s[:cols]
    return "  " + s if winnable else s


def redeals_left(n):
    """The key help while the stock is empty and ``n`` redeals are left ("START: redeal, 2 left"; the
    stock itself says "↻2")."""
    return TEXT[TEXT_REDEALS_LEFT] % n
