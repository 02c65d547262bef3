"""Writes ``lib/sultan/ui/lines.py``, the place of each keyed line of the words files, from
``lib/sultan/ui/words_en.txt``: ``TEXT_<KEY>`` for a line of its [text] section (``words.TEXT``),
``MENU_TEXT_<KEY>`` for one of [menutext] (``words.MENU_TEXT``).  A module saying a line imports
its number from there; the board build folds each into the code that reads it.

``python3 tools/word_lines.py`` rewrites the module after a line is added, moved or dropped;
``--check`` exits 1 if it is out of date (host_tests/ui/test_words.py runs the same comparison).
"""

import argparse
import os
import sys

from sultan_host.paths import LIB

UI = os.path.join(LIB, "sultan", "ui")
WORDS = os.path.join(UI, "words_en.txt")
MODULE = os.path.join(UI, "lines.py")
SECTIONS = (("text", "TEXT_", "words.TEXT"), ("menutext", "MENU_TEXT_", "words.MENU_TEXT"))

HEAD = '''# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The place of each keyed line of the words files, by key: ``TEXT_<KEY>`` in ``words.TEXT``,
``MENU_TEXT_<KEY>`` in ``words.MENU_TEXT``.

Generated from words_en.txt by tools/word_lines.py (host/sultan_host/word_lines.py): do not
edit; run it again after changing the files' keys.  The board build folds these numbers into
the code that reads them, so this module is never imported on the board.
"""

from sultan import const
'''


def keys(text, section):
    """The keys of ``section``'s "KEY text" lines in words file text ``text``, in order."""
    out, sec = [], None
    for line in text.split("\n"):
        if line.startswith("["):
            sec = line[1:line.index("]")]
        elif sec == section and line and not line.startswith("#"):
            out.append(line.partition(" ")[0])
    if not out:
        raise ValueError("no keyed lines in section [%s]" % section)
    return out


def render(text):
    """The module's source for words file text ``text``."""
    parts = [HEAD]
    for section, prefix, where in SECTIONS:
        parts.append("\n# [%s]: lines of %s\n" % (section, where))
        for i, key in enumerate(keys(text, section)):
            parts.append("%s%s = const(%d)\n" % (prefix, key, i))
    return "".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="word_lines", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if lines.py is out of date; write nothing")
    args = ap.parse_args(argv)
    with open(WORDS, encoding="utf-8") as f:
        want = render(f.read())
    try:
        with open(MODULE, encoding="utf-8") as f:
            have = f.read()
    except FileNotFoundError:
        have = None
    if args.check:
        if have != want:
            sys.stderr.write("word_lines: %s is out of date: run tools/word_lines.py\n" % MODULE)
            return 1
        return 0
    if have != want:
        with open(MODULE, "w", encoding="utf-8") as f:
            f.write(want)
    return 0


if __name__ == "__main__":
    sys.exit(main())
