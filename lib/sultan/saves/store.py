# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The saves' store: records in a byte region (``Slots``) and when to write them (``Store``).

A region is anything with ``len()``, ``read(offset, n)`` and ``write(offset,
data)`` (and optionally ``fresh``: True while it has never held a save, and
``erase_free``: True where writing erased bytes costs no erase).  ``Slots`` writes
records (the format is in ``sultan.saves.record``) with a rising sequence
number, either in two slots of up to 1024 bytes written in turn, or, in a
``erase_free`` region of 2 KB or more, one after another into its erased bytes; it
reads back the newest record that holds.  ``Store`` keeps the game and the
statistics there, written sparingly.

A region that holds no record is "no save" when it is erased (every byte 0xFF:
a new board's NVM, an empty or missing file) and damage otherwise.

Regions: ``sultan.saves.memory.MemoryRegion`` (RAM: the host's tests and tools),
``sultan.saves.nvm`` (the device's NVM), ``sultan_host.filesave`` (a file, replaced atomically).
"""

from sultan import forget, ticks_diff, ticks_ms
from sultan.rules import engine
from sultan.saves.record import SEQ_MAX, SLOT_MAX, SLOT_MIN, encode, record_size
from sultan.saves.stats import Stats, get

DAMAGED = "save data was damaged; starting a new game"
DAMAGED_SHORT = "save damaged: new game"  # for a 26-column message line


# ------------------------------------------------------------- the records
class Slots:
    """Records in a byte region; read back: the newest that holds.

    Two slots (the region's halves, up to 1024 bytes each): each write goes to
    the slot not holding the record kept (the newest that holds), so a write
    cut at any byte leaves that one: the state before the write.  Where every
    write erases the whole region first (``region.every_write_erases``: the
    SAMD51's 8 KB block), a write puts the new record in both slots in one
    slice: a cut erase can then leave only the newest record, never an older
    one, and slot 0, rewritten first, holds a whole record as soon as it can.

    A log (``region.erase_free``: the RP2040's NVM programs erased bytes
    without an erase): each record goes right after the last, into erased
    bytes, so a write costs no erase and a cut leaves the records before it.  When
    the next would not fit, the region is written whole in one slice (one
    erase): the record kept first, the new one after it, the rest erased.

    ``region`` None, or one too small for two ``SLOT_MIN`` slots, reads
    nothing and writes nothing.
    """

    def __init__(self, region):
        self.region = region
        size = len(region) if region is not None else 0
        self.slot_size = min(SLOT_MAX, size // 2)
        self.enabled = self.slot_size >= SLOT_MIN
        self.mirror = getattr(region, "every_write_erases", False) is True  # both slots at each write
        self.seq = 0  # the newest sequence number read or written (0: none)
        self.last = -1  # where the record kept by the next write is (the newest that holds; -1: none)
        # A log's end: erased from there on (-1: not, so the next write rewrites); None: two slots.
        self.end = 0 if size >= 2 * SLOT_MAX and getattr(region, "erase_free", False) is True else None
        self.writes = 0
        self.bytes_written = 0
        self.error = None  # the last write error, if the region refused a write
        self.fault = None  # an exception met while reading (tests assert there is none)

    def read(self, game=None):
        """(record, game, damaged): the newest record that holds, with its game replayed (see
        ``sultan.saves.reader.read``: imported for this and forgotten, as a board reads once)."""
        from sultan.saves import reader

        try:
            rec, loaded, damaged, self.seq, self.last, self.end, self.fault = reader.read(self, game)
        finally:
            forget("sultan.saves.reader")
        return rec, loaded, damaged

    def write(self, stats, game_no, recorded, game, settings):
        """Write a record (``game`` None: the statistics only): into the other slot, both, or a log's end.

        False if the region refused it (``error`` says why); a game too big for
        a small slot is left out, the statistics kept.  The bytes written are
        made for the write (a write comes at a checkpoint, not at every move),
        so nothing is held between writes.
        """
        if not self.enabled:
            return False
        if game is not None and record_size(stats, game) > self.slot_size:
            game = None
        seq = self.seq + 1 if self.seq < SEQ_MAX else 1
        n = record_size(stats, game)
        region = self.region
        last = self.last
        end = self.end
        try:
            if end is not None and not 0 <= end <= len(region) - n:
                # one slice, one erase; programmed in address order: the kept record first
                out = bytearray(b"\xff" * len(region))  # about once a game
                at = get(region.read(last + 8, 2), 0, 2) if last >= 0 else 0  # its length
                out[0:at] = region.read(last, at)
                encode(memoryview(out)[at:], seq, stats, game_no, recorded, game, settings)
                region.write(0, out)
            elif self.mirror:
                at = 0
                out = bytearray(self.slot_size + n)  # the slots' gap zeros: no record there
                encode(out, seq, stats, game_no, recorded, game, settings)
                out[self.slot_size:] = memoryview(out)[:n]
                region.write(0, out)
            else:
                at = end if end is not None else self.slot_size if 0 <= last < self.slot_size else 0
                out = bytearray(n)
                encode(out, seq, stats, game_no, recorded, game, settings)
                region.write(at, out)
        except Exception as err:  # a full disk, a read-only drive, a failing NVM: play on
            self.error = err  # (bytes left unerased by it cost the next write an erase, no more)
            return False
        self.seq = seq
        self.last = at
        if end is not None:
            self.end = at + n
        self.writes += 1
        self.bytes_written += n
        return True


# ------------------------------------------------------------- the store
class Store(Slots):
    """When to write: the game and the statistics, kept in the region's records (``Slots``) sparingly.

    The app calls ``load(game)`` once at power-on and ``save(game)`` after
    every action the player takes (and after starting a new game).  Writes
    are spared: ``save`` writes at once only when a game is decided or a pass
    ends (a redeal), otherwise after ``max_pending`` unsaved actions; the app's
    loop calls ``idle(ticks_ms)`` so that unsaved actions are written once the
    player has paused for ``idle_ms``; ``flush()`` writes what is pending.
    ``region`` None (no NVM) keeps everything in RAM and never fails.
    """

    def __init__(self, region, max_pending=32, idle_ms=10000):
        Slots.__init__(self, region)
        self.max_pending = max_pending
        self.idle_ms = idle_ms
        self.stats = Stats()
        self.settings = 0  # the menu's switches (sultan.ui.controller), saved in every record
        self.message = None  # DAMAGED after a load found damage; take_message() clears it
        self.game_no = 0
        self.recorded = 0
        self.pending = 0
        self._game = None  # the game last seen, and what it was then:
        self._deal = -1
        self._rules = 0
        self._moves = 0
        self._end = 0
        self._placed = 0
        self._pass = 1
        self._mark = -1  # ticks of the first idle() call after a change
        self._force_new = False
        self.rows_written = 0  # the statistics' rows in the last record read or written

    # ------------------------------------------------------------ loading
    def load(self, game=None, repair=True):
        """The saved game (replayed into ``game`` if given), or None.

        The game returned is ``game`` itself unless the save is of another
        ruleset than ``game``'s; then it is a new Game of the saved rules.

        None means "start a new game": nothing was saved (an erased region), or
        what was there is damaged.  Damage sets ``message``, once; unless
        ``repair`` is False (a read-only look) a clean record replaces it at
        once.  A damaged newest record with a good older one loads the older,
        with the message too.
        """
        self.message = None
        try:
            rec, loaded, damaged = Slots.read(self, game)
        except MemoryError:
            self.enabled = False  # a save that could not be read is never written over
            raise
        if rec is not None:
            self.game_no = rec.game_no
            self.recorded = rec.recorded
            self.stats = rec.stats
            self.rows_written = len(rec.stats.rows)
            self.settings = rec.settings
        if loaded is not None:
            self._see(loaded)
            if loaded.status() != engine.PLAYING and self.recorded != self.game_no:
                self._decide(loaded)
                self.pending += 1
        if damaged:
            self._damaged(loaded, repair)
        return loaded

    def _damaged(self, game, repair):
        self.message = DAMAGED
        if repair:
            self._write(game)  # replace it now, so the message is shown once

    short_message = DAMAGED_SHORT  # the same news for a narrow message line

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

    def set_settings(self, settings, game):
        """Note new menu settings (sound, lights, next ruleset); written like an action.

        Not at once: a player flicking a switch to and fro costs one write, at the next
        pause or checkpoint (``game`` is the game on show, saved with them).
        """
        if settings == self.settings:
            return False
        self.settings = settings
        urgent = self._observe(game)
        self.pending += 1
        if urgent or self.pending >= self.max_pending:
            return self._write(game)
        return False

    def idle(self, now_ms=None):
        """Call from the main loop: writes pending actions after ``idle_ms`` without any, and statistics
        reset (``Stats.reset``: fewer rows than the last record holds) at once."""
        if len(self.stats.rows) < self.rows_written:
            return self._write(self._game)
        if not self.pending or self._game is None:
            return False
        if now_ms is None:
            now_ms = ticks_ms()
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
            # count actions, not calls: one key may autoplay many moves
            d = game.moves - self._moves
            if d < 0:
                d = -d
            if d == 0 and game.log_end != self._end:
                d = 1
            self.pending += d
            if game.pass_no != self._pass:
                urgent = True  # a redeal (or its undo): the end of a pass is a checkpoint
        if game.status() != engine.PLAYING and self.recorded != self.game_no:
            self._decide(game)
            urgent = True
        self._see(game)
        self._mark = -1
        return urgent

    def _decide(self, game):
        self.stats.record(game.rules, game.status() == engine.WON, game.placed, game.moves)
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
        self.rows_written = len(self.stats.rows)
        self._mark = -1
        return Slots.write(self, self.stats, self.game_no, self.recorded, game, self.settings)
