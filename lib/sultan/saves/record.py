# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Saves that survive power cuts: a versioned record with a CRC-32, in two slots or a log.

The record (little-endian; about 50 bytes for a new game, at most 1005)::

    0   2  magic "SU"
    2   1  format version (2; a reader takes 1 too, see below)
    3   1  flags: bit 0 = a game follows the statistics; bits 1-7 = the player's
           settings bits 0-6 (sultan.ui.switches: bit 1 sound off, bit 2 lights off,
           bits 3-4 the ruleset of the next deal, bit 5 Russian, bit 6 motion off,
           bit 7 four-colour deck)
    4   4  sequence number (1 .. 2**30-1, +1 on every write)
    8   2  record length n, CRC included
    10  4  game number (a serial: +1 on every new game)
    14  4  number of the last game whose result is in the statistics
    18  1  the settings' bits 7-14 (0 while none is used)
    19  .  statistics: row count, then 19 bytes a ruleset (see sultan.saves.stats)
    .   9  game: rules (1), deal (4; 0 = an order game), moves (2), log_end (2)
    .  95  only for an order game: the 95 stock cards, top first
    .   .  the move log: 2 bytes an action, log_end actions (moves..log_end redoable)
    n-4 4  CRC-32 (IEEE, as zlib) of bytes 0 .. n-5

Format 1 (the releases up to 0.2) had no byte 18 and 17-byte statistics rows, without the
fewest moves to a win; the reader still takes it (fewest moves 0, bit 7 of the flags 0), and
the next write is format 2.

The store (``sultan.saves.store``) keeps two slots of up to 1024 bytes in a byte
region and writes them in turn, or (the Pico's NVM) appends records one after
another into erased bytes; the reader takes the valid record with the newest
sequence number (compared modulo SEQ_MAX: they wrap), so a write cut at any byte
leaves the record before it, i.e. the state before that write.  A record is valid when its magic,
version, length and CRC are right *and* its move log replays from the deal through the engine's own
actions, entry by entry, to the same log bytes: anything else is damage, never
a half-loaded game.

Statistics ride in every record, so a game's result and the game itself are
written in one go: a cut never counts a game twice or loses it.

Runs on CPython, MicroPython and CircuitPython: every int of ours stays below 2**30 (the
CRC is the firmware's ``binascii.crc32``, packed by ``struct``), encoding writes into a
preallocated buffer.
"""

import struct

# In every firmware the game runs on (CircuitPython 8.2.7-10.2.1 on the Pico and the SAMD51 badges): a
# 1,001-byte record's CRC in 0.2 ms on the Pico's 8.2.7/9.2.8/10.2.1, where our own nibble table took 34 ms.
from binascii import crc32

from sultan import const
from sultan.rules import A_TURN, KIND, engine
from sultan.saves.stats import put

VERSION = const(2)
F_GAME = const(1)
# The menu's settings ride in the flags byte, shifted left by one (sultan.ui.switches), and
# from bit 7 on in byte 18: a record written before they existed reads as "all defaults".
SETTINGS_MASK = const(0x7FFF)
F_KNOWN = const(0xFF)  # F_GAME | the settings' bits 0-6 << 1: the flags a reader knows
HEADER_1 = const(18)  # a format-1 record's header
HEADER = const(19)
GAME_HEAD = const(9)
ORDER_BYTES = const(95)
SLOT_MAX = const(1024)  # the largest record is 1005 bytes
SLOT_MIN = const(64)  # room for the statistics of one ruleset without a game
MIN_RECORD = const(23)  # a format-1 header + empty statistics + CRC
SEQ_MAX = const(0x3FFFFFFF)

# ---------------------------------------------------------------- CRC-32
def crc_into(data, n, out, o):
    """CRC-32 of ``data[0:n]``, written little-endian into ``out[o:o+4]``."""
    struct.pack_into("<I", out, o, crc32(memoryview(data)[:n]))


_crc_scratch = bytearray(4)


def crc_ok(data, n):
    """True if ``data[n:n+4]`` is the CRC-32 of ``data[0:n]``."""
    s = _crc_scratch
    crc_into(data, n, s, 0)
    return s[0] == data[n] and s[1] == data[n + 1] and s[2] == data[n + 2] and s[3] == data[n + 3]


# ------------------------------------------------------------- the record
def initial_order(game, out, o=0):
    """Write the 95 stock cards an order game started from (top first) into ``out`` at ``o``.

    Walks the game back to its start with undo and forward again with redo,
    which restore every byte exactly; nothing is allocated.
    """
    n = game.moves
    for _ in range(n):
        game.undo()
    for i in range(engine.DIVAN_SLOTS):
        out[o + i] = game.divan[i]
    o += engine.DIVAN_SLOTS
    sc = game.stock_count
    for i in range(sc):
        out[o + i] = game.stock[sc - 1 - i]
    for _ in range(n):
        game.redo()


def record_size(stats, game):
    n = HEADER + stats.size() + 4
    if game is not None:
        n += GAME_HEAD + 2 * game.log_end + (ORDER_BYTES if game.deal == 0 else 0)
    return n


def encode(buf, seq, stats, game_no, recorded, game=None, settings=0):
    """Write a record into ``buf``; returns its length.

    ``game`` None: the statistics only (an order game's 95 cards are found by walking it back,
    ``initial_order``); ``settings`` the menu's switches (0 .. SETTINGS_MASK).
    """
    buf[0] = 0x53  # "S"
    buf[1] = 0x55  # "U"
    buf[2] = VERSION
    buf[3] = (F_GAME if game is not None else 0) | (settings & 0x7F) << 1
    put(buf, 4, seq, 4)
    put(buf, 10, game_no, 4)
    put(buf, 14, recorded, 4)
    buf[18] = settings >> 7 & 0xFF
    i = stats.encode(buf, HEADER)
    if game is not None:
        buf[i] = game.rules
        put(buf, i + 1, game.deal, 4)
        put(buf, i + 5, game.moves, 2)
        put(buf, i + 7, game.log_end, 2)
        i += GAME_HEAD
        if game.deal == 0:
            initial_order(game, buf, i)
            i += ORDER_BYTES
        log = game.log
        for k in range(0, 2 * game.log_end, 2):
            b0 = log[k]
            buf[i + k] = b0
            # A turn's second byte means nothing, and autoplay leaves it stale: saved as 0.
            buf[i + k + 1] = 0 if b0 & KIND == A_TURN else log[k + 1]
        i += 2 * game.log_end
    put(buf, 8, i + 4, 2)
    crc_into(buf, i, buf, i)
    return i + 4
