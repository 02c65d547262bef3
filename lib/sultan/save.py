"""Saves that survive power cuts: a versioned record with a CRC-32, in two slots.

The record (little-endian, at most 944 bytes)::

    0   2  magic "SU"
    2   1  format version (1)
    3   1  flags: bit 0 = a game follows the statistics
    4   4  sequence number (1 .. 2**30-1, +1 on every write)
    8   2  record length n, CRC included
    10  4  game number (a serial: +1 on every new game)
    14  4  number of the last game whose result is in the statistics
    18  .  statistics: row count, then 17 bytes a ruleset (see sultan.stats)
    .   9  game: rules (1), deal (4; 0 = an order game), moves (2), log_end (2)
    .  95  only for an order game: the 95 stock cards, top first
    .   .  the move log: 2 bytes an action, log_end actions (moves..log_end redoable)
    n-4 4  CRC-32 (IEEE, as zlib) of bytes 0 .. n-5

A store is an abstract byte region (``len``, ``read(offset, n)``,
``write(offset, data)``) split into two slots of up to 1024 bytes.  Writes go to
the two slots in turn; the reader takes the valid record with the higher
sequence number, so a write cut at any byte leaves the other slot, i.e. the
state before that write.  A record is valid when its magic, version, length and
CRC are right *and* its move log replays from the deal through the engine's own
actions, entry by entry, to the same log bytes: anything else is damage, never
a half-loaded game.

Statistics ride in every record, so a game's result and the game itself are
written in one go: a cut never counts a game twice or loses it.

Runs on CPython, MicroPython and CircuitPython: every int stays below 2**30
(the CRC is kept in two 16-bit halves), encoding writes into a preallocated
buffer.
"""

from sultan import const, engine
from sultan.stats import Stats, get, put

VERSION = const(1)
F_GAME = const(1)
HEADER = const(18)
GAME_HEAD = const(9)
ORDER_BYTES = const(95)
SLOT_MAX = const(1024)  # the largest record is 944 bytes
SLOT_MIN = const(64)  # room for the statistics of one ruleset without a game
MIN_RECORD = const(23)  # header + empty statistics + CRC
SEQ_MAX = const(0x3FFFFFFF)
_TICKS_MASK = const(0x1FFFFFFF)  # supervisor.ticks_ms wraps at 2**29
_TICKS_HALF = const(0x10000000)

DAMAGED = "save data was damaged; starting a new game"

# ---------------------------------------------------------------- CRC-32
# The reflected IEEE polynomial 0xEDB88320, a nibble at a time, in 16-bit halves.
_PH = const(0xEDB8)
_PL = const(0x8320)


def _tables():
    lo_t = []
    hi_t = []
    for i in range(16):
        lo = i
        hi = 0
        for _ in range(4):
            if lo & 1:
                lo = ((lo >> 1) | ((hi & 1) << 15)) ^ _PL
                hi = (hi >> 1) ^ _PH
            else:
                lo = (lo >> 1) | ((hi & 1) << 15)
                hi >>= 1
        lo_t.append(lo)
        hi_t.append(hi)
    return tuple(lo_t), tuple(hi_t)


_TLO, _THI = _tables()


def crc_into(data, n, out, o):
    """CRC-32 of ``data[0:n]``, written little-endian into ``out[o:o+4]``."""
    tlo = _TLO
    thi = _THI
    lo = 0xFFFF
    hi = 0xFFFF
    for i in range(n):
        lo ^= data[i]
        x = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[x]
        hi = (hi >> 4) ^ thi[x]
        x = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[x]
        hi = (hi >> 4) ^ thi[x]
    lo ^= 0xFFFF
    hi ^= 0xFFFF
    out[o] = lo & 0xFF
    out[o + 1] = lo >> 8
    out[o + 2] = hi & 0xFF
    out[o + 3] = hi >> 8


_crc_scratch = bytearray(4)


def crc_ok(data, n):
    """True if ``data[n:n+4]`` is the CRC-32 of ``data[0:n]``."""
    s = _crc_scratch
    crc_into(data, n, s, 0)
    return s[0] == data[n] and s[1] == data[n + 1] and s[2] == data[n + 2] and s[3] == data[n + 3]


def crc32(data):
    """The CRC-32 of ``data`` as 4 little-endian bytes (equal to zlib.crc32's)."""
    out = bytearray(4)
    crc_into(data, len(data), out, 0)
    return bytes(out)


