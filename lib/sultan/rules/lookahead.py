# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Classic rules: the hint's lookahead (games played out by the one-step rule, in fixed memory).

Imported by ``sultan.rules.engine`` when the first classic game is set up (with
``sultan.rules.rollout``, the model it searches), so a seed game's heap never
pays for it; ``Game.hint`` runs it at every real choice.  A ``Lookahead`` makes
its buffers once (``rollout.MEMORY`` bytes); ``run`` allocates nothing and keeps
every int below 2**30.

The method (a "pilot" or rollout policy): at a choice, try each move, then play
the game out with the one-step rule (``Rollout._parks``); take the first move
whose game is won.  While the budget of ``ROLLOUTS`` games lasts and none is
won, try each move again with one other choice in the game after it: at its
first choice, then at its second, and so on -- the near choices first, since the
next hints look at the later ones again.  With no game won, the move whose game
placed the most cards.

The next hint does the same, so a player who follows the hints stays on the
won game found: the rule, tried first, wins it again in one game played out.
Measured (``docs/statistics.md``): 96.6 % of classic deals won; a hint takes at most
about 0.23 s on a Pico (CircuitPython 9.2.8, emulated) and 1 ms on the
MicroPython VM.
"""

from sultan import const
from sultan.rules import A_PARK, A_PLAY, A_REDEAL
from sultan.rules.rollout import (
    BRANCH,
    LAST_PASS_BONUS,
    S_DONE,
    S_PARK,
    S_PLAY,
    S_REDEAL,
    S_TURN,
    SIZE,
    WON,
    Rollout,
)
from sultan.rules.table import TALON

try:
    _WHOLE = slice(None)  # CircuitPython: a slice made once, so dst[_WHOLE] = src allocates nothing
except TypeError:  # MicroPython has no slice(): there dst[:] = src allocates nothing
    _WHOLE = None


def _copy(dst, src):
    # Copy a whole buffer into one of the same length, allocating nothing.
    if _WHOLE is None:
        dst[:] = src
    else:
        dst[_WHOLE] = src


# What a search found (``verdict``).
UNKNOWN = const(0)  # no move's game was won: the move is the one that placed the most cards
WIN = const(1)  # the move's game was won: it keeps the deal winnable
LOST = const(2)  # no move is left at all (a proof: the deal is lost)
OBVIOUS = const(3)  # set by the player: its last hint needed no lookahead

ROLLOUTS = const(4)  # games played out by one hint, at most


class Lookahead(Rollout):
    """The classic hint's search; ``run(game)`` returns the stage to play and sets ``verdict``."""

    def __init__(self, budget=ROLLOUTS, bonus=LAST_PASS_BONUS):
        Rollout.__init__(self, bonus)
        self.budget = budget
        self.moves = bytearray(2)  # the stages to choose from at a choice, the rule's first
        self.roots = bytearray(2)  # the same at the position being decided
        self.verdict = UNKNOWN
        self.rollouts = 0  # games the last run played out
        self.best = 0  # fewest cards any of them left

    def load(self, g):
        """Take the position of classic ``Game`` ``g`` (the game is only read)."""
        _copy(self.stock, g.stock)
        _copy(self.talon, g.talon)
        _copy(self.divan, g.divan)
        self.sc = g.stock_count
        self.tc = g.talon_count
        self.pas = g.pass_no
        self.left = SIZE - g.placed
        self.free = 0
        for i in range(6):
            if not g.divan[i]:
                self.free += 1
        ht = self.ht
        want = self.want
        for c in range(64):
            want[c] = 0
        for j in range(8):
            ht[j] = 99
        for f in range(8):
            c = g.foundation_card(f)
            a = (c & 15) % 13
            j = (c >> 4) << 1
            if ht[j] != 99:
                j += 1
            ht[j] = a
            if a < 12:
                want[(c & 0x30) | (a + 1)] += 1

    def _save(self):
        _copy(self.saved, self.state)
        self.counts = self.sc | self.tc << 7 | self.pas << 14 | self.left << 16 | self.free << 23

    def _restore(self):
        _copy(self.state, self.saved)
        x = self.counts
        self.sc = x & 127
        self.tc = (x >> 7) & 127
        self.pas = (x >> 14) & 3
        self.left = (x >> 16) & 127
        self.free = x >> 23

    def _apply(self, stage):
        tc = self.tc
        if stage == S_PLAY:
            self._place(self.talon[tc - 1])
            self.tc = tc - 1
            self.left -= 1
        elif stage == S_PARK:
            div = self.divan
            s = 0
            while div[s]:
                s += 1
            div[s] = self.talon[tc - 1]
            self.tc = tc - 1
            self.free -= 1
        elif stage == S_TURN:
            self.sc -= 1
            self.talon[tc] = self.stock[self.sc]
            self.tc = tc + 1
        else:
            self._redeal()

    def _choices(self):
        """Fill ``moves`` with the stages to choose from here, the one-step rule's first; returns how many."""
        tc = self.tc
        c = self.talon[tc - 1] if tc else 0
        first = S_TURN if self.sc else S_REDEAL if c and self.pas < 3 else S_DONE
        other = S_DONE
        if c and self.want[c]:
            first, other = S_PLAY, first
        elif c and self.free:
            other = S_PARK
            if self._parks(c, self.sc, tc, self.free) or first == S_DONE:
                first, other = other, first
        self.moves[0] = first
        self.moves[1] = other
        return (first != S_DONE) + (other != S_DONE)

    # ------------------------------------------------------------ the search
    def _line(self, root, depth):
        """From the saved position: choice ``root``, then the rule's line with one other
        choice at its ``depth``-th choice (0: none); False if that line has no such choice."""
        self._restore()
        self._apply(root)
        for d in range(depth):
            if self._play_out(False) != BRANCH:
                return False
            self._choices()
            stage = self.moves[0] if d < depth - 1 else self.moves[1]
            if stage == S_DONE:
                return False
            self._apply(stage)
        self._play_out(True)
        self.rollouts += 1
        return True

    def move(self, g):
        """The move ``run`` chooses in classic game ``g``, packed as a hint (see ``sultan.rules``);
        0 for a turn, or none (the player's rule then turns or redeals)."""
        stage = self.run(g)
        if stage == S_PLAY:
            return A_PLAY << 8 | TALON << 4 | (g.where[g.talon[g.talon_count - 1]] - 1)
        if stage == S_PARK:
            return A_PARK << 8 | g.free_slot() << 4
        if stage == S_REDEAL:
            return A_REDEAL << 8
        return 0

    def skipped(self):
        """The player found its move without looking ahead: ``verdict`` says so."""
        self.verdict = OBVIOUS

    def safe(self):
        """The last hint's move keeps the deal winnable: it was obvious, or a won game starts with it."""
        return self.verdict == WIN or self.verdict == OBVIOUS

    def run(self, g):
        """Look ahead from classic game ``g``'s position (left unchanged).

        Returns the stage of the first choice to make (``S_PLAY`` .. ``S_REDEAL``;
        ``S_DONE`` when the game is decided without one) and sets ``verdict``,
        ``rollouts`` and ``best``.

        Tries every choice here with the rule's game after it; then, while the budget
        lasts, every choice here with the rule's game after it but for one other choice,
        at the first choice of that game, then at the second, and so on: the near choices
        first, as the next hints will look at the later ones again.
        """
        self.load(g)
        self.rollouts = 0
        res = self._play_out(False)
        self.best = self.left
        if res != BRANCH:
            self.verdict = WIN if res == WON else LOST
            return S_DONE
        self._save()
        n = self._choices()
        roots = self.roots
        roots[0] = self.moves[0]
        roots[1] = self.moves[1]
        best = roots[0] if n else S_DONE
        most = 99
        depth = 0
        tried = True
        while tried and self.rollouts < self.budget:
            tried = False
            for k in range(n):
                if self.rollouts >= self.budget:
                    break
                if not self._line(roots[k], depth):
                    continue
                tried = True
                if self.left < most:
                    most = self.left
                    best = roots[k]
                if not most:
                    break
            if not most:
                break
            depth += 1
        self._restore()
        self.best = most if n else self.left
        self.verdict = WIN if most == 0 else UNKNOWN if n else LOST
        return best
