#!/usr/bin/env python3
"""``python3 tools/sultan_cli.py ...``: play, scan, stats and resume (sultan_host.cli.main)."""

import _signal  # first, and builtins only: a Ctrl-C while the rest imports ends quietly, 130 (host_shim)

try:
    import posix as _os  # not os: it may still be importing when the signal comes
except ImportError:
    import nt as _os


def _stopped(*_signal_frame):
    _os._exit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _stopped)

from host_shim import run  # noqa: E402

run("sultan_host.cli.main", "sultan_cli")