# ------------------------------------------------------------- the record
def initial_order(game, out):
    """Write the 95 stock cards an order game started from (top first) into ``out``.

    Walks the game back to its start with undo and forward again with redo,
    which restore every byte exactly; nothing is allocated.
    """
    n = game.moves
    for _ in range(n):
        game.undo()
    for i in range(engine.DIVAN_SLOTS):
        out[i] = game.divan[i]
    sc = game.stock_count
    for i in range(sc):
        out[engine.DIVAN_SLOTS + i] = game.stock[sc - 1 - i]
    for _ in range(n):
        game.redo()


def record_size(stats, game):
    n = HEADER + stats.size() + 4
    if game is not None:
        n += GAME_HEAD + 2 * game.log_end + (ORDER_BYTES if game.deal == 0 else 0)
    return n


def encode(buf, seq, stats, game_no, recorded, game=None, order=None):
    """Write a record into ``buf``; returns its length.

    ``order`` is a 95-byte scratch buffer, needed only for an order game.
    """
    buf[0] = 0x53  # "S"
    buf[1] = 0x55  # "U"
    buf[2] = VERSION
    buf[3] = F_GAME if game is not None else 0
    put(buf, 4, seq, 4)
    put(buf, 10, game_no, 4)
    put(buf, 14, recorded, 4)
    i = stats.encode(buf, HEADER)
    if game is not None:
        buf[i] = game.rules
        put(buf, i + 1, game.deal, 4)
        put(buf, i + 5, game.moves, 2)
        put(buf, i + 7, game.log_end, 2)
        i += GAME_HEAD
        if game.deal == 0:
            initial_order(game, order)
            for k in range(ORDER_BYTES):
                buf[i + k] = order[k]
            i += ORDER_BYTES
        log = game.log
        for k in range(2 * game.log_end):
            buf[i + k] = log[k]
        i += 2 * game.log_end
    put(buf, 8, i + 4, 2)
    crc_into(buf, i, buf, i)
    return i + 4


def _get4(data, i):
    """A 4-byte field that must be below 2**30; -1 otherwise."""
    if data[i + 3] > 0x3F:
        return -1
    return get(data, i, 3) | data[i + 3] << 24


class Record:
    """A parsed, CRC-checked record (the game not yet replayed)."""

    def __init__(self):
        self.seq = 0
        self.game_no = 0
        self.recorded = 0
        self.stats = Stats()
        self.has_game = False
        self.rules = 0
        self.deal = 0
        self.moves = 0
        self.log_end = 0
        self.order_at = 0
        self.log_at = 0


def parse(data):
    """The Record in ``data`` (a slot's bytes), or None if it is not one."""
    size = len(data)
    if size < MIN_RECORD or data[0] != 0x53 or data[1] != 0x55 or data[2] != VERSION:
        return None
    n = get(data, 8, 2)
    if n < MIN_RECORD or n > size or data[3] & ~F_GAME:
        return None
    if not crc_ok(data, n - 4):
        return None
    r = Record()
    r.seq = _get4(data, 4)
    r.game_no = _get4(data, 10)
    r.recorded = _get4(data, 14)
    if r.seq <= 0 or r.game_no < 0 or r.recorded < 0 or r.recorded > r.game_no:
        return None
    i = r.stats.decode(data, HEADER, n - 4)
    if i < 0:
        return None
    if data[3] & F_GAME:
        if i + GAME_HEAD > n - 4:
            return None
        r.has_game = True
        r.rules = data[i]
        r.deal = _get4(data, i + 1)
        r.moves = get(data, i + 5, 2)
        r.log_end = get(data, i + 7, 2)
        i += GAME_HEAD
        if r.deal < 0 or r.deal > engine.MAX_DEAL or r.moves > r.log_end or r.log_end > engine.MAX_ACTIONS:
            return None
        if r.deal == 0:
            r.order_at = i
            i += ORDER_BYTES
        r.log_at = i
        i += 2 * r.log_end
    if i != n - 4:
        return None
    return r


