"""The eight buttons, their names, and a scripted key source for tests and tools.

Key numbers are the PyBadge's (``keypad.ShiftRegisterKeys``, 8 keys):
0=B 1=A 2=START 3=SELECT 4=RIGHT 5=DOWN 6=UP 7=LEFT.

A key source is anything with ``.events.get()`` returning ``None`` or an object
with ``.key_number`` and ``.pressed`` (a ``keypad.Event``, say).  Nothing here
touches pins: the firmware's board profile builds the real ``keypad`` object.
"""

from sultan import const

B = const(0)
A = const(1)
START = const(2)
SELECT = const(3)
RIGHT = const(4)
DOWN = const(5)
UP = const(6)
LEFT = const(7)

NAMES = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")


def number(name):
    """The key number for a name like ``"A"`` or ``"left"``; ValueError otherwise."""
    up = name.upper()
    for i in range(len(NAMES)):
        if NAMES[i] == up:
            return i
    raise ValueError("unknown key %r (want one of %s)" % (name, " ".join(NAMES)))


def parse(script):
    """Key numbers for a script: a string of names ("RIGHT A B") or a list of names/numbers."""
    if isinstance(script, str):
        script = script.replace(",", " ").split()
    out = []
    for k in script:
        if isinstance(k, int):
            if not 0 <= k < len(NAMES):
                raise ValueError("unknown key number %r" % (k,))
            out.append(k)
        else:
            out.append(number(k))
    return out


class Event:
    """A stand-in for ``keypad.Event``."""

    __slots__ = ("key_number", "pressed")

    def __init__(self, key_number, pressed):
        self.key_number = key_number
        self.pressed = pressed

    @property
    def released(self):
        return not self.pressed


class _Queue:
    def __init__(self):
        self.items = []
        self.pos = 0

    def get(self):
        if self.pos < len(self.items):
            e = self.items[self.pos]
            self.pos += 1
            return e
        return None

    def __len__(self):
        return len(self.items) - self.pos


class ScriptedKeys:
    """A key source that plays a script: each key is a press then a release.

    ``exhausted`` becomes True once every event has been taken, so a main loop
    driven by it can stop.
    """

    def __init__(self, script=()):
        self.events = _Queue()
        self.extend(script)

    def extend(self, script):
        for k in parse(script):
            self.events.items.append(Event(k, True))
            self.events.items.append(Event(k, False))

    @property
    def exhausted(self):
        return len(self.events) == 0
