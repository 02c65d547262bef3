"""Test helpers shared by the engine and save tests: hand-made orders, state fingerprints, a reference
model, two good save slots and a record spoiled."""

from sultan.rules import cards, engine, rng
from sultan.rules.engine import FOUNDATIONS, Game
from sultan.saves import reader, record, stats
from sultan.saves.memory import MemoryRegion
from sultan.saves.store import Store
from sultan_host.bench.mash import state
from sultan_host.snapshot import snapshot

C = cards.parse


def order_of(names):
    """bytes for a space-separated list of card names."""
    return bytes(C(w) for w in names.split())


def winning_order():
    """An order (stock top first) in which every card plays as it comes."""
    out = []
    need = [cards.LAYOUT[f] for f in range(FOUNDATIONS)]
    for _ in range(12):
        for f in range(FOUNDATIONS):
            top = need[f]
            if top & 15 == cards.QUEEN:
                continue
            nxt = (top & 0xF0) | (top & 15) % 13 + 1
            out.append(nxt)
            need[f] = nxt
    assert len(out) == 95
    return bytes(out)


def with_prefix(prefix_names):
    """A valid order starting with the given cards, the rest in canonical order."""
    prefix = [C(w) for w in prefix_names.split()]
    rest = bytearray(cards.STOCK_PACK)
    for c in prefix:
        rest.remove(c)
    return bytes(prefix) + bytes(rest)


def fingerprint(g):
    """Everything that defines a game's state, for equality checks."""
    return (
        bytes(g.stock[: g.stock_count]), bytes(g.talon[: g.talon_count]), bytes(g.divan), bytes(g.top),
        g.pass_no, g.placed, g.missed, g.moves, g.log_end, bytes(g.log[: 2 * g.log_end]), g.rng,
        g.status(),
    )


def all_cards(g):
    """Every card of the 104, wherever it is: layout (9) + foundations' cards + stock + talon + divan."""
    out = []
    for f in range(FOUNDATIONS):
        base = cards.LAYOUT[f]
        out.append(base)
        r = base & 15
        while r != g.top[f]:
            r = r % 13 + 1
            out.append((base & 0xF0) | r)
    out.append(cards.SULTAN)
    out += list(g.stock[: g.stock_count]) + list(g.talon[: g.talon_count]) + [c for c in g.divan if c]
    return sorted(out)


FULL_PACK = sorted([s << 4 | r for s in range(4) for r in range(1, 14)] * 2)


class Reference:
    """A plain, list-based model of the seed rules and the canonical policy (independent of Table/Game)."""

    def __init__(self, order, rng_state):
        self.stock = list(order)  # top first
        self.talon = []  # bottom first
        self.found = [[c] for c in cards.LAYOUT]
        self.divan = [self.stock.pop(0) for _ in range(6)]
        self.passes = 1
        self.rng = rng_state
        self.moves = 0

    def accepts(self, f, c):
        top = self.found[f][-1]
        if top & 15 == cards.QUEEN or c >> 4 != top >> 4:
            return False
        return c & 15 == (top & 15) % 13 + 1

    def fit(self, c):
        for f in range(8):
            if c and self.accepts(f, c):
                return f
        return -1

    def step(self):
        for i in range(6):
            f = self.fit(self.divan[i])
            if f >= 0:
                self.found[f].append(self.divan[i])
                self.divan[i] = self.stock.pop(0) if self.stock else 0
                self.moves += 1
                return True
        if self.talon and self.fit(self.talon[-1]) >= 0:
            self.found[self.fit(self.talon[-1])].append(self.talon.pop())
            self.moves += 1
            return True
        if self.stock:
            self.talon.append(self.stock.pop(0))
            self.moves += 1
            return True
        if self.passes < 3 and self.placed() < 95:
            gathered = bytearray(self.talon + [c for c in self.divan if c])
            shuffled = bytearray(len(gathered))
            self.rng = rng._shuffle_small(shuffled, gathered, len(gathered), self.rng)
            self.stock = list(reversed(shuffled))  # the engine's stock top is its last byte
            self.talon = []
            self.divan = [self.stock.pop(0) if self.stock else 0 for _ in range(6)]
            self.passes += 1
            self.moves += 1
            return True
        return False

    def placed(self):
        return sum(len(p) - 1 for p in self.found)

    def snapshot(self):
        return {
            "foundations": [cards.name(p[-1]) for p in self.found],
            "divan": [cards.name(c) if c else None for c in self.divan],
            "talon": [cards.name(c) for c in self.talon],
            "stock": [cards.name(c) for c in self.stock],
            "pass": self.passes,
            "placed": self.placed(),
            "moves": self.moves,
        }


def deal_order(n):
    """The order (stock top first) of numbered deal n, from the engine's snapshot."""
    g = Game(deal=n)
    snap = snapshot(g)
    return bytes(C(w) for w in snap["divan"] + snap["stock"]), g.rng


def as_format_1(buf, n):
    """The format-1 record of format-2 record ``buf[:n]``: no byte 18, 17-byte statistics rows (their
    fewest moves left out), version 1, its length and CRC made again."""
    rows = buf[record.HEADER]
    out = bytearray(buf[:record.HEADER_1]) + bytes([rows])
    at = record.HEADER + 1
    for _ in range(rows):
        out += buf[at:at + stats.ROW_BYTES_1]
        at += stats.ROW_BYTES
    out += buf[at:n - 4] + bytes(4)
    out[2] = 1
    out[8] = len(out) & 0xFF
    out[9] = len(out) >> 8
    record.crc_into(out, len(out) - 4, out, len(out) - 4)
    return bytes(out)


# ------------------------------------------------- saves: two slots, one of them spoiled
def slot_next(st):
    """The slot the next write of two-slot ``st`` goes to: the one not holding the record kept."""
    return 1 if 0 <= st.last < st.slot_size else 0


def steps_saved(st, g, n):
    """``n`` moves of ``g``, each told to store ``st``, then its pending ones written."""
    for _ in range(n):
        g.step()
        st.save(g)
    st.flush()


def two_slots():
    """(region, older game's state, the newer record's slot offset): two good records."""
    region = MemoryRegion()
    st = Store(region, max_pending=10**6)
    g = Game(deal=21)
    st.save(g)
    steps_saved(st, g, 30)
    older = state(g)
    steps_saved(st, g, 10)
    assert st.writes == 2 and slot_next(st) == 0  # slot 0: the older record; slot 1: the newest
    return region, older, state(g)


def spoil_last_move(region, offset):
    """Make the record at ``offset`` end with an illegal play, its CRC made right again."""
    rec = reader.decode(region.read(offset, 1024))
    n = rec.log_at + 2 * rec.log_end + 4
    buf = bytearray(region.read(offset, 1024))
    at = rec.log_at + 2 * (rec.log_end - 1)
    buf[at] = engine.A_PLAY
    buf[at + 1] = 5 << 4 | 7
    record.crc_into(buf, n - 4, buf, n - 4)
    assert reader.decode(buf) is not None  # the CRC holds: only the replay can tell
    region.data[offset:offset + 1024] = buf