def restore(rec, data, game=None):
    """Replay ``rec``'s game from ``data`` into ``game`` (or a new Game).

    Every log entry goes through the engine's public action and must be
    accepted and recorded with the very same two bytes; then the undone tail
    is undone again.  Returns the game, or None if any of it does not hold (a
    given ``game`` is then reset to a fresh deal 1: never half-loaded).
    """
    from sultan.engine import A_PLAY, A_REDEAL, A_TURN, OK, Game

    try:
        if rec.deal:
            if game is None:
                game = Game(deal=rec.deal, rules=rec.rules)
            elif game.rules != rec.rules:
                raise ValueError("rules")
            else:
                game.new_deal(rec.deal)
        else:
            order = bytes(data[rec.order_at:rec.order_at + ORDER_BYTES])
            if game is None:
                game = Game(order=order, rules=rec.rules)
            elif game.rules != rec.rules:
                raise ValueError("rules")
            else:
                game.new_order(order)
    except ValueError:
        if game is not None:
            game.new_deal(1)
        return None
    base = rec.log_at
    log = game.log
    good = True
    for k in range(rec.log_end):
        b0 = data[base + 2 * k]
        b1 = data[base + 2 * k + 1]
        kind = b0 & 0x0F
        if kind == A_TURN:
            rc = game.turn()
        elif kind == A_PLAY:
            rc = game.play(b1 >> 4, b1 & 15)
        elif kind == A_REDEAL:
            rc = game.redeal()
        else:
            rc = -1
        if rc != OK or log[2 * k] != b0 or log[2 * k + 1] != b1:
            good = False
            break
    if good:
        for _ in range(rec.log_end - rec.moves):
            if game.undo() != OK:
                good = False
                break
    if not good:
        game.new_deal(1)
        return None
    return game


# ------------------------------------------------------------- byte regions
class MemoryRegion:
    """A byte region in RAM (tests, and boards without a usable NVM)."""

    def __init__(self, size=2 * SLOT_MAX, fill=0xFF, data=None):
        if data is not None:  # bytes found somewhere: whatever they are, they are not "fresh"
            self.data = bytearray(data)
            self.fresh = False
        else:
            self.data = bytearray(size)
            for i in range(size):
                self.data[i] = fill
            self.fresh = True  # never held a save: an empty region is not "damaged"

    def __len__(self):
        return len(self.data)

    def read(self, offset, n):
        return bytes(self.data[offset:offset + n])

    def write(self, offset, data):
        self.data[offset:offset + len(data)] = data
        self.fresh = False


def ticks_diff(now, then):
    """``now - then`` for millisecond ticks that wrap at 2**29 (supervisor.ticks_ms)."""
    d = (now - then) & _TICKS_MASK
    return d - (_TICKS_MASK + 1) if d >= _TICKS_HALF else d


