"""Reading a save back: the newest of the two slots that holds a record, its game replayed.

A board reads its save once, at power-on: ``sultan.saves.store.Slots.read`` imports this
module for that and forgets it at once, so its code is not kept in the heap while the game
runs.  The record format is in ``sultan.saves.record``.
"""

from sultan import const
from sultan.rules import engine
from sultan.saves.record import (
    F_GAME,
    F_KNOWN,
    GAME_HEAD,
    HEADER,
    MIN_RECORD,
    ORDER_BYTES,
    SEQ_MAX,
    VERSION,
    crc_ok,
)
from sultan.saves.stats import Stats, get

_SEQ_HALF = const(0x20000000)


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
        self.settings = 0
        self.rules = 0
        self.deal = 0
        self.moves = 0
        self.log_end = 0
        self.order_at = 0
        self.log_at = 0


def decode(data):
    """The Record in ``data`` (a slot's bytes), or None if it is not one (``encode``'s inverse)."""
    size = len(data)
    if size < MIN_RECORD or data[0] != 0x53 or data[1] != 0x55 or data[2] != VERSION:
        return None
    n = get(data, 8, 2)
    if n < MIN_RECORD or n > size or data[3] & ~F_KNOWN:
        return None
    if not crc_ok(data, n - 4):
        return None
    r = Record()
    r.settings = data[3] >> 1
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
        rc = game.act((b0 & 0x0F) << 8 | b1)  # the public action of the entry's kind
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


def read(slots, game=None):
    """(record, game, damaged): the newest record that holds, with its game replayed.

    ``record`` is None when neither slot holds one.  ``game`` is the saved
    game replayed (into the given ``game`` when it has the same rules, see
    ``restore``), None when the record has none or it does not
    replay; a newest record whose moves do not replay gives way to the
    older slot's when that one does.  ``damaged``: something was found that
    does not hold (never for an erased or fresh region: that is no save).

    One slot's bytes are held at a time (a 64 KB heap has little room to
    spare), and the chosen one is read again to be replayed.
    """
    if not slots.enabled:
        return None, None, False
    size = slots.slot_size
    recs = [None, None]
    erased = True  # every slot without a record reads all 0xFF
    for s in range(2):
        try:
            data = slots.region.read(s * size, size)
            recs[s] = decode(data)
            if recs[s] is None and data and min(data) != 0xFF:  # min: a C loop, not 2 KB of Python
                erased = False
        except MemoryError:  # a heap too full to read is no damage: the save stays as it is
            raise
        except Exception as err:  # a region that cannot be read is damage, not a crash
            slots.fault = err
            erased = False
    data = None
    r0 = recs[0]
    r1 = recs[1]
    if r0 is None and r1 is None:
        return None, None, not (erased or getattr(slots.region, "fresh", False))
    # The newer: sequence numbers run 1 .. SEQ_MAX, then 1 again (compared modulo SEQ_MAX).
    new = 1 if r0 is None or (r1 is not None and 0 < (r1.seq - r0.seq) % SEQ_MAX < _SEQ_HALF) else 0
    slots.seq = recs[new].seq
    slots.slot_next = 1 - new
    damaged = False
    for s in (new, 1 - new):
        rec = recs[s]
        if rec is None or not rec.has_game:
            break
        try:
            loaded = restore(rec, slots.region.read(s * size, size), game)
        except MemoryError:
            raise
        except Exception as err:  # never seen: a bad log is refused by the engine, not raised
            slots.fault = err
            loaded = None
            if game is not None:
                game.new_deal(1)
        if loaded is not None:
            if damaged:
                slots.slot_next = new  # write over the newest, damaged slot: the good one stays
            return rec, loaded, damaged
        damaged = True
    return recs[new], None, damaged
