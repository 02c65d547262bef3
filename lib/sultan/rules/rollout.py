# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Classic rules: the lookahead's model of a game, and the one-step rule played out on it.

``sultan.rules.lookahead`` builds its search on this (both are imported on the
first classic hint that has a real choice).  A ``Rollout`` makes its buffers
once (``MEMORY`` bytes); nothing after that allocates, and every int stays
below 2**30.

The model keeps the engine's layout (the stock's top last, the talon's top
last) in its own copies of the stock, talon, divan and foundations, plus a copy
of all of them taken at the position being decided (``_save``), put back before
each game played out from there (``_restore``).

``_play_out`` makes the moves that need no choosing, with the host solver's
proven shortcuts (see the docstring of ``sultan_host.analysis.solver``): a divan
card that fits is played; so is the talon's top card when both foundations of
its suit are at least one below it; with a full divan and a talon top that
does not fit, the stock is turned (or the talon redealt).  What is left is a
choice: play a talon top that fits while its suit's other foundation lags
behind, or not; park the talon top in an empty divan slot; turn; redeal.
With ``greedy`` it also makes those choices, by the one-step rule (``_parks``),
to the end of the game: a rollout.
"""

from sultan import const

SIZE = const(95)  # the stock and talon buffers, as the engine's

# The choices ("stages"), and S_DONE for none.
S_PLAY = const(0)  # the talon top onto its foundation
S_PARK = const(1)  # the talon top into the first empty divan slot
S_TURN = const(2)
S_REDEAL = const(3)
S_DONE = const(4)

# How _play_out stops.
BRANCH = const(0)  # at a choice (only without greedy)
WON = const(1)
DEAD = const(2)  # no move left

LAST_PASS_BONUS = const(1)  # the one-step rule parks one rank farther on the last pass

# The model's buffer: the stock, the talon, the divan, how many foundations take
# each card, the foundation heights (two a suit, 2s and 2s+1, unordered; K = 0).
_TALON = const(95)
_DIVAN = const(190)
_WANT = const(196)
_HT = const(260)
STATE = const(268)
MEMORY = 2 * STATE  # bytes of buffers: the model and its copy

class Rollout:
    """A classic position in fixed buffers; ``load(game)``, then ``_play_out``."""

    def __init__(self, bonus=LAST_PASS_BONUS):
        self.bonus = bonus
        self.state = bytearray(STATE)
        self.saved = bytearray(STATE)  # the state at the position being decided
        m = memoryview(self.state)
        self.stock = m[0:_TALON]  # stock[sc - 1] is the top
        self.talon = m[_TALON:_DIVAN]  # talon[tc - 1] is the top
        self.divan = m[_DIVAN:_WANT]
        self.want = m[_WANT:_HT]
        self.ht = m[_HT:STATE]
        self.sc = self.tc = self.pas = self.left = self.free = self.counts = 0

    def _place(self, c):
        # Card c goes onto a foundation of its suit that is one below it.
        ht = self.ht
        r = c & 15
        j = (c >> 4) << 1
        if ht[j] != r - 1:
            j += 1
        ht[j] = r
        self.want[c] -= 1
        if r < 12:
            self.want[c + 1] += 1

    def _redeal(self):
        # The talon turned over, its bottom card the stock's top.
        tc = self.tc
        for i in range(tc):
            self.stock[tc - 1 - i] = self.talon[i]
        self.sc = tc
        self.tc = 0
        self.pas += 1

    def _play_out(self, greedy):
        """Make the moves that need no choosing, and with ``greedy`` the one-step rule's too.

        Returns WON, DEAD, or (without ``greedy``) BRANCH at a choice.  The hot loop of
        every rollout: the counters are locals, and the divan is scanned only after a play.
        """
        # Its locals stand as Table.run's do (duplicates' "same shape"), on purpose: the model's
        # own buffers and counters, loaded once for the loop, not the engine's Table.
        stock = self.stock
        talon = self.talon
        div = self.divan
        want = self.want
        ht = self.ht
        sc = self.sc
        tc = self.tc
        left = self.left
        free = self.free
        scan = True
        res = DEAD
        while True:
            if scan and free < 6:
                s = 0
                while s < 6:
                    c = div[s]
                    if c and want[c]:
                        self._place(c)
                        div[s] = 0
                        left -= 1
                        free += 1
                        s = 0
                    else:
                        s += 1
            scan = False
            c = talon[tc - 1] if tc else 0
            if c and want[c]:
                r = c & 15
                j = (c >> 4) << 1
                if not greedy and (ht[j] < r - 1 or ht[j + 1] < r - 1):
                    res = BRANCH  # its suit's other foundation lags behind: play it or not
                    break
                self._place(c)
                tc -= 1
                left -= 1
                scan = True
                continue
            if not left:
                res = WON
                break
            if free:
                if not greedy:
                    res = BRANCH
                    break
                if c and self._parks(c, sc, tc, free):
                    s = 0
                    while div[s]:
                        s += 1
                    div[s] = c
                    tc -= 1
                    free -= 1
                    continue
            if sc:  # turn
                sc -= 1
                talon[tc] = stock[sc]
                tc += 1
            elif tc and self.pas < 3:
                self.tc = tc
                self._redeal()
                sc = tc
                tc = 0
            else:
                break
        self.sc = sc
        self.tc = tc
        self.left = left
        self.free = free
        return res

    def _parks(self, c, sc, tc, free):
        """The one-step rule for talon top ``c``, which does not fit: park it?

        Yes when no more cards must reach its foundation first than there are empty
        slots (+``bonus`` on the last pass, when nothing comes round again), or, with
        the stock out, when parking brings up a card that fits.
        """
        r = c & 15
        j = (c >> 4) << 1
        a = self.ht[j]
        b = self.ht[j + 1]
        if a >= r or r > b > a:
            a = b  # the nearer foundation below c
        if a < r and r - 1 - a <= (free + self.bonus if self.pas == 3 else free):
            return True
        if sc:
            return False
        i = tc - 2
        while free and i >= 0:
            if self.want[self.talon[i]]:
                return True
            free -= 1
            i -= 1
        return False
