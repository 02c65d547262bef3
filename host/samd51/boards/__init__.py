"""Boards: which parts hang on which pins of a SAMD51. ``load(name)`` returns the board's class.

A board module defines ``BOARD``, a class called with the ``Mcu`` once its SoC peripherals exist; it attaches
the parts (flash chip, display, keys...) and keeps them as attributes for the harness.  The badges
(pybadge, pygamer) are short descriptions over ``badge.Badge``, which says what a harness gets.
"""

import importlib


def load(name):
    if not name.isidentifier():
        raise LookupError("no board %r" % name)
    try:
        module = importlib.import_module(__name__ + "." + name)
    except ModuleNotFoundError as err:
        if err.name == __name__ + "." + name:
            raise LookupError("no board %r (samd51/boards/%s.py)" % (name, name)) from None
        raise
    board = vars(module).get("BOARD")
    if board is None:   # a shared module (badge.py), not a board
        raise LookupError("no board %r (samd51/boards/%s.py describes none)" % (name, name))
    return board