# ------------------------------------------------------------- the store
class Store:
    """The game and the statistics in a two-slot byte region.

    The app calls ``load(game)`` once at power-on and ``save(game)`` after
    every action the player takes (and after starting a new game).  Writes
    are spared: ``save`` writes at once only when a game is decided or a pass
    ends (a redeal), otherwise after ``max_pending`` unsaved actions; the app's
    loop calls ``idle(ticks_ms)`` so that unsaved actions are written once the
    player has paused for ``idle_ms``; ``flush()`` writes what is pending.
    ``region`` None (no NVM) keeps everything in RAM and never fails.
    """

    def __init__(self, region, max_pending=32, idle_ms=5000):
        self.region = region
        size = len(region) if region is not None else 0
        self.slot_size = min(SLOT_MAX, size // 2)
        self.enabled = self.slot_size >= SLOT_MIN
        self.buf = bytearray(self.slot_size if self.enabled else 0)
        self.order = bytearray(ORDER_BYTES)
        self.max_pending = max_pending
        self.idle_ms = idle_ms
        self.stats = Stats()
        self.message = None  # DAMAGED after a load found damage; take_message() clears it
        self.error = None  # the last write error, if the region refused a write
        self.writes = 0
        self.bytes_written = 0
        self.seq = 0
        self.slot_next = 0
        self.game_no = 0
        self.recorded = 0
        self.pending = 0
        self._game = None
        self._deal = -1
        self._rules = 0
        self._moves = 0
        self._end = 0
        self._placed = 0
        self._pass = 1
        self._mark = -1  # ticks of the first idle() call after a change
        self._force_new = False

    # ------------------------------------------------------------ loading
    def load(self, game=None):
        """The saved game (replayed into ``game`` if given), or None.

        None means "start a new game": nothing was saved, or what was there is
        damaged (then ``message`` says so, once, and a clean record replaces it).
        """
        self.message = None
        if not self.enabled:
            return None
        best = None
        best_data = None
        best_slot = 0
        for s in range(2):
            try:
                data = self.region.read(s * self.slot_size, self.slot_size)
            except (OSError, ValueError):
                data = b""
            rec = parse(data)
            if rec is not None and (best is None or rec.seq > best.seq):
                best = rec
                best_data = data
                best_slot = s
        if best is None:
            if not getattr(self.region, "fresh", False):
                self._damaged(game)
            return None
        self.seq = best.seq
        self.slot_next = 1 - best_slot
        self.game_no = best.game_no
        self.recorded = best.recorded
        self.stats = best.stats
        if not best.has_game:
            return None
        loaded = restore(best, best_data, game)
        if loaded is None:
            self._damaged(game)
            return None
        self._see(loaded)
        if loaded.status() != engine.PLAYING and self.recorded != self.game_no:
            self._decide(loaded)
            self.pending += 1
        return loaded

    def _damaged(self, game):
        self.message = DAMAGED
        self._write(None)  # replace it now, so the message is shown once

    def take_message(self):
        m = self.message
        self.message = None
        return m

    # ------------------------------------------------------------ saving
    def save(self, game, now_ms=None):
        """Note the state of ``game`` after a player action; returns True if written."""
        if self._observe(game) or self.pending >= self.max_pending:
            return self._write(game)
        if now_ms is not None and self.pending:
            self._mark = now_ms
        return False

    def new_game(self, game):
        """Tell the store a new game has begun in ``game`` (an unfinished one is counted lost)."""
        self._force_new = True
        return self.save(game)

    def idle(self, now_ms):
        """Call from the main loop: writes pending actions after ``idle_ms`` without any."""
        if not self.pending or self._game is None:
            return False
        if self._mark < 0:
            self._mark = now_ms
            return False
        if ticks_diff(now_ms, self._mark) >= self.idle_ms:
            return self._write(self._game)
        return False

    def flush(self):
        """Write pending changes now (leaving the game, closing the simulator)."""
        if self.pending and self._game is not None:
            return self._write(self._game)
        return False

    def _observe(self, game):
        """Account for ``game``'s new state; True if it must be written at once."""
        new = (self._force_new or self._deal < 0 or game is not self._game or game.deal != self._deal
               or game.rules != self._rules or (game.log_end == 0 and self._end > 0))
        urgent = False
        if new:
            # The game left behind counts (as lost) if it had begun and was not decided.
            # Not urgent: until the next write a power cut brings that game back, uncounted.
            if self._deal >= 0 and self._end > 0 and self.recorded != self.game_no:
                self.stats.record(self._rules, False, self._placed)
                self.recorded = self.game_no
            self.game_no = min(SEQ_MAX, self.game_no + 1)
            self._force_new = False
            self.pending += 1
        else:
            if game.moves != self._moves or game.log_end != self._end:
                self.pending += 1
            if game.pass_no != self._pass:
                urgent = True  # a redeal (or its undo): the end of a pass is a checkpoint
        if game.status() != engine.PLAYING and self.recorded != self.game_no:
            self._decide(game)
            urgent = True
        self._see(game)
        self._mark = -1
        return urgent

    def _decide(self, game):
        self.stats.record(game.rules, game.status() == engine.WON, game.placed)
        self.recorded = self.game_no

    def _see(self, game):
        self._game = game
        self._deal = game.deal
        self._rules = game.rules
        self._moves = game.moves
        self._end = game.log_end
        self._placed = game.placed
        self._pass = game.pass_no

    def _write(self, game):
        self.pending = 0
        self._mark = -1
        if not self.enabled:
            return False
        if game is not None and record_size(self.stats, game) > self.slot_size:
            game = None  # a small NVM keeps the statistics only
        seq = self.seq + 1 if self.seq < SEQ_MAX else 1
        n = encode(self.buf, seq, self.stats, self.game_no, self.recorded, game, self.order)
        try:
            self.region.write(self.slot_next * self.slot_size, memoryview(self.buf)[:n])
        except (OSError, ValueError) as err:
            self.error = err
            return False
        self.seq = seq
        self.slot_next ^= 1
        self.writes += 1
        self.bytes_written += n
        return True
