"""The --keys words: one grammar for every emulator (the PyBadge/PyGamer harness, the Pico's emulate.js).

Words are separated by spaces or commas; names are the game's (``sultan.ui.keys.NAMES``), any case:

- ``NAME``: a press held ``key_ms``; then a wait for its ``SULTAN key=NAME`` line, a screenshot NN-NAME.png
  and ``gap_ms`` of nothing.
- ``NAME*n``: that, n times.  ``NAME*n!``: a burst: n quick presses (keypad's queue holds them), then a wait
  for all n lines; no screenshots.
- ``NAME?``: a press that need not be played (the key that wakes a dark screen): no line waited for; a
  screenshot after the gap.
- ``NAME~ms``: a held key: pressed, held ``ms`` (the game's key repeat may answer more than once), released;
  after the gap every key line so far is taken at once (not one by one), then a screenshot.
- ``RELOAD``: Ctrl-C, Ctrl-D (a soft reload), then a wait for SULTAN READY.
- ``RESET``: a power cycle (RAM lost, flash kept), then a wait for SULTAN READY.
- ``CUT@ms``: power lost that many ms after the previous key's press (or after the end of the previous word
  when that is no plain key), then the board boots again as at RESET.  The key right before it is pressed and
  released but its line is not waited for: the cut may land inside what the key started.
- ``CUT@WRITE+ms``: power lost that many ms after the next flash erase or program starts (aimed at a save).
- ``WAIT:ms``: that long with no key.

After each power cycle's READY a screenshot NN-READY.png (with shots on).  The steps are a list of one-key
dicts, as tools/emulate/emulate.js walks them:

    python -m sultan_host.keywords --keys "RIGHT A*2! RESET" [--names pico|pybadge|pygamer]
        [--random-keys N --seed S] [--key-ms 60 --gap-ms 100 --no-shots]

prints ``{"keys": words, "steps": [...]}`` as JSON.  A bad word: one line, exit 2.
"""

import json
import os
import re
import sys

from sultan.ui.keys import NAMES

from sultan_host.args import ToolParser, count, real_in

KEYPAD_SCAN_MS = 20  # keypad.ShiftRegisterKeys' default interval
# the random keys' mix: arrows, A, B, START, SELECT (menus, pages, new deals, redeals)
RANDOM_MIX = ("UP", "DOWN", "LEFT", "RIGHT", "UP", "DOWN", "A", "A", "A", "B", "START", "START", "SELECT",
              "SELECT")
WORDS = "RELOAD RESET CUT@ms CUT@WRITE+ms WAIT:ms NAME? NAME~ms"

_SPLIT = re.compile(r"[\s,]+")
_AIMED = re.compile(r"CUT@WRITE\+([0-9]{1,5}(?:\.[0-9]{1,3})?)\Z", re.I)
_CUT = re.compile(r"CUT@([0-9]{1,7}(?:\.[0-9]{1,3})?)\Z", re.I)
_WAIT = re.compile(r"WAIT:([0-9]{1,6})\Z", re.I)
_UNPLAYED = re.compile(r"([A-Za-z]+)\?\Z")
_HELD = re.compile(r"([A-Za-z]+)~([0-9]{1,6})\Z")
_KEY = re.compile(r"([A-Za-z]+)(?:\*([0-9]{1,4}))?(!?)\Z")
_PLAIN = re.compile(r"[A-Za-z]+(?:\*[0-9]{1,4})?\Z")


class WordError(ValueError):
    """A word the grammar refuses (the message says which and why)."""


class Buttons:
    """The board's buttons: (part id, name) pairs; a word names one by its name (any case) or its id."""

    def __init__(self, pairs):
        self.pairs = tuple(pairs)

    def by_name(self, word):
        upper = word.upper()
        return next(((i, n) for i, n in self.pairs if n == upper or i == word), None)

    def names(self):
        return [n for _, n in self.pairs]


def buttons(board="pybadge"):
    """The buttons of ``board``: the badges' are the game's names; the Pico's are diagram.json's parts."""
    if board in ("pybadge", "pygamer"):
        return Buttons((n, n) for n in NAMES)
    if board != "pico":
        raise WordError("no board %r (pico, pybadge or pygamer)" % board[:20])
    from sultan_host.paths import HOST

    root = os.environ.get("SULTAN_CHECKOUT") or os.path.dirname(HOST)  # as sultan_host.board.sources
    with open(os.path.join(root, "diagram.json")) as f:
        parts = json.load(f)["parts"]
    return Buttons((p["id"], (p.get("attrs", {}).get("label") or p["id"]).upper())
                   for p in parts if p["type"] == "wokwi-pushbutton")


