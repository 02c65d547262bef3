"""How far a long run has got: a count of deals done, and a bar drawn by tqdm on a terminal."""

import sys

from tqdm import tqdm


class _Bar(tqdm):
    monitor_interval = 0  # no monitor thread: the survey forks its workers after the bar is made


class Progress:
    """``done`` of ``total`` items, and a one-line bar on ``stream`` when it is a terminal (and ``bar``).

    The latest one made is ``Progress.last``: an interrupted command says how far it got from it
    (``sultan_host.cli.main``)."""

    last = None

    def __init__(self, total, stream=None, label="deals", bar=True):
        Progress.last = self
        stream = stream or sys.stderr
        self.total = total
        self.done = 0
        on = bar and hasattr(stream, "isatty") and stream.isatty()
        self.bar = _Bar(total=total, file=stream, unit=" " + label, mininterval=0.1) if on else None

    def add(self, n):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
