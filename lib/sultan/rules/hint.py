# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The canonical player: the hint, the safe hint, a step, autoplay -- on a ``Game`` ``g``.

``Game.hint()`` and its peers call these; the module is imported on the first of them, so a
board that never asks for a hint never holds this code.

* **Seed rules** (perfect attention): the first divan slot 0..5 whose card
  fits, else the talon top if it fits, else turn, else redeal.  Playing what
  fits at once is never wrong there, so this policy wins every deal that can be
  won.  ``autoplay`` runs it as the table's cascade (``Table.run``), which
  makes the same moves in the same order.
* **Classic rules**: first what needs no choosing (``Game.sure_play``): a divan card that
  fits, the talon top when both foundations of its suit are at least one below it (the
  host solver proves both safe); then a turn when the divan is full and the talon top
  does not fit.  At a real choice (park the talon top or not; play a talon top that fits
  while its suit's other foundation lags behind, or not) the lookahead decides
  (``g.lookahead``, a ``sultan.rules.lookahead.Lookahead`` made when the classic game was
  set up, so that no hint allocates).
"""

from sultan.rules import A_REDEAL, A_TURN, MAX_ACTIONS, NO_SAFE_MOVE, OK, PLAYING, cards
from sultan.rules.table import PASSES


def hint(g):
    """The canonical policy's next action, packed (see ``hint_kind``); 0 if none is left."""
    look = g.lookahead
    if not g.refill:
        look.skipped()
    h = g.sure_play()
    if h:
        return h
    tc = g.talon_count
    if not g.refill and tc and (g.where[g.talon[tc - 1]] or g.free_slot() >= 0):
        # Classic rules, at a real choice: the lookahead's move (none: a turn or redeal, below).
        if g.status() != PLAYING:
            return 0
        h = look.move(g)
        if h:
            return h
    if g.stock_count:
        return A_TURN << 8
    if g.pass_no < PASSES and g.placed < cards.STOCK_SIZE and (g.refill or tc):
        return A_REDEAL << 8
    return 0


def safe_hint(g):
    """The hint if it is safe, else ``engine.NO_SAFE_MOVE``; 0 if no move is left.

    Safe: the move cannot lower the deal's chances.  An obvious move is (a forced turn or
    redeal, or a play ``Game.sure_play`` gives, which the host solver proves harmless), so a
    deal the game calls winnable always gets its first hint; at a real choice, a move a won
    game starts with (found by the lookahead within its budget: a winnable deal can still get
    ``NO_SAFE_MOVE`` there).  Seed rules: the policy is perfect, so its hint.
    """
    h = hint(g)
    if not h or g.refill:
        return h
    return h if g.lookahead.safe() else NO_SAFE_MOVE


def step(g):
    """One action of the canonical policy; returns the hint done, 0 if none."""
    h = hint(g)
    if h:
        g.act(h)
    return h


def autoplay(g, stop_at_pass_end=False):
    """Play the canonical policy to the end; returns the status.

    With ``stop_at_pass_end`` it stops where the policy would redeal.  The
    moves are the ones ``step`` would make, recorded for undo alike.
    """
    while g.moves < MAX_ACTIONS:
        if g.refill:
            g.run(0)  # the seed policy's moves up to the pass's end, at speed
            h = A_REDEAL << 8
        else:
            h = hint(g)
            if not h:
                break
        if stop_at_pass_end and h >> 8 == A_REDEAL:
            break
        if g.act(h) != OK:
            break
    return g.status()