def number(text):
    """A word's number as JSON writes it: 10 for "10" and "10.0", 3.5 for "3.5"."""
    value = float(text)
    return int(value) if value.is_integer() else value


def ms_text(value):
    """A delay's text ("60ms", "60.5ms"), as JavaScript prints the number."""
    return "%sms" % number(str(value))


class _Steps:
    def __init__(self, key_ms, gap_ms, shots):
        self.key_ms, self.gap_ms, self.shots = key_ms, gap_ms, shots
        self.out = [self.screenshot("00-ready.png")] if shots else []
        self.shot = 0

    @staticmethod
    def screenshot(name):
        return {"take-screenshot": {"part-id": "lcd", "save-to": name}}

    def shoot(self, name):
        self.shot += 1
        if self.shots:
            self.out.append(self.screenshot("%02d-%s.png" % (self.shot, name)))

    def press(self, button, ms, burst):
        self.out.append({"set-control": {"part-id": button[0], "control": "pressed", "value": 1},
                         "key": button[1], "burst": burst})
        self.out.append({"delay": ms_text(ms)})
        self.out.append({"set-control": {"part-id": button[0], "control": "pressed", "value": 0}})

    def power(self, cycle):
        self.out.append({"power-cycle": cycle})
        if self.shots:  # the screen a power cycle's boot shows at READY (a damaged save's message is on it)
            self.shoot("READY")


def _button(board, name, unknown):
    b = board.by_name(name)
    if b is None:
        raise WordError(unknown % name[:20])
    return b


def _word(s, board, words, w):
    word = words[w]
    upper = word.upper()
    if upper == "RELOAD":
        s.out.append({"soft-reload": True})
        return
    if upper == "RESET":
        s.power({"kind": "RESET"})
        return
    m = _AIMED.match(word)
    if m:  # aimed at the flash: that many ms after the next erase or program starts (the save's write)
        s.power({"kind": "CUT", "write_ms": number(m.group(1))})
        return
    m = _CUT.match(word)
    if m:
        prev = words[w - 1] if w > 0 else ""
        press = bool(_PLAIN.match(prev)) and prev.upper() not in ("RELOAD", "RESET")
        s.power({"kind": "CUT", "after_ms": number(m.group(1)), "from": "press" if press else "now"})
        return
    if upper.startswith("CUT@"):
        raise WordError("bad cut %s (want CUT@ms, e.g. CUT@10050)" % word[:40])
    m = _WAIT.match(word)
    if m:  # (the report's `idle`: the share of it in WFI)
        s.out.append({"delay": m.group(1) + "ms", "idle": True})
        return
    m = _UNPLAYED.match(word)
    if m:
        b = _button(board, m.group(1), "unknown key %s")
        s.press(b, s.key_ms, False)
        s.out.append({"delay": ms_text(s.gap_ms)})
        s.shoot(b[1])
        return
    m = _HELD.match(word)
    if m:
        b = _button(board, m.group(1), "unknown key %s")
        s.press(b, int(m.group(2)), False)
        s.out.append({"delay": ms_text(s.gap_ms)})
        s.out.append({"wait-key-lines": 1})  # its first line, and every repeat's line taken with it
        s.shoot(b[1])
        return
    _keys(s, board, word, w + 1 < len(words) and words[w + 1].upper().startswith("CUT@"))


