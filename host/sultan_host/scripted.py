"""Keys from a script, for the tests, the simulator and the tools (host only).

``parse_keys("RIGHT A*2")``-style scripts become key numbers (``sultan.ui.keys``),
``ScriptedKeys`` plays them to ``sultan.app.run`` as a ``keypad`` would, and
``route`` finds the direction keys that walk the cursor from one place to another.
"""

from sultan.ui import keys
from sultan.ui.controller import move
from sultan.ui.keys import NAMES


def number(name):
    """The key number for a name like ``"A"`` or ``"left"``; ValueError otherwise."""
    up = name.upper()
    for i in range(len(NAMES)):
        if NAMES[i] == up:
            return i
    raise ValueError("unknown key %r (want one of %s)" % (name, " ".join(NAMES)))


def parse_keys(script):
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
        for k in parse_keys(script):
            self.events.items.append(Event(k, True))
            self.events.items.append(Event(k, False))

    @property
    def exhausted(self):
        return len(self.events) == 0


def route(src, dst):
    """The shortest list of direction keys taking the cursor from ``src`` to ``dst``."""
    seen = {src: None}
    todo = [src]
    while todo:
        nxt = []
        for p in todo:
            if p == dst:
                out = []
                while seen[p] is not None:
                    prev, k = seen[p]
                    out.append(k)
                    p = prev
                out.reverse()
                return out
            for k in (keys.RIGHT, keys.LEFT, keys.DOWN, keys.UP):
                q = move(p, k)
                if q not in seen:
                    seen[q] = (p, k)
                    nxt.append(q)
        todo = nxt
    raise ValueError("no route from %r to %r" % (src, dst))
