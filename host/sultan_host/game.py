"""The engine's public interface on the host: ``from sultan_host.game import Game``.

This module re-exports the rules' names and adds ``Game.snapshot()``, the dict the CLI prints as
JSON, which the device never needs (the device imports ``sultan.rules.engine`` directly).
"""

from sultan.rules import engine as _rules
from sultan.rules.engine import *  # noqa: F401,F403  (the documented names: Game, TALON, OK, R_*, ...)

from sultan_host.snapshot import snapshot as _snapshot


class Game(_rules.Game):
    """``sultan.rules.engine.Game`` plus ``snapshot()``."""

    def snapshot(self):
        """A dict of the whole visible state, as the CLI prints it in JSON."""
        return _snapshot(self)