def _keys(s, board, word, cut_next):
    m = _KEY.match(word)
    if not m:
        raise WordError("bad key " + word[:40])
    b = _button(board, m.group(1), "unknown key %%s (have %s %s)" % (" ".join(board.names()), WORDS))
    n = int(m.group(2) or 1)
    if m.group(3):  # a burst: quick presses (keypad's queue holds them), then all their lines
        for _ in range(n):
            s.press(b, 2 * KEYPAD_SCAN_MS, True)
            s.out.append({"delay": ms_text(2 * KEYPAD_SCAN_MS)})
        s.out.append({"wait-key-lines": n})
        s.out.append({"delay": ms_text(s.gap_ms)})
        return
    for k in range(n):
        if cut_next and k == n - 1:
            # the cut is timed from this press: press and release it, then the cut step runs the clock on
            s.out.append({"set-control": {"part-id": b[0], "control": "pressed", "value": 1},
                          "key": b[1], "burst": False, "cutNext": True})
            s.out.append({"release-before-cut": {"part-id": b[0], "ms": number(str(s.key_ms))}})
            continue
        s.press(b, s.key_ms, False)
        s.out.append({"wait-serial": "SULTAN key=" + b[1]})
        s.shoot(b[1])
        s.out.append({"delay": ms_text(s.gap_ms)})


def key_steps(keys, board="pybadge", key_ms=60, gap_ms=100, shots=True):
    """The steps of the words ``keys`` on ``board``'s buttons (a ``Buttons`` or a board's name)."""
    if isinstance(board, str):
        board = buttons(board)
    s = _Steps(key_ms, gap_ms, shots)
    words = [w for w in _SPLIT.split(keys) if w]
    for w in range(len(words)):
        _word(s, board, words, w)
    return s.out


def presses(keys, bursts=True):
    """The key names the words ``keys`` press, in order, for a tool that plays keys with no clock (the host's
    pictures): NAME and NAME*n (each a screenshot on an emulator), and NAME*n! with ``bursts``.  WordError for
    a bad word, and for any other word, saying why it has no place there."""
    key_steps(keys, shots=False)  # the grammar's own refusals first: a bad word, an unknown key
    out = []
    for word in (w for w in _SPLIT.split(keys) if w):
        m = _KEY.match(word)
        button = m and buttons().by_name(m.group(1))  # (RELOAD and RESET match too)
        if button and (bursts or not m.group(3)):
            out += [button[1]] * int(m.group(2) or 1)
        elif button:
            raise WordError("%s is a burst, which takes no screenshots" % word[:40])
        else:
            raise WordError("%s is no key press (only NAME, NAME*n%s)"
                            % (word[:40], ", NAME*n!" if bursts else ""))
    return out


def rng(seed):
    """mulberry32: a small seeded generator (floats in [0, 1)), the same sequence as emulate.js's."""
    state = [seed & 0xFFFFFFFF]

    def imul(a, b):
        return (a * b) & 0xFFFFFFFF

    def next_float():
        state[0] = (state[0] + 0x6D2B79F5) & 0xFFFFFFFF
        t = state[0]
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296
    return next_float


def random_keys(n, seed):
    """``n`` keys from RANDOM_MIX, seeded: the same words for the same seed on every emulator."""
    nxt = rng(seed)
    return " ".join(RANDOM_MIX[int(nxt() * len(RANDOM_MIX))] for _ in range(n))


def words_and_steps(keys, board="pybadge", key_ms=60, gap_ms=100, shots=True, random=0, seed=1):
    """(the words run: ``keys`` and ``random`` seeded ones after them, their steps)."""
    if random:
        keys += " " + random_keys(random, seed)
    return keys, key_steps(keys, board, key_ms, gap_ms, shots)


MS = real_in(0, 1e9)


def _ms(text):
    """A --key-ms/--gap-ms: a number 0..1e9, as a word's number is written."""
    return number(str(MS(text)))


def main(argv=None):
    p = ToolParser("keywords", prog="python -m sultan_host.keywords", description=__doc__.splitlines()[0])
    p.add_argument("--keys", default="", help="the words")
    p.add_argument("--names", choices=("pico", "pybadge", "pygamer"), default="pybadge",
                   help="whose buttons (the Pico's are diagram.json's parts)")
    p.add_argument("--random-keys", type=count, default=0, help="N seeded random keys after --keys")
    p.add_argument("--seed", type=count, default=1)
    p.add_argument("--key-ms", type=_ms, default=60)
    p.add_argument("--gap-ms", type=_ms, default=100)
    p.add_argument("--no-shots", dest="shots", action="store_false")
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        keys, steps = words_and_steps(a.keys, a.names, a.key_ms, a.gap_ms, a.shots, a.random_keys, a.seed)
    except WordError as err:
        p.error("--keys: %s" % err)
    sys.stdout.write(json.dumps({"keys": keys, "steps": steps}, separators=(",", ":"), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
