"""The engine's public interface on the host: ``from sultan.engine import Game``.

Host-only (the CIRCUITPY build leaves it out): the device imports ``sultan.rules.engine``
directly.  This module re-exports the rules' names and adds ``Game.snapshot()``, the dict
the CLI prints as JSON, which the device never needs.
"""

from sultan.rules import engine as _rules
from sultan.rules.engine import *  # noqa: F401,F403  (the documented names: Game, TALON, OK, R_*, ...)


class Game(_rules.Game):
    """``sultan.rules.engine.Game`` plus ``snapshot()``."""

    def snapshot(self):
        """A dict of the whole visible state, as the CLI prints it in JSON."""
        from sultan_host.snapshot import snapshot

        return snapshot(self)
