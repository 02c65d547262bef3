# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Reading a save back: the newest record in the region that holds, its game replayed.

A board reads its save once, at power-on: ``sultan.saves.store.Slots.read`` imports this
module for that and forgets it at once, so its code is not kept in the heap while the game
runs.  The record format is in ``sultan.saves.record``.
"""

from sultan import const
from sultan.rules import KIND, engine
from sultan.saves.record import (
    F_GAME,
    F_KNOWN,
    GAME_HEAD,
    HEADER,
    HEADER_1,
    MIN_RECORD,
    ORDER_BYTES,
    SEQ_MAX,
    VERSION,
    crc_ok,
)
from sultan.saves.stats import (
    BEST_STREAK,
    FEWEST,
    LOST,
    MAX_ROWS,
    PLAYED,
    ROW_BYTES,
    ROW_BYTES_1,
    RULES,
    STREAK,
    WON,
    Stats,
    get,
)

_SEQ_HALF = const(0x20000000)


def _get4(data, i):
    """A 4-byte field that must be below 2**30; -1 otherwise."""
    if data[i + 3] > 0x3F:
        return -1
    return get(data, i, 3) | data[i + 3] << 24


def stats_rows(data, i, end, size, rows):
    """Append to ``rows`` (an empty list) the statistics' rows at ``data[i:end]``, of ``size`` bytes
    each (``ROW_BYTES_1``: a format-1 record's, without the fewest moves: read as 0); returns the
    index after them, -1 if malformed (``sultan.saves.stats.Stats.encode``'s inverse)."""
    if i >= end:
        return -1
    n = data[i]
    i += 1
    if n > MAX_ROWS or i + n * size > end:
        return -1
    for _ in range(n):
        r = [data[i], get(data, i + 1, 3), get(data, i + 4, 3), get(data, i + 7, 3), data[i + 10],
             get(data, i + 11, 3), get(data, i + 14, 3), get(data, i + 17, 2) if size > ROW_BYTES_1 else 0]
        i += size
        if (r[WON] + r[LOST] != r[PLAYED] or r[STREAK] > r[BEST_STREAK] or r[BEST_STREAK] > r[WON]
                or r[FEWEST] and not r[WON]):
            return -1
        for q in rows:
            if q[RULES] == r[RULES]:
                return -1
        rows.append(r)
    return i


class Record:
    """A parsed, CRC-checked record (the game not yet replayed): see ``decode``."""

    def __init__(self):
        self.seq = 0
        self.game_no = 0
        self.recorded = 0
        self.stats = Stats()
        self.has_game = False
        self.settings = 0
        self.rules = 0
        self.deal = 0
        self.moves = 0
        self.log_end = 0
        self.order_at = 0
        self.log_at = 0

    def decode(self, data):
        """Read the record in ``data`` (a slot's bytes) into this one; False if it is not one.
        A format-1 record reads as format 2 with the fields it lacks 0."""
        size = len(data)
        if size < MIN_RECORD or data[0] != 0x53 or data[1] != 0x55 or not 1 <= data[2] <= VERSION:
            return False
        old = data[2] == 1
        n = get(data, 8, 2)
        if n < MIN_RECORD or n > size or data[3] & ~F_KNOWN:
            return False
        if not crc_ok(data, n - 4):
            return False
        self.settings = data[3] >> 1 if old else data[3] >> 1 | data[HEADER_1] << 7
        if old and data[3] & 0x80:  # beyond format 1's settings
            return False
        self.seq = _get4(data, 4)
        self.game_no = _get4(data, 10)
        self.recorded = _get4(data, 14)
        if self.seq <= 0 or self.game_no < 0 or self.recorded < 0 or self.recorded > self.game_no:
            return False
        i = stats_rows(data, HEADER_1 if old else HEADER, n - 4, ROW_BYTES_1 if old else ROW_BYTES,
                       self.stats.rows)
        if i < 0:
            return False
        if data[3] & F_GAME:
            if i + GAME_HEAD > n - 4:
                return False
            self.has_game = True
            self.rules = data[i]
            self.deal = _get4(data, i + 1)
            self.moves = get(data, i + 5, 2)
            self.log_end = get(data, i + 7, 2)
            i += GAME_HEAD
            if (self.deal < 0 or self.deal > engine.MAX_DEAL or self.moves > self.log_end
                    or self.log_end > engine.MAX_ACTIONS):
                return False
            if self.deal == 0:
                self.order_at = i
                i += ORDER_BYTES
            self.log_at = i
            i += 2 * self.log_end
        return i == n - 4


def decode(data):
    """The Record in ``data`` (a slot's bytes), or None if it is not one (``encode``'s inverse)."""
    r = Record()
    return r if r.decode(data) else None


def restore(rec, data, game=None):
    """Replay ``rec``'s game from ``data`` into ``game`` (or a new Game if none is given or
    it has other rules).

    Every log entry goes through the engine's public action and must be
    accepted and recorded with the very same two bytes; then the undone tail
    is undone again.  Returns the game, or None if any of it does not hold (a
    given ``game`` is then reset to a fresh deal 1: never half-loaded).
    """
    from sultan.rules.engine import OK, Game

    if game is not None and game.rules != rec.rules:
        game = None  # another ruleset than the caller's game: load() hands back a new Game
    try:
        if rec.deal:
            if game is None:
                game = Game(deal=rec.deal, rules=rec.rules)
            else:
                game.new_deal(rec.deal)
        else:
            order = bytes(data[rec.order_at:rec.order_at + ORDER_BYTES])
            if game is None:
                game = Game(order=order, rules=rec.rules)
            else:
                game.new_order(order)
    except ValueError:  # an unknown ruleset, a bad order
        if game is not None:
            game.new_deal(1)
        return None
    base = rec.log_at
    log = game.log
    good = True
    for k in range(rec.log_end):
        b0 = data[base + 2 * k]
        b1 = data[base + 2 * k + 1]
        rc = game.act((b0 & KIND) << 8 | b1)  # the public action of the entry's kind
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


def _newest(data, offsets):
    """(offset, Record): the newest record at one of ``offsets`` that holds (by sequence number:
    they run 1 .. SEQ_MAX, then 1 again); those tried leave ``offsets``."""
    while offsets:
        top = offsets[0]
        for at in offsets:
            if 0 < (_get4(data, at + 4) - _get4(data, top + 4)) % SEQ_MAX < _SEQ_HALF:
                top = at
        offsets.remove(top)
        rec = decode(memoryview(data)[top:])
        if rec is not None:
            return top, rec
    return -1, None


def read(slots, game=None):
    """What ``slots`` (a ``sultan.saves.store.Slots``) holds: (record, game, damaged, seq, last,
    end, fault), the newest record that holds with its game replayed, and the Slots' fields as
    the reading leaves them (``Slots.read`` sets them).

    The records are found one after another from the region's start (a log, or the first of two
    slots) and from its second slot's start; the newest by sequence number whose CRC holds is
    replayed (into ``game`` when it has the same rules, see ``restore``).  ``record`` None: none
    holds; ``game`` None: it has none, or it does not replay (then the one before it, if that one
    does).  ``damaged``: something that does not hold (never an erased or fresh region: no save;
    never a record cut short beside older ones: a cut write).  ``seq``: the newest's; ``last``:
    the record the next write keeps (the one loaded; -1: none); ``end``, a log's (None stays: two
    slots): erased from there on, -1 if not; ``fault``: an exception met.
    """
    seq, last, end, fault = slots.seq, slots.last, slots.end, slots.fault
    if not slots.enabled:
        return None, None, False, seq, last, end, fault
    region = slots.region
    try:
        data = region.read(0, len(region))  # once, whole
    except MemoryError:  # a heap too full to read is no damage: the save stays as it is
        raise
    except Exception as err:  # a region that cannot be read is damage, not a crash
        return None, None, True, seq, last, end, err
    size = len(data)
    offsets = []  # of the records laid one after another (by their headers: CRCs are checked newest first)
    found = -1
    for at in (0, slots.slot_size):  # from the start, and from the second of two slots
        if at in offsets:
            break  # reached from the start already
        while (at + MIN_RECORD <= size and data[at] == 0x53 and data[at + 1] == 0x55
               and 1 <= data[at + 2] <= VERSION):
            n = get(data, at + 8, 2)
            if n < MIN_RECORD or n > size - at:
                break
            offsets.append(at)
            at += n
        if found < 0:
            found = at
    if end is not None:
        end = found if found < size and min(memoryview(data)[found:]) == 0xFF else -1
    at, rec = _newest(data, offsets)
    if rec is None:
        damaged = not (min(data) == 0xFF or getattr(region, "fresh", False))
        return None, None, damaged, seq, last, end, fault
    newest = rec
    seq = rec.seq
    last = -1
    damaged = False
    while rec is not None:
        if not rec.has_game:
            break
        try:
            loaded = restore(rec, memoryview(data)[at:], game)
        except MemoryError:
            raise
        except Exception as err:  # never seen: a bad log is refused by the engine, not raised
            fault = err
            loaded = None
            if game is not None:
                game.new_deal(1)
        if loaded is not None:
            return rec, loaded, damaged, seq, at, end, fault
        if damaged:
            break
        damaged = True  # the newest does not replay: the one before it, if it does
        at, rec = _newest(data, offsets)
    if not damaged:  # a record without a game: kept by the next write
        last = at
    return newest, None, damaged, seq, last, end, fault
